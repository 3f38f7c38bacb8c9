"""The Compare page's pieces: the setups editor's columns (choices in words), running the setups (a model's only on
its button), the leaderboard, a pair's test, the per-question grid with links, and the runs kept for later.

Left out on purpose: computing a comparison (rag_core.evaluation.compare) and keeping it (ui.active.comparison).
"""
from __future__ import annotations

import itertools
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from rag_core.evaluation.compare import compare_runs
from rag_core.evaluation.pipeline import model_answerer
from rag_core.generation.generator import scripted_answer
from rag_core.generation.llm import LLMError
from rag_core.store import golden_key

from rag_core.evaluation.losses import COLOURS, spans_of
from rag_core.retrieval.chunkers import KINDS
from rag_core.retrieval.engines.registry import ENGINES
from rag_core.retrieval.retrievers import RERANKERS, RETRIEVERS
from ui.widgets import RERANKER_NAMES, RETRIEVER_NAMES
from ui import active, charts, datasets, marks, model_config, saved, widgets

KIND_NAMES = {"fixed": "Fixed window", "structure": "By structure", "sentence": "By sentence"}
GENERATOR_NAMES = {"scripted": "Scripted generator", "model": "The model (Model page)"}
ENGINE_NAMES = {"memory": "In-process index", "postgres": "PostgreSQL (exact)", "postgres-hnsw": "PostgreSQL, approximate (HNSW)"}
CHOICES = {"retriever": (RETRIEVERS, RETRIEVER_NAMES), "reranker": (RERANKERS, RERANKER_NAMES),
           "engine": (ENGINES, ENGINE_NAMES)}


def _default(v):
    """A cell's value as a column default (numpy scalars and NaN made plain)."""
    if isinstance(v, (list, tuple)):
        return list(v)
    if v is None or (isinstance(v, float) and v != v):
        return None
    return v.item() if hasattr(v, "item") else v


def starting_rows(wb, chunker, statuses: list, options: list) -> pd.DataFrame:
    """The Compare page's first setups: as in Ask (the sidebar's chunker, the Ask settings, the engine in use), and
    the same with the filter, then the reranker, switched."""
    now = dict(name="as in Ask", chunker=chunker.kind, size=chunker.size, overlap=chunker.overlap,
               candidates=int(st.session_state["ask_candidates"]), k=int(st.session_state["ask_k"]),
               statuses=list(st.session_state["ask_statuses"]), rerank=bool(st.session_state["ask_rerank"]),
               generator="scripted", **{o: wb.engine if o == "engine" else st.session_state.get(o, "")
                                        for o in options})   # the engine in use: in process while the database fails
    filtered = set(now["statuses"]) != set(statuses)
    other = statuses if filtered else list(wb.trusted)
    return pd.DataFrame([now, {**now, "name": "filter off" if filtered else "filter on", "statuses": other},
                         {**now, "name": f"rerank {'off' if now['rerank'] else 'on'}", "rerank": not now["rerank"]}])


def rows_of(setups, statuses: list, options: list) -> pd.DataFrame:
    """The setups editor's rows for these setups (read back from a link): every status listed when unfiltered."""
    return pd.DataFrame([dict(name=s.name, chunker=s.chunker.kind, size=s.chunker.size, overlap=s.chunker.overlap,
                              candidates=s.candidates, k=s.k,
                              statuses=list(statuses) if s.statuses is None else sorted(s.statuses),
                              rerank=s.rerank, generator=s.generator, **{o: s.options.get(o, "") for o in options})
                         for s in setups])


