"""Reading the user's uploaded files on the Your data page: once per session, under a line that says which file is
read, with a Cancel button; a cancelled reading leaves nothing behind.

Cancel works through Streamlit's own rerun: a click reruns the script, and the running script stops at its next
call to Streamlit, here the progress line, redrawn a few times a second between the pages of a PDF
(rag_core.data.budget). The reading's result is kept only once it is whole; the run that follows sees the mark
left by the reading that never finished, and says that it was stopped instead of reading the same files again.

Left out on purpose: reading in another process (a page of a PDF is read whole; the budget in pages and seconds
bounds the rest) and keeping the documents read before a cancel (they are a part no one chose).
"""
from __future__ import annotations

import hashlib

import streamlit as st

from rag_core.data.ingest import IngestResult, Limits, read_files
from ui.widgets import plain

_HELD, _UNFINISHED = "_read_uploads", "_read_unfinished"     # session keys: (signature, result); a signature


def read_uploads(files: tuple, default_status: str) -> IngestResult | None:
    """Documents from uploaded (name, bytes) pairs, with the limits of the environment (see README); None while the
    reading of these very files was cancelled and not asked for again.

    The last result is kept in this session only (not in a cache shared across sessions), so the bytes of an
    upload are released when its session ends.
    """
    signature = hashlib.sha256(repr([(n, len(b), hashlib.sha256(b).hexdigest()) for n, b in files]
                                    + [default_status]).encode()).hexdigest()
    held = st.session_state.get(_HELD)
    if held is not None and held[0] == signature:
        return held[1]
    if st.session_state.get(_UNFINISHED) == signature:      # the last reading of these files never finished
        st.warning("Reading your files was stopped before it finished (Cancel, or a change on the page while it ran): "
                   "nothing of it is used.",
                   icon=":material/block:")
        if not st.button("Read these files again", key="data_read_again", icon=":material/refresh:"):
            return None
    st.session_state[_UNFINISHED] = signature
    line, cancel = st.empty(), st.empty()
    line.caption("Reading your files…")
    cancel.button("Cancel", key="data_read_cancel", icon=":material/stop:",
                  help="Stops reading; nothing read so far is used.")

    def tell(label: str, pages: int, in_all: int) -> None:
        said = f"Reading {label}" + (f": page {pages:,} ({in_all:,} PDF pages in all)" if pages else "") + "…"
        line.caption(plain(said))
    result = read_files(files, Limits.from_env(), default_status, on_progress=tell)
    st.session_state[_HELD] = (signature, result)
    st.session_state.pop(_UNFINISHED, None)
    line.empty()
    cancel.empty()
    return result
