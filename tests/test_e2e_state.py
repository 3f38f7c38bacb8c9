"""Settings that hold: a menu click during a session's first runs never resets a setting to its widget's default.

A browser that draws a widget before it has received the session's value for it takes the widget's own default
and sends it back at the next click, as if chosen: clicking the menu as soon as it appeared made the sidebar's
size 1 and its overlap 0 (4 walks of 6 on a busy machine), and the next page then cut one-word chunks. Every
settings widget now gets the session's value as its default too (ui.settings.now). The walk below clicks at once,
twenty times, each a new session opened from a link with settings that are not the defaults.
"""
from __future__ import annotations

import re

from browser import WAIT_MS, wait_idle
from ui.widgets import RETRIEVER_NAMES

from playwright.sync_api import expect  # noqa: E402

LINK = "/?retriever=bm25&size=120&overlap=24"


def sidebar_values(page) -> tuple[str, str, str]:
    side = page.get_by_test_id("stSidebar")
    return (side.get_by_label(re.compile(r"^Size")).input_value(),
            side.get_by_label(re.compile(r"^Overlap")).input_value(),
            side.get_by_test_id("stSelectbox").filter(has_text="Retriever").locator("input").input_value())


def test_the_menu_clicked_at_once_keeps_every_setting_twenty_times(server, new_page):
    for walk in range(20):
        page = new_page(1440, 900)
        page.goto(server.url + LINK)
        menu = page.get_by_test_id("stSidebarNav").get_by_role("link").first
        menu.wait_for(timeout=WAIT_MS)
        menu.click()                                             # the entry page again, at once
        page.get_by_test_id("stSidebarNav").get_by_role("link", name="Ask").click()
        expect(page.get_by_role("heading", name="Ask", exact=True)).to_be_visible(timeout=WAIT_MS)
        wait_idle(page)
        size, overlap, retriever = sidebar_values(page)
        assert (size, overlap) == ("120", "24"), f"walk {walk}: size {size}, overlap {overlap}"
        assert RETRIEVER_NAMES["bm25"] in retriever, f"walk {walk}: {retriever}"
        assert "size=1&" not in page.url and "size=120" in page.url, page.url
        page.close()


SIX = ("Overview", "Ablations", "Compare", "Your data", "Model", "Glossary")


def test_every_page_keeps_the_sidebar_in_its_link_through_a_reload(server, new_page):
    """Settings chosen on one page, then each page reached by the menu and reloaded: the sidebar comes back as
    chosen (these six pages used to carry only ?data=, so a reload silently brought back Hashing and 160)."""
    page = new_page(1440, 900)
    page.goto(server.url + "/ask?retriever=bm25&size=120&overlap=24")
    expect(page.get_by_role("heading", name="Ask", exact=True)).to_be_visible(timeout=WAIT_MS)
    for title in SIX:
        wait_idle(page)
        page.get_by_test_id("stSidebarNav").get_by_role("link", name=title, exact=True).click()
        expect(page).to_have_url(re.compile(r"retriever=bm25"), timeout=WAIT_MS)
        wait_idle(page)
        page.reload()
        page.get_by_test_id("stSidebar").get_by_label(re.compile(r"^Size")).wait_for(timeout=WAIT_MS)
        wait_idle(page)
        assert sidebar_values(page)[:2] == ("120", "24"), title
        assert RETRIEVER_NAMES["bm25"] in sidebar_values(page)[2], title
        assert "size=120" in page.url and "overlap=24" in page.url, (title, page.url)


def test_a_bad_value_in_a_link_leaves_the_address_bar(server, new_page):
    page = new_page(1440, 900)
    page.goto(server.url + "/compare?size=-5")
    expect(page.get_by_text("The link's value '-5' for 'size' is not valid")).to_be_visible(timeout=WAIT_MS)
    expect(page).to_have_url(re.compile(r"size=160"), timeout=WAIT_MS)
    assert "size=-5" not in page.url


def back(page) -> str:
    """Browser Back; the URL once the page it lands on is idle (or the page before the app)."""
    page.go_back()
    if page.url.startswith("data:"):
        return page.url
    wait_idle(page)
    return page.url


def ask_then_glossary(page, url: str) -> int:
    """Open Ask at url, then Glossary through the menu, each page idle; returns the history entries the click added."""
    page.goto(url)
    expect(page.get_by_role("heading", name="Ask", exact=True)).to_be_visible(timeout=WAIT_MS)
    wait_idle(page)
    page.wait_for_function("window.__oneEntryPerAction === true", timeout=WAIT_MS)    # ui.history's script is in
    before = page.evaluate("history.length")
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Glossary", exact=True).click()
    expect(page.get_by_role("heading", name="Glossary", exact=True)).to_be_visible(timeout=WAIT_MS)
    expect(page).to_have_url(re.compile(r"/glossary(\?|$)"), timeout=WAIT_MS)   # its history entry is written
    wait_idle(page)
    return page.evaluate("history.length") - before


def test_back_after_a_page_switch_shows_the_page_before(server, new_page):
    """One history entry per view: Back from Glossary shows Ask, and the next Back leaves the app (the frame and the
    page each wrote the URL, and a bare address was rewritten on load: each write was an entry of its own)."""
    page = new_page(1440, 900)
    page.goto("data:text/html,<p>before</p>")
    assert ask_then_glossary(page, server.url + "/ask") == 1
    assert "/ask" in back(page)
    expect(page.get_by_role("heading", name="Ask", exact=True)).to_be_visible(timeout=WAIT_MS)
    assert back(page).startswith("data:"), page.url         # the page before the app: no entry of the same view


def test_back_after_settings_were_chosen_shows_the_page_before(server, new_page):
    page = new_page(1440, 900)
    assert ask_then_glossary(page, server.url + "/ask?size=120&overlap=24") == 1     # it used to add two
    back(page)
    expect(page.get_by_role("heading", name="Ask", exact=True)).to_be_visible(timeout=WAIT_MS)
    assert "size=120" in page.url