def editor_columns(first: pd.Series, statuses: list, options: list) -> dict:
    """Column settings of the setups editor: every choice from a list, named in words; a new row starts with the
    first row's values."""
    d = {c: _default(first.get(c)) for c in first.index}
    return {"name": st.column_config.TextColumn(required=True, max_chars=40, default="another setup"),
            "chunker": st.column_config.SelectboxColumn(options=list(KINDS), format_func=KIND_NAMES.get,
                                                        default=d.get("chunker")),
            "size": st.column_config.NumberColumn(min_value=1, max_value=2000, step=1, default=d.get("size")),
            "overlap": st.column_config.NumberColumn(min_value=0, max_value=1999, step=1, default=d.get("overlap"),
                                                     help="Not used by 'By structure'."),
            "candidates": st.column_config.NumberColumn(min_value=1, max_value=500, step=1, default=d.get("candidates")),
            "k": st.column_config.NumberColumn(min_value=1, max_value=50, step=1, default=d.get("k")),
            "statuses": st.column_config.MultiselectColumn("allowed statuses", options=statuses,
                                                           default=d.get("statuses"), format_func=str,
                                                           help="Every status selected: no filter."),
            "rerank": st.column_config.CheckboxColumn(default=bool(d.get("rerank"))),
            "generator": st.column_config.SelectboxColumn(options=["scripted", "model"], format_func=GENERATOR_NAMES.get,
                                                          default=d.get("generator")),
            **{o: st.column_config.SelectboxColumn(options=list(CHOICES[o][0]), format_func=CHOICES[o][1].get,
                                                   default=d.get(o) or None)
               for o in options if o in CHOICES}}


def grid_table(result, setups, statuses: list, dataset_key: str, keep_stages, needle: str):
    """The per-question grid: per setup 'rank · stage' (coloured by stage) and a link opening Ask with that setup."""
    grid = result.grid
    table = pd.DataFrame({"question": grid.question, "doc": grid.doc})
    for s in setups:
        ranks, stages = grid[f"{s.name} rank"], grid[f"{s.name} stage"]
        table[s.name] = [f"{'—' if pd.isna(r) else int(r)} · {st_}" + (" · untrusted above" if o else "")
                         for r, st_, o in zip(ranks, stages, grid[f"{s.name} outranked"])]
        table[f"open {s.name}"] = ["ask?" + urlencode({**s.link_params(q, statuses), "data": dataset_key})
                                   for q in grid.question]
    mask = pd.Series(True, index=table.index)
    if keep_stages:
        mask &= pd.concat([grid[f"{s.name} stage"].isin(keep_stages) for s in setups], axis=1).any(axis=1)
    if needle:
        mask &= table.question.str.contains(needle, case=False, regex=False)
    names = [s.name for s in setups]
    colour = {n: [COLOURS[str(x)] for x in grid[f"{n} stage"]] for n in names}     # row -> its stage's colour

    def style(col):           # by the stage itself, not by reading the cell's text back
        return [f"color: {colour[col.name][i]}; font-weight: 600" for i in col.index] if col.name in colour \
            else [""] * len(col)

    st.dataframe(table[mask].style.apply(style), hide_index=True, width="stretch",
                 column_config={f"open {n}": st.column_config.LinkColumn(f"open {n}", display_text="open in Ask")
                                for n in names})


def mark_a_cell(wb, result, setups) -> None:
    """Under the grid: a setup picked, then one of its questions, its answer as plain text, and Right / Wrong /
    Clear (ui.marks, source "compare:<setup>"), kept with the spans that setup handed the generator."""
    names = [s.name for s in setups if s.name in result.results]
    name = st.selectbox("Mark an answer of a setup right or wrong", names, index=None, key="compare_mark_setup",
                        placeholder="Choose a setup",
                        help="Then a question: its answer under that setup, to mark. Marks are counted on Judge.")
    if name is None:
        return
    done = result.results[name]
    spans = spans_of(wb, next(s for s in setups if s.name == name))[:len(done)]
    rows = pd.DataFrame({"question": [r.question for r in done], "answer": [r.answer for r in done], "spans": spans,
                         "verdict": [f"{r.outcome}. {r.reason}" for r in done]})
    marks.mark_a_row(rows, f"compare:{name}", key=f"compare_{names.index(name)}")


