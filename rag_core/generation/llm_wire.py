"""The wire: what Open Book sends a model server and how it reads the answer, one fault at a time.

Speaks Ollama (/api/generate, /api/tags; newline-delimited JSON when streaming) and the OpenAI-compatible
API (/v1/chat/completions, /v1/models; Server-Sent Events when streaming). The functions here run in
`llm`'s worker thread: each reads what the server sends, `emit`s what it understood, stops reading as
soon as `stop` is set, and turns every fault into one `LLMError` in plain words (see `llm` for the
deadline, the size cap and the callbacks). Anything a server sends is quoted in an excerpt, with the
API key blanked out should the server echo it.

Left out on purpose: retries, redirects (a 3xx is reported as an error), and any other API.

It runs past 300 lines because the two protocols' readers share one vocabulary of faults, each function
reading one thing.
"""
from __future__ import annotations

import json
import ssl
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

import httpx

from rag_core.generation.citation_grammar import cite_gbnf
from rag_core.text.credentials import mask_logs, mask_secrets

if TYPE_CHECKING:
    from rag_core.generation.llm import LLMConfig

EXCERPT_CHARS = 200                  # how much of a server's error body a message quotes
ERROR_BODY_BYTES = 64 * 1024         # the most bytes read of an error body (enough to find an echoed key)
MAX_BODY_BYTES = 8 * 1024 * 1024     # the most bytes read for one JSON document (answer, line, model list)
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
mask_logs("httpx")                   # its INFO line names each request's URL, secrets and all


class LLMError(Exception):
    """A generation failed; `str(error)` is a plain-language explanation with a next step, never a credential
    (text.mask_secrets runs over every message: a server URL with user:password@ is shown with ***)."""

    def __init__(self, message: object = "", *args):
        super().__init__(mask_secrets(str(message)), *args)


class EmptyAnswer(LLMError):
    """The server answered, well formed, with nothing in it: a failure for one question asked alone, an answer
    (refused: "The answer is empty.") for a loop over many (`pipeline.model_answerer`)."""


# --- one piece of an answer, whatever the protocol ----------------------------------------------

ANY_MODEL = "(any)"     # the model of a configuration that only lists models


@dataclass(frozen=True)
class Piece:
    text: str = ""
    done: bool = False                   # the server said the answer is complete
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


def _request(prompt: str, cfg: LLMConfig, stream: bool) -> tuple[str, dict]:
    """(url, JSON body) for the configured protocol."""
    if cfg.protocol == "ollama":
        options = {"temperature": cfg.temperature, "seed": cfg.seed, "num_predict": cfg.num_predict,
                   "num_ctx": cfg.num_ctx, **({"num_thread": cfg.threads} if cfg.threads else {})}
        return _url(cfg, "/api/generate"), {"model": cfg.model, "prompt": prompt, "stream": stream,
                                             "options": options}
    body = {"model": cfg.model, "messages": [{"role": "user", "content": prompt}],
            "temperature": cfg.temperature, "seed": cfg.seed, "max_tokens": cfg.num_predict,
            "stream": stream}
    if stream:   # without this, OpenAI's own server sends no token counts when streaming
        body["stream_options"] = {"include_usage": True}
    if cfg.grammar == "cite":   # llama.cpp's server constrains the answer to cited sentences
        body["grammar"] = cite_gbnf(prompt)
    return _url(cfg, "/v1/chat/completions"), body


def _url(cfg: LLMConfig, path: str) -> str:
    """The endpoint: "http://h:8080/v1/" + "/v1/models" -> "http://h:8080/v1/models"; a query stays last and a
    fragment is never sent: "http://h/v1?key=k#x" + "/v1/models" -> "http://h/v1/models?key=k"."""
    parts = urlsplit(cfg.base_url)
    base = parts.path.rstrip("/")
    return urlunsplit(parts._replace(path=(base if cfg.protocol == "ollama" else base.removesuffix("/v1")) + path,
                                     fragment=""))


