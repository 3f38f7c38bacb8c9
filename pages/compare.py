"""Compare: two to four setups side by side — a leaderboard with intervals, whether a difference is real, where
each question is lost, and the runs kept for later."""
import itertools

import pandas as pd
import streamlit as st

from rag_core.evaluation import losses
from rag_core.evaluation.compare import compare_runs
from rag_core.evaluation.pipeline import model_answerer
from rag_core.evaluation.setup import default_setup, from_fields, retrieval_options
from rag_core.generation.generator import scripted_answer
from rag_core.generation.llm import LLMError
from rag_core.store import golden_key
from ui import charts, compare_view, data, frame, model_config, settings, widgets

frame.ensure(__file__)          # a first request that runs this page without app.py draws the frame here

st.title("Compare setups")
st.caption("A setup is everything that decides an answer: chunker, candidates, k, allowed statuses, rerank, "
           "generator and retrieval options. Define two to four, and see which finds more anchors, whether the "
           "difference is more than chance, and where each golden question is lost.")
wb = data.workbench()
widgets.stop_without_questions(wb, "there is nothing to compare")
for w in settings.init(("ask_candidates", "ask_k", "ask_statuses", "ask_rerank")):
    widgets.warn(w)
chunker = settings.chunker_or_stop()
statuses = list(wb.corpus.statuses)
OPTIONS = list(retrieval_options())


# ---- the setups, starting from the sidebar and the Ask settings
def starting_rows() -> pd.DataFrame:
    now = dict(name="as in Ask", chunker=chunker.kind, size=chunker.size, overlap=chunker.overlap,
               candidates=int(st.session_state["ask_candidates"]), k=int(st.session_state["ask_k"]),
               statuses=list(st.session_state["ask_statuses"]), rerank=bool(st.session_state["ask_rerank"]),
               generator="scripted", **{o: wb.engine if o == "engine" else st.session_state.get(o, "")
                                        for o in OPTIONS})   # the engine in use: in process while the database fails
    filtered = set(now["statuses"]) != set(statuses)
    other = statuses if filtered else list(wb.trusted)
    return pd.DataFrame([now, {**now, "name": "filter off" if filtered else "filter on", "statuses": other},
                         {**now, "name": f"rerank {'off' if now['rerank'] else 'on'}", "rerank": not now["rerank"]}])


if "compare_rows" not in st.session_state:
    st.session_state["compare_rows"] = starting_rows()
st.subheader("1 · The setups")
st.caption("Edit any cell, choosing from the lists; add a row for a fourth setup (it starts as a copy of the first). "
           f"Allowed statuses (this dataset has {widgets.plain(', '.join(statuses))}): every status selected means no "
           "filter. A cell left empty takes the first row's value.")
first = st.session_state["compare_rows"].iloc[0]
rows = st.data_editor(
    st.session_state["compare_rows"], key="compare_editor", num_rows="dynamic", hide_index=True, width="stretch",
    column_config=compare_view.editor_columns(first, statuses, OPTIONS))
if st.button("Start again from the sidebar and Ask settings", key="compare_reset", icon=":material/restart_alt:"):
    st.session_state["compare_rows"] = starting_rows()
    st.session_state.pop("compare_editor", None)
    st.rerun()

setups, problems = [], []
base = from_fields(first.to_dict(), default_setup(wb), statuses) if len(rows) else None
for i, r in rows.iterrows():
    try:
        setups.append(from_fields(r.to_dict(), base, statuses))
    except (ValueError, TypeError, KeyError) as e:
        problems.append(f"Row {i + 1} ({r.get('name', '')}): {e}")
for p in problems:
    widgets.error(p)
names = [s.name for s in setups]
if problems or len(setups) < 2 or len(setups) > 4 or len(set(names)) < len(names):
    if not problems:
        st.info("Keep two to four setups, each with its own name." if len(set(names)) == len(names)
                else "Two setups share a name: give each its own.")
    st.stop()

# ---- run them
cfg = model_config.llm_config()
uses_model = any(s.generator == "model" for s in setups)
if uses_model and cfg is None:
    st.info("A setup uses the model, and no model is set up: open Model server (optional) at the bottom of the "
            "sidebar, or set its generator to scripted.")
    st.stop()
run_key = (data.settings_key(wb), tuple(setups), cfg.model if uses_model else "scripted")
if uses_model and not st.button("Run the golden set through the model", type="primary", key="compare_run",
                                icon=":material/play_arrow:") and st.session_state.get("compare_ran") != run_key:
    st.info(f"{len(wb.check.valid)} golden questions go to {widgets.plain(cfg.model)} for each model setup: press Run.")
    st.stop()
bar = st.progress(0.0, text="Starting…")
step = lambda i, total, what: bar.progress(i / max(total, 1), text=widgets.plain(what))    # noqa: E731 (a setup's name)
try:
    result = data.comparison(tuple(setups), lambda s: model_answerer(cfg) if s.generator == "model" else scripted_answer,
                             cfg.model if uses_model else "scripted", on_progress=step)
except LLMError as e:
    bar.empty()
    widgets.error(f"The run stopped: {e}")
    st.stop()
except ValueError as e:
    bar.empty()
    widgets.error(str(e))
    st.stop()
bar.empty()
st.session_state["compare_ran"] = run_key          # shown again without pressing, until a setup changes

# ---- the leaderboard
st.subheader("2 · Leaderboard")
st.caption("Ceiling at k (recall@k): the anchor is in the first k chunks handed over, after each setup's filter and "
           "rerank. Bars are 95 % intervals (Wilson): where two overlap, the golden set may be too small to rank them. "
           "Answered: the answer states the golden anchor; misses the answer: grounded on the right document, "
           "anchor not stated.")
