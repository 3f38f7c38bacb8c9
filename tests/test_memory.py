"""Memory after a session ends (issue 17): an upload's Workbench goes when its session disconnects.

Streamlit keeps a disconnected session (its session state) for server.disconnectedSessionTTL so that a tab can
reconnect, and drops it only at a later write to its session store; what the session state holds stays until then
and, once freed, in glibc's arenas. At the disconnect itself Streamlit clears the session's session-scoped caches
(AppSession.clear_session_caches): the upload's Workbench lives there, so it is released at once.
"""
from __future__ import annotations

import gc

from streamlit.runtime.caching import clear_session_resource_cache
from streamlit.testing.v1 import AppTest

SCRIPT = """
import weakref
import streamlit as st
from rag_core.data.corpus import Document
from rag_core.data.golden import GoldenRow
from ui import data

ds = data.make_dataset("mine", [Document("a", "one two three four five six seven")],
                       [GoldenRow("where is four?", "a", "four five")])
data.use_dataset(ds)
st.write(f"{len(data.workbench().corpus.documents)} document(s)")
st.session_state["tokens"] = weakref.ref(data.workbench().tc)    # the upload's tokens, shared by every sibling
"""
SESSION = "test session id"       # AppTest's session (streamlit.testing.v1.local_script_runner)


def test_an_uploads_workbench_is_released_when_its_session_disconnects():
    at = AppTest.from_string(SCRIPT, default_timeout=60).run()
    assert not at.exception and at.markdown[0].value == "1 document(s)"
    tokens = at.session_state["tokens"]
    gc.collect()
    assert tokens() is not None                         # the open session keeps it across reruns
    at.run()
    assert at.session_state["tokens"]() is tokens()     # built once, not at every rerun
    clear_session_resource_cache(SESSION)               # what Streamlit does when the tab disconnects
    gc.collect()
    assert tokens() is None
    assert "dataset" in at.session_state                # the dataset stays, so a reconnecting tab rebuilds it
