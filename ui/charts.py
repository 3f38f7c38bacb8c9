"""One Altair chart per article table, returned with its caption (ui/captions.py). Pure functions: no Streamlit.

Every group a chart draws is labelled (a legend with a title, or an axis), counts sit on integer axes, and a
table with no rows gives a chart that says so instead of an error.

Left out on purpose: styling beyond the defaults, interactivity beyond tooltips.
"""
from __future__ import annotations

import altair as alt
import pandas as pd

from rag_core.evaluation.judgement import COLOURS
from rag_core.evaluation.vocabulary import ARTICLE_OUTCOMES, GOLDEN_OUTCOMES, column
from ui import captions

# the article's outcome labels in the palette of the outcomes a user reads (judgement.COLOURS): its "right source"
# is not a right answer (the sentence may be wrong or say something else), so it has a colour of its own, blue,
# that none of our outcomes uses: never green
ARTICLE_RIGHT_SOURCE = "#1f5fbf"
ARTICLE_COLOURS = dict(zip(ARTICLE_OUTCOMES, (ARTICLE_RIGHT_SOURCE, COLOURS["wrong source"], COLOURS["refused"],
                                              COLOURS["abstained"])))
RECALL = {f"recall_at_{k}": f"recall@{k}" for k in (1, 3, 5, 50)}        # column -> legend label
COUNT_AXIS = {"format": "d", "tickMinStep": 1}                      # counts: whole ticks only
SHARE = alt.Scale(domain=[0, 1])
# a line style's legend: each entry drawn as its dash (a line layer's default symbol is a dot, the same for every
# style), above the chart, so that the colours' legend below keeps a phone's width to itself
UPRIGHT = alt.Axis(labelAngle=0)       # an ordinal axis of short numbers: Vega-Lite turns its labels on their side
DASHES = alt.Legend(orient="top", columns=1, symbolType="stroke", symbolStrokeColor="#333", symbolStrokeWidth=2, symbolSize=400)
# setups are names, not verdicts: colours no outcome uses (slate, plum, teal, brown), as the status badges
SETUP_COLOURS = ["#34506e", "#8a3f7a", "#0f6e78", "#7a5a2e"]


PHONE_TEXT = 330          # px a label may take on one line: a phone's chart is 358 px wide
CHAR = 0.55               # a character's mean width, in font sizes (Source Sans, the labels' font)


def _wraps(font: int) -> int:
    """How many characters fit on a phone's line at `font` px: 330 px / (0.55 * 20) -> 30."""
    return int(PHONE_TEXT / (CHAR * font))


def _lines(labels, font: int) -> int:
    """1, or 2 when a label is longer than a phone's line (rows breaks it in two)."""
    return 1 if all(len(str(x)) <= _wraps(font) for x in labels) else 2


def rows(field: str, sort: list, *, bar: int = 22, font: int = 11, title=None) -> alt.Y:
    """The band axis of horizontal bars, each label written above its bar inside the plot, so that a long label never
    takes the bars' width (a phone leaves 358 px for the whole chart); a label longer than a phone's line breaks at
    its last space that fits. Give the chart `height=row_step(sort, bar, font)`."""
    lines, n, line = _lines(sort, font), _wraps(font), font + 2
    cut = f"lastindexof(substring(datum.label, 0, {n + 1}), ' ')"         # the last space within a phone's line
    # vega writes a label's lines downwards from its first: every label gets `lines` lines (a short one after an
    # empty line), so that the last line of each sits just above its bar
    wrap = ("datum.label" if lines == 1 else
            f"length(datum.label) <= {n} || {cut} < 1 ? ['', datum.label] : "
            f"[substring(datum.label, 0, {cut}), substring(datum.label, {cut} + 1)]")
    gap = line * lines + 6          # the label's lines, above every bar (the first's too: all outer padding on top)
    return alt.Y(field, title=title, sort=sort, scale=alt.Scale(paddingInner=gap / (bar + gap), paddingOuter=gap / (bar + gap) / 2, align=1),
                 axis=alt.Axis(labelAlign="left", labelBaseline="bottom", labelPadding=-2, labelExpr=wrap,
                               labelOffset=-bar / 2 - 3 - line * (lines - 1), labelLimit=0, labelFontSize=font,
                               labelLineHeight=line, ticks=False, domain=False, minExtent=0, zindex=1))


def row_step(sort: list, bar: int = 22, font: int = 11) -> alt.Step:
    """The height of one row of `rows`: its bar and its label's lines (for the bands, not a yOffset's sub-bands)."""
    return alt.Step(bar + (font + 2) * _lines(sort, font) + 6, **{"for": "position"})


