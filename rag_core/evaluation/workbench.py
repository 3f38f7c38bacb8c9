"""A corpus and a golden set, tokenized and checked once, with one index per chunker and retriever built on demand.

    wb = Workbench.bundled()                       # the article's corpus, notes and questions; hashing + lexical
    ix = wb.index(ChunkerConfig("fixed", 160, 32))
    ranks = wb.anchor_ranks(ChunkerConfig("fixed", 160, 32), k=50)
    dense = wb.using(retriever="minilm", reranker="dense", on_progress=lambda done, total, what: print(what))
    on_pg = wb.connected("postgresql://...").using(engine="postgres")     # the same tables, searched by PostgreSQL
    on_ray = wb.encoding_with(Embedder.default().using(compute.encoder()))  # the same, encoded on a Ray cluster

Everything the tables and the dashboard compute goes through here, so a corpus is tokenized once
and an index is built once per chunker and retriever. `using` gives a sibling with other retrieval
options that shares the corpus, its tokens, the golden check, the trusted statuses and every index and
ranking already computed (each remembered under its options). It is safe to share between threads: every
memo is filled under one re-entrant lock, so two threads asking for the same thing compute it once.

The trained encoder's chunk vectors outlive the process (see retrieval.vectors); a question is checked
against them in memory. Its forward pass (retrieval.encoder_path): the numpy reference on the bundled corpus and the
stdlib snapshot (the pack holds their vectors), the fast path on any other, unless OPENBOOK_ENCODER says otherwise.
Retrievers and rerankers: see retrieval.retrievers.

The engine (retrieval.engines: memory, postgres, postgres-hnsw) is who runs every search: `index()` hands
out the in-process index bound to it (`Index.on`), so the tables, Ask and compare all search there. Indexes
and rankings are remembered per engine and database; the database URL (`connected`, else
$OPENBOOK_DATABASE_URL) is not a retrieval option, so it never appears in a setup or a link.

Trusted statuses: the ones chosen (`trusted=`, `trusting`), else `current` when the corpus has it, else none.
A corpus without a `current` document trusts nothing until someone chooses (a drafts-only upload never gives a
green answer by default); `trust_note` says so in plain words, and the status filter then keeps nothing.

Left out on purpose: saving indexes (they are rebuilt from the corpus and the cached vectors).
"""
from __future__ import annotations

import copy
import threading
from typing import Callable, Iterable

import numpy as np

from rag_core.retrieval.chunkers import ChunkerConfig
from rag_core.data.corpus import BUILT_HERE, Corpus, bundled_corpus
from rag_core.data.golden import GoldenCheck, check_golden, load_golden
from rag_core.retrieval.engines.registry import check_engine, database_url, shared
from rag_core.retrieval.index import Index
from rag_core.retrieval.retrievers import build_index, check_choice
from rag_core.retrieval.tokenized import TokenizedCorpus
from rag_core.evaluation.metrics import anchor_holders, first_hit_ranks, occurrences_held
from rag_core.retrieval.rerank import rerank_order, rerank_scores_many

ARTICLE_CHUNKER = ChunkerConfig("fixed", 160, 32)
Progress = Callable[[int, int, str], None]      # on_progress(done, total, what is left, in words)
_UNSET = object()


