"""Overview: the open-book story, the three phases, and the live headline figures."""
import streamlit as st

from rag_core.evaluation import losses
from ui import active, captions, charts, datasets, figures, frame, overview_reading, settings, widgets

frame.ensure(__file__)          # a first request that runs this page without app.py draws the frame here

st.title("Open Book: watch a RAG system work, and see where it breaks")
st.page_link("pages/tour.py", label="Take the tour: the story in nine live steps", icon=":material/slideshow:")

st.markdown(
    "A RAG system is an **open-book exam**. The language model is the student; retrieval is the hand that opens "
    "the book at a few pages. If those pages hold the answer, the student only has to read. If they do not, "
    "no amount of reasoning helps: the student either admits it or invents something plausible.\n\n"
    "So the first number to look at is the **ceiling**: the share of test questions whose answer sentence (the "
    "*anchor*) is inside the chunks handed to the model. No prompt, temperature or bigger model can score above it.")

# the columns stack below 640 px: the arrow then points down (a stylesheet of the page's own, nothing fetched)
ARROW = ('<style>@media (max-width: 640px) {.ob-next {transform: rotate(90deg)}}</style>'
         '<div class="ob-next" style="font-size:1.8rem;text-align:center">→</div>')
c1, arrow1, c2, arrow2, c3 = st.columns([4, 1, 4, 1, 4], vertical_alignment="center")
with c1.container(border=True):
    st.markdown("**1 · Indexing** (once)\n\nDocuments are cut into chunks; each chunk becomes a vector, stored "
                "with its metadata (here, a *status*: current, draft or outdated).")
arrow1.html(ARROW)
with c2.container(border=True):
    st.markdown("**2 · Retrieval** (every question)\n\nFilter by status, find the nearest chunks, rerank, "
                "keep the best few.\n\n:violet[**The ceiling is measured here.**]")
arrow2.html(ARROW)
with c3.container(border=True):
    st.markdown("**3 · Generation** (every question)\n\nThe chunks become numbered spans [S1]…[Sn] in a prompt; "
                "the answer must cite them, and a checker refuses any number or name the cited span lacks.")

wb = active.workbench()
chunker = settings.chunker_or_stop()

st.subheader("Headline figures, computed now")
st.caption(f"Dataset: {widgets.plain(datasets.dataset().name)} · chunker: {chunker.label} · "
           f"{len(wb.golden_check.valid)} valid golden questions"
           + (f" ({wb.golden_check.n_excluded} excluded: see the Corpus page)" if wb.golden_check.n_excluded else ""))
widgets.stop_without_questions(wb, "there is no ceiling to show")

f = active.table("filter", chunker)
off, on = f.iloc[0], f.iloc[1]
n = len(wb.golden_check.valid)
m = st.columns(4)
m[0].metric("Ceiling at k = 1 · no filter · no rerank", figures.share(off.recall_at_1),
            help="recall@1: the share of questions whose anchor is in the single best chunk of the first search.")
m[1].metric("Ceiling at k = 3 · no filter · no rerank", figures.share(off.recall_at_3),
            help="recall@3: the share of questions whose anchor is in the three best chunks of the first search.")


def change(after, before):
    """A metric delta, or None when nothing changed (no arrow for +0.000)."""
    return f"{after - before:+.3f}" if round(after - before, 3) else None


m[2].metric("Ceiling at k = 1 · filter on · no rerank", figures.share(on.recall_at_1), delta=change(on.recall_at_1, off.recall_at_1),
            help=f"With {widgets.plain(on['filter'])}: only those chunks may be retrieved.")
m[3].metric("Ceiling at k = 3 · filter on · no rerank", figures.share(on.recall_at_3), delta=change(on.recall_at_3, off.recall_at_3),
            help=f"With {widgets.plain(on['filter'])}.")
m = st.columns(4)
m[0].metric("Contradicted in the top 3 · no filter", f"{off.contradicted_top_3}/{n}",
            help="Questions with at least one chunk of a draft or outdated document among the three best.")

m[1].metric("Contradicted in the top 3 · filter on", f"{on.contradicted_top_3}/{n}",
            delta=int(on.contradicted_top_3 - off.contradicted_top_3) or None, delta_color="inverse",
            help=f"With {widgets.plain(on['filter'])}: questions with a draft or outdated chunk among the three best.")

st.markdown(overview_reading.reading(f, quote=widgets.plain))     # shares as 0.389, like the metrics above

st.subheader("Where each question is lost")
account = active.table("losses", chunker)
st.caption("The article's pipeline (20 candidates reranked, 3 spans, only the trusted statuses, the scripted "
           "generator, the strict checker): the first stage that loses each golden question. A question is answered "
           "only when the answer is grounded on the anchor's document, states the golden answer key and contradicts "
           "none of it; one that contradicts the key is a 'wrong answer'; one that does neither is 'not confirmed' "
           "(it may be right in other words). The Compare page puts several setups side by side.")
st.altair_chart(charts.losses(account.assign(setup="the article's pipeline",
                                             colour=account.stage.map(losses.COLOURS))), width="stretch")
st.markdown(captions.losses(account, quote=widgets.plain))

st.subheader("Where to go next")
for script, label, icon, what in [
        ("pages/corpus.py", "Corpus", ":material/library_books:", "the documents, their chunks and the golden questions"),
        ("pages/ask.py", "Ask", ":material/quiz:", "one question through retrieval, prompt, answer and citation check"),
        ("pages/ablations.py", "Ablations", ":material/bar_chart:", "every measurement of the article as a chart"),
        ("pages/compare.py", "Compare", ":material/compare_arrows:", "setups side by side, and whether a difference is real")]:
    st.page_link(script, label=label, icon=icon)
    st.caption(what)                       # under the link, so a phone never cuts it
