"""Settings that live in the URL: every setting has a key, a default and a parser.

A setting lives in st.session_state under its widget key, in a shadow key that survives page switches,
and in the URL (st.query_params), so a copied link opens the same view. A malformed value in a link
falls back to the default and says so (as plain text: a link's text is never Markdown).

    init(("ask_k",)) -> ["The link's value 'abc' for 'ask_k' is not valid; using '3'."]

Left out on purpose: caches and datasets (ui.data), the model server's settings (ui.model_config,
never in a link), the database URL (ui.engine_form, never in a link).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import streamlit as st

from rag_core import ChunkerConfig
from rag_core.retrieval.chunkers import KINDS, STRATEGY_DEFAULTS
from rag_core.retrieval.engines.registry import ENGINES
from rag_core.retrieval.retrievers import RERANKERS, RETRIEVERS
from ui import data, widgets


def _bool(s: str) -> bool:
    if s.lower() in ("1", "true", "on", "yes"):
        return True
    if s.lower() in ("0", "false", "off", "no"):
        return False
    raise ValueError(s)


def _choice(choices):
    """A parser accepting only these names: 'bm25' -> 'bm25'; 'nope' -> ValueError."""
    def parse(s: str) -> str:
        if s not in choices:
            raise ValueError(s)
        return s
    return parse


def _statuses(s: str) -> list:
    return [x for x in s.split(",") if x] if s != "-" else []


@dataclass(frozen=True)
class Setting:
    default: Any
    parse: Callable[[str], Any]                 # URL text -> value (raises on bad text)
    dump: Callable[[Any], str] = str            # value -> URL text
    lo: int | None = None                       # smallest number the widget accepts
    hi: int | None = None                       # largest
    url: str | None = None                      # its name in the URL, when not the key (tour_step is ?step=)

    def name(self, key: str) -> str:
        return self.url or key

    def read(self, text: str):
        """The value of a link's text; ValueError when malformed or outside [lo, hi]."""
        value = self.parse(text)
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise ValueError(text)
        return value


SETTINGS = {
    "chunker": Setting("fixed", _choice(KINDS)),
    "size": Setting(160, int, lo=1, hi=2000),
    "overlap": Setting(32, int, lo=0, hi=1999),
    "ask_question": Setting("", str),
    "ask_candidates": Setting(20, int, lo=1, hi=500),
    "ask_k": Setting(3, int, lo=1, hi=50),
    "ask_statuses": Setting(["current"], _statuses, lambda v: ",".join(v) or "-"),
    "ask_rerank": Setting(True, _bool, lambda v: "1" if v else "0"),
    "corpus_doc": Setting("", str),
    "retriever": Setting("hashing", _choice(RETRIEVERS)),
    "reranker": Setting("lexical", _choice(RERANKERS)),
    "engine": Setting("memory", _choice(ENGINES)),
    "tour_step": Setting(1, int, lo=1, hi=9, url="step"),
}
SHARED = ("chunker", "size", "overlap", "retriever", "reranker", "engine")        # shown in the sidebar of every page


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
        name = s.name(key)
        if name in st.query_params:
            try:
                value = s.read(st.query_params[name])
            except (ValueError, TypeError):
                warnings.append(f"The link's value {st.query_params[name]!r} for '{name}' is not valid; using {s.dump(s.default)!r}.")
        st.session_state[key] = value
        st.session_state[shadow] = value
    return warnings


def remember(key: str) -> None:
    """Widget on_change: keep the value across page switches and put it in the URL."""
    st.session_state["_keep_" + key] = st.session_state[key]
    st.query_params[SETTINGS[key].name(key)] = SETTINGS[key].dump(st.session_state[key])


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
    wanted = {SETTINGS[k].name(k): SETTINGS[k].dump(st.session_state[k]) for k in keys if k in st.session_state}
    wanted["data"] = data.dataset().key              # which dataset the view shows (see dataset_from_link)
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
