"""Judging the judge, the library: the five cells, precision when green and Cohen's kappa against hand-computed
figures; labelled cases read line by line (a bad line costs only itself); spans found in the corpus; the rule's
decision of a case equal to the Ask page's; the model judge's prompt, its strict reading of replies, and a whole
run against the fake server (tests/fake_llm_server.py plays the judge), with the length bias measured."""
import json
import math
from pathlib import Path

import pytest

from fake_llm_server import start_server, stop_server
from rag_core.data.corpus import Document, bundled_corpus
from rag_core.data.golden import load_golden
from rag_core.evaluation.cases import UNMATCHED, LabelledCase, SpanSources, read_cases, rule_judgement
from rag_core.evaluation.confusion import Confusion, cell, confusion, kappa, kappa_sentence
from rag_core.evaluation.judges import CaseRow, judge_cases, length_bias, own_answers
from rag_core.generation.llm import LLMConfig
from rag_core.generation.model_judge import ASK, judge_prompt, judge_with_model, parse_verdict

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = ROOT / "rag_core" / "data" / "labelled_answers.jsonl"
DOC = "## difflib.get_close_matches\n\nOptional arg cutoff (default 0.6) is a float in [0, 1]."
NOTE = "NOTE (draft): the default cutoff of get_close_matches is 0.9."
DOCS = (Document("difflib", "MODULE difflib\n\n" + DOC + "\n\nMore text."), Document("note", NOTE, "draft"))
ANCHOR = "Optional arg cutoff (default 0.6)"


def case(answer, label, spans=(DOC, NOTE), **kw):
    return LabelledCase(tuple(spans), answer, ANCHOR, label, **kw)


# ---- the counts -------------------------------------------------------------------------------------

def test_each_pair_lands_in_its_cell():
    assert [cell(*p) for p in [("right", "green"), ("right", "red"), ("right", "blue"), ("wrong", "green"),
                               ("wrong", "red"), ("wrong", "gray")]] == \
        ["right_green", "right_not_green", "right_not_green", "wrong_green", "wrong_called_wrong", "wrong_not_green"]
    c = confusion([("right", "green"), ("right", "green"), ("right", "orange"), ("wrong", "green"),
                   ("wrong", "red"), ("wrong", "blue"), ("wrong", "blue")])
    assert c == Confusion(2, 1, 1, 2, 1) and c.total == 7 and c.agreement == 5
    assert c.precision_when_green == pytest.approx(2 / 3)
    assert math.isnan(confusion([("right", "red")]).precision_when_green)
    with pytest.raises(ValueError, match="'right' or 'wrong'"):
        cell("maybe", "green")


def test_kappa_against_a_hand_computed_example():
    # 10 cases: both yes 4, a yes b no 1, a no b yes 2, both no 3. po = 0.7; pa = 0.5, pb = 0.6,
    # pe = 0.5 * 0.6 + 0.5 * 0.4 = 0.5; kappa = 0.4; se = sqrt(0.7 * 0.3 / (10 * 0.25)) = 0.28983
    a = [1] * 4 + [1] + [0] * 2 + [0] * 3
    b = [1] * 4 + [0] + [1] * 2 + [0] * 3
    k = kappa(a, b)
    assert k.n == 10 and k.observed == pytest.approx(0.7) and k.value == pytest.approx(0.4)
    assert k.low == pytest.approx(0.4 - 1.959964 * 0.289828, abs=1e-5)
    assert k.high == pytest.approx(0.4 + 1.959964 * 0.289828, abs=1e-5)
    assert kappa([1, 1, 0, 0], [1, 0, 0, 0])[:3] == pytest.approx((0.5, 0.5 - 1.959964 * 0.4330127, 1.0))
    assert kappa([1, 0, 1], [1, 0, 1]).value == pytest.approx(1.0)
    same = kappa([1, 1], [1, 1])                   # chance explains all: undefined, said so
    assert math.isnan(same.value) and "cannot be computed" in kappa_sentence(same)
    with pytest.raises(ValueError, match="same cases"):
        kappa([1], [1, 0])


# ---- reading cases ----------------------------------------------------------------------------------

def test_a_bad_line_costs_only_itself():
    good = json.dumps(case("Default: 0.6 [S1].", "right", question="q?", key="0.6").as_dict())
    text = "\n".join([good, "not json", "[1, 2]", json.dumps({"spans": [], "answer": "a", "anchor": "b",
                                                              "label": "right"}),
                      json.dumps({"spans": ["a"], "answer": "a", "anchor": "b", "label": "maybe"}), "",
                      json.dumps({"spans": ["a"], "answer": "a", "label": "right"}), good])
    cases, problems = read_cases(text)
    assert [c.line for c in cases] == [1, 8] and cases[0].key == "0.6" and cases[0].question == "q?"
    assert [n for n, _ in problems] == [2, 3, 4, 5, 7]
    assert "not valid JSON" in problems[0][1] and "missing 'anchor'" in problems[4][1]
    assert all(p.endswith("skipped.") for _, p in problems)


