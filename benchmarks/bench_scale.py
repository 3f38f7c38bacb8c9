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
bm25s, the chunk texts are already in the baseline); "kept" = RSS after indexing minus the baseline.

Queries: the 18 golden questions plus deterministic samples of 2-6 consecutive words of the bundled
documents (numpy seed 0) up to --queries; each asks for the top 50 among the "current" chunks. Ours:
Index.search(q, 50, {"current"}). bm25s: bm25s.tokenize(q) + BM25.retrieve(..., k=50,
weight_mask=current) (its documented filter: the scores of the other chunks are multiplied by 0).
Both sides start from the question's text; one warm-up pass, then each query is timed on its own
with perf_counter, repeated --repeats times; median and p95 over all timings. Our caches of question
analysis (encoder._query_terms, text.cached_words) are cleared before every timed query (outside the
timer), so a repeated question is not answered from a cache.

Exactness: for every query our top 50 ids are compared with a dense brute force: the matrix
densified to float64 (in blocks of rows), scores = M @ q for the same query vector, restricted to
the allowed rows, np.argsort(-s, kind="stable")[:50]. The replicated corpus has exact duplicate
chunks, hence exact ties, so this also checks that ties keep chunk order.

Scaling curve: the same queries at about 1k, 5k, 10k, 25k, 50k chunks (each a prefix of copies,
built in one subprocess per side) and at --chunks (the main runs); --json writes
{"curve": [{"chunks", "ours_ms", "bm25s_ms", ...}], "summary": {...}} for a dashboard to chart.

Cold variant: exact copies make our table from whitespace token to word ids unrealistically warm
(after the first copy, no token is new). "cold" copies mark every whitespace token of copy c with a
copy-specific run of punctuation ("value" -> "value~!@"), which changes no word (punctuation is not
part of a word for either tokenizer) and no whitespace count, but makes every token of every copy
new: the worst case for that table. One indexing run per side is reported for it.

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
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rag_core import ChunkerConfig, Corpus, Document, bundled_corpus, encoder, load_golden, text  # noqa: E402
from rag_core.chunkers import fixed_window  # noqa: E402
from rag_core.index import Index, TokenizedCorpus  # noqa: E402

ARTICLE = ChunkerConfig("fixed", 160, 32)
ALLOWED = {"current"}
K = 50
GOAL_WORDS_PER_S = 2_000_000
GOAL_MS = 1.0
CURVE = (1_000, 5_000, 10_000, 25_000, 50_000)
_TOKEN = re.compile(r"\S+")
MARKS = "~!@#$%^&*+=|"          # digits of the copy marker in the cold variant: no letter, digit or "_"


# --- corpus and queries ------------------------------------------------------------------------

def copy_marker(c: int) -> str:
    """A run of punctuation unique to copy c: 0 -> "~", 13 -> "!!"."""
    out, c = "", c + 1
    while c:
        c, r = divmod(c - 1, len(MARKS))
        out = MARKS[r] + out
    return out


def replicated_corpus(copies: int, cold: bool = False) -> Corpus:
    """The bundled corpus `copies` times, ids "doc#copy"; cold: every token of copy c ends with its marker."""
    base, docs = bundled_corpus().documents, []
    for c in range(copies):
        mark = "\\g<0>" + copy_marker(c)                                  # re.sub template: the token, then the mark
        for d in base:
            docs.append(Document(f"{d.id}#{c}", _TOKEN.sub(mark, d.text) if cold else d.text, d.status))
    return Corpus(tuple(docs), name=f"bundled x {copies}" + (" (cold)" if cold else ""))


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
        if len([w for w in text.words(q) if len(w) > 1]) >= 1:      # a word both tokenizers keep
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

def time_each(run, queries: list[str], repeats: int, before=None) -> list[float]:
    """Seconds of run(q) for each query, after one warm-up pass; before() runs outside the timer."""
    for q in queries:
        run(q)
    out = []
    for _ in range(repeats):
        for q in queries:
            if before:
                before()
            t0 = time.perf_counter()
            run(q)
            out.append(time.perf_counter() - t0)
    return out


