"""Inflections folded: one stem for the forms an answer may write a word in (default/defaults, grow/grows,
deleted/deletes/delete, efficient/efficiently).

    fold("deleted") -> "delet";  fold("deletes") -> "delet";  fold("delete") -> "delet"
    fold("matches") -> "match";  fold("setting") -> "set";    fold("efficiently") -> "efficient"
    folded_words("Grows without bounds") -> {"grow", "without", "bound"}

A few suffix rules, English only, nothing downloaded: no stemming library is installed here, and the answer-key
rule needs the forms of one verb or noun to meet, not linguistics.

Left out on purpose: irregular forms (ran/run, better/good), comparatives ("smaller" is not "small": the rule
reads smaller/larger as opposites), prefixes ("unbounded" is not "bound"), and any meaning.
"""
from __future__ import annotations

import re

_SUFFIXES = ("ingly", "ing", "edly", "ed", "es", "ly", "s")
_KEEP_S = ("ss", "us", "is")                    # less, status, analysis: the s belongs to the word
WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_CAMEL = re.compile(r"([a-z])([A-Z])")


def fold(word: str) -> str:
    """The stem of one word, lower case: "Defaults" -> "default", "values" -> "valu", "value" -> "valu"."""
    w = word.lower()
    for suffix in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not (suffix == "s" and w.endswith(_KEEP_S)):
            w = w[:-len(suffix)]
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":      # stopped -> stopp -> stop
        w = w[:-1]
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w


def words_of(text: str) -> list[tuple[int, str]]:
    """(position, stem) of every word of `text`, names split at '_', '.' and inner capitals:
    "heap_push grows" -> [(0, 'heap'), (5, 'push'), (10, 'grow')]."""
    out = []
    for m in WORD.finditer(text):
        start = m.start()
        for part in _CAMEL.sub(r"\1 \2", m[0]).split():
            out.append((start, fold(part)))
    return out


def folded_words(text: str) -> set[str]:
    """The stems of every word of `text`: "Grows without bounds" -> {"grow", "without", "bound"}."""
    return {stem for _, stem in words_of(text)}
