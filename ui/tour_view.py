"""Drawing the tour (rag_core.evaluation.tour): each step's chart, large enough to read from the back of a room, its
one control, its example, and the presenter's download (the nine steps in one self-contained HTML file).

`chart(step)` is a pure function of the step (no Streamlit) and so is `presenter_html`; `control` and `draw` put
them on the page. Every text from the data (questions, anchors, document names, answers) is shown as plain text
(widgets.plain, st.code, or html.escape in the download).

Left out on purpose: the step logic (rag_core.evaluation.tour), caching (ui.cache).

`STEP_PAGES` names the page where each step lives in full (pages are the UI's to name).
"""
from __future__ import annotations

import base64
import html

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from rag_core.evaluation import tour, tour_sentences
from rag_core.evaluation.judgement import COLOURS as OUTCOME_COLOURS
from rag_core.retrieval.retrievers import LEXICAL, RETRIEVERS
from rag_core.evaluation.tables import CUT_SIZES
from ui import charts, export, settings, widgets
from rag_core.evaluation.judgement import TONES

FONT = 20                 # px of axis, legend and mark text: readable from the back of a room
HEIGHT = 380              # px of a chart's plot area
BAR = 28                  # px of a bar, with its label above it (charts.rows): a phone leaves the bars their width
SHARE = alt.Scale(domain=[0, 1])
# the page where each step (1..9) lives in full: the library knows no page
STEP_PAGES = ("pages/corpus.py", "pages/ablations.py", "pages/corpus.py", "pages/ask.py", "pages/ask.py",
              "pages/ablations.py", "pages/ask.py", "pages/ablations.py", "pages/compare.py")


def big(chart):
    """The chart with large text everywhere (a presenter's screen, not a report page)."""
    return chart.configure_axis(labelFontSize=FONT, titleFontSize=FONT, labelLimit=420) \
        .configure_legend(labelFontSize=FONT - 2, titleFontSize=FONT - 2, symbolSize=220, labelLimit=420) \
        .configure_title(fontSize=FONT + 2)


def _status_scale(statuses) -> alt.Scale:
    return alt.Scale(domain=list(statuses), range=[widgets.CSS[widgets.colour(s, statuses)] for s in statuses])


def _message(text: str):
    return alt.Chart(pd.DataFrame({"text": [text]})).mark_text(size=FONT).encode(text="text:N").properties(height=120)


# ---------------------------------------------------------------- one chart per step (pure)

def chart(s: tour.Step, statuses=("current", "draft", "outdated")):
    """The Altair chart of step `s` (without the large-text configuration: `big` adds it)."""
    f = s.figure
    if f.empty:
        return _message("Nothing to draw: this step needs golden questions")
    drawn = _CHARTS[s.number - 1](s, f, statuses)
    return drawn if isinstance(drawn.height, alt.Step) else drawn.properties(height=HEIGHT)   # rows: their own


def _rows(field: str, sort: list) -> alt.Y:
    return charts.rows(field, sort, bar=BAR, font=FONT)


def _step(sort: list, bar: int = BAR) -> alt.Step:
    return charts.row_step(sort, bar, FONT)


def _documents(s, f, statuses):
    bars = alt.Chart(f).mark_bar().encode(
        y=_rows("status:N", list(f.status)), x=alt.X("documents:Q", title="documents", axis=alt.Axis(**charts.COUNT_AXIS)),
        color=alt.Color("status:N", scale=_status_scale(list(f.status)), legend=None), tooltip=["status", "documents"])
    return (bars + bars.mark_text(align="left", dx=6, size=FONT).encode(text="documents:Q")).properties(
        height=_step(list(f.status)))


