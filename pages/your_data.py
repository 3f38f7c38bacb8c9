"""Your data: choose the dataset every page works on, upload your documents and golden set, export."""
import pandas as pd
import streamlit as st

from rag_core import Document
from rag_core.evaluation import report
from rag_core.data.corpus import Corpus, label_problem
from rag_core.data.golden import GoldenRow, golden_problems
from rag_core.data.golden_csv import GOLDEN_HEADER
from rag_core.data.ingest import Limits, documents_to_jsonl
from rag_core.text.messages import shorten
from ui import (active, cache, charts, datasets, engine_form, export, frame, reading, saved, trap3_view, trust_form,
                widgets)

frame.ensure(__file__)          # a first request that runs this page without app.py draws the frame here
SHOWN_PROBLEMS = 20             # reading problems drawn as warnings; all of them are in a download


def limits_problem() -> str | None:
    """Why the upload limits set in the environment cannot be used (OPENBOOK_MAX_FILE_MB=abc), or None."""
    try:
        Limits.from_env()
    except ValueError as e:
        return str(e)
    return None


def show_problems(problems: tuple, everything: tuple, key: str) -> None:
    """Each reading problem (a kind met often is one grouped sentence), and the full list as a download."""
    for p in problems[:SHOWN_PROBLEMS]:
        widgets.warn(p)
    if len(everything) > min(len(problems), SHOWN_PROBLEMS):
        widgets.download(st, "Every reading problem, one a line (text)",
                         "\n".join(everything) + "\n", "reading-problems.txt", "text/plain", key=key,
                         icon=":material/download:")


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
cannot_read = limits_problem() or label_problem(default_status)
if files and cannot_read:
    widgets.error(f"Your files are not read: {cannot_read}")
result = reading.read_uploads(tuple((f.name, f.getvalue()) for f in files), default_status) \
    if files and not cannot_read else None
if result is not None:
    show_problems(result.problems, result.all_problems, "data_dl_problems")
edited = None
if result is not None and result.documents:
    table = pd.DataFrame({"id": [d.id for d in result.documents], "status": [d.status for d in result.documents],
                          "words": [len(d.text.split()) for d in result.documents],
                          "begins with": [" ".join(d.text.split()[:12]) + " …" for d in result.documents]})
    st.caption(f"{len(table)} document(s) read. Edit an id or a status in the table before using them.")
    edited = st.data_editor(table, key="data_editor", hide_index=True, width="stretch",
                            disabled=["words", "begins with"],
                            column_config={"id": st.column_config.TextColumn(required=True),
                                           "status": st.column_config.TextColumn(required=True)})

# ---- upload a golden set
st.subheader("2 · Golden set (optional)")
st.markdown(f"A CSV with the header `{GOLDEN_HEADER}`: the question, the id of the document that answers it, and "
            "the **anchor** — a sentence copied literally from that document. Without one, you can browse and ask, "
            "but there is no ceiling to measure.")
golden_file = st.file_uploader("Golden set", type=["csv"], key="data_golden")
golden_rows = []
if golden_file is not None and limits_problem():
    widgets.error(f"Your golden set is not read: {limits_problem()}")
elif golden_file is not None:
    golden_rows, reading_problems = cache.read_golden(golden_file.getvalue(), golden_file.name)
    show_problems(reading_problems, reading_problems, "data_dl_golden_problems")
    st.caption(f"{len(golden_rows)} question(s) read.")

# ---- the golden set against the documents, before they are used
pending = None
if edited is not None:
    pending = []
    for n, (r, d) in enumerate(zip(edited.itertuples(), result.documents), 1):   # a bad row costs only itself
        doc_id, status = str(r.id).strip(), str(r.status).strip()
        refused = label_problem(doc_id, "id") or label_problem(status, "status")
        if refused:
            widgets.warn(f"Row {n} ({shorten(d.id)}) is left out until you change it: {refused}")
        else:
            pending.append(Document(doc_id, d.text, status))
    if pending and not any(d.status == "current" for d in pending):
        st.info("None of these documents has the status 'current', so nothing will be trusted until you choose which "
                "statuses are (Trusted statuses, below once they are used, and in the sidebar): until then no answer "
                "is green and the status filter keeps nothing.")
    if golden_rows:
        bad = golden_problems([GoldenRow(*r) for r in golden_rows], pending)
        st.caption(f"Against these documents: {len(golden_rows) - len(bad)} of {len(golden_rows)} golden "
                   "question(s) valid.")
        if bad:
            st.warning(f"{len(bad)} golden question(s) would be excluded:\n\n" + widgets.problems(bad))  # one a line

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
        ds = datasets.make_dataset(name.strip() or "My documents", docs, [GoldenRow(*r) for r in golden_rows])
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
tables = tuple(report.TABLE_NAMES) if wb.check.valid else ("verifier_cases",)
first = ("ceiling",) if wb.check.valid else ()     # the ceiling and trap 3 first: a big upload's first figures come
active.prepare_all(active.table_jobs(first) + active.trap3_jobs(active=True))   # before the export's other tables
if wb.check.valid:
    ceil = active.table("ceiling")
    st.markdown("Ceiling (recall@k) · fixed 160/32 · no filter · no rerank: "
                + " · ".join(f"k = {r.k}: **{r.ceiling:.3f}**" for r in ceil.itertuples()))

engine_form.stored_indexes()        # when the pages search on PostgreSQL: what it holds, and dropping it

# ---- the article's trap 3, side by side, on the active dataset
trap3_view.render()

# ---- export
st.subheader("4 · Export")
active.prepare_all(active.table_jobs(tables))     # every table the files hold (with MiniLM, most of a big upload's wait)
frames = {name: active.latency() if name == "latency" else active.table(name) for name in tables}   # latency: the
# same 5-pass measurement the Ablations page shows, not a second one
e = st.columns(4)
widgets.download(e[0], "Report (HTML, with charts)", lambda: export.report_html(wb, frames), "open-book-report.html",
                 "text/html", key="data_dl_html", icon=":material/description:")
widgets.download(e[1], "Report (Markdown)", lambda: report.to_markdown(wb, frames), "open-book-report.md",
                 "text/markdown", key="data_dl_md", icon=":material/description:")
widgets.download(e[2], "Documents (JSONL)", lambda: documents_to_jsonl(wb.corpus.documents), "documents.jsonl",
                 "application/jsonl", key="data_dl_jsonl", icon=":material/download:")
widgets.download(e[3], "Golden set (CSV)", lambda: export.safe_csv(export.golden_frame(wb.check.rows)), "golden.csv",
                 "text/csv",
                 key="data_dl_golden", icon=":material/download:")
drawn = charts.for_tables(frames)
if drawn:
    st.markdown("Charts, one file each:")
    cols = st.columns(4)
    for i, (name, (chart, _)) in enumerate(drawn.items()):
        with cols[i % 4]:
            widgets.download(st, f"{name}.png", lambda c=chart: export.chart_png(c), f"{name}.png", "image/png",
                             key=f"data_dl_png_{name}")
            widgets.download(st, f"{name}.svg", lambda c=chart: export.chart_svg(c), f"{name}.svg", "image/svg+xml",
                             key=f"data_dl_svg_{name}")
