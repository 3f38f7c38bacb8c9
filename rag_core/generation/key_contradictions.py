"""What in an answer speaks against its golden answer key: a rival value, swapped arguments or order, a negation,
an antonym, a retraction, an aside that says the opposite, or a hedge (a doubt, not a contradiction).

    contradiction(text, key_reading, have, stems, comparisons)
    -> ("it says 'not' before 'deleted'", ["not", "deleted"], None)     what it says, the words that show it
    -> ("", [], Doubt(...))                                               nothing against it, but a doubt

Each check reads the answer's own words around the key's (negation.WINDOW words, within a clause); the first that
finds something wins, in the order of `contradiction`. answer_key.check_key calls it once the key is stated.

Left out on purpose: whether the key is stated (answer_key) and how the key is read (key_reading).
"""
from __future__ import annotations

import itertools
import re

from rag_core.generation import claims, quantities
from rag_core.generation.answer_forms import COMPARISON, calls, comparisons, fractions, pairs, sequences, symbols
from rag_core.generation.key_reading import Doubt, KeyReading, fraction_places, key_words, name_places, \
    number_places, shown_word, word_places
from rag_core.generation.lexicon import ASIDE_OPPOSITE, OPPOSITE as _OPPOSITE, same as fold, \
    stem_set as folded_words, stems as words_of
from rag_core.generation.negation import WINDOW, condition_in_phrase, conditional_at, has_negation, is_negation, \
    negated_at, sentence_around, sentence_head as _sentence_head, tokens, uncertain_at
from rag_core.generation.hedge import hedged
from rag_core.generation.rival import rival_value

_RETRACTION = re.compile(
    r"(?:[\u2014\u2013]|--|\s-\s|[,;:.(])\s*(?:false|wrong|incorrect|untrue)\s*[,;:!\u2014\u2013]"
    r"|\b(?:that|this|which)(?:'s|\s+is|\s+was)\s+(?:false|wrong|incorrect|untrue|not\s+(?:true|correct|right))\b"
    r"|\b(?:that|this|which)\s+(?:is|was)\s*n't\s+(?:true|correct|right)\b"
    r"|\bscratch\s+that\b|\bcorrection\s*[:,]|\bI\s+was\s+wrong\b|\bon\s+second\s+thought\b|\bno,?\s+wait\b"
    r"|\bactually,?\s+(?:no|not)\b", re.I)


def in_order(wanted: list, have: list) -> bool:
    """Whether `wanted` appear in `have` in their order (others may come between): [a, c], [a, b, c] -> True."""
    it = iter(have)
    return all(any(w == h for h in it) for w in wanted)


