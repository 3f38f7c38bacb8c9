"""The golden set studio's widgets: pick an anchor from a document's sentences, type the question, add; edit a row.

The anchor is taken from the text (a sentence as the sentence chunker cuts it, or a run of its words), so it is
literal by construction; the question and the answer key are checked as an upload's rows are
(`golden_edit.add_row`), and a row that would not count is refused with the reason, as plain text. Every change goes
through `ui.studio.commit` in a button's callback, before the page runs again, so the page draws the set as it is.

Left out on purpose: what a change does to the dataset (ui.studio) and the statuses of the rows.
"""
from __future__ import annotations

import functools
import zlib

import pandas as pd
import streamlit as st

from rag_core.data.golden import GoldenRow
from rag_core.data.golden_csv import accepted_cell, accepted_from_cell
from rag_core.data.golden_edit import add_row, delete_row, replace_row, words_span
from rag_core.retrieval.chunkers import blocks, sentences
from rag_core.text.messages import shorten
from ui import datasets, studio, widgets

def name_field() -> str:
    """The set's name (the dataset's): typed here, kept by the next change, or at once with Rename."""
    key = f"{studio.NAME}_{datasets.dataset().key}"
    return st.text_input("Name of the set", value=studio.default_name(), key=key, max_chars=120,
                         help="Each change keeps the set under this name, with the dataset's documents, in the store.")


def units(text: str) -> list[str]:
    """The sentences an anchor is picked from: each paragraph's (blank lines end one), cut as the sentence chunker
    cuts them. "A b. C d\n\nE" -> ["A b.", "C d", "E"]"""
    return [s for block in blocks(text) for s in sentences(block)]


def pick_anchor(docs) -> tuple[str, str] | None:
    """Document, sentence and words of the anchor: (doc id, anchor), or None until a sentence is chosen."""
    ids = [d.id for d in docs]
    doc_id = st.selectbox("Document", ids, key="studio_doc", help="A document of the active dataset.")
    d = ids.index(doc_id)
    found = units(docs[d].text)
    find = st.text_input("Find in this document", key="studio_find", placeholder="a word of the sentence you want")
    shown = [i for i, s in enumerate(found) if find.strip().lower() in s.lower()]
    st.caption(f"{len(found)} sentence(s) in this document (paragraphs cut as the sentence chunker cuts them)"
               + (f"; {len(shown)} hold the text searched for." if find.strip() else "."))
    if not shown:
        st.info("No sentence holds that text: search for another word.")
        return None
    pick = f"studio_sentence_{d}_{zlib.crc32(find.strip().lower().encode())}"
    grid = f"{pick}_grid"
    st.dataframe(pd.DataFrame({"#": [i + 1 for i in shown], "sentence": [found[i] for i in shown]}),
                 hide_index=True, height=min(240, 35 * len(shown) + 38), width="stretch", key=grid,
                 on_select=functools.partial(_picked, grid, pick, tuple(shown)), selection_mode="single-row")
    s = st.selectbox("Anchor sentence", shown, index=None, key=pick, placeholder="Choose a sentence (or a table row)",
                     format_func={i: f"{i + 1} · {shorten(found[i], 160)}" for i in shown}.get)
    if s is None:
        return None
    words = found[s].split()
    first, last = 0, len(words) - 1
    if len(words) > 1:
        first, last = st.select_slider("Anchor: from word … to word …", list(range(len(words))),
                                       value=(first, last),
                                       format_func={i: f"{i + 1}. {w}" for i, w in enumerate(words)}.get,
                                       key=f"studio_words_{d}_{s}",
                                       help="Keep the whole sentence, or narrow the anchor to the words that answer.")
    anchor = words_span(found[s], first, last)
    st.caption("Anchor (literal, from the document):")
    st.text(anchor)
    return doc_id, anchor


def _picked(grid: str, pick: str, shown: list) -> None:
    """A row clicked in the sentences' table chooses that sentence in the selectbox."""
    chosen = st.session_state[grid].selection.rows
    if chosen:
        st.session_state[pick] = shown[chosen[0]]


REPLIES = ["", "yes", "no"]
REPLY_HELP = ("For a yes/no question: the golden reply. An answer that opens with the other one is a wrong answer; "
              "one that opens with it and contradicts nothing of the answer key is answered.")


ACCEPT_HELP = ("Other ways of saying the answer key that a marker would accept, separated by '|': 'no size limit | "
               "unbounded'. An answer that neither states nor contradicts the key but states one of these, and "
               "contradicts none, is answered.")


def _reply_label(reply: str) -> str:
    return {"": "not a yes/no question", "yes": "Yes", "no": "No"}[reply]


