"""The index: a corpus cut by one chunker, encoded, and searched with a metadata filter applied first.

    tc = TokenizedCorpus(bundled_corpus())            # tokenize once
    ix = Index.build(tc, ChunkerConfig("fixed", 160, 32))
    res = ix.search("default cutoff of get_close_matches?", k=3, allowed={"current"})
    res.ids, res.scores, res.notes                     # chunk ids, similarities, what was clamped

The filter runs BEFORE ranking: only the allowed chunks are scored and compete for the k places.
An empty allowed set returns nothing and says so; it never falls back to every chunk. `plan_search` makes those
checks and writes those notes once, for this index and for every search engine (retrieval.engines).
Ties are broken by chunk order, as the article's stable argsort does.

`Index` scores with the article's hashing encoder; the other retrievers (bm25.BM25Index, retrievers.DenseIndex,
retrievers.HybridIndex) subclass it and change only `scores_many`, so search keeps this contract for all.

Left out on purpose: approximate search in this index (the exact scan over a sparse matrix is fast enough at
100,000 chunks; PostgreSQL's HNSW is one of the search engines, retrieval.engines), updates in place (an index is
rebuilt when its chunker changes).
"""
from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass
from typing import ClassVar, Iterable, Iterator, NamedTuple

import numpy as np

from rag_core.data.sections import section_title
from rag_core.retrieval.chunkers import ChunkerConfig, fixed_window_spans
from rag_core.retrieval.encoder import HashingEncoder, SparseMatrix
from rag_core.retrieval.tokenized import TokenizedCorpus
from rag_core.text.questions import check_question


class SearchResult(NamedTuple):
    ids: np.ndarray       # chunk ids, best first
    scores: np.ndarray    # the retriever's score of each (float64): cosine, BM25 or fused rank
    notes: tuple          # plain sentences on what was adjusted: a clamped k, an empty filter


NOTHING_ALLOWED = ("No chunk passes the status filter (no status is allowed): nothing is retrieved. "
                   "Allow at least one status.")


class Plan(NamedTuple):
    questions: list      # the questions, checked and stripped
    k: int               # clamped to the number of allowed chunks (0 when none is allowed)
    allowed: tuple | None  # the allowed statuses, sorted; None for no filter
    n_allowed: int       # how many chunks pass the filter
    notes: tuple         # the sentences Index.search_many adds: a clamped k, an empty filter


def plan_search(index: "Index", questions: list[str], k: int, allowed: Iterable[str] | None) -> Plan:
    """Check a search as Index.search_many does: the same errors, the same clamped k, the same notes."""
    questions = [check_question(q) for q in questions]
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or k <= 0:
        raise ValueError(f"k must be a whole number of chunks above 0, got {k!r}.")
    ids = index.allowed_ids(allowed)                      # ValueError for a status the corpus lacks
    statuses = None if allowed is None else tuple(sorted({allowed} if isinstance(allowed, str) else set(allowed)))
    if not len(ids):
        return Plan(questions, 0, statuses, 0, (NOTHING_ALLOWED,))
    where = "pass the filter" if allowed is not None else "exist"
    notes = (f"Asked for {k} chunks but only {len(ids)} {where}: returning {len(ids)}.",) if k > len(ids) else ()
    return Plan(questions, min(int(k), len(ids)), statuses, len(ids), notes)


