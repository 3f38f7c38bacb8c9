"""Ablations: every table of the article as a chart beside its table, with a caption read from the data."""
import streamlit as st

from rag_core import ARTICLE_CHUNKER
from ui import active, article_view, captions, charts, export, frame, settings, table_notes, widgets

frame.ensure(__file__)          # a first request that runs this page without app.py draws the frame here

st.title("Ablations")
st.caption("Each measurement of the article, computed now on the active dataset. Captions are written from the "
           "numbers in the table, and every table downloads as CSV.")
wb = active.workbench()
widgets.stop_without_questions(wb, "there is nothing to measure")
sidebar = settings.chunker_or_stop()
st.info(f"Ranked by the {frame.RETRIEVER_NAMES[wb.retriever]} retriever, reranked by the "
        f"{frame.RERANKER_NAMES[wb.reranker]} reranker (change them under Retrieval in the sidebar)"
        + (": the article's settings." if (wb.retriever, wb.reranker) == ("hashing", "lexical") else ".")
        + (f" The chunkers are the article's, named under each title: the sidebar's ({sidebar.label}) is not used "
           "here (the other pages use it)." if sidebar != ARTICLE_CHUNKER else ""))

SECTIONS = [("Ceiling at k", "ceiling"), ("Chunking strategies", "strategies"),          # (title, table)
            ("Chunk size × overlap", "size_overlap"), ("Anchors cut by a chunk boundary", "cut_anchors"),
            ("The metadata filter", "filter"), ("Reranking, before and after", "rerank"), ("Latency", "latency"),
            ("Pipeline outcomes", "pipeline")]
notes = table_notes.notes("the lexical surrogate" if wb.reranker == "lexical" else
                       f"the {frame.RERANKER_NAMES[wb.reranker]} reranker")     # the settings of each table
bar = st.container()                                         # the one progress bar, while the encoder works
slots = {name: st.container() for _, name in SECTIONS}       # each section in its place, drawn when it is ready
slots["verifier_cases"], slots["trap3"] = st.container(), st.container()


WITH = {"cut_anchors": ["cut_summary"], "ceiling": ["filter", "rerank"]}   # what a section's caption reads too


def section(title: str, name: str) -> None:
    frames = {name: active.latency() if name == "latency" else active.table(name)}
    frames |= {other: active.table(other) for other in WITH.get(name, [])}
    chart, caption = charts.for_tables(frames, quote=widgets.plain)[name]   # data text made plain Markdown
    df = frames[name]
    with slots[name]:
        st.subheader(title)
        st.caption(notes[name])
        left, right = st.columns([3, 2])
        left.altair_chart(chart, width="stretch")
        right.dataframe(widgets.readable(df), hide_index=True, width="stretch")    # downloads keep the CLI's names
        widgets.download(right, f"Download {name}.csv", export.safe_csv(df), f"{name}.csv", "text/csv",
                         key=f"abl_dl_{name}", icon=":material/download:")
        st.markdown(caption)
        if name == "pipeline":
            article_view.pipeline()


def verifier_cases() -> None:
    cases = active.table("verifier_cases")
    with slots["verifier_cases"]:
        st.subheader("The six verifier cases")
        st.caption("The article's table, with the article's checker and its words (anchored, refused, abstained).")
        st.dataframe(cases, hide_index=True, width="stretch")
        widgets.download(st, "Download verifier_cases.csv", export.safe_csv(cases), "verifier_cases.csv",
                         "text/csv", key="abl_dl_verifier_cases", icon=":material/download:")
        article_view.verifier_cases()


def trap3() -> None:
    side = active.trap3_table()
    with slots["trap3"]:
        st.subheader("Trap 3: the article's questions against questions phrased as a user would, per retriever")
        st.caption("Bundled corpus, trusted statuses only. The article: with a trained encoder \"the numbers would "
                   "change, the shape of the problems would not\".")
        st.altair_chart(charts.trap3(side), width="stretch")
        st.markdown(captions.trap3(side))


with bar:                               # with Ray chosen in the sidebar: each chunker's rankings are made there
    active.sweep_on_ray([n for _, name in SECTIONS for n in (name, *WITH.get(name, []))])
active.draw_ready_first({name: (active.table_jobs([name, *WITH.get(name, [])]), lambda t=title, n=name: section(t, n))
                         for title, name in SECTIONS} | {"verifier_cases": ([], verifier_cases),
                                                         "trap3": (active.trap3_jobs(), trap3)}, bar)
