"""Generation: send one prompt to a model server and get its answer back, within a time and a size limit.

Two wire protocols are spoken, chosen by `LLMConfig.protocol`:
  * "ollama": POST {base_url}/api/generate (newline-delimited JSON when streaming), GET /api/tags;
  * "openai": POST {base_url}/v1/chat/completions, which llama.cpp's server, vLLM, LM Studio and
    OpenAI itself understand (Server-Sent Events when streaming), GET /v1/models.
`generate` returns a `Generation` (text, latency, token counts, whether it was cut) and can call back
with the text so far a few times a second; `list_models` names the models a server offers. This module
holds the settings and the promises below; `llm_wire` the two protocols and the fault messages.

Three promises hold whatever the server does:
  * time: `timeout_s` bounds the whole call, from connecting to the last piece. The HTTP exchange runs
    in a worker thread; the caller's thread waits at most until the deadline (callbacks run there);
  * size: an answer stops at MAX_ANSWER_CHARS characters (`Generation.truncated` says so), and no JSON
    document (a whole answer, one streamed line, a model list) is read past MAX_BODY_BYTES;
  * failure: every fault becomes one `LLMError` whose message says what happened and what to do, in
    words that fit both the page's form and the command line ("the server URL", "the timeout"). The
    API key never appears in a message or repr. Messages are plain text: a page escapes them.

Left out on purpose: retries (a failed call is reported, the user decides), tool calls, chat history
and system prompts (one user prompt in, one answer out), embeddings, and any tokenizer: token
counts come from the server, and `estimate_tokens` is only a rough guide for the context budget.
"""
from __future__ import annotations

import math
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import closing
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import httpx

from rag_core.generation.citation_grammar import GRAMMARS
from rag_core.generation.llm_wire import (ANY_MODEL, MAX_BODY_BYTES, EmptyAnswer, LLMError, model_list,  # noqa: F401
                                          stream_answer, too_slow, unexpected, whole_answer)
from rag_core.generation.verifier import MAX_ANSWER_CHARS      # an answer is cut here (Generation.truncated)
from rag_core.text.credentials import mask_secrets

PROTOCOLS = ("ollama", "openai")


def check_url(url: str) -> None:
    """Raise ValueError, in plain words, unless `url` is a usable http(s) address of a server.

    "http://127.0.0.1:11434" -> fine;  "http://[::1" -> ValueError("The server URL 'http://[::1' is not ...")
    """
    example = "e.g. http://127.0.0.1:11434"
    shown = mask_secrets(url, url)                  # never a password, a query value or a fragment
    if not url.startswith(("http://", "https://")):
        raise ValueError(f"The server URL {shown!r} must start with http:// or https://, {example}.")
    if any(c.isspace() or not c.isprintable() for c in url):
        raise ValueError(f"The server URL {shown!r} contains a space or an invisible character: remove it.")
    try:
        parts = urlsplit(url)
        port = parts.port                           # ValueError when not a number or out of range
        httpx.URL(url)
    except (ValueError, UnicodeError, httpx.InvalidURL):
        raise ValueError(f"The server URL {shown!r} is not a valid address (check the brackets, the host "
                         f"and the port), {example}.") from None
    if not parts.hostname:
        raise ValueError(f"The server URL {shown!r} has no host name, {example}.")
    if port == 0:
        raise ValueError(f"The server URL {shown!r} has port 0: use the port the server listens on, {example}.")


