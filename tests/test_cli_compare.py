"""`python -m rag_core compare`: the documented JSON, the same values as the library, a real model through a
local server, saved runs, and every bad call as one line and exit 2."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rag_core.__main__ import main
from rag_core.evaluation.compare import compare_setups
from rag_core.evaluation.losses import STAGES
from rag_core.evaluation.setup import default_setup, parse_setup
from rag_core.store import Store

from fake_llm_server import start_server, stop_server

ROOT = Path(__file__).resolve().parents[1]
TWO = ["--setup", "filter:", "--setup", "no filter: statuses=all"]


def run_json(capsys, *args) -> dict:
    assert main(["compare", "--format", "json", *args]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_json_schema(capsys):
    doc = run_json(capsys, *TWO, "--k", "1,3")
    assert set(doc) == {"setups", "pairs", "questions"}
    assert [s["name"] for s in doc["setups"]] == ["filter", "no filter"]
    for s in doc["setups"]:
        assert [set(r) for r in s["recall"]] == [{"k", "recall", "ci_low", "ci_high", "hits", "questions"}] * 2
        assert list(s["losses"]) == list(STAGES) and sum(s["losses"].values()) == 18
        assert set(s["outcomes"]) == {"answered", "wrong answer", "not confirmed", "wrong source", "refused",
                                      "abstained"}
    assert [(p["a"], p["b"], p["k"]) for p in doc["pairs"]] == [("filter", "no filter", 1), ("filter", "no filter", 3)]
    assert {"a", "b", "k", "a_only", "b_only", "both", "neither", "p_value"} <= set(doc["pairs"][0])
    assert len(doc["questions"]) == 18
    assert set(doc["questions"][0]["setups"]["filter"]) >= {"first_rank", "stage"}


def test_values_are_the_library_s(capsys, wb):
    doc = run_json(capsys, *TWO)
    base = default_setup(wb)
    want = json.loads(compare_setups(wb, [parse_setup("filter:", base), parse_setup("no filter: statuses=all", base)]).to_json())
    for s in want["setups"] + doc["setups"]:
        s.pop("mean_seconds")                           # the only value that varies per run
    assert doc == want
    assert doc["pairs"][0]["p_value"] == 2 / 2 ** 10 and doc["pairs"][0]["a_only"] == 10


def test_markdown(capsys):
    assert main(["compare", *TWO, "--setup", "small: size=40 overlap=0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Open Book comparison") and "## Leaderboard" in out and "## Pairs" in out
    assert "| small | 9/18 = 0.500 (0.290-0.710)" in out and "With filter, 10 questions are found at k = 1" in out


def test_docs_and_golden_from_files(capsys, tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("The launch code for the rocket is 7741.\n\nNothing else here.")
    (tmp_path / "notes" / "b.txt").write_text("A draft says the launch code for the rocket is 1234.")
    (tmp_path / "g.csv").write_text("question,doc,anchor\nWhat is the launch code?,a.txt,code for the rocket is 7741\n")
    doc = run_json(capsys, "--docs", str(tmp_path / "notes"), "--golden", str(tmp_path / "g.csv"),
                   "--setup", "tiny: size=4 overlap=0", "--setup", "whole: size=50 overlap=0", "--k", "1")
    stages = [s["losses"] for s in doc["setups"]]
    assert stages[0]["cut"] == 1 and stages[1]["cut"] == 0


def test_a_real_model_answers_for_the_setups_that_ask_for_it(capsys):
    server, url = start_server()
    try:
        doc = run_json(capsys, "--setup", "model:", "--setup", "scripted: generator=scripted", "--k", "1",
                       "--generator", "ollama", "--llm-url", url, "--model", "abstain", "--timeout", "10")
    finally:
        stop_server(server)
    assert doc["setups"][0]["outcomes"]["abstained"] == 18           # the fake model always abstains
    scripted = doc["setups"][1]["outcomes"]
    assert scripted["answered"] + scripted["wrong answer"] + scripted["not confirmed"] == 18 \
        and scripted["abstained"] == 0
    assert doc["setups"][0]["losses"]["abstained"] == 18 and "generator=model" in doc["setups"][0]["setup"]


def test_save_keeps_the_runs(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENBOOK_DATA_DIR", str(tmp_path))
    assert main(["compare", *TWO, "--save"]) == 0
    err = capsys.readouterr().err
    assert err == f"note: saved runs #1, #2 in {tmp_path / 'openbook.sqlite3'}.\n"
    runs = Store.default().list_runs()
    assert [(r.name, r.dataset_key, r.model, r.questions) for r in runs] == [("no filter", "bundled", "scripted", 18),
                                                                              ("filter", "bundled", "scripted", 18)]
    monkeypatch.setenv("OPENBOOK_DATA_DIR", "off")
    assert main(["compare", *TWO, "--save"]) == 0
    assert capsys.readouterr().err == "note: nothing saved: OPENBOOK_DATA_DIR is off.\n"


@pytest.mark.parametrize("args, words", [
    (["--setup", "a:"], "compare takes two to four setups, got 1"),
    ([], "compare takes two to four setups, got 0"),
    (["--setup", "a:"] * 5, "compare takes two to four setups, got 5"),
    (["--setup", "a:", "--setup", "a: k=1"], "Two setups are named 'a'"),
    (["--setup", "a: colour=red", "--setup", "b:"], "Setup 'a': unknown key 'colour'"),
    (["--setup", "a: statuses=final", "--setup", "b:"], "Setup 'a': Unknown status 'final': this corpus has current, draft, outdated"),
    (["--setup", "a: generator=model", "--setup", "b:"], "Setup 'a' asks for generator=model: give --generator ollama"),
    ([*TWO, "--k", "0,1"], "--k takes whole numbers from 1 to 10,000"),
    ([*TWO, "--k", "one"], "--k takes whole numbers from 1 to 10,000 separated by commas, e.g. --k 1,3,5; got 'one'"),
    ([*TWO, "--golden", "g.csv"], "--golden goes with --docs"),
    ([*TWO, "--generator", "openai"], "--generator openai needs --llm-url and --model"),
    ([*TWO, "--generator", "ollama", "--llm-url", "http://127.0.0.1:9", "--model", "m"], "Could not reach the model server at http://127.0.0.1:9"),
    ([*TWO, "--format", "yaml"], "argument --format: invalid choice: 'yaml'"),
    ([*TWO, "--nope"], "unrecognized arguments: --nope"),
])
def test_errors_are_one_line_and_exit_2(capsys, args, words):
    assert main(["compare", *args]) == 2
    out, err = capsys.readouterr()
    assert words.lower() in err.lower() and err.startswith("error: ") and err.count("\n") == 1 and out == "", err


def test_without_golden_questions_it_says_why(capsys, tmp_path):
    (tmp_path / "a.txt").write_text("Some words here.")
    assert main(["compare", *TWO, "--docs", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith("error: compare needs golden questions: add a golden set")


def test_help_lists_the_keys():
    out = subprocess.run([sys.executable, "-m", "rag_core", "compare", "--help"], capture_output=True, text=True,
                         cwd=str(ROOT), timeout=120)
    assert out.returncode == 0 and "keys: chunker, size, overlap, candidates, k, statuses, rerank, generator" in \
        " ".join(out.stdout.split())
    top = subprocess.run([sys.executable, "-m", "rag_core", "--help"], capture_output=True, text=True, cwd=str(ROOT),
                         timeout=120)
    assert "compare" in top.stdout


def test_a_postgres_store_that_refuses_the_password_keeps_the_result(capsys, monkeypatch, pg):
    url = pg.database_for("cmpkeeper", "right-Pa55", "openbook_keep").replace("right-Pa55", "wrong-Pa55")
    monkeypatch.setenv("OPENBOOK_STORE", "postgres")
    monkeypatch.setenv("OPENBOOK_DATABASE_URL", url)
    assert main(["compare", *TWO, "--k", "1", "--format", "json", "--save"]) == 2
    out, err = capsys.readouterr()
    assert [s["name"] for s in json.loads(out)["setups"]] == ["filter", "no filter"]       # printed, not lost
    assert err.startswith("error: the comparison above was printed but not saved: ") and err.count("\n") == 1
    assert "rejected the password of user 'cmpkeeper'" in err and "Pa55" not in err
