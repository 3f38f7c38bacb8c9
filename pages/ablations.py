"""Ablations: every table of the article as a chart beside its table, with a caption read from the data."""
import streamlit as st

from ui import captions, charts, data, export, frame, widgets

frame.ensure(__file__)          # a first request that runs this page without app.py draws the frame here

st.title("Ablations")
st.caption("Each measurement of the article, computed now on the active dataset. Captions are written from the "
           "numbers in the table, and every table downloads as CSV.")
wb = data.workbench()
widgets.stop_without_questions(wb, "there is nothing to measure")
st.info(f"Ranked by the {frame.RETRIEVER_NAMES[wb.retriever]} retriever, reranked by the "
        f"{frame.RERANKER_NAMES[wb.reranker]} reranker (change them under Retrieval in the sidebar)"
        + (": the article's settings." if (wb.retriever, wb.reranker) == ("hashing", "lexical") else "."))

SECTIONS = [("Ceiling at k", "ceiling"), ("Chunking strategies", "strategies"),          # (title, table)
            ("Chunk size × overlap", "size_overlap"), ("Anchors cut by a chunk boundary", "cut_anchors"),
            ("The metadata filter", "filter"), ("Reranking, before and after", "rerank"), ("Latency", "latency"),
            ("Pipeline outcomes", "pipeline")]
frames = {name: data.latency() if name == "latency" else data.table(name) for _, name in SECTIONS}
frames["cut_summary"] = data.table("cut_summary")
drawn = charts.for_tables(frames, quote=widgets.plain)      # name -> (chart, caption); data text made plain Markdown
notes = captions.notes()                                     # the settings each table is computed with

for title, name in SECTIONS:
    st.subheader(title)
    st.caption(notes[name])
    chart, caption = drawn[name]
    df = frames[name]
    left, right = st.columns([3, 2])
    left.altair_chart(chart, width="stretch")
    right.dataframe(widgets.readable(df), hide_index=True, width="stretch")    # downloads keep the CLI's names
    right.download_button(f"Download {name}.csv", export.safe_csv(df), f"{name}.csv", "text/csv",
                          key=f"abl_dl_{name}", icon=":material/download:")
    st.markdown(caption)

st.subheader("The six verifier cases")
cases = data.table("verifier_cases")
st.dataframe(cases, hide_index=True, width="stretch")
st.download_button("Download verifier_cases.csv", export.safe_csv(cases), "verifier_cases.csv", "text/csv",
                   key="abl_dl_verifier_cases", icon=":material/download:")

st.subheader("Trap 3: the article's questions against questions phrased as a user would, per retriever")
st.caption("Bundled corpus, trusted statuses only. The article: with a trained encoder \"the numbers would change, "
           "the shape of the problems would not\".")
side = data.trap3_table()
st.altair_chart(charts.trap3(side), width="stretch")
st.markdown(captions.trap3(side))
