"""Nothing a user types becomes formatting: every text that comes from a link, a file, a form or a server is
shown as the characters it holds, in a real browser.

Each field gets its own payload (`payload("size")`): a Markdown link and image pointing at 127.0.0.1:9 (a port
nothing listens on), LaTeX, a Streamlit colour directive, bold, strike-through and an HTML tag. Then the DOM is
read (`check_plain`):
- no <a>, <img>, <iframe>... whose URL points at 127.0.0.1:9, and the browser never requested it;
- no formula (.katex), no <b> / <strong> / <del> / coloured span made of the payload's words: every text
  node holding one of those words sits in an element that also holds the raw markup around it;
- and the payload IS on the page, character for character, for every field the page shows (so a field that
  is silently dropped, or shown with visible backslashes, fails too), or cut as a message cuts a long name.

Fields: every URL setting (size, overlap, chunker, ask_question, ask_k, ask_candidates, ask_statuses,
ask_rerank, corpus_doc, data); uploaded file names, JSONL ids and statuses, document text, golden CSV rows
(question, doc, anchor; a doc that does not exist), the golden file's name and the dataset name; the model
name, a model list and an error body from a model server.
"""
from __future__ import annotations

import csv
import io
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote, urlparse

import pytest

from browser import MAIN, SLOW_MS, page_path, rerun, upload, wait_charts, wait_idle, wait_loaded
from e2e_helpers import prompt_box

from playwright.sync_api import expect

TRAP_HOST = "127.0.0.1:9"          # discard port: nothing answers, and nothing may even ask


def payload(field: str) -> str:
    """The text put in `field`: 'size: [Session expired - log in again](http://127.0.0.1:9/size)![x](…) $x^2$ …'."""
    return (f"{field}: [Session expired - log in again](http://{TRAP_HOST}/{field})"
            f"![x](http://{TRAP_HOST}/{field}.png) $x^2$ :red[alarm] **bold** ~~struck~~ <b>b</b>")


# (a word of the payload, the raw markup that must surround it wherever the word is shown)
MARKUP = [("Session expired - log in again", "[Session expired - log in again]("),
          ("alarm", ":red[alarm]"), ("bold", "**bold**"), ("struck", "~~struck~~"), ("x^2", "$x^2$")]

_FORMATTED = """([host, markup]) => {
    const bad = [];
    const urlAttrs = ['href', 'src', 'srcset', 'action', 'formaction', 'data', 'poster', 'xlink:href', 'style'];
    for (const el of document.querySelectorAll('*')) {
        for (const a of urlAttrs) {
            const v = el.getAttribute(a);
            if (v && v.includes(host + '/')) bad.push(`<${el.tagName.toLowerCase()} ${a}="${v.slice(0, 120)}">`);
        }
    }
    for (const el of document.querySelectorAll('.katex, .katex-display, math'))
        bad.push(`a formula: ${el.outerHTML.slice(0, 120)}`);
    for (const el of document.querySelectorAll('b, strong, del, s'))
        if (['b', 'bold', 'struck'].includes(el.textContent.trim())) bad.push(`<${el.tagName.toLowerCase()}>${el.textContent}`);
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const parent = n.parentElement;
        if (!parent || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName)) continue;
        for (const [word, raw] of markup) {
            if (n.data.includes(word) && !parent.textContent.includes(raw)) {
                bad.push(`'${word}' without its markup, in <${parent.tagName.toLowerCase()} style="${parent.getAttribute('style') || ''}">: `
                         + (parent.closest('[data-testid]') || parent).outerHTML.slice(0, 200));
            }
        }
    }
    return [...new Set(bad)];
}"""


INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))   # joiners that may break an autolink


def page_text(page) -> str:
    """Every character of the page (textContent, so the grids' cell text too), whitespace collapsed, without
    zero-width characters (a word joiner in 'http:\u2060//' is how a page keeps a URL from becoming a link)."""
    return " ".join(page.evaluate("() => document.body.textContent").translate(INVISIBLE).split())


