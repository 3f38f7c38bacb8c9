"""A fake model server for tests: speaks Ollama's /api/generate and OpenAI's /v1/chat/completions, and lists models.

Nothing is generated: the answer is scripted by a *mode*, taken from a marker `[[fake:MODE]]` in the
prompt when there is one, else from a URL prefix `/_mode/MODE` (base_url http://127.0.0.1:PORT/_mode/MODE,
the only way to script a GET), else from the model name. Answers (streamed word by word when asked):
  echo-cite      "<first sentence of the prompt's [S1] passage> [S1]."  (NOT IN THE CONTEXT without one)
  invented       "The default cutoff is 0.9 [S1]."
  out-of-range   "The answer is here [S9]."
  no-citation    "The default cutoff is 0.6."
  abstain        "NOT IN THE CONTEXT"
  fixed:TEXT     TEXT
  need-key       401 unless the header is `Authorization: Bearer secret-key`, then "Key accepted [S1]."
  huge           HUGE_ANSWER, HUGE_CHARS characters (streamed in 1,000-character pieces)
  judge-long     as a judge (below), a judge that favours length: RIGHT for an answer of more than LONG_WORDS words
A judge's prompt (it holds rag_core.generation.model_judge.ASK) is answered as a judge by every mode that is not a
fault, canned or fixed: "RIGHT" when the answer to check holds every number of the golden answer and at least half
of its words of three letters or more, else "WRONG", then one line of why (judge_reply).
Faults:
  error-500      HTTP 500 with a short text body
  error-echo-key HTTP 500 whose body repeats the Authorization header (a server that leaks the key)
  error-markdown HTTP 500 whose body is MARKDOWN_BODY (links, an image, LaTeX: a page must show it as text)
  error-in-body  HTTP 200 whose JSON (or first streamed line) is {"error": ...}, as Ollama does
  slow           waits SLOW_S seconds (less if the server stops), then closes without answering
  trickle        sends the answer in TRICKLE_PIECES pieces, one every TRICKLE_S seconds (a whole answer:
                 its bytes in as many slices): no single wait is long, the whole answer is (6 s or more)
  malformed      HTTP 200 whose body (or every streamed line) is not JSON
  empty          a well-formed but empty answer
  cut            streams a few words, then drops the connection mid-body
  cut-clean      streams a few words and ends the body cleanly, but never sends done / [DONE]
  json:VALUE     HTTP 200 whose body (or every streamed line) is the JSON text VALUE: a number, a list,
                 null, an object of the wrong shape (use it as the model name: VALUE may hold "]]")
  missing...     (any model name starting so) 404 model not found, in each protocol's own style
Any other mode answers like echo-cite.

Model lists: `GET /api/tags` (Ollama) and `GET /v1/models` (OpenAI) list MODELS; the modes error-500,
error-markdown, need-key, malformed, slow, trickle, json:VALUE and missing (404) fault them too.

`GET /_last_request` returns {"path", "authorization", "body"} of the last POST, so a test can check
what the client sent (Ollama's options.num_ctx, the Bearer header). Every handler ends on its own.

In a test: `server, base_url = start_server()` ... `stop_server(server)`.
As a process: `python tests/fake_llm_server.py --port 8765` (0 = any free port); it prints
`fake LLM server listening on http://127.0.0.1:PORT` once ready and serves until interrupted.
"""
from __future__ import annotations

import argparse
import json
import re
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

