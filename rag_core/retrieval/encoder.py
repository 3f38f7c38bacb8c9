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

from rag_core.text.tokens import Tokenizer, concat_ranges, index_dtype, word_hash, words


def _log_table(values: np.ndarray, f) -> np.ndarray:
    """Apply the scalar math function f to an array of counts (ints >= 0) through its distinct values.

    The results are libm's, exactly as a Python loop would give; the look-up is a table indexed by count.
    """
    if not len(values):
        return np.zeros(0)
    distinct = np.flatnonzero(np.bincount(values))                  # the counts that occur, ascending
    table = np.zeros(int(distinct[-1]) + 1)
    table[distinct] = [f(int(v)) for v in distinct]
    return table[values]


@dataclass(frozen=True)
class SparseMatrix:
    """Rows = chunks, columns = buckets, stored by column: column b holds rows[ptr[b]:ptr[b+1]]."""
    n_rows: int
    dim: int
    ptr: np.ndarray    # (dim + 1,) int64
    rows: np.ndarray   # (nnz,) int32, ascending within a column
    vals: np.ndarray   # (nnz,) float32, L2-normalised per row

    def scores(self, query: np.ndarray) -> np.ndarray:
        """(n_rows,) float64 scores of every row against one dense query vector (dim,).

        Only the postings of the query's own buckets are read. A row's sum runs over them in bucket
        order, and each product of two float32 values is exact in float64.
        """
        cols = np.flatnonzero(query)                                      # the query's buckets, ascending
        return self.column_scores(cols, query[cols].astype(np.float64).tolist())

    def column_scores(self, cols: np.ndarray, weights: list) -> np.ndarray:
        """(n_rows,) float64: sum over the given columns (ascending) of weight * the column's values.

        cols [0, 2], weights [1.0, 2.0] on columns 0: {row 1: 0.5}, 2: {row 0: 0.25, row 1: 0.5} -> [0.5, 1.5]
        """
        lo, hi = self.ptr[cols].tolist(), self.ptr[np.asarray(cols) + 1].tolist()
        if lo == hi:                                                      # no row shares a column
            return np.zeros(self.n_rows)
        rows = np.concatenate([self.rows[a:b] for a, b in zip(lo, hi)])   # (n_postings,)
        products = np.concatenate([np.multiply(self.vals[a:b], w, dtype=np.float64)
                                   for a, b, w in zip(lo, hi, weights)])
        return np.bincount(rows, weights=products, minlength=self.n_rows)

    def to_dense(self) -> np.ndarray:
        """(n_rows, dim) float32: for tests and small corpora only."""
        out = np.zeros((self.n_rows, self.dim), dtype=np.float32)
        cols = np.repeat(np.arange(self.dim), np.diff(self.ptr))
        out[self.rows, cols] = self.vals
        return out

    @property
    def nbytes(self) -> int:
        return self.ptr.nbytes + self.rows.nbytes + self.vals.nbytes


