"""Vectors computed ahead and shipped: a read-only layer the trained encoder's cache reads before anything else.

    pack = VectorPack.bundled()             # rag_core/data/minilm-pack.npz: the bundled corpus's vectors (~3 MB)
    pack.get_many(model_key, keys)          # {text key: (rows, 384) float32} for the keys it holds
    write_pack(path, {(model_key, text_key): (rows, 384) array, ...})

The bundled corpus and its golden sets never change, so the vectors of every chunk the dashboard and the report
can ask for on it are computed once (`python -m rag_core.evaluation.vector_pack`) and shipped beside the corpus,
keyed like the disk cache (model key, sha256 of the text): a fresh install encodes none of them. They are float32,
exactly what the encoder computes (tests/test_vector_pack.py recomputes a sample and compares bit for bit).

The file is one .npz: `models` (the model keys), `model` (n,) index into them, `keys` (n, 32) the sha256 of each
text, `rows` (n,) vectors per text (0 for a short text's list of further windows), `data` (sum of rows, 384).

Left out on purpose: writing at run time (the pack is rebuilt by its command and shipped), other corpora (an upload
encodes its own chunks into the disk cache), and other precisions (float16 would not be the encoder's vectors).
"""
from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from rag_core.retrieval.minilm import DIM

BUNDLED_PACK = Path(__file__).resolve().parent.parent / "data" / "minilm-pack.npz"


class VectorPack:
    """(model key, text key) -> float32 array (rows, 384), from arrays held in memory; read-only."""

    def __init__(self, arrays: dict | None = None):
        arrays = arrays or {}
        self.data = arrays.get("data", np.zeros((0, DIM), np.float32))
        self._where: dict[tuple[str, bytes], tuple[int, int]] = {}      # (model, key) -> (first row, rows)
        if "keys" in arrays:
            models = [str(m) for m in arrays["models"]]
            starts = np.concatenate([[0], np.cumsum(arrays["rows"])]).tolist()
            for i, (m, k, n) in enumerate(zip(arrays["model"].tolist(), arrays["keys"], arrays["rows"].tolist())):
                self._where[(models[m], k.tobytes())] = (starts[i], n)

    @classmethod
    def read(cls, path: Path | str) -> "VectorPack":
        """The pack in this file; an empty pack when there is none (then everything is encoded, as before)."""
        try:
            with np.load(path, allow_pickle=False) as f:
                return cls({name: f[name] for name in f.files})
        except FileNotFoundError:
            return cls()

    @staticmethod
    @functools.cache
    def bundled() -> "VectorPack":
        """The bundled corpus's pack, read once per process."""
        return VectorPack.read(BUNDLED_PACK)

    def __len__(self) -> int:
        return len(self._where)

    def keys(self):
        """The (model key, text key) pairs it holds."""
        return self._where.keys()

    def __contains__(self, model_and_key: tuple[str, bytes]) -> bool:
        return model_and_key in self._where

    def get_many(self, model: str, keys) -> dict[bytes, np.ndarray]:
        """The vectors it holds for these keys (read-only views of the pack)."""
        out = {}
        for k in keys:
            at = self._where.get((model, k))
            if at is not None:
                out[k] = self.data[at[0]:at[0] + at[1]]
        return out


def write_pack(path: Path | str, items: dict[tuple[str, bytes], np.ndarray]) -> None:
    """Write (model key, text key) -> (rows, 384) vectors as a pack, in a stable order (sorted by model and key)."""
    order = sorted(items)
    models = sorted({m for m, _ in order})
    arrays = [np.asarray(items[i], dtype=np.float32).reshape(-1, DIM) for i in order]
    np.savez(path, models=np.array(models), model=np.array([models.index(m) for m, _ in order], dtype=np.uint8),
             keys=np.frombuffer(b"".join(k for _, k in order), dtype=np.uint8).reshape(len(order), 32),
             rows=np.array([len(a) for a in arrays], dtype=np.int32),
             data=np.concatenate(arrays) if arrays else np.zeros((0, DIM), np.float32))
