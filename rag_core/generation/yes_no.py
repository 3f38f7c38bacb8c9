"""A "Yes" or "No" answer to a yes/no question, read as the question's own statement: "Yes" says what the question
asks, "No" says it negated. The answer-key rule then reads the key's words in the question's words.

    as_statement("Yes [S1].", "Is a NamedTemporaryFile deleted automatically by default?")
    -> "a NamedTemporaryFile deleted automatically by default. [S1]."
    as_statement("No (unless include_hidden is true) [S1].", "Does the star wildcard of glob match dotfiles?")
    -> "not the not star not wildcard of not glob not match not dotfiles. (unless include_hidden is true) [S1]."

A yes/no question starts (or its last clause, after a colon or a comma, starts) with is, are, was, does, do, can, will,
should, has and the like, ends with "?", and offers no alternatives ("before or after?" is not one). "No" puts
"not" before each word of the question's statement, stop words aside, so that a negation reaches every word the
key may hold.

"Yep", "Yup", "Yeah" are a Yes; "Nope", "Nah" and "Not by default" a No. Left out on purpose: "Correct", "Right"
and other ways to say yes or no that also open claims ("Right of the rightmost"); questions with a
negation of their own ("Isn't it ...?" is read like "Is it ...?"); what the rest of the answer says (the rule
reads it as written, after the statement).
"""
from __future__ import annotations

import re

from rag_core.generation.citations import strip_citations
from rag_core.text.tokens import STOP

_AUX = r"is|are|was|were|does|do|did|can|could|will|would|should|has|have|had|may|might|must|shall"
_QUESTION = re.compile(rf"(?:^|[:;,]\s*)(?:{_AUX})(?:n't|n’t)?\s+([^:;?]+?)\s*\?\s*$", re.I)
_YES = r"yes|yep|yup|yeah"
_NO = r"no|nope|nah|not\s+by\s+default"           # "Not by default." answers "Does it store the time?"
_REPLY = re.compile(rf"[\s*_\"'`]*({_YES}|{_NO})\b[*_\"'`]*[\s,.;:!\u2014\u2013-]*", re.I)
_ALTERNATIVE = re.compile(r"\b(?:or|either|whether)\b", re.I)
_WORD = re.compile(r"[A-Za-z_][\w.]*")


def as_statement(answer: str, question: str | None) -> str:
    """The answer with its leading Yes or No replaced by the yes/no question's statement (see the module), or the
    answer unchanged."""
    if not question:
        return answer
    q = _QUESTION.search(question.strip())
    reply = _REPLY.match(answer)
    if not q or not reply or _ALTERNATIVE.search(q[1]):
        return answer
    said = q[1].strip()
    if not re.fullmatch(_YES, reply[1], re.I):
        said = _WORD.sub(lambda m: m[0] if m[0].lower() in STOP else f"not {m[0]}", said)
    return f"{said}. {answer[reply.end():]}"


_OPENING = re.compile(rf"[\s*_\"'`]*(?:({_YES})\b|({_NO})\b(?=[*_\"'`]*\s*(?:[,.;:!\u2014\u2013-]|\[|\(|$)))", re.I)


def opening_reply(answer: str) -> tuple[str, str]:
    """The Yes or No an answer opens with, lower case, and the text after it; ("", answer) when it opens with
    neither: "Yes, it is [S1]." -> ("yes", ", it is [S1]."); "No one but you [S1]." -> ("", ...) (a "No" must be
    followed by a stop, a citation or the end)."""
    m = _OPENING.match(answer)
    return ("", answer) if m is None else ("yes" if m[1] else "no", answer[m.end():])


def bare_reply(sentence: str) -> bool:
    """Whether a sentence is only "Yes" or "No" and its citations: "Yes [S1]." -> True; "Yes, it is." -> False."""
    reply = _REPLY.match(strip_citations(sentence))
    return bool(reply) and not strip_citations(sentence)[reply.end():].strip(" .!")
