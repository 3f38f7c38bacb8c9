"""rag_core.llm against a real HTTP server on 127.0.0.1 (tests/fake_llm_server.py); nothing is mocked."""
from __future__ import annotations

import dataclasses
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))   # fake_llm_server sits next to this file
from fake_llm_server import API_KEY, start_server, stop_server  # noqa: E402

from rag_core.llm import (Generation, LLMConfig, LLMError, config_from_env, estimate_tokens,  # noqa: E402
                          fits_context, generate, stream_generate)

ROOT = Path(__file__).resolve().parents[1]
LEAKY_KEY = "sk-test-DO-NOT-LEAK-1234"      # a key no message, repr or log may ever contain
PROMPT = ("Answer from the context only and cite passages like [S1].\n\n"
          "[S1] statistics: The median is the middle value of the data. It is robust.\n"
          "[S2] bisect: Bisection keeps a list sorted.\n\n"
          "Question: what is the median?")
BOTH = pytest.mark.parametrize("protocol", ["ollama", "openai"])
STREAM = pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])


@pytest.fixture(scope="module")
def base_url():
    server, url = start_server()
    yield url
    stop_server(server)


def make_cfg(url: str, protocol: str, model: str, **kw) -> LLMConfig:
    return LLMConfig(protocol=protocol, base_url=url, model=model, timeout_s=kw.pop("timeout_s", 5.0), **kw)


def last_request(url: str) -> dict:
    return httpx.get(f"{url}/_last_request", timeout=5).json()


def failure(cfg: LLMConfig, stream: bool, prompt: str = PROMPT) -> str:
    """The LLMError message of a call that must fail; checks the key leaks nowhere."""
    with pytest.raises(LLMError) as caught:
        generate(prompt, cfg, stream=stream)
    message = str(caught.value)
    for key in (LEAKY_KEY, API_KEY, cfg.api_key):
        if key:
            assert key not in message and key not in repr(caught.value)
    return message


# --- answers -------------------------------------------------------------------------------------

@BOTH
@STREAM
@pytest.mark.parametrize("model, expected", [
    ("invented", "The default cutoff is 0.9 [S1]."),
    ("out-of-range", "The answer is here [S9]."),
    ("no-citation", "The default cutoff is 0.6."),
    ("abstain", "NOT IN THE CONTEXT"),
    ("fixed:Anything at all, said twice.", "Anything at all, said twice."),
    ("echo-cite", "statistics: The median is the middle value of the data [S1]."),
])
def test_canned_answers_and_token_counts(base_url, protocol, stream, model, expected):
    result = generate(PROMPT, make_cfg(base_url, protocol, model), stream=stream)
    assert isinstance(result, Generation)
    assert result.text == expected
    assert result.prompt_tokens == len(PROMPT.split())
    assert result.completion_tokens == len(expected.split())
    assert (result.protocol, result.model) == (protocol, model)
    assert 0 < result.latency_s < 5


@BOTH
def test_streaming_delivers_pieces_as_they_come(base_url, protocol):
    cfg = make_cfg(base_url, protocol, "invented")
    pieces = list(stream_generate(PROMPT, cfg))
    assert pieces == ["The ", "default ", "cutoff ", "is ", "0.9 ", "[S1]."]
    seen: list[str] = []
    result = generate(PROMPT, cfg, on_piece=seen.append)
    assert seen == pieces and result.text == "".join(pieces)


@BOTH
def test_whole_answer_calls_on_piece_once(base_url, protocol):
    seen: list[str] = []
    result = generate(PROMPT, make_cfg(base_url, protocol, "abstain"), on_piece=seen.append, stream=False)
    assert seen == ["NOT IN THE CONTEXT"] == [result.text]


def test_prompt_marker_overrides_the_model_name(base_url):
    result = generate("[[fake:fixed:from the marker]] question", make_cfg(base_url, "ollama", "invented"))
    assert result.text == "from the marker"


def test_echo_cite_abstains_without_a_passage(base_url):
    assert generate("no passages here", make_cfg(base_url, "openai", "echo-cite")).text == "NOT IN THE CONTEXT"


# --- what the client sends -----------------------------------------------------------------------

@STREAM
def test_ollama_request_declares_num_ctx_and_options(base_url, stream):
    cfg = make_cfg(base_url, "ollama", "abstain", num_ctx=8192, num_predict=64, seed=11, temperature=0.2)
    generate(PROMPT, cfg, stream=stream)
    sent = last_request(base_url)
    assert sent["path"] == "/api/generate"
    assert sent["body"]["options"] == {"temperature": 0.2, "seed": 11, "num_predict": 64, "num_ctx": 8192}
    assert (sent["body"]["model"], sent["body"]["prompt"], sent["body"]["stream"]) == ("abstain", PROMPT, stream)


