"""`python -m rag_core report`: the JSON schema, the values (equal to the tables, hence to the reference), errors."""
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rag_core.evaluation import tables
from rag_core.__main__ import main
from rag_core.evaluation.report import TABLE_NAMES

OUT = (Path(__file__).parent / "data" / "reference_output.txt").read_text().splitlines()   # the article's printout



def run_json(capsys, *args) -> dict:
    assert main(["report", "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_has_every_table_with_the_documented_columns(capsys, wb):
    doc = run_json(capsys, "--tables", ",".join(n for n in TABLE_NAMES if n != "latency"))
    assert set(doc) == {"corpus", "setup", "tables"}
    assert doc["setup"] == {"retriever": "hashing", "reranker": "lexical"}
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
    assert {r["k"]: round(r["recall"], 3) for r in doc["tables"]["ceiling"]} == printed


def test_markdown_report(capsys):
    assert main(["report", "--tables", "filter,pipeline"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Open Book report") and "## filter" in out and "| status = current |" in out


def test_docs_and_golden_from_files(capsys, tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("The launch code for the rocket is 7741.\n\nNothing else here.")
    (tmp_path / "g.csv").write_text("question,doc,anchor\nWhat is the launch code?,a.txt,code for the rocket is 7741\n"
                                    "Nope?,b.txt,launch pad\n")
    doc = run_json(capsys, "--docs", str(tmp_path / "notes"), "--golden", str(tmp_path / "g.csv"), "--tables", "ceiling")
    assert doc["corpus"]["valid_questions"] == 1 and doc["corpus"]["excluded"][0]["reason"].startswith("Unknown document")
    assert doc["tables"]["ceiling"][0]["recall"] == 1.0


@pytest.mark.parametrize("args, words", [
    (["--tables", "nope"], "Unknown table 'nope'"),
    (["--tables", "ceiling,pipeline_model"], "pipeline_model is the pipeline table with a real model: add --generator"),
    (["--tables", ",,,"], "No table named in ',,,': give one or more of ceiling, strategies"),
    (["--tables", ""], "No table named in ''"),
    (["--corpus", "stdlib", "--modules", "nosuchmodule"], "cannot be imported"),
    (["--corpus", "stdlib", "--modules", "math,nosuchmodule,antigravity"],
     "Module 'nosuchmodule' cannot be imported here (it is not a standard-library module): check the name. "
     "Module 'antigravity' is refused: importing it opens a web browser"),
    (["--corpus", "stdlib", "--modules", "unittest.__main__"], "is refused: importing it runs a program"),
    (["--corpus", "stdlib", "--modules", ",,"], "--modules names no module"),
    (["--modules", "math"], "--modules goes with --corpus stdlib"),
    (["--golden", "x.csv"], "--golden goes with --docs"),
    (["--docs", "/nonexistent/folder"], "/nonexistent/folder"),
    (["--docs", "notes", "--corpus", "bundled"], "--docs replaces the corpus: leave out --corpus bundled"),
    (["--docs", "notes", "--no-notes"], "--no-notes goes with the bundled or stdlib corpus"),
    (["--generator", "ollama"], "needs --llm-url and --model"),
    (["--model", "qwen2.5:7b"], "--llm-url and --model go with --generator ollama or openai"),
    (["--generator", "ollama", "--llm-url", "http://127.0.0.1:9", "--model", "m", "--grammar", "cite"],
     "--grammar cite goes with --generator openai"),
    *[(["--generator", "ollama", "--llm-url", "http://127.0.0.1:9", "--model", "m", "--timeout", t],
       f"--timeout must be a number of seconds above 0 and at most 3600, got {t}")
      for t in ("inf", "nan", "0", "-1", "1e+09")],
])
def test_errors_are_one_line_and_exit_2(capsys, args, words):
    assert main(["report", *args]) == 2
    out, err = capsys.readouterr()
    assert words in err and "Traceback" not in err and err.count("\n") == 1 and out == ""


@pytest.mark.parametrize("asked, given", [("pipeline_model", ["pipeline_model"]),
                                          ("pipeline_model,ceiling", ["ceiling", "pipeline_model"])])
def test_pipeline_model_as_the_readme_lists_it(capsys, asked, given):
    from fake_llm_server import start_server, stop_server
    server, url = start_server()
    try:
        doc = run_json(capsys, "--tables", asked, "--generator", "ollama", "--llm-url", url, "--model", "abstain")
    finally:
        stop_server(server)
    assert list(doc["tables"]) == given
    assert [r["abstained"] for r in doc["tables"]["pipeline_model"]] == [18, 18]


def test_the_citation_grammar_is_sent_from_the_command_line(capsys):
    """--grammar cite reaches the server (it was read only by the dashboard: the command line never sent it)."""
    import httpx
    from fake_llm_server import start_server, stop_server
    from rag_core.generation.citation_grammar import cite_gbnf
    server, url = start_server()
    try:
        run_json(capsys, "--tables", "pipeline_model", "--generator", "openai", "--llm-url", url, "--model", "abstain",
                 "--grammar", "cite")
        body = httpx.get(f"{url}/_last_request").json()["body"]
    finally:
        stop_server(server)
    assert body["grammar"] == cite_gbnf(body["messages"][0]["content"]) and 'span ::= "1"' in body["grammar"]


def test_a_side_effect_module_is_refused_before_it_is_imported(capsys):
    assert main(["report", "--corpus", "stdlib", "--modules", "this"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Beautiful is better than ugly" not in err
    assert err == "error: Module 'this' is refused: importing it prints the Zen of Python; leave it out.\n"


def notes_dir(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("The launch code for the rocket is 7741.\n\nNothing else here.")
    return str(tmp_path / "notes")


def test_docs_without_golden_report_what_needs_no_questions(capsys, tmp_path):
    assert main(["report", "--docs", notes_dir(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert "## verifier_cases" in out and out.count("## ") == 1 and "0 of 0 golden questions valid" in out
    assert err == ("note: ceiling, strategies, size_overlap, cut_anchors, cut_summary, filter, rerank, latency, "
                   "pipeline, prompt, losses need golden questions: add a golden set, a CSV with the columns "
                   "question,doc,anchor (--golden FILE on the command line). Left out of the report.\n")
    doc = run_json(capsys, "--docs", str(tmp_path / "notes"))
    assert list(doc["tables"]) == ["verifier_cases"] and doc["corpus"]["questions"] == 0


@pytest.mark.parametrize("golden, extra, words", [
    (None, ["--tables", "verifier_cases,ceiling"], "ceiling needs golden questions: add a golden set"),
    (None, ["--generator", "ollama", "--llm-url", "http://127.0.0.1:9", "--model", "m"],
     "--generator ollama needs golden questions"),
    ("question,doc,anchor\nWhat is the code?,b.txt,7741\n", ["--tables", "filter"],
     "filter needs golden questions: the one golden question cannot be checked against this corpus "
     "('What is the code?': Unknown document 'b.txt'"),
])
def test_asking_for_a_table_that_needs_questions_without_any_is_an_error(capsys, tmp_path, golden, extra, words):
    args = ["--docs", notes_dir(tmp_path), *extra]
    if golden:
        (tmp_path / "g.csv").write_text(golden)
        args += ["--golden", str(tmp_path / "g.csv")]
    assert main(["report", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and words in err and err.count("\n") == 1


@pytest.mark.parametrize("make, note", [
    (lambda d: None, "note: No documents were uploaded"),
    (lambda d: (d / "report.docx").write_bytes(b"PK.."), "note: report.docx: .docx files are not supported"),
])
def test_reading_problems_come_before_the_error(capsys, tmp_path, make, note):
    make(tmp_path)
    assert main(["report", "--docs", str(tmp_path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith(note) and all(line.startswith("note: ") for line in lines[:-1])
    assert lines[-1] == f"error: No document could be read from {str(tmp_path)!r}."


def test_limits_come_from_the_environment(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENBOOK_MAX_FILE_MB", "0.00001")     # 10 bytes
    assert main(["report", "--docs", notes_dir(tmp_path), "--tables", "verifier_cases"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("note: a.txt is over the 10 bytes limit for one file; skipped.")
    assert err.endswith("error: No document could be read from " + repr(str(tmp_path / "notes")) + ".\n")


@pytest.mark.parametrize("value", ["abc", "inf", "-1"])
def test_a_bad_limit_in_the_environment_is_one_line(capsys, tmp_path, monkeypatch, value):
    monkeypatch.setenv("OPENBOOK_MAX_FILES", value)
    assert main(["report", "--docs", notes_dir(tmp_path), "--tables", "verifier_cases"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and err.count("\n") == 1, err
    if value == "abc":
        assert "OPENBOOK_MAX_FILES='abc' is not a number" in err


@pytest.mark.parametrize("path", ["missing.csv", "."])
def test_a_golden_path_that_is_no_file_is_one_line(capsys, tmp_path, path):
    assert main(["report", "--docs", notes_dir(tmp_path), "--golden", str(tmp_path / path)]) == 2
    assert capsys.readouterr().err.startswith("error: No golden-set file at")


ROOT = Path(__file__).parents[1]


def cli(*args, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rag_core", "report", *args], text=True, timeout=120, cwd=str(ROOT), **kw)


def test_an_import_that_prints_stays_out_of_the_report(tmp_path):
    # winsound is a standard-library name with no module on Linux: this one shadows it and prints on import
    (tmp_path / "winsound.py").write_text('"""A module that talks."""\nimport sys\n'
                                          'print("SIDE EFFECT")\nprint("SIDE EFFECT", file=sys.stderr)\n')
    out = cli("--format", "json", "--corpus", "stdlib", "--modules", "winsound,math", "--tables", "verifier_cases",
              capture_output=True, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert out.returncode == 0, out.stderr
    assert "SIDE EFFECT" not in out.stdout + out.stderr
    assert json.loads(out.stdout)["corpus"]["current"] == 2


def test_a_full_disk_is_one_line_and_exit_2():
    with open("/dev/full", "w") as full:
        out = cli("--tables", "verifier_cases", stdout=full, stderr=subprocess.PIPE)
    assert out.returncode == 2
    assert out.stderr == "error: cannot write the report: No space left on device.\n"


def test_a_closed_pipe_ends_quietly_with_141():
    read, write = os.pipe()
    os.close(read)                     # nobody will ever read: the first write breaks the pipe
    try:
        out = cli("--tables", "verifier_cases", stdout=write, stderr=subprocess.PIPE)
    finally:
        os.close(write)
    assert (out.returncode, out.stderr) == (141, "")


def test_runs_as_a_module():
    out = cli("--format", "json", "--tables", "filter", capture_output=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["tables"]["filter"][1]["contradicted_top_3"] == 0


# ---- --retriever (--encoder is its old name) and a one-line usage error ------------------------------------------

def test_retriever_names_the_retriever_and_encoder_still_works(capsys):
    new = run_json(capsys, "--tables", "ceiling", "--retriever", "bm25")
    old = run_json(capsys, "--tables", "ceiling", "--encoder", "bm25")
    assert new == old and new["setup"]["retriever"] == "bm25"
    assert new["tables"]["ceiling"] != run_json(capsys, "--tables", "ceiling")["tables"]["ceiling"]


def test_compare_takes_retriever_for_every_setup(capsys):
    assert main(["compare", "--setup", "a:", "--setup", "b: statuses=all", "--k", "1", "--format", "json",
                 "--retriever", "bm25", "--reranker", "dense"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert all("retriever=bm25" in s["setup"] and "reranker=dense" in s["setup"] for s in doc["setups"])


def test_a_usage_error_is_one_line():
    out = cli("--tables", "ceiling", "--bogus", capture_output=True)
    assert (out.returncode, out.stdout, out.stderr) == (2, "", "error: unrecognized arguments: --bogus\n")


def test_help_names_retriever_and_the_old_name():
    text = " ".join(cli("--help", capture_output=True).stdout.split())
    assert "--retriever RETRIEVER, --encoder RETRIEVER" in text and "--encoder is its old name" in text


# ---- verify --anchor ------------------------------------------------------------------------------------------

SPANS = ["Optional arg cutoff (default 0.6) is a float in [0, 1].", "NOTE (draft): the default cutoff is 0.9."]


def verify_cli(capsys, tmp_path, *args):
    (tmp_path / "spans.json").write_text(json.dumps(SPANS))
    code = main(["verify", "--spans", str(tmp_path / "spans.json"), *args])
    return code, *capsys.readouterr()


@pytest.mark.parametrize("answer, right, decided", [
    ("The default cutoff is 0.6 [S1].", True, ["0.6"]),
    ("The default cutoff is 0.9 [S2].", False, ["0.9"]),
    ("The default cutoff is not 0.6 [S1].", False, ["0.6"]),
    ("It is a float in [0, 1] [S1].", None, []),
])
def test_verify_anchor_and_key_add_right_and_what_decided_it(capsys, tmp_path, answer, right, decided):
    from rag_core.generation.answer_key import check_key
    anchor = "Optional arg cutoff (default 0.6)"
    code, out, err = verify_cli(capsys, tmp_path, "--answer", answer, "--anchor", anchor, "--key", "0.6",
                                "--format", "json")
    doc = json.loads(out)
    assert code == 0 and err == ""
    assert doc["right"] is right and doc["decided_by"] == decided and doc["key"] == "0.6"
    assert {k: doc[k] for k in ("right", "states_key", "missing_from_answer")} == \
        {k: v for k, v in check_key(answer, "0.6", anchor).as_dict().items()
         if k in ("right", "states_key", "missing_from_answer")}
    _, plain, _ = verify_cli(capsys, tmp_path, "--answer", answer, "--format", "json")
    assert json.loads(plain) == {k: v for k, v in doc.items() if k not in
                                 ("right", "states_key", "missing_from_answer", "contradiction", "decided_by", "key",
                                  "doubt", "accepted_wording_of")}


def test_verify_right_line_in_the_text_format(capsys, tmp_path):
    anchor = "Optional arg cutoff (default 0.6)"
    _, out, _ = verify_cli(capsys, tmp_path, "--answer", "The default cutoff is 0.9 [S2].", "--anchor", anchor,
                           "--key", "0.6")
    assert out.splitlines()[-1] == "right: wrong answer: it says 0.9 where the golden answer says 0.6"
    _, out, _ = verify_cli(capsys, tmp_path, "--answer", "The default cutoff is 0.6 [S1].", "--anchor", anchor,
                           "--key", "0.6")
    assert out.splitlines()[-1] == "right: answered: it states the key '0.6' (0.6) and contradicts none of it"
    _, without, _ = verify_cli(capsys, tmp_path, "--answer", "The default cutoff is 0.6 [S1].")
    assert without.splitlines() == out.splitlines()[:-1]
    _, out, _ = verify_cli(capsys, tmp_path, "--answer", "It is a float in [0, 1] [S1].", "--anchor", anchor)
    assert out.splitlines()[-1].startswith("right: not confirmed: it neither states the key")
    _, out, _ = verify_cli(capsys, tmp_path, "--answer", "The default cutoff is 0.6.", "--anchor", anchor)
    assert out.splitlines()[-1].startswith("right: not confirmed: the checker says refused")


@pytest.mark.parametrize("args, says", [(["--key", "0.6"], "--key needs --anchor"),
                                        (["--anchor", "cutoff (default 0.6)", "--key", "0.7"], "is not in the anchor")])
def test_verify_a_key_without_its_anchor_is_one_line_and_exit_2(capsys, tmp_path, args, says):
    code, out, err = verify_cli(capsys, tmp_path, "--answer", "The cutoff is 0.6 [S1].", *args)
    assert code == 2 and out == "" and says in err and len(err.strip().splitlines()) == 1


def test_verify_an_empty_anchor_is_one_line(capsys, tmp_path):
    code, out, err = verify_cli(capsys, tmp_path, "--answer", "x", "--anchor", " ")
    assert (code, out) == (2, "") and err == ("error: --anchor is empty: give the text the answer must state, "
                                              "or leave the option out.\n")