HOST = "127.0.0.1"
SLOW_S = 3.0                 # longer than the tests' client timeout, short enough to end on its own
API_KEY = "secret-key"       # the key mode need-key expects
CUT_AFTER_WORDS = 3          # how many words `cut` and `cut-clean` send before stopping
TRICKLE_S = 0.5              # the pause between two pieces of `trickle`
TRICKLE_PIECES = 12          # 6 s in all: longer than the tests' timeout, and it ends on its own
HUGE_CHARS = 1_000_000       # far past the client's answer cap
HUGE_ANSWER = ("All work and no play makes a long answer. " * (HUGE_CHARS // 42 + 1))[:HUGE_CHARS]
MARKDOWN_BODY = "[click](http://x) ![i](http://x/i.png) $x^2$ :red[hi] **bold** <b>tag</b>"
MODELS = ["abstain", "echo-cite", "invented", "llama3.2:3b", "qwen2.5:7b", "[click](http://x)"]
CANNED = {
    "invented": "The default cutoff is 0.9 [S1].",
    "out-of-range": "The answer is here [S9].",
    "no-citation": "The default cutoff is 0.6.",
    "abstain": "NOT IN THE CONTEXT",
    "need-key": "Key accepted [S1].",
    "empty": "",
    "cut": "This answer will never be finished by the server.",
    "cut-clean": "This answer will never be finished by the server.",
    "trickle": " ".join(f"word{i}" for i in range(TRICKLE_PIECES)),
    "huge": HUGE_ANSWER,
}


# --- what to answer ------------------------------------------------------------------------------

def mode_for(model: str, prompt: str, url_mode: str | None = None) -> str:
    """The scripted behaviour: a [[fake:MODE]] marker in the prompt, else the URL's, else the model name."""
    marker = re.search(r"\[\[fake:(.+?)\]\]", prompt)
    mode = marker.group(1) if marker else url_mode or model
    return "missing" if mode.startswith("missing") else mode


def split_mode(path: str) -> tuple[str | None, str]:
    """"/_mode/slow/api/tags" -> ("slow", "/api/tags");  "/api/tags?key=k" -> (None, "/api/tags") (a query is
    read by none)."""
    path = path.partition("?")[0]
    if not path.startswith("/_mode/"):
        return None, path
    mode, _, rest = path.removeprefix("/_mode/").partition("/")
    return unquote(mode), "/" + rest


def answer_for(mode: str, prompt: str) -> str:
    if mode.startswith("fixed:"):
        return mode.removeprefix("fixed:")
    if mode in CANNED:
        return CANNED[mode]
    if JUDGE_ASK in prompt:
        return judge_reply(prompt, favour_long=mode == "judge-long")
    sentence = first_sentence_of_s1(prompt)
    return f"{sentence} [S1]." if sentence else "NOT IN THE CONTEXT"


JUDGE_ASK = "Reply with one word, RIGHT or WRONG"   # what every judge prompt holds (model_judge.ASK)
LONG_WORDS = 12


def judge_reply(prompt: str, favour_long: bool = False) -> str:
    """A deterministic judge: RIGHT when the answer holds the golden answer's numbers and half its words."""
    golden = re.search(r"^Golden answer: (.*)$", prompt, re.MULTILINE)
    answer = re.search(r"^Answer to check: (.*?)\n\n", prompt, re.MULTILINE | re.DOTALL)
    if not golden or not answer:
        return "I cannot tell."
    said = answer.group(1)
    if favour_long:
        long_ = len(said.split()) > LONG_WORDS
        return "RIGHT\nIt is long enough." if long_ else "WRONG\nIt is too short."
    want, have = golden.group(1).lower(), said.lower()
    numbers = re.findall(r"\d+(?:\.\d+)?", want)
    words_ = set(re.findall(r"[a-z_]{3,}", want))
    missing_numbers = [n for n in numbers if not re.search(rf"(?<![\d.]){re.escape(n)}(?![\d])", have)]
    shared = len(words_ & set(re.findall(r"[a-z_]{3,}", have)))
    if not missing_numbers and 2 * shared >= len(words_):
        return f"RIGHT\nIt says what the golden answer says ({shared} of its {len(words_)} words)."
    why = f"it lacks {missing_numbers[0]}" if missing_numbers else f"it shares {shared} of {len(words_)} words"
    return f"WRONG\nNot the golden answer: {why}."


def first_sentence_of_s1(prompt: str) -> str | None:
    """The first sentence of the passage labelled [S1] (a line starting with it, else any [S1])."""
    start = re.search(r"^\s*\[S1\]", prompt, re.MULTILINE) or re.search(r"\[S1\]", prompt)
    if not start:
        return None
    passage = re.split(r"\[S\d+\]", prompt[start.end():], maxsplit=1)[0]
    passage = " ".join(passage.split())
    match = re.match(r"(.+?)[.!?](\s|$)", passage)
    sentence = (match.group(1) if match else passage).strip(" .:")
    return sentence or None


def words(text: str) -> list[str]:
    """The text in streamable pieces that join back to it exactly (a huge text: 1,000 characters each)."""
    if len(text) > 100_000:
        return [text[i:i + 1000] for i in range(0, len(text), 1000)]
    return re.findall(r"\S+\s*", text)


def prompt_of(body: dict) -> str:
    if "prompt" in body:
        return str(body["prompt"])
    return " ".join(str(m.get("content", "")) for m in body.get("messages", []))


# --- the two protocols' bodies -------------------------------------------------------------------

def ollama_chunk(model: str, text: str, done: bool, prompt: str = "", answer: str = "") -> dict:
    chunk = {"model": model, "created_at": "2025-01-01T00:00:00Z", "response": text, "done": done}
    if done:
        chunk.update(done_reason="stop", prompt_eval_count=len(prompt.split()),
                     eval_count=len(answer.split()), total_duration=1_000_000)
    return chunk


def openai_usage(prompt: str, answer: str) -> dict:
    p, c = len(prompt.split()), len(answer.split())
    return {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}


def openai_whole(model: str, prompt: str, answer: str) -> dict:
    return {"id": "chatcmpl-fake", "object": "chat.completion", "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": answer},
                         "finish_reason": "stop"}],
            "usage": openai_usage(prompt, answer)}