def _parse_piece(obj: object, raw: str, cfg: LLMConfig, stream: bool) -> Piece:
    """Read one JSON value (a whole answer, or one streamed piece) into a Piece; `raw` is its text."""
    if not isinstance(obj, dict):
        raise _malformed(cfg, raw)
    if obj.get("error") is not None:
        raise _server_said_error(cfg, obj["error"])
    if cfg.protocol == "ollama":
        text, done = obj.get("response"), bool(obj.get("done"))
        counts = obj.get("prompt_eval_count"), obj.get("eval_count")
    else:
        choices, usage = obj.get("choices"), obj.get("usage")
        usage = usage if isinstance(usage, dict) else {}
        counts, done, text = (usage.get("prompt_tokens"), usage.get("completion_tokens")), not stream, None
        if choices:
            choice = choices[0] if isinstance(choices, list) else None
            message = choice.get("delta" if stream else "message") if isinstance(choice, dict) else None
            if not isinstance(message, dict):
                raise _malformed(cfg, raw)
            text = message.get("content")
        elif not stream:
            raise _malformed(cfg, raw)   # a whole answer without choices; a streamed one is e.g. usage only
    if not isinstance(text, str | None):
        raise _malformed(cfg, raw)
    return Piece(text or "", done, *(c if isinstance(c, int) and not isinstance(c, bool) and c >= 0 else None
                                      for c in counts))


def _parse_line(line: str, cfg: LLMConfig) -> Piece | None:
    """One line of a streamed answer, or None for a line that carries nothing (blank, SSE comment)."""
    line = line.strip()
    if cfg.protocol == "openai":
        if not line or line.startswith((":", "event:", "id:", "retry:")):
            return None          # blank separator, keep-alive comment, or an SSE field we do not use
        if not line.startswith("data:"):
            raise _malformed(cfg, line)
        line = line.removeprefix("data:").strip()
        if line == "[DONE]":
            return Piece(done=True)
    if not line:
        return None
    return _parse_piece(_loads(line, cfg), line, cfg, stream=True)


def _loads(text: str, cfg: LLMConfig) -> object:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):     # not JSON, nested too deep, a number too long
        raise _malformed(cfg, text) from None


def _model_names(obj: object, raw: str, cfg: LLMConfig) -> list[str]:
    """{"models": [{"name": ...}]} (Ollama) or {"data": [{"id": ...}]} (OpenAI) -> the sorted names."""
    if isinstance(obj, dict) and obj.get("error") is not None:
        raise _server_said_error(cfg, obj["error"])
    key, name = ("models", "name") if cfg.protocol == "ollama" else ("data", "id")
    entries = obj.get(key) if isinstance(obj, dict) else None
    if not isinstance(entries, list) or not all(isinstance(e, dict) and isinstance(e.get(name), str)
                                                for e in entries):
        raise _malformed(cfg, raw)
    return sorted({e[name] for e in entries})


# --- HTTP (in the worker thread) -----------------------------------------------------------------

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


def _read(response: httpx.Response, stop: threading.Event, limit: int = MAX_BODY_BYTES) -> tuple[str, bool]:
    """(the body as text, whether it is whole): reading ends after `limit` bytes or when `stop` is set."""
    body = bytearray()
    for chunk in response.iter_bytes():
        body += chunk
        if len(body) > limit or stop.is_set():
            return body[:limit].decode("utf-8", "replace"), False
    return body.decode("utf-8", "replace"), True


def _lines(response: httpx.Response, stop: threading.Event, cfg: LLMConfig) -> Iterator[str]:
    """The body's lines as they arrive, until `stop` is set; no line may pass MAX_BODY_BYTES."""
    pending = bytearray()
    for chunk in response.iter_bytes():
        pending += chunk
        while (end := pending.find(b"\n")) >= 0 and not stop.is_set():
            yield pending[:end].decode("utf-8", "replace")
            del pending[:end + 1]
        if stop.is_set():
            return
        if len(pending) > MAX_BODY_BYTES:
            raise _too_large(cfg)
    if pending:
        yield pending.decode("utf-8", "replace")