def add_form(anchor: tuple[str, str] | None) -> None:
    """Question, optional answer key, Add (refused with the reason when the row would not count)."""
    st.text_input("Question", key="studio_question", placeholder="As a user would ask it", max_chars=2000)
    st.text_input("Answer key (optional)", key="studio_answer", placeholder="Words of the anchor that answer",
                  help="Found inside the anchor; empty: the whole anchor is what an answer must state.")
    st.selectbox("Reply to a yes/no question (optional)", REPLIES, key="studio_reply", format_func=_reply_label,
                 help=REPLY_HELP)
    st.text_input("Also accept (optional)", key="studio_accept", placeholder="no size limit | unbounded",
                  help=ACCEPT_HELP, max_chars=2000)
    st.button("Add", type="primary", key="studio_add", on_click=_add, args=(anchor,), disabled=anchor is None,
              icon=":material/add:")


def _add(anchor) -> None:
    row = GoldenRow(st.session_state.get("studio_question", ""), anchor[0], anchor[1],
                    st.session_state.get("studio_answer", ""), st.session_state.get("studio_reply", ""),
                    accepted_from_cell(st.session_state.get("studio_accept", "")))
    try:
        new = add_row(studio.rows(), row, studio.documents())
    except ValueError as e:
        studio.say("error", f"Not added: {e}")
        return
    studio.set_source(new[-1], "typed")
    studio.commit(new, f"add row {len(new)}")
    for name in ("studio_question", "studio_answer", "studio_reply", "studio_accept"):
        st.session_state[name] = ""


def edit_form() -> None:
    """A row chosen by number: its question and answer key edited and saved, or the row deleted."""
    rows = studio.rows()
    if not rows:
        return
    if st.session_state.get("studio_row", 0) not in range(len(rows)):
        st.session_state.pop("studio_row", None)
    i = st.selectbox("Row to edit", range(len(rows)), key="studio_row",
                     format_func={i: f"{i + 1} · {shorten(r.question, 100)}" for i, r in enumerate(rows)}.get)
    r, k = rows[i], f"{datasets.dataset().key}_{i}"
    st.text(f"{r.doc} · anchor: {r.anchor}")
    st.text_input("Edited question", value=r.question, key=f"studio_edit_q_{k}", max_chars=2000)
    st.text_input("Edited answer key", value=r.answer, key=f"studio_edit_a_{k}",
                  help="Found inside the anchor; empty: the whole anchor.")
    st.selectbox("Edited reply", REPLIES, index=REPLIES.index(r.reply if r.reply in REPLIES else ""),
                 key=f"studio_edit_r_{k}", format_func=_reply_label, help=REPLY_HELP)
    st.text_input("Edited accepted wordings", value=accepted_cell(r.accept), key=f"studio_edit_x_{k}",
                  help=ACCEPT_HELP, max_chars=2000)
    c1, c2 = st.columns(2)
    c1.button("Save row", key="studio_save", on_click=_save, args=(i, k), icon=":material/save:")
    c2.button("Delete row", key="studio_delete", on_click=_delete, args=(i,), icon=":material/delete:")


def _save(i: int, k: str) -> None:
    rows = studio.rows()
    row = rows[i]._replace(question=st.session_state[f"studio_edit_q_{k}"],
                           answer=st.session_state[f"studio_edit_a_{k}"],
                           reply=st.session_state.get(f"studio_edit_r_{k}", rows[i].reply),
                           accept=accepted_from_cell(st.session_state.get(f"studio_edit_x_{k}",
                                                                          accepted_cell(rows[i].accept))))
    try:
        new = replace_row(rows, i, row, studio.documents())
    except ValueError as e:
        studio.say("error", f"Row {i + 1} not saved: {e}")
        return
    studio.set_source(new[i], studio.source_of(rows[i]) or "edited")
    studio.commit(new, f"edit row {i + 1}")


def _delete(i: int) -> None:
    studio.commit(delete_row(studio.rows(), i), f"delete row {i + 1}")
    st.session_state.pop("studio_row", None)


def toolbar() -> None:
    """Rename, Start an empty set, Undo (naming what it undoes)."""
    c1, c2, c3 = st.columns(3)
    c1.button("Rename", key="studio_rename", on_click=lambda: studio.commit(studio.rows(), "rename the set"),
              icon=":material/edit:")
    c2.button("Start an empty set", key="studio_empty", on_click=lambda: studio.commit((), "start an empty set"),
              icon=":material/note_add:")
    last = studio.last_change()
    c3.button(f"Undo: {widgets.plain(last)}" if last else "Undo", key="studio_undo", on_click=studio.undo,
              disabled=not last, icon=":material/undo:")
