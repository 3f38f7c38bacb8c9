"""Streamlit's menu on a narrow window: choosing a page folds the sidebar away (it stayed over 300 of 390 px), while a
wide window keeps its sidebar beside the page. A desktop browser's user agent, as a narrow desktop window has."""
from __future__ import annotations

from playwright.sync_api import expect

from browser import MAIN, wait_idle, wait_loaded

RIGHT_EDGE = "() => document.querySelector('[data-testid=\"stSidebar\"]').getBoundingClientRect().right"


def open_menu(page, url):
    page.goto(url)
    wait_idle(page)
    wait_loaded(page)
    if page.evaluate(RIGHT_EDGE) <= 0:                      # folded: open it as a user would
        page.locator('[data-testid="stExpandSidebarButton"]').click()
        page.wait_for_function(f"({RIGHT_EDGE})() > 200")


def test_choosing_a_page_on_a_narrow_window_folds_the_sidebar(new_page, server):
    page = new_page(390, 844)
    open_menu(page, server.url + "/")
    page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name="Ask").click()
    expect(page.locator(MAIN).get_by_role("heading", name="Ask", exact=True)).to_be_visible()
    page.wait_for_function(f"({RIGHT_EDGE})() <= 0")       # folded away: the page has its 390 px


def test_a_wide_window_keeps_its_sidebar_after_a_choice(new_page, server):
    page = new_page(1440, 900)
    open_menu(page, server.url + "/")
    page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name="Ask").click()
    expect(page.locator(MAIN).get_by_role("heading", name="Ask", exact=True)).to_be_visible()
    wait_idle(page)
    assert page.evaluate(RIGHT_EDGE) > 200