def whole_answer(prompt: str, cfg: LLMConfig, emit: Callable, stop: threading.Event) -> None:
    """Ask for the answer in one response (stream=False) and emit it as one piece."""
    url, body = _request(prompt, cfg, stream=False)
    with _transport_errors(cfg), _client(cfg) as client, client.stream("POST", url, json=body) as response:
        _check_status(response, cfg, stop)
        try:
            raw, whole = _read(response, stop)
        except httpx.RemoteProtocolError:
            raise LLMError(f"The model server at {cfg.base_url} closed the connection before sending "
                           "its whole answer. It may have crashed or run out of memory; check its "
                           "log and try again.") from None
    if not whole:
        raise _too_large(cfg)
    piece = _parse_piece(_loads(raw, cfg), raw, cfg, stream=False)
    if not piece.text.strip():
        raise _empty(cfg)
    emit(piece)


def stream_answer(prompt: str, cfg: LLMConfig, emit: Callable, stop: threading.Event) -> None:
    """Emit the pieces of a streamed answer; raises LLMError if it is cut off or empty."""
    url, body = _request(prompt, cfg, stream=True)
    chars, blank, done = 0, True, False
    with _transport_errors(cfg), _client(cfg) as client, client.stream("POST", url, json=body) as response:
        _check_status(response, cfg, stop)
        try:
            for line in _lines(response, stop, cfg):
                piece = _parse_line(line, cfg)
                if piece is None:
                    continue
                chars += len(piece.text)
                blank = blank and not piece.text.strip()
                emit(piece)
                if piece.done:
                    done = True
                    break
        except httpx.RemoteProtocolError:
            pass                 # the connection broke mid-answer: reported as cut off below
    if stop.is_set():
        return                   # the caller left (deadline, or the answer was long enough)
    if not done:
        raise LLMError(f"The answer was cut off mid-stream after {chars} characters: the model server "
                       f"at {cfg.base_url} closed the connection before saying it was finished. "
                       "It may have crashed or been restarted; try again.")
    if blank:
        raise _empty(cfg)


def model_list(cfg: LLMConfig, emit: Callable, stop: threading.Event) -> None:
    """Emit the server's model names (one list)."""
    path = "/api/tags" if cfg.protocol == "ollama" else "/v1/models"
    with _transport_errors(cfg), _client(cfg) as client, client.stream("GET", _url(cfg, path)) as response:
        _check_status(response, cfg, stop, listing=path)
        raw, whole = _read(response, stop)
    if not whole:
        raise _too_large(cfg)
    emit(_model_names(_loads(raw, cfg), raw, cfg))


@contextmanager
def _transport_errors(cfg: LLMConfig) -> Iterator[None]:
    """Turn httpx's connection and timeout errors into plain-language LLMErrors."""
    try:
        yield
    except httpx.TimeoutException:
        raise too_slow(cfg) from None
    except httpx.ConnectError:
        raise LLMError(f"Could not reach the model server at {cfg.base_url}: is it running? Start it "
                       "(for Ollama: `ollama serve`) or check the server URL.") from None
    except httpx.HTTPError as error:
        raise LLMError(f"Talking to the model server at {cfg.base_url} failed "
                       f"({type(error).__name__}). Check the server URL and try again.") from None


