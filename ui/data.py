"""The one UI module that holds caches: datasets, their workbenches and the tables rag_core computes.

- `workbench()`: the active dataset's Workbench. The built-in datasets are shared by every session
  (st.cache_resource, read-only); an upload's is a session-scoped resource, released when its session
  disconnects, and the freed memory is then handed back to the system (`ui.memory`).
- `table(name, chunker)`: a rag_core table as a DataFrame (st.cache_data, per dataset and settings).
- `read_golden`: the user's golden set, read once (the documents: `ui.reading`).
- `latency()`: the latency table, timed live.
- `tour_step(n, chunker, controls)`: a step of the tour (rag_core.evaluation.tour), per dataset and settings.
- `compute_status()`: where the trained encoder runs (this process, or the sidebar's Ray: one session per
  server, shared by the browser sessions that chose it, left when the last of them ends or chooses this process).
- `engine_status()`: the search engine in use (the sidebar's, or the in-process one while the database fails),
  checked once per choice and again once its connection closed; `engine_recall()` of an approximate engine against
  exact search.

Left out on purpose: any computation (it belongs to rag_core) and persistence across server restarts.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import uuid
from dataclasses import dataclass
from typing import NamedTuple

import pandas as pd
import streamlit as st

from rag_core import ARTICLE_CHUNKER, ChunkerConfig, Workbench
from rag_core.data.corpus import Corpus, bundled_corpus
from rag_core.data.golden import load_golden
from rag_core.data.ingest import Limits, read_golden_csv
from rag_core.evaluation import tables
from rag_core.retrieval.engines import registry        # names the engines; psycopg only when one is made
from rag_core.retrieval.ray_sessions import RAY             # ray itself only when a session is opened
from rag_core.text import mask_secrets
from ui import first_link, memory
from ui.widgets import plain


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
    """A dataset keyed by everything it shows: its name, documents and golden rows (store.dataset_key)."""
    from rag_core.store import dataset_key
    return Dataset(dataset_key(name, documents, golden), name, tuple(documents), tuple(golden))


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
    wanted = first_link.get("data")
    if not wanted or wanted == dataset().key:
        return None
    if wanted in BUILT_IN and "dataset" not in st.session_state:
        st.session_state["dataset"] = BUILT_IN[wanted]
        return None
    if wanted not in BUILT_IN and "dataset" not in st.session_state:
        saved = _saved_dataset(wanted)
        if saved is not None:                       # kept in the store: the link opens it after a reload
            use_dataset(saved)
            return None
        st.query_params["data"] = BUNDLED.key
        return ("This link referred to uploaded data, which is gone: uploads live only in the browser session "
                "that made them (unless kept), and end with it. Showing the bundled corpus; upload the files again "
                "on the Your data page.")
    st.query_params["data"] = dataset().key
    return None


def _saved_dataset(key: str) -> Dataset | None:
    """The dataset the store keeps under `key` (uploads are kept there when the store is on), or None."""
    try:
        saved = store().load_dataset(key)
    except ValueError:
        return None
    return Dataset(saved.key, saved.name, tuple(saved.documents), tuple(saved.golden)) if saved else None


def keep_dataset(ds: Dataset) -> str | None:
    """Keep an upload in the store so that a link to it works after a reload; a sentence if it could not be."""
    try:
        store().save_dataset(ds.name, ds.documents, ds.golden)
    except ValueError as e:
        return str(e)
    return None


@st.cache_resource(max_entries=2, show_spinner="Reading and tokenizing the corpus…")
def _built_in(key: str) -> Workbench:
    if key == BUNDLED.key:
        return Workbench.bundled()
    return Workbench(bundled_corpus(), load_golden("user"))


def workbench() -> Workbench:
    """The active dataset's Workbench with the sidebar's retriever, reranker, search engine and trusted statuses.
    The built-in ones are shared by every session (read-only); an upload's lives in its session alone and is
    released with it, so memory follows the sessions that are open."""
    return _with_sidebar(_dataset_workbench()).trusting(chosen_trust(dataset().key))


TRUSTED = "trusted_by_dataset"      # session: dataset key -> the statuses chosen as trusted (ui.trust_form keeps them)


def chosen_trust(dataset_key: str) -> list | None:
    """The statuses this session chose to trust in that dataset, or None: not chosen."""
    return st.session_state.get(TRUSTED, {}).get(dataset_key)


def _with_sidebar(base: Workbench) -> Workbench:
    wb = base.using(retriever=st.session_state.get("retriever", "hashing"),
                    reranker=st.session_state.get("reranker", "lexical"),
                    engine=engine_status().name).connected(database_url())
    return wb.encoding_with(ray_embedder(wb)) if compute_status().name == "ray" else wb


def settings_key(wb: Workbench, dataset_key: str | None = None) -> str:
    """What decides a table besides the chunker: the dataset (the active one unless given), retriever, reranker,
    engine, database (hashed) and the trusted statuses (never holding ',')."""
    db = hashlib.sha256(database_url().encode()).hexdigest()[:12] if wb.engine != "memory" else ""
    return f"{dataset_key or dataset().key}|{wb.retriever}|{wb.reranker}|{wb.engine}|{db}|{','.join(wb.trusted)}"


# ---------------------------------------------------------------- the search engine

class EngineStatus(NamedTuple):
    name: str                 # the engine searches run on: the sidebar's, or "memory" while it fails
    problem: str | None       # why the sidebar's engine is not used (EngineError's sentence), or None
    text: str                 # what runs the searches, in words (never a password)


def database_url() -> str:
    """The sidebar's database URL (this session only, never in a link), else the server's OPENBOOK_DATABASE_URL."""
    return registry.database_url(st.session_state.get("database_url"))


def engine_status(recheck: bool = False) -> EngineStatus:
    """The sidebar's engine when it answers (connected and checked once per engine and URL), else the in-process
    one with the reason. `forget_engine_status()` makes the next call check again.

    A database that answered is checked again when a call failed since (in this session or another), and, with
    `recheck` (the frame's first call of every script run), when its connection no longer looks open: a stopped
    server closes it, so the run that follows already searches in process and says why. That look costs no
    round trip; only a closed connection costs a check (a reconnect, when the server was merely restarted)."""
    name = st.session_state.get("engine", "memory")
    if name == "memory":
        return EngineStatus("memory", None, "in-process index (exact)")
    key = (name, database_url())
    held = st.session_state.get("_engine_status")
    if held is not None and held[0] == key and held[1].problem is None:
        engine = registry.shared(*key)
        if engine.failed or (recheck and not engine.still_open()):
            held = None                    # it failed, or its connection closed, since it was checked: again
    if held is None or held[0] != key:
        try:
            engine = registry.shared(*key)
            status = EngineStatus(name, None, f"{engine.describe()}; {engine.check()}")
        except ValueError as e:            # EngineError: down, wrong password, no pgvector, no URL
            status = EngineStatus("memory", str(e), "in-process index (exact)")
        held = st.session_state["_engine_status"] = (key, status)
    return held[1]


def forget_engine_status() -> None:
    st.session_state.pop("_engine_status", None)


def engine_recall(chunker: ChunkerConfig, k: int) -> float:
    """Recall at k of the engine in use against exact in-process search, over the golden questions, trusted
    statuses only (every status when nothing is trusted); kept in this session per dataset, chunker and settings."""
    wb = workbench()
    key = (settings_key(wb), chunker, k)
    held = st.session_state.setdefault("_engine_recall", {})
    if key not in held:
        prepare([chunker], wb)
        held[key] = wb.engine_recall(chunker, k, set(wb.trusted) or None)    # nothing trusted: every status
    return held[key]


# ---------------------------------------------------------------- where the trained encoder runs

class ComputeStatus(NamedTuple):
    name: str                 # where encoding runs: "ray" (the sidebar's cluster), or "process" (also while it fails)
    problem: str | None       # why the sidebar's Ray is not used, in one sentence, or None
    text: str                 # what computes, in words (never a secret)
    session: object = None    # the RayCompute in use (shared by the browser sessions that chose it)


HERE = "this process"


def ray_address() -> str | None:
    """The sidebar's Ray address (this session only, never in a link), else the server's OPENBOOK_RAY_ADDRESS,
    else None: a local Ray with this machine's cores."""
    return st.session_state.get("ray_address") or os.environ.get("OPENBOOK_RAY_ADDRESS") or None


@st.cache_resource(scope="session", on_release=lambda user: RAY.leave(user))
def _ray_user() -> str:
    """This browser session's name for the shared Ray session: when the session ends, it leaves (and the last one
    to leave stops a local Ray)."""
    return uuid.uuid4().hex


def compute_status() -> ComputeStatus:
    """The sidebar's Ray when it can be used, else this process with the reason. Every run joins the shared session
    again (at once when it is open: a reload or a page switch keeps it), so the session knows who uses it. A failure
    or a cluster lost mid-run is kept until "Try again" (`forget_compute_status`) or another address."""
    if st.session_state.get("compute", "process") != "ray":
        return ComputeStatus("process", None, HERE)
    key = ray_address()
    if (st.session_state.get("ray_address") or "").strip().lower() == "auto":    # any Ray on the server's machine
        return ComputeStatus("process", "'auto' joins whatever Ray runs on the server's machine, which may be "
                                        "someone else's: give the head's host:port.", HERE)
    held = st.session_state.get("_compute_status")
    if held is not None and held[0] == key:
        if held[1].problem:
            return held[1]
        if held[1].session is not None and held[1].session.gone:
            status = ComputeStatus("process", f"The Ray cluster is gone ({held[1].session.gone}).", HERE)
            st.session_state["_compute_status"] = (key, status)
            return status
    opening = RAY.session is None or RAY.address != key
    where = (f"Joining the Ray cluster at {mask_secrets(key, key)[:80]}…" if key else
             f"Starting a local Ray with this machine's {os.cpu_count()} CPUs…")
    try:
        with st.spinner(plain(where)) if opening else contextlib.nullcontext():
            session = RAY.join(_ray_user(), key)
        if held is not None and held[0] == key and held[1].session is session:
            return held[1]                 # the same session: its status line as read when it was joined
        status = ComputeStatus("ray", None, session.status(), session)
    except ValueError as e:            # not installed, nothing answers, not Ray, refused to join, another cluster
        status = ComputeStatus("process", mask_secrets(str(e), key or ""), HERE)
    st.session_state["_compute_status"] = (key, status)
    return status


def forget_compute_status() -> None:
    """Check the sidebar's Ray again on the next run (after a new address, Try again, or this process chosen)."""
    st.session_state.pop("_compute_status", None)
    if st.session_state.get("compute", "process") != "ray":
        RAY.leave(_ray_user(), now=True)


def ray_embedder(wb: Workbench):
    """The trained encoder with the process's caches, encoding on the sidebar's Ray (one per session and Ray
    session): a cluster lost mid-run finishes the run here and says so once (`compute_notes`)."""
    session = compute_status().session
    held = st.session_state.get("_ray_embedder")
    if held is None or held[0] is not session or held[1].path != wb.embedder.path:    # one per forward pass too
        notes = st.session_state.setdefault("_compute_notes", [])
        encoder = session.encoder("process", note=notes.append)
        if held is not None:                      # another session (Try again, another address): counts go on
            encoder.on_ray, encoder.here = held[1].backend.on_ray, held[1].backend.here
        held = st.session_state["_ray_embedder"] = (session, wb.embedder.using(encoder))
    return held[1]


def ray_counts() -> tuple[int, int]:
    """(texts this session encoded on Ray, texts of its runs finished here after a cluster was lost)."""
    held = st.session_state.get("_ray_embedder")
    return (held[1].backend.on_ray, held[1].backend.here) if held else (0, 0)


def units_on_ray() -> int:
    """How many sweep units (a chunker of an Ablations table, a Compare setup) this session ranked on Ray."""
    return st.session_state.get("_units_on_ray", 0)


def compute_notes() -> list:
    """What happened to this session's runs on Ray (a cluster lost mid-run), each once, then forgotten."""
    notes = st.session_state.get("_compute_notes", [])
    said, notes[:] = list(notes), []
    return said


def _dataset_workbench() -> Workbench:
    ds = dataset()
    return _built_in(ds.key) if not ds.uploaded else _upload_workbench(ds.key, ds)


@st.cache_resource(scope="session", max_entries=1, on_release=lambda wb: memory.return_memory_soon(),
                   show_spinner="Reading and tokenizing the corpus…")
def _upload_workbench(key: str, _ds: Dataset) -> Workbench:
    """An upload's Workbench (its tokens, indexes and rankings: most of what a session holds), in its session
    only. Streamlit drops it when the session disconnects, without waiting for the session itself to expire
    (server.disconnectedSessionTTL); a reconnecting tab rebuilds it from the dataset kept in session state."""
    return Workbench(Corpus(_ds.documents, name=_ds.name), _ds.golden or [])


@st.cache_data(max_entries=256, show_spinner="Computing…")
def _table(key: str, name: str, chunker: ChunkerConfig, _wb: Workbench) -> pd.DataFrame:
    return tables.TABLES[name](_wb, chunker)


def table(name: str, chunker: ChunkerConfig = ARTICLE_CHUNKER) -> pd.DataFrame:
    """A rag_core table for the active dataset (and chunker, for the tables that take one).

    Tables are small (a few rows); the cache keeps 256 of them, keyed by the dataset's content hash.
    """
    wb = workbench()
    prepare(tables.chunkers_of(name, chunker))
    return _table(settings_key(wb), name, chunker, wb)


def prepare(chunkers, wb: Workbench | None = None) -> None:
    """Encode with the trained encoder, once, every chunk these chunkers need with `wb` (the active workbench unless
    given), then its questions, under one progress bar (`prepare_all`)."""
    prepare_all([(wb or workbench(), tuple(chunkers))])


def prepare_all(jobs) -> None:
    """Encode in one pass under one progress bar everything each (workbench, chunkers) of `jobs` needs from the
    trained encoder: chunks, then questions (nothing for the lexical retrievers, nor for what a cache holds). The
    bar counts texts done of the total, texts a second and the time left; it never restarts, and goes once done."""
    need = _needs(jobs)
    if need is None:
        return
    owner, need = need
    bar = []                                 # drawn at the first count: nothing to encode, nothing drawn

    def tell(done: int, total: int, what: str) -> None:
        bar[:] = bar or [st.empty()]
        bar[0].progress(done / max(total, 1), text=what)
    try:
        owner.embedder.prepare(**need, on_progress=tell)
    finally:
        if bar:
            bar[0].empty()
        for note in compute_notes():         # a Ray cluster lost mid-run: the rest was encoded here
            st.warning(plain(note[:1].upper() + note[1:]), icon=":material/cloud_off:")
        if compute_status().session is not None:
            compute_status().session.release(if_idle=True)     # idle actors give their CPUs and memory back


def sweep_on_ray(names=(), setups=(), chunker: ChunkerConfig = ARTICLE_CHUNKER) -> None:
    """With Ray chosen in the sidebar: the sweep units of the tables `names` (one per chunker) or of the Compare
    `setups` (one per setup) that are not ranked yet, ranked on the cluster under one progress bar, so that the
    tables and the comparison then read their rankings (rag_core.evaluation.sweep). Nothing in process."""
    status = compute_status()
    if status.name != "ray":
        return
    from rag_core.evaluation.sweep import rank_units, setup_units, table_units
    wb = workbench()
    units = table_units(wb, names, chunker) + setup_units(wb, setups)
    bar = []
    notes = st.session_state.setdefault("_compute_notes", [])

    def tell(done: int, total: int, what: str) -> None:
        bar[:] = bar or [st.empty()]
        bar[0].progress(done / max(total, 1), text=what)
    try:
        swept = rank_units(wb, units, status.session, on_progress=tell, note=notes.append)
        st.session_state["_units_on_ray"] = st.session_state.get("_units_on_ray", 0) + swept.on_ray
    finally:
        if bar:
            bar[0].empty()
        for note in compute_notes():         # a Ray cluster lost mid-sweep: the rest is ranked here
            st.warning(plain(note[:1].upper() + note[1:]), icon=":material/cloud_off:")


def _needs(jobs) -> tuple[Workbench, dict] | None:
    """(a workbench whose embedder all share, the merged Embedder.prepare arguments) of (workbench, chunkers) jobs;
    None when none of them uses the trained encoder."""
    merged, owner = {"chunks": [], "whole": [], "questions": []}, None
    for wb, chunkers in jobs:
        if wb.needs_encoder:
            owner = owner or wb
            for k, texts in wb.needs(chunkers).items():
                merged[k] += texts
    return (owner, merged) if owner is not None else None


def ready(jobs) -> bool:
    """Whether every vector each (workbench, chunkers) of `jobs` needs is in a cache already: what uses them is
    drawn at once, without a bar."""
    need = _needs(jobs)
    return need is None or need[0].embedder.missing(**need[1]) == 0


def _trap3_dataset(active: bool) -> str:
    """The dataset a trap 3 table is of: the bundled corpus (the only one with user-phrased questions), or with
    `active` the active dataset (an upload's own questions only)."""
    return dataset().key if active else BUNDLED.key


def trap3_jobs(active: bool = False) -> list:
    """What the trap 3 table encodes, as `prepare_all`'s jobs: MiniLM on its dataset, with every golden set it has."""
    key = _trap3_dataset(active)
    wb = (workbench() if key == dataset().key else _with_sidebar(_built_in(key))).using(retriever="minilm")
    users = [(wb.with_golden(load_golden("user")), (ARTICLE_CHUNKER,))] if key == BUNDLED.key else []
    return [(wb, (ARTICLE_CHUNKER,))] + users


def table_jobs(names) -> list:
    """What the tables `names` encode on the active dataset, as `prepare_all`'s jobs."""
    return [(workbench(), tuple(dict.fromkeys(c for n in names for c in tables.chunkers_of(n))))]


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


@st.cache_data(max_entries=16, show_spinner=False)
def read_golden(data: bytes, name: str):
    return read_golden_csv(data, name, Limits.from_env())


@st.cache_data(max_entries=64, show_spinner=False)
def _tour_step(key: str, number: int, chunker: ChunkerConfig, controls, _wb: Workbench):
    from rag_core.evaluation import tour
    return tour.step(_wb, number, chunker, controls)


def tour_step(number: int, chunker: ChunkerConfig, controls):
    """Step `number` of the tour (rag_core.evaluation.tour) for the active dataset, sidebar and controls."""
    wb = workbench()
    return _tour_step(settings_key(wb), number, chunker, controls, wb)


@st.cache_data(max_entries=2, show_spinner="Measuring every retriever…")
def _trap3(key: str, _wb: Workbench) -> pd.DataFrame:
    return tables.trap3(_wb)


def trap3_table(active: bool = False) -> pd.DataFrame:
    """Ceiling at k of every retriever, trusted statuses only: on the bundled corpus, the article's questions beside
    the same anchors asked as a user would (the article's trap 3); with `active`, on the active dataset (an upload:
    its own questions, the user-phrased column empty)."""
    key = _trap3_dataset(active)
    wb = workbench() if key == dataset().key else _with_sidebar(_built_in(key)).trusting(chosen_trust(key))
    prepare_all(trap3_jobs(active))
    return _trap3(settings_key(wb, key), wb)


@st.cache_data(max_entries=32, show_spinner="Timing the search…")
def _latency(key: str, repetitions: int, _wb: Workbench) -> pd.DataFrame:  # key: settings_key
    return tables.latency(_wb, repetitions=repetitions)


def latency(repetitions: int = 5) -> pd.DataFrame:
    """The latency table, timed live: 3 runs of `repetitions` passes (the article uses 20; 5 keeps the page quick)."""
    wb = workbench()
    prepare(tables.chunkers_of("latency"))
    return _latency(settings_key(wb), repetitions, wb)


# ---------------------------------------------------------------- saved datasets and runs, comparisons

@st.cache_resource(show_spinner=False)
def _store(where: tuple):
    from rag_core.store import Store
    return Store.default()


def store():
    """The store of saved datasets and runs (rag_core.store): the SQLite file in the data folder, one that keeps
    nothing when that is off, or the PostgreSQL database (OPENBOOK_STORE=postgres, OPENBOOK_DATABASE_URL, set for
    the server: several dashboards then share it). A store that cannot be used (a damaged file, a database that
    is down) raises ValueError with the fix; pages show it."""
    from rag_core.datadir import ENV
    from rag_core.store import STORE_ENV
    return _store(tuple(os.environ.get(k) for k in (ENV, STORE_ENV, registry.ENV)))


def comparison(setups: tuple, generate_for, identity, on_progress=None):
    """The comparison of `setups` on the active dataset, kept in this session for its last 4 settings.

    identity: what else decides the answers (the model's settings, or "scripted"), part of the key.
    """
    from rag_core.evaluation.compare import compare_setups
    wb = workbench()
    key = (settings_key(wb), setups, identity)        # a setup's empty option takes the sidebar's, and the database
    held = st.session_state.setdefault("_comparisons", {})
    if key not in held:
        sweep_on_ray(setups=setups)               # with Ray chosen: each setup's rankings there
        partial = st.session_state.setdefault("_comparisons_partial", {})
        done = partial.setdefault(key, {})        # answers received so far: kept if the run is stopped, not asked again
        held[key] = compare_setups(wb, list(setups), generate_for=generate_for, done=done, on_progress=on_progress)
        partial.pop(key, None)
        while len(held) > 4:
            held.pop(next(iter(held)))
    return held[key]