def contradiction(text: str, k: KeyReading, have, stems: set, said_cmp) -> tuple[str, list, Doubt | None]:
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
    said = pairs(text)
    for a, b in said:
        if (b, a) in k.pairs and (a, b) not in k.pairs:
            return f"it uses '{a}' instead of '{b}', the other way round from the golden answer", [a, b]
    news = {a for a, _ in k.pairs}
    for a, b in said:                               # "'_' instead of '+'" beside "'-' instead of '+' and '_' ..."
        wanted = next((ka for ka, kb in k.pairs if kb == b and ka != a and a in news and (a, b) not in k.pairs), None)
        if wanted:
            return f"it uses '{a}' instead of '{b}', where the golden answer has '{wanted}' instead of '{b}'", [a, b]
    other = next(((a, b) for a, b in said if k.pairs and (a, b) not in k.pairs and len(a) == len(b) == 1 and
                  not (a in k.context and b in k.context)), None)
    if other:                                       # "'=' padding is replaced by '.'": a swap the span never writes
        return Doubt((f"it puts '{other[0]}' for '{other[1]}', which the golden answer does not write", list(other)))
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
        has_negation(text)


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
        key_negated = k.negated(key_places)
        sure = [p for p in places if (not uncertain_at(text, p)             # "0.6 unless you pass another"; but
                                      or not key_negated and negated_at(text, p))   # "not 0.6 unless ..." denies it
                and not _argument_at(text, p)]                               # "unless delete=False": an argument
        if not sure:
            continue
        said = [negated_at(text, p) for p in sure]
        if key_negated and not any(said):
            why = f"it drops the negation: the golden answer says it is not {shown_word(k, what)}"
            if not has_negation(text):
                return why, [what]
            doubt = doubt or Doubt((why + ", but it has a negation of its own elsewhere: the rule cannot tell "
                                     "what that negates", [what]))
        elif not key_negated and all(said):
            why = f"it negates {shown_word(k, what)}, which the golden answer states"
            if all(_quoted_negation(text, p, k.source) for p in sure):   # "that don't score at least 0.6 ..."
                doubt = doubt or Doubt((f"it negates {shown_word(k, what)} in the words of the cited span, which "
                                        "writes the same negation: the rule cannot tell whether it says what the "
                                        "span says", [what]))
                continue
            if all(condition_in_phrase(text, p) for p in sure):      # "If you don't pass cutoff it's 0.6"
                doubt = doubt or Doubt((f"it has a negation after an 'if', before {shown_word(k, what)}, and "
                                        "the rule cannot tell whether it negates the condition or the answer",
                                        [what]))
                continue
            others = [w for w, _, _ in elements if w != what]
            if others and all(not _sentence_has(text, p, others) for p in sure):
                doubt = doubt or Doubt((f"it negates {shown_word(k, what)} in a sentence without the rest of the "
                                        "golden answer, which may speak of another case: the rule cannot tell",
                                        [what]))    # "fmean([]) raises X. For non-empty input it returns a float."
                continue
            if len(sure) == len(places):
                return why, [what]
            doubt = doubt or Doubt((why + " after 'unless', and states it before: the rule cannot tell which "
                                     "holds", [what]))
        elif not key_negated and any(said) and _same_word_both_ways(text, sure, said):   # "deleted ..., on POSIX
            # it is not deleted"; not "deleted on close unless delete=False", "rotated, need not rotate it manually"
            doubt = doubt or Doubt((f"it states {shown_word(k, what)} and also negates it: the rule cannot tell "
                                    "which holds", [what]))
    return doubt or _anchor_word_negated(text, k, stems)


def _sentence_has(text: str, pos: int, words) -> bool:
    """Whether the sentence around text[pos] writes one of `words` (key stems, numbers, names as written)."""
    sentence = sentence_around(text, pos)
    return bool(folded_words(sentence) & set(words)) or any(w in sentence for w in words)


# a value the user hands over, not a claim of the default: "pass delete_on_close=False", "set delete to False"
_PASSED = re.compile(r"(?<!\bif\s)(?<!\bonly\s)(?<!\bwhen\s)(?<!\bunless\s)(?<!\byou\s)"
                     r"\b(?:pass|passes|passing|set|sets|setting|use|using|with|give|giving|specify|specifying)\s+"
                     r"(?:the\s+)?(?:argument\s+|option\s+|flag\s+)?['\"`]?[\w.]+['\"`]?\s*(?:=|\s+to\s+|\s+as\s+)\s*$",
                     re.I)
_ARGUMENT = re.compile(r"[\w.]+\s*=|[\w.]+\s+to\s+(?:True|False|None)\b")
_SETS = re.compile(r"\b(?:set|sets|setting|pass|passes|passing)\s+(?:the\s+)?$", re.I)


_NAMED = re.compile(r"[A-Za-z_][\w.]*['\"`]\s+(?:argument|parameter|flag|option)\b", re.I)    # "'delete' argument"


def _argument_at(text: str, pos: int) -> bool:
    """Whether the word at text[pos:] names an argument: "delete=False", "set delete to False", "the 'delete'
    argument"."""
    if text[pos - 1:pos] in ("'", '"', "`") and _NAMED.match(text, pos):
        return True
    m = _ARGUMENT.match(text, pos)
    return bool(m) and (m[0].rstrip().endswith("=") or bool(_SETS.search(text[max(0, pos - 20):pos])))


