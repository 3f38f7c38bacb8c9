"""Indexes stored in PostgreSQL: one table per (dataset content, chunker, retriever), built once with COPY.

    stored = build_or_reuse(conn, index, space, dataset_key, where)   # StoredIndex(..., built=True)
    build_or_reuse(conn, index, space, dataset_key, where).built      # False: the same table, reused
    ensure_hnsw(conn, stored, m=16, ef_construction=64, where=where)  # the approximate index, once

A stored index is a table `openbook_ix_<16 hex>` (chunk_id int4, status text, embedding sparsevec(dim) or
vector(dim)) and a row of the catalog `openbook_indexes`. Its key hashes the dataset's content, the chunker,
the retriever and the digest of the vectors themselves, so a key names one set of numbers: every session
and every process that asks for it reuses the table; a change of any of them makes a new one.

A build is ONE transaction, under an advisory lock on its key: a second process asking for the same index
waits, then finds it built; a build that fails (or a connection that drops) leaves nothing behind.

Left out on purpose: clean-up of old tables (`drop` removes one; nothing is removed on its own), updates in
place (a changed dataset is a new key), partitioning (see the README on Citus).
"""
from __future__ import annotations

import hashlib
import time
from typing import NamedTuple

import numpy as np
import psycopg
from psycopg import sql

from rag_core.retrieval.engines.base import EngineError
from rag_core.retrieval.engines.pgwire import STILL_WORKS, copy_stream

SCHEMA = 1                 # bump when the stored format changes: every key changes with it
HNSW_MAX_NNZ = 1000        # pgvector's HNSW index takes sparse vectors of at most 1,000 non-zero elements
CATALOG = """CREATE TABLE IF NOT EXISTS openbook_indexes (
    key text PRIMARY KEY,                 -- 'ix_' + 16 hex digits; the table is openbook_<key>
    dataset text NOT NULL,                -- content hash of the corpus (documents, their ids and statuses)
    chunker text NOT NULL,                -- e.g. 'fixed 160/32'
    retriever text NOT NULL,              -- e.g. 'hashing-1024'
    vectors text NOT NULL,                -- digest of the stored numbers
    kind text NOT NULL,                   -- 'sparse' (sparsevec) or 'dense' (vector)
    dim int NOT NULL,
    chunks int NOT NULL,
    max_nnz int NOT NULL,                 -- most non-zero elements in one chunk (HNSW takes at most 1,000)
    build_seconds double precision NOT NULL,
    built_at timestamptz NOT NULL DEFAULT now())"""


class StoredIndex(NamedTuple):
    key: str            # 'ix_3f2a...'
    table: str          # 'openbook_ix_3f2a...'
    kind: str           # 'sparse' or 'dense'
    dim: int
    chunks: int
    max_nnz: int
    built: bool         # True when this call built it, False when it was there
    seconds: float      # how long the build took (0 when reused)


def corpus_key(corpus) -> str:
    """The dataset's content hash: 'c-' + 16 hex digits of its documents' ids, statuses and texts, in order."""
    h = hashlib.sha256()
    for d in corpus.documents:
        h.update(f"{len(d.id)}:{d.id}\0{len(d.status)}:{d.status}\0{len(d.text)}:".encode())
        h.update(d.text.encode("utf-8", "surrogatepass"))
    return "c-" + h.hexdigest()[:16]


def chunker_label(chunker) -> str:
    """ChunkerConfig("fixed", 160, 32) -> 'fixed 160/32'."""
    return f"{chunker.kind} {chunker.size}/{chunker.overlap}"


def lock_id(name: str) -> int:
    """A signed 64-bit advisory-lock number for a name."""
    return int.from_bytes(hashlib.sha256(f"openbook:{name}".encode()).digest()[:8], "big", signed=True)


