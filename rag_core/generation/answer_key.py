"""Is a grounded answer right? It is when it states the golden answer key and contradicts nothing of it.

A golden row's answer key is the few words of its anchor that answer the question ("0.6" of "Optional arg cutoff
(default 0.6)"; without one, the anchor is the key). `check_key` reads an answer against it:

states       every number of the key by value (0.6 = six tenths, 4/3 = four thirds), every technical name, every
             content word with inflections folded, its symbols and comparisons in order; a key shorter than its
             anchor with a value or a name is stated by them ("Zero" states "zero when k > n"); "Yes"/"No" to a
             yes/no question reads as the question's statement (generation.yes_no).
contradicts  another value where the key has one (generation.rival; the inverse fraction; "0.6 or 0.9"), swapped
             arguments or order, a negation added or removed near a key word (generation.negation), an antonym of
             a key word (lexicon), both alternatives, or a retraction ("... — false, ...").
doubt        what the rule saw but cannot tell from a right answer (a count word against a number, a number in
             an example, an opposite or a negation inside "if", a key word and its opposite both said): never red, never
             green.

    check_key("The default cutoff is 0.6 [S1].", "0.6").right                                  -> True
    check_key("The default cutoff is 1 [S1].", "0.6", "Optional arg cutoff (default 0.6)").right -> False
    check_key("Close words are found [S1].", "0.6").right                                      -> None

right: True (answered), False (wrong answer: contradicts it, whatever else it states), None (not confirmed: neither,
or a doubt; the answer may be right in other words). The README ("What the verdicts mean") has every rule with its
examples.

Left out on purpose: meaning beyond these words. Synonyms ("removed on its own" for "deleted automatically") are
not confirmed, never green; a wrong claim about something other than the key ("0.6, for ratio()") is not seen;
negations further than four words from the key word ("it is not the case that ... matched") are missed unless
the sentence says "isn't true".
"""
from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from rag_core.generation import claims
from rag_core.generation.answer_forms import COMPARISON, comparisons, fraction_terms, named_symbols, pairs, symbols
from rag_core.generation.key_contradictions import by_default as said_by_default, contradiction, in_order
from rag_core.generation.key_reading import KeyReading, as_read, key_words, number_places, shown_word, \
    word_places  # noqa: F401 (key_words re-exported)
from rag_core.generation.lexicon import ANTONYMS  # noqa: F401 (re-exported)
from rag_core.text.invisible import visible
from rag_core.generation.lexicon import one_word, same as fold, stem_set as folded_words, stems as words_of
from rag_core.generation.negation import condition_in_phrase, negated_at  # noqa: F401 (negated_at re-exported)
from rag_core.text.tokens import STOP
from rag_core.generation.yes_no import as_statement, opening_reply


class KeyCheck(NamedTuple):
    right: bool | None          # True: states the key, contradicts nothing; False: contradicts it; None: neither
    states: bool                # every number, name, word, symbol of the key is in the answer
    missing: tuple              # what of the key the answer lacks, in the key's order
    contradiction: str          # "" or what the answer says against the key, in words
    decided_by: tuple           # the words that decided: the key's that were found, or the contradicting ones
    key: str                    # the key it was read against
    doubt: str = ""             # "" or what the rule saw but cannot tell apart from a right answer (right is None)
    accepted_for: str = ""      # "" or, when `key` is a wording the golden set accepts, the golden key it stands for

    def as_dict(self) -> dict:
        return {"right": self.right, "states_key": self.states, "missing_from_answer": list(self.missing),
                "contradiction": self.contradiction or None, "decided_by": list(self.decided_by), "key": self.key,
                "doubt": self.doubt or None, "accepted_wording_of": self.accepted_for or None}

    @property
    def golden(self) -> str:
        """The golden key this check stands for: its own, or the one its accepted wording stands for."""
        return self.accepted_for or self.key



