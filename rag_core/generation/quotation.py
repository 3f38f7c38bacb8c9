"""A quotation a person reads as the document's own words: four words or more in double quotation marks ("...", “...”
or ''...'') that none of the spans (nor the question) holds is a misquote, whatever the answer's citations say.
Case, runs of whitespace, curly apostrophes and the punctuation at either end are folded; an ellipsis ("... deleted
... closed") splits a quote into parts looked for in their order, and what it skips must hold no negation.

    misquote('The docs say "the file is deleted as soon as it is opened." [S1]',
             ["... the file is deleted as soon as it is closed."]) -> "the file is deleted as soon as it is opened"

Left out on purpose: single quotation marks, which mark a term or a loose paraphrase as often as the document's
words ("the 'forget the least recently used' behaviour is turned off": a right answer); quotes of fewer than four
words (a value, a name, a term: "dot files"), which a person writes loosely; quotes inside code (backticks and
fenced blocks hold strings of a program, not of the document); and whether the quote is the document's in
meaning: a misquote is only said, and the judgement greys the answer.
"""
from __future__ import annotations

import re

from rag_core.generation import negation

WORDS = 4                       # a quote this long or longer is read as the document's words
_CODE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]*`", re.S)
_QUOTE = re.compile("\"([^\"\n]{1,600})\"|\u201c([^\u201d\n]{1,600})\u201d|''([^'\n][^\n]{0,598}?)''")
_ELLIPSIS = re.compile(r"\.\.\.|\u2026|\[\.\.\.\]")
_EDGE = re.compile(r"^[\W_]+|[\W_]+$")


def _folded(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").replace("\u2018", "'").lower().split())


def misquote(answer: str, spans, question: str = "") -> str:
    """The first quote of four words or more (see the module) that no span and not the question holds, folded; or
    "". A quote cut by an ellipsis is held when one text has its parts in their order, with no negation in what the
    ellipsis skips ('"Possibilities that ... score at least that similar to word are ignored"' skips "don't")."""
    written = [_folded(s) for s in spans] + [_folded(question or "")]
    for m in _QUOTE.finditer(_CODE.sub(" ", answer)):
        quote = next(g for g in m.groups() if g is not None)
        parts = [said for said in (_EDGE.sub("", _folded(p)) for p in _ELLIPSIS.split(quote)) if said]
        if sum(len(p.split()) for p in parts) < WORDS:
            continue
        for said in parts:
            if len(said.split()) >= WORDS and not any(said in w for w in written):
                return said
        if len(parts) > 1 and not any(_in_order(parts, w) for w in written):
            return " ... ".join(parts)
    return ""


def _in_order(parts: list[str], text: str) -> bool:
    """Whether `text` holds the parts in their order with no negation between two of them."""
    at, end = 0, None
    for part in parts:
        found = text.find(part, at)
        if found < 0 or end is not None and negation.has_negation(text[end:found]):
            return False
        at = end = found + len(part)
    return True