def run(wb, setups):
    """(the comparison, the model config when a setup uses the model, else None); stops the page while a model run
    waits for its button, or with the reason a run failed."""
    cfg = model_config.llm_config()
    uses_model = any(s.generator == "model" for s in setups)
    if uses_model and cfg is None:
        st.info("A setup uses the model, and no model is set up: set one up on the Model page, or set its generator "
                "to scripted.")
        st.stop()
    run_key = (active.settings_key(wb), tuple(setups), cfg.model if uses_model else "scripted")
    if uses_model and not st.button("Run the golden set through the model", type="primary", key="compare_run",
                                    icon=":material/play_arrow:") and st.session_state.get("compare_ran") != run_key:
        st.info(f"{len(wb.golden_check.valid)} golden questions go to {widgets.plain(cfg.model)} for each model setup: "
                "press Run.")
        st.stop()
    bar = st.progress(0.0, text="Starting…")
    step = lambda i, total, what: bar.progress(i / max(total, 1), text=widgets.plain(what))    # noqa: E731 (a setup's name)
    try:
        result = active.comparison(tuple(setups),
                                 lambda s: model_answerer(cfg) if s.generator == "model" else scripted_answer,
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
    return result, cfg if uses_model else None


def leaderboard(result) -> None:
    """The ceiling at each k with its interval per setup, and the answers' outcomes beside it."""
    st.subheader("2 · Leaderboard")
    st.caption("Ceiling at k (recall@k): the anchor is in the first k chunks handed over, after each setup's filter and "
               "rerank. Bars are 95 % intervals (Wilson): where two overlap, the golden set may be too small to rank "
               "them. Answered (green): the answer states the golden answer key and contradicts none of it; wrong "
               "answer (red): it contradicts the key; not confirmed (grey): grounded on the right document, but it "
               "neither states nor contradicts the key.")
    left, right = st.columns([3, 2])
    left.altair_chart(charts.leaderboard(result.recall), width="stretch")
    board = result.leaderboard
    shown = board[["setup"] + [c for c in board.columns if c.startswith("recall_at_")]
                  + ["answered", "wrong_answer", "not_confirmed", "wrong_source", "refused", "abstained", "chunks",
                     "mean_seconds"]]
    right.dataframe(widgets.readable(shown), hide_index=True, width="stretch",
                    column_config={c: st.column_config.NumberColumn(format="%.3f")
                                   for c in widgets.readable(shown).columns
                                   if c.startswith("recall@") or c == "mean (seconds)"})


def pair(result, names) -> None:
    """Two setups chosen, k chosen: the McNemar sentence, the power estimate, the questions only one finds."""
    st.subheader("3 · Is the difference real?")
    st.caption("For two setups, the questions one finds and the other does not. The exact McNemar test asks whether "
               "that split could be chance.")
    c = st.columns([2, 2, 1])
    a = c[0].selectbox("Setup", names, index=0, key="compare_a")          # a selectbox shows its options as text:
    b = c[1].selectbox("against", [n for n in names if n != a], index=0, key="compare_b")   # no escaping
    k = c[2].radio("k", list(result.ks), index=0, key="compare_k", horizontal=True)
    pair = result.pair(a, b, k)
    (widgets.success if pair["p_value"] < 0.05 else widgets.info)(pair["sentence"])
    st.caption(widgets.plain(pair["power_sentence"]))
    discordant = result.discordant(a, b, k)
    if not discordant.empty:
        st.dataframe(widgets.readable(discordant), hide_index=True, width="stretch")


def run_history(wb, result, cfg) -> None:
    """Keep this comparison; the runs kept on this golden set (listed only where their dataset is open), side by
    side; delete one."""
    uses_model = cfg is not None
    st.subheader("5 · Runs kept for later")
    holding = datasets.dataset().key     # runs on another session's upload are never listed here (see rag_core.store)
    try:
        store = saved.store()
        if store.read_only:                # what was saved is listed; nothing can be kept or deleted, and it says why
            widgets.warn(store.describe())
        else:
            st.caption(widgets.plain(store.describe()))
        if store.enabled:
            st.caption("Runs on the built-in datasets are shared by every session of this dashboard; runs on an upload "
                       "are listed only where that upload is open (the session that made them, or a link to it).")
        golden = golden_key(wb.golden_check.valid)
        if store.enabled and not store.read_only and st.button("Keep this comparison", key="compare_save",
                                                                icon=":material/save:"):
            ds = datasets.dataset()
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
                              format_func=lambda i: next(f"#{r.id} {r.name} ({r.model}, {r.created_at})"
                                                         for r in runs if r.id == i))     # as text, not Markdown
        if len(pick) >= 2:
            try:
                old = compare_runs([store.load_run(i, holding=holding) for i in pick], ks=result.ks)
                st.altair_chart(charts.leaderboard(old.recall), width="stretch")
                k = st.session_state.get("compare_k")           # the k chosen in section 3, else the first
                k = k if k in old.ks else old.ks[0]
                st.caption(f"Each pair of runs at k = {k} (the k chosen in section 3).")
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
