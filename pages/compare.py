"""Compare: two to four setups side by side — a leaderboard with intervals, whether a difference is real, where
each question is lost, and the runs kept for later."""
import itertools
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from rag_core.evaluation import losses
from rag_core.evaluation.compare import compare_runs
from rag_core.evaluation.pipeline import model_answerer
from rag_core.evaluation.setup import Setup, retrieval_options
from rag_core.generation.generator import scripted_answer
from rag_core.generation.llm import LLMError
from rag_core.retrieval.chunkers import ChunkerConfig
from rag_core.retrieval.engines.registry import ENGINES
from rag_core.retrieval.retrievers import RERANKERS, RETRIEVERS
from rag_core.store import golden_key
from ui import charts, data, frame, model_config, settings, widgets

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
OPTIONS = [o for o in (retrieval_options() if retrieval_options() != "any" else ())]
CHOICES = {"retriever": RETRIEVERS, "reranker": RERANKERS, "engine": ENGINES}


# ---- the setups, starting from the sidebar and the Ask settings
def starting_rows() -> pd.DataFrame:
    now = dict(name="as in Ask", chunker=chunker.kind, size=chunker.size, overlap=chunker.overlap,
               candidates=int(st.session_state["ask_candidates"]), k=int(st.session_state["ask_k"]),
               statuses="|".join(st.session_state["ask_statuses"]) or "none", rerank=bool(st.session_state["ask_rerank"]),
               generator="scripted", **{o: wb.engine if o == "engine" else st.session_state.get(o, "")
                                        for o in OPTIONS})   # the engine in use: in process while the database fails
    every = "|".join(sorted(statuses))
    other = "|".join(wb.trusted) if now["statuses"] in ("all", every) else "all"
    return pd.DataFrame([now, {**now, "name": "filter off" if other == "all" else "filter on", "statuses": other},
                         {**now, "name": f"rerank {'off' if now['rerank'] else 'on'}", "rerank": not now["rerank"]}])


if "compare_rows" not in st.session_state:
    st.session_state["compare_rows"] = starting_rows()
st.subheader("1 · The setups")
st.caption("Edit any cell; add a row for a fourth setup. Statuses: 'all', 'none', or names joined by | "
           f"(this dataset has {widgets.plain(', '.join(statuses))}). Retrieval options left empty take their default.")
rows = st.data_editor(
    st.session_state["compare_rows"], key="compare_editor", num_rows="dynamic", hide_index=True, width="stretch",
    column_config={"name": st.column_config.TextColumn(required=True, max_chars=40),
                   "chunker": st.column_config.SelectboxColumn(options=["fixed", "structure", "sentence"], required=True),
                   "size": st.column_config.NumberColumn(min_value=1, max_value=2000, step=1, required=True),
                   "overlap": st.column_config.NumberColumn(min_value=0, max_value=1999, step=1, required=True),
                   "candidates": st.column_config.NumberColumn(min_value=1, max_value=500, step=1, required=True),
                   "k": st.column_config.NumberColumn(min_value=1, max_value=50, step=1, required=True),
                   "statuses": st.column_config.TextColumn(required=True),
                   "rerank": st.column_config.CheckboxColumn(),
                   "generator": st.column_config.SelectboxColumn(options=["scripted", "model"], required=True),
                   **{o: st.column_config.SelectboxColumn(options=list(CHOICES[o])) for o in OPTIONS if o in CHOICES}})
if st.button("Start again from the sidebar and Ask settings", key="compare_reset", icon=":material/restart_alt:"):
    st.session_state["compare_rows"] = starting_rows()
    st.session_state.pop("compare_editor", None)
    st.rerun()


def as_setup(r) -> Setup:
    """One editor row as a Setup; ValueError saying what to fix."""
    text = str(r["statuses"]).strip().lower()
    allowed = None if text == "all" else frozenset() if text == "none" else \
        frozenset(s.strip() for s in str(r["statuses"]).split("|") if s.strip())
    unknown = sorted((allowed or set()) - set(statuses))
    if unknown:
        raise ValueError(f"status {', '.join(unknown)} is not in this dataset (it has {', '.join(statuses)}).")
    cfg = ChunkerConfig(r["chunker"], int(r["size"]), 0 if r["chunker"] == "structure" else int(r["overlap"]))
    options = {o: str(r[o]).strip() for o in OPTIONS if str(r.get(o, "") or "").strip()}
    return Setup(str(r["name"]), cfg, int(r["candidates"]), int(r["k"]), allowed, bool(r["rerank"]),
                 str(r["generator"]), tuple(options.items()))


setups, problems = [], []
for i, r in rows.iterrows():
    try:
        setups.append(as_setup(r))
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
st.caption("Found at k: the anchor is in the first k chunks handed over (the ceiling). Bars are 95 % intervals "
           "(Wilson): where two overlap, the golden set may be too small to rank them.")
left, right = st.columns([3, 2])
left.altair_chart(charts.leaderboard(result.recall), width="stretch")
board = result.leaderboard
shown = board[["setup"] + [c for c in board.columns if c.startswith("recall_at_")]
              + ["answered", "wrong_source", "refused", "abstained", "chunks", "mean_seconds"]]
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
(st.success if pair["p_value"] < 0.05 else st.info)(widgets.plain(pair["sentence"]))
st.caption(widgets.plain(pair["power_sentence"]))
discordant = result.discordant(a, b, k)
if not discordant.empty:
    st.dataframe(widgets.readable(discordant), hide_index=True, width="stretch")

# ---- where each question is lost
st.subheader("4 · Where each question is lost")
st.caption("The first stage that loses each golden question, in pipeline order. " +
           " ".join(f"{s}: {losses.MEANING[s]}" for s in ("cut", "filtered", "ranked out", "wrong source")))
st.altair_chart(charts.losses(result.losses_long), width="stretch")

st.markdown("**Every question, every setup** (rank of the first chunk holding the anchor · the stage where it ends). "
            "Click a column to sort; each link opens Ask on that question with that setup.")
f = st.columns([2, 3])
keep_stages = f[0].multiselect("Show the questions that end at", list(losses.STAGES), key="compare_stage_filter",
                               placeholder="every stage")
needle = f[1].text_input("Questions containing", key="compare_search", placeholder="e.g. cutoff")
grid = result.grid
table = pd.DataFrame({"question": grid.question, "doc": grid.doc})
for s in setups:
    ranks, stages = grid[f"{s.name} rank"], grid[f"{s.name} stage"]
    table[s.name] = [f"{'—' if pd.isna(r) else int(r)} · {st_}" + (" · untrusted above" if o else "")
                     for r, st_, o in zip(ranks, stages, grid[f"{s.name} outranked"])]
    table[f"open {s.name}"] = ["ask?" + urlencode({**s.link_params(q, statuses), "data": data.dataset().key})
                               for q in grid.question]
mask = pd.Series(True, index=table.index)
if keep_stages:
    mask &= pd.concat([grid[f"{s.name} stage"].isin(keep_stages) for s in setups], axis=1).any(axis=1)
if needle:
    mask &= table.question.str.contains(needle, case=False, regex=False)


def stage_colour(v):
    stage = str(v).split(" · ")[1] if " · " in str(v) else ""
    return f"color: {losses.COLOURS[stage]}; font-weight: 600" if stage in losses.COLOURS else ""


st.dataframe(table[mask].style.map(stage_colour, subset=names), hide_index=True, width="stretch",
             column_config={f"open {n}": st.column_config.LinkColumn(f"open {n}", display_text="open in Ask")
                            for n in names})
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
