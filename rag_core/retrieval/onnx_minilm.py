"""all-MiniLM-L6-v2 on ONNX Runtime: the same model, the same weights, a faster forward pass (the fast path).

    enc = OnnxMiniLM.load("onnx-int8")        # or "onnx" (float32); 2 to 7 s the first time in a process
    enc.encode(["How do I sort a list?"])     # (1, 384) float32, each row of norm 1, close to MiniLM's

The graph is written here with onnx.helper from the safetensors weights the package ships (nothing is downloaded,
no torch): embeddings and LayerNorm, 6 layers of 12-head attention and feed-forward (GELU as x * Phi(x), with
erf), mean pooling, L2 norm: the forward pass of minilm.py, the numpy reference, op for op. "onnx-int8" is that
graph with its matrix products quantized by onnxruntime.quantization.quantize_dynamic (weights int8 per column,
activations uint8 measured per product at run time). Graphs are built in memory at first use (2 to 7 s once per
process), nothing written to disk.

Each text runs alone (a graph of one unpadded sequence): int8's activation scale is measured over a whole product,
so in a batch a text's vector would depend on its neighbours; alone it never does, and no padding is computed.
Batches (minilm.batched) are kept as units of progress and of Ray's work. With threads=2 two texts run at once,
each session.run on one thread of ONNX Runtime (which releases the GIL); tests/test_onnx_minilm.py checks that a
vector is the same alone, in any batch, on one thread or two.

Left out on purpose: GPUs and other execution providers, padding and attention masks (one text per run), ONNX
Runtime's graph fusions beyond its default level, static quantization (it needs calibration data), other models.
"""
from __future__ import annotations

import functools
import logging
import math
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

import numpy as np

from rag_core.retrieval.minilm import DIM, EPS, HEADS, LAYERS, MiniLM, batched, model_dir

OPSET = 17                       # LayerNormalization is an op from opset 17
IR_VERSION = 8                   # opset 17's IR version: onnx 1.23 writes a newer one by default than ONNX Runtime 1.31 reads
FAST_PATHS = ("onnx", "onnx-int8")


