"""Every table of the article as a pandas DataFrame, computed live from a Workbench.

Every table is a function `table(wb, chunker=ARTICLE_CHUNKER, *, options) -> DataFrame`; the tables that
sweep their own grid of chunkers (strategies, size x overlap, cuts, rerank) ignore `chunker`.
Column names are the article's printed headers in snake_case ("cut with 20%" -> cut_with_20_percent), with one
name for one measure: the share of questions whose anchor is in the first k chunks (the article's "ceiling",
"recall@k" and "rec@k") is `recall` beside a column `k`, or `recall_at_{k}`. Ratios are over the valid golden
questions; every table carries that count in `df.attrs["questions"]` and the excluded count in `df.attrs["excluded"]`.

    ceiling(wb)          k, recall
    strategies(wb)       strategy, chunks, words_per_chunk, recall_at_1, recall_at_3
    size_overlap(wb)     size, ovl, chunks, recall_at_1, recall_at_3, recall_at_5, recall_at_50
    cut_anchors(wb)      size, cut_without_ovl, cut_with_20_percent, chunks_without_ovl, chunks_with_20_percent
    cut_summary(wb)      one row: trials, cut totals, overlap cost, the first cut example
    filter_effect(wb)    filter, recall_at_1, recall_at_3, contradicted_top_3, chunks_excluded, chunks
    rerank_effect(wb)    chunk, recall_at_50, recall_at_1_bi, recall_at_1_rerank, recall_at_3_bi, recall_at_3_rerank
    latency(wb)          route, min_ms, max_ms, runs, repetitions (the only table that varies per run)
    verifier_cases(wb)   answer, verdict, explanation (the article's checker; needs no corpus)
    pipeline(wb)         filter, one column per outcome: the article's labels with its checker; with mode="strict"
                         the judgements a user reads (answered, wrong_answer, not_confirmed, wrong_source, refused,
                         abstained)
    prompt_table(wb)     one row: words, characters, spans, answer
    corpus_sizes(wb)     one row: documents, words, questions (valid, excluded)
    trap3(wb)            k, retriever, article_questions, user_questions: the ceiling of each retriever for the
                         article's questions and the same asked as a user would (not in TABLES: it runs them all)
    losses(wb)           stage, questions, share, meaning: where the article's pipeline loses each question
                         (20 candidates reranked, 3 kept, trusted statuses only; see evaluation.losses)

Every table ranks with the workbench's retriever and reranker (`wb.using(retriever=..., reranker=...)`); with
the defaults (hashing, lexical) they are the article's. `chunkers_of(name, chunker)` lists the chunkers a table
indexes, so that a page can encode them all first with one count of chunks left (`wb.prepare`).

Left out on purpose: formatting. Values are numbers; reports and pages round them.
"""
from __future__ import annotations

import contextlib
import time

import numpy as np
import pandas as pd

from rag_core.evaluation.losses import losses_table
from rag_core.evaluation.metrics import (contradicted, cut_anchors as count_cut, first_cut_example,
                                         fixed_window_count, own_occurrences, recall_at)
from rag_core.evaluation.outcomes import PIPELINE_CANDIDATES, PIPELINE_FINAL, counted, filters, outcomes_by_filter
from rag_core.evaluation.pipeline import ask
from rag_core.evaluation.vocabulary import ARTICLE_OUTCOMES, GOLDEN_OUTCOMES, column
from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Workbench
from rag_core.generation.generator import scripted_answer
from rag_core.generation.presets import ARTICLE_CASES, ARTICLE_CONTEXT
from rag_core.generation.prompt import prompt_size as measure_prompt
from rag_core.generation.verifier import verify
from rag_core.retrieval.chunkers import ChunkerConfig
from rag_core.data.golden import load_golden
from rag_core.retrieval.rerank import retrieve
from rag_core.retrieval.retrievers import RETRIEVERS

CEILING_KS = (1, 3, 5, 10, 50)
ENCODER_REPETITIONS = 1          # latency passes a run with the trained encoder (the table's `repetitions` says so)
STRATEGIES = (ChunkerConfig("fixed", 160, 0), ChunkerConfig("fixed", 160, 32),
              ChunkerConfig("structure", 160, 0), ChunkerConfig("sentence", 4, 1))
