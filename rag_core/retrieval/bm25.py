"""Okapi BM25 over the article's own words (camelCase split, lowercase, stopwords dropped), scored as bm25s does.

    score(q, c) = sum over the question's words w, a repeated word counted each time, of
                  idf(w) * tf(w, c) / (tf(w, c) + k1 * (1 - b + b * len(c) / avglen))
    idf(w)      = log(1 + (N - df(w) + 0.5) / (df(w) + 0.5))       Lucene's: always above 0

N is the number of chunks of the index, df(w) how many of them hold w, tf(w, c) how often c holds it,
len(c) its words and avglen their mean; k1 = 1.5 and b = 0.75 (bm25s's defaults, method "lucene").
A word the chunks never use adds nothing. Each (chunk, word) weight is computed once, at build, and
stored by word (CSC, as the hashing matrix is by bucket): a question reads only its own words' postings.

    ix = BM25Index.build(tc, ChunkerConfig("fixed", 160, 32))
    ix.search("default cutoff of get_close_matches?", k=3, allowed={"current"})   # Index's contract, unchanged

Left out on purpose: stemming and synonyms (the tokenizer is the article's), BM25 variants (L, +), and
saving the index (it is rebuilt in about a second at 100,000 chunks).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from rag_core.retrieval.chunkers import ChunkerConfig
from rag_core.retrieval.encoder import SparseMatrix, _chunk_word_pairs
from rag_core.retrieval.index import Index, chunk_pieces
from rag_core.retrieval.tokenized import TokenizedCorpus
from rag_core.text.tokens import words

K1, B = 1.5, 0.75


def bm25_matrix(word_ids: np.ndarray, lo: np.ndarray, hi: np.ndarray, n_words: int, k1: float = K1,
                b: float = B) -> SparseMatrix:
    """Chunks x words, each value the word's BM25 weight in the chunk (float32), stored by word.

    Chunk c's words are word_ids[lo[c]:hi[c]]. One chunk "a b a", another "b" (N 2, avglen 2):
    idf(a) = log(1 + 1.5 / 1.5) = 0.693, and a's weight in the first = 0.693 * 2 / (2 + 1.5 * (0.25 + 0.75 * 1.5)).
    """
    n = len(lo)
    if n <= 0:
        raise ValueError("Cannot index zero chunks: add documents with some text.")
    chunk, word, tf = _chunk_word_pairs(word_ids, lo, hi, n_words)          # sorted by chunk, then word
    df = np.bincount(word, minlength=n_words)
    idf = np.log1p((n - df + 0.5) / (df + 0.5))                            # (n_words,)
    length = (hi - lo).astype(np.float64)
    norm = k1 * (1 - b + b * length / max(length.mean(), 1e-12))           # (n_chunks,)
    vals = idf[word] * tf / (tf + norm[chunk])                              # (n_pairs,) float64
    order = np.argsort(word, kind="stable")                                 # by word; chunks ascending within
    ptr = np.zeros(n_words + 1, dtype=np.int64)
    np.cumsum(np.bincount(word, minlength=n_words), out=ptr[1:])
    return SparseMatrix(n, n_words, ptr, chunk[order].astype(np.int32), vals[order].astype(np.float32))


@dataclass
class BM25Index(Index):
    """Chunks ranked by Okapi BM25; the filter, k and ties as for every Index."""
    retriever = "bm25"
    bm25: SparseMatrix | None = None          # chunks x words, BM25 weights

    @classmethod
    def build(cls, tc: TokenizedCorpus, chunker: ChunkerConfig, like: Index | None = None) -> "BM25Index":
        """The BM25 index of a chunker; `like` (an index of the same chunker) lends its chunks."""
        pieces = like.pieces() if like is not None else chunk_pieces(tc, chunker)
        m = bm25_matrix(tc.word_ids, pieces["lo"], pieces["hi"], len(tc.tokenizer.hashes))
        return cls(**pieces, bm25=m)

    def query_terms(self, question: str) -> tuple[np.ndarray, list]:
        """(word ids ascending, how often each is in the question), the words the index knows:
        "sort sort list" -> ([id of list, id of sort] in id order, [1.0, 2.0])."""
        vocab, V = self.tc.tokenizer.vocab, self.bm25.dim
        counts = Counter(i for i in (vocab.get(w) for w in words(question)) if i is not None and i < V)
        cols = np.array(sorted(counts), dtype=np.int64)
        return cols, [float(counts[c]) for c in cols.tolist()]

    def scores_many(self, questions: list[str], allowed: np.ndarray | None = None) -> Iterator[np.ndarray]:
        for q in questions:
            yield self.bm25.column_scores(*self.query_terms(q))
