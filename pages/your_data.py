"""Your data: choose the dataset every page works on, upload your documents and golden set, export."""
import streamlit as st

from rag_core.evaluation import report
from rag_core.data.corpus import Corpus, label_problem
from rag_core.data.golden import as_row
from rag_core.data.golden_csv import GOLDEN_HEADER
from ui import (active, cache, datasets, engine_form, frame, reading, saved, trap3_view, trust_form, upload_view,
                widgets)

frame.ensure(__file__)          # a first request that runs this page without app.py draws the frame here
st.title("Your data")
st.caption("Measure the ceiling on your own documents. Until you use them, your files are in this browser session "
           "only; once used, they are kept in this server's data folder (when that is on), so that this page's link "
           "opens them after a reload and in any other browser that reaches this server.")

# ---- which dataset the pages use
choices = {datasets.BUNDLED.key: datasets.BUNDLED, datasets.BUNDLED_USER.key: datasets.BUNDLED_USER}
mine = st.session_state.get("data_uploaded")
if mine:
    choices[mine.key] = mine
current = datasets.dataset().key if datasets.dataset().key in choices else datasets.BUNDLED.key
if "data_pending_choice" in st.session_state:            # set by "Use these documents" on the previous run
    st.session_state["data_choice"] = st.session_state.pop("data_pending_choice")
if st.session_state.get("data_choice") not in choices:   # the radio's value lives in the session (no index: a
    st.session_state["data_choice"] = current             # default beside a session value is a warning)
# format_func: a dict's .get, not a lambda of this page, which would keep the page's globals (the Workbench among
# them) in the session's widget state after the tab is closed
picked = st.radio("Every page works on", list(choices),
                  format_func={k: widgets.plain(d.name) for k, d in choices.items()}.get, key="data_choice",
                  help="The bundled corpus with the article's questions; the same corpus with questions phrased "
                       "as a user would (the article's trap 3); or your own upload.")
if picked != datasets.dataset().key:
    datasets.use_dataset(choices[picked])
    st.rerun()

# ---- upload documents
st.subheader("1 · Documents")
st.markdown("Upload `.txt`, `.md`, `.pdf`, `.jsonl` (one JSON object per line with `id`, `text` and optional "
            "`status`) or a `.zip` of these. Each file becomes one document named after the file.")
files = st.file_uploader("Documents", type=["txt", "md", "pdf", "jsonl", "zip"], accept_multiple_files=True,
                         key="data_files")
default_status = st.text_input("Status given to documents that have none", value="current", key="data_status",
                               help="Any label you like (without | and ,; not 'all' or 'none', which setups use "
                                    "for every and no status); the filter on the Ask page lets you choose which "
                                    "statuses may be retrieved.").strip() or "current"
cannot_read = upload_view.limits_problem() or label_problem(default_status)
if files and cannot_read:
    widgets.error(f"Your files are not read: {cannot_read}")
result = reading.read_uploads(tuple((f.name, f.getvalue()) for f in files), default_status) \
    if files and not cannot_read else None
if result is not None:
    upload_view.show_problems(result.problems, result.all_problems, "data_dl_problems")
edited = upload_view.documents_table(result)

# ---- upload a golden set
st.subheader("2 · Golden set (optional)")
st.markdown(f"A CSV with the header `{GOLDEN_HEADER}`: the question, the id of the document that answers it, and "
            "the **anchor** — a sentence copied literally from that document. Without one, you can browse and ask, "
            "but there is no ceiling to measure.")
golden_file = st.file_uploader("Golden set", type=["csv"], key="data_golden")
golden_rows = []
if golden_file is not None and upload_view.limits_problem():
    widgets.error(f"Your golden set is not read: {upload_view.limits_problem()}")
elif golden_file is not None:
    golden_rows, reading_problems = cache.read_golden(golden_file.getvalue(), golden_file.name)
    upload_view.show_problems(reading_problems, reading_problems, "data_dl_golden_problems")
    st.caption(f"{len(golden_rows)} question(s) read.")

# ---- the golden set against the documents, before they are used
pending = upload_view.checked_documents(edited, result, golden_rows) if edited is not None else None

# ---- use them
if pending is not None:
    name = st.text_input("Name of this dataset", value="My documents", key="data_name")
    if st.button("Use these documents", type="primary", key="data_use", icon=":material/check:"):
        docs = pending
        try:
            Corpus(tuple(docs))                      # ids unique, texts not empty: said before indexing
        except ValueError as e:
            widgets.error(str(e))
            st.stop()
        ds = datasets.make_dataset(name.strip() or "My documents", docs, [as_row(r) for r in golden_rows])
        datasets.use_dataset(ds)
        problem = datasets.keep_dataset(ds)           # so that a link to it opens it after a reload
        if problem:
            st.session_state["data_keep_problem"] = problem
        st.session_state["data_pending_choice"] = ds.key
        st.rerun()

try:
    st.caption(widgets.plain(saved.store().describe()))
except ValueError as e:
    widgets.warn(str(e))

# ---- what the active dataset looks like
if "data_keep_problem" in st.session_state:
    widgets.warn("The dataset is in use, but could not be kept for later: " + st.session_state.pop("data_keep_problem"))
wb = active.workbench()
st.subheader(f"3 · Active dataset: {widgets.plain(datasets.dataset().name)}")
c = report.corpus_summary(wb)
st.markdown(f"**{c['documents']}** documents, **{c['total_words']:,}** words · statuses: "
            f"{widgets.plain(', '.join(wb.corpus.statuses))} · **{c['valid_questions']}** of {c['questions']} golden questions valid")
trust_form.picker("data_trusted")
widgets.golden_table(wb)
tables = tuple(report.TABLE_NAMES) if wb.golden_check.valid else ("verifier_cases",)
first = ("ceiling",) if wb.golden_check.valid else ()    # the ceiling and trap 3 first: a big upload's first
active.prepare_all(active.table_jobs(first) + active.trap3_jobs(active=True))   # figures come before the export's
if wb.golden_check.valid:
    ceil = active.table("ceiling")
    st.markdown("Ceiling (recall@k) · fixed 160/32 · no filter · no rerank: "
                + " · ".join(f"k = {r.k}: **{r.recall:.3f}**" for r in ceil.itertuples()))

engine_form.stored_indexes()        # when the pages search on PostgreSQL: what it holds, and dropping it

# ---- the article's trap 3, side by side, on the active dataset
trap3_view.render()

# ---- export
st.subheader("4 · Export")
upload_view.export(wb, tables)