def test_spans_are_found_in_the_corpus_and_the_unmatched_are_trusted_passages_of_the_expected_doc():
    sources = SpanSources(DOCS)
    assert sources.find(DOC) == ("difflib", "current") and sources.find(NOTE) == ("note", "draft")
    assert sources.find("Optional arg cutoff   (default 0.6)\nis a float") == ("difflib", "current")
    assert sources.find("words found nowhere") is None
    c = case("Optional arg cutoff (default 0.6) [S1].", "right")
    assert sources.expected_doc(c) == "difflib"                 # the span holding the anchor
    assert rule_judgement(c, sources).tone == "green"
    assert rule_judgement(case("The default is 0.9 [S2].", "wrong"), sources).outcome == "wrong source"
    stray = case("Optional arg cutoff (default 0.6) [S1].", "right", spans=("Optional arg cutoff (default 0.6).",))
    assert SpanSources(()).expected_doc(stray) == UNMATCHED and rule_judgement(stray, SpanSources(())).tone == "green"


def test_the_rule_decides_a_case_as_the_ask_page_decides_the_answer():
    """The same answer, spans and anchor through the real index (Ask) and through the case: the same outcome."""
    from rag_core.evaluation.judgement import judge_answer
    from rag_core.evaluation.pipeline import ask
    from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Workbench
    wb = Workbench(bundled_corpus(), load_golden())
    ix = wb.index(ARTICLE_CHUNKER)
    row = load_golden()[0]
    a = ask(ix, row.question, 10, 3, True, set(wb.corpus.statuses))
    sources = SpanSources(wb.corpus.documents, load_golden())
    for answer in [a.answer, f"{row.anchor} [S1].", "The cutoff is 0.9 [S2].", "NOT IN THE CONTEXT", "It is 7."]:
        on_ask = judge_answer(answer, a.spans, a.retrieved.ids, ix, row.doc, row.anchor, wb.trusted)
        as_case = rule_judgement(LabelledCase(tuple(a.spans), answer, row.anchor, "right", row.question), sources)
        assert (as_case.outcome, as_case.sentence) == (on_ask.outcome, on_ask.sentence)


def test_the_bundled_examples_read_whole_and_every_span_is_found():
    cases, problems = read_cases(BUNDLED.read_text())
    assert len(cases) == 217 and problems == []
    sources = SpanSources(bundled_corpus().documents)
    assert all(sources.find(s) is not None for c in cases for s in c.spans)
    report = judge_cases(cases, SpanSources(bundled_corpus().documents, load_golden() + load_golden("user")))
    assert report.rule.total == 217 and report.model is None
    assert sum(r.rule_disagrees for r in report.rows) == report.rule.right_not_green + report.rule.wrong_green


