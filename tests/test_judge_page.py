"""The Judge page and the marks on Ask, in AppTest: with no marks it says how to make some and loads the bundled
examples; its figures equal `python -m rag_core judge --cases` on the same marks; a disagreement opens Ask with its
question and answer; marks made on Ask are kept in the store and counted; the list filters and exports; a model
connected (the fake server) adds its confusion and kappa, equal to the command's with the same model.

Each test keeps its marks in a data folder of its own (OPENBOOK_DATA_DIR)."""
import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from apptest_helpers import markdowns, shown
from fake_llm_server import start_server, stop_server
from rag_core.__main__ import main
from rag_core.evaluation.judges import holds_sentence
from rag_core.evaluation.labelled_sets import bundled_holds, rule_on_bundled_sets
from rag_core.store import Store

ROOT = Path(__file__).resolve().parents[1]
JUDGE, ASK = "pages/judge.py", "pages/ask.py"
CUTOFF = "What is the default cutoff of get_close_matches?"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENBOOK_DATA_DIR", str(tmp_path))
    for name in ("OPENBOOK_STORE", "OPENBOOK_LLM_URL", "OPENBOOK_LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def page(name: str, session: dict | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for k, v in (session or {}).items():
        at.session_state[k] = v
    at.switch_page(name).run()
    assert not at.exception, [e.message for e in at.exception]
    return at



def table_of(at, column: str, n: int = 0):
    """The n-th table of the page with that column (the bundled sets' table comes first, then the rule's, the
    model's and the marks')."""
    return [d.value for d in at.dataframe if column in d.value.columns][n]


def rule_cells(at) -> dict:
    """The rule's five cells as the page shows them (its first table of people's marks)."""
    df = table_of(at, "People say")
    names = {("right", "green"): "right_green", ("right", "not green"): "right_not_green",
             ("wrong", "green"): "wrong_green", ("wrong", "not green (not confirmed)"): "wrong_not_green",
             ("wrong", "called wrong (red)"): "wrong_called_wrong"}
    return {names[(p, j)]: int(n) for p, j, n in df.itertuples(index=False)}


def command_json(capsys, cases_text: str, tmp_path, *extra) -> dict:
    path = tmp_path / "cases.jsonl"
    path.write_text(cases_text)
    assert main(["judge", "--cases", str(path), "--format", "json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_no_marks_says_how_and_the_bundled_examples_equal_the_command(folder, capsys):
    at = page(JUDGE)
    assert "No answer to a golden question of this dataset is marked yet" in at.info[0].value
    at.button(key="judge_load").click().run()
    assert not at.exception
    assert "Loaded 217 bundled examples" in at.success[0].value
    labels = Store(folder / "openbook.sqlite3").labels.list("bundled")
    assert len(labels) == 115                                   # the article's questions; the user's are bundled-user
    want = command_json(capsys, Store(None).labels.as_cases(labels), folder)
    assert rule_cells(at) == want["rule"] and want["cases"] == 115
    green = want["rule"]["right_green"] + want["rule"]["wrong_green"]
    assert any(f"{want['rule']['right_green']} of the {green} answers the rule calls green" in m
               for m in markdowns(at)), markdowns(at)
    shown = [b for b in at.button if b.key and b.key.startswith("judge_open_")]
    assert len(shown) == len(want["disagreements"])
    held = sorted(want["right_not_green_by"].items(), key=lambda item: (-item[1], item[0]))
    assert holds_sentence(held) in markdowns(at)                # what holds right answers back, as the command counts
    by_page = table_of(at, "What holds it back", 1)             # the bundled sets' count comes first
    assert list(zip(by_page["What holds it back"], by_page["Right answers"])) == held
    assert holds_sentence(bundled_holds(rule_on_bundled_sets())) in markdowns(at)


def test_a_disagreement_opens_ask_with_its_question_and_answer(folder):
    at = page(JUDGE)
    at.button(key="judge_load").click().run()
    first = next(b for b in at.button if b.key == "judge_open_0")
    text = at.text[0].value
    question, answer = text.split("\n", 1)[0][3:], text.split("\nA: ", 1)[1]
    first.click().run()
    assert not at.exception
    assert at.session_state["ask_question"] == question and at.session_state["ask_answer"] == answer
    assert at.text_area(key="ask_answer").value == answer


def test_marks_made_on_ask_are_kept_and_counted(folder):
    at = page(ASK, {"ask_question": CUTOFF, "_keep_ask_question": CUTOFF})
    at.button(key="mark_scripted_wrong").click().run()
    assert "Your mark: **wrong**" in " ".join(c.value for c in at.caption)
    at.text_area(key="ask_answer").set_value("Optional arg cutoff (default 0.6) is a float [S1].").run()
    at.button(key="mark_yours_right").click().run()
    at.button(key="mark_scripted_right").click().run()       # marked again: replaced, not added
    labels = Store(folder / "openbook.sqlite3").labels.list("bundled")
    assert sorted((x.label, x.source) for x in labels) == [("right", "scripted"), ("right", "yours")]
    assert all(x.anchor and x.doc == "difflib" and x.question == CUTOFF for x in labels)
    at.button(key="mark_yours_clear").click().run()
    assert [x.source for x in Store(folder / "openbook.sqlite3").labels.list("bundled")] == ["scripted"]
    judge = page(JUDGE)
    assert sum(rule_cells(judge).values()) == 1 and judge.subheader[0].value.endswith(": 1 marked answer")


def test_the_list_filters_and_exports(folder):
    at = page(JUDGE)
    at.button(key="judge_load").click().run()
    at.selectbox(key="judge_filter_label").select("wrong").run()
    at.text_input(key="judge_filter_question").set_value("CUTOFF").run()
    df = table_of(at, "Marked")
    assert len(df) > 0 and set(df["Marked"]) == {"wrong"} and all("cutoff" in q.lower() for q in df["Question"])


@pytest.fixture(scope="module")
def fake():
    server, url = start_server()
    yield url
    stop_server(server)


def test_a_model_adds_its_confusion_and_kappa_equal_to_the_command(folder, fake, capsys, monkeypatch):
    store = Store(folder / "openbook.sqlite3")
    examples = (ROOT / "rag_core" / "data" / "labelled_answers.jsonl").read_text().splitlines()[:20]
    rows = [json.loads(x) for x in examples]
    store.labels.set_many([("bundled", r["question"], r["answer"], r["spans"], r["label"], r["anchor"], None, "t")
                           for r in rows])
    monkeypatch.setenv("OPENBOOK_LLM_URL", fake)
    monkeypatch.setenv("OPENBOOK_LLM_MODEL", "qwen2.5:7b")
    at = page(JUDGE)
    at.button(key="judge_model").click().run()
    assert not at.exception
    want = command_json(capsys, store.labels.as_cases(store.labels.list("bundled")), folder, "--generator",
                        "ollama", "--llm-url", fake, "--model", "qwen2.5:7b")
    model = table_of(at, "The model says")
    assert dict(zip(["right_green", "right_not_green", "wrong_green", "wrong_not_green", "wrong_called_wrong"],
                    [int(n) for n in model["Answers"]])) == want["model"]
    kappa = want["kappa"]
    said = f"{kappa['value']:.2f} (95 % interval {kappa['low']:.2f} to {kappa['high']:.2f}), over 20 answers"
    assert any(said in m for m in markdowns(at)), markdowns(at)


def test_a_connected_model_judges_an_answer_on_ask_beside_the_rule(folder, fake, monkeypatch):
    from rag_core.generation.llm import LLMConfig
    from rag_core.generation.model_judge import judge_with_model
    monkeypatch.setenv("OPENBOOK_LLM_URL", fake)
    monkeypatch.setenv("OPENBOOK_LLM_MODEL", "qwen2.5:7b")
    at = page(ASK, {"ask_question": CUTOFF, "_keep_ask_question": CUTOFF})
    badges_before = [m.value for m in at.markdown if "badge" in m.value]
    at.button(key="mark_scripted_model").click().run()
    assert not at.exception
    spans, answer = at.session_state["mark_scripted_verdict"][0][2], at.session_state["mark_scripted_verdict"][0][1]
    want = judge_with_model(CUTOFF, spans, "Optional arg cutoff (default 0.6)", answer,
                            LLMConfig("ollama", fake, "qwen2.5:7b"))
    said = [shown(c.value) for c in at.caption if c.value.startswith("The model judge")]
    assert said == [f"The model judge (qwen2.5:7b) says **{want.verdict}**: {want.why}"]
    assert [m.value for m in at.markdown if "badge" in m.value] == badges_before     # the rule's verdict stays


def test_the_bundled_sets_come_first_and_equal_the_library(folder):
    from rag_core.evaluation.labelled_sets import bundled_summary, rule_on_bundled_sets
    at = page(JUDGE)
    sets = rule_on_bundled_sets()
    assert bundled_summary(sets) in [m.value for m in at.markdown]
    shown = table_of(at, "Precision when green")
    assert list(shown["Set"]) == [f"{s.name}.jsonl" for s in sets]
    assert list(shown["Answers"]) == [s.rule.total for s in sets]
