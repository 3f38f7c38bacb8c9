"""The one UI module that holds Streamlit caches; every function here is a cached computation or resource.

- `built_in_workbench(golden)`: the bundled corpus with one of its golden sets, shared by every session (read-only).
- `upload_workbench(key, ds)`: an upload's Workbench, in its session only; released when the session disconnects,
  and the freed memory is then handed back to the system (`ui.memory`).
- `table`, `tour_step`, `trap3`, `latency`, `judged_pipeline`: what rag_core computes, as DataFrames or steps
  (st.cache_data), keyed by `ui.active.settings_key` (dataset, retriever, reranker, engine, database, trusted
  statuses).
- `labelled_sets()`: the rule on the bundled sets of labelled answers (the Judge page), computed once.
- `read_golden`: a golden-set file, read once. `store(where)`: the store of saved datasets and runs, once per place.
- `ray_user()`: this browser session's name for the shared Ray session. `warm_up()`: the trained encoder, loaded once.
- `session_end()`: released when this browser session disconnects, which hands its memory back (`ui.memory`).

Left out on purpose: deciding what to compute (`ui.active`), which dataset is active (`ui.datasets`), any
computation (rag_core) and persistence across server restarts.
"""
from __future__ import annotations

import threading
import uuid

import pandas as pd
import streamlit as st

from rag_core import ChunkerConfig, Workbench
from rag_core.data.corpus import Corpus, bundled_corpus
from rag_core.data.golden import load_golden
from rag_core.data.ingest import Limits, read_golden_csv
from rag_core.evaluation import tables
from rag_core.evaluation.labelled_sets import rule_on_bundled_sets
from rag_core.retrieval.ray_sessions import RAY             # ray itself only when a session is opened
from ui import memory


@st.cache_resource(max_entries=2, show_spinner="Reading and tokenizing the corpus…")
def built_in_workbench(golden: str) -> Workbench:
    """The bundled corpus with its golden set `golden` ("article" or "user")."""
    return Workbench(bundled_corpus(), load_golden(golden))


@st.cache_resource(scope="session", max_entries=1, on_release=lambda wb: memory.return_memory_soon(),
                   show_spinner="Reading and tokenizing the corpus…")
def upload_workbench(key: str, _ds) -> Workbench:
    """An upload's Workbench (its tokens, indexes and rankings: most of what a session holds), in its session
    only. Streamlit drops it when the session disconnects, without waiting for the session itself to expire
    (server.disconnectedSessionTTL); a reconnecting tab rebuilds it from the dataset kept in session state."""
    return Workbench(Corpus(_ds.documents, name=_ds.name), _ds.golden or [])


@st.cache_data(max_entries=256, show_spinner="Computing…")
def table(key: str, name: str, chunker: ChunkerConfig, _wb: Workbench) -> pd.DataFrame:
    """Tables are small (a few rows); the cache keeps 256 of them, keyed by the dataset's content hash."""
    return tables.TABLES[name](_wb, chunker)


@st.cache_data(max_entries=64, show_spinner=False)
def tour_step(key: str, number: int, chunker: ChunkerConfig, controls, _wb: Workbench):
    from rag_core.evaluation import tour
    return tour.step(_wb, number, chunker, controls)


@st.cache_data(max_entries=2, show_spinner="Measuring every retriever…")
def trap3(key: str, _wb: Workbench) -> pd.DataFrame:
    return tables.trap3(_wb)


@st.cache_data(max_entries=32, show_spinner="Timing the search…")
def latency(key: str, repetitions: int, _wb: Workbench) -> pd.DataFrame:
    return tables.latency(_wb, repetitions=repetitions)


@st.cache_data(max_entries=64, show_spinner="Judging the same answers…")
def judged_pipeline(key: str, _wb: Workbench) -> pd.DataFrame:
    """The pipeline's answers judged with the strict checker (the Ablations page, beside the article's labels)."""
    return tables.pipeline(_wb, mode="strict")


@st.cache_data(max_entries=1, show_spinner="Judging the bundled labelled answers…")
def labelled_sets():
    return rule_on_bundled_sets()


@st.cache_data(max_entries=16, show_spinner=False)
def read_golden(data: bytes, name: str):
    return read_golden_csv(data, name, Limits.from_env())


@st.cache_resource(show_spinner=False)
def store(where: tuple):
    """The store for `where` (the environment variables that choose it: a new place opens a new store)."""
    from rag_core.store import Store
    return Store.default()


@st.cache_resource(scope="session", on_release=lambda user: RAY.leave(user))
def ray_user() -> str:
    """This browser session's name for the shared Ray session: when the session ends, it leaves (and the last one
    to leave stops a local Ray)."""
    return uuid.uuid4().hex


@st.cache_resource(scope="session", on_release=lambda session_id: memory.disconnected(session_id))
def session_end() -> str | None:
    """This session's id, held in a session-scoped resource that Streamlit releases when the session disconnects:
    the frame calls it at every run, so that the session's end is then awaited and its memory returned (ui.memory)."""
    return memory.current_session_id()


@st.cache_resource(show_spinner=False)
def warm_up() -> threading.Thread:
    """Load the trained encoder's weights (about a second) and the bundled corpus's vectors in a background thread,
    once per server, so that the first question does not wait for them. Nothing happens when the model package is
    missing: the page that needs it says so."""
    def work():
        from rag_core.retrieval import encoder_path, vectors
        try:
            vectors.Embedder.default(encoder_path.chosen(bundled=True)).model      # the bundled corpus's forward pass
        except Exception:                    # ModelMissing, a damaged file: said by the page that uses the model
            pass
    thread = threading.Thread(target=work, name="openbook-warm-up", daemon=True)
    thread.start()
    return thread
