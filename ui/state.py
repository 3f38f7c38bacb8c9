"""The one thin UI module that holds caches and settings: what rag_core computes, kept per configuration.

- `workbench()`: the active dataset's Workbench (st.cache_resource, one per dataset, read-only;
  indexes are built inside it once per chunker).
- `table(name, ...)`: a rag_core table as a DataFrame (st.cache_data, per dataset and settings).
- Settings: every setting has a key, a default and a parser. It lives in st.session_state under its
  widget key, in a shadow key that survives page switches, and in the URL (st.query_params), so a
  copied link opens the same view. A malformed value in a link falls back to the default and says so.

Left out on purpose: any computation (it belongs to rag_core) and persistence across server restarts.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Callable

import pandas as pd
import streamlit as st

from rag_core import ChunkerConfig, Workbench
from rag_core.evaluation import tables
from rag_core.retrieval.chunkers import KINDS
from rag_core.data.corpus import Corpus, bundled_corpus
from rag_core.data.golden import load_golden
from rag_core.data.ingest import IngestResult, Limits, read_files, read_golden_csv
from ui import widgets


# ---------------------------------------------------------------- settings and the URL

def _bool(s: str) -> bool:
    if s.lower() in ("1", "true", "on", "yes"):
        return True
    if s.lower() in ("0", "false", "off", "no"):
        return False
    raise ValueError(s)


def _kind(s: str) -> str:
    if s not in KINDS:
        raise ValueError(s)
    return s


def _statuses(s: str) -> list:
    return [x for x in s.split(",") if x] if s != "-" else []


@dataclass(frozen=True)
class Setting:
    default: Any
    parse: Callable[[str], Any]                 # URL text -> value (raises on bad text)
    dump: Callable[[Any], str] = str            # value -> URL text
    lo: int | None = None                       # smallest number the widget accepts
    hi: int | None = None                       # largest

    def read(self, text: str):
        """The value of a link's text; ValueError when malformed or outside [lo, hi]."""
        value = self.parse(text)
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise ValueError(text)
        return value


SETTINGS = {
    "chunker": Setting("fixed", _kind),
    "size": Setting(160, int, lo=1, hi=2000),
    "overlap": Setting(32, int, lo=0, hi=1999),
    "ask_question": Setting("", str),
    "ask_candidates": Setting(20, int, lo=1, hi=500),
    "ask_k": Setting(3, int, lo=1, hi=50),
    "ask_statuses": Setting(["current"], _statuses, lambda v: ",".join(v) or "-"),
    "ask_rerank": Setting(True, _bool, lambda v: "1" if v else "0"),
    "corpus_doc": Setting("", str),
}
SHARED = ("chunker", "size", "overlap")        # shown in the sidebar of every page
# sensible size and overlap per strategy (words for fixed and structure, sentences for sentence): the article's
STRATEGY_DEFAULTS = {"fixed": (160, 32), "structure": (160, 0), "sentence": (4, 1)}


def init(keys) -> list[str]:
    """Give each setting its value: this session's, else the URL's, else the default. Returns warnings."""
    warnings = []
    for key in keys:
        if key in st.session_state:
            continue
        shadow = "_keep_" + key
        if shadow in st.session_state:
            st.session_state[key] = st.session_state[shadow]
            continue
        s = SETTINGS[key]
        value = s.default
        if key in st.query_params:
            try:
                value = s.read(st.query_params[key])
            except (ValueError, TypeError):
                warnings.append(f"The link's value {st.query_params[key]!r} for '{key}' is not valid; using {s.dump(s.default)!r}.")
        st.session_state[key] = value
        st.session_state[shadow] = value
    return warnings


def remember(key: str) -> None:
    """Widget on_change: keep the value across page switches and put it in the URL."""
    st.session_state["_keep_" + key] = st.session_state[key]
    st.query_params[key] = SETTINGS[key].dump(st.session_state[key])


def choose_strategy() -> None:
    """Sidebar on_change: a new strategy starts from its own size and overlap (160 sentences a chunk is no default)."""
    size, overlap = STRATEGY_DEFAULTS[st.session_state["chunker"]]
    remember("chunker")
    set_value("size", size)
    set_value("overlap", overlap)


def set_value(key: str, value) -> None:
    """Set a setting from code (e.g. a preset button), with the same bookkeeping as a widget change."""
    st.session_state[key] = value
    remember(key)


def sync_url(keys) -> None:
    """Write the page's settings into the URL, so that the address bar is always a shareable link."""
    wanted = {k: SETTINGS[k].dump(st.session_state[k]) for k in keys if k in st.session_state}
    wanted["data"] = dataset().key              # which dataset the view shows (see dataset_from_link)
    if any(st.query_params.get(k) != v for k, v in wanted.items()):
        st.query_params.update(wanted)


def chunker() -> ChunkerConfig:
    """The chunker of the sidebar settings; ValueError (shown as st.error by pages) when inconsistent.

    It initialises the shared settings itself, so a page also works when run on its own (AppTest, or the
    first request of a fresh server, which Streamlit may serve without the app.py frame).
    """
    init(SHARED)
    kind = st.session_state["chunker"]
    overlap = 0 if kind == "structure" else int(st.session_state["overlap"])
    return ChunkerConfig(kind, int(st.session_state["size"]), overlap)


def chunker_or_stop() -> ChunkerConfig:
    """`chunker()`, or a readable st.error and st.stop() when the sidebar settings are not valid."""
    try:
        return chunker()
    except ValueError as e:
        st.error("The chunker settings in the sidebar are not valid: " + widgets.plain(str(e)))
        st.stop()


# ---------------------------------------------------------------- datasets and caches

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
def _table(key: str, name: str, chunker: ChunkerConfig | None, _wb: Workbench) -> pd.DataFrame:
    f = tables.TABLES[name]
    df = f(_wb, chunker) if chunker is not None else f(_wb)
    return df


def table(name: str, chunker: ChunkerConfig | None = None) -> pd.DataFrame:
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
    a = _table(BUNDLED.key, "ceiling", None, _built_in(BUNDLED.key))
    u = _table(BUNDLED_USER.key, "ceiling", None, _built_in(BUNDLED_USER.key))
    return pd.DataFrame({"k": a.k, "article_questions": a.ceiling, "user_questions": u.ceiling})


# ---------------------------------------------------------------- the real model (never in the URL)

def _secrets() -> dict:
    try:
        return dict(st.secrets)
    except Exception:           # no secrets.toml: the environment alone configures the model
        return {}


def llm_config():
    """This session's model settings (set on the Model page), else those of the environment or secrets.toml."""
    from rag_core.generation.llm import config_from_env
    if "llm_config" not in st.session_state:
        try:
            st.session_state["llm_config"] = config_from_env(secrets=_secrets())
        except ValueError:
            st.session_state["llm_config"] = None
    return st.session_state["llm_config"]


def model_runs() -> dict:
    """Finished golden-set runs of this session, by their settings: a rerun with the same settings is free."""
    return st.session_state.setdefault("model_runs", {})


@st.cache_data(max_entries=32, show_spinner="Timing the search…")
def _latency(key: str, repetitions: int, _wb: Workbench) -> pd.DataFrame:
    return tables.latency(_wb, repetitions=repetitions)


def latency(repetitions: int = 5) -> pd.DataFrame:
    """The latency table, timed live: 3 runs of `repetitions` passes (the article uses 20; 5 keeps the page quick)."""
    return _latency(dataset().key, repetitions, workbench())
