"""The run store in one SQLite file: Store's backend for the data folder (`<data folder>/openbook.sqlite3`).

    db = SqliteFile(Path("~/.cache/openbook/openbook.sqlite3").expanduser())
    db.read("SELECT name FROM {datasets} WHERE key = ?", ("user-3f2a...",))      # [("notes",)]
    db.write([("DELETE FROM {runs} WHERE id = ?", (7,))])                          # one IMMEDIATE transaction
    db.insert("INSERT INTO {runs} (...) VALUES (?, ...)", args)                    # the new run's id

The file is opened per call (safe across threads and processes) in WAL mode with a busy timeout, and every write
is one IMMEDIATE transaction, so sessions writing at once wait for each other instead of losing a run. A file
that is not an Open Book database, is damaged, or was written in another format is never touched: every call
raises a ValueError naming the file and how to fix it (move it away or delete it); so is a file missing one of
its tables (dropped by hand, or changed by another program). A file deleted by hand (how describe() says to
remove everything) is started anew, empty.

A file that cannot be written (its folder or the file read-only, for this user or on a read-only disk) is opened
read-only instead: what was saved is listed and loaded, `read_only` says why nothing new can be saved, and every
write raises a ValueError saying so and what to do.

Left out on purpose: sharing between users (it is a local file: see postgres.py for that).
"""
from __future__ import annotations

import sqlite3
import tempfile
import threading
from contextlib import closing
from pathlib import Path

from rag_core.datadir import ENV, switch_to_wal
from rag_core.store.records import SCHEMA, written_by

BUSY_MS = 30_000                            # how long a writer waits for another one before giving up
TABLES = {"datasets": "datasets", "runs": "runs", "labels": "labels"}   # the names in Store's SQL -> the tables
_MAGIC = b"SQLite format 3\x00"
NEEDED = ("openbook_schema", "datasets", "runs")          # the tables of a whole store file
LABELS = """
CREATE TABLE IF NOT EXISTS labels (id TEXT PRIMARY KEY, dataset_key TEXT NOT NULL, question TEXT NOT NULL,
    answer TEXT NOT NULL, spans TEXT NOT NULL, label TEXT NOT NULL, anchor TEXT, doc TEXT, source TEXT NOT NULL,
    created_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS labels_by_dataset ON labels (dataset_key, created_at);
"""                                   # people's labels: added to format 1 (created in a file that lacks them)
_TABLES = """
CREATE TABLE openbook_schema (version INTEGER NOT NULL);
CREATE TABLE datasets (key TEXT PRIMARY KEY, name TEXT NOT NULL, documents INTEGER NOT NULL, words INTEGER NOT NULL,
    questions INTEGER NOT NULL, content BLOB NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL, name TEXT NOT NULL,
    setup TEXT NOT NULL, dataset_key TEXT NOT NULL, dataset_name TEXT NOT NULL, golden_key TEXT NOT NULL,
    model TEXT NOT NULL, questions INTEGER NOT NULL, answered INTEGER NOT NULL, found INTEGER NOT NULL,
    chunks INTEGER, results TEXT NOT NULL);
CREATE INDEX runs_by_dataset ON runs (dataset_key, id);
""" + LABELS


