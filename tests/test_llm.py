"""rag_core.generation.llm against a real HTTP server on 127.0.0.1 (tests/fake_llm_server.py); nothing is mocked."""
from __future__ import annotations

import dataclasses
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from fake_llm_server import (API_KEY, HUGE_ANSWER, MARKDOWN_BODY, MODELS, TRICKLE_S,  # noqa: E402
                             start_server, stop_server)

from rag_core.generation import llm_wire  # noqa: E402
from rag_core.generation.llm import (MAX_ANSWER_CHARS, Generation, LLMConfig, LLMError,  # noqa: E402
                                     config_from_env, estimate_tokens, fits_context, generate, list_models)

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
    assert not result.truncated and result.note == ""


@BOTH
def test_on_text_gets_the_text_so_far(base_url, protocol):
    cfg = make_cfg(base_url, protocol, "invented")
    seen: list[str] = []
    result = generate(PROMPT, cfg, on_text=seen.append, every_s=0)       # every_s=0: at every piece
    assert seen == ["The ", "The default ", "The default cutoff ", "The default cutoff is ",
                    "The default cutoff is 0.9 ", "The default cutoff is 0.9 [S1]."]
    assert seen[-1] == result.text
    seen.clear()
    generate(PROMPT, cfg, on_text=seen.append, every_s=3600)             # no time to redraw: the end only
    assert seen == ["The default cutoff is 0.9 [S1]."]


@BOTH
def test_whole_answer_calls_on_text_once(base_url, protocol):
    seen: list[str] = []
    result = generate(PROMPT, make_cfg(base_url, protocol, "abstain"), on_text=seen.append, every_s=0,
                      stream=False)
    assert seen == ["NOT IN THE CONTEXT"] == [result.text]


@BOTH
def test_on_text_is_called_a_bounded_number_of_times(base_url, protocol):
    """A long answer in many pieces: a page redraws it about every every_s seconds, not at every piece."""
    seen: list[int] = []
    result = generate(PROMPT, make_cfg(base_url, protocol, "huge"), on_text=lambda t: seen.append(len(t)),
                      every_s=0.1)
    assert len(seen) <= result.latency_s / 0.1 + 2
    assert seen == sorted(seen) and seen[-1] == len(result.text)


@BOTH
@STREAM
def test_a_huge_answer_is_cut(base_url, protocol, stream):
    result = generate(PROMPT, make_cfg(base_url, protocol, "huge"), stream=stream)
    assert len(HUGE_ANSWER) > MAX_ANSWER_CHARS
    assert result.truncated and result.text == HUGE_ANSWER[:MAX_ANSWER_CHARS]
    assert result.note.startswith(f"The answer was cut at {MAX_ANSWER_CHARS:,} characters")


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
        generate(PROMPT, cfg, on_text=received.append, every_s=0)
    assert received[-1] == "This answer will "     # what came before the cut was shown


@BOTH
def test_whole_answer_cut(base_url, protocol):
    message = failure(make_cfg(base_url, protocol, "cut", api_key=LEAKY_KEY), stream=False)
    assert "closed the connection before sending its whole answer" in message


@BOTH
@STREAM
def test_timeout(base_url, protocol, stream):
    message = failure(make_cfg(base_url, protocol, "slow", timeout_s=0.3, api_key=LEAKY_KEY), stream)
    assert message.startswith(f"The model server at {base_url} did not answer within 0.3 s")


@BOTH
@STREAM
def test_timeout_bounds_a_whole_answer(base_url, protocol, stream):
    """A server that sends a piece every 0.5 s never lets a read wait long; the timeout still holds."""
    timeout = 3 * TRICKLE_S
    start = time.perf_counter()
    message = failure(make_cfg(base_url, protocol, "trickle", timeout_s=timeout), stream)
    assert time.perf_counter() - start < 3 * timeout
    assert message.startswith(f"The model server at {base_url} did not answer within {timeout:g} s")
    assert "raise the timeout" in message


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
    # only `slow` must outlast its timeout; the others get time to answer on a busy machine (0.3 s did not, once)
    messages = {mode: failure(make_cfg(base_url, "ollama", mode, timeout_s=0.3 if mode == "slow" else 10), True)
                for mode in phrases}
    messages["refused"] = failure(make_cfg(f"http://127.0.0.1:{free_port()}", "ollama", "x"), True)
    phrases["refused"] = "Could not reach the model server"
    for mode, message in messages.items():
        assert [m for m, phrase in phrases.items() if phrase in message] == [mode], message


