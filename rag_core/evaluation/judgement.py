"""What an answer means for the person reading it: one function, `judge_answer`, used by every page and loop.

The checker says whether an answer is *grounded*: every number and name of a sentence is in the span it cites.
Grounded is not right: a faithful quote of a draft note is grounded, and so is a sentence of the right document
that does not say what was asked. `judge_answer` runs the strict checker once, adds where the cited spans come
from and, for a golden question, whether the answer states its anchor (generation.anchor), and says it in one
sentence a non-programmer can read.

    judge_answer(answer, spans, span_ids=[12, 40, 3], index=ix, expected_doc="difflib",
                 anchor="Optional arg cutoff (default 0.6)")
    -> Judgement(outcome="misses the answer", sentence="Grounded in S3, from difflib, the document that holds the
       answer, but the answer does not state it: it lacks 'optional', 'arg', 'default'.", ...)

Outcomes (OUTCOMES), each with one colour on every page (TONES for badges, COLOURS for charts):
    answered           green   grounded on the anchor's document, of a trusted status, and it states the anchor
    misses the answer  blue    grounded and from the right source, but the anchor is not stated
    grounded           gray    a question with no golden anchor: grounded on trusted spans, nothing to compare with
    wrong source       orange  grounded on a draft, outdated or other document (a faithful quote of the wrong page)
    refused            red     the checker refused it
    abstained          gray    the answer says the spans do not contain it
Green means right: only an answer that states its golden anchor, from the document that holds it, is green.

`anchor_place` tells where a golden question's anchor sits among the spans handed over, and which chunks of a
non-trusted status outrank it.

Left out on purpose: meaning beyond words (see generation.anchor: "the cutoff is not 0.6" states "cutoff (default
0.6)"); the article's own labels ("anchored / right source"), which its tables keep (evaluation.outcomes).
"""
from __future__ import annotations

from typing import NamedTuple

from rag_core.generation.anchor import AnchorCheck, states_anchor
from rag_core.generation.verifier import Verdict, disagreement_of, verify

OUTCOMES = ("answered", "misses the answer", "grounded", "wrong source", "refused", "abstained")
GOLDEN_OUTCOMES = tuple(o for o in OUTCOMES if o != "grounded")   # a golden question always has an anchor
TONES = {"answered": "green", "misses the answer": "blue", "grounded": "gray", "wrong source": "orange",
         "refused": "red", "abstained": "gray"}
COLOURS = {"answered": "#1b7f3b", "misses the answer": "#1f5fbf", "grounded": "#5f6b7a", "wrong source": "#b85c00",
           "refused": "#b3261e", "abstained": "#888888"}
MEANING = {
    "answered": "Grounded in the cited spans, from the document that holds the answer, and it states the golden "
                "anchor. The only green outcome.",
    "misses the answer": "Grounded, and from the right document, but the answer does not state the golden anchor: "
                         "it quotes another sentence.",
    "grounded": "Grounded on trusted documents; the question has no golden answer to compare with, so nobody can "
                "say whether it is right.",
    "wrong source": "Grounded, but on a draft, an outdated note or another document: a faithful quote of the wrong "
                    "page.",
    "refused": "The checker refused it: a sentence without a citation, a citation to a span that does not exist, "
               "a number or name the cited span lacks, or an answer with nothing to check.",
    "abstained": "The answer says NOT IN THE CONTEXT: nothing was claimed.",
}


class Judgement(NamedTuple):
    outcome: str                    # one of OUTCOMES
    sentence: str                   # one plain sentence for the reader
    verdict: Verdict                # the strict checker's verdict
    article: Verdict | None = None  # the article's checker's verdict when it differs from the strict one
    why_they_differ: str | None = None   # why the two checkers disagree, in one sentence
    anchor: AnchorCheck | None = None    # for a golden question: does the answer state its anchor
    sources: tuple = ()             # (span number, document id, status) of every cited span

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


def _quoted(items, most: int = 6) -> str:
    items = list(items)
    shown = ", ".join(f"'{x}'" for x in items[:most])
    return shown + (f" and {len(items) - most} more" if len(items) > most else "")


