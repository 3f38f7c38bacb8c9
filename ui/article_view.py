"""The article's words beside ours, on the Ablations page: under each table that keeps the article's labels, what
those labels mean and the outcome a user reads for the same answers (rag_core.evaluation.article_words).

Left out on purpose: changing the article's tables; they keep its labels value for value.
"""
from __future__ import annotations

import streamlit as st

from rag_core.evaluation.article_words import ARTICLE_MEANING, verifier_cases_judged
from rag_core.evaluation.judgement import MEANING
from rag_core.evaluation.vocabulary import GOLDEN_OUTCOMES, column
from ui import active, cache, widgets


def verifier_cases() -> None:
    """The article's six answers again: its verdict and what that word means, beside our outcome and why."""
    st.markdown("**The same six answers, as this dashboard judges them.** The article's verdict is its own word: "
                "*anchored* means every number and name is found in the cited span, not that the answer is right "
                "(`0.9 [S2]` quotes the draft note faithfully and is wrong). Our outcome adds where the span comes "
                "from and the golden answer key (0.6).")
    st.dataframe(verifier_cases_judged(), hide_index=True, width="stretch")


def pipeline() -> None:
    """Our outcomes for the pipeline's answers, beside the article's labels above them."""
    wb = active.workbench()
    ours = cache.judged_pipeline(active.settings_key(wb), wb)
    st.markdown("**The article's labels, and ours on the same answers.** "
                + " ".join(f"*{widgets.plain(label)}*: {widgets.plain(meaning)}." for label, meaning
                           in ARTICLE_MEANING.items() if "/" in label)
                + " Ours, with the strict checker and the golden answer keys: "
                + "; ".join(f"*{o}*: {widgets.plain(MEANING[o])}" for o in GOLDEN_OUTCOMES[:3]))
    shown = ours[["filter", *[column(o) for o in GOLDEN_OUTCOMES]]]
    st.dataframe(widgets.readable(shown), hide_index=True, width="stretch")
