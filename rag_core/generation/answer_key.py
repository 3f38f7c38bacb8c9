"""Is a grounded answer right? It is when it states the golden answer key and contradicts nothing of it.

A golden row's answer key is the few words of its anchor that answer the question ("0.6" of "Optional arg cutoff
(default 0.6)"; without one, the anchor is the key). `check_key` reads an answer against it:

states       every number of the key, by value (0.6 = 0.60 = six tenths, 0 = zero, 4/3 = four thirds, not the
             question's input 8/6), every technical name, every content word with inflections folded
             (default/defaults, deleted/deletes, lexicon.PHRASES: "in front of" = before; "True" of "(default
             True)" also by "by default" with any "False" after "unless"), the key's symbols in order ('-' before
             '+'; by name, "a hyphen for the plus"; or its pairs in any order, "'+' becomes '-'"), its comparisons
             ("k > n" = "n < k" = "k is greater than n") and fractions. A key short of its anchor with a value or a
             technical name is stated by them (its other words, but a negated one, may be left out: "Zero" states
             "zero when k > n"); a value only passed to another argument ("pass mtime=0") states nothing; "shorter"
             with no "than" after it leaves out what "shorter than n" compares with. A leading "Yes"/"No" to a
             yes/no question reads as the question's statement (generation.yes_no).
contradicts  another value where the key has one (generation.rival: "the default cutoff is 1"; the inverse
             fraction 3/4; "0.6 or 0.9"; "4/3, or 8/6"), swapped arguments or order (Fraction(6, 8) for
             Fraction(8, 6), "'+' instead of '-'", "n > k", "heappop() followed by heappush()"), a negation added
             or removed ("not", "never", "no", "no longer", "without", "cannot", n't with any apostrophe, "non-", a
             sentence with "unless" or "isn't true"), an antonym of a key word instead of it (smaller/larger,
             leftmost/rightmost, before/after, enabled/disabled, more/less, shorter/longer, true/false), both
             alternatives ("the smaller or the larger", "either just before ... or just after ..."), or a
             retraction after saying it ("... — false, ...")

    check_key("The default cutoff is 0.6 [S1].", "0.6").right                                  -> True
    check_key("The default cutoff is 1 [S1].", "0.6", "Optional arg cutoff (default 0.6)").right -> False
    check_key("Close words are found [S1].", "0.6").right                                      -> None

right: True (answered: states it, contradicts nothing), False (wrong answer: contradicts it, whatever else it
states), None (not confirmed: neither, or a doubt; the answer may be right in other words).

doubt        what the rule saw but cannot tell from a right answer: never red, never green. Another number where
             the key's value is a count word ("the smaller one" for "the two middle values") or in an example
             ("e.g. ... returns 3"); an opposite inside an "if" condition ("if it is set to False"); a key word
             and its opposite both said ("before the leftmost; bisect_right puts it after"); a key word
             negated after "unless" and stated before it; a dropped negation in an answer with a negation of its
             own ("Not by default; set ... to match them"); an opposite of an anchor word outside the key
             (lexicon.ASIDE: "automatically" / "yourself").

A negation counts where it governs a key word: within the four words before it in the same phrase (a comma, a
bracket, "but", "and" end the phrase), or anywhere in a sentence with "unless" or "isn't true". So "No, the
modification time is set to 0" keeps its "No" to the question, and "0.6, not 0.9" negates 0.9 only. Answering
"No" to a yes/no question whose key is negative is agreement.

Left out on purpose: meaning beyond these words. Synonyms ("removed on its own" for "deleted automatically") are
not confirmed, never green; a wrong claim about something other than the key ("0.6, for ratio()") is not seen;
negations further than four words from the key word ("it is not the case that ... matched") are missed unless
the sentence says "isn't true".
"""
from __future__ import annotations

import itertools
import re
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from rag_core.generation import claims, quantities
from rag_core.generation.answer_forms import COMPARISON, calls, comparisons, fraction_terms, fractions, named_symbols, \
    pairs, sequences, symbols
from rag_core.generation.key_reading import Doubt, KeyReading, fraction_places, name_places, number_places, \
    key_words, plain, shown_word, word_places  # noqa: F401 (key_words re-exported)
from rag_core.generation.lexicon import ANTONYMS  # noqa: F401 (re-exported)
from rag_core.generation.lexicon import ASIDE_OPPOSITE, OPPOSITE as _OPPOSITE, one_word, same as fold, \
    stem_set as folded_words, stems as words_of
