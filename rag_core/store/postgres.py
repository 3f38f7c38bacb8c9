"""The run store in PostgreSQL: Store's backend for OPENBOOK_STORE=postgres, shared by every dashboard pointed at
one database (OPENBOOK_DATABASE_URL, the search engine's).

    db = PostgresTables("postgresql://ann:s3cret@db/openbook")
    db.read("SELECT name FROM {datasets} WHERE key = ?", ("user-3f2a...",))      # [("notes",)]
    db.write([("DELETE FROM {runs} WHERE id = ?", (7,))])                          # one transaction
    db.insert("INSERT INTO {runs} (...) VALUES (?, ...)", args)                    # the new run's id (RETURNING id)

The tables are openbook_store_schema (the format number), openbook_store_datasets and openbook_store_runs: apart
from the search engine's (openbook_indexes, openbook_ix_...), so both can share a database. They are created on
first use in one transaction under an advisory lock: processes starting at once create them once. A database whose
store tables have another format, or that holds store tables without a format number, is never touched: every call
raises a ValueError naming the database and how to fix it. Tables dropped by hand (how describe() says to remove
everything) are created anew, empty.

A connection is opened per call (a few milliseconds), so nothing goes stale: a server restarted between two calls
is simply connected to again. A connection that drops during a call is opened again and the call run once more,
unless it dropped while committing a write (that write may be kept: it is not repeated, the message says to look).
Failures are ValueErrors a person can act on (pgwire.readable); the password never appears in a message,
describe() or repr().

Left out on purpose: a connection pool (a page makes a handful of calls), a schema of its own (CREATE SCHEMA needs
more than the CREATE on schema public the tables need), migrations (another format is an error, as in SQLite).
"""
from __future__ import annotations

import threading

import psycopg

from rag_core.retrieval.engines.pgtables import lock_id
from rag_core.retrieval.engines.pgwire import STILL_WORKS, passfile_settings, readable
from rag_core.retrieval.engines.registry import ENV as DATABASE_ENV
from rag_core.store.records import SCHEMA, STORE_ENV, written_by
from rag_core.text.credentials import mask_secrets

TABLES = {"datasets": "openbook_store_datasets", "runs": "openbook_store_runs",
          "labels": "openbook_store_labels"}                                      # Store's SQL names -> tables
VERSION_TABLE = "openbook_store_schema"
CONNECT_TIMEOUT = 5                          # seconds
CREATE = """
CREATE TABLE IF NOT EXISTS openbook_store_datasets (key text COLLATE "C" PRIMARY KEY, name text NOT NULL,
    documents integer NOT NULL, words integer NOT NULL, questions integer NOT NULL, content bytea NOT NULL,
    created_at text COLLATE "C" NOT NULL);
CREATE TABLE IF NOT EXISTS openbook_store_runs (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    created_at text NOT NULL, name text NOT NULL, setup text NOT NULL, dataset_key text NOT NULL,
    dataset_name text NOT NULL, golden_key text NOT NULL, model text NOT NULL, questions integer NOT NULL,
    answered integer NOT NULL, found integer NOT NULL, chunks integer, results text NOT NULL);
CREATE INDEX IF NOT EXISTS openbook_store_runs_by_dataset ON openbook_store_runs (dataset_key, id);
CREATE TABLE IF NOT EXISTS openbook_store_labels (id text COLLATE "C" PRIMARY KEY, dataset_key text NOT NULL,
    question text NOT NULL, answer text NOT NULL, spans text NOT NULL, label text NOT NULL, anchor text, doc text,
    source text NOT NULL, created_at text COLLATE "C" NOT NULL);
CREATE INDEX IF NOT EXISTS openbook_store_labels_by_dataset ON openbook_store_labels (dataset_key, created_at);
"""
_WAY_OUT = (f"(Open Book keeps saved datasets and runs there when {STORE_ENV}=postgres; unset it to keep them in "
            "the data folder.)")