def _empty(what: str):
    """A chart with no axes that says the table is empty."""
    return alt.Chart(pd.DataFrame({"text": [f"No {what} to show"]})).mark_text(size=14).encode(text="text:N")


def _recalls(df: pd.DataFrame, ids: list, cols: list) -> pd.DataFrame:
    """Long form: one row per (id..., measure), measures named 'recall@k'."""
    long = df.melt(id_vars=ids, value_vars=cols, var_name="measure", value_name="value")
    long["measure"] = long.measure.map(RECALL)
    return long


def ceiling(df: pd.DataFrame, filter_df=None, rerank_df=None, quote=str):
    caption = captions.ceiling(df, filter_df, rerank_df, quote)
    if df.empty:
        return _empty("ceiling"), caption
    chart = alt.Chart(df).mark_line(point=True).encode(
        x=alt.X("k:O", title="k (chunks handed over)", axis=UPRIGHT), y=alt.Y("recall:Q", scale=SHARE, title="ceiling"),
        tooltip=["k", alt.Tooltip("recall:Q", format=".3f", title="ceiling")])
    return chart, caption


def strategies(df: pd.DataFrame, quote=str):
    if df.empty:
        return _empty("strategies"), captions.strategies(df, quote)
    long = _recalls(df, ["strategy", "chunks"], ["recall_at_1", "recall_at_3"])
    chart = alt.Chart(long).mark_bar().encode(
        y=rows("strategy:N", list(df.strategy), bar=30), x=alt.X("value:Q", scale=SHARE, title="recall"),
        yOffset="measure:N", color=alt.Color("measure:N", title="measure", legend=alt.Legend(orient="bottom")),
        tooltip=["strategy", "chunks", "measure", alt.Tooltip("value:Q", format=".3f")]).properties(
            height=row_step(list(df.strategy), 30))
    return chart, captions.strategies(df, quote)


def _overlap_label(size, ovl) -> str:
    """(40, 0) -> 'no overlap'; (40, 8) -> '20 % overlap' (of the window)."""
    if pd.isna(ovl) or pd.isna(size) or not size:
        return "overlap n/a"
    return "no overlap" if ovl == 0 else f"{100 * ovl / size:g} % overlap"


def size_overlap(df: pd.DataFrame):
    if df.empty:
        return _empty("size × overlap"), captions.size_overlap(df)
    labelled = df.assign(overlap=[_overlap_label(s, o) for s, o in zip(df["size"], df.ovl)])
    long = _recalls(labelled, ["size", "ovl", "overlap", "chunks"], list(RECALL))
    base = alt.Chart(long).encode(x=alt.X("size:O", title="chunk size (words)", axis=UPRIGHT),
                                  y=alt.Y("value:Q", scale=SHARE, title="recall"),
                                  color=alt.Color("measure:N", title="measure", legend=alt.Legend(orient="bottom", columns=2)))
    order = list(dict.fromkeys(labelled.sort_values("ovl").overlap))            # no overlap first: the solid line
    lines = base.mark_line().encode(strokeDash=alt.StrokeDash("overlap:N", title="overlap", sort=order, legend=DASHES))
    points = base.mark_point(filled=True).encode(
        tooltip=["size", "ovl", "chunks", "measure", alt.Tooltip("value:Q", format=".3f")])
    return (lines + points).properties(height=400), captions.size_overlap(df)


def cut_anchors(df: pd.DataFrame, summary: pd.DataFrame, quote=str):
    if df.empty:
        return _empty("cut anchors"), captions.cut_anchors(summary, quote)
    long = df.melt(id_vars=["size"], value_vars=["cut_without_ovl", "cut_with_20_percent"], var_name="overlap", value_name="cut")
    order = ["no overlap", "20 % overlap"]
    long["overlap"] = long.overlap.map(dict(zip(["cut_without_ovl", "cut_with_20_percent"], order)))
    chart = alt.Chart(long).mark_bar().encode(
        x=alt.X("size:O", title="window size (words)"), y=alt.Y("cut:Q", title="anchors cut", axis=alt.Axis(**COUNT_AXIS)),
        xOffset=alt.XOffset("overlap:N", sort=order), color=alt.Color("overlap:N", title="overlap", sort=order, legend=alt.Legend(orient="bottom")),
        tooltip=["size", "overlap", "cut"])
    return chart, captions.cut_anchors(summary, quote)