def nothing(plan: Plan) -> list[SearchResult]:
    """The answer to a search that no chunk may answer: one empty result per question, with the note."""
    return [SearchResult(np.zeros(0, np.int64), np.zeros(0), plan.notes) for _ in plan.questions]


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Positions of the k highest scores, ties in position order: the same as argsort(-s, stable)[:k].

    [0.2, 0.9, 0.2, 0.5], k=3 -> [1, 3, 0]

    On a long array it first takes a floor, the k-th largest of every stride-th score: the floor is
    never above the k-th largest of all. If k scores or more are above it, the answer is among them
    (about sqrt(n * k) of them, in position order); if fewer, the floor IS the k-th largest, and the
    answer is those, then the first scores equal to the floor (ties in position order).
    """
    n = len(scores)
    k = min(k, n)
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    if n <= 4 * k or n < 256:
        return np.argsort(-scores, kind="stable")[:k]
    sample = scores[::max(1, math.isqrt(n // k))]                     # >= k values, a view
    floor = np.partition(sample, len(sample) - k)[len(sample) - k]
    above = np.flatnonzero(scores > floor)                             # (n_above,) in position order
    if len(above) < k:
        ties = np.flatnonzero(scores == floor)[: k - len(above)]
        return np.concatenate([above[np.lexsort((above, -scores[above]))], ties])
    if len(above) <= n // 2:
        return above[top_k(scores[above], k)]
    return _top_k_by_partition(scores, k)                             # a floor far too low: select directly


def _top_k_by_partition(scores: np.ndarray, k: int) -> np.ndarray:
    """top_k through the exact k-th largest value (np.partition), for arrays with many equal scores."""
    n = len(scores)
    kth = np.partition(scores, n - k)[n - k]                          # the k-th largest value
    above = np.flatnonzero(scores > kth)
    ties = np.flatnonzero(scores == kth)[: k - len(above)]
    sel = np.concatenate([above, ties])
    return sel[np.lexsort((sel, -scores[sel]))]


def _pieces(tc: TokenizedCorpus, chunker: ChunkerConfig) -> tuple[list, np.ndarray, np.ndarray, np.ndarray]:
    """(texts, doc, start, end) of every chunk, document by document, from the chunker itself."""
    texts, doc, start, end = [], [], [], []
    for d_pos, d in enumerate(tc.corpus.documents):
        for piece in chunker.split(d.text):
            texts.append(piece.text)
            doc.append(d_pos)
            start.append(piece.start)
            end.append(piece.end)
    return texts, np.array(doc, dtype=np.int64), np.array(start, dtype=np.int64), np.array(end, dtype=np.int64)


def _fixed_pieces(tc: TokenizedCorpus, chunker: ChunkerConfig) -> tuple[list, np.ndarray, np.ndarray, np.ndarray]:
    """What _pieces gives for a fixed window, without a Python join per chunk.

    The spans come from fixed_window_spans; a chunk's text " ".join(tokens[start:end]) is the slice
    of the document's normalised text between the first character of token start and the space
    before token end.
    """
    n_tokens = np.diff(tc.token_base)
    doc, start, end = fixed_window_spans(n_tokens, chunker.size, chunker.overlap)
    first, last = tc.char_span(doc, start, end)
    norm, docs = tc.normalized, tc.corpus.documents
    texts = [norm[d][a:b] if n else docs[d].text            # an empty document is one chunk, as fixed_window
             for d, a, b, n in zip(doc.tolist(), first.tolist(), last.tolist(), n_tokens[doc].tolist())]
    return texts, doc, start, end


def chunk_pieces(tc: TokenizedCorpus, chunker: ChunkerConfig) -> dict:
    """The chunks of a chunker as the Index fields that every retriever shares: texts, doc, start, end, lo, hi."""
    texts, doc, start, end = (_fixed_pieces if chunker.kind == "fixed" else _pieces)(tc, chunker)
    lo, hi = tc.word_position(doc, start).astype(np.int64), tc.word_position(doc, end).astype(np.int64)
    return {"tc": tc, "chunker": chunker, "texts": texts, "doc": doc, "start": start, "end": end, "lo": lo, "hi": hi}


@dataclass
class Index:
    """The article's index: chunks encoded by the hashing encoder. Other retrievers subclass it (see retrievers)."""
    retriever: ClassVar[str] = "hashing"
    tc: TokenizedCorpus
    chunker: ChunkerConfig
    texts: list               # chunk id -> text
    doc: np.ndarray           # chunk id -> document position in the corpus
    start: np.ndarray         # chunk id -> first word (whitespace token) in its document
    end: np.ndarray           # chunk id -> one past the last word
    lo: np.ndarray            # chunk id -> its first position in tc.word_ids
    hi: np.ndarray            # chunk id -> one past its last position in tc.word_ids
    encoder: HashingEncoder | None = None    # the hashing encoder and its matrix (None for other retrievers)
    matrix: SparseMatrix | None = None
    reranker: str = "lexical"                # what `retrieve(..., rerank=True)` uses: "lexical" or "dense"
    embedder: object = None                  # the trained encoder's vectors (vectors.Embedder), for "dense"
    engine: object = None                    # who runs the search (engines.SearchEngine); None: this index, here

    @classmethod
    def build(cls, tc: TokenizedCorpus, chunker: ChunkerConfig, dim: int = 1024) -> "Index":
        pieces = chunk_pieces(tc, chunker)
        enc = HashingEncoder(tc.tokenizer, dim)
        matrix = enc.fit_chunks(tc.word_ids, pieces["lo"], pieces["hi"])
        return cls(**pieces, encoder=enc, matrix=matrix)

    def pieces(self) -> dict:
        """This index's chunks, to build another retriever's index on them without cutting them again."""
        return {f: getattr(self, f) for f in ("tc", "chunker", "texts", "doc", "start", "end", "lo", "hi")}

    def with_reranker(self, reranker: str, embedder=None) -> "Index":
        """The same index (arrays shared) whose `retrieve(..., rerank=True)` uses `reranker`."""
        if reranker == self.reranker and (embedder is None or embedder is self.embedder):
            return self
        return dataclasses.replace(self, reranker=reranker, embedder=embedder or self.embedder)

    def on(self, engine) -> "Index":
        """The same index (arrays shared) whose searches run on `engine` (engines.SearchEngine); None or the
        in-process engine: here."""
        engine = None if engine is None or getattr(engine, "name", "") == "memory" else engine
        return self if engine is self.engine else dataclasses.replace(self, engine=engine)

    def scores_many(self, questions: list[str], allowed: np.ndarray | None = None) -> Iterator[np.ndarray]:
        """(n_chunks,) float64 scores of every chunk, per question; higher is better.

        `allowed` (the ids that pass the filter, None for all) matters only to a retriever that ranks
        within the allowed chunks (hybrid); the others score every chunk and the search rules the rest out.
        """
        for q in questions:
            yield self.matrix.scores(self.encoder.encode_query(q))

    # --- what a chunk is -------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.texts)

    @property
    def documents(self):
        return self.tc.corpus.documents

    def doc_id(self, chunk: int) -> str:
        return self.documents[self.doc[chunk]].id

    def status(self, chunk: int) -> str:
        return self.documents[self.doc[chunk]].status

    def title(self, chunk: int) -> str:
        """Where the chunk sits: its document's id and the heading above it (data.sections.section_title)."""
        doc = self.documents[self.doc[chunk]]
        return section_title(doc.id, doc.text, self.texts[chunk])

    def chunk_number(self, chunk: int) -> int:
        """1-based position of the chunk within its document, as the Corpus viewer numbers them."""
        return int(chunk - np.searchsorted(self.doc, self.doc[chunk])) + 1

    def statuses(self) -> np.ndarray:
        """Chunk id -> status string."""
        per_doc = np.array([d.status for d in self.documents], dtype=object)
        return per_doc[self.doc]

    # --- search ----------------------------------------------------------------------------
    def allowed_ids(self, allowed: Iterable[str] | None) -> np.ndarray:
        """Chunk ids whose status is allowed (all chunks for None); ValueError for a status the corpus lacks."""
        return self._filter(allowed)[0]

    @functools.cached_property
    def _known_statuses(self) -> frozenset:
        return frozenset(self.tc.corpus.statuses)

    @functools.cached_property
    def _filters(self) -> dict:
        return {}                          # frozenset of statuses -> (allowed ids, excluded ids)

    def _filter(self, allowed: Iterable[str] | None) -> tuple[np.ndarray, np.ndarray]:
        """(allowed ids, excluded ids) of a status filter, remembered per set of statuses."""
        if allowed is None:
            return np.arange(len(self)), np.zeros(0, dtype=np.int64)
        if isinstance(allowed, str):
            allowed = {allowed}
        key = frozenset(allowed)
        unknown = sorted(key - self._known_statuses)
        if unknown:
            raise ValueError(f"Unknown status {', '.join(map(repr, unknown))}: this corpus has "
                             f"{', '.join(sorted(self._known_statuses))}. Pick among those.")
        if key not in self._filters:
            keep = np.isin(self.statuses(), list(key))
            self._filters[key] = (np.flatnonzero(keep), np.flatnonzero(~keep))
        return self._filters[key]

    def search(self, question: str, k: int, allowed: Iterable[str] | None = None) -> SearchResult:
        """The k chunks most similar to the question among the allowed ones (filter first, then rank)."""
        return self.search_many([question], k, allowed)[0]

    def search_many(self, questions: list[str], k: int, allowed: Iterable[str] | None = None) -> list[SearchResult]:
        """`search` for several questions, on this index's engine (here, unless `on` named another)."""
        if self.engine is not None:
            return self.engine.search_many(self, questions, k, allowed)
        return self.search_here(questions, k, allowed)

    def search_here(self, questions: list[str], k: int, allowed: Iterable[str] | None = None) -> list[SearchResult]:
        """`search_many` in this process: each question reads only the postings of its own buckets."""
        plan = plan_search(self, questions, k, allowed)
        if not plan.k:
            return nothing(plan)
        idx, excluded = self._filter(allowed)
        out = []
        for scores in self.scores_many(plan.questions, idx if allowed is not None else None):   # (n_chunks,) float64
            if len(excluded) <= len(idx):   # mostly allowed: rule the others out in place
                scores[excluded] = -np.inf
                best = top_k(scores, plan.k)     # k <= len(idx), so never an excluded chunk
            else:                           # mostly excluded: rank the allowed ones only
                best = idx[top_k(scores[idx], plan.k)]
            out.append(SearchResult(best, scores[best], plan.notes))
        return out