def _ceiling(s, f, statuses):
    k = s.example.get("k")
    base = alt.Chart(f.assign(chosen=f.k == k)).encode(
        x=alt.X("k:O", title="k (chunks handed over)", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("recall:Q", scale=alt.Scale(domain=[0, 1.12]), title="ceiling",    # room for a label over 1.000
                axis=alt.Axis(values=[0, 0.2, 0.4, 0.6, 0.8, 1])))
    line = base.mark_line(point=alt.OverlayMarkDef(size=140), strokeWidth=4)
    chosen = base.transform_filter("datum.chosen").mark_point(size=900, filled=True, color="#6b3fa0")
    labels = base.mark_text(dy=-22, size=FONT).encode(text=alt.Text("recall:Q", format=".3f"))
    return line + chosen + labels


def _cuts(s, f, statuses):
    long = f.melt(id_vars=["size"], value_vars=["cut_without_ovl", "cut_with_20_percent"], var_name="overlap",
                  value_name="cut")
    order = ["no overlap", "20 % overlap"]
    long["overlap"] = long.overlap.map(dict(zip(["cut_without_ovl", "cut_with_20_percent"], order)))
    size, ovl = s.example.get("size"), s.example.get("overlap")
    # the sidebar's chunker drawn strong: its window's bar of its overlap (both bars of its window when the overlap is
    # neither 0 nor 20 %); the other bars lighter
    shown = {0: order[0], (size or 0) / 5: order[1]}.get(ovl)
    now = (long["size"] == size) & ((long.overlap == shown) if shown else True)
    return alt.Chart(long.assign(now=now)).mark_bar().encode(
        opacity=alt.condition("datum.now", alt.value(1), alt.value(0.45 if now.any() else 1)),
        x=alt.X("size:O", title="window size (words)"),
        y=alt.Y("cut:Q", title="anchors cut", axis=alt.Axis(**charts.COUNT_AXIS)),
        xOffset=alt.XOffset("overlap:N", sort=order),
        color=alt.Color("overlap:N", sort=order, title="overlap", legend=alt.Legend(orient="top")),
        tooltip=["size", "overlap", "cut"])


def _spans(s, f, statuses):
    f = f.assign(label=[f"{r.span} · {r.document} · chunk {r.chunk}" + (" · ✓\u00a0anchor" if r.holds_anchor else "")
                        for r in f.itertuples()])          # above its bar: the bar keeps a phone's width
    return alt.Chart(f).mark_bar().encode(
        y=_rows("label:N", list(f.label)), x=alt.X("similarity:Q", title="similarity to the question"),
        color=alt.Color("status:N", scale=_status_scale(statuses), title="status",
                        legend=alt.Legend(orient="top", columns=2)),
        tooltip=["span", "document", "chunk", "status", "holds_anchor"]).properties(height=_step(list(f.label)))


def _filter(s, f, statuses):
    on = s.example.get("filter_on", True)
    chosen = f["filter"].iloc[1 if on else 0]
    base = alt.Chart(f.assign(shown=f["filter"] == chosen)).encode(
        y=_rows("filter:N", list(f["filter"])),
        x=alt.X("contradicted_top_3:Q", title=["questions with an untrusted", "chunk in the top 3"],
                axis=alt.Axis(**charts.COUNT_AXIS)))
    bars = base.mark_bar(color="#b85c00").encode(opacity=alt.condition("datum.shown", alt.value(1), alt.value(0.3)))
    return (bars + base.mark_text(align="left", dx=6, size=FONT).encode(text="contradicted_top_3:Q")).properties(
        height=_step(list(f["filter"])))


def _rerank(s, f, statuses):
    on = s.example.get("rerank", True)
    top = int(f[["rank_before", "rank_after"]].replace(float("inf"), pd.NA).max().max() or 1)
    cols = ["rank_before", "rank_after"] if on else ["rank_before"]
    long = f.melt(id_vars=["question", "move"], value_vars=cols, var_name="order", value_name="rank")
    long["order"] = long.order.map({"rank_before": "before the rerank", "rank_after": "after the rerank"})
    long["rank"] = long["rank"].clip(upper=top + 1)
    return alt.Chart(long).mark_point(size=260, filled=True).encode(
        x=alt.X("question:O", title="golden question", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("rank:Q", title=["rank of the", "anchor's chunk"], scale=alt.Scale(reverse=True, domain=[1, top + 1]),
                axis=alt.Axis(**charts.COUNT_AXIS)),
        color=alt.Color("order:N", title=None, legend=alt.Legend(orient="top", columns=1),
                        scale=alt.Scale(domain=["before the rerank", "after the rerank"], range=["#9aa4b1", "#0f7c8c"])),
        shape=alt.Shape("order:N", legend=None), tooltip=["question", "order", "rank", "move"])


def _answers(s, f, statuses):
    chosen = s.example.get("kind")
    domain = list(dict.fromkeys(f.outcome))
    base = alt.Chart(f.assign(one=1, shown=f.kind == chosen)).encode(
        y=_rows("kind:N", list(f.kind)), x=alt.X("one:Q", axis=None, title=None))
    bars = base.mark_bar().encode(
        color=alt.Color("outcome:N", title="outcome", legend=alt.Legend(orient="top", columns=2),
                        scale=alt.Scale(domain=domain, range=[OUTCOME_COLOURS.get(o, "#555") for o in domain])),
        opacity=alt.condition("datum.shown", alt.value(1), alt.value(0.55)), tooltip=["kind", "outcome", "answer"])
    return (bars + base.mark_text(align="left", size=FONT, color="white", fontWeight="bold").encode(
        text="outcome:N", x=alt.value(12))).properties(height=_step(list(f.kind)))


def _trap3(s, f, statuses):
    long = f.melt(id_vars=["retriever"], value_vars=["article_questions", "user_questions"], var_name="questions",
                  value_name="recall")
    order = ["the golden set's words", "phrased as a user would"]
    long["questions"] = long.questions.map(dict(zip(["article_questions", "user_questions"], order)))
    base = alt.Chart(long).encode(y=charts.rows("retriever:N", list(f.retriever), bar=2 * BAR, font=FONT),
                                  yOffset=alt.YOffset("questions:N", sort=order),
                                  x=alt.X("recall:Q", scale=SHARE, title=f"ceiling at k = {tour_sentences.TRAP3_K}"))
    bars = base.mark_bar().encode(color=alt.Color("questions:N", sort=order, title=None, legend=alt.Legend(orient="top", columns=1),
                                                  scale=alt.Scale(domain=order, range=["#1f5fbf", "#b85c00"])))
    return (bars + base.mark_text(align="left", dx=6, size=FONT - 2).encode(text=alt.Text("recall:Q", format=".3f"))
            ).properties(height=_step(list(f.retriever), 2 * BAR))


def _losses(s, f, statuses):
    lost = f[f.questions > 0]
    stages = list(lost.stage)
    bars = alt.Chart(lost).mark_bar().encode(
        y=_rows("stage:N", stages), x=alt.X("questions:Q", title="questions", axis=alt.Axis(**charts.COUNT_AXIS)),
        color=alt.Color("stage:N", legend=None, scale=alt.Scale(domain=stages, range=list(lost.colour))),
        tooltip=["stage", "questions", "meaning"])
    return (bars + bars.mark_text(align="left", dx=6, size=FONT).encode(text="questions:Q", color=alt.value("#222"))
            ).properties(height=_step(stages))


_CHARTS = (_documents, _ceiling, _cuts, _spans, _filter, _rerank, _answers, _trap3, _losses)


# ---------------------------------------------------------------- on the page

def control(number: int, wb, chunker) -> tour.Controls:
    """Draw the step's one control and return the controls it sets (the others keep their defaults)."""
    if number == 1 and wb.golden_check.valid:
        q = st.selectbox("Golden question", range(len(wb.questions)), key="tour_question",
                         format_func=lambda i: f"{i + 1}. {wb.questions[i]}")
        return tour.Controls(question=q)
    if number in (2, 4, 9):
        label = "Spans handed over (k)" if number != 2 else "k (chunks handed over)"
        k = st.select_slider(label, options=list(tour.CEILING_KS), value=3, key=f"tour_k{number}")
        return tour.Controls(k=k)
    if number == 3:
        sizes = sorted(set(CUT_SIZES) | {int(chunker.size)})
        st.session_state.setdefault("tour_size", int(chunker.size) if chunker.kind == "fixed" else 160)
        st.session_state.setdefault("tour_overlap", chunker.kind == "fixed" and chunker.overlap > 0)
        c = st.columns([3, 1], vertical_alignment="bottom")
        c[0].select_slider("Chunk size (words; sets the sidebar's chunker)", options=sizes, key="tour_size",
                           on_change=_use_chunker)
        c[1].toggle("20 % overlap", key="tour_overlap", on_change=_use_chunker)
        return tour.Controls()
    if number == 5:
        return tour.Controls(filter=st.toggle("Filter by status (only trusted chunks compete)", value=True,
                                              key="tour_filter"))
    if number == 6:
        return tour.Controls(rerank=st.toggle("Rerank", value=True, key="tour_rerank"))
    if number == 7:
        return tour.Controls(preset=st.session_state.get("tour_preset"))
    if number == 8:
        chosen = st.pills("Retrievers", RETRIEVERS, selection_mode="multi", default=list(LEXICAL),
                          key="tour_retrievers", help="MiniLM and hybrid use the trained encoder: the first time, it "
                                                      "encodes every chunk (a progress bar says how many are left).")
        return tour.Controls(retrievers=tuple(r for r in RETRIEVERS if r in (chosen or ["hashing"])))
    return tour.Controls()


def _use_chunker() -> None:
    size = int(st.session_state["tour_size"])
    settings.set_value("chunker", "fixed")
    settings.set_value("size", size)
    settings.set_value("overlap", size // 5 if st.session_state["tour_overlap"] else 0)


def draw(s: tour.Step, wb, chunker) -> None:
    """The step's sentence, its chart and its example, as plain text."""
    st.markdown(f"#### {widgets.plain(s.sentence)}")
    st.altair_chart(big(chart(s, wb.corpus.statuses)), width="stretch")
    e = s.example
    if s.number in (1, 3) and "doc_position" in e:
        ix = wb.index(chunker)
        mine = np.flatnonzero(ix.doc == e["doc_position"])
        spans = [(int(ix.start[c]), int(ix.end[c])) for c in mine]
        anchors, cut = wb.anchors_in(chunker, e["doc_position"])
        st.caption(f"{widgets.plain(e['doc'])} ({widgets.plain(e['status'])}), with the chunks of {chunker.label}; "
                   "the golden anchors outlined" + (", the cut one dashed in red" if cut else ""))
        st.html(widgets.document_html(wb.corpus.documents[e["doc_position"]].text, spans, anchors, cut))
    if s.number == 4 and e:
        _answer(e["answer"], e["outcome"], e["judgement"])
    if s.number == 5 and e.get("question"):
        on = e["filter_on"]
        st.dataframe(s.details["spans"], hide_index=True, width="stretch")
        st.badge(e["outcome_on" if on else "outcome_off"], color=_tone(e["outcome_on" if on else "outcome_off"]))
        st.markdown(widgets.plain(e["judgement_on" if on else "judgement_off"]))
    if s.number == 7 and not s.figure.empty:
        kinds = list(s.figure.kind)
        if st.session_state.get("tour_preset") not in kinds:
            st.session_state["tour_preset"] = None
        st.pills("Answers to try", kinds, key="tour_preset", format_func=widgets.plain,
                 help="Made from the spans handed over for this question, as on the Ask page.")
        _answer(e["answer"], e["outcome"], e["reason"])
    if s.number == 9 and e:
        st.code(e["setup"], language=None, wrap_lines=True)


def _tone(outcome: str) -> str:
    return TONES.get(outcome, "gray")


def _answer(answer: str, outcome: str, why: str) -> None:
    st.code(answer, language=None, wrap_lines=True)
    c = st.columns([1, 5], vertical_alignment="center")
    with c[0]:
        st.badge(outcome, color=_tone(outcome))
    c[1].markdown(widgets.plain(why))


# ---------------------------------------------------------------- the presenter's download (pure)

def presenter_html(steps, dataset: str, setting: str) -> str:
    """The nine steps in one HTML file with no outside reference: each title, claim, sentence, chart (PNG inline)
    and the example's question; every text escaped."""
    e = html.escape
    parts = [f"<h1>Open Book: the tour</h1><p class='what'>Dataset: {e(dataset)}<br>Settings: {e(setting)}</p>"]
    for s in steps:
        png = base64.b64encode(export.chart_png(chart(s))).decode()
        parts.append(f"<section id='step-{s.number}'><h2>Step {s.number} of {len(steps)} · {e(s.title)}</h2>"
                     f"<p class='claim'>{e(s.claim)}</p><p class='sentence'>{e(s.sentence)}</p>"
                     f"<img alt='{e(s.title)}: chart' src='data:image/png;base64,{png}'>"
                     + (f"<p class='example'>Example: {e(str(s.example['question']))}</p>"
                        if s.example.get("question") else "") + "</section>")
    style = ("<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;font-size:20px}"
             "img{max-width:100%}.claim{color:#555}.sentence{font-weight:600}.what{color:#555}"
             "section{border-top:1px solid #ddd;padding-top:1em}</style>")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>Open Book: the tour</title>{style}</head>"
            "<body>" + "\n".join(parts) + "</body></html>")
