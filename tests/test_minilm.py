"""The numpy all-MiniLM-L6-v2 against vectors made once by sentence-transformers on torch, and its parts by hand.

tests/data/minilm_reference.npz holds 30 texts (short, long beyond 256 word pieces, code, unicode, the
bundled corpus's first chunks) and their vectors from the reference runtime; tests/data/make_minilm_reference.py
made them (its docstring says how).
"""
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rag_core.retrieval import minilm
from rag_core.retrieval.minilm import MAX_PIECES, MiniLM, gelu_, layer_norm_

REFERENCE = np.load(Path(__file__).parent / "data" / "minilm_reference.npz")
TEXTS = [str(t) for t in REFERENCE["texts"]]


@pytest.fixture(scope="module")
def model():
    return MiniLM.load()


@pytest.fixture(scope="module")
def ours(model):
    return model.encode(TEXTS, threads=2)


def test_vectors_equal_the_reference_runtime(ours):
    diff = np.abs(ours - REFERENCE["vectors"]).max()
    assert diff < 1e-5, diff                                   # measured: 2.8e-7
    assert np.allclose(np.linalg.norm(ours, axis=1), 1, atol=1e-6)


def test_the_reference_covers_long_texts_and_the_cut_is_256_pieces(model):
    pieces = [len(p) + 2 for p in model.pieces(TEXTS)]          # with [CLS] and [SEP], uncut
    assert pieces == REFERENCE["pieces"].tolist()                # the same word pieces as the reference tokenizer
    assert sum(p > MAX_PIECES for p in pieces) >= 5
    assert {len(model.framed(p)) for p in model.pieces(TEXTS) if len(p) + 2 > MAX_PIECES} == {MAX_PIECES}


def test_a_text_alone_equals_the_same_text_in_a_batch(model, ours):
    alone = np.stack([model.encode([t])[0] for t in TEXTS])
    assert np.array_equal(alone, ours)                           # padding and batch neighbours change no bit
    assert np.array_equal(model.encode(TEXTS[::-1], threads=1)[::-1], ours)


def test_batches_report_in_order_with_their_positions(model):
    seen = []
    seqs = [model.framed(p) for p in model.pieces(TEXTS[:6])]
    out = model.encode_pieces(seqs, 2, lambda pos, vecs: seen.append((pos.tolist(), vecs.copy())))
    assert sorted(p for pos, _ in seen for p in pos) == list(range(6))
    for pos, vecs in seen:
        assert np.array_equal(out[pos], vecs)


@pytest.mark.parametrize("x", [-8.0, -3.0, -1.0, -0.5, 0.0, 0.3, 1.0, 2.5, 8.0])
def test_gelu_is_x_times_phi(x):
    exact = x * 0.5 * (1 + math.erf(x / math.sqrt(2)))
    got = gelu_(np.array([[x]], dtype=np.float32))[0, 0]
    assert abs(got - exact) < 2e-7 * max(1.0, abs(x))


def test_gelu_docstring_example():
    assert np.allclose(gelu_(np.array([[-1.0, 0.0, 1.0]], dtype=np.float32)), [[-0.1587, 0.0, 0.8413]], atol=5e-5)


def test_layer_norm_by_hand():
    x = np.array([[1.0, 2.0, 3.0, 6.0]], dtype=np.float32)     # mean 3, var (4 + 1 + 0 + 9) / 4 = 3.5
    got = layer_norm_(x.copy(), np.full(4, 2, np.float32), np.ones(4, np.float32))
    assert np.allclose(got, (x - 3) / math.sqrt(3.5) * 2 + 1, atol=1e-6)


def test_a_missing_package_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(minilm, "PACKAGE", "no_such_package_openbook")
    with pytest.raises(minilm.ModelMissing, match="make run"):
        minilm.model_dir()


def test_no_hub_and_no_torch_are_imported():
    code = ("import sys; from rag_core.retrieval.minilm import MiniLM; MiniLM.load().encode(['offline']); "
            "print(sorted(m for m in ('torch', 'transformers', 'huggingface_hub', 'sentence_transformers') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parent.parent)
    assert out.stdout.strip() == "[]"
