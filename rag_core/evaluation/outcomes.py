"""Golden questions through generation and a checker: one row per question, the loops that make them, their rates.

    outcomes_by_filter(wb, chunker, 3, 20, generate=model_answerer(cfg), mode="strict",
                       on_progress=lambda done, total, what: bar.progress(done / total, text=what))
    -> {"no filter": [row, ...], "status = current": [row, ...]}

A row: question, expected_doc, answer, verdict, outcome, cited_doc, anchor_in_spans, reason. The outcome is the
article's label ("anchored / right source", ...) with its checker (mode "article", the article's tables), and the
judgement a user reads (judgement.judge_answer: answered only when the answer states the golden answer key
and contradicts none of it) with
the strict checker. Rows are appended to the lists as they come, so a caller that is
interrupted (a Cancel button, a server that fails half-way) keeps every answer received.

Left out on purpose: retries and answer caching (a failed call stops the loop; the caller decides).
"""
from __future__ import annotations

import math
from typing import Callable

import pandas as pd

from rag_core.evaluation.judgement import judge_answer
from rag_core.evaluation.pipeline import SPAN_ORDERS, outcome
from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Workbench
from rag_core.generation.generator import scripted_answer
from rag_core.generation.verifier import verify
from rag_core.retrieval.chunkers import ChunkerConfig

PIPELINE_CANDIDATES, PIPELINE_FINAL = 20, 3      # the article's pipeline: 20 candidates reranked, 3 spans kept


def filters(wb: Workbench) -> tuple:
    """The article's two settings as (label, allowed statuses): no filter, and only the trusted statuses
    ('status = current'; 'status = none trusted' when nothing is, which keeps no chunk)."""
    return (("no filter", None), ("status = " + (", ".join(wb.trusted) or "none trusted"), set(wb.trusted)))


def counted(rows, wb: Workbench) -> pd.DataFrame:
    """Rows as a DataFrame that carries the valid and excluded question counts in `attrs`, and the retriever and
    reranker when they are not the article's (hashing, lexical)."""
    df = pd.DataFrame(rows)
    df.attrs.update(questions=len(wb.golden_check.valid), excluded=wb.golden_check.n_excluded)
    if (wb.retriever, wb.reranker) != ("hashing", "lexical"):
        df.attrs.update(retriever=wb.retriever, reranker=wb.reranker)
    return df


def outcome_row(wb: Workbench, chunker: ChunkerConfig, q: int, ids, generate=scripted_answer,
                span_order: str = "ranked", mode: str = "article", keep_spans: bool = False) -> dict:
    """One valid golden question through generation and checker `mode`, given the chunk ids kept for it
    (keep_spans: the span texts too, under "spans", for a person to mark the answer)."""
    ix, row = wb.index(chunker), wb.golden_check.valid[q]
    ids = SPAN_ORDERS[span_order]([int(c) for c in ids])
    spans = [ix.texts[c] for c in ids]
    answer = generate(row.question, spans)
    v = verify(answer, spans, mode, row.question, [ix.title(c) for c in ids] if mode == "strict" else None)
    cited = v.cited_spans
    out = {"question": row.question, "expected_doc": row.doc, "answer": answer, "verdict": v.verdict,
           "outcome": outcome(v, ids, ix, row.doc),
           "cited_doc": ix.doc_id(ids[cited[0] - 1]) if v.verdict == "anchored" else "",
           "anchor_in_spans": bool(wb.holders(chunker)[q] & set(ids)), "reason": v.reason}
    if mode == "strict":                 # a user reads it: the judgement, green only for the answer key stated
        j = judge_answer(answer, spans, ids, ix, row.doc, row.anchor, wb.trusted, with_article=False, verdict=v,
                         key=row.key, question=row.question, reply=row.reply, accept=row.accept)
        out.update(outcome=j.outcome, reason=j.sentence)
    if keep_spans:
        out["spans"] = spans
    return out


def outcomes_by_filter(wb: Workbench, chunker: ChunkerConfig = ARTICLE_CHUNKER, k_final: int = PIPELINE_FINAL,
                       k_candidates: int = PIPELINE_CANDIDATES, generate=scripted_answer, span_order: str = "ranked",
                       mode: str = "article", done: dict | None = None,
                       on_progress: Callable[[int, int, str], None] | None = None, keep_spans: bool = False) -> dict:
    """label -> rows, for each of `filters(wb)`; every question reranked from k_candidates, k_final kept.

    done: lists to append the rows to (kept by the caller if the loop is interrupted).
    on_progress(answers done, answers in all, what comes next) is called before each answer.
    """
    settings = filters(wb)
    done = done if done is not None else {}
    n, total = len(wb.golden_check.valid), len(settings) * len(wb.golden_check.valid)
    for f_i, (label, allowed) in enumerate(settings):
        rows = done.setdefault(label, [])
        for q, ids in enumerate(wb.top_ids(chunker, k_final, allowed, True, k_candidates)):
            if on_progress:
                on_progress(f_i * n + q, total, f"{label}: question {q + 1} of {n}")
            rows.append(outcome_row(wb, chunker, q, ids, generate, span_order, mode, keep_spans))
    return done


def operating_metrics(outcomes: pd.DataFrame) -> dict:
    """Rates of a strict outcome table, each named for what it is: right (answered: grounded, right document, the
    answer key stated and nothing of it contradicted: the headline), wrong answer (contradicts the key), wrong
    source (quotes a draft or another document), not confirmed (neither states nor contradicts the key), refused,
    abstained; then checker accepted (grounded: every claim in its span, right or not) and the checker's false
    refusals.

    A false refusal is a refused answer although the anchor was inside the spans handed over.
    """
    n = len(outcomes)
    rates = ("right_rate", "wrong_answer_rate", "wrong_source_rate", "not_confirmed_rate", "refusal_rate",
             "abstention_rate", "checker_accepted_rate")
    if not n:
        return {"questions": 0, **dict.fromkeys(rates, math.nan), "false_refusals": 0}
    v, o = outcomes.verdict, outcomes.outcome
    return {"questions": n, "right_rate": float((o == "answered").mean()),
            "wrong_answer_rate": float((o == "wrong answer").mean()),
            "wrong_source_rate": float((o == "wrong source").mean()),
            "not_confirmed_rate": float((o == "not confirmed").mean()),
            "refusal_rate": float((v == "refused").mean()), "abstention_rate": float((v == "abstained").mean()),
            "checker_accepted_rate": float((v == "anchored").mean()),
            "false_refusals": int(((v == "refused") & outcomes.anchor_in_spans).sum())}