def _check_status(response: httpx.Response, cfg: LLMConfig, stop: threading.Event,
                  listing: str | None = None) -> None:
    """Raise a plain-language LLMError for any answer that is not HTTP 2xx (`listing`: the list's path)."""
    if response.is_success:
        return
    status, url = response.status_code, cfg.base_url
    if status in (401, 403):
        problem = ("needs an API key and none is set" if not cfg.api_key
                   else "did not accept the API key that is set (the key is not shown here)")
        raise LLMError(f"The model server at {url} refused the request (HTTP {status}): it {problem}. "
                       "Check the API key.")
    if status == 404 and listing:
        raise LLMError(f"The server at {url} has no model list at {listing} (HTTP 404). Check the server URL, "
                       f"and that the protocol ({cfg.protocol}) is the one the server speaks.")
    if status == 404:
        raise _model_missing(cfg)
    said = _read(response, stop, limit=ERROR_BODY_BYTES)[0]
    raise LLMError(f"The model server at {url} answered with an error (HTTP {status}). "
                   f"It said: {_excerpt(said, cfg)!r}. Check the server's log; "
                   "the request may be too large for it, or the server may need a restart.")


# --- messages ------------------------------------------------------------------------------------

def _server_said_error(cfg: LLMConfig, error: object) -> LLMError:
    """An error reported inside a JSON body (Ollama: {"error": "..."}; OpenAI: {"error": {...}})."""
    message = str(error.get("message", "") if isinstance(error, dict) else error)
    if cfg.model != ANY_MODEL and ("not found" in message.lower() or "does not exist" in message.lower()):
        return _model_missing(cfg)
    return LLMError(f"The model server at {cfg.base_url} reported an error: "
                    f"{_excerpt(message, cfg)!r}. Check the server's log and try again.")


def _model_missing(cfg: LLMConfig) -> LLMError:
    how = (f"download it with `ollama pull {cfg.model}`" if cfg.protocol == "ollama"
           else "check the model names the server lists")
    return LLMError(f"The server does not have a model named {cfg.model}; {how}, or correct the model "
                    f"name. (Also check that {cfg.base_url} is the right address for the "
                    f"{cfg.protocol!r} protocol.)")


def _malformed(cfg: LLMConfig, excerpt: str) -> LLMError:
    return LLMError(f"The model server at {cfg.base_url} sent an answer that could not be read "
                    f"(not the JSON the {cfg.protocol!r} protocol uses): {_excerpt(excerpt, cfg)!r}. "
                    "Check that the server URL and the protocol (ollama or openai) match the server.")


def _empty(cfg: LLMConfig) -> EmptyAnswer:
    return EmptyAnswer(f"The model returned an empty answer ({cfg.model} at {cfg.base_url}). Try again, "
                    "allow a longer answer, or try another model.")


def too_slow(cfg: LLMConfig) -> LLMError:
    return LLMError(f"The model server at {cfg.base_url} did not answer within {cfg.timeout_s:g} s, the "
                    "timeout for a whole answer, so Open Book stopped waiting. It may be busy, still loading "
                    "the model, or writing a very long answer: try again, or raise the timeout.")


def _too_large(cfg: LLMConfig) -> LLMError:
    return LLMError(f"The model server at {cfg.base_url} sent more than {MAX_BODY_BYTES // 2**20} MiB in one "
                    "piece, more than Open Book reads. Check that the server URL and the protocol match "
                    "the server.")


def unexpected(cfg: LLMConfig, error: Exception) -> LLMError:
    return LLMError(f"Talking to the model server at {cfg.base_url} failed unexpectedly "
                    f"({type(error).__name__}: {_excerpt(str(error), cfg)}). Check the server URL and the "
                    "protocol and try again; if they are right, please report this as a bug in Open Book.")


def _excerpt(text: str, cfg: LLMConfig) -> str:
    """The start of a server's text, whitespace collapsed, with the API key blanked out should the server
    echo it (a key the cut would halve is dropped whole)."""
    cut, key = 4 * EXCERPT_CHARS, cfg.api_key
    if key and 0 <= (start := text.find(key, max(cut - len(key) + 1, 0), cut + len(key))) < cut:
        cut = start
    text = text[:cut].replace(key, "[key hidden]") if key else text[:cut]
    return " ".join(text.split())[:EXCERPT_CHARS]
