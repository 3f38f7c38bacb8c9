"""Real browser: a newcomer's own notes and questions (upload, validate, measure, export), and a real model
server (the fake one, speaking Ollama's protocol over HTTP) run over the golden set.

Every input file is made here. The server and the browser are the session's (tests/conftest.py); a missing
Chromium fails these tests, saying how to install it.

Every action is followed by an `expect` on the state it leads to (a text, a URL), never by "the app is
idle": right after a click the rerun may not have started, least of all on a busy machine.
"""
import json
import re
import zipfile

import pytest

from browser import MAIN, SLOW_MS, page_path, screenshot, upload, wait_idle
from fake_llm_server import start_server, stop_server

from playwright.sync_api import expect  # noqa: E402

NOTES = {
    "launch.txt": "Mission notes. The launch code for the rocket is 7741 and it changes every Monday.\n\n"
                  "Only the flight director may read the launch code aloud.",
    "menu.md": "# Canteen\n\nOn Fridays the canteen serves lentil soup with rye bread.",
}
JSONL = [{"id": "old-launch", "text": "DRAFT: the launch code for the rocket is 1234.", "status": "draft"}]
GOLDEN = ("question,doc,anchor\n"
          "What is the launch code of the rocket?,launch.txt,The launch code for the rocket is 7741\n"
          "\"What soup, on Fridays?\",menu.md,serves lentil soup\n"
          "Who reads the code?,nowhere.txt,flight director\n"
          "Who may read it aloud?,launch.txt,ONLY THE FLIGHT DIRECTOR\n")


@pytest.fixture(scope="module")
def fake_llm():
    srv, url = start_server()
    yield url
    stop_server(srv)


@pytest.fixture
def page(new_page):
    return new_page(1280, 2400)