def check_key(answer: str, key: str, anchor: str | None = None, question: str | None = None,
              source: str | None = None) -> KeyCheck:
    """Whether `answer` states `key` and whether it contradicts it (the rule above). `anchor`: the anchor that holds
    the key (its words before the key tell what the key's value is of, and whether a key word is negated there);
    `question`: its numbers and calls are not rival values; `source`: the text of the spans the answer cites (a
    comparison they write, "k <= n" beside "k > n", is context, not the key's swapped)."""
    if not isinstance(answer, str) or not isinstance(key, str) or not key.strip():
        raise ValueError("check_key needs the answer and a non-empty answer key as text.")
    k = KeyReading(key, anchor, question, source)
    answer = visible(answer)                                # "0\u200f.6" is 0.6, as it shows
    statement = as_statement(answer, question)
    k.replied = statement != answer                         # a leading Yes or No read as the question's statement
    text = as_read(statement)                               # "Yes [S1]." says what the question asks
    text = one_word(named_symbols(text) if k.symbols else text)     # "the star wildcard"; "in front of"
    have = claims.Claims(text)
    stems = folded_words(text)
    core, context = [], []                  # (as the key writes it, stated?): a value or a name, and the rest
    for lit, v in k.numbers:                # "pass mtime=0" is what a caller may pass, not the value stated
        said = have.has_number(v) and not _only_passed(text, [x for x, y in have.numbers if y == v], k)
        (context if v in k.counts else core).append((lit, said))
    stated_fractions = [Fraction(*t) for t in fraction_terms(text) if t not in k.inputs] + \
        [Fraction(v) for _, v in have.numbers if isinstance(v, Decimal)]     # "it stays 8/6" is the input
    for f in k.fractions:
        said = any(abs(g - f) < Fraction(1, 10 ** 9) for g in stated_fractions)
        core.append((f"{f.numerator}/{f.denominator}", said))
    for n in k.names:
        core.append((n, have.has_name(n)))
    valued = bool(core) and k.context != k.text     # a key (short of its anchor) with a value or a name is stated
                                                    # by them; an anchor as its own key needs every word
    by_default = said_by_default(k, stems, text)
    for w in k.words:                       # "(default True)" is stated by "by default it is deleted"
        ok = w in stems or (w == fold("true") and by_default) or _than_left_out(text, k, w, stems)
        negated = k.negated(word_places(k.context, w))            # "not matched": its negation is the answer
        (core if negated else context).append((shown_word(k, w).strip("'"), ok))   # as the key writes it
    said_cmp = comparisons(text)
    context += [(" ".join(c), c in said_cmp) for c in k.comparisons]
    if k.symbols:
        core.append((" ".join(k.symbols), in_order(k.symbols, symbols(COMPARISON.sub(" ", text))) or
                     bool(k.pairs) and set(k.pairs) <= set(pairs(text))))      # "'+' becomes '-'" in any order
    found = [x for x, ok in core + context if ok and x]
    missing = [x for x, ok in core + context if not ok]
    states = all(ok for _, ok in core) and (valued or all(ok for _, ok in context))
    missing = [] if states else missing
    why, words_against, doubt = contradiction(text, k, have, stems, said_cmp)
    right = False if why else (True if states and not doubt else None)
    decided = words_against if why else doubt[1] if doubt else found
    return KeyCheck(right, states, tuple(missing), why, tuple(decided), k.text, doubt[0] if doubt and not why else "")


def _than_left_out(text: str, k: KeyReading, w: str, stems: set) -> bool:
    """Whether w is what the key compares with ("n" of "shorter than n") and the answer says the comparative
    without any "than" after it: "It may be shorter [S1]."."""
    for m in re.finditer(r"([A-Za-z]+)\s+than\s+([A-Za-z]\w*)", k.text):
        if fold(m[2]) == w and fold(m[1]) in stems:
            said = [p for p in word_places(text, fold(m[1]))]
            return not any(re.match(r"[A-Za-z]+\s+than\b", text[p:]) for p in said)
    return False


