"""Spans an answer cites only to set them aside: "The default cutoff is 0.6 [S2]; the 0.9 mentioned in [S1] is
only a draft note." cites the draft S1 to say it is a draft, not as its source.

    dismissed("The default cutoff is 0.6 [S2]; the 0.9 mentioned in [S1] is only a draft note.")
    -> ({1}, "The default cutoff is 0.6 [S2]")
    dismissed("The default cutoff is 0.9 [S1].") -> (set(), "The default cutoff is 0.9 [S1].")

A citation is dismissed when its clause (the text between two of . ; : ! ? and "but", "while", "whereas", or an
"although ...," or "despite ...," concession) calls what it cites a draft, outdated, obsolete, superseded, stale,
deprecated, wrong, an old(er) note, "no longer applies" or "not current" (or the next clause does, without a
citation of its own and pointing back: "..., but that is outdated"; "the old note says X" speaks of a note, not of
the clause before).
The key is then read in the rest of the answer; an answer whose every citation is dismissed has no source.

Left out on purpose: a status named in another clause than the citation ("That is a draft. It says 0.9 [S1]."),
and what a status word negated means ("not a draft"): it dismisses nothing then.
"""
from __future__ import annotations

import re

from rag_core.generation.citations import cited_numbers, strip_citations

_CLAUSE = re.compile(r"[.;:!?](?:\s+|$)|\b(?:but|while|whereas)\b", re.I)
_CONCESSION = re.compile(r"\b(?:although|even though|though|even if|despite|in spite of)\b"    # to its comma
                         r"(?:[^,.;:!?]|\.(?=\w))*,\s", re.I)
_BACK = re.compile(r"^\W*(?:and\s+|so\s+)?(?:that|this|which|it|they|those|these|the\s+latter|the\s+former)\b", re.I)
_STATUS = re.compile(r"\b(?:draft|outdated|out of date|obsolete|superseded|stale|deprecated|wrong|incorrect|mistaken)\b"
                     r"|\bold(?:er)?\s+(?:note|docs?|version|text)\b"
                     r"|\bno\s+longer\s+(?:appl(?:y|ies)|holds?|true|valid)\b"
                     r"|\bnot\s+(?:the\s+)?current\b", re.I)
_NOT_STATUS = re.compile(r"\b(?:not|no|never)\s+(?:a\s+|an\s+|the\s+)?(?:draft|outdated|obsolete|stale|wrong)\b", re.I)


def dismissed(answer: str) -> tuple[set[int], str]:
    """(the span numbers the answer cites only in clauses that call them a draft or outdated, the answer without
    those clauses). A clause that says so without a citation ("..., but that is outdated") speaks of the clause
    before it."""
    out, kept, pieces = set(), set(), []
    previous = set()
    for clause in _clauses(answer):
        cites = set(cited_numbers(clause))
        words = strip_citations(clause)
        status = bool(_STATUS.search(words)) and not _NOT_STATUS.search(words)
        if status and not cites and previous and _BACK.search(words):
            out |= previous
            kept -= previous
            pieces = pieces[:-1]
        elif status and cites:
            out |= cites
        else:
            kept |= cites
            pieces.append(clause)
        previous = cites if not status else set()
    return out - kept, " ".join(pieces) if out - kept else answer


def _clauses(answer: str) -> list[str]:
    """The answer cut at . ; : ! ? and "but", "while", "whereas", and after a concession's comma: "although a
    draft [S2] says 0.9, the docs say 0.6 [S1]" is two clauses."""
    out = []
    for clause in _CLAUSE.split(answer):
        m = _CONCESSION.search(clause)
        out += [clause[:m.start()], clause[m.start():m.end()], clause[m.end():]] if m else [clause]
    return [c for c in out if c.strip()]
