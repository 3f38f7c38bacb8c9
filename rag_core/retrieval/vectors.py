"""The trained encoder's vectors, computed once: shipped for the bundled corpus, remembered in memory and on disk.

    emb = Embedder.default()                    # MiniLM (the path chosen for uploads); the disk cache in data_dir()
    Embedder(store, path="onnx-int8")          # a forward pass of encoder_path.PATHS (bare: the numpy reference)
    emb.prepare(chunks, whole, questions, cb)   # one pass, one count: everything no cache holds (see progress)
    emb.vectors(texts, on_progress=cb)          # (n, 384) float32: only texts never seen before are encoded
    emb.query("How do I sort a list?")          # (384,): a question, encoded alone
    emb.whole(texts)                            # per text, (m, 384): windows that cover the whole text
    emb.using(backend)                          # the same caches; the encoding done by `backend` (e.g. a Ray pool)
    other.remember(emb.held(chunks, whole, questions))   # another embedder (a Ray worker) seeded with these vectors

A vector's key is (model, sha256 of the text); the model key names the forward pass too (encoder_path.keys: the
numpy reference's keys, or a fast path's), so vectors of two paths never mix. So a chunker change or a restart encodes only the chunks never
encoded before. The caches are read in order: the pack shipped with the bundled corpus (retrieval.pack, read-only:
`Embedder.default()` reads it, a bare `Embedder()` does not), memory, disk. On disk it is one SQLite file in the data folder (`datadir.data_dir()`, "vectors.sqlite3") in
WAL mode: two processes writing at once take turns (busy timeout), a reader never sees half a write, and a
vector is written once (INSERT OR IGNORE: the same text gives the same vector). With the data folder switched
off (OPENBOOK_DATA_DIR=off), or a file that cannot be used, vectors live in memory only, and `problem` says why.

`whole` is for the dense rerank: the model reads 256 word pieces; a longer text is read in windows of 254
pieces overlapping by 64 ([CLS] and [SEP] around each), the first being the text's own vector.

Left out on purpose: eviction (a vector takes 1.5 KB, in memory and on disk, for as long as the process or the
file lasts; delete the file to start afresh) and other models.
"""
from __future__ import annotations

import contextlib
import copy
import functools
import hashlib
import os
import sqlite3
import threading
from pathlib import Path
from typing import Callable

import numpy as np

from rag_core.datadir import data_dir, switch_to_wal
from rag_core.retrieval import encoder_path
from rag_core.retrieval.minilm import DIM, MAX_PIECES, MiniLM
from rag_core.retrieval.pack import VectorPack
from rag_core.retrieval.progress import Count