class PostgresTables:
    def __init__(self, url: str):
        if not isinstance(url, str) or not url.strip():
            raise ValueError(f"No database for the saved runs: set {DATABASE_ENV} "
                             f"(postgresql://user:password@host:5432/database), or unset {STORE_ENV} to keep them "
                             "in the data folder.")
        self.url = url.strip()
        self.where = f"PostgreSQL at {mask_secrets(self.url, self.url)}"
        self._checked = False
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"PostgresTables({mask_secrets(self.url, self.url)!r})"

    def describe(self) -> str:
        return (f"{self.where}, in the tables {', '.join(TABLES.values())} and {VERSION_TABLE}, shared by every "
                f"Open Book that uses this database. Delete a run or a dataset in the run history, or drop those "
                f"tables to remove everything; unset {STORE_ENV} before starting to keep them in the data folder "
                "instead.")

    def _fix(self) -> str:
        return (f"Use another database ({DATABASE_ENV}), or unset {STORE_ENV} to keep runs in the data folder; or, "
                f"to start afresh in this one, drop those tables (DROP TABLE {', '.join(TABLES.values())}, "
                f"{VERSION_TABLE}: their runs go with them).")

    # ---- the tables -----------------------------------------------------------------------------------
    def check(self) -> None:
        """Create the tables, or make sure they are Open Book's of this format (else ValueError); once."""
        if self._checked:
            return
        with self._lock:
            if not self._checked:
                self._call(self._create_or_check, write=True, checked=False)
                self._checked = True

    def _create_or_check(self, conn: psycopg.Connection) -> None:
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_id("store schema"),))     # one creator at a time
        version_table, *data_tables = conn.execute(
            "SELECT " + ", ".join(["to_regclass(%s) IS NOT NULL"] * (1 + len(TABLES))),
            (VERSION_TABLE, *TABLES.values())).fetchone()
        if not version_table and any(data_tables):
            raise ValueError(f"{self.where} has tables named like Open Book's saved runs "
                             f"({', '.join(TABLES.values())}), but not ones Open Book wrote: {VERSION_TABLE} is "
                             f"missing. {self._fix()}")
        if not version_table:
            conn.execute(f"CREATE TABLE {VERSION_TABLE} (version integer NOT NULL)")
            conn.execute(f"INSERT INTO {VERSION_TABLE} VALUES (%s)", (SCHEMA,))
        version = conn.execute(f"SELECT max(version) FROM {VERSION_TABLE}").fetchone()[0]
        if version != SCHEMA:
            raise ValueError(f"The saved runs in {self.where} were {written_by(version)}. {self._fix()}")
        if not all(data_tables):
            conn.execute(CREATE)

    # ---- calls ----------------------------------------------------------------------------------------
    def read(self, sql: str, args=()) -> list:
        return self._call(lambda conn: conn.execute(self._sql(sql), args).fetchall())

    def write(self, statements) -> None:
        """Run [(sql, args), ...] as one transaction."""
        self._call(lambda conn: [conn.execute(self._sql(sql), args) for sql, args in statements], write=True)

    def insert(self, sql: str, args) -> int:
        """One INSERT; the new row's id."""
        return self._call(lambda conn: conn.execute(self._sql(sql) + " RETURNING id", args).fetchone()[0], write=True)

    def compact(self) -> None:
        """Nothing to do: autovacuum gives deleted rows' space back."""

    @staticmethod
    def _sql(sql: str) -> str:
        """Store's SQL in this dialect: 'DELETE FROM {runs} WHERE id = ?' -> 'DELETE FROM openbook_store_runs
        WHERE id = %s'."""
        return sql.format_map(TABLES).replace("?", "%s")

    def _call(self, work, write: bool = False, checked: bool = True):
        """work(conn) on a connection of its own, committed when writing. Once more on a connection lost before
        the commit, or on tables dropped by hand (created anew); psycopg errors become readable ValueErrors."""
        for attempt in (1, 2):
            if checked:
                self.check()
            conn, step = None, "connecting"
            try:
                conn = psycopg.connect(self.url, connect_timeout=CONNECT_TIMEOUT, application_name="openbook-store",
                                        **passfile_settings(self.url))
                try:
                    step = "working"
                    out = work(conn)
                    if write:
                        step = "committing"
                        conn.commit()
                    return out
                finally:
                    conn.close()                 # rolls back what was not committed
            except psycopg.errors.UndefinedTable as e:
                if attempt == 2 or not checked:
                    raise self._error(e) from None
                self._checked = False
            except psycopg.errors.InsufficientPrivilege as e:
                raise ValueError(f"{self.where} refused: {e.diag.message_primary}. Give the database user CREATE on "
                                 f"schema public (to create the tables once) and SELECT, INSERT, DELETE on "
                                 f"{', '.join(TABLES.values())} and {VERSION_TABLE}, or use another database. "
                                 f"{_WAY_OUT}") from None
            except psycopg.Error as e:
                lost = conn is not None and conn.broken
                if lost and step == "committing":
                    raise ValueError(f"{self.where} dropped the connection while saving: the change may or may "
                                     "not have been kept. Look at the run history before saving it again.") from None
                if attempt == 2 or not lost:
                    raise self._error(e) from None

    def _error(self, e: psycopg.Error) -> ValueError:
        """pgwire's readable message, for the store: 'PostgreSQL at postgresql://ann:***@db/ob cannot be reached
        (nothing answers at that address): is the server running, and is the URL right? (Open Book keeps ...)'."""
        said = str(readable(e, self.url)).replace(STILL_WORKS, "").strip()
        return ValueError(f"{said} {_WAY_OUT}")
