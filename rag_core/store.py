"""What outlives a reload: uploaded datasets (by content hash) and golden-set runs, in one SQLite file.

    store = Store.default()                 # <data folder>/openbook.sqlite3, or a store that keeps nothing
    key = store.save_dataset("notes", documents, golden_rows)         # "user-3f2a...", the same key as a link's data=
    run = store.save_run(setup, results, key, "notes", golden_key(rows), model="scripted")
    store.list_runs(key) -> [RunInfo(id, created_at, name, setup, model, questions, answered, ...)]
    store.load_run(run) -> Run(info, setup, results, chunks)
    store.delete_run(run); store.delete_dataset(key); store.delete_all()

The data folder is `datadir.data_dir()` (OPENBOOK_DATA_DIR; "off" keeps nothing: every save is a no-op that
returns None and `describe()` says so). The file is opened per call (safe across threads and processes) in WAL
mode with a busy timeout, and every write is one IMMEDIATE transaction, so sessions writing at once wait for
each other instead of losing a run. A file that is not an Open Book database, is damaged, or was written in
another format is never touched: every call raises a ValueError naming the file and how to fix it (move it
away or delete it).

Left out on purpose: migrations between formats (a new format starts a new file; runs are cheap to redo
compared with a silent mis-read), sharing between users (it is a local file), and indexes or vectors (rebuilt).
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import zlib
from datetime import datetime, timezone
from pathlib import Path
from typing import NamedTuple

from rag_core.data.corpus import Document
from rag_core.data.golden import GoldenRow
from rag_core.datadir import ENV, data_dir
from rag_core.evaluation.losses import QuestionResult
from rag_core.evaluation.setup import Setup, parse_setup

SCHEMA = 1                                  # the format this version reads and writes
FILE_NAME = "openbook.sqlite3"
BUSY_MS = 30_000                            # how long a writer waits for another one before giving up
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


class SavedDataset(NamedTuple):
    key: str
    name: str
    documents: tuple          # Document, in order
    golden: tuple             # GoldenRow, in order


class DatasetInfo(NamedTuple):
    key: str
    name: str
    documents: int
    words: int
    questions: int            # golden rows, valid or not
    created_at: str           # ISO 8601, UTC


class RunInfo(NamedTuple):
    id: int
    created_at: str           # ISO 8601, UTC
    name: str                 # the setup's name
    setup: str                # Setup.to_text()
    dataset_key: str
    dataset_name: str
    golden_key: str           # golden_key() of the questions run: runs with the same one compare question by question
    model: str                # "scripted", or the model's name
    questions: int
    answered: int             # questions whose loss stage is "answered"
    found: int                # questions whose anchor was among the k chunks kept
    chunks: int | None        # chunks in the setup's index


class Run(NamedTuple):
    info: RunInfo
    setup: Setup
    results: list             # QuestionResult, in golden-set order


def dataset_key(name: str, documents, golden) -> str:
    """The content hash a dataset is known by, in links and here: 'user-' + 16 hex digits of its name, documents
    (id, status, text) and golden rows (question, doc, anchor); the dashboard's uploads are keyed the same way."""
    h = hashlib.sha256(f"{name}\0".encode())
    for d in documents:
        h.update(f"{d.id}\0{d.status}\0{d.text}\0".encode())
    for r in golden:
        h.update(f"{r.question}\0{r.doc}\0{r.anchor}\0".encode())
    return "user-" + h.hexdigest()[:16]


