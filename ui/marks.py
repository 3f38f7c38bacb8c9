"""People's marks: "Mark: right / wrong / clear" under every answer the Ask page judges, and under an answer
picked from the Model page's per-question table, kept in the store.

    marks.mark(a.answer, a.spans, a.question, "scripted", key="scripted")    # under the scripted answer
    marks.mark_a_row(df, f"model:{cfg.model}", key="model_0")               # under a table with a spans column

A mark is kept with the active dataset, the question, the answer and the spans (rag_core.store.labels), so it
survives a reload and is counted on the Judge page. The line above the buttons says the mark as it is kept now:
read back from the store at every run, never remembered in the session. A store that cannot be written (a
read-only data folder, a database that is down) is one readable message, and the page goes on.

With a model connected, a fourth button asks it to judge the answer too (rag_core.generation.model_judge: RIGHT or
WRONG and one line of why, at temperature 0): its verdict is shown under the rule's, never instead of it.

Left out on purpose: counting (rag_core.evaluation.judges, on the Judge page) and who marked it (no users here).
"""
from __future__ import annotations

import streamlit as st

from rag_core.generation.llm import LLMError
from rag_core.generation.model_judge import judge_with_model
from ui import active, datasets, model_config, saved, widgets

NO_GOLDEN = "(none: this question has no golden answer; judge the answer against the passages)"


def _labels():
    return saved.store().labels


def _set(question, answer, spans, label, row, source) -> None:
    try:
        _labels().set(datasets.dataset().key, question, answer, spans, label, anchor=row.anchor if row else None,
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
    return next((r for r in active.workbench().golden_check.valid if r.question.strip() == question), None)


def _ask_model(question, answer, spans, golden, cfg, key) -> None:
    """Button on_click: the model's verdict on this answer, kept with what it was asked about."""
    try:
        verdict = judge_with_model(question, spans, golden, answer, cfg)
    except LLMError as e:
        verdict = str(e)
    st.session_state[f"mark_{key}_verdict"] = ((question, answer, tuple(spans), cfg), verdict)


def model_verdict(question: str, answer: str, spans, row, key: str, where) -> None:
    """The button that asks a connected model to judge this answer, and its verdict when it is about this answer."""
    cfg = model_config.llm_config()
    if cfg is None:
        return
    golden = row.anchor if row else NO_GOLDEN
    where.button("Model?", key=f"mark_{key}_model", icon=":material/smart_toy:", on_click=_ask_model,
                 args=(question, answer, list(spans), golden, cfg, key),
                 help=f"Ask {cfg.model} whether this answer is right (a second judge, beside the rule).")
    about, verdict = st.session_state.get(f"mark_{key}_verdict", (None, None))
    if about != (question, answer, tuple(spans), cfg):
        return
    if isinstance(verdict, str):
        widgets.error(verdict)
    elif verdict.verdict is None:
        st.caption(f"The model judge ({widgets.plain(cfg.model)}) gave no verdict: its reply was neither RIGHT nor "
                   "WRONG.")
        st.text(verdict.reply[:500])
    else:
        st.caption(f"The model judge ({widgets.plain(cfg.model)}) says **{verdict.verdict}**: "
                   f"{widgets.plain(verdict.why) or '(no reason given)'}")


def mark(answer: str, spans, question: str, source: str, key: str) -> None:
    """The three buttons for this answer (`key` names the place on the page: scripted, model, yours; `source`
    where the answer came from: scripted, preset, yours, model:<name>)."""
    question = question.strip()
    if not answer.strip() or not question:
        return
    row = _golden_row(question)
    store = saved.store()
    if not store.enabled:
        st.caption("Marking answers right or wrong needs a data folder: the store is off here.")
        return
    problem = st.session_state.pop("marks_problem", None)
    if problem:
        widgets.error(problem)
    try:
        now = store.labels.get(datasets.dataset().key, question, answer, spans)
    except ValueError as e:
        widgets.error(str(e))
        return
    said = f"Your mark: **{widgets.plain(now.label)}**" if now else "Not marked yet"   # a shared database's value
    left, right, wrong, clear, model = st.columns([3, 1, 1, 1, 1], vertical_alignment="center")
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
    model_verdict(question, answer, spans, row, key, model)


def mark_a_row(rows, source: str, key: str) -> None:
    """Under a table of judged answers (question, answer, spans, and optionally verdict): a question picked, its
    answer as plain text (and the rule's verdict), and the mark buttons for it (`key` names the table on the page)."""
    if "spans" not in rows or rows.empty:
        return
    picked = st.selectbox("Mark an answer right or wrong", rows.question.tolist(), index=None, key=f"{key}_pick",
                          placeholder="Choose a question of this table",   # options are plain text already
                          help="Your marks are kept with the dataset and counted on the Judge page.")
    if picked is None:
        return
    row = rows[rows.question == picked].iloc[0]
    st.text(row.answer)
    if "verdict" in rows:                       # the rule's verdict of this answer, when the table has it
        st.caption(f"The rule's verdict: {widgets.plain(row.verdict)}")
    mark(row.answer, list(row.spans), picked, source, key=key)
