"""PostgreSQL + pgvector as the search engine: the same top k as the in-process index, or HNSW when asked.

    engine = PostgresEngine("postgresql://ann:s3cret@db/openbook")           # exact
    engine.search_many(index, questions, k=50, allowed={"current"})         # == index.search_many(...)
    fast = PostgresEngine(url, approximate=True, ef_search=100)              # HNSW, overlap with exact search measured

Exact mode. pgvector's `<#>` is the negative inner product in float32; the index sums in float64. So the SQL
only proposes: it returns the allowed chunks ordered by `embedding <#> q, chunk_id` (the filter is in the
WHERE, before ranking; the scan is sequential, never the approximate index), k plus a margin of them with
their stored vectors, and they are re-scored in float64 exactly as the index scores (spaces.py) and re-ranked,
ties in chunk order. That is provably the index's top k when the fetched rows end below the k-th float32
score by more than twice the rounding bound E (spaces.dot_error): a row left out scores below p_last + E, and
the k-th best scores at least p_k - E. When that gap is not there (ties, many near-equal scores), every
allowed row within 2E of the k-th score is fetched and re-scored too.

Approximate mode: an HNSW index (sparsevec_ip_ops / vector_ip_ops), iterative scans so that a filter that
leaves few chunks still fills k, and hnsw.ef_search set on the engine's own connection (again after every
reconnect); statements are never prepared, so a setting always reaches the plan (psycopg would otherwise keep
the plan of a statement run 5 times). It fetches max(k, ef_search) rows (the candidates the graph
search keeps anyway); they are re-scored like the exact ones and the best k kept.

Failures become EngineError (pgwire.readable): server down, wrong password, no `vector` extension. A connection
that drops (mid-query, or a restart between two questions) is reopened once and the search run again; a
build is one transaction, so nothing half-built is left. The URL's password never appears in a message.

Left out on purpose: a connection pool (one connection per engine, used under a lock), writes other than the
index tables, TLS settings beyond what the URL says (libpq reads sslmode=... from it).

It runs past 300 lines because one engine holds its connection, its builds and its searches for four
retrievers; the SQL sits with the code that sends it.
"""
from __future__ import annotations

import select
import threading
import weakref
from typing import Iterable

import numpy as np
import psycopg
from psycopg import sql

import rag_core.retrieval.engines.pgtables as pgtables
from rag_core.retrieval.engines.base import ENV, EngineError, SearchEngine, nothing, plan_search, rank
from rag_core.retrieval.engines.pgwire import STILL_WORKS, literal, parse_rows, passfile_settings, readable
from rag_core.retrieval.engines.spaces import vector_source, vector_space
from rag_core.retrieval.index import Index, SearchResult
from rag_core.retrieval.engines.ranks import fused_top_k
from rag_core.text.credentials import mask_secrets

SCANS = ("relaxed_order", "strict_order")


