"""The trained encoder's vectors, computed once: remembered in memory and on disk by model and text.

    emb = Embedder.default()                    # MiniLM from the installed package; the disk cache in data_dir()
    emb.vectors(texts, on_progress=cb)          # (n, 384) float32: only texts never seen before are encoded
    emb.query("How do I sort a list?")          # (384,): a question, encoded alone
    emb.whole(texts)                            # per text, (m, 384): windows that cover the whole text
    emb.using(backend)                          # the same caches; the encoding done by `backend` (e.g. a Ray pool)

A vector's key is (model, sha256 of the text), so a chunker change or a restart encodes only the chunks never
encoded before. On disk it is one SQLite file in the data folder (`datadir.data_dir()`, "vectors.sqlite3") in
WAL mode: two processes writing at once take turns (busy timeout), a reader never sees half a write, and a
vector is written once (INSERT OR IGNORE: the same text gives the same vector). With the data folder switched
off (OPENBOOK_DATA_DIR=off), or a file that cannot be used, vectors live in memory only, and `problem` says why.

`whole` is for the dense rerank: the model reads 256 word pieces; a longer text is read in windows of 254
pieces overlapping by 64 ([CLS] and [SEP] around each), the first being the text's own vector.

Left out on purpose: eviction (a vector takes 1.5 KB, in memory and on disk, for as long as the process or the
file lasts; delete the file to start afresh) and other models.
"""
from __future__ import annotations

import copy
import functools
import hashlib
import os
import sqlite3
import threading
from pathlib import Path
from typing import Callable

import numpy as np

from rag_core.retrieval.minilm import DIM, MAX_PIECES, MODEL_ID, MiniLM

MODEL_KEY = f"{MODEL_ID}@0.1.0/cut-{MAX_PIECES}"        # package version and cut: a change makes new keys
WINDOW, OVERLAP = MAX_PIECES - 2, 64                     # whole-text windows: pieces each, pieces shared
WINDOWS_KEY = f"{MODEL_ID}@0.1.0/windows-{WINDOW}-{OVERLAP}"   # the windows after the first (none for a short text)
FILE_NAME = "vectors.sqlite3"
BUSY_S = 30.0
DEFAULT_THREADS = min(2, os.cpu_count() or 1)


