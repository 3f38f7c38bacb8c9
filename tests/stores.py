"""The store's test data and its two backends, for the round trips that run on both: a test marked `BOTH_BACKENDS`
runs once on a SQLite file and once on the session's PostgreSQL (marked postgres), through a module's `store`
fixture that calls `open_store`. The SQL is written once; the two backends must agree on it.

Left out: what only one backend does (damaged files, a server that stops): those tests stay with their backend.
"""
from pathlib import Path

import pytest

from rag_core import Document, GoldenRow
from rag_core.evaluation.losses import QuestionResult
from rag_core.store import FILE_NAME, Store

ROOT = Path(__file__).resolve().parents[1]
DOCS = (Document("a.txt", "The launch code for the rocket is 7741."), Document("b.md", "A draft.", "draft"))
GOLDEN = (GoldenRow("What is the launch code?", "a.txt", "launch code for the rocket is 7741"),)
RESULT = QuestionResult("What is the launch code?", "a.txt", 1, 1, "answered", False, "answered",
                        "The launch code for the rocket is 7741 [S1].", "Every claim is in S1.", 0.01)

BOTH_BACKENDS = pytest.mark.parametrize("store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
                                        indirect=True)


def open_store(request, tmp_path) -> Store:
    """A SQLite store in tmp_path, or, for a test of BOTH_BACKENDS on "postgres", the store in the server's
    `postgres` database, emptied."""
    if getattr(request, "param", "sqlite") == "sqlite":
        return Store(tmp_path / FILE_NAME)
    pg = request.getfixturevalue("pg")
    store = Store.postgres(pg.url())
    store.delete_all()
    return store
