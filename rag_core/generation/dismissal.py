"""Spans an answer cites only to set them aside: "The default cutoff is 0.6 [S2]; the 0.9 mentioned in [S1] is
only a draft note." cites the draft S1 to say it is a draft, not as its source.

    dismissed("The default cutoff is 0.6 [S2]; the 0.9 mentioned in [S1] is only a draft note.") -> {1}
    dismissed("The default cutoff is 0.9 [S1].") -> set()

A citation is dismissed when its clause (the text between two of . ; ! ? and "but", "while", "whereas") calls
what it cites a draft, outdated, obsolete, superseded, stale or deprecated, or "not current". The judgement still
reads the whole answer against the key: a value from the dismissed span that the answer gives as its own is a
rival value, and an answer whose every citation is dismissed has no source.

Left out on purpose: a status named in another clause than the citation ("That is a draft. It says 0.9 [S1]."),
and what a status word negated means ("not a draft"): it dismisses nothing then.
"""
from __future__ import annotations

import re

from rag_core.generation.verifier import cited_numbers, strip_citations

_CLAUSE = re.compile(r"[.;!?](?:\s+|$)|\b(?:but|while|whereas)\b", re.I)
_STATUS = re.compile(r"\b(?:draft|outdated|out of date|obsolete|superseded|stale|deprecated)\b"
                     r"|\bnot\s+(?:the\s+)?current\b", re.I)
_NOT_STATUS = re.compile(r"\b(?:not|no|never)\s+(?:a\s+|an\s+|the\s+)?(?:draft|outdated|obsolete|stale)\b", re.I)


def dismissed(answer: str) -> set[int]:
    """The span numbers the answer cites only in clauses that call them a draft or outdated (see the module)."""
    out, kept = set(), set()
    for clause in _CLAUSE.split(answer):
        cites = set(cited_numbers(clause))
        words = strip_citations(clause)
        (out if _STATUS.search(words) and not _NOT_STATUS.search(words) else kept).update(cites)
    return out - kept