def cut_on_page(value: str, text: str) -> bool:
    """value shown as a message shows a long name, cut by rag_core.text.messages.shorten: its start, then '…' (the end and
    the length follow)."""
    return re.search(re.escape(" ".join(value.split())[:30]) + r"[^…]*…", text) is not None


def check_plain(page, shown: list[str], where: str) -> None:
    """No link, image, formula, colour or emphasis made from a payload; each field of `shown` on the page
    literally (its payload, character for character). What is wrong is noted in page.findings; the test fails
    at its end (`open_page.assert_clean()`) with every finding of every page, so one run lists them all."""
    wait_loaded(page)
    formatted = page.evaluate(_FORMATTED, [TRAP_HOST, MARKUP])
    text = page_text(page)
    missing = [f for f in shown if " ".join(payload(f).split()) not in text and not cut_on_page(payload(f), text)]
    if formatted or missing:
        page.findings.append(f"{where}:\n    rendered as formatting: {formatted}\n    not shown literally: {missing}")


class Pages:
    """new_page() that records every request to 127.0.0.1:9 and what check_plain finds; `assert_clean()` at
    the end of a test fails it with every finding of every page, so one run lists them all."""

    def __init__(self, new_page):
        self.new_page, self.pages = new_page, []

    def __call__(self, width=1280, height=2400):
        page = self.new_page(width, height)
        page.trap_requests, page.findings = [], []
        page.on("request", lambda r: urlparse(r.url).netloc == TRAP_HOST and page.trap_requests.append(r.url))
        self.pages.append(page)
        return page

    def report(self) -> str:
        findings = [f for p in self.pages for f in p.findings]
        requested = [u for p in self.pages for u in p.trap_requests]
        return "\n  ".join(findings + ([f"the browser requested {requested}"] if requested else []))

    def assert_clean(self) -> None:
        report = self.report()
        assert not report, "User, file, server or link text shown as formatting:\n  " + report


@pytest.fixture
def open_page(new_page):
    pages = Pages(new_page)
    yield pages
    if pages.report():           # shown with the failure when the test stopped before its assert_clean()
        print("Findings so far:\n  " + pages.report())


def main(page):
    return page.locator(MAIN)


def go_to(page, title: str, h1: str) -> None:
    """Follow the sidebar menu (the session, and its upload, stay) and wait for the page's first run to end."""
    page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=re.compile(rf"{title}$")).click()
    expect(main(page).locator("h1").first).to_contain_text(h1)
    wait_idle(page)


def link(path: str, fields) -> str:
    return path + "?" + "&".join(f"{f}={quote(payload(f), safe='')}" for f in fields)


# ---------------------------------------------------------------- values in a link

def test_every_link_value_is_shown_as_plain_text(open_page, server):
    page = open_page()
    fields = ["size", "overlap", "chunker", "ask_question", "ask_k", "ask_candidates", "ask_statuses",
              "ask_rerank", "data"]
    page.goto(server.url + link(page_path("Ask"), fields))
    expect(main(page).get_by_role("heading", name=re.compile(r"chunk\(s\) handed to the model"))).to_be_visible()
    wait_idle(page)
    warnings = main(page).locator('[data-testid="stAlertContentWarning"]')
    for field in ("size", "overlap", "chunker", "ask_k", "ask_candidates", "ask_rerank"):
        expect(warnings.filter(has_text=f"for '{field}' is not valid").first).to_be_visible()
    expect(warnings.filter(has_text="This link referred to uploaded data, which is gone").first).to_be_visible()
    expect(prompt_box(page)).to_contain_text("QUESTION: ask_question:")
    # ask_statuses: an unknown status is dropped from the filter; data: the warning does not quote the link
    check_plain(page, ["size", "overlap", "chunker", "ask_question", "ask_k", "ask_candidates", "ask_rerank"],
                 "the Ask page opened from a link with a payload in every setting")

    for path, fields, h1 in ((page_path("Corpus"), ["corpus_doc", "size"], "Corpus"),
                             (page_path("Overview"), ["data", "overlap"], "Open Book"),
                             (page_path("Your data"), ["data", "chunker"], "Your data")):
        page = open_page()
        page.goto(server.url + link(path, fields))
        expect(main(page).locator("h1").first).to_contain_text(h1)
        expect(main(page).locator('[data-testid="stAlertContentWarning"]').first).to_be_visible()
        wait_idle(page)
        # corpus_doc: a document that does not exist opens the first one; data: not quoted (see above)
        check_plain(page, [f for f in fields if f not in ("corpus_doc", "data")], f"{path} opened from a link")
    open_page.assert_clean()