class PostgresEngine(SearchEngine):
    name = "postgres"

    def __init__(self, url: str, approximate: bool = False, ef_search: int = 200, iterative_scan: str = "relaxed_order",
                 max_scan_tuples: int = 20_000, m: int = 16, ef_construction: int = 200, connect_timeout: int = 5):
        if not isinstance(url, str) or not url.strip():
            raise EngineError(f"No database URL: set {ENV}, fill it in the sidebar, or pass --database-url "
                              f"(postgresql://user:password@host:5432/database). {STILL_WORKS}")
        for label, value, low in (("ef_search", ef_search, 1), ("max_scan_tuples", max_scan_tuples, 1),
                                  ("m", m, 2), ("ef_construction", ef_construction, 4), ("connect_timeout", connect_timeout, 1)):
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < low:
                raise ValueError(f"{label} must be a whole number of at least {low}, got {value!r}.")
        if iterative_scan not in SCANS:
            raise ValueError(f"iterative_scan must be one of {', '.join(SCANS)}, got {iterative_scan!r}.")
        if ef_construction < 2 * m:
            raise ValueError(f"ef_construction ({ef_construction}) must be at least twice m ({m}): raise it or lower m.")
        self.url = url.strip()
        self.approximate, self.ef_search, self.iterative_scan = bool(approximate), int(ef_search), iterative_scan
        self.max_scan_tuples, self.m, self.ef_construction = int(max_scan_tuples), int(m), int(ef_construction)
        self.connect_timeout = int(connect_timeout)
        self.where = f"PostgreSQL at {mask_secrets(self.url, self.url)}"
        self._conn: psycopg.Connection | None = None
        self._schema_ok = False
        self._stored: dict[int, tuple] = {}     # id(vector source) -> (weakref to it, StoredIndex, VectorSpace)
        self.failed: str | None = None          # the last call's EngineError, None once a call succeeds
        self._lock = threading.RLock()

    def __repr__(self) -> str:
        return f"PostgresEngine({mask_secrets(self.url, self.url)!r}, approximate={self.approximate})"

    def describe(self) -> str:
        mode = (f"approximate: HNSW m={self.m}, ef_construction={self.ef_construction}, ef_search={self.ef_search}, "
                f"{self.iterative_scan}" if self.approximate else "exact")
        return f"{self.where} ({mode})"

    # --- the connection: opened on demand, reopened once when it drops ---------------------
    def _connect(self) -> psycopg.Connection:
        if self._conn is None or self._conn.closed:
            self._conn = psycopg.connect(self.url, autocommit=True, prepare_threshold=None,
                                         connect_timeout=self.connect_timeout, application_name="openbook",
                                         **passfile_settings(self.url))
            self._schema_ok = False
            self._settings(self._conn)
        return self._conn

    def _run(self, work):
        """work(conn) on the engine's connection; a dropped connection is reopened and work run once more.
        `failed` says whether the last call failed (and why), for a caller that wants to check again."""
        with self._lock:
            try:
                done = self._attempts(work)
            except EngineError as e:
                self.failed = str(e)
                raise
            self.failed = None
            return done

    def _attempts(self, work):
        with self._lock:
            for attempt in (1, 2):
                conn = None
                try:
                    conn = self._connect()
                    if not self._schema_ok:
                        pgtables.ensure_schema(conn, self.where)
                        self._schema_ok = True
                    return work(conn)
                except EngineError:
                    raise
                except psycopg.errors.UndefinedTable:
                    self._stored.clear()           # a table dropped behind our back: build it again, once
                    if attempt == 2:
                        raise EngineError(f"{self.where}: the index table disappeared twice. {STILL_WORKS}") from None
                except psycopg.Error as e:
                    lost = conn is not None and (conn.closed or conn.broken)    # not a failure to connect at all
                    self.close()
                    if attempt == 2 or not lost or isinstance(e, psycopg.errors.QueryCanceled):
                        raise readable(e, self.url) from None

    def still_open(self) -> bool:
        """Whether the engine's connection still looks open, read without a round trip: a server that stopped or
        restarted closed it (or wrote to it while idle), so its socket reads as ready. False without a connection;
        True while another thread uses it (that call's outcome lands in `failed`)."""
        if not self._lock.acquire(blocking=False):
            return True
        try:
            conn = self._conn
            if conn is None or conn.closed or conn.broken:
                return False
            return not select.select([conn.fileno()], [], [], 0)[0]
        except (OSError, ValueError, psycopg.Error):
            return False
        finally:
            self._lock.release()

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                try:
                    self._conn.close()
                except psycopg.Error:
                    pass
            self._conn = None

    def check(self) -> str:
        """Connect and make sure pgvector is there: 'PostgreSQL 18.6, pgvector 0.8.6'; EngineError if not."""
        def versions(conn):
            pg = conn.execute("SHOW server_version").fetchone()[0].split()[0]
            vec = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()[0]
            return f"PostgreSQL {pg}, pgvector {vec}"
        return self._run(versions)

    # --- stored indexes ---------------------------------------------------------------------
    def build_or_reuse(self, index: Index, dataset_key: str | None = None) -> pgtables.StoredIndex:
        """The index's table, built once (COPY, one transaction) or found; with approximate=True its HNSW too.
        A hybrid index stores its two parts (BM25 and MiniLM); the BM25 one is returned."""
        if getattr(index, "retriever", None) == "hybrid":
            self.build_or_reuse(index.dense, dataset_key)
            return self.build_or_reuse(index.sparse, dataset_key)
        space = vector_space(index)
        key = dataset_key or pgtables.corpus_key(index.tc.corpus)

        def build(conn):
            stored = pgtables.build_or_reuse(conn, index, space, key, self.where)
            if self.approximate:
                pgtables.ensure_hnsw(conn, stored, self.m, self.ef_construction, self.where)
            return stored
        stored = self._run(build)
        with self._lock:
            self._stored[id(space.source)] = (weakref.ref(space.source), stored, space)
        return stored

    def _prepared(self, index: Index):
        """(StoredIndex, space) of an index, built or found on first use; remembered by its vectors' identity,
        so the copies of an index that share its arrays (another reranker) share its table."""
        source = vector_source(index)
        with self._lock:
            have = self._stored.get(id(source))
            if have is None or have[0]() is not source:
                self.build_or_reuse(index)
                have = self._stored[id(source)]
            return have[1], have[2]

    def sizes(self, index: Index) -> dict:
        stored, _ = self._prepared(index)
        return self._run(lambda conn: pgtables.sizes(conn, stored))

    def drop(self, index: Index | None = None, corpus=None) -> int:
        """Drop this index's table, every stored index of a corpus, or every stored index (neither); searching
        again builds what it needs anew. How many were dropped."""
        key = self._prepared(index)[0].key if index is not None else None
        dataset = pgtables.corpus_key(corpus) if corpus is not None else None
        with self._lock:
            self._stored.clear()
        return self._run(lambda conn: pgtables.drop(conn, key, dataset))

    def catalog(self) -> list[dict]:
        """Every index stored in this database (pgtables.catalog), newest first."""
        return self._run(pgtables.catalog)

    # --- search -----------------------------------------------------------------------------
    def search_many(self, index: Index, questions: list[str], k: int,
                    allowed: Iterable[str] | None = None) -> list[SearchResult]:
        plan = plan_search(index, questions, k, allowed)
        if plan.k == 0:
            return nothing(plan)
        if getattr(index, "retriever", None) == "hybrid":
            return self._hybrid(index, plan, allowed)
        queries = None

        def search(conn):
            nonlocal queries
            stored, space = self._prepared(index)
            if queries is None:
                queries = [space.query_vector(q) for q in plan.questions]
            return [self._one(conn, stored, space, q, plan) for q in queries]
        return self._run(search)

    def _hybrid(self, index, plan, allowed) -> list[SearchResult]:
        """Reciprocal rank fusion of the BM25 and MiniLM rankings of the allowed chunks, exact, as HybridIndex
        fuses them (1 / (k + rank) summed, ties in chunk order), without sending every vector over: see ranks.py."""

        def search(conn):
            parts = []
            for part in (index.sparse, index.dense):
                stored, space = self._prepared(part)
                parts.append((stored, space, [space.query_vector(q) for q in plan.questions]))
            out = []
            for i in range(len(plan.questions)):
                lists = []
                for stored, space, queries in parts:
                    q = queries[i]
                    ids, p = self._scores(conn, stored, literal(q, stored.dim), plan.allowed)
                    fetch = lambda wanted, stored=stored: self._vectors_of(conn, stored, wanted)   # noqa: E731
                    lists.append((ids, p, 2 * space.error_bound(q), space.nonnegative,
                                  lambda wanted, fetch=fetch, space=space, q=q: space.rescore(q, fetch(wanted))))
                best, scores = fused_top_k(lists, plan.k, index.k)
                out.append(SearchResult(best, scores, plan.notes))
            return out
        return self._run(search)

    def _scores(self, conn, stored, q_text: str, statuses):
        """(chunk ids ascending, float32 scores as float64) of every allowed row: no vectors, one row of two
        arrays (one round trip, decoded in C: a row per chunk costs a Python call each)."""
        cast = sql.SQL("sparsevec" if stored.kind == "sparse" else "vector")
        where = sql.SQL("WHERE status = ANY(%(statuses)s)") if statuses is not None else sql.SQL("")
        query = sql.SQL("SELECT array_agg(chunk_id), array_agg(-(embedding <#> %(q)s::{})) FROM {} {}").format(
            cast, sql.Identifier(stored.table), where)          # one aggregate pass: both arrays in the same order
        ids, p = conn.cursor(binary=True).execute(
            query, {"q": q_text, "statuses": list(statuses) if statuses is not None else None}).fetchone()
        ids, p = np.array(ids or [], dtype=np.int64), np.array(p or [], dtype=np.float64)
        order = np.argsort(ids)
        return ids[order], p[order]

    def _vectors_of(self, conn, stored, ids: np.ndarray):
        """The stored vectors of these chunks, in the order given."""
        rows = conn.cursor(binary=True).execute(
            sql.SQL("SELECT chunk_id, embedding FROM {} WHERE chunk_id = ANY(%s)").format(sql.Identifier(stored.table)),
            (ids.tolist(),)).fetchall()
        by_id = {r[0]: r[1] for r in rows}
        return parse_rows([by_id[i] for i in ids.tolist()], stored.kind, stored.dim)

    def _settings(self, conn) -> None:
        """Per connection (the engine's own, set again on every reconnect; statements are never prepared, so a
        setting always reaches the plan): exact mode never uses an index, approximate mode sets HNSW's knobs."""
        if not self.approximate:
            conn.execute("SELECT set_config('enable_indexscan', 'off', false), set_config('enable_bitmapscan', 'off', false)")
        else:
            conn.execute("SELECT set_config('hnsw.ef_search', %s, false), set_config('hnsw.iterative_scan', %s, false), "
                         "set_config('hnsw.max_scan_tuples', %s, false)",
                         (str(self.ef_search), self.iterative_scan, str(self.max_scan_tuples)))

    def _fetch(self, conn, stored, q_text: str, statuses, limit: int | None, floor: float | None = None,
               positive: bool = False):
        """(chunk ids, float32 scores as float64, vectors) of the allowed rows, best first, ties by chunk id;
        only rows scoring at least `floor`, only rows scoring above 0 with `positive`."""
        cast = sql.SQL("sparsevec" if stored.kind == "sparse" else "vector")
        where = [sql.SQL("status = ANY(%(statuses)s)")] if statuses is not None else []
        if floor is not None:
            where.append(sql.SQL("embedding <#> %(q)s::{} <= %(floor)s").format(cast))
        if positive:
            where.append(sql.SQL("embedding <#> %(q)s::{} < 0").format(cast))
        query = sql.SQL("SELECT chunk_id, embedding <#> %(q)s::{cast} AS d, embedding FROM {t} {where} "
                        "ORDER BY d{tie} {limit}").format(
            cast=cast, t=sql.Identifier(stored.table),
            where=sql.SQL("WHERE ") + sql.SQL(" AND ").join(where) if where else sql.SQL(""),
            tie=sql.SQL(", chunk_id") if not self.approximate else sql.SQL(""),
            limit=sql.SQL("LIMIT %(limit)s") if limit is not None else sql.SQL(""))
        cur = conn.cursor(binary=True)
        rows = cur.execute(query, {"q": q_text, "statuses": list(statuses) if statuses is not None else None,
                                   "limit": limit, "floor": None if floor is None else -floor}).fetchall()
        ids = np.array([r[0] for r in rows], dtype=np.int64)
        p = -np.array([r[1] for r in rows], dtype=np.float64)
        return ids, p, parse_rows([r[2] for r in rows], stored.kind, stored.dim)

    def _one(self, conn, stored, space, q, plan) -> SearchResult:
        q_text = literal(q, stored.dim)
        notes = plan.notes
        if self.approximate:      # the ef_search candidates the graph search keeps anyway, the best k of them
            ids, p, vecs = self._fetch(conn, stored, q_text, plan.allowed, max(plan.k, self.ef_search))
            if len(ids) < plan.k:
                notes = notes + (f"The approximate index returned {len(ids)} of {plan.k} chunks (its scan stopped at "
                                 f"hnsw.max_scan_tuples = {self.max_scan_tuples:,}): raise ef_search or use exact mode.",)
        else:
            limit = 2 * plan.k + 16
            ids, p, vecs = self._fetch(conn, stored, q_text, plan.allowed, limit)
            if len(ids) == limit and len(ids) < plan.n_allowed:
                floor = p[plan.k - 1] - 2 * space.error_bound(q)          # every row that may reach the top k
                if space.nonnegative and p[plan.k - 1] == 0:
                    pass      # every row above 0 is in (fewer than k); the others score 0 exactly, in chunk order
                elif not p[-1] < floor:   # with BM25, k rows score above 0: a row at 0 never makes the top k
                    ids, p, vecs = self._fetch(conn, stored, q_text, plan.allowed, None, floor, positive=space.nonnegative)
        best, scores = rank(ids, space.rescore(q, vecs), plan.k)
        return SearchResult(best, scores, notes)