def judge_answer(answer: str, spans: list, span_ids, index, expected_doc: str | None = None,
                 anchor: str | None = None, trusted=("current",), with_article: bool = True,
                 verdict: Verdict | None = None) -> Judgement:
    """The judgement of `answer` against the spans handed over as [S1].. (chunk ids `span_ids` of `index`).

    expected_doc and anchor: the golden question's document and anchor (None for a question of your own).
    with_article: also run the article's checker and keep its verdict when it differs (the Ask page shows both).
    verdict: the strict verdict of this very answer when the caller already has it (pipeline.ask checks once).
    """
    trusted = (trusted,) if isinstance(trusted, str) else tuple(trusted)
    strict = verdict if verdict is not None else verify(answer, spans, "strict")
    article = verify(answer, spans, "article") if with_article else None
    differs = article is not None and article.verdict != strict.verdict
    extra = dict(article=article if differs else None,
                 why_they_differ=disagreement_of(answer, spans, strict, article) if differs else None)
    if strict.verdict == "refused":
        return Judgement("refused", f"The checker refused this answer. {strict.reason}", strict, **extra)
    if strict.verdict == "abstained":
        return Judgement("abstained", "The answer says the spans do not contain it: nothing was claimed.", strict,
                         **extra)
    cited = strict.cited_spans
    sources = tuple((n, index.doc_id(int(span_ids[n - 1])), index.status(int(span_ids[n - 1]))) for n in cited)
    wrong = [(n, doc, status) for n, doc, status in sources          # never green from an untrusted status, even
             if status not in trusted or (expected_doc is not None and doc != expected_doc)]   # the anchor's own
    if wrong:
        where = "; ".join(f"S{n} comes from {doc} ({status})" for n, doc, status in wrong)
        other_doc = expected_doc is not None and any(doc != expected_doc for _, doc, _ in wrong)
        want = (f"the document that holds the answer is {expected_doc}" if other_doc
                else f"only {', '.join(trusted)} documents are trusted" if trusted else "no status is trusted")
        return Judgement("wrong source", f"The answer is grounded, but {where}, and {want}: it faithfully quotes "
                                         "the wrong page.", strict, sources=sources, **extra)
    if expected_doc is None:
        docs = ", ".join(dict.fromkeys(f"{doc} ({status})" for _, doc, status in sources))
        return Judgement("grounded", f"Every claim is in {_spans(cited)}, from {docs}. This question has no golden "
                                     "answer to compare with: the checker proves where the words come from, not "
                                     "that they answer it.", strict, sources=sources, **extra)
    check = states_anchor(answer, anchor) if anchor is not None else None
    if check is None or not check.states:
        lacks = f": it lacks {_quoted(check.missing)}" if check is not None and check.missing else ""
        return Judgement("misses the answer", f"Grounded in {_spans(cited)}, from {expected_doc}, the document "
                                              f"that holds the answer, but the answer does not state the golden "
                                              f"anchor{lacks}.", strict, anchor=check, sources=sources, **extra)
    return Judgement("answered", f"Every claim is in {_spans(cited)}, from {expected_doc}, the document that holds "
                                 "the answer, and the answer states the golden anchor.", strict, anchor=check,
                     sources=sources, **extra)


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


def _outrank(outranked_by) -> str:
    """((1, "draft"),) -> 'S1 (draft) outranks it'; two -> 'S1 (draft) and S2 (outdated) outrank it'."""
    names = [f"S{n} ({status})" for n, status in outranked_by]
    return (names[0] + " outranks it" if len(names) == 1 else
            ", ".join(names[:-1]) + " and " + names[-1] + " outrank it")


def anchor_note(held: bool, place: AnchorPlace, n_spans: int) -> tuple[str, str]:
    """(tone, sentence) on where a golden question's anchor is among the spans: tone is "error" when the model
    cannot answer from them, "warning" when an untrusted chunk is read first, "success" otherwise.

    (True, AnchorPlace(2, ((1, "draft"),)), 3) -> ("warning", "The anchor is in span S2, but S1 (draft) outranks
    it: the model reads a contradicting source first. Turn the filter on to keep such chunks out.")
    """
    if not held:
        return "error", ("The anchor is not whole in any chunk of this chunker (a boundary cuts it): no setting of "
                         "the search can retrieve it. Change the chunk size or overlap in the sidebar.")
    if place.rank is None:
        untrusted = ", ".join(f"S{n} ({status})" for n, status in place.outranked_by)
        return "error", (f"The anchor is not in these {n_spans} spans: the model cannot answer from the context, "
                         "whatever the prompt. Try more spans, the filter or the reranker."
                         + (f" Spans of an untrusted status took places: {untrusted}." if untrusted else ""))
    if place.outranked_by:
        return "warning", (f"The anchor is in span S{place.rank}, but {_outrank(place.outranked_by)}: the model "
                           "reads a contradicting source first. Turn the filter on to keep such chunks out.")
    return "success", (f"The anchor of this golden question is in span S{place.rank}, and no chunk of an untrusted "
                       "status outranks it.")