MODEL_KEY, WINDOWS_KEY = encoder_path.REFERENCE_KEYS  # the reference's: package version and cut, then the windows
WINDOW, OVERLAP = MAX_PIECES - 2, 64                     # whole-text windows: pieces each, pieces shared
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
        switch_to_wal(con, BUSY_S)           # two processes creating the file at once: wait, as a writer does
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
    """MiniLM with its vectors remembered (the shipped pack, memory, then disk); thread-safe."""

    def __init__(self, store: VectorStore | None = None, threads: int = DEFAULT_THREADS, model=None,
                 pack: VectorPack | None = None, backend: Callable | None = None, path: str | None = None):
        """path: the forward pass (encoder_path.PATHS): the model's when a model is given, else `path`, else the
        numpy reference (`default` gives the one chosen for uploads); a fast path without onnxruntime gives the
        reference, and `note` says why."""
        self.path, self.note = encoder_path.resolve(model.path if model is not None else path or "numpy")
        self.chunk_key, self.windows_key = encoder_path.keys(self.path)   # the vector cache's model keys
        self.store = store if store is not None else VectorStore(None)
        self.pack = pack if pack is not None else VectorPack()    # read-only vectors shipped ahead (none by default)
        self.threads = threads
        self._model = model
        self.backend = backend        # backend(seqs, threads, on_batch, path=) like encode_pieces; None: this process
        self._memory: dict[tuple[str, bytes], np.ndarray] = {}     # (model key, text key) -> (rows, 384)
        self._queries: dict[str, np.ndarray] = {}
        self._fresh = 0                                           # > 0 inside fresh_queries()
        self._lock = threading.RLock()
        self._loading = threading.Lock()                          # held while the model loads
        self.encoded = 0                                          # texts encoded by the model (not from a cache)

    @classmethod
    def default(cls, path: str | None = None) -> "Embedder":
        """The process's embedder for the data folder in force (OPENBOOK_DATA_DIR) and the forward pass `path`
        (None: the one chosen for an upload): one per folder and path, reading the bundled corpus's pack first
        (it holds the reference's vectors only)."""
        try:
            folder, problem = data_dir(), ""
        except ValueError as e:                                  # a folder that cannot be made: memory only
            folder, problem = None, f"Vectors are kept in memory only: {e}"
        return _default_for(str(folder / FILE_NAME) if folder else "", problem, path or encoder_path.chosen())

    def using(self, backend: Callable | None) -> "Embedder":
        """A sibling that encodes with `backend` (None: in this process) and shares the caches and the lock."""
        sibling = copy.copy(self)
        sibling.backend, sibling.encoded = backend, 0
        return sibling

    @property
    def model(self):
        """The encoder of the path (MiniLM or OnnxMiniLM), loaded on first use (once: a second caller waits for the
        first, e.g. a warm-up thread)."""
        with self._loading:
            if self._model is None:
                self._model = encoder_path.load(self.path)
            return self._model

    @property
    def problem(self) -> str:
        return self.store.problem

    def _cached(self, model: str, keys: list[bytes]) -> dict[bytes, np.ndarray]:
        got = {k: self._memory[(model, k)] for k in keys if (model, k) in self._memory}
        got.update(self.pack.get_many(model, [k for k in keys if k not in got]))
        from_disk = self.store.get_many(model, [k for k in dict.fromkeys(keys) if k not in got])
        for k, v in from_disk.items():
            self._memory[(model, k)] = v
        got.update(from_disk)
        return got

    def _missing(self, model: str, texts) -> dict[bytes, str]:
        """text key -> text, for the texts in no cache (pack, memory, disk), without repeats."""
        keys = {text_key(t): t for t in texts}
        got = self._cached(model, list(keys))
        return {k: t for k, t in keys.items() if k not in got}

    def missing(self, chunks=(), whole=(), questions=()) -> int:
        """How many of these texts no cache holds (prepare's arguments; a text lacking its windows counts once)."""
        with self._lock:
            return (len(self._missing(self.chunk_key, chunks)) + len(self._missing(self.windows_key, whole))
                    + len(self._missing_questions(questions)))

    def _missing_questions(self, questions) -> list[str]:
        return [q for q in dict.fromkeys(questions)
                if q not in self._queries and (self.chunk_key, text_key(q)) not in self.pack]

    def prepare(self, chunks=(), whole=(), questions=(), on_progress: Callable[[int, int, str], None] | None = None,
                alone: bool = False) -> int:
        """Encode in one pass, with one count (progress.Count), everything no cache holds: the vectors of the
        `chunks`, the further windows of the texts in `whole` (for the dense rerank), then the vectors of the
        `questions`. Returns how many texts were encoded.

        The total is counted before the first batch, so that on_progress(done, total, sentence) never restarts.
        Chunks and windows are batched (longest first), unless `alone`; a question is always encoded alone, as
        `query` does: on some CPUs (AVX-512 OpenBLAS) the last bits of a vector depend on its batch, and a
        question's vector must not depend on what was asked with it.
        """
        with self._lock:
            first = self._missing(self.chunk_key, chunks)
            rest = self._missing(self.windows_key, whole)
            asked = self._missing_questions(questions)
            if not (first or rest or asked):
                return 0
            seqs, dest = [], []              # framed pieces; where each vector goes: (kind, key[, window number])
            for k, p in zip(first, self.model.pieces(list(first.values())) if first else []):
                seqs.append(MiniLM.framed(p))
                dest.append(("chunk", k))
            further = {}                     # text key -> how many windows after the first
            for k, p in zip(rest, self.model.pieces(list(rest.values())) if rest else []):
                starts = windows(p)[1:]
                further[k] = len(starts)
                for w, s in enumerate(starts):
                    seqs.append(MiniLM.framed(p[s:]))                             # WINDOW pieces framed
                    dest.append(("window", k, w))
            batched = len(seqs)              # the questions come after, each alone
            for q, p in zip(asked, self.model.pieces(asked) if asked else []):
                seqs.append(MiniLM.framed(p))
                dest.append(("question", q))
            count = Count(len(seqs), sum(len(s) for s in seqs), on_progress) if seqs else None
            done_windows = {}

            def batch_done(positions, vecs):
                chunks_now = {}
                for p, v in zip(positions.tolist(), vecs):
                    d = dest[p]
                    if d[0] == "chunk":
                        chunks_now[d[1]] = self._memory[(self.chunk_key, d[1])] = v[None, :].copy()
                    elif d[0] == "window":
                        done_windows[d[1:]] = v.copy()
                    else:
                        self._remember_query(d[1], v.copy())
                self.store.put_many(self.chunk_key, chunks_now)   # an interrupted pass keeps what it did
                self.encoded += len(positions)
                count.add(len(positions), sum(len(seqs[p]) for p in positions.tolist()))

            if batched and not alone:        # here, or by a backend (e.g. a Ray pool, told the path) into the same caches
                if self.backend:
                    self.backend(seqs[:batched], self.threads, batch_done, path=self.path)
                else:
                    self.model.encode_pieces(seqs[:batched], self.threads, batch_done)
            for i in range(0 if alone else batched, len(seqs)):
                batch_done(np.array([i]), self.model.encode_pieces([seqs[i]]))
            items = {k: np.stack([done_windows[(k, w)] for w in range(n)]) if n else np.zeros((0, DIM), np.float32)
                     for k, n in further.items()}
            for k, v in items.items():
                self._memory[(self.windows_key, k)] = v
            self.store.put_many(self.windows_key, items)
            return len(seqs)

    def vectors(self, texts: list[str], on_progress: Callable[[int, int, str], None] | None = None) -> np.ndarray:
        """(n, 384) unit vectors of the texts (each read up to 256 word pieces); on_progress(done, total, what)."""
        keys = [text_key(t) for t in texts]
        with self._lock:
            self.prepare(chunks=texts, on_progress=on_progress)
            got = self._cached(self.chunk_key, keys)
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        for i, k in enumerate(keys):
            out[i] = got[k][0]
        return out

    def whole(self, texts: list[str], on_progress=None) -> list[np.ndarray]:
        """Per text, (m, 384): its own vector, then one per further window of 254 pieces (none for a short text)."""
        keys = [text_key(t) for t in texts]
        with self._lock:
            self.prepare(chunks=texts, whole=texts, on_progress=on_progress)
            first, rest = self._cached(self.chunk_key, keys), self._cached(self.windows_key, keys)
        return [np.concatenate([first[k][:1], rest[k]]) for k in keys]

    def held(self, chunks=(), whole=(), questions=()) -> dict:
        """What the caches hold for prepare's arguments, to hand to another embedder (`remember`), e.g. a Ray
        worker on another node, which shares no disk cache: {"chunks": {text key: (1, 384)}, "windows": {text key:
        (m, 384)}, "questions": {question: (384,)}}. A chunk no cache holds is left out (prepare first); a
        question is read as `query` reads it."""
        with self._lock:
            return {"path": self.path,
                    "chunks": self._cached(self.chunk_key, [text_key(t) for t in dict.fromkeys(chunks)]),
                    "windows": self._cached(self.windows_key, [text_key(t) for t in dict.fromkeys(whole)]),
                    "questions": {q: self.query(q) for q in dict.fromkeys(questions)}}

    def remember(self, held: dict) -> None:
        """Keep in memory the vectors another embedder `held`, as if encoded here: what they cover is never
        encoded by this one (nor written to its disk cache). ValueError when they come from another forward pass."""
        if held.get("path", self.path) != self.path:
            raise ValueError(f"These vectors come from {held['path']!r}, this embedder encodes with {self.path!r}: "
                             "make it with Embedder(path=...) of the same path.")
        with self._lock:
            for model, part in ((self.chunk_key, "chunks"), (self.windows_key, "windows")):
                for k, v in held.get(part, {}).items():
                    self._memory[(model, k)] = v
            for q, v in held.get("questions", {}).items():
                self._remember_query(q, v)

    def _remember_query(self, question: str, v: np.ndarray) -> None:
        if len(self._queries) > 4096:
            self._queries.clear()
        self._queries[question] = v

    def query(self, question: str) -> np.ndarray:
        """(384,) unit vector of a question, encoded alone (so that it never depends on other questions): from
        memory (`prepare` encodes questions alone too), the pack, or the encoder."""
        with self._lock:
            if self._fresh:                  # a timing: every question encoded anew, nothing remembered
                return self.model.encode([question])[0]
            v = self._queries.get(question)
            if v is None:
                packed = self.pack.get_many(self.chunk_key, [text_key(question)])
                v = next(iter(packed.values()))[0] if packed else self.model.encode([question])[0]
                self._remember_query(question, v)
            return v

    @contextlib.contextmanager
    def fresh_queries(self):
        """Within it, `query` encodes every question anew and remembers nothing, so that a timing counts what a
        new question costs; the caches are left as they are."""
        with self._lock:
            self._fresh += 1
        try:
            yield
        finally:
            with self._lock:
                self._fresh -= 1


@functools.cache
def _default_for(file: str, problem: str, path: str) -> Embedder:
    store = VectorStore(file or None)
    store.problem = store.problem or problem
    return Embedder(store, pack=VectorPack.bundled(), path=path)