SIZE_OVERLAP = ((40, 0), (40, 8), (80, 0), (80, 16), (160, 0), (160, 32), (320, 0), (320, 64))
CUT_SIZES = tuple(range(20, 401, 20))
RERANK_SIZES = ((40, 8), (80, 16), (160, 32))


def ceiling(wb: Workbench, chunker: ChunkerConfig = ARTICLE_CHUNKER, *, ks=CEILING_KS, allowed=None) -> pd.DataFrame:
    ranks = wb.anchor_ranks(chunker, max(ks), allowed)
    return counted([{"k": k, "recall": recall_at(ranks, k)} for k in ks], wb)


def trap3(wb: Workbench, chunker: ChunkerConfig = ARTICLE_CHUNKER, *, ks=(1, 3, 5, 10), retrievers=RETRIEVERS,
          user_rows=None, filtered: bool = True) -> pd.DataFrame:
    """The article's trap 3 made visible: the ceiling at each k of every retriever, for the workbench's golden
    questions (the article's, in the library's own words) and for the same anchors asked as a user would
    (`load_golden("user")` unless `user_rows`), the trusted statuses only unless filtered=False."""
    user = wb.with_golden(load_golden("user") if user_rows is None else user_rows)
    allowed = set(wb.trusted) if filtered else None
    rows = []
    for r in retrievers:
        a = wb.using(retriever=r).anchor_ranks(chunker, max(ks), allowed)
        u = user.using(retriever=r).anchor_ranks(chunker, max(ks), allowed)
        rows += [{"k": k, "retriever": r, "article_questions": recall_at(a, k), "user_questions": recall_at(u, k)}
                 for k in ks]
    df = counted(rows, wb)
    df.attrs.update(user_questions=len(user.golden_check.valid), filtered=filtered)
    return df


def strategies(wb: Workbench, chunker: ChunkerConfig = ARTICLE_CHUNKER, *, configs=STRATEGIES) -> pd.DataFrame:
    """Each chunker of `configs` (the sweep ignores `chunker`)."""
    rows = []
    for cfg in configs:
        ix, ranks = wb.index(cfg), wb.anchor_ranks(cfg, 3)
        rows.append({"strategy": cfg.label, "chunks": len(ix), "words_per_chunk": float(np.mean(ix.end - ix.start)),
                     "recall_at_1": recall_at(ranks, 1), "recall_at_3": recall_at(ranks, 3)})
    return counted(rows, wb)


def size_overlap(wb: Workbench, chunker: ChunkerConfig = ARTICLE_CHUNKER, *, pairs=SIZE_OVERLAP) -> pd.DataFrame:
    """Fixed windows of each (size, overlap) of `pairs` (the sweep ignores `chunker`)."""
    rows = []
    for size, ovl in pairs:
        cfg = ChunkerConfig("fixed", size, ovl)
        ranks = wb.anchor_ranks(cfg, 50)
        rows.append({"size": size, "ovl": ovl, "chunks": len(wb.index(cfg)),
                     **{f"recall_at_{k}": recall_at(ranks, k) for k in (1, 3, 5, 50)}})
    return counted(rows, wb)


