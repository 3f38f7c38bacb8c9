"""Golden set studio: build the active dataset's golden set in the browser, without a CSV."""
import streamlit as st

from ui import active, datasets, frame, model_config, settings, studio, studio_form, studio_suggest, widgets
from ui.figures import plural

frame.ensure(__file__)          # a first request that runs this page without app.py draws the frame here

st.title("Golden set studio")
st.caption("Pick a sentence of a document as the anchor, type the question a user would ask, add. Each change is "
           "kept at once with the dataset's documents (in the store, when it is on) and used by every page: "
           "Overview's ceiling, Compare, Ablations. The bundled files are never changed: editing the bundled set "
           "makes a new, named set.")
wb = active.workbench()
chunker = settings.chunker_or_stop()
studio.show_note()

# ---- the set: its name, and the changes that apply to all of it
st.text(f"Dataset: {datasets.dataset().name} · {plural(len(wb.corpus.documents), 'document', 'documents')} · "
        f"{plural(len(wb.golden_check.rows), 'golden row', 'golden rows')}")
studio_form.name_field()
studio_form.toolbar()

# ---- a new row
st.subheader("Add a question")
left, right = st.columns([3, 2])
with left:
    anchor = studio_form.pick_anchor(wb.corpus.documents)
with right:
    studio_form.add_form(anchor)

# ---- every row with its status under the sidebar's chunker
st.subheader("The set")
rows = studio.status_frame(wb, chunker)
if rows.empty:
    st.info("The set is empty: add a question above.")
else:
    st.caption(f"{studio.counts(rows)} · with {chunker.label} (the sidebar's chunker). A row counts when its "
               "anchor is found literally in its document; a cut anchor counts but no search can find it whole.")
    st.dataframe(rows, hide_index=True, width="stretch",
                 column_config={"#": st.column_config.NumberColumn(width="small"),
                                "why": st.column_config.TextColumn("why / where the boundary falls", width="large")})
    if studio.trouble(rows):                    # the why column is far right: said below the table too
        st.warning(widgets.plain(studio.trouble(rows)).replace("\n", "\n\n"))
    with st.expander("Edit or delete a row", icon=":material/edit_note:"):
        studio_form.edit_form()
    widgets.download(st, "Download the set (CSV)", studio.csv_bytes(wb.golden_check.rows), "golden-set.csv", "text/csv",
                     key="studio_download", icon=":material/download:")

# ---- suggestions: rows the documents' structure or the connected model offer, used only once accepted
st.divider()
st.subheader("Suggestions")
st.button("Suggest from the documents' headings", key="studio_suggest_structure",
          on_click=studio_suggest.from_structure, icon=":material/lightbulb:",
          help="Headings and bold lines that ask a question, Q:/A: pairs and definition lists, each anchored on the "
               "first sentence of the prose below it.")
studio_suggest.model_route(model_config.llm_config())
studio_suggest.suggestions(st.session_state.get(studio_suggest.SUGGESTED, []))
