"""Settings that live in the URL: every setting has a key, a default and a parser.

A setting lives in st.session_state under its widget key, in a shadow key that survives page switches,
and in the URL (st.query_params), so a copied link opens the same view. A malformed value in a link
falls back to the default and says so (as plain text: a link's text is never Markdown); so does a value the
active dataset does not have (a document or a status of another dataset).

    init(("ask_k",)) -> ["The link's value 'abc' for 'ask_k' is not valid; using '3'."]
    init(("corpus_doc",)) -> ["The link's value 'gone.md' for 'corpus_doc' is not valid (this dataset has no
                              document 'gone.md'); using the first document."]

Statuses in a link are joined by ',' with '%', ',' and '|' escaped in each ('a,b' -> 'a%2Cb'), so any status
comes back whole; a link written before (nothing escaped) reads as it always did.

Left out on purpose: caches (ui.cache) and datasets (ui.datasets), the model server's settings (ui.model_config,
never in a link), the database URL (ui.engine_form, never in a link).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable
from urllib.parse import unquote

import streamlit as st

from rag_core import ChunkerConfig
from rag_core.retrieval.chunkers import KINDS, STRATEGY_DEFAULTS
from rag_core.retrieval.engines.registry import ENGINES
from rag_core.retrieval.retrievers import RERANKERS, RETRIEVERS
from rag_core.text.credentials import mask_secrets
from rag_core.text.messages import shorten
from ui import active, datasets, first_link, widgets


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


def _status_text(status: str) -> str:
    """One status as a link writes it: 'a,b' -> 'a%2Cb', 'x|y' -> 'x%7Cy', '-' -> '%2D' (alone, '-' means none)."""
    text = status.replace("%", "%25").replace(",", "%2C").replace("|", "%7C")
    return "%2D" if text == "-" else text


def _statuses(s: str) -> list:
    """A link's statuses: 'current,a%2Cb' -> ['current', 'a,b']; '-' -> []."""
    return [unquote(x) for x in s.split(",") if x] if s != "-" else []


def _dump_statuses(values) -> str:
    return ",".join(_status_text(v) for v in values) or "-"


def _documents() -> list:
    return [d.id for d in active.workbench().corpus.documents]


def _dataset_statuses() -> list:
    return list(active.workbench().corpus.statuses)


def _trusted_now() -> list:
    """The active dataset's trusted statuses: where Ask's filter starts ([] when nothing is trusted)."""
    return list(active.workbench().trusted)


@dataclass(frozen=True)
class Setting:
    default: Any                                # a value, or a function giving it (what the dataset trusts)
    parse: Callable[[str], Any]                 # URL text -> value (raises on bad text)
    dump: Callable[[Any], str] = str            # value -> URL text
    lo: int | None = None                       # smallest number the widget accepts
    hi: int | None = None                       # largest
    within: Callable[[], list] | None = None    # what the active dataset has (its documents, its statuses), or None
    what: str = ""                              # one of those, in words: "document", "status"
    blank: str = ""                             # how a warning says an empty default: "the first document"
    url: str | None = None                      # its name in the URL, when not the key (tour_step is ?step=)
    always: bool = False                        # always in the link, its default too (the tour's step: Back steps)

    def name(self, key: str) -> str:
        return self.url or key

    def read(self, text: str):
        """The value of a link's text; ValueError when malformed, outside [lo, hi], or not in the active dataset
        (then its message says which: "this dataset has no status 'x'")."""
        value = self.parse(text)
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise ValueError(text)
        if self.within is not None:
            have = set(self.within())
            missing = [v for v in (value if isinstance(value, list) else [value]) if v not in have]
            if missing:
                raise ValueError(f"this dataset has no {self.what} {', '.join(repr(m) for m in missing)}")
        return value

    def start(self):
        """The default value (computed now, when the default is a function)."""
        return self.default() if callable(self.default) else self.default

    def fallback(self):
        """The default, keeping only what the active dataset has (a list setting)."""
        default = self.start()
        if self.within is None or not isinstance(default, list):
            return default
        have = set(self.within())
        return [v for v in default if v in have]

    def said(self, value) -> str:
        """A value as a warning says it: "'3'", or `blank` for an empty one."""
        text = self.dump(value)
        return self.blank if self.blank and text in ("", "-") else repr(text)


SETTINGS = {
    "chunker": Setting("fixed", _choice(KINDS)),
    "size": Setting(160, int, lo=1, hi=2000),
    "overlap": Setting(32, int, lo=0, hi=1999),
    "ask_question": Setting("", str),
    "ask_candidates": Setting(20, int, lo=1, hi=500),
    "ask_k": Setting(3, int, lo=1, hi=50),
    "ask_statuses": Setting(_trusted_now, _statuses, _dump_statuses, within=_dataset_statuses, what="status",
                            blank="no status"),
    "ask_rerank": Setting(True, _bool, lambda v: "1" if v else "0"),
    "corpus_doc": Setting("", str, within=_documents, what="document", blank="the first document"),
    "retriever": Setting("hashing", _choice(RETRIEVERS)),
    "reranker": Setting("lexical", _choice(RERANKERS)),
    "engine": Setting("memory", _choice(ENGINES)),
    "tour_step": Setting(1, int, lo=1, hi=9, url="step", always=True),
    "compare_setups": Setting("", str, url="setups"),      # Compare's setups as edited, one setup line each; "":
                                                           # the starting setups, from the sidebar and Ask
    "trusted": Setting(None, _statuses, _dump_statuses, within=_dataset_statuses, what="status",
                       blank="no status"),      # per dataset: read and written by ui.trust_form, not by init()
}
SHARED = ("chunker", "size", "overlap", "retriever", "reranker", "engine")        # shown in the sidebar of every page


