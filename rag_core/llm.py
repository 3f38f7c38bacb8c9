"""Generation: send one prompt to a model server and get its answer back, streamed or whole.

Two wire protocols are spoken, chosen by `LLMConfig.protocol`:
  * "ollama": POST {base_url}/api/generate (newline-delimited JSON when streaming);
  * "openai": POST {base_url}/v1/chat/completions, which llama.cpp's server, vLLM, LM Studio and
    OpenAI itself understand (Server-Sent Events when streaming).
`generate` returns a `Generation` (text, latency, token counts); `stream_generate` yields the text
pieces as they arrive. Every failure becomes one `LLMError` whose message is written for someone
who is not a programmer and says what to do next. The API key never appears in a message or repr.

Left out on purpose: retries (a failed call is reported, the user decides), tool calls, chat history
and system prompts (one user prompt in, one answer out), embeddings, and any tokenizer: token
counts come from the server, and `estimate_tokens` is only a rough guide for the context budget.
"""
from __future__ import annotations

import json
import math
import os
import ssl
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from urllib.parse import urlsplit

import httpx

PROTOCOLS = ("ollama", "openai")
EXCERPT_CHARS = 200          # how much of a server's error body a message quotes
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


class LLMError(Exception):
    """A generation failed; `str(error)` is a plain-language explanation with a next step."""


@dataclass(frozen=True)
class LLMConfig:
    protocol: str                                # "ollama" or "openai" (any OpenAI-compatible server)
    base_url: str                                # e.g. http://127.0.0.1:11434; for openai "/v1" is optional
    model: str                                   # the name the server knows the model by
    timeout_s: float = 60.0                      # seconds to connect, or to wait for the next piece
    api_key: str | None = field(default=None, repr=False)  # sent as a Bearer token; never shown
    temperature: float = 0.0                     # 0 = the most likely answer, for repeatable runs
    seed: int = 7                                # fixed so a rerun gives the same answer
    num_predict: int = 200                       # most tokens the answer may have (max_tokens)
    num_ctx: int = 16384                         # context window declared to Ollama (prompt + answer)

    def __post_init__(self):
        if self.protocol not in PROTOCOLS:
            raise ValueError(f"Unknown protocol {self.protocol!r}: use 'ollama' for an Ollama server "
                             "or 'openai' for an OpenAI-compatible one (llama.cpp, vLLM, LM Studio).")
        if not self.model or not self.model.strip():
            raise ValueError("No model name given: set it to a model the server has, "
                             "e.g. 'qwen2.5:7b' (see `ollama list`).")
        if not self.base_url.startswith(("http://", "https://")):
            raise ValueError(f"The server URL {self.base_url!r} must start with http:// or https://, "
                             "e.g. http://127.0.0.1:11434.")
        if not self.timeout_s > 0:
            raise ValueError(f"The timeout must be more than 0 seconds (got {self.timeout_s}); "
                             "60 is a sensible value for a local model.")
        if self.num_ctx <= 0:
            raise ValueError(f"The context window num_ctx must be a positive number of tokens "
                             f"(got {self.num_ctx}); 16384 is the default.")
        if self.num_predict <= 0:
            raise ValueError(f"num_predict, the longest answer in tokens, must be positive "
                             f"(got {self.num_predict}); 200 is the default.")


@dataclass(frozen=True)
class Generation:
    text: str                        # the whole answer
    latency_s: float                 # from sending the prompt to the last piece
    prompt_tokens: int | None        # as counted by the server; None when it does not say
    completion_tokens: int | None    # likewise, for the answer
    protocol: str
    model: str


# --- configuration -------------------------------------------------------------------------------

ENV_PREFIX = "OPENBOOK_"     # OPENBOOK_LLM_URL in the environment is llm_url in a secrets dict


