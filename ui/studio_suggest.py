"""The golden set studio's suggestions: filled from the documents' own structure, each shown as plain text with
where it comes from, and added to the set in one click (or all at once) through the studio's add path.

    from_structure()      # a button's callback: st.session_state[SUGGESTED] = rag_core's from_structure, and a note
    suggestions(items)    # each suggestion with Accept, and Accept all (N); a note saying how many, or why none

Adding goes through `golden_edit.add_row` (the checks of a typed row) and `studio.commit`: one change, one Undo,
each row remembering its source. A suggestion is never used before a person accepts it.

Left out on purpose: finding suggestions (rag_core.data.suggest) and what a change does to the dataset (ui.studio).
"""
from __future__ import annotations

import streamlit as st

from rag_core.data.golden import GoldenRow
from rag_core.data.golden_edit import add_row
from ui import studio, widgets

SUGGESTED = "studio_suggested"      # session: the suggestions offered (rag_core Suggestion), until replaced
SAID = "studio_suggest_note"        # session: (kind, sentence) about the suggestions offered: ("ok" | "info", text)
NONE_FOUND = ("None found in these documents. Suggestions come from headings that ask a question (a reST or "
              "Markdown heading ending with '?', or a line in bold that does), Q:/A: pairs and definition lists, "
              "each anchored on the first sentence of the prose below it. A question with only code or nothing "
              "under it gives none.")


def from_structure() -> None:
    """Offer the rows the active dataset's documents suggest by their own structure, and say how many."""
    from rag_core.data.suggest import from_structure as found_in
    found = found_in(studio.documents())
    st.session_state[SUGGESTED] = found
    st.session_state[SAID] = (("ok", f"{len(found)} suggestion(s) found in the documents' question headings, bold "
                                     "questions, Q:/A: pairs and definition lists: accept those that fit.")
                              if found else ("info", NONE_FOUND))


def accept(items, what: str) -> None:
    """Add the suggestions that would count, each with its source, as one change (one Undo); those that would not
    are said with their reason."""
    rows, refused = studio.rows(), []
    for s in items:
        try:
            rows = add_row(rows, GoldenRow(s.question, s.doc, s.anchor, s.answer or ""), studio.documents())
        except ValueError as e:
            refused.append(f"{s.question}: {e}")
            continue
        studio.set_source(rows[-1], s.source)
    if len(rows) > len(studio.rows()):
        studio.commit(rows, what)
    if refused:
        studio.say("error", f"{len(refused)} suggestion(s) not added: " + " · ".join(refused))


def _said() -> None:
    kind, text = st.session_state.get(SAID, (None, None))
    if kind == "ok":
        widgets.success(text)
    elif kind == "info":
        widgets.info(text)


def suggestions(items, key: str = "studio_suggestion") -> None:
    """The suggestions not yet in the set (for the active documents), each with its question, anchor and source as
    plain text (they come from the user's files or a model) and Accept; Accept all (N) above them."""
    _said()
    have, docs = {tuple(r[:3]) for r in studio.rows()}, {d.id for d in studio.documents()}
    items = [s for s in items if s.doc in docs and (s.question, s.doc, " ".join(s.anchor.split())) not in have]
    if not items:
        st.caption("No suggestion waiting: press a button above to look for some.")
        return
    st.button(f"Accept all ({len(items)})", key=f"{key}_all", on_click=accept,
              args=(items, f"accept {len(items)} suggestion(s)"), icon=":material/done_all:")
    for n, s in enumerate(items):
        with st.container(border=True):
            text, button = st.columns([6, 1], vertical_alignment="center")
            key_said = f"\nanswer key: {s.answer}" if s.answer else ""
            text.text(f"{s.question}\nanchor: {s.anchor}{key_said}")
            text.caption(widgets.plain(f"{s.doc} · {s.why} · {s.source}"))
            button.button("Accept", key=f"{key}_{n}", on_click=accept, args=([s], f"accept suggestion {n + 1}"),
                          icon=":material/add:")
