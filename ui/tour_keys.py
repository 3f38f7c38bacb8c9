"""The tour for a presenter: a clicker's keys move a step.

`keys()` puts one small script on the page (st.html with JavaScript, nothing fetched): → , PageDown and Space press
Next; ← and PageUp press Back. A key typed in a text box, a select box or a slider, or with Ctrl, Alt or Cmd held, is
left alone; Space on a focused button or link does what that button does.

Left out on purpose: the browser's Back button (Streamlit gives each ?step= its own history entry, and reruns the
page with the link Back opens: pages/tour.py follows that link's step); a key map of one's own (a clicker sends
these keys).
"""
from __future__ import annotations

import streamlit as st

HELP = ("Presenting? A clicker works: → , PageDown or Space for the next step, ← or PageUp for the one before; "
        "the browser's Back button steps back too.")

_SCRIPT = """<script>
(() => {
  if (window.__tourKeys) return;                  // one listener, however many runs drew this script
  window.__tourKeys = true;
  const KEYS = {ArrowRight: 'tour_next', PageDown: 'tour_next', ' ': 'tour_next', ArrowLeft: 'tour_back',
                PageUp: 'tour_back'};
  document.addEventListener('keydown', e => {
    const key = KEYS[e.key], t = e.target;
    if (!key || e.defaultPrevented || e.ctrlKey || e.altKey || e.metaKey) return;
    if (t.closest && t.closest('input, textarea, select, [contenteditable="true"], [role="slider"], [role="listbox"],'
                               + ' [role="combobox"], [role="option"], [role="menu"], [role="dialog"]')) return;
    if (e.key === ' ' && t.closest && t.closest('button, a, summary')) return;   // Space presses what has focus
    const button = document.querySelector('.st-key-' + key + ' button');
    if (!button) return;                                                         // another page: not ours
    e.preventDefault();
    if (!button.disabled) button.click();
  });
})();
</script>"""


def keys() -> None:
    """The presenter's keys (see the module's docstring), for as long as the tour is the page shown."""
    st.html(_SCRIPT, unsafe_allow_javascript=True)

