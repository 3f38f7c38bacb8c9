"""Every page as the very first request of a fresh server: the frame is there (menu, sidebar settings, title).

The pages live in pages/, which puts a fresh Streamlit process in its old pages-folder mode until the first
st.navigation call: without ui.frame.ensure, a deep link would run the page script alone. Each page gets a
server process that nobody has visited; they start together, so the wait is paid once.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from browser import MAIN, WAIT_MS, StreamlitServer, wait_loaded
from ui import navigation

from playwright.sync_api import expect  # noqa: E402

HEADINGS = {"overview": "Open Book", "tour": "The tour", "corpus": "Corpus", "ask": "Ask", "ablations": "Ablations", "compare": "Compare setups",
            "your_data": "Your data", "studio": "Golden set studio", "model": "A real model", "judge": "Judge", "glossary": "Glossary"}
STEMS = [Path(p.script).stem for p in navigation.PAGES]


@pytest.fixture(scope="module")
def fresh_servers(server):
    """One unvisited server per page, launched together (server: the shared one, so Chromium is checked first)."""
    started = {stem: StreamlitServer().launch() for stem in STEMS}
    try:
        yield started
    finally:
        for srv in started.values():
            srv.stop()


def test_every_page_has_a_heading_to_look_for():
    assert set(HEADINGS) == set(STEMS)


@pytest.mark.parametrize("stem", STEMS)
def test_a_page_as_the_first_request_of_a_fresh_server_is_inside_the_frame(new_page, fresh_servers, stem):
    srv = fresh_servers[stem].wait_ready()
    page = new_page()
    path = "" if stem == STEMS[0] else stem                      # the entry page is served at /
    page.goto(f"{srv.url}/{path}?size=120")
    main = page.locator(MAIN)
    expect(main.locator("h1").first).to_contain_text(HEADINGS[stem], timeout=2 * WAIT_MS)
    wait_loaded(page)
    nav = page.locator('[data-testid="stSidebarNav"]')
    for spec in navigation.PAGES:                                   # the frame's menu, with every title
        expect(nav).to_contain_text(spec.title)
    size = page.locator('[data-testid="stSidebar"]').get_by_role("spinbutton", name="Size (words)")
    expect(size).to_have_value("120")                                # the sidebar read the link
    expect(page.get_by_text("Page not found")).to_have_count(0)
    assert page.url.split("?")[0] == f"{srv.url}/{path}"             # the URL path is the file's name
