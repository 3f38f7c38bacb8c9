"""An empty answer from a model is an answer like any other in a loop over questions: refused ("The answer is
empty."), counted, and the loop goes on. Against a real HTTP server (tests/fake_llm_server.py), not a mock.

One question asked alone (the Ask page, `generate`) still says the model returned an empty answer: there it is
the whole result, and "try again" is the useful advice.
"""
import json

import pytest
from streamlit.testing.v1 import AppTest

from fake_llm_server import start_server, stop_server
from rag_core import Workbench
from rag_core.__main__ import main
from rag_core.evaluation.pipeline import model_answerer
from rag_core.generation.llm import EmptyAnswer, LLMConfig, LLMError, generate
from apptest_helpers import APP, CUTOFF as QUESTION, run_golden, shown, snake

N = len(Workbench.bundled().golden_check.valid)


@pytest.fixture(scope="module")
def server():
    srv, url = start_server()
    yield url
    stop_server(srv)


@pytest.mark.parametrize("protocol", ["ollama", "openai"])
def test_one_empty_answer_alone_is_still_said(server, protocol):
    with pytest.raises(EmptyAnswer, match="returned an empty answer"):
        generate("Say nothing.", LLMConfig(protocol, server, "empty", timeout_s=10))
    assert issubclass(EmptyAnswer, LLMError)         # what catches a model's failure catches it


def test_the_loops_answerer_gives_an_empty_text(server):
    assert model_answerer(LLMConfig("ollama", server, "empty", timeout_s=10))("Q?", ["A span."]) == ""


@pytest.mark.parametrize("protocol", ["ollama", "openai"])
def test_report_goes_on_past_empty_answers(server, protocol, capsys):
    code = main(["report", "--format", "json", "--tables", "ceiling", "--generator", protocol,
                 "--llm-url", server, "--model", "empty", "--timeout", "10"])
    out, err = capsys.readouterr()
    assert code == 0, err
    rows = json.loads(out)["tables"]["pipeline_model"]
    assert [r["refused"] for r in rows] == [N, N] and [r["abstained"] for r in rows] == [0, 0]


def test_the_model_page_counts_empty_answers_as_refused(server):
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["llm_config"] = LLMConfig("openai", server, "empty", timeout_s=10)
    at.run()
    at.switch_page("pages/model.py").run()
    run_golden(at)
    assert not at.error, [e.value for e in at.error]
    assert list(snake(at.dataframe[0].value).refusal_rate) == [1.0, 1.0]
    per_question = at.dataframe[2].value
    assert len(per_question) == N and (per_question.answer == "").all()
    assert per_question.reason.str.contains("empty").all()


def test_the_ask_page_still_says_one_empty_answer(server):
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["llm_config"] = LLMConfig("ollama", server, "empty", timeout_s=10)
    at.run()
    at.switch_page("pages/ask.py").run()
    at.text_input(key="ask_question").set_value(QUESTION).run()
    at.button(key="ask_model").click().run()
    assert not at.exception
    assert any("returned an empty answer" in shown(e.value) for e in at.error)