def config_from_env(env: Mapping[str, str] = os.environ,
                    secrets: Mapping[str, object] | None = None) -> LLMConfig | None:
    """The configuration from OPENBOOK_LLM_* variables, or None when no URL or model is set.

    Reads PROTOCOL (default "ollama"), URL, MODEL, TIMEOUT, API_KEY and NUM_CTX. A `secrets` mapping
    (e.g. Streamlit's st.secrets) with the lowercase keys llm_protocol, llm_url, ... wins over `env`.
    Raises ValueError when a value is set but unusable (a timeout that is not a number, ...).
    """
    def read(key: str) -> str | None:
        value = (secrets or {}).get(key)
        if value is None or str(value).strip() == "":
            value = env.get(ENV_PREFIX + key.upper())
        return None if value is None or str(value).strip() == "" else str(value).strip()

    url, model = read("llm_url"), read("llm_model")
    if url is None or model is None:
        return None
    optional = {}
    if (timeout := read("llm_timeout")) is not None:
        optional["timeout_s"] = _number(timeout, "OPENBOOK_LLM_TIMEOUT", float)
    if (num_ctx := read("llm_num_ctx")) is not None:
        optional["num_ctx"] = _number(num_ctx, "OPENBOOK_LLM_NUM_CTX", int)
    return LLMConfig(protocol=(read("llm_protocol") or "ollama").lower(), base_url=url, model=model,
                     api_key=read("llm_api_key"), **optional)


def _number(text: str, name: str, kind: type):
    try:
        return kind(text)
    except ValueError:
        raise ValueError(f"{name} must be a {'whole ' if kind is int else ''}number, "
                         f"got {text!r}.") from None


# --- token budget --------------------------------------------------------------------------------

def estimate_tokens(text: str) -> int:
    """A rough token count: words * 1.3, rounded up.

    Only an estimate (English prose runs about 1.3 tokens a word; code and numbers run higher); the
    real count depends on the model's tokenizer and comes back in `Generation.prompt_tokens`.
    """
    return math.ceil(len(text.split()) * 1.3)


def fits_context(prompt: str, num_ctx: int, num_predict: int) -> tuple[bool, int]:
    """(whether the prompt's estimated tokens plus the answer budget fit num_ctx, that estimate)."""
    tokens = estimate_tokens(prompt)
    return tokens + num_predict <= num_ctx, tokens


# --- public calls --------------------------------------------------------------------------------

def stream_generate(prompt: str, cfg: LLMConfig) -> Iterator[str]:
    """Yield the answer's text pieces as the server sends them; raises LLMError on any failure."""
    for piece in _stream_pieces(prompt, cfg):
        if piece.text:
            yield piece.text


def generate(prompt: str, cfg: LLMConfig, on_piece: Callable[[str], None] | None = None,
             stream: bool = True) -> Generation:
    """The whole answer with its latency and token counts; raises LLMError on any failure.

    Streams by default, calling `on_piece(piece)` with each new piece of text so a UI can show the
    answer as it arrives. `stream=False` asks for the answer in one response (`on_piece` is then
    called once, with the whole text).
    """
    start = time.perf_counter()
    pieces = list(_stream_pieces(prompt, cfg, on_piece) if stream else [_whole_answer(prompt, cfg)])
    text = "".join(p.text for p in pieces)
    if not stream and on_piece is not None:
        on_piece(text)
    return Generation(text=text, latency_s=time.perf_counter() - start,
                      prompt_tokens=_last_known(p.prompt_tokens for p in pieces),
                      completion_tokens=_last_known(p.completion_tokens for p in pieces),
                      protocol=cfg.protocol, model=cfg.model)


def _last_known(values) -> int | None:
    known = [v for v in values if v is not None]
    return known[-1] if known else None


# --- one piece of an answer, whatever the protocol ----------------------------------------------

@dataclass(frozen=True)
class _Piece:
    text: str = ""
    done: bool = False                   # the server said the answer is complete
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


def _request(prompt: str, cfg: LLMConfig, stream: bool) -> tuple[str, dict]:
    """(url, JSON body) for the configured protocol."""
    base = cfg.base_url.rstrip("/")
    if cfg.protocol == "ollama":
        options = {"temperature": cfg.temperature, "seed": cfg.seed,
                   "num_predict": cfg.num_predict, "num_ctx": cfg.num_ctx}
        return base + "/api/generate", {"model": cfg.model, "prompt": prompt, "stream": stream,
                                        "options": options}
    base = base.removesuffix("/v1")
    body = {"model": cfg.model, "messages": [{"role": "user", "content": prompt}],
            "temperature": cfg.temperature, "seed": cfg.seed, "max_tokens": cfg.num_predict,
            "stream": stream}
    if stream:   # without this, OpenAI's own server sends no token counts when streaming
        body["stream_options"] = {"include_usage": True}
    return base + "/v1/chat/completions", body


