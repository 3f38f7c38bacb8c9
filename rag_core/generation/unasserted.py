"""What a sentence writes without asserting it, so that the strict checker does not look for it in the spans: a
list's numbering ("1. Whitespace is collapsed first"), a number or name the sentence denies ("48, not 50", "no need
for os.remove"), and what it reports of a note or a draft ("One of the notes says zero point nine, but ...").

    blank("2. It is 48, not 50 [S1].") -> "   It is 48,        [S1]."
    blank("The note claiming 0.9 is a draft, so go with 0.6 [S1].") -> "                              ..., so go with 0.6 [S1]."

Each is replaced by spaces, the rest kept in place. Left out on purpose: whether the denial or the report is true
(the key's reading, answer_key, sees the whole answer, so "As the note says, it is 0.9" is still a wrong answer),
and a "not" that does not follow a comma ("it is not 1 but 2 [S1]" still looks for 1 and 2).
"""
from __future__ import annotations

import re

from rag_core.generation.dismissal import sets_aside

# "1. ", "2) ", "(3) " opening the sentence, a line, or what follows a sentence's end inside a joined sentence
_NUMBERING = re.compile(r"(?:^|(?<=\n)|(?<=[.!?][ \t]))[ \t]*\(?\d{1,2}[.)](?=[ \t]+[A-Za-z`*_\"'])")   # before words
# a number or a name right after ", not", a "Not" opening a sentence, or "no need for": "48, not 50", "Not 50: ...",
# "no need for `os.remove`" (not "instead of 4 spaces", "is not 1 but 2", which say what is)
_DENIED = re.compile(r"(?:(?:[,;(\u2014\u2013]|\s-|^|(?<=[.!?:*])[ \t])[ \t]*(?:and[ \t]+|but[ \t]+)?(?i:not)|"
                     r"\bno\s+need\s+(?:for|to\s+call))[ \t]+"
                     r"(?:(?:a|an|the)[ \t]+)?[`'\"\u2018\u201c]?"
                     r"(?P<what>(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|"
                     r"sixty|seventy|eighty|ninety|hundred|point|[ \t-])+\b|-?\d[\d.,/]*|[A-Za-z_][\w.]*(?:\(\))?)",
                     re.I)
# a clause that reports what a note or a draft says: "the note claiming 0.9", "one of the notes says zero point nine"
_REPORTS = re.compile(r"\b(?:says?|said|saying|claims?|claimed|claiming|states?|stating|mentions?|suggests?|"
                      r"describ(?:es|ing)|puts?\s+it\s+at|gives)\b", re.I)
_NOTE_NUMBER = re.compile(r"\b(?:the|that|this)\s+(-?\d[\d.,]*)\s+(?:[\w-]+\s+)?(?:note|draft)\b", re.I)
_REJECTED = re.compile(r"\b(?:but|however|although|though|whereas|while|yet)\b", re.I)
_NOTE = re.compile(r"\b(?:notes?|drafts?)\b", re.I)
_CLAUSE = re.compile(r"[^,;:.!?]+(?:\.(?=\d)[^,;:.!?]*)*")           # "0.9" does not end a clause


def blank(sentence: str) -> str:
    """The sentence with its numbering, its denied numbers and names, and its clauses reporting a note replaced by
    spaces (see the module). Linear in the sentence."""
    places: list[tuple[int, int]] = []
    erase = lambda start, end: places.append((start, end))      # noqa: E731

    for m in _NUMBERING.finditer(sentence):
        erase(m.start(), m.end())
    for m in _DENIED.finditer(sentence):
        what = m["what"].strip(" \t-")
        if what and (what[0].isdigit() or what[0] == "-" or what.lower().split()[0] in _NUMBER_WORDS or
                     "_" in what or "." in what.strip(".") or what.endswith("()")):
            erase(m.start("what"), m.end("what"))
    for m in _NOTE_NUMBER.finditer(sentence):                # "ignore the 0.9 note": the note's number
        erase(m.start(1), m.end(1))
    if _REJECTED.search(sentence) or sets_aside(sentence):      # only a note the sentence rejects: "As the note
        for m in _CLAUSE.finditer(sentence):                     # says, it is 0.9" asserts its 0.9
            if _NOTE.search(m[0]) and _REPORTS.search(m[0]):
                erase(m.start(), m.end())
    if not places:
        return sentence
    out = list(sentence)
    for start, end in places:
        out[start:end] = " " * (end - start)
    return "".join(out)


_NUMBER_WORDS = frozenset("zero one two three four five six seven eight nine ten twenty thirty forty fifty sixty "
                          "seventy eighty ninety hundred".split())
