"""The retrievers and rerankers a setup can choose, and the two indexes built on the trained encoder.

    RETRIEVERS   hashing (the article's, the default) | bm25 | minilm | hybrid
    RERANKERS    lexical (the article's surrogate, the default) | dense (MiniLM on the whole chunk)

    ix = build_index("hybrid", tc, ChunkerConfig("fixed", 160, 32), embedder=Embedder.default())
    ix.search(question, k, allowed)            # the Index contract: filter first, k clamped, ties by chunk order

`minilm` scores a chunk by the cosine of its MiniLM vector (its first 256 word pieces) with the question's.
`hybrid` fuses the rankings of `bm25` and `minilm` by reciprocal rank fusion:
    score(c) = 1 / (RRF_K + rank_bm25(c)) + 1 / (RRF_K + rank_minilm(c)),   RRF_K = 60,
with both ranks counted among the chunks the filter allows (1 = best, ties by chunk order), so that the
filter still runs before ranking. Equal fused scores are ordered by chunk order, as everywhere.

Left out on purpose: approximate search (an exact scan of 384 numbers per chunk), weights between the
two rankings (RRF has none but its constant), and cross-encoders (no package we know ships the weights).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np

from rag_core.retrieval.bm25 import BM25Index
from rag_core.retrieval.chunkers import ChunkerConfig
from rag_core.retrieval.index import Index, chunk_pieces
from rag_core.retrieval.tokenized import TokenizedCorpus

RETRIEVERS = ("hashing", "bm25", "minilm", "hybrid")
RERANKERS = ("lexical", "dense")
LEXICAL = ("hashing", "bm25")         # the retrievers that match words, not meanings (nothing to encode first)
RRF_K = 60
DESCRIPTIONS = {    # one plain sentence each, for the pages
    "hashing": "The article's encoder: words hashed into 1,024 signed buckets, weighted by rarity. Lexical: it "
               "matches the words of the question, not their meaning.",
    "bm25": "Okapi BM25 over the same words: each shared word counts by its rarity and how often the chunk uses it, "
            "less in long chunks. Lexical too, the classic baseline of search engines.",
    "minilm": "A trained sentence encoder (all-MiniLM-L6-v2, 384 numbers per chunk, run offline): close meanings "
              "score close even without shared words. It reads the first 256 word pieces of a chunk.",
    "hybrid": f"BM25 and MiniLM together: each chunk scores 1/({RRF_K} + its BM25 rank) + 1/({RRF_K} + its MiniLM "
              f"rank) (reciprocal rank fusion, constant {RRF_K}).",
    "lexical": "The article's reranker: how many of the question's words and word pairs a chunk holds, and how "
               "close together (a cross-encoder surrogate without a model).",
    "dense": "MiniLM's similarity between the question and the whole chunk (windows of 254 word pieces, the best "
             "one counts): a bi-encoder rerank, not a cross-encoder.",
}

# why a chunk that shares no word with the question still has a score, per retriever (the Ask page says it)
WITHOUT_SHARED_WORDS = {
    "hashing": "the hashing encoder puts different words into the same one of its 1,024 buckets, so a chunk that "
               "shares no word still scores a little above zero",
    "bm25": "BM25 counts shared words only: these chunks score 0 and come back in chunk order",
    "minilm": "MiniLM compares meanings, so a chunk can score without sharing a word; a low score means far",
    "hybrid": "hybrid fuses two rankings, and every allowed chunk has a rank in both, so a fused score is never 0",
}


def check_choice(retriever: str, reranker: str) -> None:
    """ValueError naming the valid choices for an unknown retriever or reranker."""
    if retriever not in RETRIEVERS:
        raise ValueError(f"Unknown retriever {retriever!r}: choose one of {', '.join(RETRIEVERS)}.")
    if reranker not in RERANKERS:
        raise ValueError(f"Unknown reranker {reranker!r}: choose one of {', '.join(RERANKERS)}.")


def ranks_within(scores: np.ndarray) -> np.ndarray:
    """1-based rank of each score, best first, ties in position order: [0.2, 0.9, 0.2] -> [2, 1, 3]."""
    rank = np.empty(len(scores), dtype=np.int64)
    rank[np.argsort(-scores, kind="stable")] = np.arange(1, len(scores) + 1)
    return rank


def rrf(*rankings: np.ndarray, k: int = RRF_K) -> np.ndarray:
    """Reciprocal rank fusion of 1-based ranks: ranks [1, 2] and [2, 1] -> [1/61 + 1/62, 1/62 + 1/61]."""
    return sum(1.0 / (k + r) for r in rankings)


@dataclass
class DenseIndex(Index):
    """Chunks ranked by the cosine of their MiniLM vectors with the question's (both of norm 1)."""
    retriever = "minilm"
    vectors: np.ndarray | None = None         # (n_chunks, 384) float32, unit rows

    @classmethod
    def build(cls, tc: TokenizedCorpus, chunker: ChunkerConfig, like: Index | None = None, embedder=None,
              on_progress: Callable[[int, int, str], None] | None = None) -> "DenseIndex":
        """The MiniLM index of a chunker; chunks not in the embedder's cache are encoded (on_progress says how many)."""
        from rag_core.retrieval.vectors import Embedder
        pieces = like.pieces() if like is not None else chunk_pieces(tc, chunker)
        embedder = embedder or Embedder.default()
        vectors = embedder.vectors(pieces["texts"], on_progress)
        embedder.model                            # loaded now, so that the first question does not wait for it
        return cls(**pieces, embedder=embedder, vectors=vectors)

    def scores_many(self, questions: list[str], allowed: np.ndarray | None = None) -> Iterator[np.ndarray]:
        for q in questions:           # one product per question: a question's scores never depend on the others;
            # einsum sums each row on its own (a BLAS product's last bit depends on the row's place in the matrix),
            # so a chunk scores the same here and in a database that re-scores it alone (engines.spaces)
            yield np.einsum("ij,j->i", self.vectors, self.embedder.query(q)).astype(np.float64)


