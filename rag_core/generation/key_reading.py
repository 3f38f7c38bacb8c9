"""How the answer-key rule reads a key: its numbers, fractions, names, words, symbols, comparisons and calls
(`KeyReading`, read once), where each of them stands in a text, and the rule's "doubt" (`Doubt`).

    key_words("empty, it raises a StatisticsError") -> ['empty', 'rais']
    as_read("It isn’t 0.6 [S1].") -> "It isn't 0.6 ."

Left out on purpose: deciding anything (generation.answer_key), and more than PLACES occurrences of an element.
"""
from __future__ import annotations

import itertools
import re
from decimal import Decimal
from fractions import Fraction

from rag_core.generation import claims, quantities
from rag_core.generation.answer_forms import COMPARISON, FRACTION, calls, comparisons, fraction_terms, fractions, pairs, \
    symbols
from rag_core.generation.lexicon import same as fold, stems as words_of
from rag_core.generation.negation import NEGATIONS, WINDOW, negated_at
from rag_core.generation.citations import strip_citations
from rag_core.text.tokens import STOP, normalize, words

FILLERS = frozenset("whether just also very really simply instead".split())     # words an answer may drop
_LINKS = frozenset("to of a an the".split())       # words before a key's value that are no subject of it
_APOSTROPHES = re.compile(r"[\u2018\u2019\u02bc\u00b4\u0060\u2032]")           # ’ ‘ ʼ ´ ` ′ are '


class Doubt(tuple):
    """(why, words) of a check that saw something against the key but cannot tell it from a right answer: the
    answer is not confirmed, never a wrong answer (a count word "two" against "one"; "unless" on both sides)."""


def as_read(text: str) -> str:
    """The text as the rule reads it: NFKC, one apostrophe, citations out, a list's bullets out (the "- " of "- `+` is
    replaced by `_`" is no '-'), a number or fraction in backticks bare ("`4/3`" shows 4/3 in code type, not a
    string), a paragraph that ends without punctuation closed with ";", whitespace collapsed."""
    text = _OPEN_END.sub(";", _CODE_VALUE.sub(r"\1", quantities.normalize(text)))
    text = _BULLET.sub("", text) if len(_BULLET.findall(text)) > 1 else text   # a list: two bullets or more ("- for
    return normalize(strip_citations(_APOSTROPHES.sub("'", text)))              # +, _ for /" is the answer's '-')


_OPEN_END = re.compile(r"(?<=[\w)\]'\"`])(?=[ \t]*\n[ \t]*\n)")   # a paragraph (a code block's result) ending
#                                                                  without punctuation ends its clause: "0;\n\nWhen"
_CODE_VALUE = re.compile(r"`(-?\d+(?:\.\d+)?(?:\s*/\s*\d+)?)`")
_BULLET = re.compile(r"^[ \t]*[-*\u2022+][ \t]+", re.M)


def key_words(key: str) -> list[str]:
    """The content words of a key, folded, without numbers, names, negations and fillers, in order:
    "empty, it raises a StatisticsError" -> ['empty', 'rais']; "zero when k > n" -> ['k', 'n']."""
    text = claims.WORD.sub(lambda m: " " if claims.is_name(m[0]) else m[0], quantities.normalize(key))
    text = quantities.WORD_NUMBER.sub(" ", COMPARISON.sub(lambda m: f" {m[1] or m[4] or m[7]} {m[3] or m[6] or m[9]} ",
                                                      FRACTION.sub(" ", text)))
    kept = [fold(w) for w in words(text) if not w.isdigit() and w not in FILLERS and w not in NEGATIONS]
    return list(dict.fromkeys(kept))


# a number word that counts the content word after it ("the two middle values")
_COUNT = re.compile(r"\b((?!zero\b)(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve))\s+(?!(?:"
                    + "|".join(sorted(STOP)) + r")\b)[a-z]", re.I)
PLACES = 20                     # occurrences of a key word, number or name read for negations (the first ones)


def _first(found, n: int = PLACES) -> list[int]:
    return [m.start() for m in itertools.islice(found, n)]


