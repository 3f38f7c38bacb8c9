"""A hedged answer: one that says it is not sure ("0, or maybe it errors, depends on the version"). A person would
not sign it as right whatever else it states, so the answer-key rule makes it a doubt (not confirmed), never green
and never red.

    hedged("0, or maybe it errors, depends on the version [S1]") -> "maybe"
    hedged("it's private-ish, depends on your umask [S1]") -> "private-ish"
    hedged("The last batch may be shorter than n [S1].") -> ""      # "may" says what can happen, not a doubt
    hedged("It may be zero or it may raise an error [S1].") -> "may ... or may"     # but two of them are a doubt

Left out on purpose: "may", "might", "can", "could" and "possibly" ("a possibly shorter tuple"): the
documentation's own words for what can happen; hedges of tone ("it seems", "apparently"), which say little about
the claim; and "I think", "I believe": said before a claim the answer commits to ("I think the answer is 48 [S1]"),
in the bundled labelled sets 8 answers with one are labelled right, and the 4 labelled wrong are wrong for what
they claim (nan, "either just before or just after"), which the rest of the rule reads.
"""
from __future__ import annotations

import re

from rag_core.text.arguments import text_argument

_HEDGE = re.compile(r"\b(?:maybe|perhaps|probably|not\s+sure|unsure|i\s+guess|"
                    r"depends\s+on\s+(?:the\s+(?:version|platform|system|implementation)|your\s+\w+)|"
                    r"[a-z]{3,}-ish)\b", re.I)


# two possibilities, each with "may", "might" or "could": "It may be zero or it may raise an error"
_TWO_WAYS = re.compile(r"\b(may|might|could)\b[^.;!?\[]{1,80}?\bor\s+(?:else\s+)?(?:(?:it|they|you)\s+)?"
                       r"(may|might|could|can|will|raises?|returns?|throws?|errors?|padded|dropped|filled|truncated)\b",
                       re.I)   # "may be zero, or else it raises", "may be shorter than n, or padded to n"


def hedged(text: str) -> str:
    """The first hedge of the text, as written, or ""."""
    text_argument(text, "text")
    m = _HEDGE.search(text)
    if m:
        return m[0]
    two = _TWO_WAYS.search(text)
    return f"{two[1]} ... or {two[2]}" if two else ""