def filter_effect(df: pd.DataFrame, quote=str):
    if df.empty:
        return _empty("filter"), captions.filter_effect(df, quote)
    long = _recalls(df, ["filter"], ["recall_at_1", "recall_at_3"])
    chart = alt.Chart(long).mark_bar().encode(
        x=alt.X("value:Q", scale=SHARE, title="recall"), y=rows("filter:N", list(df["filter"]), bar=30),
        yOffset="measure:N", color=alt.Color("measure:N", title="measure", legend=alt.Legend(orient="bottom")),
        tooltip=["filter", "measure", alt.Tooltip("value:Q", format=".3f")]).properties(
            height=row_step(list(df["filter"]), 30))
    return chart, captions.filter_effect(df, quote)


def rerank_effect(df: pd.DataFrame, quote=str):
    if df.empty:
        return _empty("rerank"), captions.rerank_effect(df, quote)
    rows = []
    for r in df.itertuples():
        for k in (1, 3):
            for route, col in (("bi-encoder", f"recall_at_{k}_bi"), ("reranked", f"recall_at_{k}_rerank")):
                rows.append({"setting": f"{r.chunk} · recall@{k}", "route": route, "value": getattr(r, col)})
    long = pd.DataFrame(rows)
    chart = alt.Chart(long).mark_bar().encode(
        x=alt.X("setting:N", title="chunk size / overlap · measure", sort=list(dict.fromkeys(long.setting)),
                axis=alt.Axis(labelAngle=-30, labelLimit=200)),
        xOffset="route:N", y=alt.Y("value:Q", scale=SHARE, title="recall"),
        color=alt.Color("route:N", title="route", legend=alt.Legend(orient="bottom")),
        tooltip=["setting", "route", alt.Tooltip("value:Q", format=".3f")])
    return chart, captions.rerank_effect(df, quote)


def latency(df: pd.DataFrame, quote=str):
    if df.empty:
        return _empty("latency"), captions.latency(df, quote)
    base = alt.Chart(df).encode(y=rows("route:N", list(df.route)))
    chart = base.mark_bar().encode(
        x=alt.X("min_ms:Q", title="milliseconds per question"), x2="max_ms:Q",
        tooltip=["route", alt.Tooltip("min_ms:Q", format=".3f"), alt.Tooltip("max_ms:Q", format=".3f")])
    ticks = base.mark_tick(thickness=3, size=22).encode(x="max_ms:Q")
    return (chart + ticks).properties(height=row_step(list(df.route))), captions.latency(df, quote)


def pipeline(df: pd.DataFrame, quote=str):
    """Outcome counts per filter setting, in the outcomes' own colours: the article's labels, or the judgements."""
    if df.empty:
        return _empty("pipeline"), captions.pipeline(df, quote)
    article = column(ARTICLE_OUTCOMES[0]) in df
    labels, colours = (ARTICLE_OUTCOMES, ARTICLE_COLOURS) if article else (GOLDEN_OUTCOMES, COLOURS)
    names = {column(o): o for o in labels}
    scale = alt.Scale(domain=list(labels), range=[colours[o] for o in labels])
    long = df.melt(id_vars=["filter"], value_vars=[c for c in names if c in df], var_name="outcome", value_name="questions")
    long["outcome"] = long.outcome.map(names)
    chart = alt.Chart(long).mark_bar().encode(         # stacked in the colour legend's order
        y=rows("filter:N", list(df["filter"])), x=alt.X("questions:Q", title="questions", axis=alt.Axis(**COUNT_AXIS)),
        color=alt.Color("outcome:N", scale=scale, title="outcome", sort=list(scale.domain),
                        legend=alt.Legend(orient="bottom", columns=2)),
        tooltip=["filter", "outcome", "questions"]).properties(height=row_step(list(df["filter"])))
    return chart, captions.pipeline(df, quote)


def for_tables(frames: dict, quote=str) -> dict:
    """name -> (chart, caption) for every table in `frames` that has a chart (cut_anchors needs cut_summary).

    quote: how text read from the data enters a caption (ui.widgets.plain for st.markdown).
    """
    unquoted = {"size_overlap": size_overlap}                               # no text from the data in its caption
    quoted = {"strategies": strategies, "filter": filter_effect, "rerank": rerank_effect, "latency": latency,
              "pipeline": pipeline}
    out = {name: unquoted[name](df) if name in unquoted else quoted[name](df, quote)
           for name, df in frames.items() if name in unquoted or name in quoted}
    if "ceiling" in frames:      # its advice names what the filter and the reranker do on this data, when known
        out["ceiling"] = ceiling(frames["ceiling"], frames.get("filter"), frames.get("rerank"), quote)
    if "cut_anchors" in frames and "cut_summary" in frames:
        out["cut_anchors"] = cut_anchors(frames["cut_anchors"], frames["cut_summary"], quote)
    return out