@STREAM
def test_openai_request_body(base_url, stream):
    generate(PROMPT, make_cfg(base_url, "openai", "abstain", num_predict=50, seed=3), stream=stream)
    body = last_request(base_url)["body"]
    assert body["messages"] == [{"role": "user", "content": PROMPT}]
    assert (body["model"], body["max_tokens"], body["seed"], body["temperature"], body["stream"]) == \
        ("abstain", 50, 3, 0.0, stream)


@pytest.mark.parametrize("suffix", ["", "/", "/v1", "/v1/"])
def test_openai_url_with_or_without_v1(base_url, suffix):
    assert generate(PROMPT, make_cfg(base_url + suffix, "openai", "abstain")).text == "NOT IN THE CONTEXT"
    assert last_request(base_url)["path"] == "/v1/chat/completions"


@BOTH
def test_authorization_header_only_with_a_key(base_url, protocol):
    generate(PROMPT, make_cfg(base_url, protocol, "abstain"))
    assert last_request(base_url)["authorization"] is None
    result = generate(PROMPT, make_cfg(base_url, protocol, "need-key", api_key=API_KEY))
    assert result.text == "Key accepted [S1]."
    assert last_request(base_url)["authorization"] == f"Bearer {API_KEY}"


# --- failures ------------------------------------------------------------------------------------

@BOTH
@STREAM
def test_http_500_reports_status_and_body(base_url, protocol, stream):
    message = failure(make_cfg(base_url, protocol, "error-500", api_key=LEAKY_KEY), stream)
    assert "HTTP 500" in message and "CUDA out of memory" in message and base_url in message


@BOTH
def test_error_body_echoing_the_key_is_scrubbed(base_url, protocol):
    message = failure(make_cfg(base_url, protocol, "error-echo-key", api_key=LEAKY_KEY), stream=True)
    assert "HTTP 500" in message and "[key hidden]" in message


@BOTH
@STREAM
def test_missing_model(base_url, protocol, stream):
    message = failure(make_cfg(base_url, protocol, "missing-model", api_key=LEAKY_KEY), stream)
    assert message.startswith("The server does not have a model named missing-model;")
    assert ("ollama pull missing-model" in message) == (protocol == "ollama")


@BOTH
@STREAM
def test_error_inside_a_200_answer(base_url, protocol, stream):
    message = failure(make_cfg(base_url, protocol, "error-in-body"), stream)
    assert "reported an error" in message and "model runner has unexpectedly stopped" in message


@BOTH
@STREAM
def test_wrong_or_absent_key(base_url, protocol, stream):
    message = failure(make_cfg(base_url, protocol, "need-key", api_key=LEAKY_KEY), stream)
    assert "HTTP 401" in message and "did not accept the API key" in message
    message = failure(make_cfg(base_url, protocol, "need-key"), stream)
    assert "HTTP 401" in message and "needs an API key and none is set" in message


@BOTH
@STREAM
def test_malformed_json(base_url, protocol, stream):
    message = failure(make_cfg(base_url, protocol, "malformed", api_key=LEAKY_KEY), stream)
    assert "could not be read" in message and "this is not JSON" in message


@BOTH
@STREAM
def test_empty_answer(base_url, protocol, stream):
    assert failure(make_cfg(base_url, protocol, "empty", api_key=LEAKY_KEY), stream).startswith(
        "The model returned an empty answer")


@BOTH
@pytest.mark.parametrize("mode", ["cut", "cut-clean"])
def test_answer_cut_mid_stream(base_url, protocol, mode):
    cfg = make_cfg(base_url, protocol, mode, api_key=LEAKY_KEY)
    sent = len("This answer will ")
    assert failure(cfg, stream=True).startswith(f"The answer was cut off mid-stream after {sent} characters")
    received: list[str] = []
    with pytest.raises(LLMError, match="cut off mid-stream"):
        for piece in stream_generate(PROMPT, cfg):
            received.append(piece)
    assert "".join(received) == "This answer will "     # what came before the cut is still shown


@BOTH
def test_whole_answer_cut(base_url, protocol):
    message = failure(make_cfg(base_url, protocol, "cut", api_key=LEAKY_KEY), stream=False)
    assert "closed the connection before sending its whole answer" in message


@BOTH
@STREAM
def test_timeout(base_url, protocol, stream):
    message = failure(make_cfg(base_url, protocol, "slow", timeout_s=0.3, api_key=LEAKY_KEY), stream)
    assert message.startswith(f"The model server at {base_url} did not answer within 0.3 s")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@BOTH
@STREAM
def test_connection_refused(protocol, stream):
    url = f"http://127.0.0.1:{free_port()}"
    message = failure(make_cfg(url, protocol, "abstain", api_key=LEAKY_KEY), stream)
    assert message.startswith(f"Could not reach the model server at {url}: is it running?")


