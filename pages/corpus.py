"""Corpus: every document with its status, the chunks of the current chunker drawn on it, and the golden set."""
import numpy as np
import pandas as pd
import streamlit as st

from ui import active, frame, settings, widgets

frame.ensure(__file__)          # a first request that runs this page without app.py draws the frame here


st.title("Corpus")
wb = active.workbench()
chunker = settings.chunker_or_stop()
ix = wb.index(chunker)
docs = wb.corpus.documents
statuses = wb.corpus.statuses
sizes = wb.corpus.sizes()
st.caption(f"{sizes['documents']} documents, {sizes['total_words']:,} words (median {sizes['median_words']} per "
           f"document) · {len(ix)} chunks with {chunker.label}")

# ---- the documents
st.subheader("Documents")
left, right = st.columns([2, 3])
shown_statuses = left.pills("Status", statuses, selection_mode="multi", default=list(statuses), key="corpus_statuses",
                            format_func=widgets.plain,
                            help="Show only the documents with these statuses.")
needle = right.text_input("Search the text", key="corpus_search", placeholder="e.g. cutoff, heappush, deleted",
                          help="Keeps the documents whose name or text contains these characters (any case).")
chunks_per_doc = np.bincount(ix.doc, minlength=len(docs))
table = pd.DataFrame({"document": [d.id for d in docs],
                      "status": [widgets.status_label(d.status) for d in docs],
                      "words": [len(d.text.split()) for d in docs],
                      "chunks": chunks_per_doc,
                      "begins with": [" ".join(d.text.split()[:14]) + " …" for d in docs]})
keep = np.array([d.status in shown_statuses and (not needle or needle.lower() in (d.id + "\n" + d.text).lower())
                 for d in docs], dtype=bool)
st.dataframe(widgets.styled(table[keep], {"status": [d.status for d, kept in zip(docs, keep) if kept]}, statuses),
             hide_index=True, width="stretch",
             column_config={"words": st.column_config.NumberColumn(help="Whitespace-separated words"),
                            "chunks": st.column_config.NumberColumn(help=f"Chunks made by {chunker.label}")})
if not keep.any():
    st.info("No document matches: clear the search box or select more statuses.")
elif needle:
    st.caption(widgets.plain(f"{keep.sum()} of {len(docs)} documents match '{needle}'; the viewer below shows "
                             + ("the first." if keep.sum() > 1 else "it.")))

# ---- one document, with its chunks drawn
st.subheader("Document viewer")
ids = [d.id for d in docs]
if st.session_state["corpus_doc"] not in ids:
    st.session_state["corpus_doc"] = next((i for i, k in zip(ids, keep) if k), ids[0])
if needle != st.session_state.get("_corpus_searched", "") and keep.any():     # a new search shows its first match
    settings.set_value("corpus_doc", ids[int(np.flatnonzero(keep)[0])])
st.session_state["_corpus_searched"] = needle
doc_id = st.selectbox("Document", ids, key="corpus_doc", index=ids.index(settings.now("corpus_doc")),
                      on_change=settings.remember, args=("corpus_doc",),
                      help="The document to draw, with the chunk boundaries of the current chunker.")
d_pos = ids.index(doc_id)
doc = docs[d_pos]
mine = np.flatnonzero(ix.doc == d_pos)
spans = [(int(ix.start[c]), int(ix.end[c])) for c in mine]
anchors, cut = wb.anchors_in(chunker, d_pos)
c1, c2, c3 = st.columns([1, 1, 2])
with c1:
    widgets.badge(doc.status, statuses)
c2.markdown(f"**{len(doc.text.split())}** words · **{len(spans)}** chunks")
c3.markdown(f"**{len(anchors)}** golden anchor(s) here" + (f", **:red[{len(cut)} cut by a boundary]**" if cut else ""))
if cut:
    st.warning(f"{len(cut)} anchor(s) in this document are split between two chunks: no chunk contains the whole "
               "sentence, so the questions that need it can never reach the ceiling with this chunker. "
               "Try a larger overlap than the anchor's length.")
st.html(widgets.document_html(doc.text, spans, anchors, cut))

# ---- the golden set
st.subheader("Golden set")
widgets.golden_table(wb, chunker)

settings.sync_url(settings.SHARED + ("corpus_doc",))        # the document chosen above, if it changed