def cut_anchors(wb: Workbench, chunker: ChunkerConfig = ARTICLE_CHUNKER, *, sizes=CUT_SIZES) -> pd.DataFrame:
    """Anchors not whole in any fixed window of their document, per size, without and with 20 % overlap."""
    n_words = np.array([len(t) for t in wb.tc.tokens], dtype=np.int64)
    own = own_occurrences(wb.tc, wb.golden_check)                     # every question's occurrences, found once
    rows = []
    for s in sizes:
        rows.append({"size": s, "cut_without_ovl": count_cut(wb.tc, wb.golden_check, s, 0, own),
                     "cut_with_20_percent": count_cut(wb.tc, wb.golden_check, s, s // 5, own),
                     "chunks_without_ovl": int(fixed_window_count(n_words, s, 0).sum()),
                     "chunks_with_20_percent": int(fixed_window_count(n_words, s, s // 5).sum())})
    return counted(rows, wb)


def cut_summary(wb: Workbench, chunker: ChunkerConfig = ARTICLE_CHUNKER, *, sizes=CUT_SIZES,
                cuts: pd.DataFrame | None = None) -> pd.DataFrame:
    """Totals of `cut_anchors` over the sweep (which ignores `chunker`) and the article's first cut example."""
    cuts = cut_anchors(wb, sizes=sizes) if cuts is None else cuts
    c0, c1 = int(cuts.chunks_without_ovl.sum()), int(cuts.chunks_with_20_percent.sum())
    example = first_cut_example(wb.tc, wb.golden_check, sizes) or (None, None, None, [], [])
    return counted([{"trials": len(sizes) * len(wb.golden_check.valid), "sizes": len(sizes),
                    "cut_without_overlap": int(cuts.cut_without_ovl.sum()),
                    "cut_with_overlap": int(cuts.cut_with_20_percent.sum()),
                    "chunks_without_overlap": c0, "chunks_with_overlap": c1,
                    "overlap_cost_percent": 100 * (c1 - c0) / c0,
                    "example_size": example[0], "example_doc": example[1], "example_anchor": example[2],
                    "example_tail": " ".join(example[3]), "example_head": " ".join(example[4])}], wb)


def filter_effect(wb: Workbench, chunker: ChunkerConfig = ARTICLE_CHUNKER) -> pd.DataFrame:
    ix = wb.index(chunker)
    excluded = int(np.sum(~np.isin(ix.statuses(), wb.trusted)))
    rows = []
    for label, allowed in filters(wb):
        ranks = wb.anchor_ranks(chunker, 3, allowed)
        top3 = wb.top_ids(chunker, 3, allowed)
        rows.append({"filter": label, "recall_at_1": recall_at(ranks, 1), "recall_at_3": recall_at(ranks, 3),
                     "contradicted_top_3": contradicted(ix, top3, 3, wb.trusted),
                     "chunks_excluded": excluded if allowed else 0, "chunks": len(ix)})
    return counted(rows, wb)


def rerank_effect(wb: Workbench, chunker: ChunkerConfig = ARTICLE_CHUNKER, *, pairs=RERANK_SIZES) -> pd.DataFrame:
    """Filter on, 50 candidates, before and after the rerank, for each fixed window of `pairs` (ignores `chunker`)."""
    allowed = set(wb.trusted)
    rows = []
    for size, ovl in pairs:
        cfg = ChunkerConfig("fixed", size, ovl)
        bi = wb.anchor_ranks(cfg, 50, allowed)
        rr = wb.anchor_ranks(cfg, 50, allowed, rerank=True, k_candidates=50)
        rows.append({"chunk": f"{size}/{ovl}", "size": size, "ovl": ovl, "recall_at_50": recall_at(bi, 50),
                     "recall_at_1_bi": recall_at(bi, 1), "recall_at_1_rerank": recall_at(rr, 1),
                     "recall_at_3_bi": recall_at(bi, 3), "recall_at_3_rerank": recall_at(rr, 3)})
    return counted(rows, wb)


def latency(wb: Workbench, chunker: ChunkerConfig = ARTICLE_CHUNKER, *, runs: int = 3,
            repetitions: int = 20) -> pd.DataFrame:
    """Milliseconds per question, bi-encoder search alone and with reranking: min and max of `runs` runs. Everything
    a question costs is counted: with the trained encoder, encoding the question too (its remembered vector is
    dropped before each search)."""
    ix, allowed, qs = wb.index(chunker), set(wb.trusted), wb.questions
    if wb.needs_encoder:          # each search encodes its question (about 8 ms): one pass a run is enough to time
        repetitions = min(repetitions, ENCODER_REPETITIONS)

    def ms(f):
        t0 = time.perf_counter()
        for _ in range(repetitions):
            for q in qs:
                f(q)
        return 1000 * (time.perf_counter() - t0) / (repetitions * max(1, len(qs)))

    with wb.embedder.fresh_queries() if wb.needs_encoder else contextlib.nullcontext():   # each question encoded
        bi = [ms(lambda q: ix.search(q, 50, allowed)) for _ in range(runs)]
        rr = [ms(lambda q: retrieve(ix, q, 50, 3, True, allowed)) for _ in range(runs)]
    article = (wb.retriever, wb.reranker) == ("hashing", "lexical")
    routes = ("bi-encoder only", "with reranking") if article else (f"{wb.retriever} only",
                                                                   f"{wb.retriever} + {wb.reranker} rerank")
    return counted([{"route": route, "min_ms": min(t), "max_ms": max(t), "runs": runs, "repetitions": repetitions}
                  for route, t in zip(routes, (bi, rr))], wb)


def verifier_cases(wb: Workbench | None = None, chunker: ChunkerConfig = ARTICLE_CHUNKER, *,
                   context=ARTICLE_CONTEXT, cases=ARTICLE_CASES) -> pd.DataFrame:
    """The article's six answers against its two spans, by the article's checker (needs no corpus)."""
    rows = []
    for answer in cases:
        v = verify(answer, list(context), "article")
        rows.append({"answer": answer, "verdict": v.verdict, "explanation": v.reason})
    return pd.DataFrame(rows)


def pipeline(wb: Workbench, chunker: ChunkerConfig = ARTICLE_CHUNKER, *, generate=scripted_answer,
             mode: str = "article") -> pd.DataFrame:
    """Outcome counts with and without the status filter, judged by checker `mode`. attrs["wrong_source_untrusted"]:
    per filter, how many wrong-source answers cite a draft or another untrusted status (the rest cite a trusted
    document that is not the anchor's)."""
    status = {d.id: d.status for d in wb.corpus.documents}
    labels = ARTICLE_OUTCOMES if mode == "article" else GOLDEN_OUTCOMES
    rows, untrusted = [], {}
    for label, got in outcomes_by_filter(wb, chunker, generate=generate, mode=mode).items():
        counts = pd.Series([r["outcome"] for r in got], dtype=object).value_counts()
        rows.append({"filter": label, **{column(o): int(counts.get(o, 0))
                                         for o in labels}})
        untrusted[label] = sum(r["outcome"] in (ARTICLE_OUTCOMES[1], "wrong source") and r["cited_doc"] != ""
                               and status.get(r["cited_doc"]) not in wb.trusted for r in got)
    df = counted(rows, wb)
    df.attrs["wrong_source_untrusted"] = untrusted      # filter -> wrong-source answers citing an untrusted status
    return df


def prompt_table(wb: Workbench, chunker: ChunkerConfig = ARTICLE_CHUNKER, *, question: str | None = None) -> pd.DataFrame:
    """Size of the prompt for the first golden question (or the one given), filter on, reranked."""
    question = question or (wb.questions[0] if wb.questions else None)
    if question is None:
        return counted([], wb)
    a = ask(wb.index(chunker), question, PIPELINE_CANDIDATES, PIPELINE_FINAL, True, set(wb.trusted))
    size = measure_prompt(a.prompt, len(a.spans))
    return counted([{"question": question, "words": size.words, "characters": size.characters,
                    "spans": size.spans, "answer": a.answer}], wb)


def corpus_sizes(wb: Workbench, chunker: ChunkerConfig = ARTICLE_CHUNKER) -> pd.DataFrame:
    s = wb.corpus.sizes()
    return counted([{**s, "questions": len(wb.golden_check.rows), "valid_questions": len(wb.golden_check.valid),
                    "excluded_questions": wb.golden_check.n_excluded}], wb)


# name -> function(wb, chunker): the tables of a report, in the article's order
def chunkers_of(name: str, chunker: ChunkerConfig = ARTICLE_CHUNKER) -> tuple:
    """The chunkers table `name` indexes: its own sweep, or `chunker` (none for the tables that index nothing)."""
    sweeps = {"strategies": STRATEGIES, "size_overlap": tuple(ChunkerConfig("fixed", s, o) for s, o in SIZE_OVERLAP),
              "rerank": tuple(ChunkerConfig("fixed", s, o) for s, o in RERANK_SIZES),
              "cut_anchors": (), "cut_summary": (), "verifier_cases": (), "corpus_sizes": ()}
    return sweeps.get(name, (chunker,))


TABLES = {
    "ceiling": ceiling, "strategies": strategies, "size_overlap": size_overlap, "cut_anchors": cut_anchors,
    "cut_summary": cut_summary, "filter": filter_effect, "rerank": rerank_effect, "latency": latency,
    "verifier_cases": verifier_cases, "pipeline": pipeline, "prompt": prompt_table,
    "losses": losses_table,              # the loss account of the article's pipeline: where each question is lost
}
