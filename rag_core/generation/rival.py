"""Rival values: another number where the answer key has a value, read for the answer-key rule.

A number of the answer is a rival when it is offered as an alternative to the key's value ("0.6 or 0.9") or
stands right after a word that introduces the key's value ("the default cutoff is 1" for the key 0.6 of "cutoff
(default 0.6)"). It is not a rival when the question, the anchor or the key holds it, when it is a bound of a
range that does not hold the key's value ("a float between 0 and 1", "from 0 to 1", "in [0, 1]", "on a 0-to-1
scale"; "between 0.6 and 0.9" is red for the key 0.6), or when it is the pronoun "one" against a key
value ("set one"; "one" is a value after "is", "to", "of", "=" and the like; against a key that counts, "the
left one" stays a doubt).

    rival_value("The default cutoff is 1 [S1].", KeyReading("0.6", "cutoff (default 0.6)", None), ...)
    -> ("it says 1 where the golden answer says 0.6", ["1"])

A rival in an example ("e.g. ... returns 3"), against a key whose numbers only count things ("the three
values" for "the two middle values"), or counting things the key does not name ("up to 3 matches"), is a doubt: the rule cannot tell whether it is another value.

The calls and sums of examples Python agrees with are not read ("2 / (1/40 + 1/60) = 48" offers no 1/40).

Left out on purpose: units ("48 km/hr" is 48), other arithmetic, and numbers further than WINDOW words from the words
that introduce the key's value.
"""
from __future__ import annotations

import itertools
import re
from decimal import Decimal
from fractions import Fraction

from rag_core.generation import quantities
from rag_core.generation.answer_forms import FRACTION, fractions
from rag_core.generation.examples import run as run_examples
from rag_core.generation.key_reading import Doubt, KeyReading, fraction_places, number_places
from rag_core.generation.lexicon import same as fold, stem_set, stems as words_of
from rag_core.generation.negation import WINDOW, tokens

_EXAMPLE = re.compile(r"\b(?:e\.g\.|for example|for instance|such as)", re.I)
RIVALS = 200                    # distinct numbers of an answer read as rival values (the first ones)
_RANGE = re.compile(r"(?:\bbetween|\bfrom)\s+(\S+)\s+(?:and|to)\s+(\S+)"
                    r"|[\[(]\s{0,3}(\S{1,40}?)\s{0,3},\s{0,3}(\S{1,40}?)\s{0,3}[\])]"    # bounded: 100 KB of "[" took 25 s
                    r"|(?<![\w.-])(\d+(?:\.\d+)?)(?:-to-|\s+to\s+)(\d+(?:\.\d+)?)\b(?!\.\d)", re.I)
_NEW_CLAUSE = frozenset("and but so or while whereas yet because since which".split())   # after a comma: a new clause
_ONE_IS_VALUE = frozenset("is was are be been to of equals equal exactly only just than at".split()) | {"="}


def _calls_blanked(text: str) -> str:
    """The text with the calls and sums of its examples that Python agrees with blanked, and the literals their names
    are bound to: "2 / (1/40 + 1/60) = 48" offers no 1/40; the result it states is read."""
    for e in run_examples(text):
        if e.agrees and text[e.start:e.start + len(e.call)] == e.call:
            text = text[:e.start] + " " * len(e.call) + text[e.start + len(e.call):]
            for a, b in e.inputs:                   # "With n = 3 and k = 5, comb(n, k) returns 0": its inputs too
                text = text[:a] + " " * (b - a) + text[b:]
    return text


def rival_value(text: str, k: KeyReading, have) -> tuple | Doubt | None:
    """(why, [the number]) for the first rival value of the answer, a Doubt, or None."""
    if not k.has_value:
        return None
    text = _calls_blanked(text)
    key_values = {v for _, v in k.numbers if isinstance(v, Decimal)}
    shown = ", ".join([lit for lit, v in k.numbers if isinstance(v, Decimal)] +
                      [f"{f.numerator}/{f.denominator}" for f in k.fractions])
    for f in fractions(text):
        if f not in k.fractions and f not in k.known_fractions:
            inverse = any(f == 1 / g for g in k.fractions if g)
            return (f"it says {f.numerator}/{f.denominator}{' (the inverse)' if inverse else ''} where the golden "
                    f"answer says {shown}", [f"{f.numerator}/{f.denominator}"])
    for a, b in FRACTION.findall(text):     # "4/3, or 8/6": the question's input offered beside the key
        lit = f"{a}/{b}"
        if (int(a), int(b)) in k.inputs and any(_alternative(text, p, lit, k.fraction_literals)
                                                for p in fraction_places(text, lit)):
            return f"it offers {lit} beside {shown}, both alternatives", [lit]
    fraction_parts = {Decimal(x) for pair in FRACTION.findall(text) for x in pair}
    keyed = [x for x, v in have.numbers if v in key_values] + [x for x, v in k.numbers if isinstance(v, Decimal)]
    counts_only = not k.fractions and key_values <= k.counts
    ranges = _ranges(text)
    bounds = {p for p, _, _ in ranges}
    shares = {v for _, v, unit in quantities.with_units(text) if unit == "%" and v / 100 in key_values}  # "60%"
    if any(v in key_values for _, _, v in ranges):             # "between 0.6 and 0.9": a range is not the value
        other = next((lit for _, lit, v in ranges if v not in key_values), None)
        if other is not None:
            return f"it gives a range with {other} where the golden answer says {shown}", [other]
    doubt = None
    for lit, v in itertools.islice(dict.fromkeys(have.numbers), RIVALS):
        if not isinstance(v, Decimal) or v in key_values or v in k.known or v in fraction_parts or v in shares or \
                any(abs(Fraction(v) - f) < Fraction(1, 10 ** 9) for f in k.fractions):     # "four thirds"
            continue
        for p in number_places(text, lit):
            if p in bounds or (lit.lower() == "one" and not counts_only and _pronoun_one(text, p)):
                continue
            if _alternative(text, p, lit, keyed) or _after_subject(text, p, k):
                why = f"it says {lit} where the golden answer says {shown}"
                example = _in_example(text, p)
                counted = counts_only or _counts_other_things(text, p + len(lit), k)
                if not (counted or example):
                    return why, [lit]
                doubt = doubt or Doubt((why + (", but there it counts things" if counted else ", but in an "
                                                "example") + ": the rule cannot tell whether it is another value", [lit]))
    return doubt


