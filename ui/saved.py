"""The store of saved datasets and runs (rag_core.store), as this server's settings choose it.

Left out on purpose: what is saved and when (the pages and `ui.datasets`), and the SQL (rag_core.store).
"""
from __future__ import annotations

import os

from rag_core.retrieval.engines import registry        # names the engines; psycopg only when one is made
from ui import cache


def store():
    """The store of saved datasets and runs (rag_core.store): the SQLite file in the data folder, one that keeps
    nothing when that is off, or the PostgreSQL database (OPENBOOK_STORE=postgres, OPENBOOK_DATABASE_URL, set for
    the server: several dashboards then share it). A store that cannot be used (a damaged file, a database that
    is down) raises ValueError with the fix; pages show it."""
    from rag_core.datadir import ENV
    from rag_core.store import STORE_ENV
    return cache.store(tuple(os.environ.get(k) for k in (ENV, STORE_ENV, registry.ENV)))
