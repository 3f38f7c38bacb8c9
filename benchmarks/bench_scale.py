"""Benchmark 2 ("scale"): indexing throughput, filtered top-50 latency and peak memory at 100,000 chunks, against bm25s.

    python benchmarks/bench_scale.py [--chunks 100000] [--queries 200] [--json out.json]

Method
------
Corpus: the bundled corpus (28 documents: 18 modules "current", 10 notes "draft"/"outdated") copied
N times with distinct ids ("statistics#17"), statuses kept, until the article's chunker
(fixed window 160, overlap 32: 114 chunks a copy) gives at least --chunks chunks (878 copies for
100,000 -> 100,092 chunks, 91,312 of them "current").

Words: every throughput counts the whitespace words of the chunks, sum(end - start) over the chunks
(= sum(len(chunk.split()))), overlaps counted twice; 13,538,760 words at 100,092 chunks. bm25s is
credited with the very same count.

Indexing, ours: TokenizedCorpus(corpus) + Index.build(tc, chunker), i.e. from the documents' raw
texts to a searchable index, chunking included. bm25s: bm25s.tokenize(chunk_texts, stopwords="en")
(its English list, its default regex, no stemmer) + BM25().index(...) (its defaults: method "lucene",
numpy backend; numba, scipy and jax are not installed), from the chunk texts, which are cut before
the clock starts (so bm25s is not charged for chunking). Each indexing run is a fresh subprocess
(--runs of them per side, interleaved), so that no cache of one run warms the next and memory is
measured per side: after imports and corpus construction the process resets its peak-RSS mark
(Linux /proc/self/clear_refs), indexes, and reads VmHWM. Reported: "peak" = the process's peak RSS
while indexing, and "added" = that peak minus the RSS just before indexing (the corpus and, for
bm25s, the chunk texts are already in the baseline); "kept" = RSS after indexing minus the baseline
(an upper bound on what the index holds: the allocator keeps some freed memory).

Queries: the 18 golden questions plus deterministic samples of 2-6 consecutive words of the bundled
documents (numpy seed 0) up to --queries; each asks for the top 50 among the "current" chunks. Ours:
Index.search(q, 50, {"current"}). bm25s: bm25s.tokenize(q) + BM25.retrieve(..., k=50,
weight_mask=current) (its documented filter: the scores of the other chunks are multiplied by 0).
Both sides start from the question's text; one warm-up pass, then each query is timed on its own
with perf_counter (and process_time), repeated --repeats times; median and p95 over all timings, and
the median over the golden questions alone (short, specific questions: cheaper for bm25s than the
sampled ones, which often hold a common word). Our caches of question analysis
(encoder._query_terms, text_tokens.cached_words) are cleared before every timed query (outside the timer),
so a repeated question is not answered from a cache.

Exactness: for every query our top 50 ids are compared with a dense brute force: the matrix
densified to float64 (in blocks of rows), scores = M @ q for the same query vector, restricted to
the allowed rows, np.argsort(-s, kind="stable")[:50]. The replicated corpus has exact duplicate
chunks, hence exact ties, so this also checks that ties keep chunk order.

Scaling curve: the same queries at about 1k, 5k, 10k, 25k, 50k chunks (each a prefix of copies,
built in one subprocess per side, exactness checked at each size) and at --chunks (the main runs);
--json writes {"curve": [{"chunks", "ours_ms", "bm25s_ms", ...}], "summary": {...}} for a dashboard.

Cold variant: exact copies make our table from whitespace token to word ids unrealistically warm:
after the first copy no token is new (3,685 distinct tokens in 11 M), and every look-up hits a
small table that stays in the CPU cache. The cold variant appends a copy-specific run of
punctuation ("value" -> "value~!@") to a share of the tokens of each copy (--cold, default 0.1:
every 10th token; 620 k distinct tokens at 100 k chunks, a plausible vocabulary for 11 M tokens of
text; --cold 1 marks every token, 3.2 M distinct tokens, the worst case). It changes no word
(punctuation is not part of a word for either tokenizer) and no whitespace count, so the index is
the same; only the token table grows. One indexing run per side.

Noise: the machine is shared (2 cores). Every time is reported as wall time (the goals) and also as
CPU time of the process, which other processes disturb much less; the load average before and after
the run is printed. Indexing is the median of --runs fresh processes per side, interleaved.

Left out: query batching (every query is timed alone), multi-threading (bm25s n_threads=0, ours has
none), persistence (no index is saved or loaded), recall (bm25s ranks with another scoring
function: only speed and memory are compared), and the word_hash cache, which stays warm between
queries as it would in a running server.
"""
from __future__ import annotations