def openai_chunk(model: str, delta: dict, finish: str | None = None, usage: dict | None = None) -> dict:
    choices = [] if usage else [{"index": 0, "delta": delta, "finish_reason": finish}]
    chunk = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": model, "choices": choices}
    if usage:
        chunk["usage"] = usage
    return chunk


def stream_lines(ollama: bool, model: str, prompt: str, answer: str, body: dict) -> list[str]:
    """Every line of a complete streamed answer, the final done / [DONE] included."""
    pieces = words(answer)
    if ollama:
        lines = [json.dumps(ollama_chunk(model, p, False)) for p in pieces]
        return lines + [json.dumps(ollama_chunk(model, "", True, prompt, answer))]
    chunks = [openai_chunk(model, {"role": "assistant", "content": ""})]
    chunks += [openai_chunk(model, {"content": p}) for p in pieces]
    chunks.append(openai_chunk(model, {}, finish="stop"))
    if (body.get("stream_options") or {}).get("include_usage"):
        chunks.append(openai_chunk(model, {}, usage=openai_usage(prompt, answer)))
    return [f"data: {json.dumps(c)}\n" for c in chunks] + ["data: [DONE]\n"]


def missing_model_error(ollama: bool, model: str) -> dict:
    if ollama:
        return {"error": f"model '{model}' not found"}
    return {"error": {"message": f"The model `{model}` does not exist or you do not have access to it.",
                      "type": "invalid_request_error", "param": None, "code": "model_not_found"}}


