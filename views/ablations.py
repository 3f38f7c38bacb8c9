"""Ablations: every table of the article as a chart beside its table, with a caption read from the data."""
import streamlit as st

from ui import charts, state

st.title("Ablations")
st.caption("Each measurement of the article, computed now on the active dataset. Captions are written from the "
           "numbers in the table, and every table downloads as CSV.")
wb = state.workbench()
if not wb.check.valid:
    st.info("This dataset has no valid golden question, so there is nothing to measure. Add a golden set on the "
            "Your data page, or switch back to the bundled corpus.")
    st.stop()


def section(title: str, name: str, chart_and_caption, df, note: str = ""):
    st.subheader(title)
    if note:
        st.caption(note)
    chart, caption = chart_and_caption
    left, right = st.columns([3, 2])
    left.altair_chart(chart, width="stretch")
    right.dataframe(df, hide_index=True, width="stretch")
    right.download_button(f"Download {name}.csv", df.to_csv(index=False).encode(), f"{name}.csv", "text/csv",
                          key=f"abl_dl_{name}", icon=":material/download:")
    st.markdown(caption)


ceil = state.table("ceiling")
section("Ceiling at k", "ceiling", charts.ceiling(ceil), ceil,
        "Fixed window 160 words, overlap 32, no filter: how often the anchor is in the first k chunks.")
strat = state.table("strategies")
section("Four chunking strategies", "strategies", charts.strategies(strat), strat)
so = state.table("size_overlap")
section("Chunk size × overlap", "size_overlap", charts.size_overlap(so), so, "Fixed window, with and without 20 % overlap.")
cuts, summary = state.table("cut_anchors"), state.table("cut_summary")
section("Anchors cut by a chunk boundary", "cut_anchors", charts.cut_anchors(cuts, summary), cuts,
        "Twenty window sizes from 20 to 400 words: how many anchors fit whole in no window of their document.")
filt = state.table("filter")
section("The metadata filter", "filter", charts.filter_effect(filt), filt, "Fixed window 160/32; filter applied before ranking.")
rr = state.table("rerank")
section("Reranking, before and after", "rerank", charts.rerank_effect(rr), rr,
        "Filter on, 50 candidates from the bi-encoder, reranked by the lexical surrogate.")
lat = state.latency()
section("Latency", "latency", charts.latency(lat), lat)
pipe = state.table("pipeline")
section("Pipeline outcomes", "pipeline", charts.pipeline(pipe), pipe,
        "All golden questions through retrieval (20 candidates, reranked, 3 spans), the scripted generator and the checker.")
st.subheader("The six verifier cases")
cases = state.table("verifier_cases")
st.dataframe(cases, hide_index=True, width="stretch")
st.download_button("Download verifier_cases.csv", cases.to_csv(index=False).encode(), "verifier_cases.csv", "text/csv",
                   key="abl_dl_verifier_cases", icon=":material/download:")
