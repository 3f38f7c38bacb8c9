"""Memory after a session ends (issue 17): an upload's Workbench goes when its session disconnects.

Streamlit keeps a disconnected session (its session state) for server.disconnectedSessionTTL so that a tab can
reconnect, and drops it only at a later write to its session store; what the session state holds stays until then
and, once freed, in glibc's arenas. At the disconnect itself Streamlit clears the session's session-scoped caches
(AppSession.clear_session_caches): the upload's Workbench lives there, so it is released at once.
"""
from __future__ import annotations

import gc
from pathlib import Path

from streamlit.runtime.caching import clear_session_resource_cache
from streamlit.testing.v1 import AppTest

SCRIPT = """
import weakref
import streamlit as st
from rag_core.data.corpus import Document
from rag_core.data.golden import GoldenRow
from ui import active, datasets

ds = datasets.make_dataset("mine", [Document("a", "one two three four five six seven")],
                       [GoldenRow("where is four?", "a", "four five")])
datasets.use_dataset(ds)
st.write(f"{len(active.workbench().corpus.documents)} document(s)")
st.session_state["tokens"] = weakref.ref(active.workbench().tc)    # the upload's tokens, shared by every sibling
"""
ROOT = Path(__file__).resolve().parent.parent
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


def uploads_tokens(name: str) -> list:
    """Weak references to every live TokenizedCorpus of the dataset called `name`."""
    import weakref
    from rag_core.retrieval.tokenized import TokenizedCorpus
    gc.collect()
    return [weakref.ref(o) for o in gc.get_objects() if isinstance(o, TokenizedCorpus) and o.corpus.name == name]


def test_the_your_data_page_keeps_no_workbench_in_widget_state_after_the_disconnect():
    # A function defined in a page and handed to a widget (format_func) lives in the session's widget state, and
    # with it the page's globals: its `wb`. The session state outlives the disconnect (until the TTL), so must not.
    from rag_core.data.corpus import Document
    from rag_core.data.golden import GoldenRow
    from ui import datasets
    ds = datasets.make_dataset("kept by nothing", [Document("a", "one two three four five six seven")],
                           [GoldenRow("where is four?", "a", "four five")])
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["dataset"] = at.session_state["data_uploaded"] = ds
    at.switch_page(str(ROOT / "pages" / "your_data.py")).run()
    assert not at.exception and any(r.label == "Every page works on" for r in at.radio)
    held = uploads_tokens("kept by nothing")
    assert held and all(r() is not None for r in held)
    clear_session_resource_cache(SESSION)
    gc.collect()
    assert [r() for r in held] == [None] * len(held)
