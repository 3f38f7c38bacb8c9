"""Each retriever as an inner product: what an engine stores per chunk, asks per question, and re-scores.

    space = vector_space(index)          # HashingSpace, BM25Space or DenseSpace, by the index's retriever
    v = space.chunk_vectors()            # Vectors("sparse", 1024, ptr, cols, vals): one row per chunk
    q = space.query_vector("How does bisect work?")   # Query(cols, vals): the question's non-zero dimensions
    space.rescore(q, rows)               # float64 scores of some rows, bit for bit the index's own

A retriever plugs into PostgreSQL + pgvector when its score is an inner product <chunk vector, query vector>:
    hashing encoder   sparse: the chunk's signed, IDF-weighted, normalised buckets   x the question's   (sparsevec)
    BM25              sparse: the chunk's term weights                              x the question's term indicator
    MiniLM            dense: the chunk's unit vector (384)                           x the question's   (vector(384))
pgvector computes `<#>` in float32; `error_bound` says how far that can be from the index's float64 score,
so that the engine can fetch every chunk that may belong to the exact top k and re-rank them with `rescore`.

Left out on purpose: retrievers whose score is not an inner product of two fixed vectors (the reranker).
"""
from __future__ import annotations

import hashlib
from typing import NamedTuple

import numpy as np

from rag_core.retrieval.encoder import SparseMatrix
from rag_core.retrieval.index import Index

U32, U64 = 2.0 ** -24, 2.0 ** -53     # unit roundoff of float32 and float64


class Query(NamedTuple):
    """A question's vector: sparse as its non-zero dimensions, dense as it is."""
    cols: np.ndarray | None   # sparse: (m,) int64 dimensions, ascending; None for dense
    vals: np.ndarray          # sparse: (m,) float64 values at cols (float32 numbers or whole counts); dense: (dim,) float32


class Vectors(NamedTuple):
    """Rows of vectors, one per chunk (or per fetched candidate)."""
    kind: str             # "sparse" (stored as sparsevec) or "dense" (stored as vector)
    dim: int
    ptr: np.ndarray       # sparse: (n + 1,) int64, row r is cols[ptr[r]:ptr[r+1]], vals[ptr[r]:ptr[r+1]]
    cols: np.ndarray      # sparse: (nnz,) int32, ascending within a row, zeros left out; dense: empty
    vals: np.ndarray      # sparse: (nnz,) float32, none zero; dense: (n, dim) float32

    @property
    def n(self) -> int:
        return len(self.ptr) - 1 if self.kind == "sparse" else len(self.vals)

    def digest(self) -> str:
        """16 hex digits of sha256 over the vectors: two indexes with the same digest store the same numbers."""
        h = hashlib.sha256(f"{self.kind}/{self.dim}/{self.n}\0".encode())
        for a in (self.ptr, self.cols, self.vals):
            h.update(np.ascontiguousarray(a).data)
        return h.hexdigest()[:16]


def csr_rows(m: SparseMatrix) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows of a column-major SparseMatrix: (ptr, cols, vals), buckets ascending in a row, zeros left out.

    columns 0: rows [0, 1] vals [0.6, 1.0]; column 2: row [0] val [0.8]   (n_rows 2, dim 3)
    -> ptr [0, 2, 3], cols [0, 2, 0], vals [0.6, 0.8, 1.0]
    """
    order = np.argsort(m.rows, kind="stable")                  # by row; a stable sort keeps buckets ascending
    cols = np.repeat(np.arange(m.dim, dtype=np.int32), np.diff(m.ptr))[order]
    vals, rows = m.vals[order], m.rows[order]
    keep = vals != 0                                           # a bucket whose words cancel out: pgvector drops it
    ptr = np.zeros(m.n_rows + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows[keep], minlength=m.n_rows), out=ptr[1:])
    return ptr, cols[keep], vals[keep]


def dot_error(n_terms: int, magnitude: float) -> float:
    """A bound on |float32 dot product - float64 dot product| of n terms whose |products| sum to <= magnitude.

    Higham's bound gamma_n = n u / (1 - n u) for each precision, doubled for safety.
    """
    n = max(int(n_terms), 1)
    return 2 * magnitude * (n * U32 / (1 - n * U32) + n * U64 / (1 - n * U64))


def sparse_rescore(query: Query, rows: Vectors) -> np.ndarray:
    """SparseMatrix.column_scores for these rows: per row, the float64 products of its values with the
    question's at the dimensions they share, summed from 0.0 in dimension order (np.bincount adds in array
    order, as there; a product of a float32 and a float64 holding a float32 or a small count is exact)."""
    row_of = np.repeat(np.arange(rows.n), np.diff(rows.ptr))
    at = np.minimum(np.searchsorted(query.cols, rows.cols), max(len(query.cols) - 1, 0))
    shared = query.cols[at] == rows.cols if len(query.cols) else np.zeros(len(rows.cols), bool)
    products = np.multiply(rows.vals[shared], query.vals[at[shared]], dtype=np.float64)
    return np.bincount(row_of[shared], weights=products, minlength=rows.n)


class HashingSpace:
    """The article's hashing index: sparse unit rows in `index.matrix`, the question from `index.encoder`."""
    kind, nonnegative = "sparse", False          # signed buckets: a float32 sum of 0 says nothing of the float64 one

    def __init__(self, index: Index):
        self.index, self.source = index, index.matrix
        self.dim = index.matrix.dim
        self.key = f"hashing-{self.dim}"       # the retriever and its parameters, part of a stored index's key
        self._max_norm = None

    def chunk_vectors(self) -> Vectors:
        ptr, cols, vals = csr_rows(self.index.matrix)
        return Vectors("sparse", self.dim, ptr, cols, vals)

    def query_vector(self, question: str) -> Query:
        q = self.index.encoder.encode_query(question)
        cols = np.flatnonzero(q)
        return Query(cols, q[cols].astype(np.float64))

    def rescore(self, query: Query, rows: Vectors) -> np.ndarray:
        return sparse_rescore(query, rows)

    def error_bound(self, query: Query) -> float:
        """Sum |a_i q_i| <= |a| |q| (Cauchy-Schwarz); the rows are unit vectors up to float32 rounding."""
        if self._max_norm is None:
            m = self.index.matrix
            self._max_norm = float(np.sqrt(np.bincount(m.rows, weights=m.vals.astype(np.float64) ** 2,
                                                       minlength=m.n_rows).max(initial=0.0)))
        return dot_error(len(query.cols), float(np.sqrt(query.vals @ query.vals)) * self._max_norm)