_PLURAL = re.compile(r"\s+([a-z]{3,}s)\b")


def _counts_other_things(text: str, end: int, k: KeyReading) -> bool:
    """Whether the number ending at text[end] counts things the key and its anchor do not name: "up to 3 matches",
    "the two speeds" (but "20 seconds" against "30 seconds" is another value of the same thing)."""
    m = _PLURAL.match(text, end)
    return bool(m) and not stem_set(m[1]) & stem_set(f"{k.context} {k.text}")


def _ranges(text: str) -> list[tuple[int, str, object]]:
    """(place, as written, value) of every number that bounds a range: "between 0 and 1", "from 0 to 1", "[0, 1]",
    "a 0-to-1 scale", "0 to 1"."""
    out = []
    for m in _RANGE.finditer(text):
        for g in range(1, 7):
            found = quantities.numbers(m[g].strip(".,;")) if m[g] is not None else []
            if len(found) == 1 and found[0][0] == m[g].strip(".,;"):
                out.append((m.start(g), found[0][0], found[0][1]))
    return out


def _pronoun_one(text: str, p: int) -> bool:
    """Whether the word "one" at p is a pronoun: any word before it but "is", "to", "of", "=" and the like."""
    before = [t for _, t in tokens(text[max(0, p - 40):p])]
    return bool(before) and before[-1].lower() not in _ONE_IS_VALUE and before[-1][:1].isalpha()


def _in_example(text: str, p: int) -> bool:
    """Whether the number at p follows "e.g.", "for example", "for instance" or "such as" in its sentence."""
    before = text[max(0, p - 200):p]
    last = None
    for last in _EXAMPLE.finditer(before):
        pass
    return last is not None and not re.search(r"[.!?]\s", before[last.end():])


def _alternative(text: str, p: int, lit: str, keyed: list) -> bool:
    """Whether the number at p is offered as an alternative to a key value (as the answer or the key writes it):
    "0.6 or 0.9", "0.9 or 0.6", "48 or 50" for the key 48.0."""
    near = text[max(0, p - 30):p + len(lit) + 30]
    keys = "|".join(re.escape(x) for x in sorted(set(keyed), key=len, reverse=True)) or r"(?!)"
    return bool(re.search(rf"(?:{keys})[)\]'\"]*\s*,?\s*(?:or|either)\s+{re.escape(lit)}(?![\w.])|"
                          rf"(?<![\w.]){re.escape(lit)}\s*,?\s*(?:or|either)\s+(?:{keys})(?![\w]|\.\d)", near))


def _after_subject(text: str, p: int, k: KeyReading) -> bool:
    """Whether a word that introduces the key's value stands among the WINDOW words before the number at p (no
    other number, bracket, sentence end or ", and"-like new clause between): "the default cutoff is 1" for the key 0.6 of "cutoff
    (default 0.6)", not "Both args have to be Rational, and the defaults are numerator 0" for the key 4/3 of "a
    rational number equivalent to 4/3"."""
    seen, after = 0, ""
    for _, t in reversed(tokens(text[max(0, p - 200):p])):
        if t in "([{.;!?" or quantities.NUMBER.fullmatch(t) or t[:1].isdigit() or t == "," and after in _NEW_CLAUSE:
            return False
        after = t.lower()
        if not t[:1].isalpha():
            continue
        if fold(t) in k.subject or any(s in k.subject for _, s in words_of(t)):
            return True
        if t.lower() not in ("is", "was", "now", "be", "are", "to", "of", "the", "a", "an", "it", "set"):
            seen += 1
        if seen >= WINDOW:
            return False
    return False