def summary_ms(seconds: list[float]) -> dict:
    return {"median_ms": 1000 * statistics.median(seconds), "p95_ms": 1000 * float(np.percentile(seconds, 95))}


def clear_question_caches():
    encoder._query_terms.cache_clear()
    text.cached_words.cache_clear()


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
    allowed = ix.allowed_ids(ALLOWED)
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

def index_ours(corpus: Corpus) -> tuple[Index, float, Memory]:
    with Memory() as mem:
        t0 = time.perf_counter()
        ix = Index.build(TokenizedCorpus(corpus), ARTICLE)
        seconds = time.perf_counter() - t0
    return ix, seconds, mem


def index_bm25s(texts: list[str]):
    import bm25s
    with Memory() as mem:
        t0 = time.perf_counter()
        retriever = bm25s.BM25()
        retriever.index(bm25s.tokenize(texts, stopwords="en", show_progress=False), show_progress=False)
        seconds = time.perf_counter() - t0
    return retriever, seconds, mem


def bm25s_search(retriever, mask: np.ndarray):
    import bm25s

    def run(q: str):
        tokens = bm25s.tokenize([q], stopwords="en", return_ids=False, show_progress=False)
        return retriever.retrieve(tokens, k=K, weight_mask=mask, show_progress=False, n_threads=0).documents[0]
    return run


