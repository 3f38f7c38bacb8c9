"""One Altair chart and one caption per article table. Pure functions of the DataFrame: no Streamlit.

Every caption is written from the data it describes: the numbers in it are read from the table,
so they change when the corpus or the settings change.

Left out on purpose: styling beyond the defaults, interactivity beyond tooltips.
"""
from __future__ import annotations

import altair as alt
import pandas as pd

OUTCOME_COLOURS = alt.Scale(domain=["anchored / right source", "anchored / WRONG source", "refused", "abstained"],
                            range=["#1b7f3b", "#b3261e", "#b85c00", "#888888"])


def _pct(x: float) -> str:
    return "n/a" if pd.isna(x) else f"{x:.3f}"


def ceiling(df: pd.DataFrame):
    chart = alt.Chart(df).mark_line(point=True).encode(
        x=alt.X("k:O", title="k (chunks handed over)"), y=alt.Y("ceiling:Q", scale=alt.Scale(domain=[0, 1]), title="ceiling"),
        tooltip=["k", alt.Tooltip("ceiling:Q", format=".3f")])
    first, third = df.ceiling.iloc[0], df.set_index("k").ceiling.get(3, df.ceiling.iloc[-1])
    caption = (f"At k = {df.k.iloc[0]} the ceiling is {_pct(first)}; at k = 3 it is {_pct(third)} and at k = "
               f"{df.k.iloc[-1]} {_pct(df.ceiling.iloc[-1])}. "
               + ("The gap between narrow and wide k says the retriever finds the answer but ranks it low: "
                  "work on ordering (filter, rerank), not on the prompt." if third - first >= 0.2 else
                  "Narrow and wide k are close: ordering is not the main problem."))
    return chart, caption


def strategies(df: pd.DataFrame):
    long = df.melt(id_vars=["strategy", "chunks"], value_vars=["recall_at_1", "recall_at_3"], var_name="recall", value_name="value")
    chart = alt.Chart(long).mark_bar().encode(
        y=alt.Y("strategy:N", title=None, sort=list(df.strategy), axis=alt.Axis(labelLimit=320)), x=alt.X("value:Q", scale=alt.Scale(domain=[0, 1]), title="recall"),
        yOffset="recall:N", color=alt.Color("recall:N", title=None),
        tooltip=["strategy", "chunks", "recall", alt.Tooltip("value:Q", format=".3f")])
    best = df.loc[df.recall_at_3.idxmax()]
    worst = df.loc[df.recall_at_3.idxmin()]
    caption = (f"Best recall@3: {best.strategy} ({_pct(best.recall_at_3)}, {best.chunks} chunks). Lowest: "
               f"{worst.strategy} ({_pct(worst.recall_at_3)}, {worst.chunks} chunks). A difference of one "
               f"question is 1/{df.attrs.get('questions', '?')} of the scale: do not trust rankings that differ by less.")
    return chart, caption


def size_overlap(df: pd.DataFrame):
    long = df.assign(overlap=df.ovl.map(lambda o: "with 20 % overlap" if o else "no overlap")).melt(
        id_vars=["size", "overlap", "chunks"], value_vars=["rec_at_1", "rec_at_3", "rec_at_5", "rec_at_50"],
        var_name="recall", value_name="value")
    chart = alt.Chart(long).mark_line(point=True).encode(
        x=alt.X("size:O", title="chunk size (words)"), y=alt.Y("value:Q", scale=alt.Scale(domain=[0, 1]), title="recall"),
        color=alt.Color("recall:N", title=None), strokeDash=alt.StrokeDash("overlap:N", title=None),
        tooltip=["size", "overlap", "chunks", "recall", alt.Tooltip("value:Q", format=".3f")])
    small = df[df["size"] == df["size"].min()]
    caption = (f"At {small['size'].iloc[0]} words the recall@50 stops at {_pct(small.rec_at_50.max())}: anchors broken by "
               f"boundaries exist in no chunk. At {df['size'].max()} words it is {_pct(df[df['size'] == df['size'].max()].rec_at_50.max())}. "
               f"Chunks range from {df.chunks.min()} to {df.chunks.max()}.")
    return chart, caption


def cut_anchors(df: pd.DataFrame, summary: pd.DataFrame):
    long = df.melt(id_vars=["size"], value_vars=["cut_without_ovl", "cut_with_20_percent"], var_name="overlap", value_name="cut")
    long["overlap"] = long.overlap.map({"cut_without_ovl": "no overlap", "cut_with_20_percent": "20 % overlap"})
    chart = alt.Chart(long).mark_bar().encode(
        x=alt.X("size:O", title="window size (words)"), y=alt.Y("cut:Q", title="anchors cut"),
        xOffset="overlap:N", color=alt.Color("overlap:N", title=None), tooltip=["size", "overlap", "cut"])
    s = summary.iloc[0]
    caption = (f"Out of {s.trials} trials, {s.cut_without_overlap} anchors are cut without overlap and "
               f"{s.cut_with_overlap} with 20 %; the overlap costs {s.overlap_cost_percent:.1f}% more chunks "
               f"({s.chunks_with_overlap} against {s.chunks_without_overlap}).")
    if s.example_size is not None and not pd.isna(s.example_size):
        caption += (f" Example at {int(s.example_size)} words, {s.example_doc}: “…{s.example_tail}” | “{s.example_head}…”.")
    return chart, caption


