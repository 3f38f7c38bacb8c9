"""`python -m rag_core judge`: the bundled examples judged, bad lines one note each and skipped, nothing to judge
one error line and exit 2, and a model judge through the fake server (tests/fake_llm_server.py)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from fake_llm_server import start_server, stop_server
from rag_core.__main__ import main
from rag_core.data.corpus import bundled_corpus
from rag_core.data.golden import load_golden
from rag_core.evaluation.cases import SpanSources, read_cases
from rag_core.evaluation.judges import judge_cases

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = ROOT / "rag_core" / "data" / "labelled_answers.jsonl"


def judged(capsys, *args) -> tuple[int, dict, str]:
    code = main(["judge", *args, "--format", "json"])
    out = capsys.readouterr()
    return code, (json.loads(out.out) if out.out else {}), out.err


def test_the_bundled_examples_as_the_library_judges_them(capsys):
    code, doc, err = judged(capsys, "--cases", str(BUNDLED))
    assert code == 0 and err == ""
    cases, _ = read_cases(BUNDLED.read_text())
    want = judge_cases(cases, SpanSources(bundled_corpus().documents, load_golden() + load_golden("user")))
    assert doc["cases"] == 217 and doc["rule"] == want.rule._asdict() and sum(doc["rule"].values()) == 217
    assert set(doc["rule"]) == {"right_green", "right_not_green", "wrong_green", "wrong_not_green",
                                "wrong_called_wrong"}
    assert doc["model"] is None and doc["kappa"] is None
    assert [d["line"] for d in doc["disagreements"]] == [r.case.line for r in want.rows if r.rule_disagrees]
    assert doc["precision_when_green"]["rule"] == round(want.rule.precision_when_green, 4)


def test_bad_lines_are_one_note_each_and_the_rest_is_judged(capsys, tmp_path):
    lines = BUNDLED.read_text().splitlines()[:3]
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join([lines[0], "{oops", lines[1], '{"spans": ["a"], "answer": "a", "anchor": "a", '
                               '"label": "yes"}', "", "[]", lines[2]]) + "\n")
    code, doc, err = judged(capsys, "--cases", str(path))
    assert code == 0 and doc["cases"] == 3
    notes = err.splitlines()
    assert [n.split(":")[1].strip() for n in notes] == ["line 2", "line 4", "line 6"]
    assert all(n.startswith("note: line ") and n.endswith("skipped.") for n in notes)


@pytest.mark.parametrize("content", ["", "\n\n", "nope\n[1]\n"])
def test_nothing_to_judge_is_one_error_line_and_exit_2(capsys, tmp_path, content):
    path = tmp_path / "cases.jsonl"
    path.write_text(content)
    code, doc, err = judged(capsys, "--cases", str(path))
    assert code == 2 and doc == {}
    assert err.splitlines()[-1].startswith("error: no case to judge")
    assert len([ln for ln in err.splitlines() if ln.startswith("error:")]) == 1


def test_bad_calls_are_one_line_and_exit_2(capsys, tmp_path):
    assert main(["judge"]) == 2
    assert main(["judge", "--cases", str(tmp_path / "missing.jsonl")]) == 2
    assert main(["judge", "--cases", str(BUNDLED), "--generator", "ollama"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and all(e.startswith("error: ") for e in err)
    assert "--llm-url and --model" in err[2]


@pytest.fixture(scope="module")
def fake():
    server, url = start_server()
    yield url
    stop_server(server)


def test_a_model_judges_beside_the_rule(capsys, tmp_path, fake):
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(BUNDLED.read_text().splitlines()[:12]) + "\n")
    code, doc, err = judged(capsys, "--cases", str(path), "--generator", "openai", "--llm-url", fake,
                            "--model", "qwen2.5:7b")
    assert code == 0 and err == ""
    assert sum(doc["model"].values()) == 12 and doc["model_no_verdict"] == 0
    assert doc["kappa"]["n"] == 12 and -1 <= doc["kappa"]["value"] <= 1
    assert doc["rule"] == judged(capsys, "--cases", str(path))[1]["rule"]      # the model never changes the rule


def test_a_model_that_gives_no_verdict_counts_as_not_green(capsys, tmp_path, fake):
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(BUNDLED.read_text().splitlines()[:4]) + "\n")
    code, doc, _ = judged(capsys, "--cases", str(path), "--generator", "ollama", "--llm-url", fake,
                          "--model", "fixed:I would rather not say.")
    labels = [json.loads(ln)["label"] for ln in path.read_text().splitlines()]
    assert code == 0 and doc["model_no_verdict"] == 4
    assert doc["model"] == {"right_green": 0, "right_not_green": labels.count("right"), "wrong_green": 0,
                            "wrong_not_green": labels.count("wrong"), "wrong_called_wrong": 0}


def test_text_output_from_a_real_process_reading_stdin():
    got = subprocess.run([sys.executable, "-m", "rag_core", "judge", "--cases", "-"], input=BUNDLED.read_bytes(),
                         capture_output=True, cwd=ROOT, timeout=120)
    out = got.stdout.decode()
    assert got.returncode == 0 and out.startswith("217 labelled cases\nrule: right_green ")
    assert "precision when green" in out and got.stderr == b""