def worker(spec: dict) -> dict:
    """Index one corpus on one side; optionally time the queries (and check exactness for ours)."""
    import bm25s  # noqa: F401  imported before the baseline on both sides, so neither pays for it
    corpus = replicated_corpus(spec["copies"], spec.get("cold", False))
    queries = benchmark_queries(spec["queries"]) if spec.get("queries") else []
    out = {"side": spec["side"], "documents": len(corpus.documents)}
    if spec["side"] == "ours":
        ix, seconds, mem = index_ours(corpus)
        out.update(chunks=len(ix), words=int((ix.end - ix.start).sum()), nnz=len(ix.matrix.vals),
                   matrix_mb=ix.matrix.nbytes / 2**20)
        if queries:
            out.update(summary_ms(time_each(lambda q: ix.search(q, K, ALLOWED), queries, spec["repeats"],
                                            clear_question_caches)))
        if spec.get("exact"):
            out["exact"] = exactness(ix, queries)
    else:
        texts, status, n_words = chunk_texts(corpus)
        retriever, seconds, mem = index_bm25s(texts)
        out.update(chunks=len(texts), words=n_words)
        if queries:
            mask = (status == "current").astype(np.float32)
            run = bm25s_search(retriever, mask)
            out.update(summary_ms(time_each(run, queries, spec["repeats"])))
            out["results_with_a_filtered_chunk"] = sum(bool(np.any(mask[run(q)] == 0)) for q in queries)
    out.update(seconds=seconds, words_per_s=out["words"] / seconds, **mem.report())
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
            point = {"chunks": len(ix), **summary_ms(times), "exact": exactness(ix, queries)["identical"]}
            del ix
        else:
            texts, status, _ = chunk_texts(corpus)
            retriever, _, _ = index_bm25s(texts)
            times = time_each(bm25s_search(retriever, (status == "current").astype(np.float32)), queries,
                              spec["repeats"])
            point = {"chunks": len(texts), **summary_ms(times)}
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chunks", type=int, default=100_000, help="at least this many chunks (default 100000)")
    ap.add_argument("--queries", type=int, default=200, help="benchmark queries (18 golden + samples)")
    ap.add_argument("--runs", type=int, default=3, help="indexing runs per side, each a fresh process")
    ap.add_argument("--repeats", type=int, default=3, help="timed passes over the queries")
    ap.add_argument("--curve", default=",".join(map(str, CURVE)), help="smaller sizes for the curve ('' for none)")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold-token-cache variant")
    ap.add_argument("--json", type=Path, help="write the curve and the summary here")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        spec = json.loads(args.worker)
        print(json.dumps(curve_worker(spec) if "curve" in spec else worker(spec)))
        return 0

    t_start = time.perf_counter()
    copies = copies_for(args.chunks)
    print(f"corpus: bundled x {copies} copies, fixed window {ARTICLE.size}/{ARTICLE.overlap}; "
          f"{args.queries} queries, filtered top-{K} (status current); {args.runs} indexing runs per side")
    runs = {"ours": [], "bm25s": []}
    for r in range(args.runs):                                   # interleaved: noise hits both sides
        for side in runs:
            spec = {"side": side, "copies": copies, "queries": args.queries if r == 0 else 0,
                    "repeats": args.repeats, "exact": r == 0 and side == "ours"}
            runs[side].append(in_subprocess(spec))
    first = {side: runs[side][0] for side in runs}
    med = {side: {key: statistics.median(run[key] for run in runs[side])
                  for key in ("seconds", "words_per_s", "peak_mb", "added_mb", "kept_mb", "baseline_mb")}
           for side in runs}
    assert first["ours"]["words"] == first["bm25s"]["words"] and first["ours"]["chunks"] == first["bm25s"]["chunks"]
    n_chunks, n_words = first["ours"]["chunks"], first["ours"]["words"]

    cold = {}
    if not args.no_cold:
        for side in runs:
            cold[side] = in_subprocess({"side": side, "copies": copies, "cold": True, "queries": 0})

    sizes = [int(s) for s in args.curve.split(",") if s.strip() and int(s) < args.chunks]
    size_copies = sorted({copies_for(s) for s in sizes})
    curve_pts = {side: in_subprocess({"curve": True, "side": side, "copies": size_copies, "queries": args.queries,
                                      "repeats": args.repeats}) for side in runs}
    curve = [{"chunks": o["chunks"], "ours_ms": o["median_ms"], "ours_p95_ms": o["p95_ms"], "ours_exact": o["exact"],
              "bm25s_ms": b["median_ms"], "bm25s_p95_ms": b["p95_ms"]}
             for o, b in zip(curve_pts["ours"], curve_pts["bm25s"])]
    curve.append({"chunks": n_chunks, "ours_ms": first["ours"]["median_ms"], "ours_p95_ms": first["ours"]["p95_ms"],
                  "ours_exact": first["ours"]["exact"]["identical"], "bm25s_ms": first["bm25s"]["median_ms"],
                  "bm25s_p95_ms": first["bm25s"]["p95_ms"]})

    o, b = first["ours"], first["bm25s"]
    ex = o["exact"]
    summary = {
        "chunks": n_chunks, "documents": o["documents"], "words": n_words, "queries": args.queries, "k": K,
        "ours_words_per_s": med["ours"]["words_per_s"], "bm25s_words_per_s": med["bm25s"]["words_per_s"],
        "ours_index_s": med["ours"]["seconds"], "bm25s_index_s": med["bm25s"]["seconds"],
        "ours_median_ms": o["median_ms"], "ours_p95_ms": o["p95_ms"],
        "bm25s_median_ms": b["median_ms"], "bm25s_p95_ms": b["p95_ms"],
        "ours_peak_mb": med["ours"]["peak_mb"], "ours_added_mb": med["ours"]["added_mb"],
        "ours_kept_mb": med["ours"]["kept_mb"], "ours_matrix_mb": o["matrix_mb"], "ours_nnz": o["nnz"],
        "bm25s_peak_mb": med["bm25s"]["peak_mb"], "bm25s_added_mb": med["bm25s"]["added_mb"],
        "bm25s_kept_mb": med["bm25s"]["kept_mb"],
        "exact_identical": ex["identical"], "exact_max_abs_score_diff": ex["max_abs_score_diff"],
        "bm25s_results_with_a_filtered_chunk": b["results_with_a_filtered_chunk"],
        "cold_ours_words_per_s": cold.get("ours", {}).get("words_per_s"),
        "cold_bm25s_words_per_s": cold.get("bm25s", {}).get("words_per_s"),
        "cold_ours_peak_mb": cold.get("ours", {}).get("peak_mb"),
        "cold_bm25s_peak_mb": cold.get("bm25s", {}).get("peak_mb"),
        "goal_words_per_s": GOAL_WORDS_PER_S, "goal_ms": GOAL_MS,
        "throughput_goal": verdict(med["ours"]["words_per_s"] >= GOAL_WORDS_PER_S),
        "latency_goal": verdict(o["median_ms"] <= GOAL_MS),
        "runs": args.runs, "repeats": args.repeats, "peak_reset": o["peak_reset"],
        "seconds_total": time.perf_counter() - t_start,
    }

    print(f"\nscaling curve (filtered top-{K}, median / p95 ms per query, {args.queries} queries x {args.repeats})")
    print(f"{'chunks':>8}  {'ours ms':>8} {'p95':>6}  {'bm25s ms':>8} {'p95':>6}  {'exact':>9}")
    for p in curve:
        print(f"{p['chunks']:>8,}  {p['ours_ms']:>8.3f} {p['ours_p95_ms']:>6.3f}  {p['bm25s_ms']:>8.3f} "
              f"{p['bm25s_p95_ms']:>6.3f}  {p['ours_exact']:>4}/{args.queries}")

    s = summary
    mw = lambda x: f"{x / 1e6:.2f} M words/s"   # noqa: E731
    print(f"\nsummary at {n_chunks:,} chunks ({s['documents']:,} documents, {n_words:,} chunk words), "
          f"median of {args.runs} runs per side")
    print(f"indexing   ours  {mw(s['ours_words_per_s'])} ({s['ours_index_s']:.2f} s)   bm25s {mw(s['bm25s_words_per_s'])} "
          f"({s['bm25s_index_s']:.2f} s)   ours/bm25s x{s['ours_words_per_s'] / s['bm25s_words_per_s']:.2f}   "
          f"goal >= {mw(GOAL_WORDS_PER_S)}: {s['throughput_goal']}")
    print(f"query      ours  {s['ours_median_ms']:.3f} ms median, {s['ours_p95_ms']:.3f} ms p95   bm25s "
          f"{s['bm25s_median_ms']:.3f} ms median, {s['bm25s_p95_ms']:.3f} ms p95   bm25s/ours "
          f"x{s['bm25s_median_ms'] / s['ours_median_ms']:.1f}   goal <= {GOAL_MS:g} ms: {s['latency_goal']}")
    print(f"memory     ours  peak {s['ours_peak_mb']:.0f} MB (indexing added {s['ours_added_mb']:.0f} MB, kept "
          f"{s['ours_kept_mb']:.0f} MB; matrix {s['ours_matrix_mb']:.0f} MB, {s['ours_nnz']:,} non-zeros)   "
          f"bm25s peak {s['bm25s_peak_mb']:.0f} MB (added {s['bm25s_added_mb']:.0f} MB, kept {s['bm25s_kept_mb']:.0f} MB)"
          f"   added ours/bm25s x{s['ours_added_mb'] / s['bm25s_added_mb']:.2f}")
    print(f"exact: {ex['identical']}/{ex['queries']} queries identical top-{K} "
          f"(dense float64 brute force; max |score diff| {ex['max_abs_score_diff']:.1e})")
    print(f"bm25s filter: {s['bm25s_results_with_a_filtered_chunk']}/{args.queries} of its results hold a filtered-out chunk")
    if cold:
        print(f"cold tokens (every token new in every copy, 1 run): ours {mw(s['cold_ours_words_per_s'])}, "
              f"peak {s['cold_ours_peak_mb']:.0f} MB   bm25s {mw(s['cold_bm25s_words_per_s'])}, "
              f"peak {s['cold_bm25s_peak_mb']:.0f} MB   goal: {verdict(s['cold_ours_words_per_s'] >= GOAL_WORDS_PER_S)}")
    print(f"(peak = process peak RSS while indexing; added = peak minus RSS before indexing; "
          f"{'peak mark reset per run' if s['peak_reset'] else 'peak mark NOT resettable: peaks include start-up'}; "
          f"total {s['seconds_total']:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps({"curve": curve, "summary": summary}, indent=1))
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
