"""What outlives a reload: uploaded datasets (by content hash) and golden-set runs, in a SQLite file or PostgreSQL.

    store = Store.default()                 # <data folder>/openbook.sqlite3; PostgreSQL with OPENBOOK_STORE=postgres
    store = Store.postgres("postgresql://ann:s3cret@db/openbook")       # shared by every dashboard pointed at it
    key = store.save_dataset("notes", documents, golden_rows)         # "user-3f2a...", the same key as a link's data=
    run = store.save_run(setup, results, key, "notes", golden_key(rows), model="scripted")
    store.list_runs(key) -> [RunInfo(id, created_at, name, setup, model, questions, answered, ...)]
    store.list_runs(golden=g, holding=key)  # what a dashboard session holding dataset `key` may see (below)
    store.load_run(run) -> Run(info, setup, results)
    store.delete_run(run, holding=key); store.delete_dataset(key); store.delete_all()
    store.labels.set("bundled", question, answer, spans, "right")      # people's labels (labels.py)

Where: `Store.default()` reads OPENBOOK_STORE. Unset (or 'sqlite'): the file in the data folder,
`datadir.data_dir()` (OPENBOOK_DATA_DIR; "off" keeps nothing: every save is a no-op that returns None and
`describe()` says so), see sqlite.py. 'postgres': the database at OPENBOOK_DATABASE_URL, the search engine's,
in tables of their own, see postgres.py. Both behave the same: every write is one transaction, so sessions and
processes writing at once lose nothing, and a store written in another format is never touched (every call raises
a ValueError saying which one and how to fix it).

Who sees a run. A run on a built-in dataset (a key that is a name: 'bundled', 'bundled-user', 'stdlib') is
everyone's. A run on an upload (a content key, 'user-...') is seen only where that upload is open: by the
session that made it while it holds the upload, and by any session holding the same documents and golden set
(uploaded again, or opened through a link to the upload, which works because the upload is kept here with its
runs). So a session never lists, loads or deletes runs made on documents it does not have. A caller says which
dataset it holds with `holding=` (the dashboard: the session's active dataset); without it (the command line, run
by whoever owns the file or database) every run is seen.

This module holds what the two share: the SQL of each call (the records, keys and format number are in
records.py), written once with `?` placeholders and {datasets}/{runs} for the table names. A backend runs it: `read(sql, args)` -> rows,
`write([(sql, args), ...])` as one transaction, `insert(sql, args)` -> the new row's id, `check()`, `compact()`,
and `describe()` -> where, and how to remove everything (the end of Store.describe()'s "... are kept in ").

Left out on purpose: migrations between formats (a new format starts a new store; runs are cheap to redo
compared with a silent mis-read), copying runs from one backend to the other, and indexes or vectors (rebuilt).
"""
from __future__ import annotations

import json
import os
import zlib
from pathlib import Path

from rag_core.data.corpus import Document
from rag_core.data.golden import as_row
from rag_core.datadir import ENV, data_dir
from rag_core.evaluation.losses import QuestionResult
from rag_core.evaluation.setup import Setup, parse_setup
from rag_core.store.labels import Labels
from rag_core.store.records import (FILE_NAME, STORE_ENV, UPLOAD, DatasetInfo, Run, RunInfo, SavedDataset,
                                    dataset_key, now)
from rag_core.store.sqlite import SqliteFile
from rag_core.retrieval.engines.registry import database_url


