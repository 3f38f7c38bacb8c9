"""Compare: two to four setups side by side — a leaderboard with intervals, whether a difference is real, where
each question is lost, and the runs kept for later."""

import pandas as pd
import streamlit as st

from rag_core.evaluation import losses
from rag_core.evaluation.setup import default_setup, from_fields, parse_setup, retrieval_options, setups_from_rows
from ui import active, charts, compare_view, datasets, frame, settings, widgets

frame.ensure(__file__)          # a first request that runs this page without app.py draws the frame here

st.title("Compare setups")
st.caption("A setup is everything that decides an answer: chunker, candidates, k, allowed statuses, rerank, "
           "generator and retrieval options. Define two to four, and see which finds more anchors, whether the "
           "difference is more than chance, and where each golden question is lost.")
wb = active.workbench()
widgets.stop_without_questions(wb, "there is nothing to compare")
for w in settings.init(("ask_candidates", "ask_k", "ask_statuses", "ask_rerank")):
    widgets.warn(w)
chunker = settings.chunker_or_stop()
statuses = list(wb.corpus.statuses)
OPTIONS = list(retrieval_options())


# ---- the setups, starting from the sidebar and the Ask settings
def starting_rows() -> pd.DataFrame:
    return compare_view.starting_rows(wb, chunker, statuses, OPTIONS)


def rows_from_link() -> pd.DataFrame | None:
    """The setups a link names (?setups=, one setup line each), or None with a warning when it names none or a
    line cannot be read."""
    text = st.session_state["compare_setups"]
    try:
        return compare_view.rows_of([parse_setup(line, default_setup(wb)) for line in text.splitlines()],
                                    statuses, OPTIONS) if text.strip() else None
    except ValueError as e:
        widgets.warn(f"The link's setups cannot be read ({e}); starting from the sidebar and Ask settings.")
        return None


if "compare_editor" not in st.session_state:    # a new editor (first visit, or back from another page): the setups as
    rows_now = rows_from_link()                  # last edited in this session or named by the link, else the start
    st.session_state["compare_rows"] = rows_now if rows_now is not None else starting_rows()
st.subheader("1 · The setups")
st.caption("Edit any cell, choosing from the lists; add a row for a fourth setup (it starts as a copy of the first). "
           f"Allowed statuses (this dataset has {widgets.plain(', '.join(statuses))}): every status selected means no "
           "filter. A cell left empty takes the first row's value.")
first = st.session_state["compare_rows"].iloc[0]
rows = st.data_editor(
    st.session_state["compare_rows"], key="compare_editor", num_rows="dynamic", hide_index=True, width="stretch",
    column_config=compare_view.editor_columns(first, statuses, OPTIONS))
if st.button("Start again from the sidebar and Ask settings", key="compare_reset", icon=":material/restart_alt:"):
    settings.set_value("compare_setups", "")
    st.session_state.pop("compare_editor", None)
    st.rerun()

setups, problems = setups_from_rows([r.to_dict() for _, r in rows.iterrows()], default_setup(wb), statuses)
for p in problems:
    widgets.error(p)
if problems:
    st.stop()
names = [s.name for s in setups]

edited = "\n".join(s.to_text() for s in setups)      # kept in the session and the link, unless still the start
start = starting_rows()
start = "\n".join(from_fields(r.to_dict(), default_setup(wb), statuses).to_text() for _, r in start.iterrows())
if (edited if edited != start else "") != st.session_state["compare_setups"]:
    settings.set_value("compare_setups", edited if edited != start else "")

# ---- run them, then what they say
result, cfg = compare_view.run(wb, setups)
compare_view.leaderboard(result)
compare_view.pair(result, names)

# ---- where each question is lost
st.subheader("4 · Where each question is lost")
st.caption("The first stage that loses each golden question, in pipeline order. " +
           " ".join(f"{s}: {losses.MEANING[s]}" for s in ("cut", "filtered", "ranked out", "wrong source",
                                                          "wrong answer", "not confirmed")))
st.altair_chart(charts.losses(result.losses_long), width="stretch")

st.markdown("**Every question, every setup** (rank of the first chunk holding the anchor · the stage where it ends). "
            "Click a column to sort; each link opens Ask on that question with that setup.")
f = st.columns([2, 3])
keep_stages = f[0].multiselect("Show the questions that end at", list(losses.STAGES), key="compare_stage_filter",
                               placeholder="every stage")
needle = f[1].text_input("Questions containing", key="compare_search", placeholder="e.g. cutoff")
compare_view.grid_table(result, setups, statuses, datasets.dataset().key, keep_stages, needle)
compare_view.mark_a_cell(wb, result, setups)
d = st.columns(2)
widgets.download(d[0], "Comparison (JSON)", result.to_json(), "open-book-comparison.json", "application/json",
                 key="compare_dl_json", icon=":material/download:")
widgets.download(d[1], "Comparison (Markdown)", result.to_markdown(), "open-book-comparison.md", "text/markdown",
                 key="compare_dl_md", icon=":material/download:")

compare_view.run_history(wb, result, cfg)