def files(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    paths = []
    for name, text in NOTES.items():
        (folder / name).write_text(text, encoding="utf-8")
        paths.append(folder / name)
    (folder / "extra.jsonl").write_text("\n".join(json.dumps(r) for r in JSONL), encoding="utf-8")
    with zipfile.ZipFile(folder / "bundle.zip", "w") as z:
        z.writestr("../evil.txt", "should never be read")
        z.writestr("inside/faq.txt", "The office opens at 8 in the morning.")
    (folder / "photo.txt").write_bytes(bytes(range(256)) * 8)           # a binary renamed .txt
    golden = tmp_path / "golden.csv"
    golden.write_bytes(b"\xef\xbb\xbf" + GOLDEN.replace("\n", "\r\n").encode())   # BOM and Windows line ends
    return paths + [folder / "extra.jsonl", folder / "bundle.zip", folder / "photo.txt"], golden


def open_your_data(page, server):
    page.goto(server.url + page_path("Your data"))
    expect(page.locator(MAIN)).to_contain_text("Active dataset: Bundled corpus")
    wait_idle(page)                 # the first run is over: its widgets take input


def use_these_documents(page):
    """Press 'Use these documents' and wait for the page to show the upload as the active dataset."""
    page.get_by_role("button", name="Use these documents").click()
    expect(page.locator(MAIN)).to_contain_text("Active dataset: My documents", timeout=SLOW_MS)


_WATCH_DOWNLOAD_ERRORS = """() => {
    window.__dlErrors = [];
    new MutationObserver(() => document.querySelectorAll('[data-testid="stDownloadButtonError"]')
        .forEach(e => window.__dlErrors.includes(e.innerText) || window.__dlErrors.push(e.innerText)))
        .observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def download(page, server, button: str):
    """Click a download button and return the Download; on a timeout, fail with what the button said (it shows
    an error for 5 s only) and the server's log (a deferred download runs its callable on the server)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    page.evaluate(_WATCH_DOWNLOAD_ERRORS)
    try:
        with page.expect_download(timeout=SLOW_MS) as dl:
            page.get_by_role("button", name=button).click()
        return dl.value
    except PlaywrightTimeout:
        said = page.evaluate("() => window.__dlErrors")
        raise AssertionError(f"No download from {button!r} within {SLOW_MS // 1000} s; the button said {said}. "
                             "The server's log:\n" + server.log()) from None


def test_upload_validate_measure_and_export(server, page, tmp_path):
    docs, golden = files(tmp_path)
    open_your_data(page, server)
    upload(page, "Documents", docs)
    main = page.locator(MAIN)
    expect(main).to_contain_text("photo.txt looks like a binary file")   # said, skipped
    expect(main).to_contain_text("evil.txt")                          # the ../ member: said, skipped
    expect(main).to_contain_text("4 document(s) read")   # launch, menu, old-launch, inside/faq.txt
    upload(page, "Golden set", [golden])
    expect(main).to_contain_text("4 question(s) read")
    use_these_documents(page)
    expect(main).to_contain_text("2 of 4 golden questions valid")
    expect(main).to_contain_text("Unknown document 'nowhere.txt'")
    expect(main).to_contain_text("different upper/lower case")
    expect(main).to_contain_text("Ceiling (recall@k) · fixed 160/32 · no filter · no rerank")
    wait_idle(page, timeout=SLOW_MS)   # the run that shows the upload is over: the download buttons are final
    screenshot(page, "your-data-uploaded")

    report = (tmp_path / "report.html")
    download(page, server, "Report (HTML, with charts)").save_as(report)     # the charts are drawn as PNG on the click
    text = report.read_text()
    assert "<img" in text and "ceiling" in text and "My documents" in text
    download(page, server, "Documents (JSONL)").save_as(tmp_path / "docs.jsonl")
    ids = [json.loads(line)["id"] for line in (tmp_path / "docs.jsonl").read_text().splitlines()]
    assert "launch.txt" in ids and "old-launch" in ids and "photo.txt" not in ids

    # the other pages work on the uploaded data
    page.get_by_role("link", name="Ask").click()
    expect(main.locator("h1").first).to_have_text("Ask")
    expect(main).to_contain_text("Type a question above")     # the Ask page's first run reached its end
    wait_idle(page)
    box = page.get_by_label("Your question")
    box.fill("What is the launch code of the rocket?")
    box.press("Enter")
    expect(main).to_contain_text("The anchor of this golden question is in span")
    expect(main.locator('[data-testid="stMarkdownContainer"] p').filter(has_text="launch.txt · chunk").first).to_be_visible()
    page.get_by_role("link", name="Ablations").click()
    expect(main.locator("h1").first).to_have_text("Ablations")
    expect(main.locator(".vega-embed").first).to_be_visible()
    screenshot(page, "ablations-uploaded")


def test_uploads_are_not_visible_to_another_session(server, new_page, tmp_path):
    docs, golden = files(tmp_path)
    first = new_page()
    open_your_data(first, server)
    upload(first, "Documents", docs)
    expect(first.locator(MAIN)).to_contain_text("4 document(s) read")
    use_these_documents(first)
    other = new_page()
    open_your_data(other, server)                  # waits for "Active dataset: Bundled corpus"
    expect(other.locator(MAIN)).not_to_contain_text("My documents")


def test_golden_set_through_a_model_server(server, page, fake_llm):
    page.goto(server.url + page_path("Model"))
    main = page.locator(MAIN)
    expect(main).to_contain_text("No model is set up")
    wait_idle(page)
    main.get_by_role("textbox", name="Server URL").fill(fake_llm)
    main.get_by_role("textbox", name="Model", exact=True).fill("echo-cite")
    main.get_by_role("button", name="Use this model").click()
    expect(main).to_contain_text("Model: echo-cite")
    wait_idle(page)                     # the run that took the model is over before Run is pressed
    page.get_by_role("button", name="Run").click()
    # the run asks the model 2 × the golden set: its result, not an idle app, says it is over
    expect(main).to_contain_text("Operating metrics", timeout=SLOW_MS)
    expect(main.get_by_text("status = current").first).to_be_visible()
    screenshot(page, "model-golden-run")
    table = main.locator('[data-testid="stDataFrame"]').first
    expect(table).to_contain_text(re.compile(r"answer.rate"))       # column names in words on screen


def test_an_upload_s_page_says_what_is_kept_lists_excluded_rows_one_a_line_and_names_trap3_s_corpus(server, page,
                                                                                                   tmp_path):
    docs, golden = files(tmp_path)
    open_your_data(page, server)
    main = page.locator(MAIN)
    expect(main).to_contain_text("once used, they are kept in this server's data folder")
    expect(main).not_to_contain_text("seen by this browser session only")
    upload(page, "Documents", docs)
    upload(page, "Golden set", [golden])
    excluded = page.locator('[data-testid="stAlert"]').filter(has_text="would be excluded")
    expect(excluded.locator("li")).to_have_count(2)            # one row a line, not run together
    expect(excluded.locator("li").first).to_contain_text("nowhere.txt")
    use_these_documents(page)
    expect(main).to_contain_text("its golden set's questions only (solid lines)")   # trap 3 on the upload,
    expect(main).to_contain_text("the ceiling of each retriever on this golden set")  # not on the bundled corpus
    expect(main).not_to_contain_text("The bundled corpus, not yours")
