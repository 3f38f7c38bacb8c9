"""The link a browser session was opened with, until the frame has followed it once.

A click on the menu during a session's first run interrupts that run, and the page the click opens comes with an
empty query string (Streamlit clears the link on a page change): if the interrupted run had not yet read the
link's settings, they were lost, and the defaults came back without a word (1 walk in 20 on a busy machine).
`keep()` notes the link before the run's first message to the browser (the first point where a click can
interrupt it); `get(name)` is the address's value, else, until `followed()` is called, the first link's.

Left out on purpose: reading or checking values (ui.settings does that).
"""
from __future__ import annotations

import streamlit as st

FIRST, FOLLOWED = "_first_link", "_first_link_followed"


def keep() -> None:
    """Note the address's values as the session's first link (once per session, before anything is drawn)."""
    if FIRST not in st.session_state:
        st.session_state[FIRST] = st.query_params.to_dict()


def get(name: str) -> str | None:
    """The address's value for `name`; else the first link's, as long as the frame has not followed it."""
    if name in st.query_params:
        return st.query_params[name]
    if st.session_state.get(FOLLOWED):
        return None
    return st.session_state.get(FIRST, {}).get(name)


def followed() -> None:
    """The frame has read the first link and written the address: from now on only the address counts."""
    st.session_state[FOLLOWED] = True
