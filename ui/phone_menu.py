"""On a narrow window, the sidebar folds away once a page is chosen in Streamlit's menu.

Streamlit folds it only when the browser's user agent says "mobile": a narrow desktop window (or a phone asking for
the desktop site) kept the 300 px sidebar over 300 of its 390 px after every choice. One small script (st.html with
JavaScript, nothing fetched) presses the sidebar's own "Collapse sidebar" button after a menu click, when the
sidebar covers more than half the window. A wide window keeps its sidebar open.

Left out on purpose: the menu itself (Streamlit's, see ui/navigation.py), the sidebar's contents (ui/frame.py).
"""
from __future__ import annotations

import streamlit as st

_SCRIPT = """<script>
(() => {
  if (window.__foldMenu) return;                    // one listener, however many runs drew this script
  window.__foldMenu = true;
  document.addEventListener('click', e => {
    if (!e.target.closest || !e.target.closest('[data-testid="stSidebarNav"] a')) return;
    const bar = document.querySelector('[data-testid="stSidebar"]');
    if (!bar || bar.getBoundingClientRect().width <= window.innerWidth / 2) return;    // beside the page: stays
    setTimeout(() => {        // after Streamlit's own handler (which folds it on a "mobile" user agent)
      const fold = document.querySelector('[data-testid="stSidebarCollapseButton"] button');
      if (fold && bar.getBoundingClientRect().right > 0) fold.click();
    }, 0);
  }, true);
})();
</script>"""


def fold_after_choice() -> None:
    """Put the script on the page (in the sidebar, where it takes no room the page needs)."""
    with st.sidebar:
        st.html(_SCRIPT, unsafe_allow_javascript=True)