def _quoted_negation(text: str, pos: int, source: str) -> bool:
    """Whether the negation before text[pos], with the two words or more between them, is the cited spans' own
    phrase: "possibilities that don't score at least 0.6 ..." where the span writes "don't score at least that"."""
    words = [t.lower() for _, t in tokens(text[max(0, pos - 200):pos])]
    for i in range(len(words) - 1, max(-1, len(words) - WINDOW - 2), -1):
        if is_negation(words[i]):
            return len(words) - i >= 3 and bool(source) and " ".join(words[i:]) in source
    return False


def _anchor_word_negated(text, k: KeyReading, stems):
    """A negation added to a word the anchor states around a shorter key: "the smaller of the two middle values is
    no longer returned" against the key "smaller" of "the smaller of the two middle values is returned". A key
    with a negation of its own ("not matched by '*'"), or an answer whose "No" negates the question's words, is read
    by the key's words only."""
    if k.replied or has_negation(k.text):
        return None
    for w in key_words(k.context):
        if w in k.words or w not in stems or any(negated_at(k.context, p) for p in word_places(k.context, w)):
            continue
        places = word_places(text, w)
        in_condition = [condition_in_phrase(text, p, "if|unless") for p in places]   # "If you don't pass cutoff
        #                                          it's 0.6", "Unless you pass width, it is 70": not a claim
        if places and all(negated_at(text, p) and not uncertain_at(text, p) and not c
                          for p, c in zip(places, in_condition)):
            return f"it negates {shown_word(k, w, k.context)}, which the golden answer states", [w]
    return None


_MODIFIERS = {fold("more"), fold("less")}       # opposed only with the word they modify (see _modified)


def _modified(text: str, places: list, k: KeyReading, w: str) -> list:
    """The places of w's opposite that modify the key's word after w: for "more efficiently", "less efficiently"
    (or "less so") opposes it, but "costs less than a push and a pop" does not (it is another way to say it)."""
    head = k.words[k.words.index(w) + 1:k.words.index(w) + 2]
    if w not in _MODIFIERS or not head:                 # "the more one": nothing modified to look for
        return places
    return [p for p in places if {head[0], "so"} & set([s for _, s in words_of(text[p:p + 80])][1:3])]


def _antonym(text, k: KeyReading, have, stems, said_cmp):
    toks = [s for _, s in words_of(text)]
    for w in k.words:
        o = _OPPOSITE.get(w)
        if o is None or o not in stems:
            continue
        places = _modified(text, word_places(text, o), k, w)
        if not places:
            continue
        if w not in stems:
            places = [p for p in places if not _PASSED.search(text, max(0, p - 80), p)]    # "pass delete=False if
            if not places:                                                  # you want to keep it": what a caller
                continue                                                    # may pass, not the default
            why = f"it says the opposite of {shown_word(k, w)}"
            if w == fold("true") and all(_after_unless(text, p) for p in places) and (
                    by_default(k, stems, text) or any(x in stems for x in k.words if x not in (w, fold("default")))):
                continue                            # "deleted (by default), unless 'delete' is set to False"
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
        for p in places:                                    # "the default is False" for "default True"; not
            if not negated_at(text, p) and _after_key_word(text, p, k, w) and not _PASSED.search(   # "pass
                    text, max(0, p - 80), p):                                                       # delete=False"
                if conditional_at(text, p):                 # "If delete_on_close is False, it is deleted on exit"
                    return Doubt((f"it says the opposite of {shown_word(k, w)} in a condition ('unless', 'if'): "
                                  "the rule cannot tell what the answer says", [o]))
                return f"it says the opposite of {shown_word(k, w)}", [o]
        if any(not negated_at(text, p) and not conditional_at(text, p) for p in places):
            return Doubt((f"it says both {shown_word(k, w)} and its opposite: the rule cannot tell which it "
                          "answers with", [w, o]))
    return None


def by_default(k: KeyReading, stems: set, text: str) -> bool:
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
                (k.symbols and in_order(k.symbols[:1], symbols(before))):
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

