"""Which statuses are trusted, in the sidebar of every page and on the Your data page: the choice, its link, its note.

Trusted statuses are what the status filter keeps and what a green answer may come from. Unless chosen, a
dataset trusts `current` when some document has it, and nothing otherwise (rag_core's Workbench decides).
The choice is kept per dataset in this session (`st.session_state[datasets.TRUSTED]`: dataset key -> list, read by
`active.workbench()`), and in the link as `trusted=` (statuses joined by ',' as Ask's are; '-' for none),
for the dataset the link names. A link's status the dataset lacks is said and left out.

Left out on purpose: what is trusted by default (rag_core.evaluation.workbench.trusted_statuses) and the Ask page's
own filter (its allowed statuses, ui.ask_view), which starts from the trusted ones.
"""
from __future__ import annotations

import streamlit as st

from ui import active, datasets, first_link, settings, widgets

WHERE = "Choose which statuses are trusted in the sidebar (Trusted statuses) or on the Your data page."


def from_link() -> str | None:
    """The link's `trusted=` for the dataset it opens, unless this session already chose for it; a warning when
    the link names a status the dataset lacks (the rest of the link's statuses are kept)."""
    ds, text = datasets.dataset().key, first_link.get("trusted")
    chosen = st.session_state.setdefault(datasets.TRUSTED, {})
    if text is None or ds in chosen:
        return None
    setting = settings.SETTINGS["trusted"]
    try:
        chosen[ds] = setting.read(text)
    except ValueError as e:
        have = set(active.workbench().corpus.statuses)
        chosen[ds] = [s for s in setting.parse(text) if s in have]
        return (f"The link's value {text!r} for 'trusted' is not valid ({e}); trusting "
                f"{', '.join(map(repr, chosen[ds])) or 'no status'}.")
    return None


def choose(widget_key: str) -> None:
    """on_change of either widget: keep the choice for the active dataset and put it in the link."""
    statuses = list(st.session_state[widget_key])
    st.session_state.setdefault(datasets.TRUSTED, {})[datasets.dataset().key] = statuses
    st.query_params["trusted"] = settings.SETTINGS["trusted"].dump(statuses)


def picker(widget_key: str, where=st) -> None:
    """The multiselect of the trusted statuses of the active dataset (its value follows the dataset)."""
    wb = active.workbench()
    st.session_state[widget_key] = list(wb.trusted)
    where.multiselect("Trusted statuses", list(wb.corpus.statuses), key=widget_key, on_change=choose,
                      args=(widget_key,), placeholder="Nothing is trusted",     # options are text, never Markdown
                      help="Answers grounded on documents of these statuses can be green, and the status filter "
                           "keeps only them. Unless you choose, 'current' is trusted when some document has it, and "
                           "nothing otherwise (a draft is never trusted by default).")


def keep_link() -> None:
    """The link says what this session chose for the active dataset (nothing when it chose nothing yet)."""
    chosen = datasets.chosen_trust(datasets.dataset().key)
    if chosen is None:
        if "trusted" in st.query_params:
            del st.query_params["trusted"]
    elif st.query_params.get("trusted") != settings.SETTINGS["trusted"].dump(chosen):
        st.query_params["trusted"] = settings.SETTINGS["trusted"].dump(chosen)


def note() -> None:
    """On every page, when nothing is trusted: which statuses exist, that none is trusted, and where to choose."""
    said = active.workbench().trust_note()
    if said:
        widgets.warn(f"{said} {WHERE}")