# Every fault the fake server knows, and JSON of the wrong shape where an answer object belongs.
FAULTS = ["error-500", "error-echo-key", "error-markdown", "error-in-body", "slow", "trickle", "malformed",
          "empty", "cut", "cut-clean", "missing-model", "need-key"]
WRONG_JSON = ["42", '"text"', "[1, 2]", "null", "true", "{}", "[" * 5000 + "]" * 5000, "1" * 5000,
              '{"response": 5, "done": true}', '{"response": ["a"], "done": true}',
              '{"response": {"text": "a"}, "done": true}', '{"error": {"message": 5}}', '{"error": [1]}',
              '{"choices": 5}', '{"choices": [null]}', '{"choices": ["a"]}', '{"choices": {"0": 1}}',
              '{"choices": [{"message": 5, "delta": 5}]}',
              '{"choices": [{"message": {"content": 5}, "delta": {"content": 5}}]}',
              '{"choices": [{"message": {"content": ["a"]}, "delta": {"content": ["a"]}}]}',
              '{"choices": [], "usage": 5}']


@BOTH
@STREAM
@pytest.mark.parametrize("mode", FAULTS + ["json:" + v for v in WRONG_JSON],
                         ids=lambda m: m[:40])
def test_every_fault_is_one_readable_llm_error(base_url, protocol, stream, mode):
    """Nothing but an LLMError leaves generate(), and its message speaks of settings, not of variables."""
    message = failure(make_cfg(base_url, protocol, mode, timeout_s=0.5, api_key=LEAKY_KEY), stream)
    assert message.rstrip(")").endswith(".") and "OPENBOOK_" not in message and "Traceback" not in message
    assert len(message) < 700


@pytest.mark.parametrize("protocol, stream", [("ollama", True), ("ollama", False), ("openai", False)])
def test_token_counts_of_the_wrong_type_are_unknown(base_url, protocol, stream):
    if protocol == "ollama":
        model = 'json:{"response": "Fine [S1].", "done": true, "prompt_eval_count": "many", "eval_count": true}'
    else:
        delta = '{"content": "Fine [S1]."}'
        model = ('json:{"choices": [{"message": %s, "delta": %s}], "usage": {"prompt_tokens": "many", '
                 '"completion_tokens": -1}}' % (delta, delta))
    result = generate(PROMPT, make_cfg(base_url, protocol, model), stream=stream)
    assert result.text.startswith("Fine [S1].") and result.prompt_tokens is None
    assert result.completion_tokens is None


def test_a_key_the_excerpt_would_halve_is_hidden():
    """An echoed key is hidden wherever the excerpt's cut falls, even across it."""
    cfg = make_cfg("http://127.0.0.1:1", "openai", "m", api_key=LEAKY_KEY)
    cut, n = llm_wire.EXCERPT_CHARS, len(LEAKY_KEY)
    prefixes = ["x" * i for i in range(cut - n, cut + 1)] + [" " * i for i in range(4 * cut - n, 4 * cut + 1)]
    for prefix in prefixes:
        assert "sk-" not in llm_wire._excerpt(prefix + LEAKY_KEY + " tail", cfg)


# --- listing the server's models ------------------------------------------------------------------

@BOTH
def test_list_models(base_url, protocol):
    assert list_models(base_url, protocol) == sorted(MODELS)
    suffix = "/v1" if protocol == "openai" else ""
    assert list_models(make_cfg(base_url + suffix, protocol, "anything")) == sorted(MODELS)


@BOTH
def test_list_models_sends_the_key(base_url, protocol):
    url = f"{base_url}/_mode/need-key"
    assert list_models(url, protocol, api_key=API_KEY) == sorted(MODELS)
    with pytest.raises(LLMError, match="needs an API key and none is set"):
        list_models(url, protocol)


