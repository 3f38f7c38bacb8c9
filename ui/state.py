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

from rag_core import ChunkerConfig, Workbench, tables
from rag_core.chunkers import KINDS
from rag_core.corpus import Corpus, bundled_corpus
from rag_core.golden import load_golden
from rag_core.ingest import IngestResult, Limits, read_files, read_golden_csv


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


def set_value(key: str, value) -> None:
    """Set a setting from code (e.g. a preset button), with the same bookkeeping as a widget change."""
    st.session_state[key] = value
    remember(key)


def sync_url(keys) -> None:
    """Write the page's settings into the URL, so that the address bar is always a shareable link."""
    wanted = {k: SETTINGS[k].dump(st.session_state[k]) for k in keys if k in st.session_state}
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
        st.error(f"The chunker settings in the sidebar are not valid: {e}")
        st.stop()


# ---------------------------------------------------------------- datasets and caches

@dataclass(frozen=True)
class Dataset:
    key: str                      # "bundled", or a hash of the user's documents and golden set
    name: str                     # shown to the user
    documents: tuple = ()         # Document objects (empty for the bundled corpus)
    golden: tuple = ()            # GoldenRow objects


BUNDLED = Dataset("bundled", "Bundled corpus (18 stdlib modules + 10 notes)")
BUNDLED_USER = Dataset("bundled-user", "Bundled corpus, questions phrased as a user would")


def make_dataset(name: str, documents, golden) -> Dataset:
    h = hashlib.sha256()
    for d in documents:
        h.update(f"{d.id}\0{d.status}\0{d.text}\0".encode())
    for r in golden:
        h.update(f"{r.question}\0{r.doc}\0{r.anchor}\0".encode())
    return Dataset("user-" + h.hexdigest()[:16], name, tuple(documents), tuple(golden))


def dataset() -> Dataset:
    """This browser session's active dataset (uploads live in the session, never shared)."""
    return st.session_state.get("dataset", BUNDLED)


@st.cache_resource(max_entries=32, show_spinner="Reading and tokenizing the corpus…")
def _workbench(key: str, _ds: Dataset) -> Workbench:
    if key == BUNDLED.key:
        return Workbench.bundled()
    if key == BUNDLED_USER.key:
        return Workbench(bundled_corpus(), load_golden("user"))
    return Workbench(Corpus(_ds.documents, name=_ds.name), _ds.golden or [])


def workbench() -> Workbench:
    ds = dataset()
    return _workbench(ds.key, ds)


@st.cache_data(max_entries=512, show_spinner="Computing…")
def _table(key: str, name: str, chunker: ChunkerConfig | None, _wb: Workbench) -> pd.DataFrame:
    f = tables.TABLES[name]
    df = f(_wb, chunker) if chunker is not None else f(_wb)
    return df


def table(name: str, chunker: ChunkerConfig | None = None) -> pd.DataFrame:
    """A rag_core table for the active dataset (and chunker, for the tables that take one)."""
    wb = workbench()
    return _table(dataset().key, name, chunker, wb)



@st.cache_data(max_entries=64, show_spinner="Reading your files…")
def read_uploads(files: tuple, default_status: str) -> IngestResult:
    """Documents from uploaded (name, bytes) pairs, with the limits of the environment (see README)."""
    return read_files(files, Limits.from_env(), default_status)


@st.cache_data(max_entries=64, show_spinner=False)
def read_golden(data: bytes, name: str):
    return read_golden_csv(data, name)


def trap3_table() -> pd.DataFrame:
    """Ceiling at k on the bundled corpus: the article's questions beside the same questions phrased as a user would."""
    a = _table(BUNDLED.key, "ceiling", None, _workbench(BUNDLED.key, BUNDLED))
    u = _table(BUNDLED_USER.key, "ceiling", None, _workbench(BUNDLED_USER.key, BUNDLED_USER))
    return pd.DataFrame({"k": a.k, "article_questions": a.ceiling, "user_questions": u.ceiling})


# ---------------------------------------------------------------- the real model (never in the URL)

def _secrets() -> dict:
    try:
        return dict(st.secrets)
    except Exception:           # no secrets.toml: the environment alone configures the model
        return {}


def llm_config():
    """This session's model settings (set on the Model page), else those of the environment or secrets.toml."""
    from rag_core.llm import config_from_env
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
