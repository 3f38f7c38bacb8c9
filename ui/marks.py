"""People's marks: "Mark: right / wrong / clear" under every answer the Ask page judges, kept in the store.

    marks.mark(a.answer, a.spans, a.question, "scripted", key="scripted")    # under the scripted answer

A mark is kept with the active dataset, the question, the answer and the spans (rag_core.store.labels), so it
survives a reload and is counted on the Judge page. The line above the buttons says the mark as it is kept now:
read back from the store at every run, never remembered in the session. A store that cannot be written (a
read-only data folder, a database that is down) is one readable message, and the page goes on.

Left out on purpose: counting (rag_core.evaluation.judges, on the Judge page) and who marked it (no users here).
"""
from __future__ import annotations

import streamlit as st

from ui import data, widgets


def _labels():
    return data.store().labels


def _set(question, answer, spans, label, row, source) -> None:
    try:
        _labels().set(data.dataset().key, question, answer, spans, label, anchor=row.anchor if row else None,
                      doc=row.doc if row else None, source=source)
    except ValueError as e:
        st.session_state["marks_problem"] = str(e)


def _clear(key: str) -> None:
    try:
        _labels().clear(key)
    except ValueError as e:
        st.session_state["marks_problem"] = str(e)


def _golden_row(question: str):
    """The active dataset's golden row of this question, or None (a question of your own)."""
    return next((r for r in data.workbench().check.valid if r.question.strip() == question), None)


def mark(answer: str, spans, question: str, source: str, key: str) -> None:
    """The three buttons for this answer (`key` names the place on the page: scripted, model, yours; `source`
    where the answer came from: scripted, preset, yours, model:<name>)."""
    question = question.strip()
    if not answer.strip() or not question:
        return
    row = _golden_row(question)
    store = data.store()
    if not store.enabled:
        st.caption("Marking answers right or wrong needs a data folder: the store is off here.")
        return
    problem = st.session_state.pop("marks_problem", None)
    if problem:
        widgets.error(problem)
    try:
        now = store.labels.get(data.dataset().key, question, answer, spans)
    except ValueError as e:
        widgets.error(str(e))
        return
    said = f"Your mark: **{now.label}**" if now else "Not marked yet"
    left, right, wrong, clear = st.columns([3, 1, 1, 1], vertical_alignment="center")
    left.caption(f"{said}. Is this answer right? Your marks are counted on the Judge page.")
    args = (question, answer, list(spans))
    right.button("Right", key=f"mark_{key}_right", icon=":material/check:", on_click=_set,
                 args=(*args, "right", row, source), type="primary" if now and now.label == "right" else "secondary",
                 help="Mark this answer right: it says what the question asks, per the current documents.")
    wrong.button("Wrong", key=f"mark_{key}_wrong", icon=":material/close:", on_click=_set,
                 args=(*args, "wrong", row, source), type="primary" if now and now.label == "wrong" else "secondary",
                 help="Mark this answer wrong.")
    clear.button("Clear", key=f"mark_{key}_clear", icon=":material/backspace:", disabled=now is None,
                 on_click=_clear, args=(now.id if now else "",), help="Forget your mark of this answer.")