left, right = st.columns([3, 2])
left.altair_chart(charts.leaderboard(result.recall), width="stretch")
board = result.leaderboard
shown = board[["setup"] + [c for c in board.columns if c.startswith("recall_at_")]
              + ["answered", "misses_the_answer", "wrong_source", "refused", "abstained", "chunks", "mean_seconds"]]
right.dataframe(widgets.readable(shown), hide_index=True, width="stretch",
                column_config={c: st.column_config.NumberColumn(format="%.3f")
                               for c in widgets.readable(shown).columns if c.startswith("recall@") or c == "mean (seconds)"})

# ---- is the difference real?
st.subheader("3 · Is the difference real?")
st.caption("For two setups, the questions one finds and the other does not. The exact McNemar test asks whether "
           "that split could be chance.")
c = st.columns([2, 2, 1])
a = c[0].selectbox("Setup", names, index=0, key="compare_a", format_func=widgets.plain)
b = c[1].selectbox("against", [n for n in names if n != a], index=0, key="compare_b", format_func=widgets.plain)
k = c[2].radio("k", list(result.ks), index=0, key="compare_k", horizontal=True)
pair = result.pair(a, b, k)
(widgets.success if pair["p_value"] < 0.05 else widgets.info)(pair["sentence"])
st.caption(widgets.plain(pair["power_sentence"]))
discordant = result.discordant(a, b, k)
if not discordant.empty:
    st.dataframe(widgets.readable(discordant), hide_index=True, width="stretch")

# ---- where each question is lost
st.subheader("4 · Where each question is lost")
st.caption("The first stage that loses each golden question, in pipeline order. " +
           " ".join(f"{s}: {losses.MEANING[s]}" for s in ("cut", "filtered", "ranked out", "wrong source",
                                                          "misses the answer")))
st.altair_chart(charts.losses(result.losses_long), width="stretch")

st.markdown("**Every question, every setup** (rank of the first chunk holding the anchor · the stage where it ends). "
            "Click a column to sort; each link opens Ask on that question with that setup.")
f = st.columns([2, 3])
keep_stages = f[0].multiselect("Show the questions that end at", list(losses.STAGES), key="compare_stage_filter",
                               placeholder="every stage")
needle = f[1].text_input("Questions containing", key="compare_search", placeholder="e.g. cutoff")
compare_view.grid_table(result, setups, statuses, data.dataset().key, keep_stages, needle)
d = st.columns(2)
d[0].download_button("Comparison (JSON)", result.to_json(), "open-book-comparison.json", "application/json",
                     key="compare_dl_json", icon=":material/download:")
d[1].download_button("Comparison (Markdown)", result.to_markdown(), "open-book-comparison.md", "text/markdown",
                     key="compare_dl_md", icon=":material/download:")

# ---- runs kept for later
st.subheader("5 · Runs kept for later")
holding = data.dataset().key           # runs on another session's upload are never listed here (see rag_core.store)
try:
    store = data.store()
    if store.read_only:                # what was saved is listed; nothing can be kept or deleted, and it says why
        widgets.warn(store.describe())
    else:
        st.caption(widgets.plain(store.describe()))
    if store.enabled:
        st.caption("Runs on the built-in datasets are shared by every session of this dashboard; runs on an upload "
                   "are listed only where that upload is open (the session that made them, or a link to it).")
    golden = golden_key(wb.check.valid)
    if store.enabled and not store.read_only and st.button("Keep this comparison", key="compare_save",
                                                            icon=":material/save:"):
        ds = data.dataset()
        if ds.uploaded:
            store.save_dataset(ds.name, ds.documents, ds.golden)
        store.save_comparison(result, ds.key, ds.name, golden, model=cfg.model if uses_model else "scripted")
        st.toast("Kept.")
    runs = store.list_runs(golden=golden, holding=holding) if store.enabled else []
except ValueError as e:
    widgets.error(str(e))
    runs = []
if runs:
    history = pd.DataFrame([r._asdict() for r in runs])[["id", "created_at", "name", "model", "questions", "found",
                                                          "answered", "dataset_name", "setup"]]
    st.dataframe(widgets.readable(history), hide_index=True, width="stretch")
    pick = st.multiselect("Put runs side by side", [r.id for r in runs], max_selections=4, key="compare_runs_pick",
                          format_func=lambda i: widgets.plain(next(f"#{r.id} {r.name} ({r.model}, {r.created_at})"
                                                                   for r in runs if r.id == i)))
    if len(pick) >= 2:
        try:
            old = compare_runs([store.load_run(i, holding=holding) for i in pick], ks=result.ks)
            st.altair_chart(charts.leaderboard(old.recall), width="stretch")
            for p in (old.pair(x, y, k) for x, y in itertools.combinations(old.names, 2)):
                st.markdown(f"- {widgets.plain(p['sentence'])} {widgets.plain(p['power_sentence'])}")
            st.dataframe(old.grid, hide_index=True, width="stretch")
        except ValueError as e:
            widgets.error(str(e))
    if not store.read_only:
        gone = st.selectbox("Delete a run", [None] + [r.id for r in runs], key="compare_delete_pick",
                            format_func=lambda i: "—" if i is None else f"#{i}")
        if gone is not None and st.button(f"Delete run #{gone}", key="compare_delete", icon=":material/delete:"):
            try:
                store.delete_run(gone, holding=holding)
            except ValueError as e:
                widgets.error(str(e))
                st.stop()
            st.rerun()
