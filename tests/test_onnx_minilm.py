"""The fast path (ONNX Runtime, float32 and int8) against the numpy reference: vectors within a stated cosine,
the same ceilings on the bundled golden sets (or within one question), its own cache keys, a vector that does not
depend on its batch, and the reference (said why) when onnxruntime is missing.

The reference's vectors of the bundled corpus are the shipped pack's, made on another machine: they are compared
by cosine, never bit for bit. Vectors computed here, in this process, are compared bit for bit.
"""
from __future__ import annotations

import sys

import numpy as np
import pytest

from rag_core.data.corpus import bundled_corpus
from rag_core.data.golden import load_golden
from rag_core.evaluation import tables
from rag_core.evaluation.vector_pack import wanted
from rag_core.evaluation.workbench import Workbench
from rag_core.retrieval import encoder_path
from rag_core.retrieval.onnx_minilm import OnnxMiniLM
from rag_core.retrieval.pack import VectorPack
from rag_core.retrieval.vectors import MODEL_KEY, Embedder, VectorStore, text_key

# cosine with the reference's vector: (worst allowed, mean allowed), from benchmarks/bench_encoders.py with margin
TOLERANCE = {"onnx": (0.99999, 0.999995), "onnx-int8": (0.97, 0.99)}


@pytest.fixture(scope="module")
def chunks() -> list[str]:
    """60 of the bundled corpus's chunks, long and short (every 25th of the pack's)."""
    return wanted().chunks[::25][:60]


@pytest.mark.parametrize("path", encoder_path.PATHS[1:])
def test_fast_vectors_within_the_stated_cosine_of_the_reference(path, chunks):
    ref = VectorPack.bundled()
    want = np.stack([ref.get_many(MODEL_KEY, [text_key(t)])[text_key(t)][0] for t in chunks])
    got = OnnxMiniLM.load(path).encode(chunks, threads=2)
    cos = np.einsum("ij,ij->i", want, got)
    worst, mean = TOLERANCE[path]
    assert cos.min() >= worst and cos.mean() >= mean, (path, cos.min(), cos.mean())
    assert np.allclose(np.linalg.norm(got, axis=1), 1, atol=1e-5)


@pytest.mark.parametrize("path", encoder_path.PATHS[1:])
def test_ceilings_on_both_golden_sets_equal_or_within_one_question(path):
    """MiniLM's ceiling at k = 1, 3, 5 counted in questions: the fast path's against the reference's (the pack's)."""
    fast = Embedder(VectorStore(None), pack=VectorPack.bundled(), path=path)
    reference = Embedder(VectorStore(None), pack=VectorPack.bundled(), path="numpy")
    for which in ("article", "user"):
        counts = []
        for emb in (reference, fast):
            wb = Workbench(bundled_corpus(), load_golden(which), retriever="minilm", embedder=emb)
            df = tables.ceiling(wb)
            counts.append(np.rint(df["recall"].to_numpy() * len(wb.questions)).astype(int))
        assert np.abs(counts[0] - counts[1]).max() <= 1, (which, path, counts)
    assert reference.encoded == 0 and fast.encoded > 0       # the reference from the pack; the fast path encoded


def test_each_path_has_its_own_cache_keys_and_the_pack_serves_the_reference_only(tmp_path, chunks):
    assert len({k for p in encoder_path.PATHS for k in encoder_path.keys(p)}) == 2 * len(encoder_path.PATHS)
    assert encoder_path.keys("numpy") == encoder_path.REFERENCE_KEYS      # the pack's and every old cache's keys
    pack = VectorPack.bundled()
    assert Embedder(VectorStore(None), pack=pack, path="numpy").missing(chunks=chunks) == 0
    fast = Embedder(VectorStore(tmp_path / "v.sqlite3"), pack=pack, path="onnx-int8")
    assert fast.missing(chunks=chunks) == len(set(chunks))               # the reference's vectors are not its own
    marker = {text_key(chunks[0]): np.full((1, 384), 0.5, np.float32)}
    fast.store.put_many(MODEL_KEY, marker)                                # a reference vector on disk: not read
    got = fast.vectors(chunks[:1])
    assert not np.array_equal(got[0], marker[text_key(chunks[0])][0]) and fast.encoded == 1
    again = Embedder(VectorStore(tmp_path / "v.sqlite3"), path="onnx-int8")      # a restart reads its own keys
    assert np.array_equal(again.vectors(chunks[:1]), got) and again.encoded == 0
    with pytest.raises(ValueError, match="same path"):
        Embedder(VectorStore(None), path="numpy").remember(fast.held(chunks=chunks[:1]))


@pytest.mark.parametrize("path", encoder_path.PATHS[1:])
def test_a_fast_vector_is_the_same_alone_in_any_batch_on_one_thread_or_two(path, chunks):
    """On the machine that computes it, to the last bit: each text runs alone through ONNX Runtime."""
    model = OnnxMiniLM.load(path)
    texts = chunks[:12] + ["How do I sort a list?", "a"]
    together = model.encode(texts, threads=2)
    alone = np.stack([model.encode([t], threads=1)[0] for t in texts])
    shuffled = model.encode(texts[::-1], threads=1)[::-1]
    assert np.array_equal(together, alone) and np.array_equal(together, shuffled)


def test_without_onnxruntime_the_reference_runs_and_says_why(monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)             # as if not installed: find_spec gives None
    runs = encoder_path.resolve("onnx-int8")
    assert runs.path == "numpy" and "onnxruntime" in runs.note and "requirements-model.txt" in runs.note
    emb = Embedder(VectorStore(None), path="onnx-int8")
    assert (emb.path, emb.chunk_key) == ("numpy", MODEL_KEY) and emb.note == runs.note
    monkeypatch.setenv(encoder_path.ENV, "onnx-int9")
    assert encoder_path.resolve(encoder_path.chosen()).path == "numpy"
    assert "'onnx-int9' is not one of numpy, onnx, onnx-int8" in encoder_path.resolve(encoder_path.chosen()).note


def test_the_bundled_corpus_keeps_the_reference_an_upload_gets_the_default(monkeypatch):
    monkeypatch.delenv(encoder_path.ENV, raising=False)
    assert encoder_path.chosen(bundled=True) == "numpy" and encoder_path.chosen() == encoder_path.DEFAULT
    monkeypatch.setenv(encoder_path.ENV, "onnx")
    assert encoder_path.chosen(bundled=True) == "onnx" == encoder_path.chosen()


def test_the_sidebar_says_which_pass_runs_and_warns_when_onnxruntime_is_missing(monkeypatch):
    from apptest_helpers import open_page, shown
    monkeypatch.setenv(encoder_path.ENV, "onnx-int8")
    at = open_page("overview", {"retriever": "minilm"})
    captions = [shown(c.value) for c in at.sidebar.caption]
    assert encoder_path.describe("onnx-int8") in captions and not at.sidebar.warning
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    at.run()
    assert encoder_path.describe("numpy") in [shown(c.value) for c in at.sidebar.caption]
    assert any("onnxruntime (or onnx) is not installed" in shown(w.value) for w in at.sidebar.warning)
    at.session_state["retriever"] = "bm25"
    at.run()
    assert not any("MiniLM runs on" in shown(c.value) for c in at.sidebar.caption)
