"""Your data under AppTest: bad uploads and bad settings are readable sentences on the page, never a crash.

Each test uploads through the page's own file uploader (found by key) and reads what the page shows.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ui import navigation

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = next(p.script for p in navigation.PAGES if Path(p.script).stem == "your_data")


def your_data() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.switch_page(SCRIPT).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def upload(at: AppTest, *files: tuple[str, bytes]) -> AppTest:
    at.file_uploader(key="data_files").set_value([(n, b, "application/octet-stream") for n, b in files]).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def downloads(at: AppTest) -> dict[str, object]:
    return {d.proto.id.rsplit("-", 1)[-1]: d for d in at.get("download_button")}


def plain(text: str) -> str:
    """What a warning says, without the backslashes that keep it plain text."""
    return text.replace("\\", "")


@pytest.mark.parametrize("lines", [20_000, 200_000])
def test_many_bad_jsonl_lines_are_one_grouped_warning_and_a_download(lines):
    at = your_data()
    started = time.perf_counter()
    upload(at, ("data.jsonl", b"x\n" * lines), ("good.txt", b"A valid note."))
    seconds = time.perf_counter() - started
    warnings = [plain(w.value) for w in at.warning]
    assert len(warnings) == 1, warnings[:3]
    assert warnings[0].startswith("data.jsonl line 1: not valid JSON (Expecting value); skipped. "
                                  f"Same kind of problem on {lines:,} lines in all, the first 5: "
                                  "data.jsonl lines 1, 2, 3, 4, 5")
    assert at.dataframe[0].value["id"].tolist() == ["good.txt"]          # the good file is kept
    assert "Every reading problem, one a line (text)" in [d.proto.label for d in at.get("download_button")]
    print(f"{lines:,} bad lines: {seconds:.2f} s on the page")
    assert seconds < 60                                                   # before: 42 s for 20,000, never for 200,000


@pytest.mark.parametrize("value, says", [
    ("abc", "OPENBOOK_MAX_FILE_MB='abc' is not a number: set it to a number of megabytes, e.g. 20"),
    ("0.0000001", "OPENBOOK_MAX_FILE_MB='0.0000001' is below the smallest allowed, 0.000001 (one byte)"),
])
def test_a_bad_size_setting_is_one_sentence_on_the_page(monkeypatch, value, says):
    monkeypatch.setenv("OPENBOOK_MAX_FILE_MB", value)
    at = upload(your_data(), ("good.txt", b"A valid note."))
    (error,) = [plain(e.value) for e in at.error]
    assert error.startswith("Your files are not read: " + says)
    at.file_uploader(key="data_golden").set_value(("golden.csv", b"question,doc,anchor\nq,good.txt,valid\n",
                                                   "text/csv")).run()
    assert not at.exception
    assert any(plain(e.value).startswith("Your golden set is not read: " + says) for e in at.error)


def test_statuses_and_ids_that_would_break_links_or_postgres_cost_their_line_only():
    rows = [{"id": "ok", "text": "kept"}, {"id": "nul\u0000id", "text": "t"},
            {"id": "s1", "text": "t", "status": "a,b"}, {"id": "s2", "text": "t", "status": "a|b"},
            {"id": "s3", "text": "t", "status": "dr\u0000aft"}, {"id": "esc\u001b[31m", "text": "t"}]
    at = upload(your_data(), ("data.jsonl", "\n".join(json.dumps(r) for r in rows).encode()))
    assert at.dataframe[0].value["id"].tolist() == ["ok"]
    warnings = [plain(w.value) for w in at.warning]
    assert len(warnings) == 5
    assert warnings[0].startswith(plain("data.jsonl line 2: skipped: the id 'nul\\x00id' holds a control character"))
    assert warnings[1].startswith("data.jsonl line 3: skipped: the status 'a,b' holds ',', which links and "
                                  "Compare's setups use to separate statuses: write it without | and , (e.g. 'a-b')")


def test_a_default_status_with_a_separator_is_refused_with_a_reason():
    at = your_data()
    at.text_input(key="data_status").set_value("draft, old").run()
    at = upload(at, ("good.txt", b"A valid note."))
    (error,) = [plain(e.value) for e in at.error]
    assert error.startswith("Your files are not read: the status 'draft, old' holds ','")


def test_the_first_ceiling_is_encoded_before_the_export_s_other_tables(monkeypatch):
    """A big upload with MiniLM waits for what it encodes: Your data encodes the ceiling's chunker (and trap 3) first
    and shows that line, then every other table's chunkers for the export (was one pass of all: the Python docs,
    118,000 chunks and over 20 minutes before any figure, against 171 s now; benchmarks/bench_upload_browser.py)."""
    from rag_core.evaluation import tables
    from ui import active
    passes = []
    real = active.prepare_all

    def recording(jobs):
        passes.append({c for _, chunkers in jobs for c in chunkers})
        real(jobs)
    monkeypatch.setattr(active, "prepare_all", recording)
    your_data()
    ceiling = set(tables.chunkers_of("ceiling"))
    every = {c for n in tables.TABLES for c in tables.chunkers_of(n)}
    assert len(every) > len(ceiling)                  # else this test would prove nothing
    assert passes[0] == ceiling, passes               # the first pass: the ceiling's chunker only
    assert set().union(*passes) >= every              # then what the export holds