class Store:
    def __init__(self, path: Path | str | None, db=None):
        """Store(path): the SQLite file at path, or a store that keeps nothing (None). Store.postgres(url) for a
        database; `db` is the backend itself (sqlite.SqliteFile, postgres.PostgresTables)."""
        self.path = Path(path) if path is not None else None
        if db is None and self.path is not None:
            db = SqliteFile(self.path)
        self._db = db                       # None: keep nothing

    @classmethod
    def default(cls, env=None) -> "Store":
        """The store OPENBOOK_STORE names: unset or 'sqlite', the file in the data folder (see datadir; one that
        keeps nothing when that is off); 'postgres', the database at OPENBOOK_DATABASE_URL."""
        env = os.environ if env is None else env
        kind = env.get(STORE_ENV, "").strip().lower()
        if kind == "postgres":
            return cls.postgres(database_url(env=env))
        if kind not in ("", "sqlite"):
            raise ValueError(f"{STORE_ENV}={kind!r} names no store: set it to 'postgres' (the database at "
                             "OPENBOOK_DATABASE_URL) or 'sqlite' (a file in the data folder), or unset it.")
        folder = data_dir(env)
        return cls(folder / FILE_NAME if folder is not None else None)

    @classmethod
    def postgres(cls, url: str) -> "Store":
        """The store in the PostgreSQL database at url (postgresql://user:password@host:5432/database)."""
        from rag_core.store.postgres import PostgresTables   # psycopg: only for this store
        return cls(None, PostgresTables(url))

    def __repr__(self) -> str:
        return f"Store({self._db!r})"        # a backend's repr masks the password

    @property
    def enabled(self) -> bool:
        return self._db is not None

    @property
    def where(self) -> str:
        """Where things are kept, in a few words (never a password): the file, or the database."""
        return str(self.path) if self.path is not None else getattr(self._db, "where", "nowhere")

    def describe(self) -> str:
        """What is stored and where, and how to delete it: one paragraph for the page."""
        if not self.enabled:
            return (f"Nothing is kept on disk ({ENV} is off): datasets and runs last as long as the browser "
                    "session.")
        return (f"Saved datasets (the documents and golden set you uploaded), runs (setup, dataset, golden set, "
                f"model, every question's result and when) and your labels of answers (right or wrong) are kept in "
                f"{self._db.describe()}")

    @property
    def labels(self) -> Labels:
        """People's right or wrong of answers, by dataset (see labels.py)."""
        return Labels(self._db)

    def check(self) -> None:
        """Open the store once: create it, or make sure it is an Open Book store of this format (else ValueError)."""
        if self.enabled:
            self._db.check()

    @property
    def read_only(self) -> str | None:
        """Why nothing new can be saved while what was saved is still listed (a data folder that cannot be
        written), or None. Every save and delete then raises ValueError with this reason."""
        self.check()
        return getattr(self._db, "read_only", None) if self.enabled else None

    # ---- datasets -------------------------------------------------------------------------------------
    def save_dataset(self, name: str, documents, golden=()) -> str | None:
        """Keep an uploaded dataset under its content hash (the same key is kept once); None when switched off."""
        key = dataset_key(name, documents, golden)
        if not self.enabled:
            return None
        golden = [[r.question, r.doc, r.anchor] + _optional(r) for r in golden]
        content = zlib.compress(json.dumps({"documents": [[d.id, d.text, d.status] for d in documents],
                                            "golden": golden},
                                           ensure_ascii=False).encode(), 3)
        words = sum(len(d.text.split()) for d in documents)
        self._db.write([("INSERT INTO {datasets} VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
                         (key, name, len(documents), words, len(golden), content, now()))])
        return key

    def load_dataset(self, key: str) -> SavedDataset | None:
        """The dataset saved under `key`, or None (never saved, deleted, or the store is off)."""
        if not self.enabled:
            return None
        rows = self._db.read("SELECT name, content FROM {datasets} WHERE key = ?", (key,))
        if not rows:
            return None
        data = json.loads(zlib.decompress(rows[0][1]))
        return SavedDataset(key, rows[0][0], tuple(Document(i, t, s) for i, t, s in data["documents"]),
                            tuple(as_row(r) for r in data["golden"]))

    def list_datasets(self) -> list[DatasetInfo]:
        if not self.enabled:
            return []
        return [DatasetInfo(*r) for r in self._db.read(
            "SELECT key, name, documents, words, questions, created_at FROM {datasets} ORDER BY created_at, key")]

    def delete_dataset(self, key: str) -> None:
        """Forget a dataset, every run made on it and its labels."""
        if self.enabled:
            self._db.write([("DELETE FROM {runs} WHERE dataset_key = ?", (key,)),
                            ("DELETE FROM {labels} WHERE dataset_key = ?", (key,)),
                            ("DELETE FROM {datasets} WHERE key = ?", (key,))])

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
        return self._db.insert("INSERT INTO {runs} (created_at, name, setup, dataset_key, dataset_name, golden_key, "
                               "model, questions, answered, found, chunks, results) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               (now(), setup.name, setup.to_text(), dataset_key, dataset_name, golden, model,
                                len(results), answered, found, chunks, body))

    def save_comparison(self, comparison, dataset_key: str, dataset_name: str, golden: str,
                        model: str = "scripted") -> list:
        """Save each setup of a compare.Comparison as its own run; the ids (None each when the store is off).
        model: the configured model's name, recorded for the setups whose generator is "model"."""
        return [self.save_run(s, comparison.results[s.name], dataset_key, dataset_name, golden,
                              model if s.generator == "model" else "scripted", comparison.chunks.get(s.name))
                for s in comparison.setups]

    _INFO = ("SELECT id, created_at, name, setup, dataset_key, dataset_name, golden_key, model, questions, answered, "
             "found, chunks FROM {runs}")

    @staticmethod
    def _seen(holding: str | None) -> tuple[list, list]:
        """The WHERE terms and arguments that keep the runs a holder of dataset `holding` may see (module docstring):
        None -> ([], []); 'user-3f2a...' -> (["(substr(dataset_key, 1, 5) <> ? OR dataset_key = ?)"], [...])."""
        if holding is None:
            return [], []
        return [f"(substr(dataset_key, 1, {len(UPLOAD)}) <> ? OR dataset_key = ?)"], [UPLOAD, holding]

    def list_runs(self, dataset_key: str | None = None, golden: str | None = None,
                  holding: str | None = None) -> list[RunInfo]:
        """Past runs, newest first; only those of a dataset or a golden set when given, and only those a session
        holding dataset `holding` may see when given (runs on other uploads are left out)."""
        if not self.enabled:
            return []
        where, args = self._seen(holding)
        for col, v in (("dataset_key", dataset_key), ("golden_key", golden)):
            if v is not None:
                where.append(f"{col} = ?")
                args.append(v)
        sql = self._INFO + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id DESC"
        return [RunInfo(*r) for r in self._db.read(sql, args)]

    def load_run(self, run_id: int, holding: str | None = None) -> Run:
        """A saved run with its setup and per-question results; ValueError when there is none with this id (that
        a session holding dataset `holding` may see, when given)."""
        where, args = self._seen(holding)
        rows = self._db.read(self._INFO.replace(" FROM", ", results FROM") + " WHERE " +
                             " AND ".join(["id = ?"] + where), [int(run_id)] + args) if self.enabled else []
        if not rows:
            raise ValueError(f"There is no saved run {run_id}" + ("." if self.enabled else f" ({ENV} is off)."))
        info = RunInfo(*rows[0][:-1])
        results = [QuestionResult(**r) for r in json.loads(rows[0][-1])]
        return Run(info, parse_setup(info.setup, options="any"), results)

    def delete_run(self, run_id: int, holding: str | None = None) -> None:
        """Forget a run (only if a session holding dataset `holding` may see it, when given)."""
        if self.enabled:
            where, args = self._seen(holding)
            self._db.write([("DELETE FROM {runs} WHERE " + " AND ".join(["id = ?"] + where),
                             tuple([int(run_id)] + args))])

    def delete_all(self) -> None:
        """Forget every dataset, run and label; the file or the tables stay, empty (delete them by hand to remove them
        too)."""
        if self.enabled:
            self._db.write([("DELETE FROM {runs}", ()), ("DELETE FROM {datasets}", ()), ("DELETE FROM {labels}", ())])
            self._db.compact()


def _optional(row) -> list:
    """A golden row's answer key, reply and accepted wordings as kept: [], [key], [key or "", reply], or
    [key or "", reply or "", [wordings]]."""
    answer, reply = getattr(row, "answer", "") or "", getattr(row, "reply", "") or ""
    accept = list(getattr(row, "accept", ()) or ())
    return [answer, reply, accept] if accept else [answer, reply] if reply else [answer] if answer else []