@pytest.mark.parametrize("name,size,wrong_green,right_green", [("labelled_answers.jsonl", 217, 0, 96),
                                                               ("labelled_answers_fresh.jsonl", 224, 0, 89),
                                                               ("labelled_answers_fresh3.jsonl", 236, 1, 109),
                                                               ("labelled_answers_fresh4.jsonl", 181, 1, 86),
                                                               ("labelled_answers_fresh5.jsonl", 203, 0, 67),
                                                               ("labelled_answers_fresh6.jsonl", 108, 0, 45),
                                                               ("labelled_answers_fresh7.jsonl", 108, 0, 40),
                                                               ("labelled_answers_fresh8.jsonl", 64, 1, 25),
                                                               ("labelled_answers_fresh9.jsonl", 96, 3, 42),
                                                               ("labelled_answers_fresh10.jsonl", 48, 1, 21),
                                                               ("labelled_answers_fresh11.jsonl", 72, 0, 29),
                                                               ("labelled_answers_fresh12.jsonl", 72, 0, 33),
                                                               ("labelled_answers_fresh13.jsonl", 72, 1, 30),
                                                               ("labelled_answers_fresh14.jsonl", 72, 1, 27),
                                                               ("labelled_answers_fresh15.jsonl", 72, 1, 34),
                                                               ("labelled_answers_fresh16.jsonl", 72, 1, 26),
                                                               ("labelled_answers_fresh17.jsonl", 72, 2, 26),
                                                               ("labelled_answers_fresh18.jsonl", 72, 2, 32),
                                                               ("labelled_answers_fresh19.jsonl", 72, 4, 29),
                                                               ("labelled_answers_fresh20.jsonl", 72, 3, 22),
                                                               ("labelled_answers_fresh21.jsonl", 72, 6, 34),
                                                               ("labelled_answers_fresh22.jsonl", 72, 2, 28),
                                                               ("labelled_answers_fresh23.jsonl", 72, 1, 28),
                                                               ("labelled_answers_fresh24.jsonl", 72, 3, 29),
                                                               ("labelled_answers_fresh25.jsonl", 72, 1, 28),
                                                               ("labelled_answers_fresh26.jsonl", 72, 0, 24),
                                                               ("labelled_answers_fresh27.jsonl", 72, 0, 19),
                                                               ("labelled_answers_fresh28.jsonl", 72, 0, 21),
                                                               ("labelled_answers_fresh29.jsonl", 72, 0, 16),
                                                               ("labelled_answers_fresh30.jsonl", 72, 0, 12),
                                                               ("labelled_answers_fresh31.jsonl", 72, 1, 26),
                                                               ("labelled_answers_fresh32.jsonl", 72, 1, 12),
                                                               ("labelled_answers_fresh33.jsonl", 72, 0, 10),
                                                               ("labelled_answers_fresh34.jsonl", 72, 1, 23),
                                                               ("labelled_answers_fresh35.jsonl", 72, 0, 8),
                                                               ("labelled_answers_fresh36.jsonl", 72, 0, 19),
                                                               ("labelled_answers_fresh37.jsonl", 72, 2, 23),
                                                               ("labelled_answers_fresh38.jsonl", 72, 0, 6),
                                                               ("labelled_answers_fresh39.jsonl", 72, 1, 25),
                                                               ("labelled_answers_fresh40.jsonl", 72, 0, 15),
                                                               ("labelled_answers_fresh41.jsonl", 72, 0, 15),
                                                               ("labelled_answers_fresh42.jsonl", 72, 0, 29),
                                                               ("labelled_answers_fresh43.jsonl", 72, 0, 18),
                                                               ("labelled_answers_fresh44.jsonl", 72, 0, 23),
                                                               ("labelled_answers_fresh45.jsonl", 72, 0, 18),
                                                               ("labelled_answers_fresh46.jsonl", 72, 1, 26),
                                                               ("labelled_answers_fresh47.jsonl", 72, 1, 14),
                                                               ("labelled_answers_fresh48.jsonl", 72, 2, 20),
                                                               ("labelled_answers_fresh49.jsonl", 72, 0, 20),
                                                               ("labelled_answers_fresh50.jsonl", 72, 2, 13),
                                                               ("labelled_answers_fresh51.jsonl", 72, 0, 14),
                                                               ("labelled_answers_fresh52.jsonl", 72, 0, 16)])
def test_on_the_bundled_labelled_sets_green_is_right(name, size, wrong_green, right_green):
    """The rule was tuned on every set, each after it was judged once held out (the README has those figures). Its
    wrong greens are wrong claims about something else than the key ('It always raises a ValueError when the final
    batch is shorter than n', "'?' will match them"), which a lexical rule does not see. The right answers made
    green are a floor: a change that loses one says so here."""
    cases, problems = read_cases((BUNDLED.parent / name).read_text())
    assert len(cases) == size and problems == []
    sources = SpanSources(bundled_corpus().documents, load_golden() + load_golden("user"))
    assert all(sources.find(s) is not None for c in cases for s in c.spans)
    report = judge_cases(cases, sources)
    assert report.rule.wrong_green <= wrong_green, [r.case.answer for r in report.rows
                                                    if r.case.label == "wrong" and r.rule_tone == "green"]
    assert report.rule.right_green >= right_green, report.rule


# ---- the model judge --------------------------------------------------------------------------------

@pytest.mark.parametrize("reply, verdict, why", [
    ("RIGHT\nIt says 0.6.", "RIGHT", "It says 0.6."),
    ("**Wrong** - 0.9 is the draft's", "WRONG", "0.9 is the draft's"),
    ("\n  Verdict: right.\n\nBecause.", "RIGHT", "Because."),
    ("RIGHT or WRONG", None, ""),
    ("NOT RIGHT", None, ""),
    ("Correct.", None, ""),
    ("", None, ""),
    ("...\n", None, ""),
    ("Rightly so", None, ""),
])
def test_a_reply_is_read_strictly(reply, verdict, why):
    got = parse_verdict(reply)
    assert (got.verdict, got.why) == (verdict, why)
    assert got.tone == {"RIGHT": "green", "WRONG": "red", None: "gray"}[verdict]


def test_the_prompt_holds_the_question_spans_golden_answer_and_answer():
    p = judge_prompt("What is the cutoff?", [DOC, NOTE], ANCHOR, "Default: 0.6 [S1].")
    assert "Question: What is the cutoff?" in p and "[S2] NOTE (draft)" in p and f"Golden answer: {ANCHOR}" in p
    assert "Answer to check: Default: 0.6 [S1]." in p and p.endswith(ASK)


@pytest.fixture(scope="module")
def fake():
    server, url = start_server()
    yield url
    stop_server(server)


