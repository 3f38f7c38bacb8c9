"""A yes/no question's golden reply (GoldenRow.reply, "yes" or "no"): carried by both bundled golden sets where one
reply is right, checked like the key (anything else is refused with its reason), read and written by the golden CSV
and the labelled cases, and used by the verdict: an answer that opens with the other reply is a wrong answer, one
that opens with it and neither contradicts nor puts a doubt on the key is answered. Documents made up here."""
import json

import pytest

from rag_core.data.corpus import Document
from rag_core.data.golden import GoldenRow, golden_problems, load_golden
from rag_core.data.golden_csv import golden_to_csv, read_golden_csv
from rag_core.evaluation.cases import parse_case
from rag_core.evaluation.judgement import judge_answer
from rag_core.generation.yes_no import opening_reply

LOG = "## logrotate\n\nThe log is rotated every night (default True). Rotated logs are kept for 7 days."
ANCHOR = "The log is rotated every night (default True)"
QUESTION = "Does the log roll over by itself each night?"


class _Spans:
    def doc_id(self, i):
        return "logrotate"

    def status(self, i):
        return "current"


def judged(answer, reply="yes"):
    return judge_answer(answer, [LOG], [0], _Spans(), "logrotate", ANCHOR, key="rotated every night (default True)",
                        question=QUESTION, reply=reply)


def test_the_bundled_sets_carry_a_reply_only_for_yes_no_questions():
    rows = load_golden() + load_golden("user")
    replied = {r.question: r.reply for r in rows if r.reply}
    assert set(replied.values()) == {"yes", "no"} and 6 <= len(replied) <= 12
    assert all(q.split()[0] in ("Is", "Does", "When", "Adding") for q in replied), replied
    assert all(not r.reply for r in rows if r.question.startswith(("What", "Which", "Who", "Why", "How")))


@pytest.mark.parametrize("reply,ok", [("yes", True), ("No", True), ("", True), ("maybe", False), ("y", False)])
def test_a_reply_is_yes_no_or_empty_and_anything_else_is_refused_with_its_reason(reply, ok):
    problems = golden_problems([GoldenRow(QUESTION, "logrotate", ANCHOR, "", reply)],
                               [Document("logrotate", LOG, "current")])
    assert (problems == ()) is ok, problems
    if not ok:
        assert "must be yes or no, or empty" in problems[0].reason


def test_the_csv_reads_back_the_reply_and_writes_it_only_when_a_row_has_one():
    rows = [GoldenRow(QUESTION, "logrotate", ANCHOR, "", "yes"), GoldenRow("How long are logs kept?", "logrotate",
                                                                         "kept for 7 days", "7 days")]
    text = golden_to_csv(rows)
    assert text.splitlines()[0] == "question,doc,anchor,answer,reply"
    back, problems = read_golden_csv(text)
    assert problems == [] and [r.reply for r in back] == ["yes", ""] and back[1].answer == "7 days"
    assert golden_to_csv(rows[1:]).splitlines()[0] == "question,doc,anchor,answer"


def test_a_case_may_carry_a_reply_and_a_bad_one_costs_only_its_line():
    case = {"spans": [LOG], "answer": "Yes [S1].", "anchor": ANCHOR, "label": "right", "reply": "Yes"}
    assert parse_case(case).reply == "yes" and parse_case(case).as_dict()["reply"] == "yes"
    with pytest.raises(ValueError, match="'reply' must be"):
        parse_case(dict(case, reply="perhaps"))
    assert json.loads(json.dumps(parse_case(dict(case, reply=None)).as_dict())).get("reply") is None


@pytest.mark.parametrize("answer,reply", [("Yes, it is [S1].", "yes"), ("yes by default [S1]", "yes"),
                                          ("**No**, not by default [S1].", "no"), ("No. It is kept [S1].", "no"),
                                          ("No one but you [S1].", ""), ("Nope [S1].", "no"), ("Not really [S1].", ""),
                                          ("No data is kept [S1].", "")])