import argparse
import gc
import json
import math
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent

from rag_core import ChunkerConfig, Corpus, Document, bundled_corpus, load_golden  # noqa: E402
from rag_core.text import tokens as text_tokens  # noqa: E402
from rag_core.retrieval import encoder  # noqa: E402
from rag_core.retrieval.chunkers import fixed_window  # noqa: E402
from rag_core.retrieval.index import Index  # noqa: E402
from rag_core.retrieval.tokenized import TokenizedCorpus  # noqa: E402

ARTICLE = ChunkerConfig("fixed", 160, 32)
ALLOWED = {"current"}
K = 50
GOAL_WORDS_PER_S = 2_000_000
GOAL_MS = 1.0
N_GOLDEN = len(load_golden())
CURVE = (1_000, 5_000, 10_000, 25_000, 50_000)
_SPACE = re.compile(r"(\s+)")
MARKS = "~!@#$%^&*+=|"          # digits of the copy marker in the cold variant: no letter, digit or "_"


# --- corpus and queries ------------------------------------------------------------------------

def copy_marker(c: int) -> str:
    """A run of punctuation unique to copy c (bijective base 12): 0 -> "~", 1 -> "!", 12 -> "~~", 13 -> "~!"."""
    out, c = "", c + 1
    while c:
        c, r = divmod(c - 1, len(MARKS))
        out = MARKS[r] + out
    return out


def replicated_corpus(copies: int, cold: float = 0.0) -> Corpus:
    """The bundled corpus `copies` times, ids "doc#copy".

    cold: the share of whitespace tokens that get the copy's marker, every round(1 / cold)-th token of
    each document (shifted by the copy number); 1.0 marks every token, 0 none.
    """
    base, docs = bundled_corpus().documents, []
    every = round(1 / cold) if cold else 0
    for c in range(copies):
        for d in base:
            docs.append(Document(f"{d.id}#{c}", mark_tokens(d.text, copy_marker(c), every, c) if every else d.text,
                                 d.status))
    return Corpus(tuple(docs), name=f"bundled x {copies}" + (f" (cold {cold:g})" if cold else ""))


def mark_tokens(text_: str, mark: str, every: int, shift: int) -> str:
    """Append `mark` to every `every`-th whitespace token (from token shift % every), whitespace kept."""
    parts = _SPACE.split(text_)                                   # token, space, token, ... ("" at an edge)
    tokens = parts[0::2]
    first = (tokens[0] == "") + shift % every                      # a leading "" is no token
    tokens[first::every] = [t + mark if t else t for t in tokens[first::every]]
    parts[0::2] = tokens
    return "".join(parts)


def chunks_per_copy() -> int:
    return sum(len(fixed_window(d.text, ARTICLE.size, ARTICLE.overlap)) for d in bundled_corpus().documents)


def copies_for(chunks: int) -> int:
    return max(1, math.ceil(chunks / chunks_per_copy()))


def chunk_texts(corpus: Corpus) -> tuple[list[str], np.ndarray, int]:
    """(chunk texts, status of each, whitespace words) with the article's chunker: what bm25s indexes."""
    texts, status, n_words = [], [], 0
    for d in corpus.documents:
        for p in fixed_window(d.text, ARTICLE.size, ARTICLE.overlap):
            texts.append(p.text)
            status.append(d.status)
            n_words += p.end - p.start
    return texts, np.array(status), n_words


