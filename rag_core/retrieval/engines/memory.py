"""The in-process engine, the default: the index searches itself (Index.search_here), nothing to install.

    MemoryEngine().search_many(index, ["How does bisect work?"], k=5, allowed={"current"})

Left out on purpose: everything; this is the reference the other engines are checked against.
"""
from __future__ import annotations

from typing import Iterable

from rag_core.retrieval.engines.base import SearchEngine
from rag_core.retrieval.index import Index, SearchResult


class MemoryEngine(SearchEngine):
    name = "memory"

    def search_many(self, index: Index, questions: list[str], k: int,
                    allowed: Iterable[str] | None = None) -> list[SearchResult]:
        return index.search_here(questions, k, allowed)

    def describe(self) -> str:
        return "in-process index (exact)"