def _only_passed(text: str, literals: list, k: KeyReading) -> bool:
    """Whether every place of these literals is the value of an argument other than the key's subject: "pass
    mtime=0" for "The modification time is set to 0" (but "cutoff=0.6" states the cutoff's 0.6)."""
    places = [p for lit in literals for p in number_places(text, lit)]
    passed = [re.search(r"(\w+)\s*=\s*$", text[max(0, p - 40):p]) for p in places]
    return bool(places) and all(m and not any(s in k.subject for _, s in words_of(m[1])) for m in passed)


def read_accepted(answer: str, accept, check: KeyCheck, question: str | None = None,
                  source: str | None = None) -> KeyCheck:
    """The key check, or the check against a wording the golden set accepts for the key (GoldenRow.accept: "no size
    limit" for "the cache can grow without bound"), read by the same rule with no anchor: used only when the key
    itself is neither stated nor contradicted and the rule has no doubt, and only when the answer states a wording
    and contradicts none ("there is no size limit" yes; "there is not no size limit" no, it stays as it was).

    read_accepted("No size limit [S1].", ["no size limit"], check_key("No size limit [S1].", "grow without bound"))
    -> KeyCheck(right=True, key="no size limit", accepted_for="grow without bound", ...)
    """
    if check.right is not None or check.doubt or not accept:
        return check
    have = {s for _, s in words_of(one_word(answer))}     # a wording whose words the answer lacks is not read: it
    near = [w for w in accept if {s for _, s in words_of(one_word(w)) if s not in STOP} <= have]   # cannot be stated
    checks = [_wording(answer, wording, question, source)._replace(key=wording) for wording in near]
    if any(c.right is False for c in checks):
        return check
    stated = next((c for c in checks if c.right is True and not _hedged_in(answer, c.key)), None)
    return check if stated is None else stated._replace(accepted_for=check.key)


def check_again(text: str, check: KeyCheck, anchor: str | None = None, question: str | None = None,
                source: str | None = None) -> KeyCheck:
    """`text` (a sentence of the answer) read against what `check` found stated: its key, or the accepted wording
    read as read_accepted reads it (`_wording`)."""
    if check.accepted_for:
        return _wording(text, check.key, question, source)
    return check_key(text, check.key, anchor, question, source)


def _wording(text: str, wording: str, question: str | None, source: str | None) -> KeyCheck:
    """`text` read against an accepted wording, with no anchor: "unbounded" read as the answer's "without bound"."""
    return check_key(text, one_word(wording), None, question, source)


def _hedged_in(answer: str, wording: str) -> bool:
    """Whether the wording's first content word stands only after an "if" or "unless" of its phrase, or only
    negated: "dropped if it has fewer than n items" puts "fewer than n" in a condition, "it is not unbounded"
    negates "unbounded" (a negation the key's own reading misses when the wording holds one: un-, without)."""
    first = next((s for _, s in words_of(wording) if s not in STOP), None)
    places = word_places(answer, first) if first else []
    return bool(places) and all(condition_in_phrase(answer, p, "if|unless") or negated_at(answer, p) for p in places)


def read_reply(answer: str, reply: str | None, check: KeyCheck) -> KeyCheck:
    """The key check with a yes/no question's golden reply ("yes" or "no") read: an answer opening with the other
    reply contradicts the key ("it answers No where the golden reply is Yes"); one opening with it, with nothing
    against the key and no doubt, is right, decided by the reply. Without a reply, or an answer opening with
    neither, the check as it was.

    read_reply("Yes [S1].", "yes", check_key("Yes [S1].", "rotated every night", ...)).right -> True
    """
    golden = (reply or "").strip().lower()
    said = opening_reply(answer)[0] if golden in ("yes", "no") else ""
    if not said:
        return check
    if said != golden:
        return check._replace(right=False, contradiction=f"it answers {said.capitalize()} where the golden reply to "
                                                         f"this yes/no question is {golden.capitalize()}",
                              decided_by=(said.capitalize(),), doubt="")
    if check.right is False or check.doubt:
        return check
    return check._replace(right=True, states=True, missing=(), decided_by=(said.capitalize(),))
