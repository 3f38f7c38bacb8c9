"""Editing a golden set row by row: add, replace and delete, each refused with the reason `check_golden` would give.

    rows = add_row((), GoldenRow("Default cutoff?", "difflib", "Optional arg cutoff (default 0.6)", "0.6"), docs)
    rows = replace_row(rows, 0, rows[0]._replace(question="What is the default cutoff?"), docs)
    rows = delete_row(rows, 0)                               # -> ()
    words_span("Optional arg cutoff (default 0.6)", 3, 4)    # -> "(default 0.6)"

A row is added only when it would be valid: its question searchable and asked once, its document there, its anchor
in that document and its answer key inside the anchor (`golden.golden_problems`, the checks of every upload). The
rows already there are kept as they are, valid or not: a set read from a CSV may hold rows whose document is gone,
and they stay visible until someone deletes them.

Left out on purpose: keeping the sets (the store keeps them with their documents) and where a row came from.
"""
from __future__ import annotations

from rag_core.data.golden import GoldenRow, golden_problems


def row_problem(rows, row: GoldenRow, documents) -> str:
    """Why `row` cannot join `rows` (the reason `check_golden` would exclude it with), or "" when it can.

    documents: a Corpus or Documents. An earlier row asking the same question (case and spaces aside) refuses it.
    """
    if not isinstance(row, GoldenRow):
        raise ValueError(f"Expected a GoldenRow(question, doc, anchor, answer), got {type(row).__name__}.")
    rows = tuple(rows) + (row,)
    reasons = {p.row: p.reason for p in golden_problems(rows, documents)}
    if len(rows) - 1 in reasons:
        return reasons[len(rows) - 1]
    return ""


def add_row(rows, row: GoldenRow, documents) -> tuple:
    """The rows with `row` added at the end; ValueError with the reason when it would not count."""
    row = _tidy(row)
    problem = row_problem(rows, row, documents)
    if problem:
        raise ValueError(problem)
    return tuple(rows) + (row,)


def replace_row(rows, i: int, row: GoldenRow, documents) -> tuple:
    """The rows with row i replaced by `row` (same place); ValueError with the reason when it would not count."""
    rows = tuple(rows)
    _place(rows, i)
    row = _tidy(row)
    problem = row_problem(rows[:i] + rows[i + 1:], row, documents)
    if problem:
        raise ValueError(problem)
    return rows[:i] + (row,) + rows[i + 1:]


def delete_row(rows, i: int) -> tuple:
    """The rows without row i."""
    rows = tuple(rows)
    _place(rows, i)
    return rows[:i] + rows[i + 1:]


def words_span(text: str, first: int, last: int) -> str:
    """Words first..last (0-based, both included) of a text, single-spaced: a literal piece of it once whitespace
    is collapsed, as anchors are compared. "a  b\\nc d", 1, 2 -> "b c"."""
    tokens = text.split()
    if not 0 <= first <= last < len(tokens):
        raise ValueError(f"Words {first}..{last} are not in a text of {len(tokens)} words: choose 0 <= first <= last "
                         f"< {len(tokens)}.")
    return " ".join(tokens[first:last + 1])


def _tidy(row: GoldenRow) -> GoldenRow:
    """Question, anchor and key with their outer spaces removed, the anchor single-spaced (as compared)."""
    text = [v.strip() if isinstance(v, str) else v for v in row]
    if isinstance(text[2], str):
        text[2] = " ".join(text[2].split())
    return GoldenRow(*text)


def _place(rows: tuple, i: int) -> None:
    if not isinstance(i, int) or not 0 <= i < len(rows):
        raise ValueError(f"There is no row {i!r}: the set has {len(rows)} row(s), numbered from 0.")