@dataclass(frozen=True)
class LLMConfig:
    protocol: str                                # "ollama" or "openai" (any OpenAI-compatible server)
    base_url: str                                # e.g. http://127.0.0.1:11434; for openai "/v1" is optional
    model: str                                   # the name the server knows the model by
    timeout_s: float = 60.0                      # seconds for a whole answer: connecting, waiting, every piece
    api_key: str | None = field(default=None, repr=False)  # sent as a Bearer token; never shown
    temperature: float = 0.0                     # 0 = the most likely answer, for repeatable runs
    seed: int = 7                                # fixed so a rerun gives the same answer
    num_predict: int = 200                       # most tokens the answer may have (max_tokens)
    num_ctx: int = 16384                         # context window declared to Ollama (prompt + answer)
    grammar: str = "off"                         # "cite": llama.cpp's citation grammar (citation_grammar.py)
    threads: int = 0                             # CPU threads Ollama uses for the answer (num_thread); 0: its own.
    # An OpenAI-compatible server takes none per request (llama.cpp's reads -t when started): nothing is sent there

    def __post_init__(self):
        if self.protocol not in PROTOCOLS:
            raise ValueError(f"Unknown protocol {self.protocol!r}: use 'ollama' for an Ollama server "
                             "or 'openai' for an OpenAI-compatible one (llama.cpp, vLLM, LM Studio).")
        if not self.model or not self.model.strip():
            raise ValueError("No model name given: give the name of a model the server has, "
                             "e.g. 'qwen2.5:7b' (`ollama list` shows Ollama's).")
        check_url(self.base_url)
        if not (self.timeout_s > 0 and math.isfinite(self.timeout_s)):
            raise ValueError(f"The timeout must be a number of seconds above 0 (got {self.timeout_s}); "
                             "60 is a sensible value for a local model.")
        if self.num_ctx <= 0:
            raise ValueError(f"The context window (num_ctx) must be a positive number of tokens "
                             f"(got {self.num_ctx}); 16384 is the default.")
        if self.grammar not in GRAMMARS:
            raise ValueError(f"Unknown citation grammar {self.grammar!r}: use 'off' or 'cite'.")
        if self.grammar != "off" and self.protocol != "openai":
            raise ValueError("The citation grammar goes with an OpenAI-compatible server (llama.cpp's reads it): "
                             "choose that protocol, or turn the grammar off.")
        if not isinstance(self.threads, int) or self.threads < 0:
            raise ValueError(f"The thread count must be a whole number, 0 to let the server choose (got "
                             f"{self.threads!r}); 1 is fastest on a 2-core machine that does other work.")
        if self.num_predict <= 0:
            raise ValueError(f"The longest answer (num_predict, in tokens) must be positive "
                             f"(got {self.num_predict}); 200 is the default.")


@dataclass(frozen=True)
class Generation:
    text: str                        # the whole answer (its first MAX_ANSWER_CHARS characters when truncated)
    latency_s: float                 # from sending the prompt to the last piece
    prompt_tokens: int | None        # as counted by the server; None when it does not say
    completion_tokens: int | None    # likewise, for the answer
    protocol: str
    model: str
    truncated: bool = False          # the server sent more than MAX_ANSWER_CHARS: the rest was not read

    @property
    def note(self) -> str:
        """What a reader should know about the text ("" when nothing)."""
        return (f"The answer was cut at {MAX_ANSWER_CHARS:,} characters: the server sent more than Open Book "
                "keeps." if self.truncated else "")


# --- configuration -------------------------------------------------------------------------------

ENV_PREFIX = "OPENBOOK_"     # OPENBOOK_LLM_URL in the environment is llm_url in a secrets dict