# ---------------------------------------------------------------- uploaded files, golden rows, dataset name

def uploads() -> tuple[list[dict], dict]:
    """The documents (Playwright file payloads) and the golden CSV, every name and value a payload."""
    text = ("These notes describe the rocket. " + payload("anchor") + " The launch code changes every Monday. "
            + payload("text") + " Only the flight director reads it aloud.")
    lines = [json.dumps({"id": payload("id"), "text": text, "status": payload("status")}),
             json.dumps({"id": payload("id"), "text": "A second document with the same id.", "status": "current"}),
             "{not json " + payload("badline"),
             json.dumps({"id": "plain-notes", "text": "The canteen serves lentil soup on Fridays.", "status": "current"})]
    docs = [{"name": payload("jsonl") + ".jsonl", "mimeType": "application/jsonl", "buffer": "\n".join(lines).encode()},
            {"name": payload("file") + ".txt", "mimeType": "text/plain",
             "buffer": b"A note uploaded as a file. The office opens at 8 in the morning."},
            {"name": payload("binary") + ".txt", "mimeType": "text/plain", "buffer": bytes(range(256)) * 8}]
    rows = io.StringIO()
    w = csv.writer(rows)
    w.writerow(["question", "doc", "anchor"])
    w.writerow([payload("question"), payload("id"), payload("anchor")])                   # valid
    w.writerow([payload("question2"), payload("missing"), "the launch code changes"])     # unknown document
    w.writerow([payload("question3"), payload("id"), payload("notthere")])                # anchor not found
    golden = {"name": payload("csv") + ".csv", "mimeType": "text/csv", "buffer": rows.getvalue().encode()}
    return docs, golden


def test_uploaded_names_ids_statuses_and_golden_rows_are_plain_text(open_page, server):
    page = open_page()
    page.goto(server.url + page_path("Your data"))
    expect(main(page)).to_contain_text("Active dataset: Bundled corpus")
    wait_idle(page)
    docs, golden = uploads()
    upload(page, "Documents", docs)
    expect(main(page)).to_contain_text("looks like a binary file")
    expect(main(page)).to_contain_text("document(s) read", timeout=SLOW_MS)
    upload(page, "Golden set", [golden])
    expect(main(page)).to_contain_text("3 question(s) read")
    expect(main(page)).to_contain_text("golden question(s) would be excluded")
    name_box = main(page).get_by_role("textbox", name="Name of this dataset")
    name_box.fill(payload("name"))
    name_box.press("Enter")
    expect(main(page).get_by_role("button", name="Use these documents")).to_be_enabled()
    # (the grids — the documents' table, the golden set's — are drawn on a canvas: their cells are not read here)
    check_plain(page, ["binary", "jsonl", "id", "missing"], "Your data, files and golden set read")

    main(page).get_by_role("button", name="Use these documents").click()
    expect(main(page).locator("h3").filter(has_text="Active dataset: name:")).to_be_visible(timeout=SLOW_MS)
    expect(main(page)).to_contain_text("Ceiling (recall@k) · fixed 160/32 · no filter · no rerank")
    wait_idle(page)
    side = page.locator('[data-testid="stSidebar"]')
    expect(side).to_contain_text("Dataset: name:")
    check_plain(page, ["name", "status", "id", "question2", "missing"], "Your data, the upload in use")

    go_to(page, "Ask", "Ask")
    main(page).locator('[data-testid="stSelectbox"]').filter(has_text="Golden questions").click()
    page.get_by_role("option").filter(has_text="question:").first.click()
    expect(main(page).get_by_label("Your question")).to_have_value(payload("question"))
    expect(main(page).get_by_role("heading", name=re.compile(r"chunk\(s\) handed to the model"))).to_be_visible()
    wait_idle(page)                     # the question's run is over before the filter is changed
    statuses = main(page).get_by_role("toolbar", name="Allowed statuses")
    with rerun(page):                   # the run the click starts is over (a chunk of id: was shown before it too)
        statuses.get_by_role("button").filter(has_text="Session expired").click()
    expect(main(page).locator('[data-testid="stMarkdownContainer"] p').filter(has_text=" · chunk ")
           .filter(has_text="id:").first).to_be_visible()
    expect(main(page)).to_contain_text(" ".join(payload("text").split()))     # the chunk the new status lets in
    check_plain(page, ["name", "status", "id", "question", "anchor", "text"], "Ask on the upload")

    go_to(page, "Corpus", "Corpus")
    expect(main(page)).to_contain_text("These notes describe the rocket.")      # the viewer draws the document
    check_plain(page, ["status", "id", "anchor", "text", "question2", "missing"], "Corpus of the upload")

    go_to(page, "Ablations", "Ablations")
    wait_charts(page)
    check_plain(page, ["name"], "Ablations of the upload")

    go_to(page, "Overview", "Open Book")
    expect(main(page)).to_contain_text("Headline figures")
    check_plain(page, ["name"], "Overview of the upload")
    open_page.assert_clean()


