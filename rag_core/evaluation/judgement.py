"""What a verdict means for the person reading it: answered, wrong source, refused or abstained.

The verifier says whether an answer is *grounded*: every number and name of a sentence is in the span
it cites. Grounded is not right: a faithful quote of a draft note is grounded. This module adds where
the cited spans come from, and says it in one sentence a non-programmer can read.

    judge(verdict, span_ids=[12, 40], index=ix, expected_doc="difflib", trusted=("current",))
    -> Judgement("wrong source", "The answer is grounded, but S1 comes from note_difflib (draft), ...")

Outcomes, in the order of the loss account (the names the compare page uses too):
    answered      grounded, and every cited span is from a trusted status (for a golden question:
                  from the document that holds the anchor); the only green outcome
    wrong source  grounded, but on a span of another document or of a non-trusted status
    refused       the checker refused it
    abstained     the answer says the spans do not contain it

`anchor_place` tells where a golden question's anchor sits among the spans handed over, and which
chunks of a non-trusted status outrank it.

Left out on purpose: whether a grounded answer from the right document actually answers the
question (meaning); for a question with no golden anchor, "answered" says only that the cited spans
come from trusted documents.
"""
from __future__ import annotations

from typing import NamedTuple

from rag_core.generation.verifier import Verdict

OUTCOMES = ("answered", "wrong source", "refused", "abstained")
TONES = {"answered": "green", "wrong source": "orange", "refused": "red", "abstained": "gray"}


class Judgement(NamedTuple):
    outcome: str        # one of OUTCOMES
    sentence: str       # one plain sentence for the reader

    @property
    def tone(self) -> str:
        """The colour of the outcome: green only for 'answered'."""
        return TONES[self.outcome]


class AnchorPlace(NamedTuple):
    rank: int | None            # 1-based span number of the first span holding the anchor, None if none does
    outranked_by: tuple         # (span number, status) of non-trusted spans ranked above it (or above k)


def _spans(numbers) -> str:
    names = [f"S{n}" for n in numbers]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def judge(verdict: Verdict, span_ids, index, expected_doc: str | None = None,
          trusted=("current",)) -> Judgement:
    """The outcome of a verdict given the chunks handed over as [S1].. (span_ids) and where they come from."""
    trusted = (trusted,) if isinstance(trusted, str) else tuple(trusted)
    if verdict.verdict == "refused":
        return Judgement("refused", f"The checker refused this answer. {verdict.reason}")
    if verdict.verdict == "abstained":
        return Judgement("abstained", "The answer says the spans do not contain it: nothing was claimed.")
    cited = verdict.cited_spans
    source = {n: (index.doc_id(int(span_ids[n - 1])), index.status(int(span_ids[n - 1]))) for n in cited}
    wrong = [n for n, (doc, status) in source.items()
             if (doc != expected_doc if expected_doc is not None else status not in trusted)]
    if wrong:
        where = "; ".join(f"S{n} comes from {source[n][0]} ({source[n][1]})" for n in wrong)
        want = (f"the document that holds the answer is {expected_doc}" if expected_doc is not None
                else f"only {', '.join(trusted)} documents are trusted")
        return Judgement("wrong source", f"The answer is grounded, but {where}, and {want}: "
                                         "it faithfully quotes the wrong page.")
    docs = sorted({doc for doc, _ in source.values()})
    if expected_doc is not None:
        return Judgement("answered", f"Every claim is in {_spans(cited)}, from {expected_doc}, the document that "
                                     "holds the answer.")
    return Judgement("answered", f"Every claim is in {_spans(cited)}, from {', '.join(docs)} "
                                 f"({', '.join(trusted)}). The checker cannot tell whether it answers the question.")


def anchor_place(span_ids, holders, index, trusted=("current",)) -> AnchorPlace:
    """Where the anchor is among the spans, and the non-trusted spans above it (all of them when it is absent).

    span_ids [7, 3, 9], holders {3}, chunk 7 a draft -> AnchorPlace(rank=2, outranked_by=((1, "draft"),))
    """
    trusted = (trusted,) if isinstance(trusted, str) else tuple(trusted)
    ids = [int(c) for c in span_ids]
    rank = next((r for r, c in enumerate(ids, 1) if c in holders), None)
    above = ids[:rank - 1] if rank else ids
    return AnchorPlace(rank, tuple((r, index.status(c)) for r, c in enumerate(above, 1)
                                   if index.status(c) not in trusted))
