"""The search-engine interface: who runs `Index.search_many` (the in-process index, or PostgreSQL + pgvector).

    engine = MemoryEngine()                        # or PostgresEngine(url)
    res = engine.search_many(index, ["default cutoff of get_close_matches?"], k=50, allowed={"current"})
    res[0].ids, res[0].scores, res[0].notes        # exactly what index.search_many would give

Every engine keeps Index.search_many's contract, to the letter:
    the questions are checked (`check_question`), k must be a whole number above 0;
    the filter runs BEFORE ranking: only allowed chunks compete, k is clamped to how many pass, with a note;
    an empty allowed set returns nothing and says so (it never falls back to every chunk);
    ties are broken by chunk order.
`index.plan_search`, the one plan every engine and the in-process search share, does the checks and the clamping,
so that every engine only ranks.

Left out on purpose: how an engine stores vectors (see spaces.py: each retriever as inner products).
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

from rag_core.retrieval.index import Index, SearchResult
from rag_core.retrieval.index import nothing, plan_search  # noqa: F401  (every engine's plan, with the Index contract)
from rag_core.text.credentials import mask_secrets

ENV = "OPENBOOK_DATABASE_URL"          # where an engine that needs a database finds its URL when none is given
class EngineError(ValueError):
    """An engine that cannot answer. The message says what happened and what to do; it never holds a password
    (text.mask_secrets runs over every message)."""

    def __init__(self, message: object = "", *args):
        super().__init__(mask_secrets(str(message)), *args)


def rank(ids: np.ndarray, scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k best (ids, scores) by score, ties in chunk order.

    ids [7, 2, 5], scores [0.5, 0.9, 0.5], k=2 -> ids [2, 5], scores [0.9, 0.5]
    """
    order = np.lexsort((ids, -scores))[:k]
    return ids[order].astype(np.int64), scores[order]


class SearchEngine:
    """Runs searches over an Index. Subclasses set `name` and implement `search_many`."""
    name = ""

    def search_many(self, index: Index, questions: list[str], k: int,
                    allowed: Iterable[str] | None = None) -> list[SearchResult]:
        raise NotImplementedError

    def search(self, index: Index, question: str, k: int, allowed: Iterable[str] | None = None) -> SearchResult:
        return self.search_many(index, [question], k, allowed)[0]

    def describe(self) -> str:
        """One line for a page or a log: which engine, where (never a password)."""
        return self.name

    def close(self) -> None:
        """Release what the engine holds (connections); searching again reopens them."""


def overlap_with_exact(exact: SearchEngine, approximate: SearchEngine, index: Index, questions: list[str],
                       k: int, allowed: Iterable[str] | None = None) -> float:
    """Mean over the questions of |approximate top k & exact top k| / |exact top k| (questions with none left out).

    1.0 means the approximate engine found every chunk of the exact top k; NaN when no question has any.
    """
    shares = []
    for a, e in zip(approximate.search_many(index, questions, k, allowed), exact.search_many(index, questions, k, allowed)):
        if len(e.ids):
            shares.append(len(np.intersect1d(a.ids, e.ids)) / len(e.ids))
    return float(np.mean(shares)) if shares else float("nan")