def benchmark_queries(n: int, seed: int = 0) -> list[str]:
    """The golden questions, then 2-6 consecutive words of a random bundled document, up to n."""
    out = [r.question for r in load_golden()][:n]
    docs = [d.text.split() for d in bundled_corpus().documents]
    rng = np.random.default_rng(seed)
    while len(out) < n:
        toks = docs[rng.integers(len(docs))]
        length = int(rng.integers(2, 7))
        at = int(rng.integers(0, max(1, len(toks) - length)))
        q = " ".join(toks[at:at + length])
        if len([w for w in text_tokens.words(q) if len(w) > 1]) >= 1:      # a word both tokenizers keep
            out.append(q)
    return out


# --- memory ------------------------------------------------------------------------------------

def _status_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def reset_peak() -> bool:
    """Reset the process's peak-RSS mark (Linux); False if the kernel does not allow it."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


class Memory:
    """RSS before, peak during and RSS after a block, in MB."""

    def __enter__(self):
        gc.collect()
        self.before = _status_kb("VmRSS")
        self.reset = reset_peak()
        return self

    def __exit__(self, *exc):
        self.peak = _status_kb("VmHWM")
        self.after = _status_kb("VmRSS")

    def report(self) -> dict:
        return {"peak_mb": self.peak / 1024, "added_mb": (self.peak - self.before) / 1024,
                "kept_mb": (self.after - self.before) / 1024, "baseline_mb": self.before / 1024,
                "peak_reset": self.reset}


# --- timing --------------------------------------------------------------------------------------

def time_each(run, queries: list[str], repeats: int, before=None) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of run(q) for each query, after one warm-up pass; before() runs outside the timer."""
    for q in queries:
        run(q)
    wall, cpu = [], []
    for _ in range(repeats):
        for q in queries:
            if before:
                before()
            c0, t0 = time.process_time(), time.perf_counter()
            run(q)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
    return wall, cpu


def summary_ms(times: tuple[list[float], list[float]], n_queries: int) -> dict:
    """Median, p95 and CPU median over all timings; median over the golden questions' timings alone."""
    wall, cpu = times
    n_golden = min(N_GOLDEN, n_queries)
    golden = [t for i, t in enumerate(wall) if i % n_queries < n_golden]
    return {"median_ms": 1000 * statistics.median(wall), "p95_ms": 1000 * float(np.percentile(wall, 95)),
            "cpu_median_ms": 1000 * statistics.median(cpu), "golden_median_ms": 1000 * statistics.median(golden)}


def clear_question_caches():
    encoder._query_terms.cache_clear()
    text_tokens.cached_words.cache_clear()


# --- exactness -----------------------------------------------------------------------------------

