"""The pieces of the Your data page: the reading problems, the documents table before use, the edited rows
checked, and the export.

    edited = documents_table(result)                                   # None when nothing was read
    pending = checked_documents(edited, result, golden_rows)           # the rows that can be used, as documents
    export(wb, tables)                                                 # the downloads of the active dataset

Left out on purpose: reading files (ui.reading, rag_core.data.ingest) and which dataset is active (ui.datasets).
"""
import pandas as pd
import streamlit as st

from rag_core import Document
from rag_core.data.corpus import label_problem
from rag_core.data.golden import as_row, golden_problems
from rag_core.data.ingest import Limits, documents_to_jsonl
from rag_core.evaluation import report
from rag_core.text.messages import shorten
from ui import active, charts, export as files, widgets

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


def documents_table(result):
    """The documents read, in a table whose ids and statuses can be edited before they are used; None when none."""
    if result is None or not result.documents:
        return None
    table = pd.DataFrame({"id": [d.id for d in result.documents], "status": [d.status for d in result.documents],
                          "words": [len(d.text.split()) for d in result.documents],
                          "begins with": [" ".join(d.text.split()[:12]) + " …" for d in result.documents]})
    st.caption(f"{len(table)} document(s) read. Edit an id or a status in the table before using them.")
    return st.data_editor(table, key="data_editor", hide_index=True, width="stretch", disabled=["words", "begins with"],
                          column_config={"id": st.column_config.TextColumn(required=True),
                                         "status": st.column_config.TextColumn(required=True)})


def checked_documents(edited, result, golden_rows) -> list:
    """The edited rows as documents: a row whose id or status cannot be used is left out with a warning (it costs
    only itself); a note when no document is 'current'; the golden set checked against them, before they are used."""
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
        bad = golden_problems([as_row(r) for r in golden_rows], pending)
        st.caption(f"Against these documents: {len(golden_rows) - len(bad)} of {len(golden_rows)} golden "
                   "question(s) valid.")
        if bad:
            st.warning(f"{len(bad)} golden question(s) would be excluded:\n\n" + widgets.problems(bad))  # one a line
    return pending


def export(wb, tables) -> None:
    """The export: every table the files hold made first (with MiniLM, most of a big upload's wait), then the report
    (HTML, Markdown), the documents (JSONL), the golden set (CSV) and each chart (PNG, SVG)."""
    active.prepare_all(active.table_jobs(tables))
    frames = {name: active.latency() if name == "latency" else active.table(name) for name in tables}   # latency: the
    # same 5-pass measurement the Ablations page shows, not a second one
    e = st.columns(4)
    widgets.download(e[0], "Report (HTML, with charts)", lambda: files.report_html(wb, frames), "open-book-report.html",
                     "text/html", key="data_dl_html", icon=":material/description:")
    widgets.download(e[1], "Report (Markdown)", lambda: report.to_markdown(wb, frames), "open-book-report.md",
                     "text/markdown", key="data_dl_md", icon=":material/description:")
    widgets.download(e[2], "Documents (JSONL)", lambda: documents_to_jsonl(wb.corpus.documents), "documents.jsonl",
                     "application/jsonl", key="data_dl_jsonl", icon=":material/download:")
    widgets.download(e[3], "Golden set (CSV)", lambda: files.safe_csv(files.golden_frame(wb.golden_check.rows)),
                     "golden.csv", "text/csv", key="data_dl_golden", icon=":material/download:")
    drawn = charts.for_tables(frames)
    if drawn:
        st.markdown("Charts, one file each:")
        cols = st.columns(4)
        for i, (name, (chart, _)) in enumerate(drawn.items()):
            with cols[i % 4]:
                widgets.download(st, f"{name}.png", lambda c=chart: files.chart_png(c), f"{name}.png", "image/png",
                                 key=f"data_dl_png_{name}")
                widgets.download(st, f"{name}.svg", lambda c=chart: files.chart_svg(c), f"{name}.svg", "image/svg+xml",
                                 key=f"data_dl_svg_{name}")
