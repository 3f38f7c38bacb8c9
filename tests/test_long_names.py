"""A user-given name is cut in every message that repeats it (rag_core.text.messages.shorten): a zip member named with
65,000 characters is one short note on the command line and on the Your data page's reading, not 65,000
characters; golden rows, statuses, setups and paths the same. The browser's note: tests/test_e2e_markdown_escaper.py."""
from __future__ import annotations

import subprocess
import sys

import pytest

from rag_core.data.corpus import Document, label_problem
from rag_core.data.golden import GoldenRow
from rag_core.data.ingest import read_files
from rag_core.evaluation.setup import parse_setup
from rag_core.evaluation.workbench import Workbench
from rag_core.data.corpus import Corpus
from rag_core.text.messages import shorten
from hostile_zips import LONG, long_zip

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("limit", [40, 60, 80])
def test_shorten_keeps_short_names_and_cuts_long_ones_saying_how_long(limit):
    assert shorten("notes.txt", limit) == "notes.txt"
    assert shorten("x" * limit, limit) == "x" * limit
    cut = shorten(LONG + ".txt", limit)
    assert len(cut) == limit and cut.endswith("(65,004 characters)") and "…" in cut and "a.txt" in cut
    assert shorten("two\nlines") == "two\nlines"                   # a message's repr shows the break


def test_an_upload_with_65000_character_names_gives_short_notes():
    result = read_files([("long.zip", long_zip()), (LONG + ".txt", b"")])       # an empty file named at length
    assert [d.id for d in result.documents] == ["ok.txt"]
    assert len(result.problems) == 4 and all(len(p) < 300 for p in result.problems), [len(p) for p in result.problems]
    assert all(len(p) < 300 for p in result.all_problems)


def test_the_command_line_says_each_long_name_in_one_short_line(tmp_path):
    docs = tmp_path / "long.zip"
    docs.write_bytes(long_zip())
    out = subprocess.run([sys.executable, "-m", "rag_core", "report", "--docs", str(docs), "--tables", "verifier_cases"],
                         capture_output=True, text=True, timeout=120, cwd=str(ROOT))
    lines = out.stderr.splitlines()
    assert out.returncode == 0, out.stderr[-500:]
    assert len([line for line in lines if line.startswith("note: ")]) == 3, [line[:100] for line in lines]
    assert all(len(line) < 300 for line in lines), [len(line) for line in lines]


def test_library_messages_cut_the_names_they_repeat():
    assert len(label_problem(LONG, "id")) < 200
    assert len(label_problem("x\x00" + LONG)) < 250 and len(label_problem("a,b" + LONG)) < 400
    with pytest.raises(ValueError) as e:
        Corpus((Document("d", "some words"), Document("d", "more words")))
    with pytest.raises(ValueError) as e:
        parse_setup(LONG + ": size=x")
    assert len(str(e.value)) < 300
    wb = Workbench(Corpus((Document("doc", "alpha beta gamma"),)), [GoldenRow("What is alpha?", LONG, "alpha")])
    assert len(wb.golden_check.problems) == 1 and len(wb.golden_check.problems[0].reason) < 300, wb.golden_check.problems
