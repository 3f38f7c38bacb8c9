"""The search engine, in the sidebar of every page: in-process (the default), PostgreSQL exact, or PostgreSQL
approximate (HNSW), the database URL, whether it answers, and the approximate engine's recall.

The engine's name lives in the URL like the retriever's; the database URL lives in this browser session only
and is a password field (never shown, never in a link); empty, the server's OPENBOOK_DATABASE_URL is used.
While the database fails, every page searches in process and the sidebar says why; "Try again" checks anew.

Left out on purpose: the engine's tuning (HNSW m, ef_construction, ef_search: the defaults measured in the
README) and creating the database (pgvector must be installed there; the message says so when it is not).
"""
import os

import streamlit as st

from rag_core.retrieval.engines.registry import DESCRIPTIONS, ENGINES, ENV, OVERLAP_K
from ui import active, search_engine, settings
from ui.widgets import failing, plain, secret_input

ENGINE_NAMES = {"memory": "In-process index", "postgres": "PostgreSQL (exact)",
                "postgres-hnsw": "PostgreSQL, approximate (HNSW)"}


def render() -> None:
    st.selectbox("Search engine", ENGINES, key="engine", index=ENGINES.index(settings.now("engine")),
                 on_change=settings.remember, args=("engine",),
                 format_func=ENGINE_NAMES.get, help=" ".join(f"{ENGINE_NAMES[e]}: {DESCRIPTIONS[e]}." for e in ENGINES))
    if st.session_state["engine"] == "memory":
        return
    if st.session_state.get("database_url"):
        placeholder = "set (hidden): type another to replace it"
    else:
        placeholder = f"empty: the server's {ENV}" if os.environ.get(ENV) else "postgresql://user:password@host:5432/database"
    secret_input("Database URL", "database_url", placeholder=placeholder, forget="Forget this URL",
                 forget_key="engine_forget_url", changed=search_engine.forget_engine_status,
                 help="Where PostgreSQL with pgvector runs, e.g. postgresql://user:password@host:5432/database. Kept "
                      "on the server for this browser session only: the field empties once you press Enter, the "
                      f"password is never shown and never in a link. Left empty: the server's {ENV}.")
    status = search_engine.engine_status()
    if failing(status.problem, "every page searches in process", search_engine.forget_engine_status, "engine_retry"):
        return
    st.caption(plain(f"Searching on {status.text}."))
    if status.name == "postgres-hnsw":
        show_overlap()


def show_overlap() -> None:
    """The share of exact search's first 20 chunks the approximate engine finds too, on the golden questions."""
    try:
        chunker = settings.chunker()
    except ValueError:
        return                                  # the page says what is wrong with the chunker
    wb = active.workbench()
    n = len(wb.questions)
    if not n:
        st.caption("No golden question: the overlap of the approximate index with exact search cannot be measured.")
        return
    overlap = active.overlap_with_exact(chunker, OVERLAP_K)
    st.caption(f"Overlap with exact search in the first {OVERLAP_K} chunks, on the {n} golden "
               f"question{'s' * (n > 1)}: **{overlap:.3f}** (1.000: the approximate index found every chunk exact "
               f"search finds).")


def stored_indexes() -> None:
    """What the database holds for Open Book (a table per dataset content, chunker and retriever), with a button to
    drop the active dataset's and one to drop them all (each is rebuilt on its next search). Nothing in process."""
    wb = active.workbench()
    if wb.engine == "memory":
        return
    from rag_core.retrieval.engines.pgtables import corpus_key   # psycopg: only when a database is chosen
    st.subheader("Indexes stored in PostgreSQL")
    engine, mine = wb.search_engine, corpus_key(wb.corpus)
    try:
        rows = engine.catalog()
    except ValueError as e:
        st.error(plain(e))
        return
    ours = sum(r["dataset"] == mine for r in rows)
    st.caption(f"{len(rows)} stored index(es), {sum(r['bytes'] for r in rows) / 1e6:,.1f} MB on disk, {ours} for the "
               "active dataset. Each is built on the first search that needs it, once per dataset content, chunker and "
               "retriever, and shared by every session and dashboard using this database; a changed dataset gets new "
               "ones. Dropping one costs only its rebuild on the next search.")
    if rows:
        table = [{"active dataset": r["dataset"] == mine, "chunker": r["chunker"], "retriever": r["retriever"],
                  "chunks": r["chunks"], "MB": round(r["bytes"] / 1e6, 2), "built": r["built_at"]} for r in rows]
        st.dataframe(table, hide_index=True, width="stretch")
    c = st.columns(2)
    if ours and c[0].button(f"Drop the active dataset's {ours} index(es)", key="engine_drop_mine",
                            icon=":material/delete:"):
        st.toast(f"Dropped {engine.drop(corpus=wb.corpus)}.")
        st.rerun()
    if rows:
        with c[1].popover("Drop every stored index", icon=":material/delete_forever:"):
            st.caption("Every dashboard using this database rebuilds what it needs on its next search.")
            if st.button(f"Drop all {len(rows)}", key="engine_drop_all", type="primary"):
                st.toast(f"Dropped {engine.drop()}.")
                st.rerun()
