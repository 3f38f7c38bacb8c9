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
