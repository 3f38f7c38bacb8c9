"""One browser-history entry per user action, so that Back shows the view before the last click.

Streamlit adds a history entry (pushState) for each change of the address: the page switch of a menu click, then
the frame's write of the settings into the new page's address (ui.settings.sync_url; Streamlit drops a page's
query on a switch). One click made two entries, in either order ('/glossary' then '/glossary?size=120...', or
'/ask?size=120...' then '/glossary?size=120...'), so the first Back stayed on Glossary or on the same Ask.

One small script (st.html with JavaScript, nothing fetched) lets the first address change after a click or a key
press add its entry and turns the changes that follow it, until the next click or key press, into replacements of
that entry. The address loaded, and one reached with Back or Forward, is an entry already: a change that follows
it without a click replaces it too. Streamlit's own replacements (during Back and Forward) are left as they are.
The script runs a few tenths of a second after the page is drawn: a click before that adds entries as Streamlit
does (the click is seen through the browser's user activation, so it still gets its own entry).

Left out on purpose: what goes into the address (ui.settings), the menu (ui.navigation, ui.phone_menu).
"""
from __future__ import annotations

import streamlit as st

_SCRIPT = """<script>
(() => {
  if (window.__oneEntryPerAction) return;          // one patch, however many runs drew this script
  window.__oneEntryPerAction = true;
  // the address loaded is this view's entry, unless a click came first (the script runs once the page is drawn)
  let entryMade = !(navigator.userActivation && navigator.userActivation.isActive);
  const action = () => { entryMade = false; };
  document.addEventListener('pointerdown', action, true);
  document.addEventListener('keydown', action, true);
  window.addEventListener('popstate', () => { entryMade = true; });
  const push = window.history.pushState.bind(window.history);
  window.history.pushState = function (state, title, url) {
    if (entryMade) return window.history.replaceState(state, title, url);
    entryMade = true;
    return push(state, title, url);
  };
})();
</script>"""


def one_entry_per_action() -> None:
    """Put the script on the page (in the sidebar, where it takes no room the page needs)."""
    with st.sidebar:
        st.html(_SCRIPT, unsafe_allow_javascript=True)
