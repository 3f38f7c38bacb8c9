"""Real browser, Your data: a status typed into the table that links could not carry costs that row only, and the
golden set's CSV download carries no spreadsheet formula.

Every action is followed by an `expect` on the state it leads to, never by a sleep.
"""
import csv
import io
import json

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect

from browser import MAIN, SLOW_MS, page_path, upload, wait_idle

DOCS = [{"id": "first", "text": "The office opens at 8 in the morning."},
        {"id": "second", "text": "The canteen serves lentil soup on Fridays."}]
GOLDEN = ("question,doc,anchor\n"
          "\"=HYPERLINK(\"\"http://evil.example\"\",\"\"When?\"\")\",first,opens at 8\n"
          "+cmd|' /C calc'!A0,second,lentil soup\n")


@pytest.fixture
def page(new_page):
    return new_page(1280, 2400)


def payload(name: str, text: str, mime: str) -> dict:
    return {"name": name, "mimeType": mime, "buffer": text.encode()}


def open_status_editor(page, tries: int = 6):
    """Open the grid's editor on the first row's status cell. The grid is a canvas: a click that lands while
    it is still drawing or resizing selects nothing, so the keys after it open no editor. Each try waits on
    the editor itself (a state), and a try that saw none starts over from the click."""
    grid = page.get_by_test_id("stDataFrame").first
    editor = page.locator("textarea.gdg-input")
    for _ in range(tries):
        expect(grid).to_be_visible()
        box = grid.bounding_box()
        page.mouse.click(box["x"] + 20, box["y"] + 35 + 17)    # the first row's id cell (header row: 35 px)
        page.keyboard.press("ArrowRight")                        # its status
        page.keyboard.press("Enter")                             # edit it: the grid opens its cell editor
        try:
            editor.wait_for(state="visible", timeout=5_000)
            return editor
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
            wait_idle(page)
    raise AssertionError(f"the grid opened no cell editor in {tries} tries")


def test_a_status_with_a_comma_typed_in_the_table_costs_its_row_and_the_csv_is_safe(server, page):
    page.goto(server.url + page_path("Your data"))
    expect(page.locator(MAIN)).to_contain_text("Active dataset: Bundled corpus")
    wait_idle(page)
    upload(page, "Documents", [payload("docs.jsonl", "\n".join(json.dumps(d) for d in DOCS), "application/jsonl")])
    upload(page, "Golden set", [payload("golden.csv", GOLDEN, "text/csv")])
    expect(page.locator(MAIN)).to_contain_text("2 document(s) read")
    expect(page.locator(MAIN)).to_contain_text("Against these documents: 2 of 2 golden question(s) valid")
    wait_idle(page)

    editor = open_status_editor(page)
    expect(editor).to_have_value("current")                      # the status cell, not the id
    editor.fill("old,new")
    editor.press("Enter")
    expect(page.locator(MAIN)).to_contain_text("Row 1 (first) is left out until you change it: the status "
                                               "'old,new' holds ','", timeout=SLOW_MS)
    expect(page.locator(MAIN)).to_contain_text("Against these documents: 1 of 2 golden question(s) valid")

    page.get_by_role("button", name="Use these documents").click()
    expect(page.locator(MAIN)).to_contain_text("Active dataset: My documents", timeout=SLOW_MS)
    expect(page.locator(MAIN)).to_contain_text("1 documents")
    wait_idle(page, timeout=SLOW_MS)
    with page.expect_download(timeout=SLOW_MS) as dl:
        page.get_by_role("button", name="Golden set (CSV)").click()
    rows = list(csv.reader(io.StringIO(open(dl.value.path(), encoding="utf-8", newline="").read())))
    assert rows[0] == ["question", "doc", "anchor"]
    assert [r[0] for r in rows[1:]] == ["'=HYPERLINK(\"http://evil.example\",\"When?\")", "'+cmd|' /C calc'!A0"]