@pytest.mark.parametrize("protocol", ["ollama", "openai"])
def test_the_fake_server_plays_the_judge_at_temperature_0(fake, protocol):
    import httpx
    cfg = LLMConfig(protocol, fake, "qwen2.5:7b", timeout_s=10, temperature=0.8, seed=1)
    assert judge_with_model("q?", [DOC], ANCHOR, "Optional arg cutoff (default 0.6) [S1].", cfg).verdict == "RIGHT"
    sent = httpx.get(f"{fake}/_last_request").json()["body"]
    options = sent.get("options", sent)
    assert options["temperature"] == 0 and options["seed"] == 7
    assert judge_with_model("q?", [DOC], ANCHOR, "The cutoff is 0.9 [S1].", cfg).verdict == "WRONG"
    assert judge_with_model("q?", [DOC], ANCHOR, "x", LLMConfig(protocol, fake, "fixed:Hmm.", timeout_s=10)).verdict \
        is None


def test_a_run_with_the_model_counts_both_judges_and_their_kappa(fake):
    cfg = LLMConfig("ollama", fake, "qwen2.5:7b", timeout_s=10)
    cases = [case("Optional arg cutoff (default 0.6) is a float [S1].", "right"),
             case("The default cutoff is 0.9 [S2].", "wrong"),
             case("Optional arg cutoff (default 0.6) [S2].", "wrong"),     # the draft cited: it lacks 0.6
             case("Cutoff 0.6.", "right")]                                 # no citation: the rule refuses
    model = lambda c: judge_with_model(c.question, c.spans, c.anchor, c.answer, cfg)   # noqa: E731
    report = judge_cases(cases, SpanSources(DOCS), model=model)
    assert [r.rule_tone for r in report.rows] == ["green", "orange", "red", "red"]
    assert [r.model_verdict for r in report.rows] == ["RIGHT", "WRONG", "RIGHT", "WRONG"]
    assert report.rule == Confusion(1, 1, 0, 1, 1) and report.model == Confusion(1, 1, 1, 0, 1)
    assert report.kappa.value == pytest.approx(kappa([1, 0, 1, 0], [1, 0, 0, 0]).value)
    doc = report.as_dict()
    assert doc["rule"] == report.rule.as_dict() and doc["kappa"]["n"] == 4


def test_a_failed_model_call_costs_its_case_only(fake):
    calls = []

    def model(c):
        calls.append(c)
        if len(calls) == 1:
            raise RuntimeError("The server did not answer.")
        return parse_verdict("RIGHT\nfine")
    report = judge_cases([case("a [S1].", "right"), case("b [S1].", "wrong")], SpanSources(DOCS), model=model)
    assert [(r.model_verdict, r.model_error) for r in report.rows] == [(None, "The server did not answer."),
                                                                       ("RIGHT", "")]


def test_the_length_bias_is_named_when_it_shows(fake):
    long_ = " ".join(["word"] * 20) + " [S1]."
    cases = [case(a, label) for label in ("right", "wrong") for a in (long_, long_, "Short [S1].", "Tiny [S1].")]
    biased = LLMConfig("ollama", fake, "judge-long", timeout_s=10)
    report = judge_cases(cases, SpanSources(DOCS),
                         model=lambda c: judge_with_model(c.question, c.spans, c.anchor, c.answer, biased))
    assert report.length.shows and report.length.rates == (("right", 1.0, 2, 0.0, 2), ("wrong", 1.0, 2, 0.0, 2))
    assert report.length.sentence().startswith("The model favours long answers")
    fair = [CaseRow(c, "x", "gray", "", "RIGHT" if i % 2 else "WRONG") for i, c in enumerate(cases)]
    assert not length_bias(fair).shows and "No sign" in length_bias(fair).sentence()


def test_its_own_answers_are_compared_with_the_others_of_the_same_label():
    cases = [case(f"answer {i} [S1].", label) for label in ("right", "wrong") for i in range(4)]
    says = ["RIGHT", "RIGHT", "WRONG", "WRONG", "RIGHT", "WRONG", "WRONG", "WRONG"]
    rows = [CaseRow(c, "x", "gray", "", v) for c, v in zip(cases, says)]
    writers = ["model:m", "model:m", "yours", "scripted", "model:m", "yours", "yours", "model:other"]
    got = own_answers(rows, writers, "m")
    assert got.shows and got.rates == (("right", 1.0, 2, 0.0, 2), ("wrong", 1.0, 1, 0.0, 3))
    assert got.sentence("m").startswith("The model favours its own answers: of right answers it says RIGHT to 100%")
    assert not own_answers(rows, writers, "other").shows          # its one answer, called WRONG
    assert own_answers(rows, ["yours"] * 8, "m").rates == () and "cannot be told" in \
        own_answers(rows, ["yours"] * 8, "m").sentence("m")
