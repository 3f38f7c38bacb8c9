"""Search engines: who runs a search over an index. `memory` (the in-process index, the default),
`postgres` (PostgreSQL + pgvector, exact) and `postgres-hnsw` (approximate). Only re-exports; PostgresEngine
(and psycopg with it) is imported on first use, so the in-process engine costs nothing."""
from rag_core.retrieval.engines.base import EngineError, SearchEngine, overlap_with_exact
from rag_core.retrieval.engines.memory import MemoryEngine
from rag_core.retrieval.engines.registry import DESCRIPTIONS, ENGINES, ENV, check_engine, engine_from, shared
from rag_core.retrieval.engines.spaces import Vectors, vector_space

__all__ = ["EngineError", "SearchEngine", "overlap_with_exact", "MemoryEngine", "ENV", "PostgresEngine",
           "engine_from", "shared", "check_engine", "Vectors", "vector_space", "ENGINES", "DESCRIPTIONS"]


def __getattr__(name):
    if name == "PostgresEngine":
        from rag_core.retrieval.engines.postgres import PostgresEngine   # psycopg: only on first use
        return PostgresEngine
    raise AttributeError(name)
