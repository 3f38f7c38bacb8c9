"""The saved-runs store's records, keys and format number: what Store and both backends share, on a floor of its
own so neither backend imports the Store that uses it.

    dataset_key("notes", documents, golden)   # 'user-3f2a9c...' (16 hex digits), the same key as a link's data=
    golden_key(rows)                          # 'g-81d0...': runs with the same one compare question by question
    written_by(2)                             # 'written by a newer version of Open Book (format 2; ...)'

Left out on purpose: any SQL (base.py writes it once, sqlite.py and postgres.py run it) and any I/O.
"""
from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from typing import NamedTuple

from rag_core.evaluation.setup import Setup

SCHEMA = 1                                  # the format this version reads and writes
FILE_NAME = "openbook.sqlite3"
STORE_ENV = "OPENBOOK_STORE"                # unset or 'sqlite': the data folder; 'postgres': OPENBOOK_DATABASE_URL
UPLOAD = "user-"                            # how the key of an upload begins (dataset_key); built-in ones are names


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


class Label(NamedTuple):
    id: str                   # label_id(): one label per dataset, question, answer and spans
    dataset_key: str          # the dataset it was made on (a built-in name or 'user-...')
    question: str
    answer: str
    spans: tuple              # the span texts the answer was judged against, S1 first
    label: str                # "right" or "wrong": a person's reading
    anchor: str | None        # the golden anchor, for a golden question (None for one of your own)
    doc: str | None           # the golden row's document (None for a question of your own)
    source: str               # where the answer came from: scripted, preset, yours, model:<name>, bundled example
    created_at: str           # ISO 8601, UTC: when it was last set


def label_id(dataset_key: str, question: str, answer: str, spans) -> str:
    """The key of a label: 'l-' + 16 hex digits of its dataset, question, answer and spans (marking the same answer
    again replaces its label)."""
    h = hashlib.sha256(f"{dataset_key}\0{question}\0{answer}\0".encode())
    for s in spans:
        h.update(f"{s}\0".encode())
    return "l-" + h.hexdigest()[:16]


def dataset_key(name: str, documents, golden) -> str:
    """The content hash a dataset is known by, in links and here: 'user-' + 16 hex digits of its name, documents
    (id, status, text) and golden rows (question, doc, anchor); the dashboard's uploads are keyed the same way."""
    h = hashlib.sha256(f"{name}\0".encode())
    for d in documents:
        h.update(f"{d.id}\0{d.status}\0{d.text}\0".encode())
    for r in golden:
        h.update(f"{r.question}\0{r.doc}\0{r.anchor}\0".encode() + _keyed(r))
    return UPLOAD + h.hexdigest()[:16]


def _keyed(row) -> bytes:
    """A row's answer key, reply and accepted wordings for a hash: nothing for what it has not, so keys of rows
    without one stay as they were."""
    answer, reply, accept = getattr(row, "answer", ""), getattr(row, "reply", ""), getattr(row, "accept", ())
    return (f"key\0{answer}\0".encode() if answer else b"") + (f"reply\0{reply}\0".encode() if reply else b"") + \
        (("accept\0" + "".join(f"{a}\0" for a in accept)).encode() if accept else b"")


def golden_key(rows) -> str:
    """The hash of golden rows (question, doc, anchor), in order: 'g-' + 16 hex digits."""
    h = hashlib.sha256()
    for r in rows:
        h.update(f"{r.question}\0{r.doc}\0{r.anchor}\0".encode() + _keyed(r))
    return "g-" + h.hexdigest()[:16]


def written_by(version) -> str:
    """Which Open Book wrote a store of another format, for the backends' messages (this one reads format 1):
    0 -> 'written by an older version of Open Book (format 0; this one reads format 1)'; 2 -> '... a newer ...'."""
    when = ("an older" if isinstance(version, int) and version < SCHEMA else
            "a newer" if isinstance(version, int) else "an unknown")
    return f"written by {when} version of Open Book (format {version}; this one reads format {SCHEMA})"


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
