"""A mark on Compare's grid in a real browser: a setup and a question picked under the grid, its answer marked
wrong, the page reloaded, the mark read back, and the Judge page counting it (a server and data folder of its own,
so that no other test's marks are counted)."""
from __future__ import annotations

import re

import pytest

from browser import SLOW_MS, WAIT_MS, StreamlitServer, choose, page_path, rerun, wait_idle
from e2e_helpers import main, no_exception, open_view

from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.browser
QUESTION = "What is the default cutoff of get_close_matches?"


def wrong_button(page):
    return page.locator('.st-key-mark_compare_1_wrong[data-stale="false"] button').first


def test_a_grid_cell_marked_on_compare_survives_a_reload_and_is_counted_on_the_judge_page(page, tmp_path,
                                                                                          monkeypatch):
    monkeypatch.setenv("OPENBOOK_DATA_DIR", str(tmp_path))
    with StreamlitServer() as srv:
        open_view(page, srv.url + page_path("Compare"))
        expect(main(page).get_by_text("Every question, every setup")).to_be_visible(timeout=SLOW_MS)
        choose(page, "Mark an answer of a setup right or wrong", "filter off", within=main(page))
        choose(page, "Mark an answer right or wrong", QUESTION, within=main(page), typed=True)
        expect(main(page).get_by_text("Not marked yet")).to_be_visible(timeout=WAIT_MS)
        wait_idle(page)
        with rerun(page):
            wrong_button(page).click()
        expect(wrong_button(page)).to_have_attribute("kind", re.compile("primary"), timeout=WAIT_MS)
        no_exception(page)

        page.reload()                                       # the picks are the session's: choose them again
        wait_idle(page)
        choose(page, "Mark an answer of a setup right or wrong", "filter off", within=main(page))
        choose(page, "Mark an answer right or wrong", QUESTION, within=main(page), typed=True)
        expect(main(page).get_by_text("Your mark: wrong")).to_be_visible(timeout=WAIT_MS)   # read from the store
        page.get_by_test_id("stSidebarNav").get_by_role("link", name="Judge", exact=True).click()
        expect(page.get_by_role("heading", name=re.compile(r"The rule against people: 1 marked answer$"))) \
            .to_be_visible(timeout=WAIT_MS)
        no_exception(page)