def ensure_schema(conn: psycopg.Connection, where: str) -> None:
    """The `vector` extension and the catalog, created if missing (once, under a lock); EngineError if not allowed."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_id("schema"),))
        if not conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone():
            if not conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone():
                raise EngineError(f"{where} has no pgvector: the 'vector' extension is not installed on that server. "
                                  f"Install pgvector there (e.g. the postgresql-18-pgvector package). {STILL_WORKS}")
            try:
                with conn.transaction():
                    conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            except psycopg.errors.InsufficientPrivilege:
                db, user = conn.info.dbname, conn.info.user
                raise EngineError(f"{where}: database '{db}' has no 'vector' extension and user '{user}' may not create "
                                  f"it. Ask an administrator to run CREATE EXTENSION vector; in database '{db}'. "
                                  f"{STILL_WORKS}") from None
        try:
            with conn.transaction():
                conn.execute(CATALOG)
        except psycopg.errors.InsufficientPrivilege:
            raise EngineError(f"{where}: user '{conn.info.user}' may not create tables in database "
                              f"'{conn.info.dbname}'. Grant it CREATE on schema public, or use another database. "
                              f"{STILL_WORKS}") from None


def build_or_reuse(conn: psycopg.Connection, index, space, dataset_key: str, where: str) -> StoredIndex:
    """The stored table of this index, built now (one transaction, COPY) unless it is there already."""
    v = space.chunk_vectors()
    digest = v.digest()
    key = "ix_" + hashlib.sha256(f"{SCHEMA}\0{dataset_key}\0{chunker_label(index.chunker)}\0{space.key}\0"
                                 f"{digest}".encode()).hexdigest()[:16]
    table = "openbook_" + key
    nnz = np.diff(v.ptr) if v.kind == "sparse" else np.full(v.n, v.dim)
    max_nnz = int(nnz.max(initial=0))
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_id(key),))
        row = conn.execute("SELECT chunks FROM openbook_indexes WHERE key = %s AND to_regclass(%s) IS NOT NULL",
                           (key, table)).fetchone()
        if row and row[0] == v.n:
            return StoredIndex(key, table, v.kind, v.dim, v.n, max_nnz, False, 0.0)
        t0 = time.perf_counter()
        t = sql.Identifier(table)
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(t))
        conn.execute("DELETE FROM openbook_indexes WHERE key = %s", (key,))
        vec_type = sql.SQL("sparsevec({})" if v.kind == "sparse" else "vector({})").format(sql.Literal(v.dim))
        conn.execute(sql.SQL("CREATE TABLE {} (chunk_id int4 NOT NULL, status text NOT NULL, embedding {} NOT NULL)")
                     .format(t, vec_type))
        statuses = index.statuses().tolist()
        with conn.cursor().copy(sql.SQL("COPY {} (chunk_id, status, embedding) FROM STDIN (FORMAT BINARY)").format(t)) as cp:
            for part in copy_stream(np.arange(v.n), statuses, v):
                cp.write(part)
        conn.execute(sql.SQL("ANALYZE {}").format(t))
        seconds = time.perf_counter() - t0
        conn.execute("INSERT INTO openbook_indexes (key, dataset, chunker, retriever, vectors, kind, dim, chunks, "
                     "max_nnz, build_seconds) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                     (key, dataset_key, chunker_label(index.chunker), space.key, digest, v.kind, v.dim, v.n,
                      max_nnz, seconds))
    return StoredIndex(key, table, v.kind, v.dim, v.n, max_nnz, True, seconds)


def hnsw_name(stored: StoredIndex, m: int, ef_construction: int) -> str:
    return f"{stored.table}_hnsw_m{m}_ef{ef_construction}"


def ensure_hnsw(conn: psycopg.Connection, stored: StoredIndex, m: int, ef_construction: int, where: str) -> bool:
    """The HNSW index (inner product) on a stored table, built once under a lock; True when built by this call."""
    name = hnsw_name(stored, m, ef_construction)
    if conn.execute("SELECT to_regclass(%s)", (name,)).fetchone()[0]:
        return False
    if stored.kind == "sparse" and stored.max_nnz > HNSW_MAX_NNZ:
        raise EngineError(f"{where}: approximate mode cannot index this chunking: a chunk has {stored.max_nnz:,} "
                          f"non-zero elements and pgvector's HNSW takes at most {HNSW_MAX_NNZ:,}. Use exact mode, "
                          "or smaller chunks.")
    ops = sql.SQL("sparsevec_ip_ops" if stored.kind == "sparse" else "vector_ip_ops")
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_id(name),))
        if conn.execute("SELECT to_regclass(%s)", (name,)).fetchone()[0]:
            return False
        conn.execute("SELECT set_config('maintenance_work_mem', '1GB', true)")     # the graph fits: a fast build
        conn.execute(sql.SQL("CREATE INDEX {} ON {} USING hnsw (embedding {}) WITH (m = {}, ef_construction = {})")
                     .format(sql.Identifier(name), sql.Identifier(stored.table), ops, sql.Literal(int(m)),
                             sql.Literal(int(ef_construction))))
    return True


def sizes(conn: psycopg.Connection, stored: StoredIndex) -> dict:
    """Bytes on disk: the table (with its TOAST), its indexes (HNSW), and the whole database."""
    t, i, d = conn.execute("SELECT pg_table_size(%s), pg_indexes_size(%s), pg_database_size(current_database())",
                           (stored.table, stored.table)).fetchone()
    return {"table_bytes": t, "hnsw_bytes": i, "database_bytes": d}


def catalog(conn: psycopg.Connection) -> list[dict]:
    """Every stored index, newest first: key, dataset, chunker, retriever, chunks, built_at, bytes (table + HNSW)."""
    if not conn.execute("SELECT to_regclass('openbook_indexes')").fetchone()[0]:
        return []
    rows = conn.execute("SELECT key, dataset, chunker, retriever, chunks, built_at, "
                        "coalesce(pg_table_size(to_regclass('openbook_' || key)), 0) "
                        "+ coalesce(pg_indexes_size(to_regclass('openbook_' || key)), 0) "
                        "FROM openbook_indexes ORDER BY built_at DESC, key").fetchall()
    names = ("key", "dataset", "chunker", "retriever", "chunks", "built_at", "bytes")
    return [dict(zip(names, r)) for r in rows]


def drop(conn: psycopg.Connection, key: str | None = None, dataset: str | None = None) -> int:
    """Drop one stored index (by key), a dataset's (by its corpus_key), or every one (neither); how many were."""
    if not conn.execute("SELECT to_regclass('openbook_indexes')").fetchone()[0]:
        return 0
    with conn.transaction():
        keys = [r[0] for r in conn.execute("SELECT key FROM openbook_indexes WHERE (%(k)s::text IS NULL OR key = %(k)s) "
                                           "AND (%(d)s::text IS NULL OR dataset = %(d)s)",
                                           {"k": key, "d": dataset}).fetchall()]
        for k in keys:
            conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier("openbook_" + k)))
        conn.execute("DELETE FROM openbook_indexes WHERE key = ANY(%s)", (keys,))
    return len(keys)