class SqliteFile:
    def __init__(self, path: Path):
        self.path = Path(path)
        self._checked = False
        self._lock = threading.Lock()
        self.read_only: str | None = None     # why nothing can be saved (set by check()), or None
        self._empty = False                   # read-only and holding no table yet: every read is empty

    def __repr__(self) -> str:
        return f"SqliteFile({str(self.path)!r})"

    def describe(self) -> str:
        if self.read_only:
            return f"the SQLite file {self.path}. {self.read_only}"
        return (f"the SQLite file {self.path}. Delete a run or a dataset in the run history, or delete that file to "
                f"remove everything; set {ENV}=off before starting to keep nothing.")

    def _fix(self) -> str:
        return (f"Move it away or delete it (rm '{self.path}') and Open Book starts an empty one; or set {ENV} to "
                f"another folder, or to 'off' to keep nothing.")

    def _connect(self) -> sqlite3.Connection:
        if self.read_only:
            return self._connect_read_only()
        con = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None)
        con.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        return con

    def _connect_read_only(self) -> sqlite3.Connection:
        """The file opened read-only. SQLite reads a WAL file read-only only where it can make the -shm file beside
        it (or finds one); in a read-only folder it is opened as immutable (nobody can write there either)."""
        uri = self.path.resolve().as_uri()
        for mode in ("?mode=ro", "?mode=ro&immutable=1"):
            con = sqlite3.connect(uri + mode, uri=True, timeout=BUSY_MS / 1000, isolation_level=None)
            try:
                con.execute("SELECT count(*) FROM sqlite_master").fetchone()
                return con
            except sqlite3.OperationalError:
                con.close()
                if "immutable" in mode:
                    raise

    def _cannot_write(self) -> str | None:
        """Why the file cannot be written, or None: 'its folder /data is read-only (Permission denied)'. It creates
        an empty file where there is none, never changes one, and tries a scratch file beside it (SQLite keeps its
        write-ahead log and lock files there)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ValueError(f"The data file {self.path} cannot be opened: {e.strerror or e}. Set {ENV} to a "
                             "writable folder, or to 'off' to keep nothing.") from None
        try:
            with self.path.open("ab"):
                pass
        except OSError as e:
            if not self.path.is_file():
                raise ValueError(f"The data file {self.path} cannot be opened: {e.strerror or e}. Set {ENV} to a "
                                 "writable folder, or to 'off' to keep nothing.") from None
            return f"the file is read-only ({e.strerror or e})"
        try:
            with tempfile.TemporaryFile(dir=self.path.parent, prefix=".openbook-"):
                pass
        except OSError as e:
            return f"its folder {self.path.parent} is read-only ({e.strerror or e})"
        return None

    # ---- the file -------------------------------------------------------------------------------------
    def check(self) -> None:
        """Open the file once: create it, or make sure it is an Open Book database of this format (else ValueError)."""
        if self._checked:
            return
        with self._lock:
            if self._checked:
                return
            why = self._cannot_write()
            try:
                with self.path.open("rb") as f:
                    head = f.read(16)
            except OSError as e:
                raise ValueError(f"The data file {self.path} cannot be opened: {e.strerror or e}. Set {ENV} to a "
                                 "writable folder, or to 'off' to keep nothing.") from None
            if head and head != _MAGIC:
                raise ValueError(f"The data file {self.path} is not a SQLite database (damaged, or another kind of "
                                 f"file). {self._fix()}")
            self.read_only = (f"Nothing new can be saved: the data file {self.path} cannot be written, as {why}. The "
                              "datasets and runs saved so far are listed, read-only. To save, make it writable, or "
                              f"set {ENV} to a writable folder.") if why else None
            try:
                with closing(self._connect()) as con:
                    self._check_schema(con)
            except sqlite3.Error as e:
                raise self._failure(e, "opened") from None
            self._checked = True

    def _check_schema(self, con: sqlite3.Connection) -> None:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        self._empty = not tables and bool(self.read_only)
        if self._empty:
            return
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
        missing = [t for t in NEEDED if t not in tables]
        if missing:
            raise ValueError(f"The data file {self.path} is damaged: its table {', '.join(missing)} is missing (dropped "
                             f"by hand, or changed by another program), so what it held is gone. {self._fix()}")
        if "labels" not in tables and not self.read_only:     # a file from before labels: they start empty
            con.executescript(LABELS)

    @staticmethod
    def _wal(con: sqlite3.Connection) -> None:
        switch_to_wal(con, BUSY_MS / 1000)          # another process may be creating the file: wait as a writer

    def _recheck(self) -> None:
        """check(), again if the file was deleted since (the page says deleting it is how to remove everything)."""
        if self._checked and not self.path.exists():
            self._checked = False
        self.check()

    # ---- calls ----------------------------------------------------------------------------------------
    def read(self, sql: str, args=()) -> list:
        self._recheck()
        if self._empty:
            return []
        try:
            with closing(self._connect()) as con:
                return con.execute(sql.format_map(TABLES), args).fetchall()
        except sqlite3.Error as e:
            raise self._failure(e, "read") from None

    def write(self, statements) -> int | None:
        """Run [(sql, args), ...] as one IMMEDIATE transaction; the last row id."""
        self._recheck()
        if self.read_only and self._cannot_write() is None:     # made writable since: checked again, then saved
            with self._lock:
                self._checked, self.read_only = False, None
            self.check()
        if self.read_only:
            raise ValueError(self.read_only.replace("Nothing new can be saved", "This cannot be saved", 1))
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
        except sqlite3.Error as e:
            raise self._failure(e, "written") from None

    def _failure(self, e: sqlite3.Error, doing: str) -> ValueError:
        """What SQLite's error means for the person, and what to do: a missing table is damage, 'locked' another
        program, 'readonly' the permissions, 'full' the disk; any other error of the file itself is damage."""
        said = str(e)
        table = said.partition("no such table: ")[2]
        if table:
            return ValueError(f"The data file {self.path} is damaged: its table {table} is missing (dropped by hand, "
                              f"or changed by another program). {self._fix()}")
        if "locked" in said or "busy" in said:
            return ValueError(f"The data file {self.path} cannot be {doing} ({said}): another program holds it. Try "
                              f"again; if it persists, close that program or set {ENV} to another folder.")
        if "readonly" in said or "read-only" in said or "unable to open" in said:
            return ValueError(f"The data file {self.path} cannot be {doing} ({said}): it or its folder is read-only "
                              f"for this user. Make them writable, or set {ENV} to a writable folder.")
        if "full" in said:
            return ValueError(f"The data file {self.path} cannot be {doing} ({said}): the disk is full. Free some "
                              f"space, or set {ENV} to a folder on another disk.")
        if isinstance(e, sqlite3.OperationalError):
            return ValueError(f"The data file {self.path} cannot be {doing} ({said}). Try again; if it persists, "
                              f"set {ENV} to another folder.")
        return ValueError(f"The data file {self.path} cannot be {doing} ({said}): it is damaged. {self._fix()}")

    def insert(self, sql: str, args) -> int:
        """One INSERT; the new row's id."""
        return self.write([(sql, args)])

    def compact(self) -> None:
        """Give the space of deleted rows back to the disk (VACUUM), unless another session is reading."""
        if self.read_only:
            return
        with closing(self._connect()) as con:
            try:
                con.execute("VACUUM")
            except sqlite3.OperationalError:     # another session is reading: the space is reused later anyway
                pass