def word_places(text: str, stem: str) -> list[int]:
    return list(itertools.islice((p for p, s in words_of(text) if s == stem), PLACES))


def number_places(text: str, literal: str) -> list[int]:
    return _first(re.finditer(r"(?<![\w.])" + re.escape(literal) + r"(?![\w]|\.\d)", text))


def fraction_places(text: str, literal: str) -> list[int]:
    """Where a fraction is written as the key writes it: "4/3" in "not 4/3", "4 / 3"."""
    a, b = literal.split("/")
    return _first(re.finditer(rf"(?<![\w./]){a}\s*/\s*{b}(?![\w/]|\.\d)", text))


def name_places(text: str, name: str) -> list[int]:
    return _first(re.finditer(r"(?<![\w.])" + re.escape(name) + r"(?!\w)", text))


class KeyReading:
    """What a key asks for, read once: its numbers, fractions, names, words, symbols, comparisons, and which of
    its words are negated where the anchor writes them."""

    def __init__(self, key: str, anchor: str | None, question: str | None, source: str | None = None):
        self.text = as_read(key)
        self.source_comparisons = set(comparisons(as_read(source))) if source else set()   # what the spans compare
        self.source = " ".join(as_read(source).lower().split()) if source else ""        # what they write
        context = as_read(anchor) if anchor and self.text in as_read(anchor) else self.text
        self.at = context.index(self.text)                  # where the key sits in its context
        self.context = context
        bare = FRACTION.sub(" ", self.text)
        self.fractions = fractions(self.text)
        self.fraction_literals = [f"{a}/{b}" for a, b in FRACTION.findall(self.text)]
        self.numbers = [(lit, v) for lit, v in quantities.numbers(bare)]
        self.names = claims.names(self.text)
        self.words = key_words(self.text)
        self.comparisons = comparisons(self.text)
        self.symbols = symbols(COMPARISON.sub(" ", self.text))
        self.pairs = pairs(self.text)
        self.calls = calls((anchor or "") + " " + (question or ""))
        around = (anchor or "") + " " + (question or "") + " " + self.text
        self.known = {v for _, v in quantities.numbers(around) if isinstance(v, Decimal)}   # values that are no rival
        self.known_fractions = set(fractions(around))
        own = set(fraction_terms(self.text))                # the key's value in other terms, as the question or
        self.inputs = {t for t in fraction_terms((anchor or "") + " " + (question or ""))   # anchor write it: the
                       if t not in own and Fraction(*t) in self.fractions}                     # input, 8/6 for 4/3
        self.counts = {v for m in _COUNT.finditer(self.text) for _, v in quantities.numbers(m[1])}  # "two middle values"
        first = self._first_value_at()
        lead = [s for p, s in words_of(context[max(0, first - 80):first])][-WINDOW:] if first is not None else []
        self.subject = {s for s in lead + self.words if s not in FILLERS and s not in NEGATIONS  # "equivalent to
                        and s not in _LINKS}                    # 4/3": "to" names no subject ("denominator to 1")
        self.replied = False            # check_key: the answer's leading Yes or No was read as the question's statement

    def _first_value_at(self) -> int | None:
        for lit, v in self.numbers:
            places = number_places(self.context[self.at:], lit)
            if places:
                return self.at + places[0]
        found = FRACTION.search(self.context, self.at)
        return found.start() if found and self.fractions else None

    def negated(self, places) -> bool:
        """Whether the key writes this element negated (in its anchor's words when the anchor holds it)."""
        inside = [p for p in places if self.at <= p < self.at + len(self.text)]
        return any(negated_at(self.context, p) for p in inside)

    @property
    def has_value(self) -> bool:
        return any(isinstance(v, Decimal) for _, v in self.numbers) or bool(self.fractions)


def shown_word(k: KeyReading, stem: str, where: str | None = None) -> str:
    """The key's own word for a stem (or the anchor's, where=k.context): 'matched' for 'match'."""
    where = k.text if where is None else where
    for p, s in words_of(where):
        if s == stem:
            return "'" + re.match(r"[A-Za-z0-9]+", where[p:])[0] + "'"
    return f"'{stem}'"