def _graph(weights: dict):
    """The float32 ModelProto: input "ids" (n,) int64 word pieces of one framed text -> "vector" (384,) unit."""
    from onnx import TensorProto, helper, numpy_helper
    inits, nodes = [], []

    def const(name, array):
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def op(kind, inputs, name, **attrs):
        nodes.append(helper.make_node(kind, inputs, [name], name=name, **attrs))
        return name

    def linear(x, prefix, name):
        """x @ W.T + b of the model's (out, in) weight."""
        w = const(prefix + ".weight", weights[prefix + ".weight"].T)
        return op("Add", [op("MatMul", [x, w], name + "_mm"), const(prefix + ".bias", weights[prefix + ".bias"])], name)

    def norm(x, prefix, name):
        return op("LayerNormalization", [x, const(prefix + ".weight", weights[prefix + ".weight"]),
                                         const(prefix + ".bias", weights[prefix + ".bias"])], name, axis=-1, epsilon=EPS)

    e = "embeddings."
    n = op("Shape", ["ids"], "n")                                                        # (1,) the text's length
    pos = op("Slice", [const("position_table", weights[e + "position_embeddings.weight"]),
                       const("zero", np.array([0], np.int64)), n], "pos")               # (n, 384)
    words = op("Gather", [const("word_table", weights[e + "word_embeddings.weight"]), "ids"], "words", axis=0)
    x = op("Add", [op("Add", [words, pos], "wp"), const("type0", weights[e + "token_type_embeddings.weight"][0])], "emb")
    x = norm(x, e + "LayerNorm", "x0")
    heads = const("heads_shape", np.array([-1, HEADS, DIM // HEADS], np.int64))
    flat = const("flat_shape", np.array([-1, DIM], np.int64))
    scale = const("scale", np.array(1 / math.sqrt(DIM // HEADS), np.float32))
    half, root2, one = (const(k, np.array(v, np.float32)) for k, v in (("half", 0.5), ("root2", math.sqrt(2)), ("one", 1.0)))
    for i in range(LAYERS):
        p, s = f"encoder.layer.{i}.", f"l{i}_"
        a = p + "attention.self."
        q, k, v = (op("Transpose", [op("Reshape", [linear(x, a + kind, s + kind), heads], s + kind + "_h")],
                      s + kind + "_t", perm=[1, 0, 2]) for kind in ("query", "key", "value"))  # each (12, n, 32)
        kt = op("Transpose", [k], s + "kT", perm=[0, 2, 1])                                   # (12, 32, n)
        att = op("Softmax", [op("Mul", [op("MatMul", [q, kt], s + "qk"), scale], s + "scores")], s + "att", axis=-1)
        ctx = op("Reshape", [op("Transpose", [op("MatMul", [att, v], s + "ctx_h")], s + "ctx_t", perm=[1, 0, 2]),
                             flat], s + "ctx")                                                  # (n, 384)
        x = norm(op("Add", [x, linear(ctx, p + "attention.output.dense", s + "out")], s + "res1"),
                 p + "attention.output.LayerNorm", s + "x1")
        up = linear(x, p + "intermediate.dense", s + "up")                                     # (n, 1536)
        phi = op("Mul", [op("Add", [op("Erf", [op("Div", [up, root2], s + "u")], s + "erf"), one], s + "erf1"), half],
                 s + "phi")
        down = linear(op("Mul", [up, phi], s + "gelu"), p + "output.dense", s + "down")
        x = norm(op("Add", [x, down], s + "res2"), p + "output.LayerNorm", s + "x2")
    pooled = op("ReduceMean", [x], "pooled", axes=[0], keepdims=0)    # (384,)
    op("Div", [pooled, op("Max", [op("ReduceL2", [pooled], "l2", keepdims=0),
                                  const("tiny", np.array(1e-12, np.float32))], "l2_safe")], "vector")
    graph = helper.make_graph(nodes, "all-MiniLM-L6-v2", [helper.make_tensor_value_info("ids", TensorProto.INT64, ["n"])],
                              [helper.make_tensor_value_info("vector", TensorProto.FLOAT, [DIM])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="openbook",
                             ir_version=IR_VERSION)


def model_bytes(path: str) -> bytes:
    """The serialized ONNX model of a fast path ("onnx": float32; "onnx-int8": its MatMuls quantized)."""
    from safetensors.numpy import load_file
    proto = _graph(load_file(str(model_dir() / "model.safetensors")))
    if path == "onnx":
        return proto.SerializeToString()
    from onnxruntime.quantization import QuantType, quantize_dynamic
    root = logging.getLogger()
    level = root.level
    with tempfile.TemporaryDirectory(prefix="openbook-onnx-") as tmp:
        out = Path(tmp) / "int8.onnx"
        root.setLevel(logging.ERROR)            # its advice to pre-process (shape inference) is a warning on root
        try:
            quantize_dynamic(proto, out, op_types_to_quantize=["MatMul"], weight_type=QuantType.QInt8, per_channel=True,
                             extra_options={"MatMulConstBOnly": True})    # the weights' products, not attention's
        finally:
            root.setLevel(level)
        return out.read_bytes()


class OnnxMiniLM:
    """The fast path: MiniLM's tokenizer and framing, ONNX Runtime's forward pass; a text at a time."""

    def __init__(self, path: str, tokenizer, session):
        self.path, self.tokenizer, self.session = path, tokenizer, session

    pieces = MiniLM.pieces
    framed = staticmethod(MiniLM.framed)

    @classmethod
    @functools.cache
    def load(cls, path: str = "onnx-int8") -> "OnnxMiniLM":
        """The fast path `path`, built once per process (ImportError when onnxruntime or onnx is missing)."""
        if path not in FAST_PATHS:
            raise ValueError(f"A fast path is one of {', '.join(FAST_PATHS)}, got {path!r}.")
        import onnxruntime as ort
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1          # one thread per text; texts run side by side (threads=2)
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.log_severity_level = 3
        session = ort.InferenceSession(model_bytes(path), options, providers=["CPUExecutionProvider"])
        return cls(path, MiniLM.load().tokenizer, session)

    def vector(self, seq: np.ndarray) -> np.ndarray:
        """(384,) unit vector of one framed sequence."""
        return self.session.run(["vector"], {"ids": np.asarray(seq, dtype=np.int64)})[0]

    def encode_pieces(self, seqs: list[np.ndarray], threads: int = 1,
                      on_batch: Callable[[np.ndarray, np.ndarray], None] | None = None,
                      batches: list[np.ndarray] | None = None) -> np.ndarray:
        """As MiniLM.encode_pieces: (n, 384) vectors of framed sequences, on_batch(positions, vectors) after each
        batch in order, in the caller's thread; with threads=2 two texts run at once."""
        out = np.zeros((len(seqs), DIM), dtype=np.float32)
        batches = batched(seqs) if batches is None else batches

        def run(i):
            out[i] = self.vector(seqs[i])

        with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
            for batch in batches:
                list(pool.map(run, batch.tolist()))
                if on_batch:
                    on_batch(batch, out[batch])
        return out

    def encode(self, texts: list[str], threads: int = 1, on_batch=None) -> np.ndarray:
        """(n, 384) float32 unit vectors of texts, each cut at 256 word pieces."""
        return self.encode_pieces([self.framed(p) for p in self.pieces(texts)], threads, on_batch)
