"""The citation grammar for small local models: off by default (nothing sent), sent as llama.cpp's `grammar` field
when chosen (OpenAI-compatible protocol only), read from OPENBOOK_LLM_GRAMMAR, chosen in the model form, and never
sent with the model judge's question; the shape it allows (CITED) is what the strict checker can check."""
from pathlib import Path

import httpx
import pytest
from streamlit.testing.v1 import AppTest

from fake_llm_server import start_server, stop_server
from rag_core.generation.citation_grammar import cite_gbnf, fits
from rag_core.generation.llm import LLMConfig, config_from_env, generate
from rag_core.generation.model_judge import judge_with_model
from rag_core.generation.verifier import verify


@pytest.fixture(scope="module")
def fake():
    server, url = start_server()
    yield url
    stop_server(server)


def sent(url: str) -> dict:
    return httpx.get(f"{url}/_last_request").json()["body"]


@pytest.mark.parametrize("stream", [True, False])
def test_the_grammar_is_sent_only_when_chosen(fake, stream):
    generate("[S1] The cutoff is 0.6.\nQuestion?", LLMConfig("openai", fake, "echo-cite", timeout_s=10), stream=stream)
    assert "grammar" not in sent(fake)
    generate("[S1] The cutoff is 0.6.\nQuestion?", LLMConfig("openai", fake, "echo-cite", timeout_s=10,
                                                             grammar="cite"), stream=stream)
    assert sent(fake)["grammar"] == cite_gbnf("[S1] The cutoff is 0.6.\nQuestion?")
    assert 'span ::= "1"\n' in sent(fake)["grammar"]                      # the one span the prompt lays out


def test_the_grammar_allows_only_the_spans_the_prompt_lays_out():
    """A model cited [S4] beside three spans: the grammar names each span number the prompt has, and no other."""
    assert 'span ::= "1" | "2" | "3"\n' in cite_gbnf("Context:\n[S1] a\n\n[S2] b\n\n[S3] c\n\nQuestion: q?")
    assert cite_gbnf("Question: q? (no spans)").startswith("root ::= abstain\n")       # it can only abstain


def test_the_model_judge_never_sends_it(fake):
    cfg = LLMConfig("openai", fake, "qwen2.5:7b", timeout_s=10, grammar="cite")
    assert judge_with_model("q?", ["The cutoff is 0.6."], "cutoff 0.6", "The cutoff is 0.6 [S1].", cfg).verdict
    assert "grammar" not in sent(fake)


def test_bad_choices_say_how_to_fix_them():
    with pytest.raises(ValueError, match="'off' or 'cite'"):
        LLMConfig("openai", "http://127.0.0.1:8080", "m", grammar="json")
    with pytest.raises(ValueError, match="OpenAI-compatible"):
        LLMConfig("ollama", "http://127.0.0.1:11434", "m", grammar="cite")
    env = {"OPENBOOK_LLM_PROTOCOL": "openai", "OPENBOOK_LLM_URL": "http://127.0.0.1:8080", "OPENBOOK_LLM_MODEL": "m"}
    assert config_from_env({**env, "OPENBOOK_LLM_GRAMMAR": "Cite"}).grammar == "cite"
    assert config_from_env(env).grammar == "off"
    with pytest.raises(ValueError, match="OPENBOOK_LLM_GRAMMAR"):
        config_from_env({**env, "OPENBOOK_LLM_GRAMMAR": "yes"})


@pytest.mark.parametrize("answer, shaped", [
    ("The cutoff is 0.6 [S1].", True),
    ("The cutoff is 0.6 [S1]. It is a float in [0, 1] [S2].", False),     # brackets inside a sentence: not allowed
    ("The cutoff is 0.6 [S1]. It is a float [S12].", True),
    ("NOT IN THE CONTEXT", True),
    ("The cutoff is 0.6.", False),
    ("The cutoff is 0.6 [S0].", False),
    ("[S1].", False),
    # a sentence may not end before its citation (the model wrote on for 300 tokens, citing nothing), but a
    # period inside a word or number stays allowed
    ("The cutoff is 0.6. It is a float [S1].", False),
    ("Call a.insert(i, x) with 0.5 [S1].", True),
    ("It is sorted.The value is 3 [S1].", False),                        # a new sentence glued to the last
    ("x" * 300 + " [S1].", False),                                       # over 241 characters, still no citation
])
def test_the_shape_it_allows(answer, shaped):
    assert fits(answer) is shaped


def test_every_well_shaped_answer_is_one_the_checker_can_check():
    spans = ["The default cutoff is 0.6.", "A draft says 0.9."]
    for answer in ["The default cutoff is 0.6 [S1].", "NOT IN THE CONTEXT", "The cutoff is 0.9 [S1]."]:
        assert fits(answer)
        assert verify(answer, spans, "strict").verdict in ("anchored", "abstained", "refused")
    assert verify("The default cutoff is 0.6 [S1].", spans, "strict").verdict != "refused"


def test_the_model_form_sets_it(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENBOOK_DATA_DIR", str(tmp_path))
    for name in ("OPENBOOK_LLM_URL", "OPENBOOK_LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    at = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "app.py"), default_timeout=120).run()
    at.switch_page("pages/model.py").run()
    at.selectbox(key="llm_form_protocol").select("openai")
    at.text_input(key="llm_form_url").set_value("http://127.0.0.1:8080")
    at.text_input(key="llm_form_model").set_value("smollm2")
    at.selectbox(key="llm_form_grammar").select("cite")
    at.button(key="llm_form_use").click().run()
    assert not at.exception and at.session_state["llm_config"].grammar == "cite"
