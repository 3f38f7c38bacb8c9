"""Search engines: who runs a search over an index. `memory` (the in-process index, the default) and
`postgres` (PostgreSQL + pgvector: exact, or HNSW). Only re-exports."""
from rag_core.retrieval.engines.base import EngineError, SearchEngine, approximate_recall
from rag_core.retrieval.engines.memory import MemoryEngine
from rag_core.retrieval.engines.postgres import ENV, PostgresEngine, engine_from
from rag_core.retrieval.engines.spaces import Vectors, vector_space

ENGINES = ("memory", "postgres")

__all__ = ["EngineError", "SearchEngine", "approximate_recall", "MemoryEngine", "ENV", "PostgresEngine",
           "engine_from", "Vectors", "vector_space", "ENGINES"]
