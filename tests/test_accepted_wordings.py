"""Other wordings of a golden answer key that a marker accepts (GoldenRow.accept): checked like the other fields
(a bad list costs its row, with the reason), carried by the bundled sets, the golden CSV (column accept, '|' between
wordings), the labelled cases, the store and `verify --accept`, and read by the verdict only when the answer neither
states nor contradicts the key. Documents made up here."""
import json

import pytest

from one_document import judged_in
from rag_core.data.corpus import Document
from rag_core.data.golden import GoldenRow, accept_problem, golden_problems, load_golden
from rag_core.data.golden_csv import golden_to_csv, read_golden_csv
from rag_core.evaluation.cases import SpanSources, parse_case, read_cases, rule_judgement
from rag_core.store.records import dataset_key

CACHE = ("## memo\n\nIf size is None, eviction is disabled and the table can grow without bound. Results are kept "
         "per argument tuple.")
ANCHOR = "eviction is disabled and the table can grow without bound"
QUESTION = "What happens when the memo table has no size?"
ACCEPT = ("no size limit", "unbounded", "nothing is evicted")
DOCS = [Document("memo", CACHE, "current")]


judged_memo = judged_in(CACHE, "memo", ANCHOR, question=QUESTION)


def judged(answer, accept=ACCEPT):
    return judged_memo(answer, accept=accept)


@pytest.mark.parametrize("answer", ["The table then has no size limit per argument tuple [S1].",
                                    "It is unbounded: results are kept per argument tuple [S1].",
                                    "Nothing is evicted; results are kept per argument tuple [S1]."])
def test_an_answer_stating_an_accepted_wording_is_answered_and_names_it(answer):
    got = judged(answer)
    assert got.outcome == "answered" and got.tone == "green", got.sentence
    assert "a wording the golden set accepts for the golden answer" in got.sentence
    assert judged(answer, accept=()).tone != "green"        # the same answer without the wordings: not green


@pytest.mark.parametrize("answer", ["It is not unbounded: results are kept per argument tuple [S1].",
                                    "The table is dropped if it has no size limit per argument tuple [S1].",
                                    "Eviction is enabled, so there is no size limit per argument tuple [S1]."])
def test_a_negated_or_conditional_wording_or_a_contradicted_key_is_never_green(answer):
    assert judged(answer).tone != "green"


def test_the_key_itself_decides_first():
    got = judged("Eviction is disabled and the table can grow without bound [S1].")
    assert got.outcome == "answered" and "accepts" not in got.sentence


@pytest.mark.parametrize("accept, fragment", [(["no size limit", ""], "Accepted wording 2 is empty"),
                                              (["a" * 121], "121 characters long"),
                                              (["no | limit"], "holds '|'"),
                                              ([f"w{i}" for i in range(21)], "the limit is 20"),
                                              ("no size limit", "must be a list"),
                                              (["the of"], "no word, number or symbol")])
def test_a_bad_list_costs_its_row_with_the_reason(accept, fragment):
    assert fragment in accept_problem(accept)
    rows = [GoldenRow(QUESTION, "memo", ANCHOR, "", "", accept),
            GoldenRow("Are results kept per argument tuple?", "memo", "Results are kept per argument tuple")]
    problems = golden_problems(rows, DOCS)
    assert [p.row for p in problems] == [0] and fragment in problems[0].reason


def test_the_bundled_sets_carry_wordings_that_are_valid_and_never_the_key_itself():
    rows = load_golden() + load_golden("user")
    accepted = [r for r in rows if r.accept]
    assert len(accepted) >= 10 and all(isinstance(r.accept, tuple) for r in accepted)
    assert all(accept_problem(r.accept) == "" and r.key not in r.accept for r in accepted)


def test_the_csv_writes_and_reads_them_back_and_skips_empty_pieces():
    rows = [GoldenRow(QUESTION, "memo", ANCHOR, "", "", ACCEPT),
            GoldenRow("Kept per what?", "memo", "Results are kept per argument tuple", "argument tuple")]
    text = golden_to_csv(rows)
    assert text.splitlines()[0] == "question,doc,anchor,answer,accept"
    back, problems = read_golden_csv(text)
    assert problems == [] and back == rows
    messy, _ = read_golden_csv("question,doc,anchor,accept\nq?,memo,eviction is disabled, no limit | | unbounded |\n"
                               .replace("eviction is disabled,", "\"eviction is disabled\","))
    assert messy[0].accept == ("no limit", "unbounded")


def test_cases_take_them_from_the_case_or_from_its_golden_question():
    case = {"spans": [CACHE], "answer": "Nothing is evicted, kept per argument tuple [S1].", "anchor": ANCHOR,
            "question": QUESTION, "label": "right"}
    sources = SpanSources(DOCS, [GoldenRow(QUESTION, "memo", ANCHOR, "", "", ACCEPT)])
    assert rule_judgement(parse_case(case), sources).tone == "green"
    assert rule_judgement(parse_case(case), SpanSources(DOCS)).tone != "green"
    own = parse_case({**case, "accept": ["nothing is evicted"]})
    assert own.accept == ("nothing is evicted",) and rule_judgement(own, SpanSources(DOCS)).tone == "green"
    assert own.as_dict()["accept"] == ["nothing is evicted"]
    _, problems = read_cases(json.dumps({**case, "accept": "nothing"}) + "\n" + json.dumps(case))
    assert [n for n, _ in problems] == [1] and "list" in problems[0][1]


def test_the_store_keeps_them_and_a_dataset_with_them_has_a_key_of_its_own(tmp_path):
    from rag_core.store.base import Store
    store = Store(tmp_path / "openbook.sqlite3")
    rows = (GoldenRow(QUESTION, "memo", ANCHOR, "", "", ACCEPT),)
    key = store.save_dataset("mine", DOCS, rows)
    assert store.load_dataset(key).golden == rows
    assert dataset_key("mine", DOCS, rows) != dataset_key("mine", DOCS, (rows[0]._replace(accept=()),))


def test_verify_reads_accept(capsys, tmp_path):
    from rag_core.cli.verify import main
    spans = tmp_path / "spans.json"
    spans.write_text(json.dumps([CACHE]), encoding="utf-8")
    base = ["--spans", str(spans), "--anchor", ANCHOR, "--answer",
            "Eviction is disabled and there is no size limit [S1].", "--format", "json"]
    assert main(base + ["--accept", "no size limit"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["right"] is True and doc["accepted_wording_of"] == ANCHOR
    assert main(base + ["--accept", "no | limit"]) == 2
    assert "holds '|'" in capsys.readouterr().err


@pytest.mark.parametrize("answer", ["unbounded table, eviction off [S1]", "Unbounded table, it keeps all [S1].",
                                    "Off; it grows unbounded [S1]."])
def test_an_accepted_wording_in_words_of_its_own_is_answered(answer):
    """Sentences the checker cannot ground, each stating an accepted wording: read as the wording is read
    ("unbounded" as "without bound"), and "without bound" negates nothing after it ("unbounded table")."""
    got = judged(answer)
    assert got.verdict.verdict == "refused"              # the checker alone cannot ground it
    assert got.outcome == "answered" and got.tone == "green", got.sentence
    assert judged(answer, accept=()).tone != "green"


@pytest.mark.parametrize("answer", ["It is not unbounded [S1].", "The table is bounded, nothing is evicted [S1]."])
def test_a_negated_or_opposite_wording_in_words_of_its_own_is_not_green(answer):
    assert judged(answer).tone != "green"