def _parse_piece(obj: object, cfg: LLMConfig, stream: bool) -> _Piece:
    """Read one JSON object (a whole answer, or one streamed piece) into a _Piece."""
    if not isinstance(obj, dict):
        raise _malformed(cfg, json.dumps(obj)[:EXCERPT_CHARS])
    if "error" in obj:
        raise _server_said_error(cfg, obj["error"])
    try:
        if cfg.protocol == "ollama":
            return _Piece(text=obj.get("response") or "", done=bool(obj.get("done")),
                          prompt_tokens=obj.get("prompt_eval_count"),
                          completion_tokens=obj.get("eval_count"))
        usage = obj.get("usage") or {}
        choices = obj.get("choices") or []
        if choices:
            message = choices[0]["delta" if stream else "message"] or {}
            text = message.get("content") or ""
        elif not stream:
            raise KeyError("choices")
        else:
            text = ""    # e.g. the final usage-only chunk
        return _Piece(text=text, done=not stream, prompt_tokens=usage.get("prompt_tokens"),
                      completion_tokens=usage.get("completion_tokens"))
    except (KeyError, IndexError, TypeError, AttributeError):
        raise _malformed(cfg, json.dumps(obj)[:EXCERPT_CHARS]) from None


def _parse_line(line: str, cfg: LLMConfig) -> _Piece | None:
    """One line of a streamed answer, or None for a line that carries nothing (blank, SSE comment)."""
    line = line.strip()
    if cfg.protocol == "openai":
        if not line or line.startswith((":", "event:", "id:", "retry:")):
            return None          # blank separator, keep-alive comment, or an SSE field we do not use
        if not line.startswith("data:"):
            raise _malformed(cfg, line)
        line = line.removeprefix("data:").strip()
        if line == "[DONE]":
            return _Piece(done=True)
    if not line:
        return None
    return _parse_piece(_loads(line, cfg), cfg, stream=True)


def _loads(text: str, cfg: LLMConfig) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise _malformed(cfg, text[:EXCERPT_CHARS]) from None


# --- HTTP ----------------------------------------------------------------------------------------

def _client(cfg: LLMConfig) -> httpx.Client:
    """An HTTP client; a proxy set in the environment is ignored for a server on this machine."""
    headers = {"Authorization": f"Bearer {cfg.api_key}"} if cfg.api_key else {}
    loopback = urlsplit(cfg.base_url).hostname in LOOPBACK_HOSTS
    return httpx.Client(timeout=cfg.timeout_s, headers=headers, trust_env=not loopback,
                        verify=_tls_context())


@cache
def _tls_context() -> ssl.SSLContext:
    """httpx's default certificate checks, built once (building them costs ~40 ms a call)."""
    return httpx.create_ssl_context()


def _whole_answer(prompt: str, cfg: LLMConfig) -> _Piece:
    """Ask for the answer in one response (stream=False)."""
    url, body = _request(prompt, cfg, stream=False)
    with _transport_errors(cfg), _client(cfg) as client:
        try:
            response = client.post(url, json=body)
        except httpx.RemoteProtocolError:
            raise LLMError(f"The model server at {cfg.base_url} closed the connection before sending "
                           "its whole answer. It may have crashed or run out of memory; check its "
                           "log and try again.") from None
        _check_status(response, cfg)
        piece = _parse_piece(_loads(response.text, cfg), cfg, stream=False)
    if not piece.text.strip():
        raise _empty(cfg)
    return piece


def _stream_pieces(prompt: str, cfg: LLMConfig,
                   on_piece: Callable[[str], None] | None = None) -> Iterator[_Piece]:
    """Yield the pieces of a streamed answer; raises LLMError if it is cut off or empty."""
    url, body = _request(prompt, cfg, stream=True)
    chars, blank, done = 0, True, False
    with _transport_errors(cfg), _client(cfg) as client, client.stream("POST", url, json=body) as response:
        _check_status(response, cfg)
        try:
            for line in response.iter_lines():
                piece = _parse_line(line, cfg)
                if piece is None:
                    continue
                chars += len(piece.text)
                blank = blank and not piece.text.strip()
                if piece.text and on_piece is not None:
                    on_piece(piece.text)
                yield piece
                if piece.done:
                    done = True
                    break
        except httpx.RemoteProtocolError:
            pass                 # the connection broke mid-answer: reported as cut off below
    if not done:
        raise LLMError(f"The answer was cut off mid-stream after {chars} characters: the model server "
                       f"at {cfg.base_url} closed the connection before saying it was finished. "
                       "It may have crashed or been restarted; try again.")
    if blank:
        raise _empty(cfg)