@dataclass
class HybridIndex(Index):
    """Chunks ranked by reciprocal rank fusion of a BM25 and a MiniLM index of the same chunks."""
    retriever = "hybrid"
    sparse: BM25Index | None = None
    dense: DenseIndex | None = None
    k: int = RRF_K

    def scores_many(self, questions: list[str], allowed: np.ndarray | None = None) -> Iterator[np.ndarray]:
        idx = np.arange(len(self)) if allowed is None else np.asarray(allowed)
        for s, d in zip(self.sparse.scores_many(questions, allowed), self.dense.scores_many(questions, allowed)):
            out = np.full(len(self), -np.inf)                         # outside the filter: never ranked
            out[idx] = rrf(ranks_within(s[idx]), ranks_within(d[idx]), k=self.k)
            yield out


def build_index(retriever: str, tc: TokenizedCorpus, chunker: ChunkerConfig, like: Index | None = None,
                embedder=None, on_progress=None, parts: dict | None = None) -> Index:
    """The index of `retriever` over a chunker's chunks; `like` lends its chunks, `parts` the bm25 and minilm
    indexes a hybrid is made of (when already built)."""
    check_choice(retriever, "lexical")
    if retriever == "hashing":
        return like if type(like) is Index else Index.build(tc, chunker)
    if retriever == "bm25":
        return BM25Index.build(tc, chunker, like)
    if retriever == "minilm":
        return DenseIndex.build(tc, chunker, like, embedder, on_progress)
    parts = parts or {}
    sparse = parts.get("bm25") or BM25Index.build(tc, chunker, like)
    dense = parts.get("minilm") or DenseIndex.build(tc, chunker, like or sparse, embedder, on_progress)
    return HybridIndex(**sparse.pieces(), embedder=dense.embedder, sparse=sparse, dense=dense)
