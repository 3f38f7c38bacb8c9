"""The picture frame of every page: the menu, link warnings, the note when nothing is trusted, and the shared sidebar
(dataset, chunker, retrieval, trusted statuses, search engine, compute, the model in use, glossary). app.py draws it
and runs the page; a page that runs without app.py draws it itself.

A folder named pages/ next to app.py puts a fresh Streamlit process in its old pages-folder mode until
the first `st.navigation` call (upstream streamlit PR 10276, issues 9992 and 9624): a deep link as the
very first request runs the page script alone. `ensure(__file__)`, the first line of every page, notices
that the frame was not drawn in this script run and draws it there and then (st.navigation with the one
page list, then the sidebar) and runs the page inside it, so the request gets the whole app and no click is
lost to a rerun.

Left out on purpose: any page content.
"""
from __future__ import annotations

import threading
from pathlib import Path

import streamlit as st

from rag_core.retrieval.chunkers import KINDS
from rag_core.retrieval.retrievers import DESCRIPTIONS, RERANKERS, RETRIEVERS
from rag_core.retrieval.engines.base import EngineError
from ui.widgets import RERANKER_NAMES, RETRIEVER_NAMES
from ui import (cache, compute_form, datasets, encoder_note, engine_form, first_link, glossary, history, model_config,
                navigation, phone_menu, search_engine, settings, trust_form, widgets)


_drawn = threading.local()            # set when the frame is drawn in this script run (one thread per run)


def draw():
    """Declare the pages, show the link warnings, draw the sidebar; returns the page to run."""
    first_link.keep()          # before the first message to the browser: a menu click can interrupt from there on
    st.set_page_config(page_title="Open Book — a RAG workbench", page_icon="📖", layout="wide")
    pg = st.navigation(navigation.pages())
    cache.session_end()         # when this session disconnects, its end is awaited and its memory returned

    links = [datasets.dataset_from_link(), trust_form.from_link()]       # first: what is trusted sets Ask's filter
    keys = settings.SHARED + navigation.settings_of(pg)             # the sidebar's settings and the page's own
    for warning in [w for w in links if w] + settings.init(keys):
        widgets.warn(warning)
    settings.sync_url(keys)     # every page's address names its dataset and its settings, in one write: the
                                # browser adds a history entry per write, and a second made the first Back do nothing
    first_link.followed()
    trust_form.keep_link()
    trust_form.note()
    if model_config.setting_problem():     # a bad OPENBOOK_LLM_* is said on every page, naming the variable
        widgets.warn("The server's model settings cannot be used: " + model_config.setting_problem() + " Fix the "
                     "variable and restart, or set up a model on the Model page.")
    if search_engine.engine_status(recheck=True).problem:      # said here too: on a phone the sidebar is folded away
        st.warning("Searching in process: the database chosen in the sidebar cannot be used. The sidebar says why "
                   "and offers to try again.", icon=":material/database:")

    with st.sidebar:
        st.caption(f"Dataset: **{widgets.plain(datasets.dataset().name)}**")
        st.subheader("Chunker", help="How documents are cut into chunks before indexing. Applies to every page.")
        st.selectbox("Strategy", KINDS, key="chunker", index=KINDS.index(settings.now("chunker")),
                     format_func={"fixed": "Fixed window of words", "structure": "By structure (paragraphs)",
                                  "sentence": "By sentence"}.get,
                     on_change=settings.choose_strategy,
                     help="Fixed: windows of N words. Structure: paragraphs merged up to N words. Sentence: N sentences.")
        unit = "sentences" if st.session_state["chunker"] == "sentence" else "words"
        st.number_input(f"Size ({unit})", min_value=1, max_value=2000, step=1, key="size", value=settings.now("size"),
                        on_change=settings.remember, args=("size",),
                        help="Fixed: words per chunk. Structure: most words per chunk. Sentence: sentences per chunk.")
        st.number_input(f"Overlap ({unit})", min_value=0, max_value=1999, step=1, key="overlap",
                        value=settings.now("overlap"),
                        on_change=settings.remember, args=("overlap",),
                        disabled=st.session_state["chunker"] == "structure",
                        help="How much each chunk repeats of the previous one, so a sentence cut by a boundary "
                             "still exists whole somewhere. Must be smaller than the size. Not used by 'structure'.")
        st.subheader("Retrieval", help="How chunks are found and reordered. Applies to every page and table; the "
                                       "defaults are the article's.")
        st.selectbox("Retriever", RETRIEVERS, key="retriever", index=RETRIEVERS.index(settings.now("retriever")),
                     on_change=settings.remember, args=("retriever",),
                     format_func=RETRIEVER_NAMES.get,
                     help=" ".join(f"{RETRIEVER_NAMES[r]}: {DESCRIPTIONS[r]}" for r in RETRIEVERS))
        st.selectbox("Reranker (when rerank is on)", RERANKERS, key="reranker",
                     index=RERANKERS.index(settings.now("reranker")), on_change=settings.remember,
                     args=("reranker",), format_func=RERANKER_NAMES.get,
                     help=" ".join(f"{RERANKER_NAMES[r]}: {DESCRIPTIONS[r]}" for r in RERANKERS))
        encoder_note.render()
        trust_form.picker("trusted")
        engine_form.render()
        compute_form.render()
        model_in_use()
        glossary.popover()
    phone_menu.fold_after_choice()          # a narrow window's sidebar folds away once a page is chosen
    history.one_entry_per_action()          # Back shows the view before the last click
    _drawn.here = True
    return pg


def model_in_use() -> None:
    """Which model Ask, Compare and Judge send to (set up on the Model page), as plain text."""
    cfg = model_config.llm_config()
    st.page_link("pages/model.py", icon=":material/smart_toy:",       # a label is Markdown: the name made plain
                 label=f"Model: {widgets.plain(cfg.model)}" if cfg else "Model: none set up (set one up)")


def run(pg) -> None:
    """Run the page; a search engine that fails half-way (a database gone between the sidebar's check and a
    search) is a readable message, and the next run checks the database again (in process while it fails)."""
    try:
        pg.run()
        compute_form.show_counts()          # what the page encoded on Ray, counted
    except EngineError as e:
        widgets.error(f"The search stopped: {e} The next run of this page checks the database again and searches "
                      "in process while it fails.")
        st.button("Show this page again", key="engine_failed_rerun")


def ensure(page_file: str) -> None:
    """First line of every page: draw the frame if app.py did not in this script run and run the page inside it
    (as app.py does: `run`, then stop here rather than run the page twice); if the frame's navigation points
    elsewhere, rerun there."""
    if getattr(_drawn, "here", False):
        _drawn.here = False                   # consumed: the next script run must draw it again
        return
    pg = draw()
    if navigation.url_path(pg) != Path(page_file).stem:
        _drawn.here = False
        st.rerun()
    run(pg)                                   # this very file again; its ensure() finds the frame drawn
    st.stop()
