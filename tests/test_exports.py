"""Exports carry data, never code: CSV cells a spreadsheet would run are guarded, Markdown and HTML show text as
written.

The hostile values below are the ones OWASP lists for CSV injection and the usual Markdown/HTML payloads.
"""
from __future__ import annotations

import csv
import io
import re

import pandas as pd
import pytest

from rag_core.data.corpus import Corpus, Document
from rag_core.data.golden import GoldenRow
from rag_core.data.golden_csv import golden_to_csv, read_golden_csv
from rag_core.evaluation import report
from rag_core.evaluation.workbench import Workbench
from rag_core.text.markdown import plain
from rag_core.text.spreadsheet import FORMULA_START
from ui import export

FORMULAS = ["=HYPERLINK(\"http://evil.example\",\"click\")", "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0",
            "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1"]
HOSTILE = "<img src=x onerror=alert(1)> ![x](http://e.example/p.png) [click](javascript:alert(1)) `code` a|b *b*"


def cells(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))


@pytest.mark.parametrize("value", FORMULAS)
def test_csv_cells_that_start_a_formula_get_a_quote(value):
    df = pd.DataFrame({"question": [value, "plain"], "score": [-0.5, 1.0]})
    rows = cells(export.safe_csv(df))
    assert rows[1] == ["'" + value, "-0.5"]              # numbers stay numbers, even negative ones
    assert rows[2] == ["plain", "1.0"] and len(rows) == 3   # a CR inside a cell does not start a row


def test_csv_column_names_are_guarded_too():
    assert cells(export.safe_csv(pd.DataFrame({"=cmd": [1]})))[0] == ["'=cmd"]


def test_golden_set_exported_safely_reads_back_as_it_was():
    rows = [GoldenRow(q, "doc", "- a bullet anchor") for q in FORMULAS[:4]] + [GoldenRow("'quoted' q", "d", "a"),
                                                                              GoldenRow("a\rb", "d", "c\r=d")]
    for rows in (rows, rows[:-1] + [GoldenRow("q?", "d", "=a b", "=a")]):          # with an answer key too
        data = export.safe_csv(export.golden_frame(rows))
        assert all(not c.startswith(FORMULA_START) for row in cells(data) for c in row)
        back, problems = read_golden_csv(data)
        assert back == rows and problems == []


def test_the_command_line_s_golden_csv_is_guarded_and_reads_back_as_it_was():
    """`golden suggest` writes its CSV with golden_to_csv: an anchor a document starts with "=" or "-" (a bullet)
    must open as text in a spreadsheet (was: written as it stood, a formula), and read back as it was."""
    rows = [GoldenRow(q, "doc", "- a bullet anchor") for q in FORMULAS[:4]] + [GoldenRow("q?", "d", "=a b", "=a"),
                                                                              GoldenRow("a\rb", "d", "c\r=d")]
    text = golden_to_csv(rows)
    assert all(not c.startswith(FORMULA_START) for row in cells(text.encode()) for c in row)
    back, problems = read_golden_csv(text)
    assert back == rows and problems == []


def hostile_workbench() -> Workbench:
    corpus = Corpus((Document("doc", "alpha beta gamma delta"),), name=HOSTILE)
    return Workbench(corpus, [GoldenRow(HOSTILE, "missing", "alpha")])


def assert_inert(markdown: str) -> None:
    """Nothing left that Markdown or HTML acts on, once escaped characters and code spans are taken out."""
    rest = re.sub(r"(`+).*?\1", "", re.sub(r"\\.", "", markdown))
    assert not re.search(r"[<>\[\]*`!_]", rest), rest


def test_markdown_report_shows_the_name_and_questions_as_written():
    md = report.to_markdown(hostile_workbench(), {})
    assert_inert(md)
    assert md.startswith("# Open Book report: \\<img src=x onerror=alert(1)\\> \\!\\[x\\](`http://e.example/p.png)`")
    assert "- excluded: '\\<img src=x" in md


def test_markdown_table_cells_and_headers_are_inert():
    table = report.markdown_table(pd.DataFrame({"<b>q</b>": [HOSTILE, "line\nbreak"], "v": [0.5, None]}))
    assert_inert(table)
    lines = table.splitlines()
    assert lines[0] == "| \\<b\\>q\\</b\\> | v |" and len(lines) == 4        # one row a line: the break is a space
    assert lines[2].count(" | ") == 1                                           # '|' in a cell does not split it
    assert lines[3] == "| line break |  |"


def test_markdown_links_in_text_are_code_not_links():
    assert plain("see www.evil.example and https://x.example/a|b.", one_line=True) == \
        "see `www.evil.example` and `https://x.example/a\\|b`."


def test_html_report_still_escapes_everything():
    page = export.report_html(hostile_workbench(), {})
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page


def test_markdown_keeps_snake_case_names_readable_and_escapes_other_underscores():
    assert plain("recall_at_k _i_ __b__ a__b", one_line=True) == "recall_at_k \\_i\\_ \\_\\_b\\_\\_ a\\_\\_b"
    assert report.markdown_table(pd.DataFrame({"recall_at_1": [0.5]})).splitlines()[0] == "| recall_at_1 |"


@pytest.mark.parametrize("value", ["'-'", "'=1+1 is the text", "''+x", "'@home", "'", "''", "'x", "'\t=1"])
def test_a_text_that_starts_with_quotes_before_a_formula_reads_back_whole(value):
    """The guard put one ' before "=x" and the reader took one off, but a text already written "'-'" (an answer key
    naming the minus sign) lost its own quote on the way back (attack pass: 12 of 105 cells)."""
    rows = [GoldenRow("q?", "doc", value.strip() or "anchor x", value.strip() or "anchor x")]
    for data in (export.safe_csv(export.golden_frame(rows)), golden_to_csv(rows).encode()):
        assert all(not c.lstrip("'").startswith(FORMULA_START) or c.startswith("'") for row in cells(data) for c in row)
        back, problems = read_golden_csv(data)
        assert back == rows and problems == [], (value, data)