# trap 3's line styles, set (Vega gives them in alphabetical order: the user's questions came out solid, against the
# docstring and the caption)
QUESTION_DASHES = {"the article's (library words)": [1, 0], "phrased as a user would": [6, 4]}


def trap3(df: pd.DataFrame):
    """Ceiling at k per retriever (a colour each), the article's questions (solid) against the same anchors asked
    as a user would (dashed) (df: k, retriever, article_questions, user_questions). One chart that fits a phone."""
    if df.empty:
        return _empty("retriever to show")
    long = df.melt(id_vars=["k", "retriever"], value_vars=["article_questions", "user_questions"],
                   var_name="questions", value_name="recall")
    long["questions"] = long.questions.map({"article_questions": "the article's (library words)",
                                            "user_questions": "phrased as a user would"})
    long = long.dropna(subset=["recall"])          # an upload has no user-phrased questions: no dashed line
    order = list(dict.fromkeys(df.retriever))
    base = alt.Chart(long).encode(
        x=alt.X("k:O", title="k", axis=UPRIGHT), y=alt.Y("recall:Q", scale=SHARE, title="ceiling"),
        color=alt.Color("retriever:N", sort=order, title="retriever", legend=alt.Legend(orient="bottom")))
    drawn = [q for q in QUESTION_DASHES if q in set(long.questions)]      # solid: the golden set's own questions
    lines = base.mark_line().encode(strokeDash=alt.StrokeDash(
        "questions:N", title="questions", legend=DASHES,
        scale=alt.Scale(domain=drawn, range=[QUESTION_DASHES[q] for q in drawn])))
    points = base.mark_point(filled=True).encode(
        detail="questions:N", tooltip=["retriever", "k", "questions", alt.Tooltip("recall:Q", format=".3f", title="ceiling")])
    return (lines + points).properties(height=400)


# ---------------------------------------------------------------- setups side by side (compare page, Overview)

def leaderboard(recall: pd.DataFrame):
    """Ceiling at each k per setup, a point with its 95 % Wilson interval as an error bar (recall: the long table
    of Comparison.recall: setup, k, recall, ci_low, ci_high, hits, questions)."""
    if recall.empty:
        return _empty("setup to show")
    order = list(dict.fromkeys(recall.setup))
    base = alt.Chart(recall).encode(
        x=alt.X("k:O", title="k (chunks handed over)", axis=UPRIGHT), xOffset=alt.XOffset("setup:N", sort=order),
        color=alt.Color("setup:N", sort=order, title="setup", legend=alt.Legend(orient="bottom"),
                        scale=alt.Scale(range=SETUP_COLOURS)))
    bars = base.mark_errorbar(ticks=True).encode(
        y=alt.Y("ci_low:Q", scale=SHARE, title="ceiling at k (95 % interval)"), y2="ci_high:Q")
    points = base.mark_point(filled=True, size=70).encode(
        y="recall:Q", tooltip=["setup", "k", alt.Tooltip("recall:Q", format=".3f", title="ceiling"), "hits", "questions",
                              alt.Tooltip("ci_low:Q", format=".3f", title="95 % from"),
                              alt.Tooltip("ci_high:Q", format=".3f", title="95 % to")])
    return (bars + points).properties(height=300)


def losses(long: pd.DataFrame):
    """How many questions each stage loses, per setup, in pipeline order, one colour per stage everywhere
    (long: setup, stage, questions, colour)."""
    if long.empty:
        return _empty("question to account for")
    stages = list(dict.fromkeys(long.stage))
    colours = [long[long.stage == s].colour.iloc[0] for s in stages]
    long = long.assign(order=long.stage.map({s: i for i, s in enumerate(stages)}))
    return alt.Chart(long).mark_bar().encode(
        y=rows("setup:N", list(dict.fromkeys(long.setup))),
        x=alt.X("questions:Q", title="questions", axis=alt.Axis(**COUNT_AXIS)),
        color=alt.Color("stage:N", sort=stages, scale=alt.Scale(domain=stages, range=colours),
                        title="where the question ends", legend=alt.Legend(orient="bottom", columns=2)),
        order=alt.Order("order:Q"), tooltip=["setup", "stage", "questions"]).properties(
            height=row_step(list(dict.fromkeys(long.setup))))
