"""Real browser: the golden set studio. A three-row set built by choosing sentences and typing questions, kept over a
reload, used by Overview (its ceiling over 3 questions) and Compare (3 questions in its download), and downloaded
as a CSV that reads back; an FAQ upload's question headings offered as suggestions, one accepted (and the
README's screenshot of them taken). Every action is followed by an `expect` on the state it leads to, never a
sleep."""
import json
import re

from browser import MAIN, SLOW_MS, choose, page_path, rerun, screenshot, upload, wait_idle, wait_loaded
from rag_core.data.golden_csv import read_golden_csv

from playwright.sync_api import expect  # noqa: E402

ROWS = [("difflib", "Optional arg cutoff", "How close must two words be before one is offered for the other?"),
        ("bisect", "leftmost x already there", "Where does the left search put a copy of a value already there?"),
        ("heapq", "Push item on the heap, then pop", "Push and pop the smallest in one call?")]


ACCEPT = "arg cutoff | | cutoff (default"     # two wordings, an empty piece between them dropped


def widget(page, testid: str, label: str):
    """The main area's widget of that kind whose label is exactly `label`."""
    exact = re.compile(rf"^\s*{re.escape(label)}\s*$")
    return page.locator(MAIN).get_by_test_id(testid).filter(
        has=page.get_by_test_id("stWidgetLabel").filter(has_text=exact))


def type_in(page, label: str, text: str) -> None:
    box = widget(page, "stTextInput", label).locator("input")
    with rerun(page):                 # the value commits on Enter
        box.fill(text)
        box.press("Enter")
    expect(box).to_have_value(text)


def add_row(page, n: int, doc: str, find: str, question: str, by_table: bool = False, accept: str = "") -> None:
    """Choose the one sentence of `doc` holding `find` (in the list, or by clicking its row of the table)."""
    choose(page, "Document", doc, within=page.locator(MAIN), typed=True, exact=False)
    type_in(page, "Find in this document", find)
    expect(page.locator(MAIN)).to_contain_text("1 hold the text searched for")
    if by_table:                  # the grid is drawn on a canvas: its first row's checkbox, below a 35 px header
        wait_idle(page)
        box = page.locator(MAIN).get_by_test_id("stDataFrame").first.bounding_box()
        with rerun(page):
            page.mouse.click(box["x"] + 15, box["y"] + 35 + 17)
        expect(widget(page, "stSelectbox", "Anchor sentence").get_by_role("combobox")).to_have_value(
            re.compile(re.escape(find)))
    else:
        choose(page, "Anchor sentence", find, within=page.locator(MAIN), typed=True, exact=False)
    expect(page.locator(MAIN)).to_contain_text("Anchor (literal, from the document):")
    type_in(page, "Question", question)
    if accept:
        type_in(page, "Also accept (optional)", accept)
    with rerun(page):
        page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator(MAIN)).to_contain_text(f"Done: add row {n}.")
    expect(page.locator(MAIN)).to_contain_text(f"{n} {'row' if n == 1 else 'rows'}: {n} valid")


def download(page, button: str):
    with page.expect_download(timeout=SLOW_MS) as dl:
        page.get_by_role("button", name=button).click()
    return dl.value