@contextmanager
def _transport_errors(cfg: LLMConfig) -> Iterator[None]:
    """Turn httpx's connection and timeout errors into plain-language LLMErrors."""
    try:
        yield
    except httpx.TimeoutException:
        raise LLMError(f"The model server at {cfg.base_url} did not answer within {cfg.timeout_s:g} s. "
                       "It may be busy or still loading the model: try again, or allow more "
                       "time with OPENBOOK_LLM_TIMEOUT.") from None
    except httpx.ConnectError:
        raise LLMError(f"Could not reach the model server at {cfg.base_url}: is it running? Start it "
                       "(for Ollama: `ollama serve`) or correct the address in "
                       "OPENBOOK_LLM_URL.") from None
    except httpx.HTTPError as error:
        raise LLMError(f"Talking to the model server at {cfg.base_url} failed "
                       f"({type(error).__name__}). Check that the address is right and "
                       "try again.") from None


def _check_status(response: httpx.Response, cfg: LLMConfig) -> None:
    """Raise a plain-language LLMError for any answer that is not HTTP 2xx."""
    if response.is_success:
        return
    response.read()
    status, url = response.status_code, cfg.base_url
    if status in (401, 403):
        problem = ("needs an API key and none is set" if not cfg.api_key
                   else "did not accept the API key that is set (the key is not shown here)")
        raise LLMError(f"The model server at {url} refused the request (HTTP {status}): it {problem}. "
                       "Set a valid key in OPENBOOK_LLM_API_KEY or llm_api_key in "
                       ".streamlit/secrets.toml.")
    if status == 404:
        raise _model_missing(cfg)
    raise LLMError(f"The model server at {url} answered with an error (HTTP {status}). "
                   f"It said: {_excerpt(response.text, cfg)!r}. Check the server's log; "
                   "the request may be too large for it, or the server may need a restart.")


def _server_said_error(cfg: LLMConfig, error: object) -> LLMError:
    """An error reported inside a JSON body (Ollama: {"error": "..."}; OpenAI: {"error": {...}})."""
    message = error.get("message", "") if isinstance(error, dict) else str(error)
    if "not found" in message.lower() or "does not exist" in message.lower():
        return _model_missing(cfg)
    return LLMError(f"The model server at {cfg.base_url} reported an error: "
                    f"{_excerpt(message, cfg)!r}. Check the server's log and try again.")


def _model_missing(cfg: LLMConfig) -> LLMError:
    how = (f"download it with `ollama pull {cfg.model}`" if cfg.protocol == "ollama"
           else "check the model name the server lists")
    return LLMError(f"The server does not have a model named {cfg.model}; {how}, or correct "
                    f"OPENBOOK_LLM_MODEL. (Also check that {cfg.base_url} is the right address "
                    f"for the {cfg.protocol!r} protocol.)")


def _malformed(cfg: LLMConfig, excerpt: str) -> LLMError:
    return LLMError(f"The model server at {cfg.base_url} sent an answer that could not be read "
                    f"(not the JSON the {cfg.protocol!r} protocol uses): {_excerpt(excerpt, cfg)!r}. "
                    "Check that the address and the protocol (ollama or openai) match the server.")


def _empty(cfg: LLMConfig) -> LLMError:
    return LLMError(f"The model returned an empty answer ({cfg.model} at {cfg.base_url}). Try again, "
                    "raise num_predict, or try another model.")


def _excerpt(text: str, cfg: LLMConfig) -> str:
    """The start of a server's text, with the API key blanked out should the server echo it."""
    text = " ".join(text.split())[:EXCERPT_CHARS]
    return text.replace(cfg.api_key, "[key hidden]") if cfg.api_key else text