@BOTH
@pytest.mark.parametrize("mode, phrase", [
    ("error-500", "HTTP 500"), ("error-markdown", MARKDOWN_BODY[:30]), ("need-key", "needs an API key"),
    ("malformed", "could not be read"), ("slow", "did not answer within 0.5 s"),
    ("trickle", "did not answer within 0.5 s"), ("missing", "has no model list"),
    ("json:42", "could not be read"), ("json:[1]", "could not be read"), ("json:null", "could not be read"),
    ('json:{"models":5,"data":5}', "could not be read"),            # no spaces: they go in a URL
    ('json:{"models":[{"name":5}],"data":[{"id":5}]}', "could not be read"),
    ('json:{"error":"model-runner-crashed"}', "reported an error"),
])
def test_list_models_faults(base_url, protocol, mode, phrase):
    start = time.perf_counter()
    with pytest.raises(LLMError) as caught:
        list_models(f"{base_url}/_mode/{mode}", protocol, timeout_s=0.5)
    assert time.perf_counter() - start < 1.5
    assert phrase in str(caught.value) and "OPENBOOK_" not in str(caught.value)


def test_list_models_refused():
    url = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(LLMError, match="Could not reach the model server"):
        list_models(url, "ollama", timeout_s=2)


# --- configuration -------------------------------------------------------------------------------

@pytest.mark.parametrize("change, fix", [
    ({"protocol": "anthropic"}, "use 'ollama'"),
    ({"model": " "}, "No model name"),
    ({"base_url": "127.0.0.1:11434"}, "must start with http://"),
    ({"timeout_s": 0}, "above 0"),
    ({"num_ctx": 0}, "num_ctx"),
    ({"num_predict": -1}, "num_predict"),
])
def test_config_validation(change, fix):
    good = dict(protocol="ollama", base_url="http://127.0.0.1:11434", model="qwen2.5:7b")
    with pytest.raises(ValueError, match=fix):
        LLMConfig(**{**good, **change})


@pytest.mark.parametrize("url, fix", [
    ("http://[::1", "not a valid address"), ("http://[::1]:99999", "not a valid address"),
    ("http://", "has no host name"), ("http://:8080", "has no host name"),
    ("http://host:99999", "not a valid address"), ("http://host:port", "not a valid address"),
    ("http://host:0", "port 0"), ("http://my host:11434", "contains a space"),
    (" http://127.0.0.1:11434", "must start with http://"), ("http://127.0.0.1:11434 ", "contains a space"),
    ("http://127.0.0.1:11434\n", "contains a space"), ("ftp://127.0.0.1", "must start with http://"),
])
def test_unusable_urls_are_plain_value_errors(url, fix):
    """Never an httpx or urllib exception: one ValueError that names the URL and says what is wrong."""
    for call in (lambda: LLMConfig("ollama", url, "m"), lambda: list_models(url, "openai")):
        with pytest.raises(ValueError, match=fix) as caught:
            call()
        assert type(caught.value) is ValueError
        assert str(caught.value).startswith(f"The server URL {url!r}")


@pytest.mark.parametrize("url", ["http://[::1]:11434", "https://example.org/v1", "http://localhost",
                                 "http://127.0.0.1:11434/"])
def test_usable_urls(url):
    assert LLMConfig("openai", url, "m").base_url == url


@pytest.mark.parametrize("timeout", [0, -1, float("nan"), float("inf")])
def test_timeout_must_be_a_finite_positive_number(timeout):
    with pytest.raises(ValueError, match="timeout must be a number of seconds above 0"):
        LLMConfig("ollama", "http://127.0.0.1:11434", "m", timeout_s=timeout)


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
                                         ("OPENBOOK_LLM_PROTOCOL", "grpc"), ("OPENBOOK_LLM_URL", "http://[::1"),
                                         ("OPENBOOK_LLM_TIMEOUT", "0")])
def test_config_from_env_bad_values_name_the_variable(name, value):
    with pytest.raises(ValueError, match=name):
        config_from_env({"OPENBOOK_LLM_URL": "http://h:1", "OPENBOOK_LLM_MODEL": "m", name: value})


def test_messages_speak_of_settings_not_of_variables(base_url):
    """The page's form and the command line both have 'the server URL', 'the model name', 'the timeout'."""
    url = f"http://127.0.0.1:{free_port()}"
    messages = [failure(make_cfg(url, "ollama", "m"), True),
                failure(make_cfg(base_url, "ollama", "missing-m"), True),
                failure(make_cfg(base_url, "ollama", "slow", timeout_s=0.3), True),
                failure(make_cfg(base_url, "openai", "need-key"), True)]
    for message, words in zip(messages, ["check the server URL", "correct the model name",
                                         "raise the timeout", "Check the API key"]):
        assert words in message and "OPENBOOK_" not in message


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
    code = "import sys, rag_core.generation.llm; assert 'streamlit' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
