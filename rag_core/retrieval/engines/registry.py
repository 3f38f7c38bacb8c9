"""Which engine a name means, and one engine per name and database per process.

    check_engine("postgres-hnsw")             # ValueError for an unknown name, with the known ones
    engine_from("postgres", url)              # a new engine (url, else $OPENBOOK_DATABASE_URL)
    shared("postgres", url)                   # the process's engine for that name and database: its connection
                                              # and its memo of stored indexes serve every session and workbench

Names: memory (the in-process index, exact, the default), postgres (PostgreSQL + pgvector, exact: the same
chunks as memory), postgres-hnsw (PostgreSQL + pgvector with an HNSW index: approximate, its overlap with exact
search measured).
psycopg is imported only when a PostgreSQL engine is made, so the in-process engine costs nothing.

Left out on purpose: closing shared engines (they live as long as the process; a dropped connection is
reopened on the next search) and engine settings other than the defaults (pass them to engine_from).
"""
from __future__ import annotations

import os
import threading

from rag_core.retrieval.engines.base import ENV
from rag_core.retrieval.engines.memory import MemoryEngine

ENGINES = ("memory", "postgres", "postgres-hnsw")
DESCRIPTIONS = {
    "memory": "the in-process index: exact, nothing to install",
    "postgres": "PostgreSQL + pgvector, exact: the same chunks as the in-process index, found by the database",
    "postgres-hnsw": "PostgreSQL + pgvector with an HNSW index: approximate (faster on large corpora), "
                     "its overlap with exact search is shown",
}
OVERLAP_K = 20          # an approximate engine's overlap with exact search, at the candidates handed to the reranker
_SHARED: dict = {}
_LOCK = threading.Lock()


def check_engine(name) -> str:
    if name not in ENGINES:
        raise ValueError(f"Unknown search engine {name!r}: use {', '.join(ENGINES)}.")
    return name


def database_url(url: str | None = None, env=None) -> str:
    """The URL given, else $OPENBOOK_DATABASE_URL, else ''."""
    if url and url.strip():
        return url.strip()
    return (os.environ if env is None else env).get(ENV, "").strip()


def engine_from(name: str = "memory", url: str | None = None, env=None, **settings):
    """A new engine of this name (a PostgresEngine reads url, else $OPENBOOK_DATABASE_URL; EngineError if none)."""
    check_engine(name)
    if name == "memory":
        return MemoryEngine()
    from rag_core.retrieval.engines.postgres import PostgresEngine   # psycopg: only when one is made
    return PostgresEngine(database_url(url, env), approximate=name == "postgres-hnsw", **settings)


def shared(name: str = "memory", url: str | None = None):
    """The process's engine for this name and database, made on first use."""
    key = (check_engine(name), database_url(url) if name != "memory" else "")
    with _LOCK:
        if key not in _SHARED:
            _SHARED[key] = engine_from(name, key[1] or None)
        return _SHARED[key]
