"""Open Book: the picture frame. Navigation, the shared sidebar (dataset, chunker, glossary), then the page."""
import streamlit as st

from ui import charts, model_form, state, widgets  # noqa: F401  (charts: Altair imported once, with the frame)

st.set_page_config(page_title="Open Book — a RAG workbench", page_icon="📖", layout="wide")

pages = [
    st.Page("views/overview.py", title="Overview", icon=":material/home:", default=True),
    st.Page("views/corpus.py", title="Corpus", icon=":material/library_books:", url_path="corpus"),
    st.Page("views/ask.py", title="Ask", icon=":material/quiz:", url_path="ask"),
    st.Page("views/ablations.py", title="Ablations", icon=":material/bar_chart:", url_path="ablations"),
    st.Page("views/your_data.py", title="Your data", icon=":material/upload_file:", url_path="your-data"),
    st.Page("views/model.py", title="Model", icon=":material/smart_toy:", url_path="model"),
    st.Page("views/glossary.py", title="Glossary", icon=":material/menu_book:", url_path="glossary"),
]
pg = st.navigation(pages)

for warning in state.init(state.SHARED) + [w for w in [state.dataset_from_link()] if w]:
    widgets.warn(warning)

with st.sidebar:
    st.caption(f"Dataset: **{widgets.plain(state.dataset().name)}**")
    st.subheader("Chunker", help="How documents are cut into chunks before indexing. Applies to every page.")
    st.selectbox("Strategy", ["fixed", "structure", "sentence"], key="chunker",
                 format_func={"fixed": "Fixed window of words", "structure": "By structure (paragraphs)",
                              "sentence": "By sentence"}.get,
                 on_change=state.choose_strategy,
                 help="Fixed: windows of N words. Structure: paragraphs merged up to N words. Sentence: N sentences.")
    unit = "sentences" if st.session_state["chunker"] == "sentence" else "words"
    st.number_input(f"Size ({unit})", min_value=1, max_value=2000, step=1, key="size",
                    on_change=state.remember, args=("size",),
                    help="Fixed: words per chunk. Structure: most words per chunk. Sentence: sentences per chunk.")
    st.number_input(f"Overlap ({unit})", min_value=0, max_value=1999, step=1, key="overlap",
                    on_change=state.remember, args=("overlap",),
                    disabled=st.session_state["chunker"] == "structure",
                    help="How much each chunk repeats of the previous one, so a sentence cut by a boundary "
                         "still exists whole somewhere. Must be smaller than the size. Not used by 'structure'.")
    with st.expander("Model server (optional)", icon=":material/smart_toy:"):
        model_form.render()
    widgets.glossary_popover()

pg.run()