def text_key(text: str) -> bytes:
    """sha256 of the text's UTF-8 bytes (32 bytes)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def windows(pieces: np.ndarray) -> list[int]:
    """The starts of the windows that cover a text of n pieces: 300 pieces -> [0, 190] (254 long, 64 shared)."""
    step = WINDOW - OVERLAP
    return list(range(0, max(1, len(pieces) - OVERLAP), step)) if len(pieces) > WINDOW else [0]


class VectorStore:
    """(model, key) -> float32 array (rows, 384), in one SQLite file; every call opens its own connection."""

    def __init__(self, path: Path | str | None):
        self.path = Path(path) if path is not None else None
        self.problem = ""                                   # why the disk is not used, if it is not
        if self.path is not None:
            self._run(self._create)

    def _run(self, work, default=None):
        """work(connection), or `default` once the disk is given up (the first failure says why, in `problem`)."""
        if self.path is None:
            return default
        try:
            con = sqlite3.connect(self.path, timeout=BUSY_S, isolation_level=None)
            try:
                return work(con)
            finally:
                con.close()
        except (sqlite3.Error, OSError) as e:
            self.problem = (f"The vector cache {str(self.path)!r} cannot be used ({e}); vectors are kept in memory "
                            f"only. Delete the file to rebuild it, or set OPENBOOK_DATA_DIR to another folder.")
            self.path = None
            return default

    @staticmethod
    def _create(con):
        con.execute("PRAGMA journal_mode = WAL")
        con.execute("CREATE TABLE IF NOT EXISTS vectors (model TEXT NOT NULL, key BLOB NOT NULL, "
                    "rows INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (model, key)) WITHOUT ROWID")

    def get_many(self, model: str, keys: list[bytes]) -> dict[bytes, np.ndarray]:
        def work(con):
            out = {}
            for a in range(0, len(keys), 500):                       # SQLite's limit on bound parameters
                part = keys[a:a + 500]
                sql = f"SELECT key, rows, data FROM vectors WHERE model = ? AND key IN ({','.join('?' * len(part))})"
                for key, rows, data in con.execute(sql, [model, *part]):
                    out[key] = np.frombuffer(data, dtype=np.float32).reshape(rows, DIM)
            return out
        return self._run(work, {}) if keys else {}

    def put_many(self, model: str, items: dict[bytes, np.ndarray]) -> None:
        def work(con):
            con.execute("BEGIN IMMEDIATE")
            con.executemany("INSERT OR IGNORE INTO vectors VALUES (?, ?, ?, ?)",
                            [(model, k, len(v), np.ascontiguousarray(v, dtype=np.float32).tobytes())
                             for k, v in items.items()])
            con.execute("COMMIT")
        if items:
            self._run(work)


class Embedder:
    """MiniLM with its vectors remembered (memory, then disk); thread-safe."""

    def __init__(self, store: VectorStore | None = None, threads: int = DEFAULT_THREADS, model: MiniLM | None = None,
                 backend: Callable | None = None):
        self.store = store if store is not None else VectorStore(None)
        self.threads = threads
        self._model = model
        self.backend = backend        # backend(seqs, threads, on_batch) like MiniLM.encode_pieces; None: this process
        self._memory: dict[tuple[str, bytes], np.ndarray] = {}     # (model key, text key) -> (rows, 384)
        self._queries: dict[str, np.ndarray] = {}
        self._lock = threading.RLock()
        self.encoded = 0                                          # texts encoded by the model (not from a cache)

    @classmethod
    def default(cls) -> "Embedder":
        """The process's embedder for the data folder in force (OPENBOOK_DATA_DIR): one per folder."""
        from rag_core.datadir import data_dir
        try:
            folder, problem = data_dir(), ""
        except ValueError as e:                                  # a folder that cannot be made: memory only
            folder, problem = None, f"Vectors are kept in memory only: {e}"
        return _default_for(str(folder / FILE_NAME) if folder else "", problem)

    def using(self, backend: Callable | None) -> "Embedder":
        """A sibling that encodes with `backend` (None: in this process) and shares the caches and the lock."""
        sibling = copy.copy(self)
        sibling.backend, sibling.encoded = backend, 0
        return sibling

    @property
    def model(self) -> MiniLM:
        if self._model is None:
            self._model = MiniLM.load()
        return self._model

    @property
    def problem(self) -> str:
        return self.store.problem

    def _cached(self, model: str, keys: list[bytes]) -> dict[bytes, np.ndarray]:
        got = {k: self._memory[(model, k)] for k in keys if (model, k) in self._memory}
        from_disk = self.store.get_many(model, [k for k in dict.fromkeys(keys) if k not in got])
        for k, v in from_disk.items():
            self._memory[(model, k)] = v
        got.update(from_disk)
        return got

    def _encode(self, model: str | None, todo: dict, on_progress, what: str) -> dict[bytes, np.ndarray]:
        """Encode framed piece sequences (key -> pieces); with a model key, each batch is remembered as it comes
        (an interrupted run keeps what it did)."""
        keys, total, done = list(todo), len(todo), 0
        out = {}
        if on_progress:
            on_progress(0, total, f"{what}: {total:,} left")

        def batch_done(positions, vecs):
            nonlocal done
            got = {keys[p]: v[None, :] for p, v in zip(positions.tolist(), vecs)}
            out.update(got)
            if model is not None:
                for k, v in got.items():
                    self._memory[(model, k)] = v
                self.store.put_many(model, got)
            done += len(got)
            self.encoded += len(got)
            if on_progress:
                on_progress(done, total, f"{what}: {total - done:,} left")

        (self.backend or self.model.encode_pieces)([todo[k] for k in keys], self.threads, batch_done)
        return out

    def vectors(self, texts: list[str], on_progress: Callable[[int, int, str], None] | None = None) -> np.ndarray:
        """(n, 384) unit vectors of the texts (each read up to 256 word pieces); on_progress(done, total, what)."""
        keys = [text_key(t) for t in texts]
        with self._lock:
            got = self._cached(MODEL_KEY, keys)
            missing = {k: t for k, t in zip(keys, texts) if k not in got}
            if missing:
                pieces = self.model.pieces(list(missing.values()))
                todo = {k: MiniLM.framed(p) for k, p in zip(missing, pieces)}
                got.update(self._encode(MODEL_KEY, todo, on_progress, f"Encoding chunks with {MODEL_ID}"))
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        for i, k in enumerate(keys):
            out[i] = got[k][0]
        return out

    def whole(self, texts: list[str], on_progress=None) -> list[np.ndarray]:
        """Per text, (m, 384): its own vector, then one per further window of 254 pieces (none for a short text)."""
        first = self.vectors(texts, on_progress)
        keys = [text_key(t) for t in texts]
        with self._lock:
            got = self._cached(WINDOWS_KEY, keys)
            missing = {k: t for k, t in zip(keys, texts) if k not in got}
            todo, rows = {}, {}      # text key + window number -> framed pieces; text key -> windows after the first
            for (k, t), p in zip(missing.items(), self.model.pieces(list(missing.values())) if missing else []):
                starts = windows(p)[1:]
                rows[k] = len(starts)
                for w, s in enumerate(starts):
                    todo[k + w.to_bytes(4, "big")] = MiniLM.framed(p[s:])          # WINDOW pieces framed
            done = self._encode(None, todo, on_progress, "Encoding long chunks' windows") if todo else {}
            items = {k: np.concatenate([done[k + w.to_bytes(4, "big")] for w in range(n)]) if n else
                     np.zeros((0, DIM), np.float32) for k, n in rows.items()}
            for k, v in items.items():
                self._memory[(WINDOWS_KEY, k)] = v
            self.store.put_many(WINDOWS_KEY, items)
            got.update(items)
        return [np.concatenate([first[i][None, :], got[k]]) for i, k in enumerate(keys)]

    def query(self, question: str) -> np.ndarray:
        """(384,) unit vector of a question, encoded alone (so that it never depends on other questions)."""
        with self._lock:
            v = self._queries.get(question)
            if v is None:
                if len(self._queries) > 4096:
                    self._queries.clear()
                v = self._queries[question] = self.model.encode([question])[0]
            return v


@functools.cache
def _default_for(path: str, problem: str) -> Embedder:
    store = VectorStore(path or None)
    store.problem = store.problem or problem
    return Embedder(store)