from rag_core.generation.negation import WINDOW, conditional_at, is_negation, negated_at, sentence_head as _sentence_head, \
    tokens, uncertain_at
from rag_core.generation.hedge import hedged
from rag_core.generation.rival import rival_value
from rag_core.generation.yes_no import as_statement

_RETRACTION = re.compile(
    r"(?:[\u2014\u2013]|--|\s-\s|[,;:.(])\s*(?:false|wrong|incorrect|untrue)\s*[,;:!\u2014\u2013]"
    r"|\b(?:that|this|which)(?:'s|\s+is|\s+was)\s+(?:false|wrong|incorrect|untrue|not\s+(?:true|correct|right))\b"
    r"|\b(?:that|this|which)\s+(?:is|was)\s*n't\s+(?:true|correct|right)\b"
    r"|\bscratch\s+that\b|\bcorrection\s*[:,]|\bI\s+was\s+wrong\b|\bon\s+second\s+thought\b|\bno,?\s+wait\b"
    r"|\bactually,?\s+(?:no|not)\b", re.I)


class KeyCheck(NamedTuple):
    right: bool | None          # True: states the key, contradicts nothing; False: contradicts it; None: neither
    states: bool                # every number, name, word, symbol of the key is in the answer
    missing: tuple              # what of the key the answer lacks, in the key's order
    contradiction: str          # "" or what the answer says against the key, in words
    decided_by: tuple           # the words that decided: the key's that were found, or the contradicting ones
    key: str                    # the key it was read against
    doubt: str = ""             # "" or what the rule saw but cannot tell apart from a right answer (right is None)

    def as_dict(self) -> dict:
        return {"right": self.right, "states_key": self.states, "missing_from_answer": list(self.missing),
                "contradiction": self.contradiction or None, "decided_by": list(self.decided_by), "key": self.key,
                "doubt": self.doubt or None}



def check_key(answer: str, key: str, anchor: str | None = None, question: str | None = None,
              source: str | None = None) -> KeyCheck:
    """Whether `answer` states `key` and whether it contradicts it (the rule above). `anchor`: the anchor that holds
    the key (its words before the key tell what the key's value is of, and whether a key word is negated there);
    `question`: its numbers and calls are not rival values; `source`: the text of the spans the answer cites (a
    comparison they write, "k <= n" beside "k > n", is context, not the key's swapped)."""
    if not isinstance(answer, str) or not isinstance(key, str) or not key.strip():
        raise ValueError("check_key needs the answer and a non-empty answer key as text.")
    k = KeyReading(key, anchor, question, source)
    text = plain(as_statement(answer, question))         # "Yes [S1]." says what the question asks
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
    by_default = _by_default(k, stems, text)
    for w in k.words:                       # "(default True)" is stated by "by default it is deleted"
        ok = w in stems or (w == fold("true") and by_default) or _than_left_out(text, k, w, stems)
        negated = k.negated(word_places(k.context, w))            # "not matched": its negation is the answer
        (core if negated else context).append((shown_word(k, w).strip("'"), ok))   # as the key writes it
    said_cmp = comparisons(text)
    context += [(" ".join(c), c in said_cmp) for c in k.comparisons]
    if k.symbols:
        core.append((" ".join(k.symbols), _in_order(k.symbols, symbols(COMPARISON.sub(" ", text))) or
                     bool(k.pairs) and set(k.pairs) <= set(pairs(text))))      # "'+' becomes '-'" in any order
    found = [x for x, ok in core + context if ok and x]
    missing = [x for x, ok in core + context if not ok]
    states = all(ok for _, ok in core) and (valued or all(ok for _, ok in context))
    missing = [] if states else missing
    why, words_against, doubt = _contradiction(text, k, have, stems, said_cmp)
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


def _in_order(wanted: list, have: list) -> bool:
    it = iter(have)
    return all(any(w == h for h in it) for w in wanted)


def _contradiction(text: str, k: KeyReading, have, stems: set, said_cmp) -> tuple[str, list, Doubt | None]:
    """(what the answer says against the key, the words that show it, the first doubt), or ("", [], doubt)."""
    checks = (_rival, _swapped, _negation, _antonym, _retraction, _aside, _hedge)
    doubt = None
    for check in checks:
        found = check(text, k, have, stems, said_cmp)
        if isinstance(found, Doubt):
            doubt = doubt or found
        elif found:
            return found[0], found[1], None
    return "", [], doubt