def golden_key(rows) -> str:
    """The hash of golden rows (question, doc, anchor), in order: 'g-' + 16 hex digits."""
    h = hashlib.sha256()
    for r in rows:
        h.update(f"{r.question}\0{r.doc}\0{r.anchor}\0".encode())
    return "g-" + h.hexdigest()[:16]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Store:
    def __init__(self, path: Path | str | None):
        self.path = Path(path) if path is not None else None     # None: keep nothing
        self._checked = False
        self._lock = threading.Lock()

    @classmethod
    def default(cls, env=None) -> "Store":
        """The store in the data folder (see datadir), or one that keeps nothing when it is switched off."""
        folder = data_dir(env)
        return cls(folder / FILE_NAME if folder is not None else None)

    @property
    def enabled(self) -> bool:
        return self.path is not None

    def describe(self) -> str:
        """What is stored and where, and how to delete it: one paragraph for the page."""
        if not self.enabled:
            return (f"Nothing is kept on disk ({ENV} is off): datasets and runs last as long as the browser "
                    "session.")
        return (f"Saved datasets (the documents and golden set you uploaded) and runs (setup, dataset, golden set, "
                f"model, every question's result and when) are kept in the SQLite file {self.path}. Delete a run or "
                f"a dataset in the run history, or delete that file to remove everything; set {ENV}=off before "
                "starting to keep nothing.")

    # ---- the file -------------------------------------------------------------------------------------
    def _fix(self) -> str:
        return (f"Move it away or delete it (rm '{self.path}') and Open Book starts an empty one; or set {ENV} to "
                f"another folder, or to 'off' to keep nothing.")

    def _connect(self) -> sqlite3.Connection:
        con = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None)
        con.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        return con

    def check(self) -> None:
        """Open the file once: create it, or make sure it is an Open Book database of this format (else ValueError)."""
        if not self.enabled or self._checked:
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
                con = self._connect()
                try:
                    self._check_schema(con)
                finally:
                    con.close()
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
            con.execute("PRAGMA journal_mode = WAL")
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
            when = ("an older" if isinstance(version, int) and version < SCHEMA else
                    "a newer" if isinstance(version, int) else "an unknown")
            raise ValueError(f"The data file {self.path} was written by {when} version of Open Book (format "
                             f"{version}; this one reads format {SCHEMA}). {self._fix()}")

    def _recheck(self) -> None:
        """check(), again if the file was deleted since (the page says deleting it is how to remove everything)."""
        if self._checked and not self.path.exists():
            self._checked = False
        self.check()

    def _read(self, sql: str, args=()) -> list:
        self._recheck()
        try:
            con = self._connect()
            try:
                return con.execute(sql, args).fetchall()
            finally:
                con.close()
        except sqlite3.DatabaseError as e:
            raise ValueError(f"The data file {self.path} cannot be read ({e}). {self._fix()}") from None

    def _write(self, statements) -> int | None:
        """Run [(sql, args), ...] as one IMMEDIATE transaction; the last row id."""
        self._recheck()
        try:
            con = self._connect()
            try:
                con.execute("BEGIN IMMEDIATE")
                try:
                    last = None
                    for sql, args in statements:
                        last = con.execute(sql, args).lastrowid
                    con.execute("COMMIT")
                    return last
                except BaseException:
                    con.execute("ROLLBACK")
                    raise
            finally:
                con.close()
        except sqlite3.OperationalError as e:
            raise ValueError(f"Cannot write to the data file {self.path} ({e}): another program may hold it, or the "
                             f"disk is full or read-only. Try again; if it persists, set {ENV} to another "
                             "folder.") from None
        except sqlite3.DatabaseError as e:
            raise ValueError(f"The data file {self.path} cannot be written ({e}). {self._fix()}") from None

    # ---- datasets -------------------------------------------------------------------------------------
    def save_dataset(self, name: str, documents, golden=()) -> str | None:
        """Keep an uploaded dataset under its content hash (the same key is kept once); None when switched off."""
        key = dataset_key(name, documents, golden)
        if not self.enabled:
            return None
        content = zlib.compress(json.dumps({"documents": [[d.id, d.text, d.status] for d in documents],
                                            "golden": [[r.question, r.doc, r.anchor] for r in golden]},
                                           ensure_ascii=False).encode(), 3)
        words = sum(len(d.text.split()) for d in documents)
        self._write([("INSERT OR IGNORE INTO datasets VALUES (?, ?, ?, ?, ?, ?, ?)",
                      (key, name, len(documents), words, len(golden), content, _now()))])
        return key

    def load_dataset(self, key: str) -> SavedDataset | None:
        """The dataset saved under `key`, or None (never saved, deleted, or the store is off)."""
        if not self.enabled:
            return None
        rows = self._read("SELECT name, content FROM datasets WHERE key = ?", (key,))
        if not rows:
            return None
        data = json.loads(zlib.decompress(rows[0][1]))
        return SavedDataset(key, rows[0][0], tuple(Document(i, t, s) for i, t, s in data["documents"]),
                            tuple(GoldenRow(*r) for r in data["golden"]))

    def list_datasets(self) -> list[DatasetInfo]:
        if not self.enabled:
            return []
        return [DatasetInfo(*r) for r in self._read(
            "SELECT key, name, documents, words, questions, created_at FROM datasets ORDER BY created_at, key")]

    def delete_dataset(self, key: str) -> None:
        """Forget a dataset and every run made on it."""
        if self.enabled:
            self._write([("DELETE FROM runs WHERE dataset_key = ?", (key,)),
                         ("DELETE FROM datasets WHERE key = ?", (key,))])

    # ---- runs -----------------------------------------------------------------------------------------
    def save_run(self, setup: Setup, results, dataset_key: str, dataset_name: str, golden: str,
                 model: str = "scripted", chunks: int | None = None) -> int | None:
        """Keep one setup's results on a golden set; its id, or None when the store is off."""
        if not self.enabled:
            return None
        results = list(results)
        found = sum(r.first_rank is not None and r.first_rank <= setup.k for r in results)
        answered = sum(r.stage == "answered" for r in results)
        body = json.dumps([r.as_dict() for r in results], ensure_ascii=False)
        return self._write([("INSERT INTO runs (created_at, name, setup, dataset_key, dataset_name, golden_key, model, "
                             "questions, answered, found, chunks, results) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             (_now(), setup.name, setup.to_text(), dataset_key, dataset_name, golden, model,
                              len(results), answered, found, chunks, body))])

    def save_comparison(self, comparison, dataset_key: str, dataset_name: str, golden: str,
                        model: str = "scripted") -> list:
        """Save each setup of a compare.Comparison as its own run; the ids (None each when the store is off).
        model: the configured model's name, recorded for the setups whose generator is "model"."""
        return [self.save_run(s, comparison.results[s.name], dataset_key, dataset_name, golden,
                              model if s.generator == "model" else "scripted", comparison.chunks.get(s.name))
                for s in comparison.setups]

    _INFO = ("SELECT id, created_at, name, setup, dataset_key, dataset_name, golden_key, model, questions, answered, "
             "found, chunks FROM runs")

    def list_runs(self, dataset_key: str | None = None, golden: str | None = None) -> list[RunInfo]:
        """Past runs, newest first; only those of a dataset or a golden set when given."""
        if not self.enabled:
            return []
        where, args = [], []
        for col, v in (("dataset_key", dataset_key), ("golden_key", golden)):
            if v is not None:
                where.append(f"{col} = ?")
                args.append(v)
        sql = self._INFO + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id DESC"
        return [RunInfo(*r) for r in self._read(sql, args)]

    def load_run(self, run_id: int) -> Run:
        """A saved run with its setup and per-question results; ValueError when there is none with this id."""
        rows = self._read(self._INFO.replace(" FROM", ", results FROM") + " WHERE id = ?", (int(run_id),)) \
            if self.enabled else []
        if not rows:
            raise ValueError(f"There is no saved run {run_id}" + ("." if self.enabled else f" ({ENV} is off)."))
        info = RunInfo(*rows[0][:-1])
        results = [QuestionResult(**r) for r in json.loads(rows[0][-1])]
        return Run(info, parse_setup(info.setup, options="any"), results)

    def delete_run(self, run_id: int) -> None:
        if self.enabled:
            self._write([("DELETE FROM runs WHERE id = ?", (int(run_id),))])

    def delete_all(self) -> None:
        """Forget every dataset and run; the file stays, empty (delete it by hand to remove it too)."""
        if not self.enabled:
            return
        self._write([("DELETE FROM runs", ()), ("DELETE FROM datasets", ())])
        con = self._connect()
        try:
            con.execute("VACUUM")
        except sqlite3.OperationalError:     # another session is reading: the space is reused later anyway
            pass
        finally:
            con.close()
