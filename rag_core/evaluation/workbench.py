"""A corpus and a golden set, tokenized and checked once, with one index per chunker built on demand.

    wb = Workbench.bundled()                       # the article's corpus, notes and questions
    ix = wb.index(ChunkerConfig("fixed", 160, 32))
    ranks = wb.ranks(ChunkerConfig("fixed", 160, 32), k=50)

Everything the tables and the dashboard compute goes through here, so a corpus is tokenized once
and an index is built once per chunker. It is safe to share between threads: every memo (indexes, rankings,
anchor holders) is filled under one re-entrant lock, so two threads asking for the same thing compute it once.

Left out on purpose: persistence. Indexes live in memory and are rebuilt from the corpus.
"""
from __future__ import annotations

import threading
from typing import Iterable

import numpy as np

from rag_core.retrieval.chunkers import ChunkerConfig
from rag_core.data.corpus import Corpus, bundled_corpus, stdlib_corpus
from rag_core.data.golden import GoldenCheck, check_golden, load_golden
from rag_core.retrieval.index import Index
from rag_core.retrieval.tokenized import TokenizedCorpus
from rag_core.evaluation.metrics import anchor_holders, first_hit_ranks
from rag_core.retrieval.rerank import rerank_order, rerank_scores_many

ARTICLE_CHUNKER = ChunkerConfig("fixed", 160, 32)


class Workbench:
    def __init__(self, corpus: Corpus, golden_rows: Iterable, trusted: tuple | None = None):
        self.corpus = corpus
        self.tc = TokenizedCorpus(corpus)
        self.check: GoldenCheck = check_golden(list(golden_rows), corpus, self.tc.tokens)
        statuses = corpus.statuses
        # statuses the filter keeps: "current" when the corpus has it, else its first status
        trusted = (trusted,) if isinstance(trusted, str) else trusted
        self.trusted = tuple(trusted) if trusted else (("current",) if "current" in statuses else statuses[:1])
        self._indexes: dict[ChunkerConfig, Index] = {}
        self._holders: dict[ChunkerConfig, list] = {}
        self._ranked: dict[tuple, tuple[int, list]] = {}   # setting -> (k computed, ids per question)
        self._lock = threading.RLock()

    @classmethod
    def bundled(cls) -> "Workbench":
        return cls(bundled_corpus(), load_golden())

    @classmethod
    def stdlib(cls, modules=None) -> "Workbench":
        return cls(stdlib_corpus(*([modules] if modules else [])), load_golden())

    @property
    def questions(self) -> list[str]:
        """The valid golden questions, in order."""
        return [r.question for r in self.check.valid]

    def index(self, chunker: ChunkerConfig = ARTICLE_CHUNKER) -> Index:
        with self._lock:
            if chunker not in self._indexes:
                self._indexes[chunker] = Index.build(self.tc, chunker)
            return self._indexes[chunker]

    def ranked(self, chunker: ChunkerConfig, k: int, allowed=None, rerank: bool = False,
               k_candidates: int = 50) -> list[np.ndarray]:
        """Chunk ids retrieved for each valid question: bi-encoder top k, or the top k after reranking.

        Rankings are remembered per setting and served as prefixes: the top 3 is the start of the top 50.
        """
        allowed = {allowed} if isinstance(allowed, str) else allowed
        key = (chunker, frozenset(allowed) if allowed is not None else None, rerank, k_candidates if rerank else 0)
        with self._lock:
            return self._ranked_locked(key, chunker, k, allowed, rerank, k_candidates)

    def _ranked_locked(self, key, chunker, k, allowed, rerank, k_candidates) -> list[np.ndarray]:
        have = self._ranked.get(key)
        if have is None or have[0] < k:
            ix = self.index(chunker)
            if rerank:                  # rerank the memoised bi-encoder candidates, keep them all
                depth = k_candidates
                bi = self.ranked(chunker, k_candidates, allowed)
                lists = [ids[rerank_order(sc)] for ids, sc in zip(bi, rerank_scores_many(ix, self.questions, bi))]
            else:
                depth = k
                lists = [r.ids for r in ix.search_many(self.questions, k, allowed)]
            have = self._ranked[key] = (depth, lists)
        return [ids[:k] for ids in have[1]]

    def ranks(self, chunker: ChunkerConfig, k: int = 50, allowed=None, rerank: bool = False,
              k_candidates: int = 50) -> np.ndarray:
        """Rank of the first chunk holding each valid question's anchor, within the first k (inf if none)."""
        return first_hit_ranks(self.holders(chunker), self.ranked(chunker, k, allowed, rerank, k_candidates))

    def holders(self, chunker: ChunkerConfig) -> list[set]:
        """For each valid question, the set of ids of the chunks of this chunking that hold its anchor."""
        with self._lock:
            if chunker not in self._holders:
                ix = self.index(chunker)
                self._holders[chunker] = [set(anchor_holders(ix, occ).tolist())
                                          for occ in self.check.occurrences.values()]
            return self._holders[chunker]

    def whole_in_a_chunk(self, chunker: ChunkerConfig) -> list:
        """Per golden row, in file order: True when some chunk holds its anchor whole, False when boundaries
        cut it everywhere, None for an excluded row."""
        held = iter(bool(h) for h in self.holders(chunker))
        excluded = {p.row for p in self.check.problems}
        return [None if i in excluded else next(held) for i in range(len(self.check.rows))]

    def anchors_in(self, chunker: ChunkerConfig, doc: int) -> tuple[list, set]:
        """The golden anchors inside document position `doc` as (first, last) word ranges, and the subset
        that no chunk of this chunker holds whole (cut by a boundary)."""
        ix = self.index(chunker)
        mine = np.flatnonzero(ix.doc == doc)
        spans = list(zip(ix.start[mine].tolist(), ix.end[mine].tolist()))
        anchors = [r for occ in self.check.occurrences.values() for r in occ.get(doc, [])]
        cut = {(a, b) for a, b in anchors if not any(s <= a and b < e for s, e in spans)}
        return anchors, cut