# ---------------------------------------------------------------- a model server's texts

class _PayloadServer(BaseHTTPRequestHandler):
    """Lists models named with payloads; answers every generation with HTTP 500 and a payload body."""

    def log_message(self, *args):
        pass

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        names = [payload("listed"), payload("listed2")]
        self._send(200, json.dumps({"models": [{"name": n, "model": n} for n in names],
                                    "data": [{"id": n} for n in names]}).encode(), "application/json")

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._send(500, payload("body").encode(), "text/plain")


@pytest.fixture(scope="module")
def payload_server():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _PayloadServer)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


def test_model_name_model_list_and_error_body_are_plain_text(open_page, server, payload_server):
    page = open_page()
    page.goto(server.url + page_path("Model"))
    expect(main(page)).to_contain_text("No model is set up")
    wait_idle(page)
    side = main(page)                            # the Model page's own form (it was in the sidebar)
    fields = {side.get_by_role("textbox", name="Server URL"): payload_server,
              side.get_by_role("textbox", name="Model", exact=True): payload("model")}
    for field, value in fields.items():
        field.fill(value)
    for field, value in fields.items():          # both typed values are in the form when it is sent (once, in a
        expect(field).to_have_value(value)       # full run, the page never saw the model: a value was lost)
    wait_idle(page)                              # no run going on that could redraw the form under the click
    with rerun(page):
        side.get_by_role("button", name="Use this model").click()
    expect(main(page)).to_contain_text("Model: model:", timeout=SLOW_MS)
    wait_idle(page)
    check_plain(page, ["model"], "the Model page with a payload model name")
    side.get_by_role("button", name="Check connection").click()          # the server's model list, shown
    expect(side).to_contain_text("no model named")
    wait_idle(page)
    check_plain(page, ["model", "listed", "listed2"], "Check connection: a model list of payloads")
    main(page).get_by_role("button", name="Run").click()
    expect(main(page).locator('[data-testid="stAlertContentError"]')).to_contain_text("body:", timeout=SLOW_MS)
    wait_idle(page)
    check_plain(page, ["model", "body"], "the Model page: a run stopped by a payload error body")

    go_to(page, "Ask", "Ask")
    box = main(page).get_by_label("Your question")
    box.fill("What is the default cutoff of get_close_matches?")
    box.press("Enter")
    expect(main(page).get_by_role("heading", name=re.compile(r"chunk\(s\) handed to the model"))).to_be_visible()
    wait_idle(page)                     # the question's run is over: its button is the one to press
    main(page).get_by_role("button", name="Ask the model").click()
    expect(main(page).locator('[data-testid="stAlertContentError"]').filter(has_text="body:").first).to_be_visible(timeout=SLOW_MS)
    wait_idle(page)
    check_plain(page, ["model", "body"], "Ask the model, with a payload model name and error body")
    open_page.assert_clean()
