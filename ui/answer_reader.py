"""One answer of a golden-set run, read whole: a question chosen from the run, its answer (wrapped, as plain text),
its outcome as a badge in its colour and the reason.

A table of answers is a canvas of columns: on a phone (482 px) the answer column lies off screen, and a long answer
is cut in its cell. This reader shows one answer at the width of the screen.

Left out on purpose: running or judging anything (the run's rows are given), and every answer at once (the table
above it has them).
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

from rag_core.evaluation.judgement import TONES
from ui.widgets import plain


def render(rows: pd.DataFrame, key: str) -> None:
    """rows: question, answer, outcome, reason (one run). key: the question picker's widget key."""
    if rows.empty:
        return
    picked = st.selectbox("Read one answer", range(len(rows)), key=key,
                          format_func=lambda i: f"{i + 1}. {rows.question.iloc[i]}",     # options are plain text
                          help="The answer to this question in full, with its outcome.")
    row = rows.iloc[picked if picked is not None and picked < len(rows) else 0]
    st.code(str(row.answer), language=None, wrap_lines=True)
    st.badge(str(row.outcome), color=TONES.get(str(row.outcome), "gray"))
    st.markdown(plain(str(row.reason)))
