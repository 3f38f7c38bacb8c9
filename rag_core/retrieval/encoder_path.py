"""Which forward pass computes MiniLM's vectors: the numpy reference or ONNX Runtime (float32 or int8).

    chosen(bundled=False)      # "onnx-int8": an upload, OPENBOOK_ENCODER unset (DEFAULT)
    chosen(bundled=True)       # "numpy": the bundled corpus, whose vectors ship in the pack (the reference's)
    resolve("onnx-int8")       # Resolved(path="onnx-int8", note="") or ("numpy", "onnxruntime is not installed...")
    load("onnx")               # the encoder of a path: MiniLM (numpy) or OnnxMiniLM
    keys("onnx-int8")          # the vector cache's model keys (chunks, windows): one pair per path, never mixed

OPENBOOK_ENCODER=numpy|onnx|onnx-int8 chooses the path for every corpus. Unset, the bundled corpus keeps the
reference (its vectors are shipped, so nothing is encoded) and an upload runs DEFAULT, the path measured fastest
whose rankings stay those of the reference (benchmarks/bench_encoders.py; README "Encoding faster"). The cache keys
differ per path, so a fast vector is never compared with a reference one (a question and its chunks always come
from the same path). When onnxruntime (or onnx) is missing, the reference runs and `note` says why.

Left out on purpose: choosing per page or per run in the dashboard (the path is the process's, as the data folder).
"""
from __future__ import annotations

import importlib.util
import os
from typing import NamedTuple

from rag_core.retrieval.minilm import MAX_PIECES, MODEL_ID

PATHS = ("numpy", "onnx", "onnx-int8")
DEFAULT = "onnx-int8"                    # for uploads: 3.3x the reference's chunks per CPU second, same ceilings
ENV = "OPENBOOK_ENCODER"
REFERENCE_KEYS = (f"{MODEL_ID}@0.1.0/cut-{MAX_PIECES}", f"{MODEL_ID}@0.1.0/windows-{MAX_PIECES - 2}-64")
NAMES = {"numpy": "the numpy reference", "onnx": "ONNX Runtime, float32", "onnx-int8": "ONNX Runtime, int8"}
CLOSENESS = {"numpy": "the reference itself",           # measured by benchmarks/bench_encoders.py (README)
             "onnx": "its vectors within cosine 0.9999997 of the reference's",
             "onnx-int8": "its vectors at cosine 0.994 of the reference's on average (0.98 at worst), the same "
                          "ceilings at k = 1, 3, 5 on both bundled golden sets, 3.3 times as fast"}


class Resolved(NamedTuple):
    path: str          # the path that runs
    note: str          # why it is not the one asked for ("" when it is)


def chosen(bundled: bool = False) -> str:
    """The path asked for: OPENBOOK_ENCODER when set, else the reference for the bundled corpus, DEFAULT else."""
    asked = os.environ.get(ENV, "").strip().lower()
    return asked or ("numpy" if bundled else DEFAULT)


def resolve(path: str) -> Resolved:
    """The path that runs for `path`: an unknown name or a missing onnxruntime gives the reference, and says why."""
    if path not in PATHS:
        return Resolved("numpy", f"{ENV}={path!r} is not one of {', '.join(PATHS)}: the numpy reference encodes.")
    if path != "numpy" and not all(importlib.util.find_spec(m) for m in ("onnxruntime", "onnx")):
        return Resolved("numpy", f"{NAMES[path]} was asked for, but onnxruntime (or onnx) is not installed: the numpy "
                                 "reference encodes instead (slower, same vectors as the bundled pack). Install it with "
                                 "`pip install --no-deps -r requirements-model.txt`.")
    return Resolved(path, "")


def keys(path: str) -> tuple[str, str]:
    """(chunk key, windows key) of the vector cache for a path: the reference's as they always were, a fast
    path's with its name after them."""
    if path == "numpy":
        return REFERENCE_KEYS
    return tuple(f"{k}/{path}" for k in REFERENCE_KEYS)


def load(path: str):
    """The encoder of a path, loaded once per process."""
    from rag_core.retrieval.minilm import MiniLM
    if path == "numpy":
        return MiniLM.load()
    from rag_core.retrieval.onnx_minilm import OnnxMiniLM
    return OnnxMiniLM.load(path)


def describe(path: str) -> str:
    """One sentence for a page: 'MiniLM runs on ONNX Runtime, int8: its vectors ...'."""
    return f"MiniLM runs on {NAMES[path]}: {CLOSENESS[path]}."
