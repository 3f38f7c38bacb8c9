"""Real browser: a walk over every page of ui.navigation.PAGES, checking that the sidebar's settings hold.

On each page: the retriever set to BM25 and the size to 120 in the sidebar, then another page through the menu and
back, a reload, and the page's link opened in a fresh browser context (another browser, no session): the sidebar
shows BM25 and 120 each time and the address names them. Then the menu clicked at once after each page's first load,
twenty times over the pages, never resets the size to 1 (a widget drawn before it had the session's value sent its
own default back).

Every wait is on the page's state (its address, Streamlit's run flag), never on time.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from browser import WAIT_MS, choose, page_path, rerun, wait_idle
from e2e_helpers import no_exception
from ui.navigation import PAGES
from ui.widgets import RETRIEVER_NAMES

from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.browser
BM25 = RETRIEVER_NAMES["bm25"]


def at(page, server, title: str) -> None:
    """Wait until the page titled `title` is shown whole: its address, then the end of its run, and no error."""
    path = page_path(title)
    expect(page).to_have_url(re.compile(rf"^{re.escape(server.url + path.rstrip('/'))}/?(\?|$)"), timeout=WAIT_MS)
    wait_idle(page)
    no_exception(page)


def sidebar(page):
    return page.get_by_test_id("stSidebar")


def size_box(page):
    return sidebar(page).get_by_label(re.compile(r"^Size"))


def retriever_box(page):
    return sidebar(page).get_by_test_id("stSelectbox").filter(has_text="Retriever").locator("input")


def holds(page, where: str) -> None:
    """The sidebar shows BM25 and 120, and the address names both."""
    expect(size_box(page), where).to_have_value("120")
    expect(retriever_box(page), where).to_have_value(re.compile(re.escape(BM25)))
    assert "retriever=bm25" in page.url and "size=120" in page.url, (where, page.url)


def menu(page, title: str) -> None:
    sidebar(page).get_by_test_id("stSidebarNav").get_by_role("link", name=title, exact=True).click()


def choose_bm25_and_120(page) -> None:
    choose(page, "Retriever", BM25, within=sidebar(page))
    with rerun(page):
        size_box(page).fill("120")
        size_box(page).press("Enter")
    expect(page).to_have_url(re.compile(r"size=120"), timeout=WAIT_MS)
    wait_idle(page)


@pytest.mark.parametrize("spec", PAGES, ids=[Path(p.script).stem for p in PAGES])
def test_the_sidebar_s_settings_hold_on_every_page(server, context, new_page, spec):
    other = PAGES[(PAGES.index(spec) + 1) % len(PAGES)]
    page = new_page(1440, 900)
    page.goto(server.url + page_path(spec.title))
    at(page, server, spec.title)
    choose_bm25_and_120(page)
    holds(page, f"{spec.title}: chosen")

    menu(page, other.title)
    at(page, server, other.title)
    holds(page, f"{other.title}, reached from {spec.title}")
    menu(page, spec.title)
    at(page, server, spec.title)
    holds(page, f"{spec.title}: back through the menu")

    page.reload()
    at(page, server, spec.title)
    holds(page, f"{spec.title}: reloaded")

    link = page.url
    fresh = context.browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        elsewhere = fresh.new_page()
        elsewhere.set_default_timeout(WAIT_MS)
        elsewhere.goto(link)
        at(elsewhere, server, spec.title)
        holds(elsewhere, f"{spec.title}: its link in a fresh browser context")
    finally:
        fresh.close()


def test_the_menu_clicked_at_once_never_resets_the_size_twenty_times(server, new_page):
    for walk in range(20):
        spec, other = PAGES[walk % len(PAGES)], PAGES[(walk + 3) % len(PAGES)]
        page = new_page(1440, 900)
        page.goto(server.url + page_path(spec.title) + "?retriever=bm25&size=120&overlap=24")
        link = sidebar(page).get_by_test_id("stSidebarNav").get_by_role("link", name=other.title, exact=True)
        link.wait_for(timeout=WAIT_MS)
        link.click()                                         # at once: the first run may still be going on
        at(page, server, other.title)
        where = f"walk {walk}: {spec.title} -> {other.title}"
        expect(size_box(page), where).not_to_have_value("1")
        holds(page, where)
        page.close()