def test_each_fault_has_its_own_message(base_url):
    phrases = {"error-500": "answered with an error (HTTP 500)", "missing-x": "does not have a model named",
               "need-key": "needs an API key", "malformed": "could not be read",
               "empty": "returned an empty answer", "cut": "cut off mid-stream",
               "slow": "did not answer within", "error-in-body": "reported an error"}
    messages = {mode: failure(make_cfg(base_url, "ollama", mode, timeout_s=0.3), True) for mode in phrases}
    messages["refused"] = failure(make_cfg(f"http://127.0.0.1:{free_port()}", "ollama", "x"), True)
    phrases["refused"] = "Could not reach the model server"
    for mode, message in messages.items():
        assert [m for m, phrase in phrases.items() if phrase in message] == [mode], message


# --- configuration -------------------------------------------------------------------------------

@pytest.mark.parametrize("change, fix", [
    ({"protocol": "anthropic"}, "use 'ollama'"),
    ({"model": " "}, "No model name"),
    ({"base_url": "127.0.0.1:11434"}, "must start with http://"),
    ({"timeout_s": 0}, "more than 0 seconds"),
    ({"num_ctx": 0}, "num_ctx"),
    ({"num_predict": -1}, "num_predict"),
])
def test_config_validation(change, fix):
    good = dict(protocol="ollama", base_url="http://127.0.0.1:11434", model="qwen2.5:7b")
    with pytest.raises(ValueError, match=fix):
        LLMConfig(**{**good, **change})


def test_api_key_is_not_in_repr():
    cfg = LLMConfig("openai", "https://example.org", "gpt", api_key=LEAKY_KEY)
    assert LEAKY_KEY not in repr(cfg) and LEAKY_KEY not in str(cfg) and "model='gpt'" in repr(cfg)
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.model = "other"


def test_config_from_env():
    assert config_from_env({}) is None
    assert config_from_env({"OPENBOOK_LLM_URL": "http://127.0.0.1:11434"}) is None
    env = {"OPENBOOK_LLM_URL": "http://127.0.0.1:8080/v1", "OPENBOOK_LLM_MODEL": "llama",
           "OPENBOOK_LLM_PROTOCOL": "OpenAI", "OPENBOOK_LLM_TIMEOUT": "12.5",
           "OPENBOOK_LLM_NUM_CTX": "4096", "OPENBOOK_LLM_API_KEY": LEAKY_KEY}
    cfg = config_from_env(env)
    assert (cfg.protocol, cfg.base_url, cfg.model, cfg.timeout_s, cfg.num_ctx, cfg.api_key) == \
        ("openai", "http://127.0.0.1:8080/v1", "llama", 12.5, 4096, LEAKY_KEY)
    default = config_from_env({"OPENBOOK_LLM_URL": "http://h:1", "OPENBOOK_LLM_MODEL": "m",
                               "OPENBOOK_LLM_API_KEY": ""})
    assert (default.protocol, default.timeout_s, default.num_ctx, default.api_key) == \
        ("ollama", 60.0, 16384, None)


def test_config_from_env_secrets_win():
    env = {"OPENBOOK_LLM_URL": "http://env:1", "OPENBOOK_LLM_MODEL": "env-model", "OPENBOOK_LLM_TIMEOUT": "9"}
    cfg = config_from_env(env, secrets={"llm_model": "secret-model", "llm_api_key": "k", "llm_url": ""})
    assert (cfg.base_url, cfg.model, cfg.api_key, cfg.timeout_s) == ("http://env:1", "secret-model", "k", 9.0)
    assert config_from_env({}, secrets={"llm_url": "http://s:2", "llm_model": "m"}).base_url == "http://s:2"


@pytest.mark.parametrize("name, value", [("OPENBOOK_LLM_TIMEOUT", "soon"), ("OPENBOOK_LLM_NUM_CTX", "4k"),
                                         ("OPENBOOK_LLM_PROTOCOL", "grpc")])
def test_config_from_env_bad_values(name, value):
    with pytest.raises(ValueError):
        config_from_env({"OPENBOOK_LLM_URL": "http://h:1", "OPENBOOK_LLM_MODEL": "m", name: value})


# --- token budget --------------------------------------------------------------------------------

def test_estimate_tokens_and_fits_context():
    assert estimate_tokens("") == 0
    assert estimate_tokens("one two three") == 4           # 3 * 1.3 = 3.9, rounded up
    assert estimate_tokens("word " * 100) == 130
    assert fits_context("word " * 100, num_ctx=330, num_predict=200) == (True, 130)
    assert fits_context("word " * 100, num_ctx=329, num_predict=200) == (False, 130)


# --- packaging -----------------------------------------------------------------------------------

def test_fake_server_runs_as_a_process():
    command = [sys.executable, str(ROOT / "tests" / "fake_llm_server.py"), "--port", "0"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as process:
        try:
            url = process.stdout.readline().split()[-1]
            assert url.startswith("http://127.0.0.1:")
            assert generate(PROMPT, make_cfg(url, "ollama", "abstain")).text == "NOT IN THE CONTEXT"
        finally:
            process.terminate()
            assert process.wait(timeout=5) == 0      # SIGTERM is a clean exit


def test_library_does_not_import_streamlit():
    code = "import sys, rag_core.llm; assert 'streamlit' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