def test_build_three_rows_reload_use_them_everywhere_and_download(server, new_page, tmp_path):
    page = new_page(1440, 900)
    page.goto(server.url + "/studio")
    main = page.locator(MAIN)
    expect(main).to_contain_text("Golden set studio")
    wait_idle(page)
    with rerun(page):
        page.get_by_role("button", name="Start an empty set").click()
    expect(main).to_contain_text("The set is empty")
    for n, (doc, find, question) in enumerate(ROWS, 1):
        add_row(page, n, doc, find, question, by_table=n == 2, accept=ACCEPT if n == 1 else "")
    expect(page).to_have_url(re.compile(r"[?&]data=user-[0-9a-f]{16}"))
    wait_idle(page)
    screenshot(page, "studio-1440")

    page.reload()                                        # a new session: the link opens the kept set
    expect(main).to_contain_text("3 rows: 3 valid", timeout=SLOW_MS)
    expect(main).to_contain_text("golden rows")
    csv = tmp_path / "golden-set.csv"
    download(page, "Download the set (CSV)").save_as(csv)
    rows, problems = read_golden_csv(csv.read_bytes(), csv.name)
    assert problems == [] and [r.question for r in rows] == [q for _, _, q in ROWS]
    assert csv.read_text().splitlines()[0] == "question,doc,anchor,answer,accept"
    assert [r.accept for r in rows] == [("arg cutoff", "cutoff (default"), (), ()]     # kept over the reload
    assert rows[0].anchor == "Optional arg cutoff (default 0.6) is a float in [0, 1]."

    page.get_by_role("link", name="Overview").first.click()
    expect(main).to_contain_text("3 valid golden questions", timeout=SLOW_MS)   # the ceiling over these 3

    page.get_by_role("link", name="Compare").first.click()
    expect(main).to_contain_text("2 · Leaderboard", timeout=SLOW_MS)
    wait_idle(page, timeout=SLOW_MS)
    compared = json.loads(download(page, "Comparison (JSON)").path().read_text())
    assert [q["question"] for q in compared["questions"]] == [q for _, _, q in ROWS]


def test_the_studio_on_a_phone(server, new_page):
    page = new_page(390, 844)
    page.goto(server.url + "/studio")
    expect(page.locator(MAIN)).to_contain_text("Add a question")
    wait_idle(page)
    wait_loaded(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390     # nothing wider than the phone
    screenshot(page, "studio-390")


FAQ = ("# Orders and refunds\n\nAnswers to what customers ask the support desk most.\n\n"
       "## How long does a refund take?\n\nA refund reaches your card within five working days of the return. Some "
       "banks take two more days to show it.\n\n"
       "## Can I change the delivery address after ordering?\n\nYes, until the parcel leaves the warehouse. Write "
       "to the support desk with your order number.\n\n"
       "## Do you ship to **post office boxes**?\n\nNo, a courier needs a door to knock on. Choose a pick-up point "
       "instead.\n\n"
       "## Where is my tracking code?\n\n```\nTRACK-0000-?\n```\n")


def test_an_faq_upload_gets_its_question_headings_as_suggestions_and_one_is_added(server, new_page, tmp_path):
    faq = tmp_path / "orders-faq.md"
    faq.write_text(FAQ, encoding="utf-8")
    page = new_page(1440, 900)
    page.goto(server.url + page_path("Your data"))
    main = page.locator(MAIN)
    expect(main).to_contain_text("Active dataset: Bundled corpus")
    upload(page, "Documents", [faq])
    expect(main).to_contain_text("1 document(s) read")
    page.get_by_role("button", name="Use these documents").click()
    expect(main).to_contain_text("Active dataset: My documents", timeout=SLOW_MS)
    wait_idle(page, timeout=SLOW_MS)
    page.get_by_role("link", name="Golden set studio").first.click()
    expect(main).to_contain_text("0 golden rows", timeout=SLOW_MS)
    wait_idle(page)

    with rerun(page):
        page.get_by_role("button", name="Suggest from the documents' headings").click()
    expect(main).to_contain_text("3 suggestions found")
    cards = main.locator('[class*="st-key-studio_suggestion_card_"]')      # one bordered box a suggestion
    expect(cards).to_have_count(3)                     # the heading over code only gives none
    expect(cards.nth(2)).to_contain_text("Do you ship to post office boxes?")
    expect(cards.nth(2)).to_contain_text("orders-faq.md · a heading that asks a question (line 13) · structure")
    wait_idle(page)
    wait_loaded(page)
    page.get_by_role("heading", name="Suggestions").evaluate("e => e.scrollIntoView({block: 'start'})")
    screenshot(page, "studio-suggestions-1440")

    with rerun(page):
        cards.nth(0).get_by_role("button", name="Accept").click()
    expect(main).to_contain_text("Done: accept suggestion 1.")
    expect(main).to_contain_text("1 row: 1 valid")
    expect(cards).to_have_count(2)                     # the accepted one is no longer offered
    expect(main.get_by_role("button", name="Undo: accept suggestion 1")).to_be_visible()
    expect(page).to_have_url(re.compile(r"[?&]data=user-[0-9a-f]{16}"))
