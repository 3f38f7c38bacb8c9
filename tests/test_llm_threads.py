"""A thread count for the model server: sent to Ollama as options.num_thread when set (0: none sent, the server
chooses), never to an OpenAI-compatible server (llama.cpp takes it when started); read from OPENBOOK_LLM_THREADS,
chosen in the sidebar's model form (1 at first on a machine with two cores). Against the fake server."""
from pathlib import Path

import httpx
import pytest
from streamlit.testing.v1 import AppTest

from fake_llm_server import start_server, stop_server
from rag_core.generation.llm import LLMConfig, config_from_env, generate

PROMPT = "Answer from the spans.\n[S1] Optional arg cutoff (default 0.6).\nQuestion: What is the default cutoff?"


def last_request(url: str) -> dict:
    return httpx.get(f"{url}/_last_request", timeout=5).json()


@pytest.fixture(scope="module")
def base_url():
    server, url = start_server()
    yield url
    stop_server(server)


def test_ollama_gets_num_thread_only_when_set(base_url):
    generate(PROMPT, LLMConfig("ollama", base_url, "abstain", timeout_s=5.0, threads=1), stream=False)
    assert last_request(base_url)["body"]["options"]["num_thread"] == 1
    generate(PROMPT, LLMConfig("ollama", base_url, "abstain", timeout_s=5.0), stream=False)
    assert "num_thread" not in last_request(base_url)["body"]["options"]


def test_an_openai_compatible_server_gets_no_thread_count(base_url):
    generate(PROMPT, LLMConfig("openai", base_url, "abstain", timeout_s=5.0, threads=2), stream=False)
    body = last_request(base_url)["body"]
    assert not any("thread" in k for k in body) and "options" not in body


@pytest.mark.parametrize("bad", [-1, 1.5, "2"])
def test_a_bad_thread_count_says_how_to_fix_it(bad):
    with pytest.raises(ValueError, match="thread count"):
        LLMConfig("ollama", "http://127.0.0.1:11434", "m", threads=bad)


def test_the_environment_sets_it_and_a_bad_value_names_the_variable():
    env = {"OPENBOOK_LLM_URL": "http://127.0.0.1:11434", "OPENBOOK_LLM_MODEL": "m"}
    assert config_from_env({**env, "OPENBOOK_LLM_THREADS": "1"}).threads == 1
    assert config_from_env(env).threads == 0
    with pytest.raises(ValueError, match="OPENBOOK_LLM_THREADS"):
        config_from_env({**env, "OPENBOOK_LLM_THREADS": "two"})


def test_the_model_form_sets_it(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENBOOK_DATA_DIR", str(tmp_path))
    for name in ("OPENBOOK_LLM_URL", "OPENBOOK_LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    at = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "app.py"), default_timeout=120).run()
    at.switch_page("pages/model.py").run()                                      # the form is on the Model page
    assert at.number_input(key="llm_form_threads").value == 1          # two cores: 1 at first
    at.text_input(key="llm_form_url").set_value("http://127.0.0.1:11434")
    at.text_input(key="llm_form_model").set_value("qwen2.5:7b")
    at.number_input(key="llm_form_threads").set_value(3)
    at.button(key="llm_form_use").click().run()
    assert not at.exception and at.session_state["llm_config"].threads == 3
