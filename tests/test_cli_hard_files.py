"""The command line on hard files: --docs and --golden refuse devices and pipes in one line, and a file of many bad
lines gives one `note:` per kind of problem, not one per line.

Every run is a child process with a 2 GB address space and a time limit: a regression fails the test instead of
filling the machine's memory or hanging the suite.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def report(*args, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(["prlimit", "--as=2000000000", sys.executable, "-m", "rag_core", "report",
                           "--tables", "verifier_cases", *map(str, args)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT, env={**os.environ, **(env or {})})


def notes(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.txt").write_text("One two three. Four five six.", encoding="utf-8")
    return folder


def test_twenty_thousand_bad_lines_are_one_note(tmp_path):
    folder = notes(tmp_path)
    (folder / "data.jsonl").write_bytes(b"x\n" * 20_000)
    done = report("--docs", folder)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stderr.splitlines() == [
        "note: data.jsonl line 1: not valid JSON (Expecting value); skipped. Same kind of problem on 20,000 lines in "
        "all, the first 5: data.jsonl lines 1, 2, 3, 4, 5, …"]


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/full"])
@pytest.mark.parametrize("option", ["--docs", "--golden"])
def test_a_device_is_one_line_and_exit_2(tmp_path, option, device):
    args = ["--docs", device] if option == "--docs" else ["--docs", notes(tmp_path), "--golden", device]
    done = report(*args)
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"error: '{device}' is a character device")


@pytest.mark.parametrize("option", ["--docs", "--golden"])
def test_a_named_pipe_is_one_line_and_exit_2_without_waiting(tmp_path, option):
    os.mkfifo(tmp_path / "pipe")
    pipe = tmp_path / "pipe"
    args = ["--docs", pipe] if option == "--docs" else ["--docs", notes(tmp_path), "--golden", pipe]
    done = report(*args)
    assert done.returncode == 2
    assert done.stderr == f"error: '{tmp_path / 'pipe'}' is a named pipe (FIFO), not " + \
        ("a file or a folder: give the path of a folder, a file or a zip.\n" if option == "--docs" else
         "a regular file: give the path of a CSV file with the header 'question,doc,anchor'.\n")


def test_the_golden_file_is_read_with_the_upload_limits(tmp_path):
    golden = tmp_path / "golden.csv"
    golden.write_text("question,doc,anchor\n" + "What follows one?,a.txt,two three\n" * 100, encoding="utf-8")
    done = report("--docs", notes(tmp_path), "--golden", golden, env={"OPENBOOK_MAX_FILE_MB": "0.001"})
    assert "note: golden.csv is over the 1 KB limit for one file; skipped." in done.stderr
