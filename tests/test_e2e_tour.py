"""The tour in Chromium: nine steps with Next and back with Back, each showing the library's sentence and a drawn
chart; a link ?step=5 opens step 5 and a reload stays there; a phone's width works; the presenter's download opens
offline (no request leaves the page) and holds the nine steps."""
from __future__ import annotations

import re

from browser import MAIN, WAIT_MS, rerun, wait_charts, wait_idle
from rag_core.evaluation import tour
from rag_core.retrieval.chunkers import ChunkerConfig

from playwright.sync_api import expect  # noqa: E402

ARTICLE = ChunkerConfig("fixed", 160, 32)


def heading(page, n: int):
    return page.locator(MAIN).get_by_role("heading", name=f"Step {n} of 9 · {tour.TITLES[n - 1]}")


def shows_step(page, wb, n: int) -> None:
    """The step's heading, the library's sentence for the default controls, the URL, and its chart drawn."""
    expect(heading(page, n)).to_be_visible(timeout=2 * WAIT_MS)
    expect(page.locator(MAIN).get_by_text(tour.step(wb, n, ARTICLE).sentence, exact=True)).to_be_visible()
    expect(page).to_have_url(re.compile(rf"[?&]step={n}(&|$)"))
    wait_idle(page)
    wait_charts(page, 1)


def test_next_walks_nine_steps_and_back_returns(page, server, wb):
    page.goto(server.url + "/tour")
    shows_step(page, wb, 1)
    for n in range(2, 10):
        with rerun(page):
            page.locator(MAIN).get_by_role("button", name="Next").click()
        shows_step(page, wb, n)
    expect(page.locator(MAIN).get_by_role("button", name="Next")).to_be_disabled()
    for n in range(8, 0, -1):
        with rerun(page):
            page.locator(MAIN).get_by_role("button", name="Back").click()
        expect(heading(page, n)).to_be_visible()
    shows_step(page, wb, 1)


def test_a_link_opens_step_5_and_a_reload_stays_there(page, server, wb):
    page.goto(server.url + "/tour?step=5")
    shows_step(page, wb, 5)
    page.reload()
    shows_step(page, wb, 5)
    with rerun(page):
        page.locator(MAIN).get_by_role("button", name="Next").click()
    shows_step(page, wb, 6)
    page.reload()
    shows_step(page, wb, 6)


def test_the_overview_links_to_the_tour(page, server, wb):
    page.goto(server.url + "/")
    page.locator(MAIN).get_by_role("link", name=re.compile("Take the tour")).click()
    shows_step(page, wb, 1)


def test_a_phone_takes_the_tour_without_scrolling_sideways(new_page, server, wb):
    phone = new_page(390, 844)
    phone.goto(server.url + "/tour?step=4")
    shows_step(phone, wb, 4)
    expect(phone.locator(MAIN).get_by_role("button", name="Next")).to_be_in_viewport()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    box = phone.locator('[data-testid="stVegaLiteChart"]').first.bounding_box()
    assert box and box["width"] <= 390


def test_the_presenter_download_opens_offline_with_the_nine_steps(new_page, server, wb, tmp_path):
    page = new_page()
    page.goto(server.url + "/tour?step=9")
    shows_step(page, wb, 9)
    with page.expect_download(timeout=2 * WAIT_MS) as dl:
        page.locator(MAIN).get_by_role("button", name=re.compile("Download the whole tour")).click()
    path = tmp_path / "tour.html"
    dl.value.save_as(path)
    reader = new_page()
    requests = []
    reader.route("**/*", lambda route: (requests.append(route.request.url), route.continue_()))
    reader.goto(path.as_uri())
    expect(reader.locator("h2")).to_have_count(9)
    for n, title in enumerate(tour.TITLES, 1):
        expect(reader.locator("h2").nth(n - 1)).to_have_text(f"Step {n} of 9 · {title}")
    expect(reader.get_by_text(tour.step(wb, 4, ARTICLE).sentence, exact=True)).to_be_visible()
    assert reader.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
    assert [u for u in requests if not u.startswith(("file:", "data:"))] == []