def _distinct_pairs(chunk_of: np.ndarray, word_of: np.ndarray, n_words: int):
    """(chunk, word, count) of each distinct (chunk, word) pair, sorted by chunk then word."""
    key = chunk_of.astype(np.int64)                                        # (n_occurrences,) chunk * n_words + word
    key *= n_words
    key += word_of
    key.sort()
    first = np.flatnonzero(np.r_[True, key[1:] != key[:-1]]) if len(key) else np.zeros(0, np.int64)
    counts = np.diff(np.r_[first, len(key)]).astype(np.int32)               # (n_pairs,) occurrences of each pair
    key = key[first]
    chunk = (key // n_words).astype(index_dtype(chunk_of.max(initial=0) + 1))
    return chunk, (key % n_words).astype(index_dtype(n_words)), counts


def _chunk_word_pairs(word_ids: np.ndarray, lo: np.ndarray, hi: np.ndarray, n_words: int, block: int = 1 << 21):
    """_distinct_pairs of chunks given as ranges word_ids[lo[c]:hi[c]], about `block` words at a time.

    Chunks are independent, so taking them in blocks gives the same pairs with small temporaries.
    """
    lengths = hi - lo
    ends = np.cumsum(lengths)                                              # (n_chunks,) words up to each chunk
    cuts = np.unique(np.r_[0, np.searchsorted(ends, np.arange(block, ends[-1] if len(ends) else 0, block)), len(lo)])
    parts = ([], [], [])                                                   # chunk, word, count of each block
    for c0, c1 in zip(cuts[:-1].tolist(), cuts[1:].tolist()):
        chunk_of = np.repeat(np.arange(c0, c1, dtype=index_dtype(len(lo))), lengths[c0:c1])
        for part, a in zip(parts, _distinct_pairs(chunk_of, word_ids[concat_ranges(lo[c0:c1], lengths[c0:c1])], n_words)):
            part.append(a)
    out = []
    for part in parts:                     # one column at a time, so that only one is held twice
        out.append(np.concatenate(part))
        part.clear()
    return tuple(out)


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

    def fit_chunks(self, word_ids: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> SparseMatrix:
        """Fit the IDF on the chunks and return their normalised vectors; chunk c's words are word_ids[lo[c]:hi[c]]."""
        if len(lo) <= 0:
            raise ValueError("Cannot index zero chunks: add documents with some text.")
        pc, pw, counts = _chunk_word_pairs(word_ids, lo, hi, len(self.tok.hashes))
        col, weight = self._fit_weights(pw, counts, len(lo))
        del pw, counts                                                     # only what the matrix needs stays
        return self._sum_buckets(pc, col, weight, len(lo))

    def _fit_weights(self, pw: np.ndarray, counts: np.ndarray, n_chunks: int) -> tuple[np.ndarray, np.ndarray]:
        """Fit the IDF on the distinct (chunk, word) pairs; (bucket, signed float32 weight) of each pair."""
        V = len(self.tok.hashes)
        df = np.bincount(pw, minlength=V)
        self.n_chunks = n_chunks
        self.idf = np.zeros(V)
        seen = df > 0
        self.idf[seen] = _log_table(df[seen], lambda c: math.log((1 + n_chunks) / (1 + c)) + 1)
        self.idf_unknown = math.log(1 + n_chunks) + 1
        bucket, sign = self._bucket_sign(V)
        # (1 + log count) * (sign * idf): the article's sign * (1 + log count) * idf, bit for bit (a sign is exact)
        weight = _log_table(counts, lambda c: 1 + math.log(c))             # (n_pairs,) float64
        weight *= (sign * self.idf)[pw]
        col = bucket.astype(np.int16 if self.dim <= 2 ** 15 else np.int64)[pw]
        return col, weight.astype(np.float32)

    def _sum_buckets(self, pc: np.ndarray, col: np.ndarray, weight: np.ndarray, n_chunks: int) -> SparseMatrix:
        """The normalised CSC matrix: the weights of the words that share a bucket in a chunk, summed."""
        # Order the pairs by (bucket, chunk), words in id order within: the pairs come sorted by chunk,
        # so one stable sort by bucket (a radix sort on 16 bits) does it, and gives the CSC order.
        order = np.argsort(col, kind="stable")
        col, weight, row = col[order], weight[order], pc[order]
        del order
        # sum the words that share a bucket within a chunk (float32, as the article's += does)
        starts = np.flatnonzero(np.r_[len(col) > 0, (col[1:] != col[:-1]) | (row[1:] != row[:-1])])
        vals = np.add.reduceat(weight, starts) if len(starts) else weight     # no pair: chunks of stopwords only
        rows, cols = row[starts].astype(np.int32, copy=False), col[starts]
        del col, row, weight, starts
        # per row, the squares are summed in bucket order, as a row-major pass would
        squares = vals.astype(np.float64)
        squares *= squares
        norms = np.sqrt(np.bincount(rows, weights=squares, minlength=n_chunks))
        del squares
        vals /= np.where(norms == 0, 1, norms).astype(np.float32)[rows]     # float32 / float32, as the article
        ptr = np.zeros(self.dim + 1, dtype=np.int64)
        np.cumsum(np.bincount(cols, minlength=self.dim), out=ptr[1:])
        return SparseMatrix(n_chunks, self.dim, ptr, rows, vals)

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