class Workbench:
    def __init__(self, corpus: Corpus, golden_rows: Iterable, trusted: tuple | None = None,
                 retriever: str = "hashing", reranker: str = "lexical", engine: str = "memory", *,
                 database_url: str | None = None, embedder=None, on_progress: Progress | None = None):
        check_choice(retriever, reranker)
        check_engine(engine)
        self.corpus = corpus
        self.tc = TokenizedCorpus(corpus)
        self.golden_check: GoldenCheck = check_golden(list(golden_rows), corpus, self.tc.tokens)
        self.trusted = trusted_statuses(corpus.statuses, trusted)   # what the filter keeps and green may come from
        self.trust_chosen = trusted is not None                      # False: the default rule decided
        self.retriever, self.reranker, self.engine = retriever, reranker, engine
        self.database_url = database_url     # for the postgres engines; None: $OPENBOOK_DATABASE_URL
        self.on_progress = on_progress       # told how many chunks are left while the trained encoder works
        self._embedder = embedder            # vectors.Embedder; the process's default when first needed
        self._indexes: dict[tuple, Index] = {}             # (retriever, reranker, chunker[, engine, url]) -> index
        self._holders: dict[ChunkerConfig, list] = {}
        self._ranked: dict[tuple, tuple[int, list]] = {}   # setting -> (k computed, ids per question)
        self._lock = threading.RLock()

    @classmethod
    def bundled(cls, **options) -> "Workbench":
        return cls(bundled_corpus(), load_golden(), **options)

    def using(self, retriever: str | None = None, reranker: str | None = None, engine: str | None = None,
              on_progress: Progress | None = _UNSET) -> "Workbench":
        """A sibling with these retrieval options (self when nothing changes); it shares the corpus, its tokens,
        the golden check, the trusted statuses, and every index and ranking computed by either of them."""
        retriever = self.retriever if retriever is None else retriever
        reranker = self.reranker if reranker is None else reranker
        engine = self.engine if engine is None else engine
        on_progress = self.on_progress if on_progress is _UNSET else on_progress
        check_choice(retriever, reranker)
        check_engine(engine)
        if (retriever, reranker, engine, on_progress) == (self.retriever, self.reranker, self.engine, self.on_progress):
            return self
        sibling = copy.copy(self)            # the memo dicts and the lock are shared, not copied
        sibling.retriever, sibling.reranker, sibling.engine = retriever, reranker, engine
        sibling.on_progress = on_progress
        return sibling

    def trusting(self, statuses) -> "Workbench":
        """A sibling trusting these statuses (None: the default rule); memos shared (rankings are kept per allowed
        set, so a ranking of one trust is never served for another)."""
        trusted = trusted_statuses(self.corpus.statuses, statuses)
        if (trusted, statuses is not None) == (self.trusted, self.trust_chosen):
            return self
        sibling = copy.copy(self)
        sibling.trusted, sibling.trust_chosen = trusted, statuses is not None
        return sibling

    def trust_note(self) -> str | None:
        """What a page or a report says when nothing is trusted (None when something is): which statuses exist,
        that none is trusted, and what that does to the figures. Where to choose is the caller's to add."""
        if self.trusted:
            return None
        have = ", ".join(self.corpus.statuses)
        why = ("no status is chosen as trusted" if self.trust_chosen else
               "no document has the status 'current', and no status is chosen as trusted yet")
        return (f"Nothing is trusted: {why}. This dataset's statuses: {have}. Until some are trusted, no answer is "
                "green (a grounded answer is 'wrong source') and the status filter keeps nothing: every figure with "
                "the filter is 0.")

    def connected(self, url: str | None) -> "Workbench":
        """A sibling whose postgres engines use this database (None: $OPENBOOK_DATABASE_URL); memos shared."""
        if url == self.database_url:
            return self
        sibling = copy.copy(self)
        sibling.database_url = url
        return sibling

    def encoding_with(self, embedder) -> "Workbench":
        """A sibling whose trained encoder is `embedder` (e.g. the same caches, encoding on a Ray cluster:
        `Embedder.using`); memos shared, since where vectors are computed changes none of them."""
        if embedder is self._embedder:
            return self
        sibling = copy.copy(self)
        sibling._embedder = embedder
        return sibling

    @property
    def search_engine(self):
        """The engine that runs this workbench's searches (the process's one for its name and database)."""
        return shared(self.engine, self.database_url)

    def _engine_key(self) -> tuple:
        """What tells this workbench's engine apart in the memos: () for the in-process one."""
        return () if self.engine == "memory" else (self.engine, database_url(self.database_url))

    def with_golden(self, golden_rows: Iterable) -> "Workbench":
        """A sibling asking other golden questions of the same corpus (indexes shared, rankings its own)."""
        sibling = copy.copy(self)
        sibling.golden_check = check_golden(list(golden_rows), self.corpus, self.tc.tokens)
        sibling._holders, sibling._ranked = {}, {}
        return sibling

    @property
    def embedder(self):
        """The trained encoder with its vector cache (vectors.Embedder), shared by the siblings."""
        with self._lock:
            if self._embedder is None:             # the process's one for the path (siblings get the same)
                from rag_core.retrieval import encoder_path
                from rag_core.retrieval.vectors import Embedder
                self._embedder = Embedder.default(encoder_path.chosen(bundled=self.corpus.name in BUILT_HERE))
            return self._embedder

    @property
    def questions(self) -> list[str]:
        """The valid golden questions, in order."""
        return [r.question for r in self.golden_check.valid]

    def index(self, chunker: ChunkerConfig = ARTICLE_CHUNKER, on_progress: Progress | None = None) -> Index:
        """The index of this chunker for this workbench's retriever and reranker, built once.

        The trained encoder encodes only the chunks it has never seen (on_progress, or the workbench's, is told
        how many are left); with the dense reranker, every chunk's windows are made ready too, so that a
        question is answered without encoding anything but itself.
        """
        with self._lock:
            key = (self.retriever, self.reranker, chunker)
            if self._engine_key():          # the in-process index, searched by the engine
                bound = key + self._engine_key()
                if bound not in self._indexes:
                    self._indexes[bound] = self.using(engine="memory").index(chunker, on_progress).on(self.search_engine)
                return self._indexes[bound]
            if key not in self._indexes:
                progress = on_progress or self.on_progress
                ix = self._base(self.retriever, chunker, progress)
                if self.reranker == "dense":
                    self.embedder.whole(ix.texts, progress)
                    ix = ix.with_reranker("dense", self.embedder)
                self._indexes[key] = ix
            return self._indexes[key]

    def _base(self, retriever: str, chunker: ChunkerConfig, progress=None) -> Index:
        """The index of a retriever with the lexical reranker; all of a chunker's share the hashing one's chunks."""
        key = (retriever, "lexical", chunker)
        if key not in self._indexes:
            if retriever == "hashing":
                self._indexes[key] = Index.build(self.tc, chunker)
            else:
                like = self._base("hashing", chunker)
                parts = ({r: self._base(r, chunker, progress) for r in ("bm25", "minilm")}
                         if retriever == "hybrid" else None)
                needs_model = retriever in ("minilm", "hybrid")
                self._indexes[key] = build_index(retriever, self.tc, chunker, like,
                                                 self.embedder if needs_model else None, progress, parts)
        return self._indexes[key]

    @property
    def needs_encoder(self) -> bool:
        """Whether this retriever or reranker uses the trained encoder (not hashing or bm25 with the lexical one)."""
        return self.retriever in ("minilm", "hybrid") or self.reranker == "dense"

    def needs(self, chunkers: Iterable[ChunkerConfig]) -> dict:
        """What the trained encoder must hold for these chunkers (nothing unless `needs_encoder`), as the arguments
        of Embedder.prepare: the chunks' texts, their windows too with the dense rerank, and the golden questions."""
        if not self.needs_encoder:
            return {"chunks": [], "whole": [], "questions": []}
        with self._lock:
            texts = list(dict.fromkeys(t for c in chunkers for t in self._base("hashing", c).texts))
        return {"chunks": texts, "whole": texts if self.reranker == "dense" else [], "questions": self.questions}

    def prepare(self, chunkers: Iterable[ChunkerConfig], on_progress: Progress | None = None) -> int:
        """Encode, in one pass with one count, everything these chunkers need from the trained encoder (`needs`):
        chunks, then questions. Returns how many texts were encoded."""
        need = self.needs(chunkers)
        if not any(need.values()):
            return 0
        return self.embedder.prepare(**need, on_progress=on_progress or self.on_progress)

    def top_ids(self, chunker: ChunkerConfig, k: int, allowed=None, rerank: bool = False,
               k_candidates: int = 50) -> list[np.ndarray]:
        """Chunk ids retrieved for each valid question: the retriever's top k, or the top k after reranking.

        Rankings are remembered per setting and served as prefixes: the top 3 is the start of the top 50.
        """
        allowed = {allowed} if isinstance(allowed, str) else allowed
        key = self._ranked_key(chunker, allowed, rerank, k_candidates)
        with self._lock:
            return self._ranked_locked(key, chunker, k, allowed, rerank, k_candidates)

    def _ranked_key(self, chunker: ChunkerConfig, allowed, rerank: bool, k_candidates: int) -> tuple:
        """What a ranking is remembered under: its retrieval options and settings (allowed: a set or None)."""
        return (self.retriever, self.reranker if rerank else None, chunker,
                frozenset(allowed) if allowed is not None else None, rerank, k_candidates if rerank else 0,
                *self._engine_key())

    def has_top_ids(self, chunker: ChunkerConfig, k: int, allowed=None, rerank: bool = False,
                   k_candidates: int = 50) -> bool:
        """Whether `ranked` with these arguments is served from memory, without a search."""
        allowed = {allowed} if isinstance(allowed, str) else allowed
        with self._lock:
            have = self._ranked.get(self._ranked_key(chunker, allowed, rerank, k_candidates))
        return have is not None and have[0] >= k

    def remember_top_ids(self, chunker: ChunkerConfig, k: int, lists: list, allowed=None, rerank: bool = False,
                        k_candidates: int = 50) -> None:
        """Keep rankings computed elsewhere (a Ray worker: evaluation.sweep) as `ranked` keeps its own: lists[q]
        the chunk ids of valid question q, to depth k (k_candidates with rerank, all of them reranked), which
        `ranked` then serves, prefixes too. A deeper ranking already remembered stays."""
        if len(lists) != len(self.golden_check.valid):
            raise ValueError(f"remember_top_ids takes one list of chunk ids per valid golden question "
                             f"({len(self.golden_check.valid)}), got {len(lists)}.")
        allowed = {allowed} if isinstance(allowed, str) else allowed
        key = self._ranked_key(chunker, allowed, rerank, k_candidates)
        with self._lock:
            have = self._ranked.get(key)
            if have is None or have[0] < k:
                self._ranked[key] = (k, [np.asarray(ids) for ids in lists])

    def _ranked_locked(self, key, chunker, k, allowed, rerank, k_candidates) -> list[np.ndarray]:
        have = self._ranked.get(key)
        if have is None or have[0] < k:
            ix = self.index(chunker)
            if rerank:                  # rerank the memoised bi-encoder candidates, keep them all
                depth = k_candidates
                bi = self.top_ids(chunker, k_candidates, allowed)
                lists = [ids[rerank_order(sc)] for ids, sc in zip(bi, rerank_scores_many(ix, self.questions, bi))]
            else:
                depth = k
                lists = [r.ids for r in ix.search_many(self.questions, k, allowed)]
            have = self._ranked[key] = (depth, lists)
        return [ids[:k] for ids in have[1]]

    def overlap_with_exact(self, chunker: ChunkerConfig, k: int, allowed=None) -> float:
        """Recall at k of this workbench's engine against exact in-process search, over the valid golden
        questions: the share of the exact top k it finds (1.0 for an exact engine; NaN without questions)."""
        from rag_core.retrieval.engines.base import overlap_with_exact
        exact = self.using(engine="memory")
        return overlap_with_exact(exact.search_engine, self.search_engine, exact.index(chunker), self.questions, k,
                                  allowed)

    def anchor_ranks(self, chunker: ChunkerConfig, k: int = 50, allowed=None, rerank: bool = False,
              k_candidates: int = 50) -> np.ndarray:
        """Rank of the first chunk holding each valid question's anchor, within the first k (inf if none)."""
        return first_hit_ranks(self.holders(chunker), self.top_ids(chunker, k, allowed, rerank, k_candidates))

    def holders(self, chunker: ChunkerConfig) -> list[set]:
        """For each valid question, the set of ids of the chunks of this chunking that hold its anchor."""
        with self._lock:
            if chunker not in self._holders:
                ix = self._base("hashing", chunker)              # every retriever cuts the same chunks
                self._holders[chunker] = [set(anchor_holders(ix, occ).tolist())
                                          for occ in self.golden_check.occurrences.values()]
            return self._holders[chunker]

    def whole_in_a_chunk(self, chunker: ChunkerConfig) -> list:
        """Per golden row, in file order: True when some chunk holds its anchor whole, False when boundaries
        cut it everywhere, None for an excluded row."""
        held = iter(bool(h) for h in self.holders(chunker))
        excluded = {p.row for p in self.golden_check.problems}
        return [None if i in excluded else next(held) for i in range(len(self.golden_check.rows))]

    def anchors_in(self, chunker: ChunkerConfig, doc: int) -> tuple[list, set]:
        """The golden anchors inside document position `doc` as (first, last) word ranges, and the subset
        that no chunk of this chunker holds whole (cut by a boundary)."""
        with self._lock:
            ix = self._base("hashing", chunker)
        mine = np.flatnonzero(ix.doc == doc)
        pairs = [np.asarray(occ[doc]).reshape(-1, 2) for occ in self.golden_check.occurrences.values() if doc in occ]
        pairs = np.concatenate(pairs) if pairs else np.zeros((0, 2), dtype=np.int64)
        held = occurrences_held(ix.start[mine], ix.end[mine], pairs)
        return list(map(tuple, pairs.tolist())), set(map(tuple, pairs[~held].tolist()))


def trusted_statuses(statuses, chosen=None) -> tuple:
    """The statuses a corpus with `statuses` trusts: the chosen ones (a name or names, each a status of the corpus),
    else 'current' when it has it, else none (a drafts-only corpus trusts nothing until someone chooses).

    ('current', 'draft'), None -> ('current',);  ('draft',), None -> ();  ('draft', 'old'), 'old' -> ('old',)
    """
    if chosen is None:
        return ("current",) if "current" in statuses else ()
    chosen = (chosen,) if isinstance(chosen, str) else tuple(chosen)
    unknown = [s for s in chosen if s not in statuses]
    if unknown:
        raise ValueError(f"No document has the status {', '.join(map(repr, unknown))}: trust some of "
                         f"{', '.join(map(repr, statuses))}, or none.")
    return tuple(dict.fromkeys(chosen))
