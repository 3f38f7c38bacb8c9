"""`python -m rag_core report`: the JSON schema, the values (equal to the tables, hence to the reference), errors."""
import json
import math
import re
import subprocess
import sys

import pytest

from rag_core import Workbench, tables
from rag_core.__main__ import main
from rag_core.report import TABLE_NAMES

from test_reference import OUT


def run_json(capsys, *args) -> dict:
    assert main(["report", "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_has_every_table_with_the_documented_columns(capsys, wb):
    doc = run_json(capsys, "--tables", ",".join(n for n in TABLE_NAMES if n != "latency"))
    assert set(doc) == {"corpus", "tables"}
    assert doc["corpus"]["documents"] == 28 and doc["corpus"]["excluded_questions"] == 0
    for name, rows in doc["tables"].items():
        frame = tables.TABLES[name](wb)
        assert [list(r) for r in rows] == [list(frame.columns)] * len(frame), name
        for got, want in zip(rows, frame.to_dict("records")):
            for col, v in want.items():
                if isinstance(v, float):
                    assert math.isclose(got[col], v), (name, col)
                else:
                    assert got[col] == (v.item() if hasattr(v, "item") else v), (name, col)


def test_json_ceiling_equals_the_reference_output(capsys):
    doc = run_json(capsys, "--tables", "ceiling")
    printed = {int(k): float(v) for line in OUT if line.startswith("k=")
               for k, v in re.findall(r"k=\s*(\d+)\s+ceiling = ([\d.]+)", line)}
    assert {r["k"]: round(r["ceiling"], 3) for r in doc["tables"]["ceiling"]} == printed


def test_markdown_report(capsys):
    assert main(["report", "--tables", "filter,pipeline"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Open Book report") and "## filter" in out and "| status = current |" in out


def test_docs_and_golden_from_files(capsys, tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("The launch code for the rocket is 7741.\n\nNothing else here.")
    (tmp_path / "g.csv").write_text("question,doc,anchor\nWhat is the launch code?,a.txt,code for the rocket is 7741\n"
                                    "Nope?,b.txt,x\n")
    doc = run_json(capsys, "--docs", str(tmp_path / "notes"), "--golden", str(tmp_path / "g.csv"), "--tables", "ceiling")
    assert doc["corpus"]["valid_questions"] == 1 and doc["corpus"]["excluded"][0]["reason"].startswith("Unknown document")
    assert doc["tables"]["ceiling"][0]["ceiling"] == 1.0


@pytest.mark.parametrize("args, words", [
    (["--tables", "nope"], "Unknown table 'nope'"),
    (["--corpus", "stdlib", "--modules", "nosuchmodule"], "cannot be imported"),
    (["--golden", "x.csv"], "--golden goes with --docs"),
    (["--docs", "/nonexistent/folder"], "/nonexistent/folder"),
    (["--generator", "ollama"], "needs --llm-url and --model"),
])
def test_errors_are_one_line_and_exit_2(capsys, args, words):
    assert main(["report", *args]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and err.count("\n") == 1


def test_runs_as_a_module():
    out = subprocess.run([sys.executable, "-m", "rag_core", "report", "--format", "json", "--tables", "filter"],
                         capture_output=True, text=True, timeout=120, cwd=str(__import__("pathlib").Path(__file__).parents[1]))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["tables"]["filter"][1]["contradicted_top_3"] == 0
