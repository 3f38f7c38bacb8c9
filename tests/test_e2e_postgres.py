"""The dashboard on PostgreSQL + pgvector in Chromium, against the session's real server (tests/pg_server.py).

A user picks the engine in the sidebar and types the database URL in its password field; a golden question
then shows the same chunks as in process, the Compare page the same leaderboard sentence, and the sidebar
says what runs the searches, with the password masked. The server stopped: the sidebar says so, the pages
answer in process; started again: "Try again" brings the database back.
"""
from __future__ import annotations

import re

import pytest

from browser import MAIN, WAIT_MS, choose, rerun, screenshot, wait_charts
from rag_core.evaluation.compare import compare_setups
from rag_core.evaluation.setup import Setup
from rag_core import ARTICLE_CHUNKER
from e2e_helpers import CUTOFF, expect_chunks, expected_labels, no_exception, open_view, pick_golden

from playwright.sync_api import expect  # noqa: E402

PASSWORD = "Corr3ct-Horse"
USER = "browser"


@pytest.fixture(scope="module")
def url(pg):
    return pg.database_for(USER, PASSWORD, "openbook_browser")


def sidebar(page):
    return page.locator('[data-testid="stSidebar"]')


def url_field(page):
    return sidebar(page).get_by_role("textbox", name="Database URL")


def use_postgres(page, url: str) -> None:
    """Pick PostgreSQL in the sidebar's engine list and type the URL (the runs that follow each end)."""
    choose(page, "Search engine", "PostgreSQL (exact)", within=sidebar(page))
    type_url(page, url)


def type_url(page, url: str) -> None:
    with rerun(page):
        url_field(page).fill(url)
        url_field(page).press("Enter")


def page_text(page) -> str:
    return page.locator("body").inner_text()


def test_a_golden_question_and_the_compare_page_on_postgres(new_page, server, url, wb):
    page = new_page(1280, 2400)
    open_view(page, server.url + "/ask")
    use_postgres(page, url)
    said = sidebar(page).get_by_text(re.compile(r"^Searching on PostgreSQL at postgresql://browser:\*\*\*@"))
    expect(said).to_be_visible()
    expect(url_field(page)).to_have_attribute("type", "password")
    expect(url_field(page)).to_have_value("")              # kept on the server: the browser never gets it back
    pick_golden(page, CUTOFF)
    expect_chunks(page, expected_labels(wb, CUTOFF))                 # the in-process index's, found by PostgreSQL
    no_exception(page)
    assert PASSWORD not in page_text(page) and PASSWORD not in page.url and "engine=postgres" in page.url
    screenshot(page, "postgres-ask")

    sidebar(page).get_by_role("link", name="Compare").click()     # the same session: the URL is kept in it
    main = page.locator(MAIN)
    expect(main.get_by_role("heading", name="2 · Leaderboard")).to_be_visible(timeout=2 * WAIT_MS)
    wait_charts(page, 2)
    setups = [Setup("as in Ask", ARTICLE_CHUNKER, 20, 3, frozenset({"current"}), True),
              Setup("filter off", ARTICLE_CHUNKER, 20, 3, None, True)]
    expect(main.get_by_text(compare_setups(wb, setups).pair("as in Ask", "filter off", 1)["sentence"])).to_be_visible()
    expect(said).to_be_visible()
    no_exception(page)
    assert PASSWORD not in page_text(page)
    screenshot(page, "postgres-compare")

    sidebar(page).get_by_role("link", name="Your data").click()   # what the database holds for Open Book
    expect(main.get_by_role("heading", name="Indexes stored in PostgreSQL")).to_be_visible(timeout=2 * WAIT_MS)
    expect(main.get_by_text(re.compile(r"^\d+ stored index\(es\), [\d.,]+ MB on disk, \d+ for the active dataset"))
           ).to_be_visible()
    no_exception(page)
    screenshot(page, "postgres-your-data")


def test_approximate_search_shows_its_overlap_with_exact_search(new_page, server, url):
    page = new_page()
    open_view(page, server.url + "/?engine=postgres-hnsw")                 # a link may name the engine, never the URL
    type_url(page, url)
    expect(sidebar(page).get_by_text(re.compile(r"Overlap with exact search in the first 20 chunks, on the 18 golden questions: "
                                                r"[01]\.\d{3}"))).to_be_visible()
    screenshot(page, "postgres-hnsw-recall")


def test_a_server_down_is_said_and_the_pages_answer_in_process(new_page, server, url, wb, pg):
    page = new_page(1280, 1600)
    open_view(page, server.url + "/ask")
    pg.stop()
    try:
        use_postgres(page, url)
        expect(sidebar(page).get_by_text(re.compile("cannot be reached.*every page searches in process"))).to_be_visible()
        pick_golden(page, CUTOFF)
        expect_chunks(page, expected_labels(wb, CUTOFF))
        no_exception(page)
        screenshot(page, "postgres-down")
    finally:
        pg.start()
    with rerun(page):
        sidebar(page).get_by_role("button", name="Try again").click()
    expect(sidebar(page).get_by_text(re.compile(r"^Searching on PostgreSQL at"))).to_be_visible()
    expect_chunks(page, expected_labels(wb, CUTOFF))


def test_on_a_phone_the_page_itself_says_it_searches_in_process(new_page, server, wb):
    """A link naming PostgreSQL, opened where no database URL is set: the sidebar (folded away on a phone) says
    why, and the page itself says that it searches in process."""
    page = new_page(390, 844)
    open_view(page, server.url + "/ask?engine=postgres&ask_question=" + CUTOFF.replace(" ", "+"))
    expect(page.locator(MAIN).get_by_text("Searching in process: the database chosen in the sidebar cannot be used")
           ).to_be_visible()
    expect_chunks(page, expected_labels(wb, CUTOFF))
    screenshot(page, "postgres-down-phone")
