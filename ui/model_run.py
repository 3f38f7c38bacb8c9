"""The Model page's run of the golden set through the model: a progress bar, the answers kept as they come (so a
cancelled run leaves them behind, shown on the next run of the page), the run kept per settings in the session.

Left out on purpose: the settings and the results' tables and charts (the page draws them).
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

from rag_core.evaluation import outcomes
from rag_core.evaluation.pipeline import model_answerer
from rag_core.generation.llm import LLMError
from ui import model_config, widgets


def left_by_a_cancelled_run(show: bool, total: int) -> None:
    """What an interrupted run received, said once (and forgotten): how many answers of `total`, and each."""
    progress = st.session_state.pop("model_progress", None)      # left behind only by an interrupted run
    if not progress or not show:
        return
    got = sum(len(rows) for rows in progress.values())
    st.warning(f"The run was cancelled after {got} of {total} answers. Press Run to start again.")
    for label, rows in progress.items():
        if rows:
            st.markdown(f"Answers received ({widgets.plain(label)}):")
            st.dataframe(pd.DataFrame(rows)[["question", "outcome", "reason"]], hide_index=True, width="stretch")


def run(wb, chunker, cfg, k: int, candidates: int, order: str, run_key) -> None:
    """Every golden question through the model, with and without the status filter, each answer judged strictly;
    kept under `run_key` when it completes, a model error said as a sentence."""
    bar = st.progress(0.0, text="Starting…")
    step = lambda i, total, what: bar.progress(i / total, text=widgets.plain(what))   # noqa: E731 (a status's name)
    progress = st.session_state["model_progress"] = {}          # filled as answers come: kept if cancelled
    try:
        outcomes.outcomes_by_filter(wb, chunker, k, candidates, model_answerer(cfg), order, mode="strict",
                                    done=progress, on_progress=step, keep_spans=True)
        model_config.model_runs()[run_key] = {label: pd.DataFrame(rows) for label, rows in progress.items()}
    except LLMError as e:
        widgets.error(f"The run stopped: {e}")
    st.session_state.pop("model_progress", None)
    bar.empty()