def config_from_env(env: Mapping[str, str] = os.environ,
                    secrets: Mapping[str, object] | None = None) -> LLMConfig | None:
    """The configuration from OPENBOOK_LLM_* variables, or None when no URL or model is set.

    Reads PROTOCOL (default "ollama"), URL, MODEL, TIMEOUT, API_KEY, NUM_CTX, GRAMMAR ("off" or "cite") and
    THREADS (Ollama's num_thread; 0 or unset: the server's own). A
    `secrets` mapping (e.g. Streamlit's st.secrets) with the lowercase keys llm_protocol, llm_url, ... wins over `env`.
    Raises ValueError, naming the variables, when a value is set but unusable.
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
    if (grammar := read("llm_grammar")) is not None:
        optional["grammar"] = grammar.lower()
    if (threads := read("llm_threads")) is not None:
        optional["threads"] = _number(threads, "OPENBOOK_LLM_THREADS", int)
    try:
        return LLMConfig(protocol=(read("llm_protocol") or "ollama").lower(), base_url=url, model=model,
                         api_key=read("llm_api_key"), **optional)
    except ValueError as e:
        raise ValueError(f"{e} (Read from OPENBOOK_LLM_PROTOCOL, OPENBOOK_LLM_URL, OPENBOOK_LLM_MODEL, "
                         "OPENBOOK_LLM_TIMEOUT, OPENBOOK_LLM_NUM_CTX, OPENBOOK_LLM_GRAMMAR and OPENBOOK_LLM_THREADS, "
                         "or their llm_* keys "
                         "in .streamlit/secrets.toml.)") from None


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

def generate(prompt: str, cfg: LLMConfig, on_text: Callable[[str], None] | None = None,
             every_s: float = 0.1, stream: bool = True) -> Generation:
    """The whole answer with its latency and token counts, within cfg.timeout_s; LLMError on any failure.

    Streams by default. `on_text(text_so_far)` is called in the caller's thread at most once every
    `every_s` seconds while pieces arrive, and once more at the end with the whole text, so a page can
    redraw the answer a bounded number of times (every_s=0: at every piece). `stream=False` asks for the
    answer in one response; `on_text` is then called once. Past MAX_ANSWER_CHARS the answer is cut,
    the server is left, and the Generation says `truncated=True`.
    """
    start = shown_at = time.perf_counter()
    parts: list[str] = []            # the answer's pieces so far
    chars, shown, truncated = 0, 0, False
    prompt_tokens = completion_tokens = None
    fetch = stream_answer if stream else whole_answer
    with closing(_before_deadline(cfg, lambda emit, stop: fetch(prompt, cfg, emit, stop))) as pieces:
        for piece in pieces:
            text = piece.text[:MAX_ANSWER_CHARS - chars]
            parts.append(text)
            chars += len(text)
            truncated = len(text) < len(piece.text)
            prompt_tokens = _known(piece.prompt_tokens, prompt_tokens)
            completion_tokens = _known(piece.completion_tokens, completion_tokens)
            if on_text is not None and chars > shown and time.perf_counter() - shown_at >= every_s:
                on_text("".join(parts))
                shown, shown_at = chars, time.perf_counter()
            if truncated:
                break                # closing the generator tells the worker to stop reading
    answer = "".join(parts)
    if on_text is not None and chars > shown:
        on_text(answer)
    return Generation(text=answer, latency_s=time.perf_counter() - start, prompt_tokens=prompt_tokens,
                      completion_tokens=completion_tokens, protocol=cfg.protocol, model=cfg.model,
                      truncated=truncated)


def list_models(server: LLMConfig | str, protocol: str = "ollama", timeout_s: float = 10.0,
                api_key: str | None = None) -> list[str]:
    """The names of the models the server offers, sorted; LLMError when it cannot say, within timeout_s.

    Ollama: GET {url}/api/tags; OpenAI-compatible: GET {url}/v1/models. Pass an LLMConfig, or a URL with
    its protocol (no model name is needed, so a form can check the server before one is typed).
    A URL that cannot be used raises ValueError, as LLMConfig does.
    """
    cfg = server if isinstance(server, LLMConfig) else \
        LLMConfig(protocol, server, model=ANY_MODEL, timeout_s=timeout_s, api_key=api_key)
    with closing(_before_deadline(cfg, lambda emit, stop: model_list(cfg, emit, stop))) as answers:
        return next(answers)


def _known(value: int | None, before: int | None) -> int | None:
    return before if value is None else value


# --- the deadline --------------------------------------------------------------------------------

def _before_deadline(cfg: LLMConfig, work: Callable) -> Iterator:
    """What `work(emit, stop)` emits from a worker thread, handed over in this thread until the deadline.

    The caller's callbacks thus run in its own thread (Streamlit needs that), and a server that trickles
    its answer cannot hold the caller past cfg.timeout_s. When time runs out or the caller stops early,
    `stop` is set; the worker ends on its own at its next piece, or at its HTTP timeout at the latest.
    """
    events: queue.SimpleQueue = queue.SimpleQueue()    # ("item", x) | ("error", LLMError) | ("end", None)
    stop = threading.Event()

    def run() -> None:
        try:
            work(lambda item: events.put(("item", item)), stop)
            events.put(("end", None))
        except LLMError as error:
            events.put(("error", error))
        except Exception as error:   # a fault nobody foresaw: still one readable LLMError, never a traceback
            events.put(("error", unexpected(cfg, error)))

    deadline = time.monotonic() + cfg.timeout_s
    threading.Thread(target=run, name="openbook-llm", daemon=True).start()
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise too_slow(cfg)
            try:
                kind, item = events.get(timeout=left)
            except queue.Empty:
                raise too_slow(cfg) from None
            if kind == "end":
                return
            if kind == "error":
                raise item
            yield item
    finally:
        stop.set()
