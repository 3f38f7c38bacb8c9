"""Benchmark: setups side by side (rag_core.evaluation.compare), the library's share of the compare page.

    .venv/bin/python benchmarks/bench_compare.py [--runs 3] [--words 5000000] [--questions 100] [--json out.json]

Scenarios, each in a fresh Python process (so every figure is cold: imports, corpus, indexes):
  bundled-4    the bundled corpus (28 documents, 18 golden questions), four setups that build three
               indexes: filter (the article's pipeline), no filter, small chunks (fixed 40/0), sentences.
               Timed: import rag_core, Workbench.bundled(), compare_setups(), then .leaderboard and .grid.
  upload-2x    a generated upload of --words words (1,000 documents; Zipf-distributed words of a 60,000-word
               vocabulary; sentences of 8-20 words, paragraphs of 5 sentences; a quarter each draft and
               outdated) and --questions golden questions (anchor: 8 consecutive words of a current document,
               question: 6 of them), two setups with two chunkers: the article's pipeline, and fixed 80/16
               without filter or rerank. Timed apart: the Workbench (tokenizing, checking the golden set:
               what an upload costs once, on the Your data page) and compare_setups() + leaderboard + grid + pairs
               (what the compare page costs; both indexes are built inside it).
  upload-1x    the same upload, two setups on one chunker (filter on / off): one index.
The total is import + workbench + compare, in a cold process (the generation of the upload is left out).
Memory: the process's peak RSS (VmHWM) over the whole run, and "added": the peak minus the RSS once the
upload is generated (Linux /proc/self/clear_refs resets the peak mark there).

Noise: the machine may be shared; wall and CPU time (process_time) are both printed, with the load average
before and after. Each scenario runs --runs times; the median and the range are printed.

Left out on purpose: the browser (Streamlit's drawing of the page: see bench_browser.py) and real models
(their time is the server's, not ours).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _status_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def generated_upload(words: int, questions: int, docs: int = 1000, seed: int = 0):
    """(documents, golden rows) of a synthetic upload: see the module docstring."""
    import numpy as np
    from rag_core import Document, GoldenRow
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    vocab = np.array(sorted({"".join(rng.choice(letters, rng.integers(3, 11))) for _ in range(60_000)}))
    p = 1 / np.arange(1, len(vocab) + 1) ** 1.05
    p /= p.sum()
    per = words // docs
    documents = []
    for d in range(docs):
        toks = vocab[rng.choice(len(vocab), per, p=p)].tolist()
        sentences, i = [], 0
        while i < per:
            n = int(rng.integers(8, 21))
            sentences.append(" ".join(toks[i:i + n]).capitalize() + ".")
            i += n
        text = "\n\n".join(" ".join(sentences[j:j + 5]) for j in range(0, len(sentences), 5))
        documents.append(Document(f"doc{d:04d}", text, ("current", "current", "draft", "outdated")[d % 4]))
    golden = []
    for _ in range(questions):
        doc = documents[int(rng.integers(0, docs // 4)) * 4]                    # a current document
        toks = doc.text.split()
        at = int(rng.integers(0, len(toks) - 10))
        golden.append(GoldenRow("What about " + " ".join(toks[at + 1:at + 7]) + "?", doc.id, " ".join(toks[at:at + 8])))
    return documents, golden


def child(scenario: str, words: int, questions: int) -> dict:
    """One scenario in this (fresh) process; returns its figures."""
    t0 = time.perf_counter()
    from rag_core import Corpus, Workbench
    from rag_core.evaluation.compare import compare_setups
    from rag_core.evaluation.setup import default_setup, parse_setup
    out = {"scenario": scenario, "import_s": time.perf_counter() - t0}
    if scenario == "bundled-4":
        t = time.perf_counter()
        wb = Workbench.bundled()
        out["workbench_s"] = time.perf_counter() - t
        texts = ["filter:", "no filter: statuses=all", "small: size=40 overlap=0", "sentence: chunker=sentence"]
    else:
        t = time.perf_counter()
        documents, golden = generated_upload(words, questions)
        out["generate_s"] = time.perf_counter() - t                    # not counted in the total
        out["words"] = sum(len(d.text.split()) for d in documents)
        reset = True
        try:
            Path("/proc/self/clear_refs").write_text("5")
        except OSError:
            reset = False
        out["baseline_mb"], out["peak_reset"] = _status_kb("VmRSS") / 1024, reset
        t, c = time.perf_counter(), time.process_time()
        wb = Workbench(Corpus(tuple(documents), name="generated"), golden)
        out["workbench_s"], out["workbench_cpu_s"] = time.perf_counter() - t, time.process_time() - c
        out["valid_questions"] = len(wb.golden_check.valid)
        texts = (["filter:", "small: size=80 overlap=16 statuses=all rerank=off"] if scenario == "upload-2x"
                 else ["filter:", "no filter: statuses=all"])
    base = default_setup(wb)
    setups = [parse_setup(x, base) for x in texts]
    t, c = time.perf_counter(), time.process_time()
    result = compare_setups(wb, setups)
    result.leaderboard, result.grid, result.pairs
    out["compare_s"], out["compare_cpu_s"] = time.perf_counter() - t, time.process_time() - c
    out["total_s"] = out["import_s"] + out["workbench_s"] + out["compare_s"]
    out["chunks"] = [result.chunks[s.name] for s in setups]
    out["peak_mb"] = _status_kb("VmHWM") / 1024
    if "baseline_mb" in out:
        out["added_mb"] = out["peak_mb"] - out["baseline_mb"]
    out["recall_at_1"] = [round(x, 3) for x in result.leaderboard.recall_at_1]
    return out


def run(scenario: str, args) -> dict:
    cmd = [sys.executable, __file__, "--child", scenario, "--words", str(args.words), "--questions", str(args.questions)]
    got = subprocess.run(cmd, capture_output=True, text=True, cwd=str(ROOT), timeout=1800)
    if got.returncode:
        raise SystemExit(f"{scenario} failed:\n{got.stderr}")
    return json.loads(got.stdout)


def summary(rows: list[dict], key: str) -> str:
    v = [r[key] for r in rows]
    return f"{statistics.median(v):.2f} ({min(v):.2f}-{max(v):.2f})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--words", type=int, default=5_000_000)
    ap.add_argument("--questions", type=int, default=100)
    ap.add_argument("--scenarios", default="bundled-4,upload-2x,upload-1x")
    ap.add_argument("--json", help="write every run's figures to this file")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    if args.child:
        print(json.dumps(child(args.child, args.words, args.questions)))
        return 0
    print(f"load average before: {os.getloadavg()[0]:.2f}; {os.cpu_count()} CPUs")
    every = {}
    for scenario in args.scenarios.split(","):
        rows = every[scenario] = [run(scenario, args) for _ in range(args.runs)]
        r = rows[0]
        print(f"\n{scenario}: {len(r['chunks'])} setups, chunks {r['chunks']}, recall@1 {r['recall_at_1']}"
              + (f", {r['words']:,} words, {r['valid_questions']} valid questions" if "words" in r else ""))
        print(f"  import rag_core        {summary(rows, 'import_s')} s")
        print(f"  workbench              {summary(rows, 'workbench_s')} s"
              + (f"   (CPU {summary(rows, 'workbench_cpu_s')} s)" if "workbench_cpu_s" in r else ""))
        print(f"  compare + tables       {summary(rows, 'compare_s')} s   (CPU {summary(rows, 'compare_cpu_s')} s)")
        print(f"  total, cold process    {summary(rows, 'total_s')} s   (import + workbench + compare; the upload's "
              "generation left out)")
        print(f"  peak RSS               {summary(rows, 'peak_mb')} MB"
              + (f"   (added over the generated upload: {summary(rows, 'added_mb')} MB)" if "added_mb" in r else ""))
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps(every, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
