"""The article's hashing encoder, stored as what it is: a sparse matrix.

Each word goes to bucket `h % dim` with sign `+1 if bit 40 of h else -1`, where h is its blake2b hash;
its weight is `(1 + log count) * idf`, with `idf = log((1 + n) / (1 + df)) + 1` fitted on the chunks
of the index (a word never seen there gets `log(1 + n) + 1`); each row is L2-normalised. A chunk has
a few dozen non-zero buckets out of 1024, so the matrix is kept by bucket (CSC): a question touches
only the rows listed under its own few buckets.

Values are float32 like the article's matrix; scores are accumulated in float64, so a tie is a tie
and every non-tie is ordered the same way as a dense float64 product.

Left out on purpose: any learned weight. This encoder knows no synonyms ("star" is not "asterisk").
"""
from __future__ import annotations

import functools
import math
from collections import Counter
from dataclasses import dataclass

import numpy as np

from .text import Tokenizer, word_hash, words


def _log_table(values: np.ndarray, f) -> np.ndarray:
    """Apply the scalar math function f to an int array through its distinct values (exact libm results)."""
    uniq, inverse = np.unique(values, return_inverse=True)
    return np.array([f(int(v)) for v in uniq], dtype=np.float64)[inverse]


@dataclass(frozen=True)
class SparseMatrix:
    """Rows = chunks, columns = buckets, stored by column: column b holds rows[ptr[b]:ptr[b+1]]."""
    n_rows: int
    dim: int
    ptr: np.ndarray    # (dim + 1,) int64
    rows: np.ndarray   # (nnz,) int32, ascending within a column
    vals: np.ndarray   # (nnz,) float32, L2-normalised per row

    def dot(self, queries: np.ndarray) -> np.ndarray:
        """Scores (n_rows, n_queries) in float64 of every row against dense query vectors (n_queries, dim).

        Only the postings of the buckets some query uses are read; each query's sum runs over them
        in bucket order, so a query scores the same alone or in a batch.
        """
        queries = np.atleast_2d(queries)
        cols = np.flatnonzero(np.any(queries != 0, axis=0))
        lo, hi = self.ptr[cols], self.ptr[cols + 1]
        lengths = hi - lo
        sel = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths - lo, lengths)
        rows, vals = self.rows[sel], self.vals[sel].astype(np.float64)
        q_of_sel = queries[:, np.repeat(cols, lengths)].astype(np.float64)       # (n_queries, len(sel))
        out = np.empty((self.n_rows, len(queries)))
        for j in range(len(queries)):
            out[:, j] = np.bincount(rows, weights=vals * q_of_sel[j], minlength=self.n_rows)
        return out

    def to_dense(self) -> np.ndarray:
        """(n_rows, dim) float32: for tests and small corpora only."""
        out = np.zeros((self.n_rows, self.dim), dtype=np.float32)
        cols = np.repeat(np.arange(self.dim), np.diff(self.ptr))
        out[self.rows, cols] = self.vals
        return out

    @property
    def nbytes(self) -> int:
        return self.ptr.nbytes + self.rows.nbytes + self.vals.nbytes


class HashingEncoder:
    """FAKE encoder: signed hashing of words, weighted with the IDF of the chunks. No model."""

    def __init__(self, tokenizer: Tokenizer, dim: int = 1024):
        if dim <= 0:
            raise ValueError(f"dim must be above 0, got {dim}.")
        self.tok, self.dim = tokenizer, dim
        self.idf = np.zeros(0)        # word id -> idf (0 where the word is in no chunk)
        self.idf_unknown = 1.0
        self.n_chunks = 0

    def _bucket_sign(self, n_words: int) -> tuple[np.ndarray, np.ndarray]:
        h = self.tok.hash_array()[:n_words]
        bucket = (h % np.uint64(self.dim)).astype(np.int64)
        sign = np.where((h >> np.uint64(40)) & np.uint64(1), 1.0, -1.0)
        return bucket, sign

    def fit_transform(self, chunk_of: np.ndarray, word_of: np.ndarray, n_chunks: int) -> SparseMatrix:
        """Fit the IDF on the chunks and return their normalised vectors.

        chunk_of, word_of: one entry per word occurrence, (chunk id, word id), chunks in order.
        """
        if n_chunks <= 0:
            raise ValueError("Cannot index zero chunks: add documents with some text.")
        V = len(self.tok.hashes)
        pairs, counts = np.unique(chunk_of * V + word_of, return_counts=True)
        pc, pw = pairs // V, pairs % V                                   # unique (chunk, word) pairs
        df = np.bincount(pw, minlength=V)
        self.n_chunks = n_chunks
        self.idf = np.zeros(V)
        seen = df > 0
        self.idf[seen] = _log_table(df[seen], lambda c: math.log((1 + n_chunks) / (1 + c)) + 1)
        self.idf_unknown = math.log(1 + n_chunks) + 1
        bucket, sign = self._bucket_sign(V)
        weight = (sign[pw] * _log_table(counts, lambda c: 1 + math.log(c)) * self.idf[pw]).astype(np.float32)
        # sum the words that share a bucket within a chunk (float32, as the article's += does)
        key = pc * self.dim + bucket[pw]
        order = np.argsort(key, kind="stable")
        key, weight = key[order], weight[order]
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        vals = np.add.reduceat(weight, starts) if len(starts) else weight
        key = key[starts]
        rows, cols = key // self.dim, key % self.dim
        norms = np.sqrt(np.bincount(rows, weights=vals.astype(np.float64) ** 2, minlength=n_chunks))
        vals = (vals / np.where(norms == 0, 1, norms)[rows].astype(np.float32)).astype(np.float32)
        by_col = np.argsort(cols, kind="stable")
        ptr = np.zeros(self.dim + 1, dtype=np.int64)
        np.cumsum(np.bincount(cols, minlength=self.dim), out=ptr[1:])
        return SparseMatrix(n_chunks, self.dim, ptr, rows[by_col].astype(np.int32), vals[by_col])

    def encode_query(self, text: str) -> np.ndarray:
        """Dense (dim,) float32 vector of a question, built exactly as the article encodes one text."""
        e = np.zeros(self.dim, dtype=np.float32)
        for w, log_c, h in _query_terms(text):
            i = self.tok.vocab.get(w)
            idf = self.idf[i] if i is not None and i < len(self.idf) and self.idf[i] > 0 else self.idf_unknown
            e[h % self.dim] += (1 if (h >> 40) & 1 else -1) * log_c * idf
        e = e[None, :]                                   # a (1, dim) row, normalised as the article does
        n = np.linalg.norm(e, axis=1, keepdims=True)
        return (e / np.where(n == 0, 1, n))[0]


@functools.lru_cache(maxsize=4096)
def _query_terms(text: str) -> tuple:
    """(word, 1 + log count, hash) for each distinct word of a text, in first-seen order."""
    return tuple((w, 1 + math.log(c), word_hash(w)) for w, c in Counter(words(text)).items())