NOTES = {"launch.txt": "Mission notes. The launch code for the rocket is 7741 and it changes every Monday. Only the "
                       "flight director may read the launch code aloud.",
         "menu.md": "# Canteen\n\nOn Fridays the canteen serves lentil soup with rye bread."}
DRAFT = '{"id": "old-launch", "text": "DRAFT: the launch code for the rocket is 1234.", "status": "draft"}'
GOLDEN = ("question,doc,anchor\n"
          "What is the launch code of the rocket?,launch.txt,The launch code for the rocket is 7741\n"
          "What soup on Fridays?,menu.md,serves lentil soup\n")


def test_an_upload_with_a_golden_set_takes_the_tour(new_page, server, tmp_path):
    from rag_core import Corpus, GoldenRow, Workbench
    from rag_core.data.ingest import read_files, read_golden_csv
    from browser import upload
    paths = []
    for name, text in {**NOTES, "extra.jsonl": DRAFT}.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths.append(tmp_path / name)
    (tmp_path / "golden.csv").write_text(GOLDEN, encoding="utf-8")
    docs = read_files([(p.name, p.read_bytes()) for p in paths]).documents
    rows, _ = read_golden_csv(GOLDEN.encode(), "golden.csv")
    mine = Workbench(Corpus(tuple(docs), name="My documents"), [GoldenRow(*r) for r in rows])

    page = new_page(1280, 2400)
    page.goto(server.url + "/your_data")
    expect(page.locator(MAIN)).to_contain_text("Active dataset: Bundled corpus")
    wait_idle(page)
    upload(page, "Documents", paths)
    upload(page, "Golden set", [tmp_path / "golden.csv"])
    expect(page.locator(MAIN)).to_contain_text("2 of 2 golden question(s) valid")
    page.get_by_role("button", name="Use these documents").click()
    expect(page.locator(MAIN)).to_contain_text("Active dataset: My documents", timeout=2 * WAIT_MS)
    wait_idle(page)
    page.get_by_role("link", name="The tour").first.click()
    shows_step(page, mine, 1)
    for n in range(2, 10):
        with rerun(page):
            page.locator(MAIN).get_by_role("button", name="Next").click()
        shows_step(page, mine, n)
    assert "draft chunk outranks" in tour.step(mine, 4, ARTICLE).sentence     # the rule found the uploaded draft


# ---------------------------------------------------------------- a presenter: the browser's Back, a clicker's keys

def test_the_browser_back_button_steps_back_through_the_tour(page, server, wb):
    page.goto(server.url + "/tour")
    shows_step(page, wb, 1)
    for n in (2, 3):
        with rerun(page):
            page.locator(MAIN).get_by_role("button", name="Next").click()
        shows_step(page, wb, n)
    for n in (2, 1):
        page.go_back()
        shows_step(page, wb, n)
    page.go_forward()
    shows_step(page, wb, 2)


def test_a_clickers_keys_move_a_step_and_keys_typed_in_a_box_do_not(page, server, wb):
    page.goto(server.url + "/tour")
    shows_step(page, wb, 1)
    expect(page.locator(MAIN).get_by_text(re.compile("A clicker works: → , PageDown or Space"))).to_be_visible()
    for key, n in (("PageDown", 2), ("Space", 3), ("ArrowRight", 4), ("ArrowLeft", 3), ("PageUp", 2)):
        with rerun(page):
            page.keyboard.press(key)
        shows_step(page, wb, n)
    size = page.locator('[data-testid="stSidebar"]').get_by_role("spinbutton", name=re.compile("^Size"))
    size.focus()
    for key in ("ArrowLeft", "PageUp"):                     # the caret's keys in the box: no step moves
        size.press(key)
    size.blur()
    with rerun(page):
        page.keyboard.press("PageDown")
    shows_step(page, wb, 3)                                  # had the box's keys moved back, this would be 2