def filter_effect(df: pd.DataFrame):
    long = df.melt(id_vars=["filter"], value_vars=["recall_at_1", "recall_at_3"], var_name="recall", value_name="value")
    chart = alt.Chart(long).mark_bar().encode(
        x=alt.X("value:Q", scale=alt.Scale(domain=[0, 1]), title="recall"), y=alt.Y("filter:N", title=None),
        yOffset="recall:N", color=alt.Color("recall:N", title=None),
        tooltip=["filter", "recall", alt.Tooltip("value:Q", format=".3f")])
    off, on = df.iloc[0], df.iloc[1]
    n = df.attrs.get("questions", "?")
    caption = (f"The filter excludes {on.chunks_excluded} of {on.chunks} chunks. Questions with a contradicting chunk "
               f"in the top 3: {off.contradicted_top_3}/{n} without it, {on.contradicted_top_3}/{n} with it; "
               f"recall@1 goes from {_pct(off.recall_at_1)} to {_pct(on.recall_at_1)}.")
    return chart, caption


def rerank_effect(df: pd.DataFrame):
    rows = []
    for r in df.itertuples():
        for k in (1, 3):
            for route, col in (("bi-encoder", f"rec_at_{k}_bi"), ("reranked", f"rec_at_{k}_rerank")):
                rows.append({"setting": f"{r.chunk} · recall@{k}", "route": route, "value": getattr(r, col)})
    long = pd.DataFrame(rows)
    chart = alt.Chart(long).mark_bar().encode(
        x=alt.X("setting:N", title="chunk size / overlap · measure", sort=list(dict.fromkeys(long.setting)),
                axis=alt.Axis(labelAngle=-30, labelLimit=200)),
        xOffset="route:N", y=alt.Y("value:Q", scale=alt.Scale(domain=[0, 1]), title="recall"),
        color=alt.Color("route:N", title=None, legend=alt.Legend(orient="bottom")),
        tooltip=["setting", "route", alt.Tooltip("value:Q", format=".3f")])
    small = df.iloc[0]
    caption = (f"At {small.chunk} reranking moves recall@1 from {_pct(small.rec_at_1_bi)} to {_pct(small.rec_at_1_rerank)}; "
               f"the candidates' recall@50 there is {_pct(small.rec_at_50)}, the most any reranking can reach. "
               + " ".join(f"{r.chunk}: {_pct(r.rec_at_1_bi)} → {_pct(r.rec_at_1_rerank)}." for r in df.iloc[1:].itertuples()))
    return chart, caption


def latency(df: pd.DataFrame):
    chart = alt.Chart(df).mark_bar().encode(
        y=alt.Y("route:N", title=None), x=alt.X("min_ms:Q", title="milliseconds per question"), x2="max_ms:Q",
        tooltip=["route", alt.Tooltip("min_ms:Q", format=".3f"), alt.Tooltip("max_ms:Q", format=".3f")])
    ticks = alt.Chart(df).mark_tick(thickness=3, size=24).encode(y="route:N", x="max_ms:Q")
    chart, ticks = chart.properties(height=140), ticks.properties(height=140)
    bi, rr = df.iloc[0], df.iloc[1]
    caption = (f"Measured now, {df.runs.iloc[0]} runs of {df.repetitions.iloc[0]} passes over the golden questions: search "
               f"alone {bi.min_ms:.3f}–{bi.max_ms:.3f} ms, with reranking {rr.min_ms:.3f}–{rr.max_ms:.3f} ms per question. "
               "This figure changes from run to run; the others do not.")
    return chart + ticks, caption


def pipeline(df: pd.DataFrame):
    cols = ["anchored_right_source", "anchored_wrong_source", "refused", "abstained"]
    names = dict(zip(cols, OUTCOME_COLOURS.domain))
    long = df.melt(id_vars=["filter"], value_vars=cols, var_name="outcome", value_name="questions")
    long["outcome"] = long.outcome.map(names)
    chart = alt.Chart(long).mark_bar().encode(
        y=alt.Y("filter:N", title=None), x=alt.X("questions:Q", title="questions"),
        color=alt.Color("outcome:N", scale=OUTCOME_COLOURS, title=None),
        order=alt.Order("outcome:N"), tooltip=["filter", "outcome", "questions"]).properties(height=140)
    off, on = df.iloc[0], df.iloc[1]
    caption = (f"Without the filter {off.anchored_wrong_source} answers are anchored to the WRONG source and pass the "
               f"checker (they cite faithfully a note that should not be there); with {on['filter']} "
               f"{on.anchored_wrong_source}. The checker guarantees grounding, not truth.")
    return chart, caption


def for_tables(frames: dict) -> dict:
    """name -> (chart, caption) for every table in `frames` that has a chart (cut_anchors needs cut_summary)."""
    simple = {"ceiling": ceiling, "strategies": strategies, "size_overlap": size_overlap, "filter": filter_effect,
              "rerank": rerank_effect, "latency": latency, "pipeline": pipeline}
    out = {name: simple[name](df) for name, df in frames.items() if name in simple}
    if "cut_anchors" in frames and "cut_summary" in frames:
        out["cut_anchors"] = cut_anchors(frames["cut_anchors"], frames["cut_summary"])
    return out


def trap3(df: pd.DataFrame):
    """Ceiling at k for the article's questions and for the same questions phrased as a user would."""
    long = df.melt(id_vars=["k"], value_vars=["article_questions", "user_questions"], var_name="questions", value_name="ceiling")
    long["questions"] = long.questions.map({"article_questions": "the article's (library words)",
                                            "user_questions": "phrased as a user would"})
    return alt.Chart(long).mark_line(point=True).encode(
        x=alt.X("k:O", title="k"), y=alt.Y("ceiling:Q", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("questions:N", title=None, legend=alt.Legend(orient="bottom")),
        tooltip=["k", "questions", alt.Tooltip("ceiling:Q", format=".3f")])