def _hedge(text, k: KeyReading, have, stems, said_cmp):
    said = hedged(text)
    return Doubt((f"it hedges ('{said}'): a person would not sign it as the answer", [said])) if said else None


def _rival(text, k: KeyReading, have, stems, said_cmp):
    return rival_value(text, k, have)


def _swapped(text, k: KeyReading, have, stems, said_cmp):
    for name, args in calls(text):
        for kname, kargs in k.calls:
            if name == kname and args != kargs and sorted(args) == sorted(kargs):
                return (f"it writes {name}({', '.join(args)}) where the question has {kname}({', '.join(kargs)}): "
                        "the arguments are swapped", [f"{name}({', '.join(args)})"])
    for c in said_cmp:
        for kc in k.comparisons:
            if c != kc and {c[0], c[2]} == {kc[0], kc[2]} and not _context_only(text, c, k):
                return f"it says {' '.join(c)} where the golden answer says {' '.join(kc)}", [" ".join(c)]
    for a, b in pairs(text):
        if (b, a) in k.pairs and (a, b) not in k.pairs:
            return f"it uses {a} instead of {b}, the other way round from the golden answer", [a, b]
    ordered = sequences(k.context)
    for a, b in sequences(text):
        if (b, a) in ordered and (a, b) not in ordered:
            return f"it puts {a}() before {b}(), the other way round from the golden answer", [a, b]
    return None


_CLAUSE_END = re.compile(r"[;:.!?,(\u2014\u2013]|\b(?:and|but|while|whereas|otherwise)\b", re.I)


def _context_only(text: str, c: tuple, k: KeyReading) -> bool:
    """Whether a comparison the cited spans also write stands in a clause of its own, away from the key's other
    words and values: "It returns 0; for k <= n it computes n!/(k!(n-k)!)" (context), not "zero when k <= n"."""
    if c not in k.source_comparisons:
        return False
    for m in itertools.islice(COMPARISON.finditer(text), 200):      # bounded: a 1 MB answer of comparisons
        if comparisons(m[0]) != [c]:
            continue
        clause = _CLAUSE_END.split(text[max(0, m.start() - 200):m.start()])[-1]
        said = {s for _, s in words_of(clause)} | {v for _, v in quantities.numbers(clause)}
        if said & (set(k.words) - set(c)) or said & {v for _, v in k.numbers}:
            return False
    return True


def _same_word_both_ways(text: str, places: list, negated: list) -> bool:
    """Whether the very same word (as written) is said at a place and negated with a negation word at another."""
    word = lambda p: re.match(r"\w+", text[p:])
    plain = {w[0].lower() for p, n in zip(places, negated) if not n and (w := word(p))}
    return any(n and (w := word(p)) and w[0].lower() in plain for p, n in zip(places, negated)) and \
        any(is_negation(t) for _, t in tokens(text))


def _negation(text, k: KeyReading, have, stems, said_cmp):
    elements = [(w, word_places(text, w), word_places(k.context, w)) for w in k.words if w in stems]
    elements += [(lit, number_places(text, lit2), number_places(k.context, lit))
                 for lit, v in k.numbers for lit2, v2 in dict.fromkeys(have.numbers) if v2 == v]
    elements += [(n, name_places(text, n), name_places(k.context, n)) for n in k.names]
    elements += [(f, fraction_places(text, f), fraction_places(k.context, f)) for f in k.fraction_literals]
    if not elements and k.symbols:            # a key of symbols only: "'-' instead of '+'" negated at its first
        first = k.symbols[0]
        elements = [(first, [m.start() for m in re.finditer(re.escape(first), text)],
                     [m.start() for m in re.finditer(re.escape(first), k.context)])]
    doubt = None
    for what, places, key_places in elements:
        sure = [p for p in places if not uncertain_at(text, p)]            # "0.6 unless you pass another"
        if not sure:
            continue
        key_negated = k.negated(key_places)
        said = [negated_at(text, p) for p in sure]
        if key_negated and not any(said):
            why = f"it drops the negation: the golden answer says it is not {shown_word(k, what)}"
            if not any(is_negation(t) for _, t in tokens(text)):
                return why, [what]
            doubt = doubt or Doubt((why + ", but it has a negation of its own elsewhere: the rule cannot tell "
                                     "what that negates", [what]))
        elif not key_negated and all(said):
            why = f"it negates {shown_word(k, what)}, which the golden answer states"
            if len(sure) == len(places):
                return why, [what]
            doubt = doubt or Doubt((why + " after 'unless', and states it before: the rule cannot tell which "
                                     "holds", [what]))
        elif not key_negated and any(said) and _same_word_both_ways(text, sure, said):   # "deleted ..., on POSIX
            # it is not deleted"; not "deleted on close unless delete=False", "rotated, need not rotate it manually"
            doubt = doubt or Doubt((f"it states {shown_word(k, what)} and also negates it: the rule cannot tell "
                                    "which holds", [what]))
    return doubt


