"""The few word meanings the answer-key rule knows: opposites, and single words that mean the same.

    same("lower") -> "smaller";  same("greater") -> "larger";  same("matched") -> "match"  (folded, as inflect)
    OPPOSITE["smaller"] -> "larger";  stems("the lower one") -> [(0, 'the'), (4, 'smaller'), (10, 'one')]

A synonym is listed only when it is one word, means the same in every sentence about values or positions, and
its opposite is listed too, so that it can never turn an opposite into agreement (lower = smaller, higher =
larger). ASIDE: opposites of a word of the anchor outside its key (automatically / manually, yourself): the rule
cannot tell what they govern, so they make an answer not confirmed, never a wrong answer.

PHRASES: the few phrases read as one word ("in front of" = before; "w/o" = without, "unbounded" = without bound), applied to the answer (`one_word`).

Left out on purpose: phrases whose sense changes with the sentence ("to the right of" for "after": "right" is a
key word of its own; "switched off" for "disabled"), and such words ("removed" for "deleted", "none" for "no").
"""
from __future__ import annotations

import re

from rag_core.generation import inflect

ANTONYMS = [("smaller", "larger"), ("smallest", "largest"), ("leftmost", "rightmost"), ("left", "right"),
            ("before", "after"), ("enabled", "disabled"), ("enable", "disable"), ("more", "less"),
            ("shorter", "longer"), ("true", "false"), ("first", "last"), ("lower", "higher"),
            ("minimum", "maximum"), ("increase", "decrease"), ("above", "below"), ("faster", "slower"),
            ("ascending", "descending"), ("always", "never"), ("readable", "unreadable")]
SYNONYMS = [("smaller", "lower", "lesser"), ("larger", "higher", "bigger", "greater"), ("smallest", "lowest"),
            ("largest", "highest", "biggest", "greatest")]
ASIDE = [("automatically", "manually"), ("automatically", "yourself"), ("automatically", "explicitly"),
         ("first", "afterwards"), ("first", "later")]

# words that carry no claim of their own to look for in a span: a sentence is not "mostly in the span" for its
# "just" and "them", nor does an "also" add a claim through them; "yes", "no", "never" are a reply or a negation,
# which the answer-key rule reads
FUNCTION = frozenset("a an the and or of to in on at by for from with into as is are was were be been being it its "
                     "it's this that these those they them their there so then too very just only simply really "
                     "instead does do did doesn't don't has have had can could will would should may might must you "
                     "your when if yes no never".split())

PHRASES = {"in front of": "before", "ahead of": "before",   # phrases read as one listed word, and two words of
           "w/o": "without", "unbounded": "without bound"}   # always the same sense
_PHRASE = re.compile(r"\b(" + "|".join(map(re.escape, PHRASES)) + r")\b", re.I)
_SAME = {inflect.fold(w): inflect.fold(group[0]) for group in SYNONYMS for w in group}


def one_word(text: str) -> str:
    """The text with the listed phrases as their word: "lands in front of them" -> "lands before them"."""
    return _PHRASE.sub(lambda m: PHRASES[" ".join(m[1].lower().split())], text)


def same(word: str) -> str:
    """The stem the rule reads for a word: folded, and a listed synonym as the first of its group."""
    s = inflect.fold(word)
    return _SAME.get(s, s)


FUNCTION_STEMS = frozenset(same(w) for w in FUNCTION)      # FUNCTION as stem_set writes its words


def stems(text: str) -> list[tuple[int, str]]:
    """(position, stem) of every word, as inflect.words_of, with listed synonyms made one."""
    return [(p, _SAME.get(s, s)) for p, s in inflect.words_of(text)]


def stem_set(text: str) -> set[str]:
    return {s for _, s in stems(text)}


OPPOSITE = {same(a): same(b) for a, b in ANTONYMS} | {same(b): same(a) for a, b in ANTONYMS}
ASIDE_OPPOSITE: dict[str, set] = {}
for _a, _b in ASIDE:
    ASIDE_OPPOSITE.setdefault(same(_a), set()).add(same(_b))
    ASIDE_OPPOSITE.setdefault(same(_b), set()).add(same(_a))