# --- HTTP ----------------------------------------------------------------------------------------

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"     # so streamed answers use chunked encoding, like real servers
    server: "FakeLLMServer"

    def log_message(self, *args):     # keep test output quiet
        pass

    def do_GET(self):
        url_mode, path = split_mode(self.path)
        if path == "/_last_request":
            self.send_json(200, self.server.last_request or {})
        elif path in ("/api/tags", "/v1/models"):
            self.list_models(mode_for("", "", url_mode), ollama=path == "/api/tags")
        else:
            self.send_json(404, {"error": "not found"})

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            return self.send_json(400, {"error": "request body is not JSON"})
        self.server.last_request = {"path": self.path, "body": body,
                                    "authorization": self.headers.get("Authorization")}
        url_mode, path = split_mode(self.path)
        if path not in ("/api/generate", "/v1/chat/completions"):
            return self.send_json(404, {"error": f"no endpoint {self.path}"})
        self.answer(body, url_mode, ollama=path == "/api/generate")

    def fault(self, mode: str) -> bool:
        """Answer the faults a model list and an answer share; False when `mode` is none of them."""
        if mode == "need-key" and self.headers.get("Authorization") != f"Bearer {API_KEY}":
            self.send_json(401, {"error": {"message": "Invalid API key", "code": "invalid_api_key"}})
        elif mode == "error-500":
            self.send_bytes(500, b"Internal Server Error: CUDA out of memory", "text/plain")
        elif mode == "error-markdown":
            self.send_bytes(500, MARKDOWN_BODY.encode(), "text/plain")
        elif mode == "error-echo-key":
            echo = f"bad request with Authorization: {self.headers.get('Authorization')}"
            self.send_bytes(500, echo.encode(), "text/plain")
        elif mode == "slow":
            self.server.stopping.wait(SLOW_S)
            self.close_connection = True
        else:
            return False
        return True

    def list_models(self, mode: str, ollama: bool):
        if mode == "missing":
            return self.send_json(404, {"error": "not found"})
        if self.fault(mode):
            return None
        if mode == "malformed" or mode.startswith("json:"):
            return self.send_malformed(mode, stream=False)
        listing = {"models": [{"name": m, "model": m, "size": 1} for m in MODELS]} if ollama else \
            {"object": "list", "data": [{"id": m, "object": "model", "owned_by": "fake"} for m in MODELS]}
        self.send_whole(mode, listing)

    def answer(self, body: dict, url_mode: str | None, ollama: bool):
        model, prompt, stream = str(body.get("model", "")), prompt_of(body), bool(body.get("stream"))
        mode = mode_for(model, prompt, url_mode)
        if mode == "missing":
            return self.send_json(404, missing_model_error(ollama, model))
        if self.fault(mode):
            return None
        if mode == "error-in-body":
            return self.send_error_in_body(ollama, stream)
        if mode == "malformed" or mode.startswith("json:"):
            return self.send_malformed(mode, stream, ollama)
        answer = answer_for(mode, prompt)
        if not stream:
            whole = ollama_chunk(model, answer, True, prompt, answer) if ollama \
                else openai_whole(model, prompt, answer)
            return self.send_whole(mode, whole)
        lines = stream_lines(ollama, model, prompt, answer, body)
        if mode.startswith("cut"):
            lines = lines[:CUT_AFTER_WORDS + (0 if ollama else 1)]
        self.send_stream(lines, "application/x-ndjson" if ollama else "text/event-stream",
                         finish=mode != "cut", pause_s=TRICKLE_S if mode == "trickle" else 0)

    def send_whole(self, mode: str, payload: dict):
        data = json.dumps(payload).encode()
        if mode == "trickle":
            return self.send_trickle(data)
        if not mode.startswith("cut"):
            return self.send_bytes(200, data, "application/json")
        # Promise the whole body, send half of it, hang up.
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data[: len(data) // 2])
        self.close_connection = True

    def send_error_in_body(self, ollama: bool, stream: bool):
        message = "model runner has unexpectedly stopped"
        error = {"error": message} if ollama else {"error": {"message": message, "code": 500}}
        if not stream:
            return self.send_json(200, error)
        line = json.dumps(error) if ollama else f"data: {json.dumps(error)}"
        return self.send_stream([line], "text/event-stream", finish=True)

    def send_trickle(self, data: bytes):
        """Promise the whole body, then send it in TRICKLE_PIECES slices, one every TRICKLE_S seconds."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        size = -(-len(data) // TRICKLE_PIECES)
        for start in range(0, len(data), size):
            if self.server.stopping.wait(TRICKLE_S):
                break
            self.wfile.write(data[start:start + size])
            self.wfile.flush()
        self.close_connection = True

    def send_malformed(self, mode: str, stream: bool, ollama: bool = True):
        """Not JSON (mode malformed), or the JSON text after "json:" where an answer object belongs."""
        text = mode.removeprefix("json:") if mode.startswith("json:") else "<html>this is not JSON</html>"
        if stream:
            line = text if ollama or not mode.startswith("json:") else f"data: {text}"
            return self.send_stream([line] * 2, "text/plain", finish=True)
        return self.send_bytes(200, text.encode(), "text/plain")

    def send_json(self, status: int, payload: dict):
        self.send_bytes(status, json.dumps(payload).encode(), "application/json")

    def send_bytes(self, status: int, data: bytes, content_type: str):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True

    def send_stream(self, lines: list[str], content_type: str, finish: bool, pause_s: float = 0):
        """Send lines as HTTP chunks (pause_s apart); finish=False hangs up without the terminating chunk."""
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()
        for line in lines:
            if pause_s and self.server.stopping.wait(pause_s):
                break
            data = (line if line.endswith("\n") else line + "\n").encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
        if finish:
            self.wfile.write(b"0\r\n\r\n")
        self.close_connection = True


class FakeLLMServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, port: int = 0):
        super().__init__((HOST, port), Handler)
        self.last_request: dict | None = None
        self.stopping = threading.Event()     # wakes a `slow` or `trickle` handler when the server stops

    def handle_error(self, request, client_address):
        """A client hanging up mid-answer (as clients do on a fault) is expected: stay quiet."""
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


def start_server(port: int = 0) -> tuple[FakeLLMServer, str]:
    """Serve on 127.0.0.1 in a background thread; returns (server, "http://127.0.0.1:PORT")."""
    server = FakeLLMServer(port)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                     name="fake-llm-server", daemon=True).start()
    return server, f"http://{HOST}:{server.server_address[1]}"


def stop_server(server: FakeLLMServer) -> None:
    server.stopping.set()
    server.shutdown()
    server.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description="Fake Ollama / OpenAI-compatible server for tests.")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0 = any free port)")
    args = parser.parse_args()
    server = FakeLLMServer(args.port)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))   # `kill PID` still closes the socket
    print(f"fake LLM server listening on http://{HOST}:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever(poll_interval=0.1)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.stopping.set()
        server.server_close()


if __name__ == "__main__":
    main()
