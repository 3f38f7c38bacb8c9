"""The two checkers: the article's (strings found in the cited spans) and the strict one (the default); the
article's six cases in both, how a mode is chosen and carried, the sentence that says why they disagree, who
judges with which, and `python -m rag_core verify` on the command line (exit 0 for any verdict, 2 for bad input).
Both run on generated answers, each with the verdict it deserves, in tests/test_checker_differential.py.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rag_core import ChunkerConfig
from rag_core.__main__ import main
from rag_core.evaluation import outcomes, tables
from rag_core.evaluation.pipeline import ask
from rag_core.generation.two_checkers import disagreement
from rag_core.generation.verifier import MODES, Verdict, verify, verify_grounding

from checker_cases import CONTEXT, DEFAULT, MEDIAN, mode  # noqa: F401  (mode: a fixture, both modes)
from fake_llm_server import start_server, stop_server

ROOT = Path(__file__).resolve().parents[1]


# ---- the article's six cases ---------------------------------------------------------------------

@pytest.mark.parametrize("answer, verdict, explained", [
    ("The default cutoff is 0.6.", "refused", ["No citation", "[S1]"]),
    ("The default cutoff is 0.9 [S1].", "refused", ["number '0.9'", "not appear in S1"]),
    ("The default cutoff is 0.9 [S2].", "anchored", ["numbers and names"]),
    ("The default cutoff is 0.6 [S1].", "anchored", ["numbers and names"]),
    ("The default cutoff is 0.6 [S4].", "refused", ["S4", "does not exist", "S1 to S2"]),
    ("NOT IN THE CONTEXT", "abstained", ["do not contain"]),
])
def test_article_cases(answer, verdict, explained, mode):
    v = verify(answer, CONTEXT, mode)
    assert v.verdict == verdict == verify_grounding(answer, CONTEXT) and v.mode == mode
    for words in explained:
        assert words in v.reason


@pytest.mark.parametrize("mode, said", [("article", ""), ("strict", ": the span says 0.6, not 0.9")])
def test_refused_explanations_say_which_sentence(mode, said):
    assert verify("The default cutoff is 0.9 [S1].", CONTEXT, mode).reason == \
        f"Sentence 1: The number '0.9' does not appear in S1{said}."


# ---- modes, the disagreement sentence, the verdict -----------------------------------------------

def test_unknown_mode_says_the_valid_ones():
    with pytest.raises(ValueError, match="strict, article"):
        verify("x [S1].", ["x"], "lenient")


def test_verdict_carries_its_mode_and_stays_positional():
    assert verify("x", [], "article").mode == "article" and verify("x", []).mode == "strict"
    assert Verdict("anchored", (), "ok").mode == "strict" and MODES == ("strict", "article")


def test_verify_grounding_is_the_article():
    assert verify_grounding("The default cutoff is 0 [S1].", DEFAULT) == "anchored"


@pytest.mark.parametrize("answer, said", [
    ("The default cutoff is 0 [S1].", "The article's checker accepts this answer because it compares strings: '0' is "
     "found inside S1 (in 0.6); the strict checker compares numbers by value and names whole, and the number '0' does "
     "not appear in S1: the span says 0.6, not 0."),
    ("The default cutoff is 0.60 [S1].", "The article's checker refuses this answer because '0.60' is not written the "
     "same way in S1; the strict checker compares numbers by value and names whole, and finds every claim there."),
    ("NOT IN THE CONTEXT. It is 0.9.", "The article's checker abstains because the answer starts with NOT IN THE "
     "CONTEXT; the strict checker refuses it because claims follow, and an abstention must be the whole answer."),
    ("**NOT IN THE CONTEXT** The default is 0.6 [S1].", "The article's checker says anchored: it checks the claims and "
     "overlooks the abstention before them; the strict checker refuses it because claims follow, and an abstention "
     "must be the whole answer."),
    ("**not in the context**", "The article's checker refuses this answer because it does not start with NOT IN THE "
     "CONTEXT written exactly so; the strict checker reads it as an abstention (case, emphasis, quotes and final "
     "punctuation do not matter)."),
])
def test_disagreement_says_why(answer, said):
    assert disagreement(answer, DEFAULT) == said


@pytest.mark.parametrize("answer", ["The default cutoff is 0.6 [S1].", "The default cutoff is 0.9 [S1].",
                                    "NOT IN THE CONTEXT", "It is so [S4]."])
def test_no_disagreement_when_the_verdicts_agree(answer):
    assert disagreement(answer, DEFAULT) is None


def test_as_dict_is_the_cli_schema():
    d = verify("The default cutoff is 0 [S1].", DEFAULT).as_dict()
    assert list(d) == ["verdict", "mode", "reason", "sentences"]
    assert d["sentences"] == [{"sentence": "The default cutoff is 0 [S1].", "cited": [1], "ok": False,
                               "explanation": "The number '0' does not appear in S1: the span says 0.6, not 0.",
                               "missing_numbers": ["0"], "missing_names": [], "out_of_range": []}]


# ---- plumbing: who judges with which checker -----------------------------------------------------

def test_ask_judges_strictly_by_default(wb):
    ix = wb.index(ChunkerConfig("fixed", 160, 32))
    assert ask(ix, wb.questions[0]).verdict.mode == "strict"
    assert ask(ix, wb.questions[0], mode="article").verdict.mode == "article"


def test_article_tables_keep_the_articles_checker(wb):
    cases = tables.verifier_cases(cases=("The default cutoff is 0 [S1].",), context=DEFAULT)
    assert list(cases.verdict) == ["anchored"]                                  # the article's verdict, on purpose
    q, ids = 0, wb.top_ids(ChunkerConfig("fixed", 160, 32), 3, None, True, 20)[0]
    chunker = ChunkerConfig("fixed", 160, 32)
    fixed = lambda question, spans: "**NOT IN THE CONTEXT**"                    # noqa: E731
    assert outcomes.outcome_row(wb, chunker, q, ids, fixed)["verdict"] == "refused"
    assert outcomes.outcome_row(wb, chunker, q, ids, fixed, mode="strict")["verdict"] == "abstained"
    strict = tables.pipeline(wb, chunker, generate=fixed, mode="strict")
    assert list(strict.abstained) == [len(wb.golden_check.valid)] * 2 and list(tables.pipeline(wb, chunker, generate=fixed).refused) == \
        [len(wb.golden_check.valid)] * 2


def test_the_clis_model_run_is_strict(capsys):
    server, url = start_server()
    try:
        assert main(["report", "--format", "json", "--tables", "ceiling", "--generator", "ollama",
                     "--llm-url", url, "--model", "fixed:**NOT IN THE CONTEXT**"]) == 0
    finally:
        stop_server(server)
    rows = json.loads(capsys.readouterr().out)["tables"]["pipeline_model"]
    assert [r["abstained"] for r in rows] == [18, 18] and [r["refused"] for r in rows] == [0, 0]


# ---- python -m rag_core verify -------------------------------------------------------------------

@pytest.fixture
def spans_file(tmp_path):
    p = tmp_path / "spans.json"
    p.write_text(json.dumps(CONTEXT))
    return str(p)


def run_verify(capsys, *args) -> tuple[int, str, str]:
    code = main(["verify", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_json_schema(capsys, spans_file):
    code, out, err = run_verify(capsys, "--spans", spans_file, "--answer", "It is 0.9 [S1]. Also x [S7].",
                                "--format", "json")
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert doc == verify("It is 0.9 [S1]. Also x [S7].", CONTEXT).as_dict()
    assert set(doc) == {"verdict", "mode", "reason", "sentences"} and doc["mode"] == "strict"
    assert [set(s) for s in doc["sentences"]] == [{"sentence", "cited", "ok", "explanation", "missing_numbers",
                                                   "missing_names", "out_of_range"}] * 2
    assert doc["sentences"][1]["out_of_range"] == [7]


@pytest.mark.parametrize("answer, mode, verdict", [("NOT IN THE CONTEXT", "strict", "abstained"),
                                                   ("The cutoff is 0.6 [S1].", "article", "anchored"),
                                                   ("The cutoff is 0.7 [S1].", "strict", "refused")])
def test_cli_exit_0_for_any_verdict(capsys, spans_file, answer, mode, verdict):
    code, out, _ = run_verify(capsys, "--spans", spans_file, "--answer", answer, "--mode", mode, "--format", "json")
    assert code == 0 and json.loads(out)["verdict"] == verdict and json.loads(out)["mode"] == mode


def test_cli_text_format(capsys, spans_file, tmp_path):
    answer = tmp_path / "answer.txt"
    answer.write_text("The default cutoff is 0.60 [S1].", encoding="utf-8")
    code, out, _ = run_verify(capsys, "--spans", spans_file, "--answer-file", str(answer))
    assert code == 0
    assert out.splitlines() == [
        "anchored (strict checker): Every sentence cites a span that contains its numbers and names.",
        "  1. passes: The default cutoff is 0.60 [S1].",
        "     Every number and technical name appears in S1.",
        "modes disagree: " + disagreement("The default cutoff is 0.60 [S1].", CONTEXT)]


def write(folder, name, content) -> str:
    """A file in `folder` holding `content` (text, or bytes as they are); its path."""
    p = folder / name
    p.write_bytes(content) if isinstance(content, bytes) else p.write_text(content, encoding="utf-8")
    return str(p)


EMPTY = lambda t: write(t, "s.json", "[]")          # noqa: E731  a valid spans file: no span


@pytest.mark.parametrize("make_args, words", [
    (lambda t: ["--spans", str(t / "none.json"), "--answer", "x"], "cannot read the spans file"),
    (lambda t: ["--spans", str(t), "--answer", "x"], "cannot read the spans file"),             # a folder
    (lambda t: ["--spans", write(t, "s.json", "{not json"), "--answer", "x"], "is not JSON"),
    (lambda t: ["--spans", write(t, "s.json", b"\xff\xfe["), "--answer", "x"], "is not JSON"),
    (lambda t: ["--spans", write(t, "s.json", '{"S1": "x"}'), "--answer", "x"], "must be a JSON list of span texts"),
    (lambda t: ["--spans", write(t, "s.json", '["a", 2]'), "--answer", "x"], "must be a JSON list of span texts"),
    (lambda t: ["--spans", EMPTY(t), "--answer", "x", "--answer-file", "f"], "not both"),
    (lambda t: ["--spans", EMPTY(t)], "no answer"),
    (lambda t: ["--spans", EMPTY(t), "--answer-file", str(t / "nope.txt")], "cannot read the answer file"),
    (lambda t: ["--spans", EMPTY(t), "--answer-file", write(t, "a.txt", b"\xff\xfe\xfa")], "cannot read the answer file"),
    (lambda t: ["--spans", EMPTY(t), "--answer", "x", "--mode", "lenient"], "invalid choice: 'lenient'"),
    (lambda t: ["--spans", EMPTY(t), "--answer", "x", "--format", "xml"], "invalid choice: 'xml'"),
    (lambda t: ["--answer", "x"], "--spans"),
    (lambda t: ["--spans", EMPTY(t), "--answer", "x", "--bogus"], "unrecognized arguments: --bogus"),
])
def test_cli_bad_input_is_one_line_and_exit_2(capsys, tmp_path, make_args, words):
    code, out, err = run_verify(capsys, *make_args(tmp_path))
    assert code == 2 and out == ""
    assert words in err and err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err


def test_cli_runs_as_a_module(spans_file):
    out = subprocess.run([sys.executable, "-m", "rag_core", "verify", "--spans", spans_file, "--answer-file", "-",
                          "--format", "json"], input="**NOT IN THE CONTEXT**", capture_output=True, text=True,
                         timeout=60, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["verdict"] == "abstained"


def test_verify_on_the_command_line_takes_the_question(capsys, tmp_path):
    (tmp_path / "spans.json").write_text(json.dumps(MEDIAN))
    args = ["verify", "--spans", str(tmp_path / "spans.json"), "--answer",
            "median_low returns the smaller of the two middle values [S1].", "--format", "json"]
    assert main(args) == 0 and json.loads(capsys.readouterr().out)["verdict"] == "refused"
    assert main(args + ["--question", "What does median_low return?"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "anchored"