def _antonym(text, k: KeyReading, have, stems, said_cmp):
    toks = [s for _, s in words_of(text)]
    for w in k.words:
        o = _OPPOSITE.get(w)
        if o is None or o not in stems:
            continue
        places = word_places(text, o)
        if w not in stems:
            why = f"it says the opposite of {shown_word(k, w)}"
            if w == fold("true") and _by_default(k, stems, text) and all(_after_unless(text, p) for p in places):
                continue                            # "deleted by default, unless 'delete' is set to False"
            if all(conditional_at(text, p) for p in places):
                return Doubt((why + " in a condition ('unless', 'if'): the rule cannot tell what the answer "
                                     "says", [o]))
            return why, [o]
        for i, s in enumerate(toks):                        # "the smaller or the larger", "either before ... or
            if s in (w, o):                                 # just after ..."
                near = toks[i + 1:i + 1 + 2 * WINDOW]
                other = o if s == w else w
                if other in near and "or" in near[:near.index(other)]:
                    return f"it offers both alternatives, {shown_word(k, w)} and its opposite", [w, o]
        for p in places:                                    # "the default is False" for "default True"
            if not negated_at(text, p) and _after_key_word(text, p, k, w):
                return f"it says the opposite of {shown_word(k, w)}", [o]
        if any(not negated_at(text, p) and not conditional_at(text, p) for p in places):
            return Doubt((f"it says both {shown_word(k, w)} and its opposite: the rule cannot tell which it "
                          "answers with", [w, o]))
    return None


def _by_default(k: KeyReading, stems: set, text: str) -> bool:
    """Whether "by default" states the True of "(default True)": the answer says "default", and any "False" of it
    stands after "unless" (the exception to the default)."""
    return fold("default") in k.words and fold("default") in stems and \
        all(_after_unless(text, p) for p in word_places(text, fold("false")))


def _after_unless(text: str, p: int) -> bool:
    return bool(re.search(r"\bunless\b", _sentence_head(text, p), re.I))


def _after_key_word(text: str, p: int, k: KeyReading, own: str) -> bool:
    """Whether another word of the key stands among the WINDOW words before position p, in the same phrase:
    "the default is False" for the key "deleted (default True)"."""
    seen = 0
    for t in reversed([t for _, t in tokens(text[max(0, p - 200):p])]):
        if not t[:1].isalnum():
            if t in ("'", '"', "="):
                continue
            return False
        if t.lower() in ("but", "and", "or", "rather", "instead", "not"):
            return False
        if any(s in k.words and s not in (own, _OPPOSITE.get(own)) for _, s in words_of(t)):
            return True
        seen += 1
        if seen >= WINDOW:
            return False
    return False


def _retraction(text, k: KeyReading, have, stems, said_cmp):
    for m in itertools.islice(_RETRACTION.finditer(text), 5):
        before = text[:m.start()]
        said = folded_words(before)
        if any(w in said for w in k.words) or any(n in before for n in k.names) or \
                any(claims.of(before).has_number(v) for _, v in k.numbers) or \
                any(f in fractions(before) for f in k.fractions) or \
                (k.symbols and _in_order(k.symbols[:1], symbols(before))):
            return f"it takes the answer back ('{m[0].strip(' ,;:.(')}')", [m[0].strip(" ,;:.(")]
    return None


def _aside(text, k: KeyReading, have, stems, said_cmp):
    """An opposite of a word of the anchor outside the key ("... so you have to delete it yourself" where the
    anchor says "automatically deleted"): a doubt, since the rule cannot tell what it governs."""
    anchor_stems = folded_words(k.context)
    for a in anchor_stems - set(k.words):
        for o in ASIDE_OPPOSITE.get(a, ()):
            said = [p for p in word_places(text, o) if not negated_at(text, p)]
            if said:
                word = re.match(r"\w+", text[said[0]:])[0]
                return Doubt((f"it says '{word}' where the golden answer's passage says "
                               f"{shown_word(k, a, k.context)}: the rule cannot tell what that goes against", [word]))
    return None

