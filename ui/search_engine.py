"""The search engine in use: the sidebar's, or the in-process one while the database fails, and why.

`engine_status()` checks the sidebar's engine once per choice and again once its connection closed;
`database_url()` is the sidebar's URL or the server's.

Left out on purpose: the engines themselves (rag_core.retrieval.engines), the sidebar's form (`ui.engine_form`),
and the overlap of an approximate engine with exact search (`ui.active.overlap_with_exact`, which needs the active workbench).
"""
from __future__ import annotations

from typing import NamedTuple

import streamlit as st

from rag_core.retrieval.engines import registry        # names the engines; psycopg only when one is made


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
