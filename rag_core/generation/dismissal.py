"""Spans an answer cites only to set them aside: "The default cutoff is 0.6 [S2]; the 0.9 mentioned in [S1] is
only a draft note." cites the draft S1 to say it is a draft, not as its source.

    dismissed("The default cutoff is 0.6 [S2]; the 0.9 mentioned in [S1] is only a draft note.")
    -> ({1}, "The default cutoff is 0.6 [S2]")
    dismissed("The default cutoff is 0.9 [S1].") -> (set(), "The default cutoff is 0.9 [S1].")

A citation is dismissed when its clause (the text between two of . ; : ! ? and "but", "while", "whereas", or an
"although ...," or "despite ...," concession) calls the one span it cites a draft, outdated, obsolete, superseded,
stale, deprecated, wrong, an old(er) note, "no longer applies" or "not current" (or the next clause does, without a
citation of its own and pointing back: "..., but that is outdated", "which was wrong"; "the old note says X" speaks
of a note, and "this replaced the outdated value" of a value, not of the clause before). A clause citing two spans
sets neither aside. The key is then read in the rest of the answer; an answer whose every citation is dismissed has
no source.

Left out on purpose: a status named in another clause than the citation ("That is a draft. It says 0.9 [S1]."),
and what a status word negated means ("not a draft", "isn't wrong that"): it dismisses nothing then; a status word
about something else in the clause ("wrong words are dropped [S2]") still dismisses its citation.
"""
from __future__ import annotations

import re

from rag_core.generation.citations import cited_numbers, strip_citations

_CLAUSE = re.compile(r"[.;:!?](?:\s+|$)|\b(?:but|while|whereas)\b", re.I)
_CONCESSION = re.compile(r"\b(?:although|even though|though|even if|despite|in spite of)\b"    # to its comma
                         r"(?:[^,.;:!?]|\.(?=\w)){0,300},\s", re.I)     # bounded: linear on a comma-less text
_BACK = re.compile(r"^\W*(?:and\s+|so\s+)?(?:that|this|which|it|they|those|these|the\s+latter|the\s+former)"
                   r"(?:['\u2019]s|['\u2019]re|\s+(?:is|was|are|were|seems|looks|has\s+been|have\s+been))\b", re.I)
_STATUS = re.compile(r"\b(?:draft|outdated|out of date|obsolete|superseded|stale|deprecated|wrong|incorrect|mistaken)\b"
                     r"|\bold(?:er)?\s+(?:note|docs?|version|text)\b"
                     r"|\bno\s+longer\s+(?:appl(?:y|ies)|holds?|true|valid)\b"
                     r"|\bnot\s+(?:the\s+)?current\b", re.I)
_NOT_STATUS = re.compile(r"(?:\b(?:not|no|never|hardly|barely|scarcely)|n't|n\u2019t)\s+(?:\w+\s+){0,2}?"
                         r"(?:a\s+|an\s+|the\s+)?(?:draft|outdated|obsolete|stale|wrong|incorrect|mistaken)\b", re.I)


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
        elif status and len(cites) == 1:          # a clause citing two spans sets neither aside: "although the
            out |= cites                            # default is 1 [S1] and the draft [S2] is wrong, ..."
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
