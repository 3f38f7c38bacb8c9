"""The one UI module that holds caches: datasets, their workbenches and the tables rag_core computes.

- `workbench()`: the active dataset's Workbench. The built-in datasets are shared by every session
  (st.cache_resource, read-only); an upload's lives in its own session and is released with it.
- `table(name, chunker)`: a rag_core table as a DataFrame (st.cache_data, per dataset and settings).
- `read_uploads`, `read_golden`: the user's files, read once per session.
- `latency()`: the latency table, timed live.

Left out on purpose: any computation (it belongs to rag_core) and persistence across server restarts.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from rag_core import ARTICLE_CHUNKER, ChunkerConfig, Workbench
from rag_core.data.corpus import Corpus, bundled_corpus
from rag_core.data.golden import load_golden
from rag_core.data.ingest import IngestResult, Limits, read_files, read_golden_csv
from rag_core.evaluation import tables


@dataclass(frozen=True)
class Dataset:
    key: str                      # "bundled", "bundled-user", or a hash of the name, documents and golden set
    name: str                     # shown to the user
    documents: tuple = ()         # Document objects (empty for the bundled corpus)
    golden: tuple = ()            # GoldenRow objects

    @property
    def uploaded(self) -> bool:
        return self.key not in BUILT_IN


BUNDLED = Dataset("bundled", "Bundled corpus (18 stdlib modules + 10 notes)")
BUNDLED_USER = Dataset("bundled-user", "Bundled corpus, questions phrased as a user would")
BUILT_IN = {BUNDLED.key: BUNDLED, BUNDLED_USER.key: BUNDLED_USER}


def make_dataset(name: str, documents, golden) -> Dataset:
    """A dataset keyed by everything it shows: its name, documents and golden rows."""
    h = hashlib.sha256(f"{name}\0".encode())
    for d in documents:
        h.update(f"{d.id}\0{d.status}\0{d.text}\0".encode())
    for r in golden:
        h.update(f"{r.question}\0{r.doc}\0{r.anchor}\0".encode())
    return Dataset("user-" + h.hexdigest()[:16], name, tuple(documents), tuple(golden))


def dataset() -> Dataset:
    """This browser session's active dataset (uploads live in the session, never shared)."""
    return st.session_state.get("dataset", BUNDLED)


def use_dataset(ds: Dataset) -> None:
    """Make `ds` the active dataset of this session; its key goes in the URL so a link can say what it showed."""
    st.session_state["dataset"] = ds
    if ds.uploaded:
        st.session_state["data_uploaded"] = ds
    st.query_params["data"] = ds.key


def dataset_from_link() -> str | None:
    """Follow the link's `data=`: a built-in dataset opens; an upload that this session no longer has is
    gone (uploads live only in the session that made them), said in a warning instead of silently showing
    the bundled corpus. Returns that warning, or None."""
    wanted = st.query_params.get("data")
    if not wanted or wanted == dataset().key:
        return None
    if wanted in BUILT_IN and "dataset" not in st.session_state:
        st.session_state["dataset"] = BUILT_IN[wanted]
        return None
    if wanted not in BUILT_IN and "dataset" not in st.session_state:
        st.query_params["data"] = BUNDLED.key
        return ("This link referred to uploaded data, which is gone: uploads live only in the browser session "
                "that made them, and end with it (a reload starts a new session). Showing the bundled corpus; "
                "upload the files again on the Your data page.")
    st.query_params["data"] = dataset().key
    return None


@st.cache_resource(max_entries=2, show_spinner="Reading and tokenizing the corpus…")
def _built_in(key: str) -> Workbench:
    if key == BUNDLED.key:
        return Workbench.bundled()
    return Workbench(bundled_corpus(), load_golden("user"))


def workbench() -> Workbench:
    """The active dataset's Workbench. The built-in ones are shared by every session (read-only); an upload's
    lives in its session alone and is released with it, so memory follows the sessions that are open."""
    ds = dataset()
    if not ds.uploaded:
        return _built_in(ds.key)
    held = st.session_state.get("_workbench")
    if held is None or held[0] != ds.key:
        with st.spinner("Reading and tokenizing the corpus…"):
            held = (ds.key, Workbench(Corpus(ds.documents, name=ds.name), ds.golden or []))
        st.session_state["_workbench"] = held
    return held[1]


@st.cache_data(max_entries=256, show_spinner="Computing…")
def _table(key: str, name: str, chunker: ChunkerConfig, _wb: Workbench) -> pd.DataFrame:
    return tables.TABLES[name](_wb, chunker)


def table(name: str, chunker: ChunkerConfig = ARTICLE_CHUNKER) -> pd.DataFrame:
    """A rag_core table for the active dataset (and chunker, for the tables that take one).

    Tables are small (a few rows); the cache keeps 256 of them, keyed by the dataset's content hash.
    """
    wb = workbench()
    return _table(dataset().key, name, chunker, wb)


def read_uploads(files: tuple, default_status: str) -> IngestResult:
    """Documents from uploaded (name, bytes) pairs, with the limits of the environment (see README).

    The last result is kept in this session only (not in a cache shared across sessions), so the bytes
    of an upload are released when its session ends.
    """
    signature = hashlib.sha256(repr([(n, len(b), hashlib.sha256(b).hexdigest()) for n, b in files]
                                    + [default_status]).encode()).hexdigest()
    held = st.session_state.get("_read_uploads")
    if held is None or held[0] != signature:
        with st.spinner("Reading your files…"):
            held = (signature, read_files(files, Limits.from_env(), default_status))
        st.session_state["_read_uploads"] = held
    return held[1]


@st.cache_data(max_entries=16, show_spinner=False)
def read_golden(data: bytes, name: str):
    return read_golden_csv(data, name, Limits.from_env())


def trap3_table() -> pd.DataFrame:
    """Ceiling at k on the bundled corpus: the article's questions beside the same questions phrased as a user would."""
    a = _table(BUNDLED.key, "ceiling", ARTICLE_CHUNKER, _built_in(BUNDLED.key))
    u = _table(BUNDLED_USER.key, "ceiling", ARTICLE_CHUNKER, _built_in(BUNDLED_USER.key))
    return pd.DataFrame({"k": a.k, "article_questions": a.ceiling, "user_questions": u.ceiling})


@st.cache_data(max_entries=32, show_spinner="Timing the search…")
def _latency(key: str, repetitions: int, _wb: Workbench) -> pd.DataFrame:
    return tables.latency(_wb, repetitions=repetitions)


def latency(repetitions: int = 5) -> pd.DataFrame:
    """The latency table, timed live: 3 runs of `repetitions` passes (the article uses 20; 5 keeps the page quick)."""
    return _latency(dataset().key, repetitions, workbench())