class BM25Space:
    """BM25: a chunk's score is the sum of its weights for the question's words, each counted as often as the
    question says it: the inner product of its weights (sparse, one dimension per word) and the word counts."""
    kind, nonnegative = "sparse", True           # weights and counts above 0: a score is 0 exactly when no word is shared

    def __init__(self, index):
        self.index, self.source = index, index.bm25
        self.dim = index.bm25.dim
        self.key = "bm25-k1-1.5-b-0.75"
        self._max_weight = None

    def chunk_vectors(self) -> Vectors:
        ptr, cols, vals = csr_rows(self.index.bm25)
        return Vectors("sparse", self.dim, ptr, cols, vals)

    def query_vector(self, question: str) -> Query:
        cols, counts = self.index.query_terms(question)
        return Query(np.asarray(cols, dtype=np.int64), np.asarray(counts, dtype=np.float64))

    def rescore(self, query: Query, rows: Vectors) -> np.ndarray:
        return sparse_rescore(query, rows)

    def error_bound(self, query: Query) -> float:
        """Every product is at most the word's largest weight times its count."""
        if self._max_weight is None:
            m = self.index.bm25
            top = np.zeros(m.dim)
            full = np.flatnonzero(np.diff(m.ptr))
            top[full] = np.maximum.reduceat(m.vals, m.ptr[full]) if len(full) else 0
            self._max_weight = top
        return dot_error(len(query.cols), float(self._max_weight[query.cols] @ query.vals))


class DenseSpace:
    """MiniLM: unit vectors of 384 numbers; the score is their inner product (the cosine)."""
    kind, nonnegative = "dense", False

    def __init__(self, index):
        self.index, self.source = index, index.vectors
        self.dim = index.vectors.shape[1]
        self.key = f"minilm-{self.dim}"

    def chunk_vectors(self) -> Vectors:
        v = np.ascontiguousarray(self.index.vectors, dtype=np.float32)
        return Vectors("dense", self.dim, np.arange(len(v) + 1, dtype=np.int64), np.zeros(0, np.int32), v)

    def query_vector(self, question: str) -> Query:
        return Query(None, np.asarray(self.index.embedder.query(question), dtype=np.float32))

    def rescore(self, query: Query, rows: Vectors) -> np.ndarray:
        """The float32 inner products, row by row (einsum: a row's sum never depends on the other rows)."""
        return np.einsum("ij,j->i", rows.vals, query.vals).astype(np.float64)

    def error_bound(self, query: Query) -> float:
        """float32 on both sides, each within gamma_384 of the exact product of two unit vectors."""
        q = query.vals.astype(np.float64)
        return dot_error(self.dim, 1.001 * float(np.sqrt(q @ q)))


SPACES = {"hashing": HashingSpace, "bm25": BM25Space, "minilm": DenseSpace}   # Index.retriever -> its space
SOURCES = {"hashing": lambda ix: ix.matrix, "bm25": lambda ix: ix.bm25, "minilm": lambda ix: ix.vectors}


def vector_source(index):
    """The object that holds an index's vectors (its matrix or array): copies of an index share it."""
    get = SOURCES.get(getattr(index, "retriever", None))
    return get(index) if get else None


def vector_space(index):
    """The space of an index's retriever; ValueError when no engine but the in-process one can search it."""
    space = SPACES.get(getattr(index, "retriever", None))
    if space is None:
        raise ValueError(f"The {getattr(index, 'retriever', type(index).__name__)} retriever is not an inner product "
                         "of stored vectors: search it with the in-process engine.")
    return space(index)
