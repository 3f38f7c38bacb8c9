"""The golden set studio's state: the set being edited is the active dataset's, every change kept at once.

A change (add, save, delete, rename, start empty, accept suggestions) makes a new dataset: the same documents with
the new rows, under its content key (`datasets.make_dataset`). It becomes the active dataset, so every page (Overview's
ceiling, Compare, Ablations) uses the set from the next run on, its key goes in the link (`data=`), and it is kept in
the store like an upload (`datasets.keep_dataset`), so that a reload or the link opens it again. The bundled files are
never written: a change to a built-in dataset's set makes a new, named dataset of the bundled documents.

Undo steps back through this session's changes (the datasets before them, in the session only); a change made
elsewhere (another dataset chosen on Your data) ends that history.

Left out on purpose: the widgets that pick an anchor and edit a row (ui.studio_form), the suggestions
(ui.studio_suggest), any check of a row (rag_core.data.golden_edit) and any status
(rag_core.evaluation.golden_status).
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

from rag_core.data.golden import GoldenRow
from rag_core.data.golden_csv import accepted_cell
from rag_core.evaluation.golden_status import row_statuses
from ui import active, datasets, export, widgets
from ui.figures import plural

HISTORY = "studio_history"      # session: [(dataset before a change, key after it, what the change was)]
SOURCES = "studio_sources"      # session: (question, doc, anchor) -> where a row came from ("typed", a suggestion's)
NAME = "studio_name"            # session: + the active dataset's key: the name typed, kept by the next change
NOTE = "studio_note"            # session: (kind, sentence) said once on the next run: ("ok" | "error", text)
MARKS = {"valid": "✓ valid", "anchor cut": "✂ anchor cut", "document gone": "✗ document gone",
         "excluded": "✗ excluded"}


def default_name() -> str:
    """The name the next change keeps: the active dataset's, or a new one for a built-in dataset's set."""
    ds = datasets.dataset()
    return ds.name if ds.uploaded else f"My golden set on the {ds.name[0].lower()}{ds.name[1:]}"


def rows() -> tuple:
    """The active dataset's golden rows, in order, as given (valid or not)."""
    return tuple(active.workbench().golden_check.rows)


def documents() -> tuple:
    return tuple(active.workbench().corpus.documents)


def commit(new_rows, what: str, name: str | None = None) -> None:
    """Make the active dataset the same documents with `new_rows` (named `name`, else the name typed in the name
    field, else the current one), keep it in the store, and remember the dataset before it for Undo. `what` is the
    change in words ("add row 3")."""
    before = datasets.dataset()
    name = (name or st.session_state.get(f"{NAME}_{before.key}") or "").strip() or default_name()
    ds = datasets.make_dataset(name, documents(), tuple(new_rows))
    if ds.key == before.key:
        return
    history = _history()
    history.append((before, ds.key, what))
    say("ok", f"Done: {what}. Every page now uses this set of {plural(len(ds.golden), 'question', 'questions')}.")
    _switch_to(ds)


def undo() -> None:
    """Go back to the dataset before the last change of this session (kept, so its link still works)."""
    history = _history()
    if not history:
        return
    before, _, what = history.pop()
    say("ok", f"Undone: {what}.")
    _switch_to(before)


def last_change() -> str | None:
    """What Undo would undo, in words, or None."""
    history = _history()
    return history[-1][2] if history else None


def _history() -> list:
    """This session's changes, forgotten when the active dataset is not the one the last change made."""
    history = st.session_state.setdefault(HISTORY, [])
    if history and history[-1][1] != datasets.dataset().key:
        history.clear()
    return history


def _switch_to(ds) -> None:
    datasets.use_dataset(ds)
    if ds.uploaded:
        problem = datasets.keep_dataset(ds)
        if problem:
            say("error", "The set is in use in this session, but could not be kept for a reload: " + problem)


def say(kind: str, text: str) -> None:
    st.session_state[NOTE] = (kind, text)


def show_note() -> None:
    """The sentence the last change left, once, as plain text."""
    kind, text = st.session_state.pop(NOTE, (None, None))
    if kind == "ok":
        widgets.success(text)
    elif kind == "error":
        widgets.error(text)


def source_of(row: GoldenRow) -> str:
    return st.session_state.get(SOURCES, {}).get(tuple(row[:3]), "")


def set_source(row: GoldenRow, source: str) -> None:
    st.session_state.setdefault(SOURCES, {})[tuple(row[:3])] = source


def status_frame(wb, chunker) -> pd.DataFrame:
    """One line per row, in order: its number, status and why, and the row itself (user text: a table cell is plain)."""
    statuses = row_statuses(wb, chunker)
    return pd.DataFrame({"#": range(1, len(statuses) + 1),
                         "status": [MARKS[s.state] for s in statuses],
                         "question": [r.question for r in wb.golden_check.rows],
                         "doc": [r.doc for r in wb.golden_check.rows],
                         "anchor": [r.anchor for r in wb.golden_check.rows],
                         "answer key": [r.answer for r in wb.golden_check.rows],
                         "reply": [getattr(r, "reply", "") for r in wb.golden_check.rows],
                         "also accepted": [accepted_cell(getattr(r, "accept", ())) for r in wb.golden_check.rows],
                         "source": [source_of(r) for r in wb.golden_check.rows],
                         "why": [s.detail for s in statuses]})


def counts(frame: pd.DataFrame) -> str:
    """'3 rows: 2 valid, 1 anchor cut' from a status_frame."""
    said = frame.status.value_counts()
    parts = [f"{said[m]} {state}" for state, m in MARKS.items() if m in said]
    return plural(len(frame), "row", "rows") + (": " + ", ".join(parts) if parts else "")


def trouble(frame: pd.DataFrame) -> str:
    """Each row that is not plainly valid, one a line: 'Row 1 (✂ anchor cut): Chunk 12 of ...'; "" when none."""
    return "\n".join(f"Row {r['#']} ({r.status}): {r.why}" for _, r in frame.iterrows() if r.why)


def csv_bytes(golden_rows) -> bytes:
    """The set as the upload reads it: question,doc,anchor,answer (always the answer column; empty = the anchor),
    every cell spreadsheet-safe (`export.safe_csv`, which `read_golden_csv` reads back)."""
    return export.safe_csv(export.golden_frame(golden_rows, answer_column=True))
