"""The run store in one SQLite file: Store's backend for the data folder (`<data folder>/openbook.sqlite3`).

    db = SqliteFile(Path("~/.cache/openbook/openbook.sqlite3").expanduser())
    db.read("SELECT name FROM {datasets} WHERE key = ?", ("user-3f2a...",))      # [("notes",)]
    db.write([("DELETE FROM {runs} WHERE id = ?", (7,))])                          # one IMMEDIATE transaction
    db.insert("INSERT INTO {runs} (...) VALUES (?, ...)", args)                    # the new run's id

The file is opened per call (safe across threads and processes) in WAL mode with a busy timeout, and every write
is one IMMEDIATE transaction, so sessions writing at once wait for each other instead of losing a run. A file
that is not an Open Book database, is damaged, or was written in another format is never touched: every call
raises a ValueError naming the file and how to fix it (move it away or delete it). A file deleted by hand (how
describe() says to remove everything) is started anew, empty.

Left out on purpose: sharing between users (it is a local file: see postgres.py for that).
"""
from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path

from rag_core.datadir import ENV
from rag_core.store.records import SCHEMA, written_by

BUSY_MS = 30_000                            # how long a writer waits for another one before giving up
TABLES = {"datasets": "datasets", "runs": "runs"}    # the names in Store's SQL -> the tables in the file
_MAGIC = b"SQLite format 3\x00"
_TABLES = """
CREATE TABLE openbook_schema (version INTEGER NOT NULL);
CREATE TABLE datasets (key TEXT PRIMARY KEY, name TEXT NOT NULL, documents INTEGER NOT NULL, words INTEGER NOT NULL,
    questions INTEGER NOT NULL, content BLOB NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL, name TEXT NOT NULL,
    setup TEXT NOT NULL, dataset_key TEXT NOT NULL, dataset_name TEXT NOT NULL, golden_key TEXT NOT NULL,
    model TEXT NOT NULL, questions INTEGER NOT NULL, answered INTEGER NOT NULL, found INTEGER NOT NULL,
    chunks INTEGER, results TEXT NOT NULL);
CREATE INDEX runs_by_dataset ON runs (dataset_key, id);
"""


class SqliteFile:
    def __init__(self, path: Path):
        self.path = Path(path)
        self._checked = False
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"SqliteFile({str(self.path)!r})"

    def describe(self) -> str:
        return (f"the SQLite file {self.path}. Delete a run or a dataset in the run history, or delete that file to "
                f"remove everything; set {ENV}=off before starting to keep nothing.")

    def _fix(self) -> str:
        return (f"Move it away or delete it (rm '{self.path}') and Open Book starts an empty one; or set {ENV} to "
                f"another folder, or to 'off' to keep nothing.")

    def _connect(self) -> sqlite3.Connection:
        con = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None)
        con.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        return con

    # ---- the file -------------------------------------------------------------------------------------
    def check(self) -> None:
        """Open the file once: create it, or make sure it is an Open Book database of this format (else ValueError)."""
        if self._checked:
            return
        with self._lock:
            if self._checked:
                return
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with self.path.open("ab+") as f:          # creates an empty file, never changes one
                    f.seek(0)
                    head = f.read(16)
            except OSError as e:
                raise ValueError(f"The data file {self.path} cannot be opened: {e.strerror or e}. Set {ENV} to a "
                                 "writable folder, or to 'off' to keep nothing.") from None
            if head and head != _MAGIC:
                raise ValueError(f"The data file {self.path} is not a SQLite database (damaged, or another kind of "
                                 f"file). {self._fix()}")
            try:
                with closing(self._connect()) as con:
                    self._check_schema(con)
            except sqlite3.OperationalError as e:
                raise ValueError(f"The data file {self.path} cannot be opened ({e}): another program may hold it, "
                                 f"or its folder is read-only. Try again; if it persists, set {ENV} to another "
                                 "folder.") from None
            except sqlite3.DatabaseError as e:
                raise ValueError(f"The data file {self.path} cannot be read ({e}): it is damaged. "
                                 f"{self._fix()}") from None
            self._checked = True

    def _check_schema(self, con: sqlite3.Connection) -> None:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            self._wal(con)
            con.execute("BEGIN IMMEDIATE")
            try:
                if not con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:   # nobody was faster
                    for statement in _TABLES.split(";"):
                        if statement.strip():
                            con.execute(statement)
                    con.execute("INSERT INTO openbook_schema VALUES (?)", (SCHEMA,))
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "openbook_schema" not in tables:
            raise ValueError(f"The data file {self.path} is a SQLite database, but not one Open Book wrote (or one "
                             f"from before formats were numbered). {self._fix()}")
        row = con.execute("SELECT max(version) FROM openbook_schema").fetchone()
        version = row[0] if row else None
        if version != SCHEMA:
            raise ValueError(f"The data file {self.path} was {written_by(version)}. {self._fix()}")

    @staticmethod
    def _wal(con: sqlite3.Connection) -> None:
        """Switch a new file to WAL. SQLite answers 'database is locked' at once, without waiting, while another
        process creates the tables (a journal mode is changed only with the file to itself): wait as a writer does."""
        deadline = time.monotonic() + BUSY_MS / 1000
        while True:
            try:
                con.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def _recheck(self) -> None:
        """check(), again if the file was deleted since (the page says deleting it is how to remove everything)."""
        if self._checked and not self.path.exists():
            self._checked = False
        self.check()

    # ---- calls ----------------------------------------------------------------------------------------
    def read(self, sql: str, args=()) -> list:
        self._recheck()
        try:
            with closing(self._connect()) as con:
                return con.execute(sql.format_map(TABLES), args).fetchall()
        except sqlite3.DatabaseError as e:
            raise ValueError(f"The data file {self.path} cannot be read ({e}). {self._fix()}") from None

    def write(self, statements) -> int | None:
        """Run [(sql, args), ...] as one IMMEDIATE transaction; the last row id."""
        self._recheck()
        try:
            with closing(self._connect()) as con:
                con.execute("BEGIN IMMEDIATE")
                try:
                    last = None
                    for sql, args in statements:
                        last = con.execute(sql.format_map(TABLES), args).lastrowid
                    con.execute("COMMIT")
                    return last
                except BaseException:
                    con.execute("ROLLBACK")
                    raise
        except sqlite3.OperationalError as e:
            raise ValueError(f"Cannot write to the data file {self.path} ({e}): another program may hold it, or the "
                             f"disk is full or read-only. Try again; if it persists, set {ENV} to another "
                             "folder.") from None
        except sqlite3.DatabaseError as e:
            raise ValueError(f"The data file {self.path} cannot be written ({e}). {self._fix()}") from None

    def insert(self, sql: str, args) -> int:
        """One INSERT; the new row's id."""
        return self.write([(sql, args)])

    def compact(self) -> None:
        """Give the space of deleted rows back to the disk (VACUUM), unless another session is reading."""
        with closing(self._connect()) as con:
            try:
                con.execute("VACUUM")
            except sqlite3.OperationalError:     # another session is reading: the space is reused later anyway
                pass
