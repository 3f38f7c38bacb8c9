"""The article's trap 3 on the Your data page, for the active dataset: each retriever's ceiling at k for the golden
set's questions (solid) and, where the dataset has them, the same anchors asked as a user would (dashed).

Only the bundled golden set has each question also phrased as a user would; an upload's golden set has its own
questions only, so its chart draws the solid lines and the caption says why the dashed ones are missing.

Left out on purpose: the computation (rag_core.evaluation.tables.trap3) and its cache (ui.cache).
"""
from __future__ import annotations

import streamlit as st

from ui import active, captions, charts, datasets, widgets


def render() -> None:
    st.subheader("The golden set's questions against questions phrased as a user would")
    side = active.trap3_table(active=True)
    bundled = datasets.dataset().key == datasets.BUNDLED.key
    st.caption(("This dataset, " + widgets.plain(datasets.dataset().name) + ": its golden set's questions only (solid "
                "lines); questions phrased as a user would exist for the bundled corpus alone. " if not bundled else "")
               + "Same anchors, trusted statuses only, for every retriever. The article's questions reuse the "
               "library's words (function names); a lexical encoder loves that. Rephrased as a user would ask, the "
               "ceiling drops: that is trap 3. The article says a trained encoder changes the numbers, not the shape.")
    if side.empty or side.article_questions.isna().all():
        st.info("This golden set has no valid question: there is nothing to measure here.")
        return
    st.altair_chart(charts.trap3(side), width="stretch")
    st.markdown(captions.trap3(side))
    st.dataframe(widgets.readable(side), hide_index=True, width="stretch")