def _follow_link(key: str) -> None:
    """A setting always in its link (the tour's step) follows a valid link over this session's value: the browser's
    Back or Forward opened that link, and the frame must not write the session's value back over it."""
    s, shadow = SETTINGS[key], "_keep_" + key
    if not s.always or s.name(key) not in st.query_params or shadow not in st.session_state:
        return
    try:
        linked = s.read(st.query_params[s.name(key)])
    except (ValueError, TypeError):
        return                                  # not a value: init's warning and the session's value, as ever
    if linked != st.session_state[shadow]:
        st.session_state[key] = st.session_state[shadow] = linked


def init(keys) -> list[str]:
    """Give each setting its value: this session's, else the URL's, else the default. Returns warnings."""
    warnings, fresh = [], []                        # fresh: the settings given a value here (not this session's)
    for key in keys:
        _follow_link(key)
        if key in st.session_state:
            continue
        shadow = "_keep_" + key
        if shadow in st.session_state:
            st.session_state[key] = st.session_state[shadow]
            continue
        s = SETTINGS[key]
        value = s.start()
        name = s.name(key)
        linked = first_link.get(name)
        if linked is not None:
            try:
                value = s.read(linked)
            except (ValueError, TypeError) as e:
                value = s.fallback()
                why = f" ({e})" if s.within is not None and str(e).startswith("this dataset") else ""
                said = shorten(mask_secrets(linked), 200)
                warnings.append(f"The link's value {said!r} for '{name}' is not valid{why}; "
                                f"using {s.said(value)}.")
        st.session_state[key] = value
        st.session_state[shadow] = value
        fresh.append(key)
    return warnings + _fitted(fresh)


def _fitted(fresh: list) -> list[str]:
    """Settings of a link that do not fit together would stop a page with an error: an overlap not below the chunk
    size ("?size=1" with the default 32) is lowered to the strategy's default overlap, or to size - 1 when that is
    not below either; a k above the candidates ("?ask_k=50&ask_candidates=1") raises the candidates to k. Returns
    the warnings."""
    state, warnings = st.session_state, []
    if {"size", "overlap"} & set(fresh) and {"chunker", "size", "overlap"} <= set(state):
        kind, size, overlap = state["chunker"], state["size"], state["overlap"]
        if kind != "structure" and overlap >= size:
            value = min(STRATEGY_DEFAULTS[kind][1], size - 1)
            state["overlap"] = state["_keep_overlap"] = value
            warnings.append(f"The link's overlap {overlap} is not smaller than its chunk size {size} (the window "
                            f"would never advance); using overlap {value}.")
    if {"ask_k", "ask_candidates"} & set(fresh) and {"ask_k", "ask_candidates"} <= set(state):
        k, candidates = state["ask_k"], state["ask_candidates"]
        if k > candidates:
            state["ask_candidates"] = state["_keep_ask_candidates"] = k
            warnings.append(f"The link's k {k} is more than its {candidates} candidates (the k chunks handed over are "
                            f"kept out of the candidates); using {k} candidates.")
    return warnings


def now(key: str):
    """A setting's value in this session, to give its widget as the widget's own default (`value=`, `index=`).

    A browser that draws a widget before it has received the session's value for it (a click during the first
    runs interrupts the run that would send it) takes the widget's default, and sends it back at the next click,
    as if the user had chosen it: without this, the sidebar's size became 1 and the retriever the first one.
    """
    return st.session_state[key]


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
    """Write the page's settings into the URL, so that the address bar is always a shareable link: all of them,
    whenever the address would open another view than the one shown.

    An address that already opens this very view (what it names is shown, what it leaves out is at its default:
    a bare address on a fresh session) is left as it is: the browser adds a history entry for each write, so
    writing it would make the first Back do nothing.
    """
    wanted = {SETTINGS[k].name(k): SETTINGS[k].dump(st.session_state[k]) for k in keys if k in st.session_state}
    wanted["data"] = datasets.dataset().key              # which dataset the view shows (see dataset_from_link)
    default = _defaults(keys)
    if any(st.query_params.get(k, default.get(k)) != v for k, v in wanted.items()):
        st.query_params.update(wanted)


def _defaults(keys) -> dict:
    """What sync_url would write for these keys on a fresh session of the bundled corpus."""
    out = {SETTINGS[k].name(k): SETTINGS[k].dump(SETTINGS[k].fallback()) for k in keys if not SETTINGS[k].always}
    out["data"] = datasets.BUNDLED.key
    return out


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