def dense_top_k(ix: Index, queries: list[str], k: int, block: int = 16_384) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Top k allowed ids and their scores by brute force: dense float64 rows @ query vectors, stable argsort."""
    q = np.stack([ix.encoder.encode_query(s) for s in queries]).astype(np.float64).T     # (dim, n_queries)
    m = ix.matrix
    cols = np.repeat(np.arange(m.dim), np.diff(m.ptr))                                    # (nnz,)
    by_row = np.argsort(m.rows, kind="stable")
    rows, cols, vals = m.rows[by_row], cols[by_row], m.vals[by_row]
    row_ptr = np.searchsorted(rows, np.arange(0, m.n_rows + block, block))
    scores = np.empty((m.n_rows, len(queries)))
    for b, r0 in enumerate(range(0, m.n_rows, block)):
        r1 = min(r0 + block, m.n_rows)
        dense = np.zeros((r1 - r0, m.dim))                                                # (rows, dim) float64
        sl = slice(row_ptr[b], row_ptr[b + 1])
        dense[rows[sl] - r0, cols[sl]] = vals[sl]
        scores[r0:r1] = dense @ q
    allowed = np.flatnonzero(np.isin(ix.statuses(), list(ALLOWED)))                     # not Index's own filter
    ids, top = [], []
    for j in range(len(queries)):
        s = scores[allowed, j]
        best = np.argsort(-s, kind="stable")[:k]
        ids.append(allowed[best])
        top.append(s[best])
    return ids, top


def exactness(ix: Index, queries: list[str]) -> dict:
    ids, scores = dense_top_k(ix, queries, K)
    same, worst = 0, 0.0
    for q, ref_ids, ref_scores in zip(queries, ids, scores):
        res = ix.search(q, K, ALLOWED)
        same += np.array_equal(res.ids, ref_ids)
        worst = max(worst, float(np.max(np.abs(res.scores - ref_scores), initial=0.0)))
    return {"identical": same, "queries": len(queries), "max_abs_score_diff": worst}


# --- one side, in its own process ------------------------------------------------------------------

def index_ours(corpus: Corpus) -> tuple[Index, dict, Memory]:
    with Memory() as mem:
        c0, t0 = time.process_time(), time.perf_counter()
        ix = Index.build(TokenizedCorpus(corpus), ARTICLE)
        clock = {"seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - c0}
    return ix, clock, mem


def index_bm25s(texts: list[str]):
    import bm25s
    with Memory() as mem:
        c0, t0 = time.process_time(), time.perf_counter()
        retriever = bm25s.BM25()
        retriever.index(bm25s.tokenize(texts, stopwords="en", show_progress=False), show_progress=False)
        clock = {"seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - c0}
    return retriever, clock, mem


def bm25s_search(retriever, mask: np.ndarray):
    import bm25s

    def run(q: str):
        tokens = bm25s.tokenize([q], stopwords="en", return_ids=False, show_progress=False)
        return retriever.retrieve(tokens, k=K, weight_mask=mask, show_progress=False, n_threads=0).documents[0]
    return run


def worker(spec: dict) -> dict:
    """Index one corpus on one side; optionally time the queries (and check exactness for ours)."""
    import bm25s  # noqa: F401  imported before the baseline on both sides, so neither pays for it
    corpus = replicated_corpus(spec["copies"], spec.get("cold", 0.0))
    queries = benchmark_queries(spec["queries"]) if spec.get("queries") else []
    out = {"side": spec["side"], "documents": len(corpus.documents), "cold": spec.get("cold", 0.0)}
    if spec["side"] == "ours":
        ix, clock, mem = index_ours(corpus)
        out.update(chunks=len(ix), words=int((ix.end - ix.start).sum()), nnz=len(ix.matrix.vals),
                   matrix_mb=ix.matrix.nbytes / 2**20, distinct_tokens=len(ix.tc.tokenizer.token_strings))
        if queries:
            out.update(summary_ms(time_each(lambda q: ix.search(q, K, ALLOWED), queries, spec["repeats"],
                                            clear_question_caches), len(queries)))
        if spec.get("exact"):
            out["exact"] = exactness(ix, queries)
    else:
        texts, status, n_words = chunk_texts(corpus)
        retriever, clock, mem = index_bm25s(texts)
        out.update(chunks=len(texts), words=n_words)
        if queries:
            mask = (status == "current").astype(np.float32)
            run = bm25s_search(retriever, mask)
            out.update(summary_ms(time_each(run, queries, spec["repeats"]), len(queries)))
            out["results_with_a_filtered_chunk"] = sum(bool(np.any(mask[run(q)] == 0)) for q in queries)
    out.update(clock, words_per_s=out["words"] / clock["seconds"], cpu_words_per_s=out["words"] / clock["cpu_seconds"],
               **mem.report())
    return out


def curve_worker(spec: dict) -> list[dict]:
    """Query latency at each size of spec["copies"], one side, one process (indexes built one by one)."""
    queries = benchmark_queries(spec["queries"])
    points = []
    for copies in spec["copies"]:
        corpus = replicated_corpus(copies)
        if spec["side"] == "ours":
            ix = Index.build(TokenizedCorpus(corpus), ARTICLE)
            times = time_each(lambda q: ix.search(q, K, ALLOWED), queries, spec["repeats"], clear_question_caches)
            point = {"curve": True, "chunks": len(ix), **summary_ms(times, len(queries)),
                     "exact": exactness(ix, queries)["identical"]}
            del ix
        else:
            texts, status, _ = chunk_texts(corpus)
            retriever, _, _ = index_bm25s(texts)
            times = time_each(bm25s_search(retriever, (status == "current").astype(np.float32)), queries,
                              spec["repeats"])
            point = {"chunks": len(texts), **summary_ms(times, len(queries))}
            del retriever
        points.append(point)
        gc.collect()
    return points


def in_subprocess(spec: dict):
    """Run worker(spec) or curve_worker(spec) in a fresh interpreter; its JSON answer."""
    done = subprocess.run([sys.executable, __file__, "--worker", json.dumps(spec)], capture_output=True, text=True)
    if done.returncode:
        sys.stderr.write(done.stderr)
        raise SystemExit(f"worker {spec} failed")
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- the report ----------------------------------------------------------------------------------

def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


MEDIAN_KEYS = ("seconds", "cpu_seconds", "words_per_s", "cpu_words_per_s", "peak_mb", "added_mb", "kept_mb")


def main_runs(copies: int, args) -> dict:
    """--runs indexing processes per side, interleaved so that noise hits both; the first also runs the queries."""
    runs = {"ours": [], "bm25s": []}
    for r in range(args.runs):
        for side in runs:
            runs[side].append(in_subprocess({"side": side, "copies": copies, "queries": args.queries if r == 0 else 0,
                                             "repeats": args.repeats, "exact": r == 0 and side == "ours"}))
    out = {}
    for side, done in runs.items():
        out[side] = {**done[0], **{key: statistics.median(run[key] for run in done) for key in MEDIAN_KEYS}}
    assert out["ours"]["words"] == out["bm25s"]["words"] and out["ours"]["chunks"] == out["bm25s"]["chunks"]
    return out


def curve_runs(copies: list[int], main: dict, args) -> list[dict]:
    """The curve points: the smaller sizes (one process per side), then the main size from main_runs."""
    pts = {side: in_subprocess({"curve": True, "side": side, "copies": copies, "queries": args.queries,
                                "repeats": args.repeats}) if copies else [] for side in ("ours", "bm25s")}
    pts = {side: pts[side] + [main[side]] for side in pts}
    return [{"chunks": o["chunks"], "ours_ms": o["median_ms"], "ours_p95_ms": o["p95_ms"],
             "ours_cpu_ms": o["cpu_median_ms"], "ours_exact": o["exact"] if "curve" in o else o["exact"]["identical"],
             "bm25s_ms": b["median_ms"], "bm25s_p95_ms": b["p95_ms"], "bm25s_cpu_ms": b["cpu_median_ms"]}
            for o, b in zip(*(pts[side] for side in ("ours", "bm25s")))]


def make_summary(main: dict, cold: dict, args) -> dict:
    o, b = main["ours"], main["bm25s"]
    s = {"chunks": o["chunks"], "documents": o["documents"], "words": o["words"], "queries": args.queries, "k": K,
         "runs": args.runs, "repeats": args.repeats, "peak_reset": o["peak_reset"],
         "ours_nnz": o["nnz"], "ours_matrix_mb": o["matrix_mb"],
         "exact_identical": o["exact"]["identical"], "exact_max_abs_score_diff": o["exact"]["max_abs_score_diff"],
         "bm25s_results_with_a_filtered_chunk": b["results_with_a_filtered_chunk"]}
    for side, r in main.items():
        s.update({f"{side}_words_per_s": r["words_per_s"], f"{side}_cpu_words_per_s": r["cpu_words_per_s"],
                  f"{side}_index_s": r["seconds"], f"{side}_median_ms": r["median_ms"], f"{side}_p95_ms": r["p95_ms"],
                  f"{side}_cpu_median_ms": r["cpu_median_ms"], f"{side}_golden_median_ms": r["golden_median_ms"],
                  f"{side}_peak_mb": r["peak_mb"],
                  f"{side}_added_mb": r["added_mb"], f"{side}_kept_mb": r["kept_mb"]})
    for side, r in cold.items():
        s["cold_share"] = r["cold"]
        s.setdefault("cold_distinct_tokens", r.get("distinct_tokens"))      # counted by our tokenizer
        s.update({f"cold_{side}_words_per_s": r["words_per_s"], f"cold_{side}_cpu_words_per_s": r["cpu_words_per_s"],
                  f"cold_{side}_peak_mb": r["peak_mb"], f"cold_{side}_added_mb": r["added_mb"]})
    s.update(goal_words_per_s=GOAL_WORDS_PER_S, goal_ms=GOAL_MS,
             throughput_goal=verdict(s["ours_words_per_s"] >= GOAL_WORDS_PER_S),
             latency_goal=verdict(s["ours_median_ms"] <= GOAL_MS))
    return s


def mw(x: float) -> str:
    return f"{x / 1e6:.2f} M words/s"


def print_report(curve: list[dict], s: dict) -> None:
    print(f"\nscaling curve (filtered top-{K}: ms per query, wall median / p95 / CPU median; "
          f"{s['queries']} queries x {s['repeats']})")
    print(f"{'chunks':>8}  {'ours ms':>8} {'p95':>6} {'cpu':>6}  {'bm25s ms':>8} {'p95':>6} {'cpu':>6}  {'exact':>9}")
    for p in curve:
        print(f"{p['chunks']:>8,}  {p['ours_ms']:>8.3f} {p['ours_p95_ms']:>6.3f} {p['ours_cpu_ms']:>6.3f}  "
              f"{p['bm25s_ms']:>8.3f} {p['bm25s_p95_ms']:>6.3f} {p['bm25s_cpu_ms']:>6.3f}  {p['ours_exact']:>4}/{s['queries']}")
    print(f"\nsummary at {s['chunks']:,} chunks ({s['documents']:,} documents, {s['words']:,} chunk words; "
          f"indexing: median of {s['runs']} fresh processes per side)")
    print(f"indexing  ours  {mw(s['ours_words_per_s'])} ({s['ours_index_s']:.2f} s; CPU {mw(s['ours_cpu_words_per_s'])})"
          f"   bm25s {mw(s['bm25s_words_per_s'])} ({s['bm25s_index_s']:.2f} s; CPU {mw(s['bm25s_cpu_words_per_s'])})"
          f"   ours/bm25s x{s['ours_words_per_s'] / s['bm25s_words_per_s']:.2f}"
          f"   goal >= {mw(GOAL_WORDS_PER_S)}: {s['throughput_goal']}")
    print(f"query     ours  {s['ours_median_ms']:.3f} ms median, {s['ours_p95_ms']:.3f} ms p95 (CPU "
          f"{s['ours_cpu_median_ms']:.3f})   bm25s {s['bm25s_median_ms']:.3f} ms median, {s['bm25s_p95_ms']:.3f} ms p95 "
          f"(CPU {s['bm25s_cpu_median_ms']:.3f})   bm25s/ours x{s['bm25s_median_ms'] / s['ours_median_ms']:.1f}"
          f"   goal <= {GOAL_MS:g} ms: {s['latency_goal']}")
    print(f"          golden questions alone: ours {s['ours_golden_median_ms']:.3f} ms median, "
          f"bm25s {s['bm25s_golden_median_ms']:.3f} ms median")
    print(f"memory    ours  peak {s['ours_peak_mb']:.0f} MB (indexing added {s['ours_added_mb']:.0f} MB, kept "
          f"{s['ours_kept_mb']:.0f} MB; matrix {s['ours_matrix_mb']:.0f} MB, {s['ours_nnz']:,} non-zeros)   bm25s peak "
          f"{s['bm25s_peak_mb']:.0f} MB (added {s['bm25s_added_mb']:.0f} MB, kept {s['bm25s_kept_mb']:.0f} MB)"
          f"   peak ours/bm25s x{s['ours_peak_mb'] / s['bm25s_peak_mb']:.2f}")
    print(f"exact: {s['exact_identical']}/{s['queries']} queries identical top-{K} "
          f"(dense float64 brute force; max |score diff| {s['exact_max_abs_score_diff']:.1e})")
    print(f"bm25s filter: {s['bm25s_results_with_a_filtered_chunk']}/{s['queries']} of its top-{K} lists hold a "
          f"filtered-out chunk (weight_mask zeroes scores, it does not remove chunks)")
    if "cold_ours_words_per_s" in s:
        print(f"cold tokens ({100 * s['cold_share']:g}% of tokens marked per copy: {s['cold_distinct_tokens']:,} "
              f"distinct tokens; 1 run per side): ours {mw(s['cold_ours_words_per_s'])} "
              f"(CPU {mw(s['cold_ours_cpu_words_per_s'])}), peak {s['cold_ours_peak_mb']:.0f} MB   bm25s "
              f"{mw(s['cold_bm25s_words_per_s'])} (CPU {mw(s['cold_bm25s_cpu_words_per_s'])}), peak "
              f"{s['cold_bm25s_peak_mb']:.0f} MB   goal: {verdict(s['cold_ours_words_per_s'] >= GOAL_WORDS_PER_S)}")
    print(f"(peak = process peak RSS while indexing; added = that peak minus the RSS just before indexing; "
          f"{'peak mark reset per run' if s['peak_reset'] else 'peak mark NOT resettable: peaks include start-up'}; "
          f"load average {s['load_before']:.1f} -> {s['load_after']:.1f} on {s['cpus']} CPUs; total {s['seconds_total']:.0f} s)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chunks", type=int, default=100_000, help="at least this many chunks (default 100000)")
    ap.add_argument("--queries", type=int, default=200, help="benchmark queries (18 golden + samples)")
    ap.add_argument("--runs", type=int, default=3, help="indexing runs per side, each a fresh process")
    ap.add_argument("--repeats", type=int, default=3, help="timed passes over the queries")
    ap.add_argument("--curve", default=",".join(map(str, CURVE)), help="smaller sizes for the curve ('' for none)")
    ap.add_argument("--cold", type=float, default=0.1, help="share of tokens marked per copy in the cold "
                    "variant (1 = every token; 0 = skip it)")
    ap.add_argument("--json", type=Path, help="write the curve and the summary here")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        spec = json.loads(args.worker)
        print(json.dumps(curve_worker(spec) if "curve" in spec else worker(spec)))
        return 0

    t_start, load_before = time.perf_counter(), os.getloadavg()[0]
    copies = copies_for(args.chunks)
    print(f"corpus: bundled x {copies} copies, fixed window {ARTICLE.size}/{ARTICLE.overlap}; {args.queries} queries, "
          f"filtered top-{K} (status current); {args.runs} indexing runs per side", flush=True)
    main_ = main_runs(copies, args)
    cold = {side: in_subprocess({"side": side, "copies": copies, "cold": args.cold, "queries": 0})
            for side in ("ours", "bm25s")} if args.cold else {}
    sizes = [int(x) for x in args.curve.split(",") if x.strip() and int(x) < args.chunks]
    curve = curve_runs(sorted({copies_for(x) for x in sizes} - {copies}), main_, args)
    summary = make_summary(main_, cold, args)
    summary.update(load_before=load_before, load_after=os.getloadavg()[0], cpus=os.cpu_count(),
                   seconds_total=time.perf_counter() - t_start)
    print_report(curve, summary)
    if args.json:
        args.json.write_text(json.dumps({"curve": curve, "summary": summary}, indent=1))
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