def test_the_opening_reply_is_a_yes_or_a_no_that_stands_alone(answer, reply):
    assert opening_reply(answer)[0] == reply


@pytest.mark.parametrize("answer", ["Yes [S1].", "Yes, it rolls over on its own [S1].", "yes, nightly [S1]"])
def test_the_golden_reply_with_nothing_against_the_key_is_answered(answer):
    got = judged(answer)
    assert got.outcome == "answered" and "answers Yes, the golden reply to this yes/no question" in got.sentence
    assert judged(answer, reply=None).outcome == "not confirmed"            # without a reply: as before


@pytest.mark.parametrize("answer", ["No [S1].", "No, it is not rotated unless you ask [S1].",
                                    "No. It is only rotated when the disk is full [S1]."])
def test_the_other_reply_is_a_wrong_answer_that_says_so(answer):
    got = judged(answer)
    assert got.outcome == "wrong answer" and "answers No where the golden reply to this yes/no question is Yes" \
        in got.sentence


def test_the_golden_reply_does_not_override_a_contradiction_or_a_doubt():
    assert judged("Yes, it is rotated every night (default False) [S1].").outcome == "wrong answer"
    assert judged("Yes, but it is only rotated every night on Linux [S1].").outcome == "not confirmed"
    assert judged("Yes, it is rotated every night (default True) [S1].").outcome == "answered"


def test_the_store_keeps_the_reply_and_a_reply_changes_the_datasets_key(tmp_path):
    from rag_core.store import Store
    from rag_core.store.records import dataset_key, golden_key
    store = Store(tmp_path / "store.sqlite")
    docs = [Document("logrotate", LOG, "current")]
    rows = (GoldenRow(QUESTION, "logrotate", ANCHOR, "", "yes"), GoldenRow("Kept how long?", "logrotate", ANCHOR))
    key = store.save_dataset("logs", docs, rows)
    assert store.load_dataset(key).golden == rows
    assert dataset_key("logs", docs, rows) != dataset_key("logs", docs, (rows[0]._replace(reply="no"), rows[1]))
    assert golden_key(rows[1:]) == golden_key([GoldenRow("Kept how long?", "logrotate", ANCHOR, "", "")])


def test_the_command_line_reads_the_reply_as_the_judge_does(capsys, tmp_path):
    from rag_core.__main__ import main
    spans = tmp_path / "spans.json"
    spans.write_text(json.dumps([LOG]))
    base = ["verify", "--spans", str(spans), "--anchor", ANCHOR, "--key", "rotated every night (default True)",
            "--question", QUESTION, "--reply", "yes"]
    assert main(base + ["--answer", "No, the log is rotated every night only in tests [S1]."]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == ("right: wrong answer: it answers No where the golden reply "
                                                        "to this yes/no question is Yes")
    assert main(base + ["--answer", "Yes, the log is rotated every night [S1].", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["right"] is True and doc["decided_by"] == ["Yes"]
    assert main(base[:-1] + ["maybe", "--answer", "Yes [S1]."]) == 2
    assert "--reply is yes or no" in capsys.readouterr().err


@pytest.mark.parametrize("answer", ["Yes, but only on Windows [S1].", "Yes, only when the disk is full [S1].",
                                    "Yes, however the setting is ignored on servers [S1].",
                                    "Yes [S1]. It happens only after a restart of the machine [S1]."])
def test_a_reply_restricted_by_but_or_an_only_condition_no_span_writes_is_not_green(answer):
    got = judged(answer)
    assert got.outcome == "not confirmed" and got.tone == "gray"


@pytest.mark.parametrize("answer", ["Yes, only the default keeps it rotating every night [S1].",
                                    "Yes; rotated logs are kept for 7 days [S1]."])
def test_an_only_without_an_unwritten_condition_leaves_the_reply_green(answer):
    assert judged(answer).outcome == "answered"
