"""Real browser: searching the Corpus page moves its document viewer to the first matching document and says how
many match (the search only filtered the table: the viewer stayed on the first document, which may not match)."""
import re

import pytest

from browser import MAIN, page_path, rerun, wait_idle

from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.browser


def matching(wb, needle: str) -> list[str]:
    return [d.id for d in wb.corpus.documents if needle.lower() in (d.id + "\n" + d.text).lower()]


def viewer(page):
    return page.locator(MAIN).locator('[data-testid="stSelectbox"]').filter(has_text="Document").locator("input")


@pytest.mark.parametrize("needle", ["cutoff", "heappush"])
def test_a_search_shows_its_first_match_in_the_viewer(server, page, wb, needle):
    found = matching(wb, needle)
    assert found and found[0] != wb.corpus.documents[0].id      # the viewer's first document would not do
    page.goto(server.url + page_path("Corpus"))
    main = page.locator(MAIN)
    expect(main.get_by_role("heading", name="Document viewer")).to_be_visible()
    wait_idle(page)
    box = main.get_by_role("textbox", name="Search the text")
    with rerun(page):
        box.fill(needle)
        box.press("Enter")
    expect(main).to_contain_text(f"{len(found)} of {len(wb.corpus.documents)} documents match '{needle}'")
    expect(viewer(page)).to_have_value(found[0])
    expect(page).to_have_url(re.compile(rf"corpus_doc={re.escape(found[0])}"))     # the link names it too
    expect(main).not_to_contain_text("default value")      # no warning of a widget set from code
