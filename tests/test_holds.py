"""What keeps an answer from green, counted: Judgement.hold for each outcome and each reason an answer is not
confirmed, the count over labelled cases (judges.holds) as the command and the Judge page show it, and its sentence
on generated counts (ties, one reason, one answer, none)."""
import json

from hypothesis import given, settings, strategies as st

from one_document import Documents, judged_in
from rag_core.__main__ import main
from rag_core.evaluation import judgement as J
from rag_core.evaluation.cases import LabelledCase
from rag_core.evaluation.judgement import judge_answer
from rag_core.evaluation.judges import CaseRow, holds, holds_sentence
from rag_core.evaluation.labelled_sets import LabelledSet, bundled_holds

CUTOFF = "Optional arg cutoff (default 0.6) is a float in [0, 1]. Possibilities that don't score at least that " \
         "similar to word are ignored."
DRAFT = "NOTE (draft): the default cutoff of get_close_matches is 0.9, so only near identical words are returned."
Q = "What is the default cutoff of get_close_matches?"


def cutoff(answer: str):
    return judge_answer(answer, [CUTOFF, DRAFT], [0, 1], Documents(("difflib", "current"), ("note-difflib", "draft")),
                        "difflib", "Optional arg cutoff (default 0.6)", key="0.6", question=Q)


def test_each_outcome_and_each_reason_to_not_confirm_says_what_holds_it_back():
    said = {
        "The default cutoff is 0.6 [S1].": "",
        "The default cutoff is 0.6 [S1]. Loose matches slow every lookup down.": J.UNCITED_END,
        "Anything close enough is suggested [S1].": J.NOTHING_TO_CHECK,
        "I think the default cutoff is probably 0.6 [S1].": J.DOUBT,
        "Optional arg cutoff is a float in [0, 1] [S1].": J.NOT_STATED,
        "The default cutoff is 0.6.": J.HOLDS["refused"],
        "The default cutoff is 0.9 [S2].": J.HOLDS["wrong source"],
        "The default cutoff is 1 [S1].": J.HOLDS["wrong answer"],
        "NOT IN THE CONTEXT": J.HOLDS["abstained"],
    }
    for answer, hold in said.items():
        got = cutoff(answer)
        assert got.hold == hold, (answer, got.outcome, got.sentence)
    assert judged_in(CUTOFF, "difflib", None)("The default cutoff is 0.6 [S1].").hold == J.HOLDS["grounded"]


def _row(label: str, tone: str, hold: str) -> CaseRow:
    return CaseRow(LabelledCase(("s",), "a [S1].", "s", label), "x", tone, "", rule_hold=hold)


def test_the_count_takes_right_answers_not_green_only_most_first_ties_by_name():
    rows = [_row("right", "gray", "b"), _row("right", "red", "a"), _row("right", "green", ""),
            _row("wrong", "gray", "c"), _row("right", "gray", "b"), _row("right", "gray", "a")]
    assert holds(rows) == [("a", 2), ("b", 2)]
    assert holds(rows, "wrong") == [("c", 1)]
    sets = [LabelledSet("one", None, (("a", 2), ("b", 1))), LabelledSet("two", None, (("b", 3),))]
    assert bundled_holds(sets) == [("b", 4), ("a", 2)]


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted({J.UNCITED_END, J.NOTHING_TO_CHECK, J.DOUBT, J.NOT_STATED,
                                                *J.HOLDS.values()})), st.integers(0, 40), max_size=8))
def test_the_sentence_is_true_of_any_count(counts):
    counted = sorted(((k, n) for k, n in counts.items() if n), key=lambda item: (-item[1], item[0]))
    said = holds_sentence(counted)
    total = sum(n for _, n in counted)
    if total == 0:
        assert said == "The rule calls every right answer here green: nothing holds one back."
        return
    if total == 1:
        assert said == f"The one right answer not green is held back because {counted[0][0]}."
        return
    top = counted[0][1]
    assert said.startswith(f"Of the {total:,} right answers not green, {top:,} ({top / total:.0%}) are held back ")
    for why, n in counted:
        assert (why in said) == (n == top), (why, said)           # every reason tied for most, and only those


def test_the_command_prints_the_sentence_and_its_json_counts(tmp_path, capsys):
    cases = [{"spans": [CUTOFF], "question": Q, "anchor": "Optional arg cutoff (default 0.6)", "label": "right",
              "answer": a} for a in ("The default cutoff is 0.6 [S1]. Loose matches slow every lookup down.",
                                     "Anything close enough is suggested [S1].", "The default cutoff is 0.6 [S1].")]
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(json.dumps(c) for c in cases))
    assert main(["judge", "--cases", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"Of the 2 right answers not green, 1 (50%) are held back because {J.UNCITED_END}, and 1 because " \
           f"{J.NOTHING_TO_CHECK}." in out                   # tied: by name
    assert main(["judge", "--cases", str(path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["right_not_green_by"] == {J.NOTHING_TO_CHECK: 1, J.UNCITED_END: 1}
