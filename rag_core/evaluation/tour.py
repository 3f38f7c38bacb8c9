"""The article's story in nine steps, each computed now on a workbench: its claim, its figure's data, the example
a rule chose, and one sentence that is a pure function of the figure (true on any data, not only the bundled one).

    s = step(wb, 4, chunker, Controls(k=3))
    s.title    -> "A draft outranks the truth"
    s.figure   -> DataFrame span, document, chunk, status, holds_anchor, score (the example's ranked chunks)
    s.sentence -> "In 10 of 18 golden questions a draft or outdated chunk outranks the anchor's chunk at k = 3 ..."

Examples are chosen by rules, never by name: step 1 the question the control picks (the first by default), step 3
the first question whose anchor no chunk holds whole, step 4 the first question where a chunk of an untrusted
status outranks the anchor's chunk with the filter off (5 and 7 follow it; the first question when there is none),
step 6 the first question the reranker moves. Every rule that finds nothing says so in its sentence, and the step
still shows its figure. Without a golden set the steps that need one say NO_GOLDEN; steps 1, 5 and 7 run.

The sentences are pure functions of the figures and counts (rag_core.evaluation.tour_sentences).
The article's pipeline throughout: 20 candidates reranked, 3 spans kept (outcomes.PIPELINE_*), scripted generator,
strict checker (judgement.judge_answer).

Left out on purpose: the sentences' wording (tour_sentences), drawing and the page where each step lives in full
(ui.tour_view), caching (ui.cache), and Streamlit.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np
import pandas as pd

from rag_core.evaluation import losses as loss
from rag_core.evaluation import tables
from rag_core.evaluation.judgement import anchor_place, judge_answer
from rag_core.evaluation.metrics import first_hit_ranks
from rag_core.evaluation.outcomes import PIPELINE_CANDIDATES, PIPELINE_FINAL
from rag_core.evaluation.pipeline import ask
from rag_core.evaluation.setup import default_setup
from rag_core.evaluation.tour_sentences import (NO_GOLDEN, TRAP3_K, ceiling_sentence, checker_sentence, cut_sentence,
                                             draft_sentence, exam_sentence, filter_sentence, fix_first_sentence,
                                             rerank_sentence, trap3_sentence, untrusted_words)
from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Workbench
from rag_core.generation.presets import ARTICLE_CASES, ARTICLE_CONTEXT, presets
from rag_core.generation.verifier import verify
from rag_core.retrieval.chunkers import ChunkerConfig
from rag_core.retrieval.retrievers import LEXICAL

TITLES = ("The open-book exam", "The ceiling", "Chunks cut answers", "A draft outranks the truth",
          "Filter before ranking", "Reranking", "The checker does not trust", "Users do not speak like the documents",
          "Where each question is lost")
CLAIMS = (
    "A RAG system is an open-book exam: a question, the sentence of a document that answers it, and a search that "
    "must open the book at that page.",
    "The ceiling is the share of questions whose answer is among the chunks handed over: no prompt and no bigger "
    "model scores above it.",
    "A chunk boundary can cut the answer sentence in two: then no chunk holds it whole and no search can find it.",
    "Without a filter, a draft or an outdated note can rank above the current page, and the model faithfully quotes "
    "the wrong page.",
    "Filter by status before ranking: untrusted chunks never compete for a place.",
    "A reranker reorders the candidates: it pays only where the candidates already hold the answer.",
    "The checker trusts no answer: every number and name must be in the span it cites.",
    "Golden questions written with the documents' words flatter a word-matching search; users ask otherwise.",
    "Each question is lost at one stage of the pipeline: the stage that loses the most is the one to fix first.")
NEEDS_GOLDEN = (False, True, True, True, False, True, False, True, True)
CEILING_KS = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class Controls:
    question: int = 0                       # step 1: position of the golden question among the valid ones
    k: int = 3                              # steps 2, 4 and 9: chunks handed over
    filter: bool = True                     # step 5: only the trusted statuses may be retrieved
    rerank: bool = True                     # step 6: the reranker on
    preset: str | None = None               # step 7: the kind of answer shown (None: the first)
    retrievers: tuple = LEXICAL             # step 8: the retrievers measured (the trained ones encode first)

    @property
    def needs_encoder(self) -> bool:
        """Whether a retriever measured uses the trained encoder, which encodes every chunk the first time."""
        return bool(set(self.retrievers) - set(LEXICAL))


class Step(NamedTuple):
    number: int                 # 1..9
    title: str
    claim: str                  # the article's claim, the same on any data
    sentence: str               # what the figure shows on this data, in words (a pure function of it)
    figure: pd.DataFrame        # what the chart draws
    example: dict               # the example the rule chose ({} when none)
    params: dict                # that page's own URL parameters for the example (besides the sidebar's)
    details: dict               # name -> further DataFrame the step shows (its ranked chunks...)


# ---------------------------------------------------------------- the steps

def step(wb: Workbench, number: int, chunker: ChunkerConfig = ARTICLE_CHUNKER, controls: Controls = Controls()) -> Step:
    """Step `number` (1..9) on this workbench, chunker and controls."""
    if not isinstance(number, int) or not 1 <= number <= len(TITLES):
        raise ValueError(f"A step is a number from 1 to {len(TITLES)}, got {number!r}.")
    return _STEPS[number - 1](wb, chunker, controls)


def _make(number, sentence, figure, example=None, params=None, details=None) -> Step:
    return Step(number, TITLES[number - 1], CLAIMS[number - 1], sentence, figure, example or {}, params or {},
                details or {})


def _row(wb, q) -> dict:
    r = wb.golden_check.valid[q]
    return {"number": q + 1, "question": r.question, "doc": r.doc, "anchor": r.anchor, "key": r.key,
            "status": wb.corpus.by_id[r.doc].status, "doc_position": [d.id for d in wb.corpus.documents].index(r.doc)}


def _step1(wb, chunker, c):
    docs = pd.Series([d.status for d in wb.corpus.documents]).value_counts()
    fig = pd.DataFrame({"status": list(wb.corpus.statuses)})
    fig["documents"] = [int(docs.get(s, 0)) for s in fig.status]
    n = len(wb.golden_check.valid)
    example = _row(wb, min(max(c.question, 0), n - 1)) if n else {}
    return _make(1, exam_sentence(example, n, len(wb.corpus.documents)), fig, example,
                 {"corpus_doc": example["doc"]} if example else {})


def _step2(wb, chunker, c):
    n = len(wb.golden_check.valid)
    ranks = wb.anchor_ranks(chunker, max(CEILING_KS))
    found = [int(np.sum(ranks <= k)) for k in CEILING_KS]
    fig = pd.DataFrame({"k": CEILING_KS, "found": found, "questions": n,
                        "recall": [f / n if n else np.nan for f in found]})
    return _make(2, ceiling_sentence(fig, c.k) if n else NO_GOLDEN, fig, {"k": c.k})


def _step3(wb, chunker, c):
    n = len(wb.golden_check.valid)
    fig = tables.cut_anchors(wb) if n else pd.DataFrame()
    holders = wb.holders(chunker)
    cut = [q for q, h in enumerate(holders) if not h]
    example = _row(wb, cut[0]) if cut else {}
    sentence = cut_sentence(len(cut), n, chunker.label, example.get("question"))
    if chunker.kind == "fixed":
        example["size"] = chunker.size              # the chart draws this window and overlap strong
        example["overlap"] = chunker.overlap
    return _make(3, sentence, fig, example,
                 {"corpus_doc": example["doc"]} if "doc" in example else {})


def _spans_table(wb, chunker, a, holders) -> pd.DataFrame:
    ix = wb.index(chunker)
    rows = []
    for i, c in enumerate(a.retrieved.ids, 1):
        c = int(c)
        rows.append({"span": f"S{i}", "document": ix.doc_id(c), "chunk": ix.chunk_number(c), "status": ix.status(c),
                     "holds_anchor": c in holders, "similarity": float(a.retrieved.similarity[i - 1])})
    return pd.DataFrame(rows, columns=["span", "document", "chunk", "status", "holds_anchor", "similarity"])


def _answer(wb, chunker, q, k, allowed) -> tuple:
    """(ask's Answer, its Judgement, the spans table) for valid question q through the article's pipeline."""
    ix, row = wb.index(chunker), wb.golden_check.valid[q]
    a = ask(ix, row.question, PIPELINE_CANDIDATES, k, True, allowed)
    j = judge_answer(a.answer, a.spans, a.retrieved.ids, ix, row.doc, row.anchor, wb.trusted, with_article=False,
                     key=row.key, question=row.question, reply=row.reply, accept=row.accept)
    return a, j, _spans_table(wb, chunker, a, wb.holders(chunker)[q])


def outranked_questions(wb: Workbench, chunker: ChunkerConfig, k: int = PIPELINE_FINAL) -> list:
    """The valid questions (positions) where an untrusted chunk is kept above the anchor's chunk, filter off,
    through the article's pipeline (20 candidates reranked, k kept); the first is the tour's example."""
    ix, holders = wb.index(chunker), wb.holders(chunker)
    kept = wb.top_ids(chunker, k, None, True, PIPELINE_CANDIDATES)
    return [q for q, ids in enumerate(kept) if holders[q]
            and anchor_place(ids, holders[q], ix, wb.trusted).outranked_by]


def _step4(wb, chunker, c):
    n = len(wb.golden_check.valid)
    if not n:
        return _make(4, NO_GOLDEN, pd.DataFrame())
    if not 1 <= c.k <= PIPELINE_CANDIDATES:
        raise ValueError(f"k must be from 1 to {PIPELINE_CANDIDATES} (the candidates), got {c.k}.")
    found = outranked_questions(wb, chunker, c.k)
    q = found[0] if found else 0
    a, j, spans = _answer(wb, chunker, q, c.k, None)
    place = anchor_place(a.retrieved.ids, wb.holders(chunker)[q], wb.index(chunker), wb.trusted)
    example = {**_row(wb, q), "answer": a.answer, "outcome": j.outcome, "judgement": j.sentence,
               "anchor_rank": place.rank, "outranked_by": list(place.outranked_by), "outranked": len(found)}
    untrusted = untrusted_words(wb.corpus.statuses, wb.trusted)
    return _make(4, draft_sentence(len(found), n, c.k, untrusted, example), spans, example,
                 {"ask_question": example["question"], "ask_statuses": ",".join(wb.corpus.statuses),
                  "ask_k": str(c.k), "ask_rerank": "1", "ask_candidates": str(PIPELINE_CANDIDATES)})


def _step5(wb, chunker, c):
    n = len(wb.golden_check.valid)
    eff = tables.filter_effect(wb, chunker)
    fig = eff[["filter", "contradicted_top_3", "chunks_excluded", "chunks"]].copy()
    untrusted = untrusted_words(wb.corpus.statuses, wb.trusted)
    if not n:
        example = {"excluded": int(fig.chunks_excluded.iloc[1]), "chunks": int(fig.chunks.iloc[1]), "filter_on": c.filter}
        return _make(5, filter_sentence(0, 0, 0, untrusted, example, c.filter), fig, example)
    found = outranked_questions(wb, chunker)
    q = found[0] if found else 0
    _, off, spans_off = _answer(wb, chunker, q, PIPELINE_FINAL, None)
    a_on, on, spans_on = _answer(wb, chunker, q, PIPELINE_FINAL, set(wb.trusted))
    example = {**_row(wb, q), "filter_on": c.filter, "outcome_off": off.outcome, "outcome_on": on.outcome,
               "judgement_on": on.sentence, "judgement_off": off.sentence, "answer_on": a_on.answer}
    before, after = int(fig.contradicted_top_3.iloc[0]), int(fig.contradicted_top_3.iloc[1])
    statuses = wb.trusted if c.filter else wb.corpus.statuses
    return _make(5, filter_sentence(before, after, n, untrusted, example, c.filter), fig, example,
                 {"ask_question": example["question"], "ask_statuses": ",".join(statuses), "ask_k": "3",
                  "ask_rerank": "1", "ask_candidates": str(PIPELINE_CANDIDATES)},
                 {"spans": spans_on if c.filter else spans_off})


def rerank_moves(wb: Workbench, chunker: ChunkerConfig, candidates: int = PIPELINE_CANDIDATES) -> pd.DataFrame:
    """Per valid question, filter on: the anchor's rank among the candidates before and after the rerank (inf when
    it is not a candidate) and the move (tour_sentences.MOVES)."""
    allowed = set(wb.trusted)
    holders = wb.holders(chunker)
    before = first_hit_ranks(holders, wb.top_ids(chunker, candidates, allowed))
    after = first_hit_ranks(holders, wb.top_ids(chunker, candidates, allowed, True, candidates))
    move = ["not a candidate" if np.isinf(b) else "moved up" if a < b else "moved down" if a > b else "unchanged"
            for b, a in zip(before, after)]
    return pd.DataFrame({"question": [q + 1 for q in range(len(holders))], "text": wb.questions,
                         "rank_before": before, "rank_after": after, "move": move})


def _step6(wb, chunker, c):
    if not wb.golden_check.valid:
        return _make(6, NO_GOLDEN, pd.DataFrame())
    fig = rerank_moves(wb, chunker)
    moved = fig[fig.move.isin(["moved up", "moved down"])]
    example = _row(wb, int(moved.question.iloc[0]) - 1) if not moved.empty else {}
    return _make(6, rerank_sentence(fig, PIPELINE_CANDIDATES, PIPELINE_FINAL), fig, {**example, "rerank": c.rerank},
                 {"ask_question": example["question"], "ask_rerank": "1" if c.rerank else "0",
                  "ask_statuses": ",".join(wb.trusted)} if example else {})


def answers_tried(wb: Workbench, chunker: ChunkerConfig, q: int) -> pd.DataFrame:
    """The answers to try (generation.presets) for valid question q, filter on, each judged: kind, answer, outcome,
    reason."""
    row, ix = wb.golden_check.valid[q], wb.index(chunker)
    a, _, _ = _answer(wb, chunker, q, PIPELINE_FINAL, set(wb.trusted))
    rows = []
    for p in presets(row.question, a.spans):
        j = judge_answer(p.answer, a.spans, a.retrieved.ids, ix, row.doc, row.anchor, wb.trusted, with_article=False,
                     key=row.key, question=row.question, reply=row.reply, accept=row.accept)
        rows.append({"kind": p.kind, "answer": p.answer, "outcome": j.outcome, "reason": j.sentence})
    return pd.DataFrame(rows, columns=["kind", "answer", "outcome", "reason"])


def _step7(wb, chunker, c):
    """The first question whose answers to try hold an answered one and the most refused ones (else the most
    refused ones)."""
    if wb.golden_check.valid:
        tried = [answers_tried(wb, chunker, q) for q in range(len(wb.golden_check.valid))]
        score = [("answered" in set(f.outcome), int((f.outcome == "refused").sum())) for f in tried]
        q = score.index(max(score))          # the first of the best: most refusals, with an answered one
        fig = tried[q]
        question, params = wb.golden_check.valid[q].question, {"ask_question": wb.golden_check.valid[q].question,
                                                        "ask_statuses": ",".join(wb.trusted)}
        spans = _answer(wb, chunker, q, PIPELINE_FINAL, set(wb.trusted))[0].spans
    else:          # the article's own two spans and six answers: the checker needs no corpus
        question, spans, params = "What is the default cutoff of get_close_matches?", list(ARTICLE_CONTEXT), {}
        rows = []
        for i, answer in enumerate(ARTICLE_CASES, 1):
            v = verify(answer, spans, "strict", question)
            rows.append({"kind": f"article case {i}", "answer": answer, "outcome": v.verdict, "reason": v.reason})
        fig = pd.DataFrame(rows, columns=["kind", "answer", "outcome", "reason"])
    chosen = fig[fig.kind == c.preset] if c.preset in set(fig.kind) else fig.head(1)
    example = {"question": question, **(chosen.iloc[0].to_dict() if not chosen.empty else {}), "spans": list(spans)}
    return _make(7, checker_sentence(fig, question), fig, example, params)


def _step8(wb, chunker, c):
    if not wb.golden_check.valid:
        return _make(8, NO_GOLDEN, pd.DataFrame())
    df = tables.trap3(wb, chunker, ks=(TRAP3_K,), retrievers=tuple(c.retrievers))
    fig = df[["retriever", "article_questions", "user_questions"]].reset_index(drop=True)
    fig.attrs.update(df.attrs)
    return _make(8, trap3_sentence(fig), fig, {"user_questions": df.attrs.get("user_questions", 0)})


def _step9(wb, chunker, c):
    if not wb.golden_check.valid:
        return _make(9, NO_GOLDEN, pd.DataFrame())
    if not 1 <= c.k <= PIPELINE_CANDIDATES:
        raise ValueError(f"k must be from 1 to {PIPELINE_CANDIDATES} (the candidates), got {c.k}.")
    setup = replace(default_setup(wb, chunker=chunker), k=c.k)
    fig = loss.losses_table(wb, chunker, setup=setup)
    fig["colour"] = fig.stage.map(loss.COLOURS)
    article = default_setup(wb)
    return _make(9, fix_first_sentence(fig), fig, {"setup": setup.to_text(), "article": article.to_text()},
                 setup.link_params(corpus_statuses=wb.corpus.statuses))


_STEPS = (_step1, _step2, _step3, _step4, _step5, _step6, _step7, _step8, _step9)


def tour(wb: Workbench, chunker: ChunkerConfig = ARTICLE_CHUNKER, controls: Controls = Controls()) -> list[Step]:
    """The nine steps, in the article's order (the presenter's download)."""
    return [step(wb, n, chunker, controls) for n in range(1, len(TITLES) + 1)]
