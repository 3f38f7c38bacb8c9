"""Where the trained encoder runs: this process, or the sidebar's Ray (one session per server, shared by the
browser sessions that chose it, left when the last of them ends or chooses this process).

- `compute_status()`: Ray when it can be used, else this process with the reason.
- `ray_embedder(wb)`: the trained encoder encoding on that Ray; `ray_counts()`, `units_on_ray()`: what ran there.
- `compute_notes()`: what happened to this session's runs on Ray (a cluster lost mid-run), each said once.

Left out on purpose: Ray itself (rag_core.retrieval.ray_sessions, ray_encoder), the sidebar's form
(`ui.compute_form`), and what runs there (`ui.active.sweep_on_ray`, `prepare_all`).
"""
from __future__ import annotations

import contextlib
import os
from typing import NamedTuple

import streamlit as st

from rag_core import Workbench
from rag_core.retrieval.ray_sessions import RAY             # ray itself only when a session is opened
from rag_core.text.credentials import mask_secrets
from ui import cache
from ui.widgets import plain


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
            session = RAY.join(cache.ray_user(), key)
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
        RAY.leave(cache.ray_user(), now=True)


def ray_embedder(wb: Workbench):
    """The trained encoder with the process's caches, encoding on the sidebar's Ray (one per session and Ray
    session): a cluster lost mid-run finishes the run here and says so once (`compute_notes`)."""
    session = compute_status().session
    held = st.session_state.get("_ray_embedder")
    if held is None or held[0] is not session or held[1].path != wb.embedder.path:    # one per forward pass too
        encoder = session.encoder("process", note=note_taker())
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


def count_units_on_ray(n: int) -> None:
    st.session_state["_units_on_ray"] = units_on_ray() + n


def compute_notes() -> list:
    """What happened to this session's runs on Ray (a cluster lost mid-run), each once, then forgotten."""
    notes = st.session_state.get("_compute_notes", [])
    said, notes[:] = list(notes), []
    return said


def note_taker():
    """Where a run on Ray writes what happened to it, for `compute_notes` to say once."""
    return st.session_state.setdefault("_compute_notes", []).append
