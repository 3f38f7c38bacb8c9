"""Datasets: the two built-in ones, an upload, and which one this browser session shows (and its link says).

- `dataset()`, `use_dataset(ds)`: this session's active dataset; its key goes in the URL.
- `dataset_from_link()`: follow the link's `data=` (a kept upload reopens from the store).
- `chosen_trust(key)`: the statuses this session chose to trust in a dataset.

Left out on purpose: building a dataset's Workbench (`ui.active`, cached in `ui.cache`), reading files
(`ui.reading`), and sharing uploads between sessions (an upload lives in the session that made it, unless kept).
"""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from ui import first_link, saved


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
BUILT_IN_GOLDEN = {BUNDLED.key: "article", BUNDLED_USER.key: "user"}     # built-in key -> its golden set's name


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
        kept = _saved_dataset(wanted)
        if kept is not None:                        # kept in the store: the link opens it after a reload
            use_dataset(kept)
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
        kept = saved.store().load_dataset(key)
    except ValueError:
        return None
    return Dataset(kept.key, kept.name, tuple(kept.documents), tuple(kept.golden)) if kept else None


def keep_dataset(ds: Dataset) -> str | None:
    """Keep an upload in the store so that a link to it works after a reload; a sentence if it could not be."""
    try:
        saved.store().save_dataset(ds.name, ds.documents, ds.golden)
    except ValueError as e:
        return str(e)
    return None


TRUSTED = "trusted_by_dataset"      # session: dataset key -> the statuses chosen as trusted (ui.trust_form keeps them)


def chosen_trust(dataset_key: str) -> list | None:
    """The statuses this session chose to trust in that dataset, or None: not chosen."""
    return st.session_state.get(TRUSTED, {}).get(dataset_key)
