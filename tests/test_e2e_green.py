"""Green means right, in the browser: the cutoff question's scripted answer is grounded on difflib but does not
state its anchor (blue 'misses the answer', never green); the anchor cited is the one green answer; every page's
address names its dataset; /overview opens the Overview. Waits on state, never on time."""
import re

from browser import rerun, wait_idle, wait_loaded
from playwright.sync_api import expect

CUTOFF = "What is the default cutoff of get_close_matches?"


def badge(page, text: str):
    return page.get_by_test_id("stMain").locator(".stMarkdownBadge").filter(has_text=re.compile(f"^{text}$"))


def test_grounded_but_missing_the_anchor_is_not_green_and_the_anchor_cited_is(page, server):
    page.goto(server.url + "/ask?" + "ask_question=" + CUTOFF.replace(" ", "+"))
    wait_idle(page)
    wait_loaded(page)
    expect(badge(page, "misses the answer").first).to_be_visible()
    expect(badge(page, "answered")).to_have_count(0)
    expect(page.get_by_text(re.compile("does not state the golden anchor")).first).to_be_visible()
    with rerun(page):
        page.get_by_test_id("stMain").get_by_text("the anchor, cited", exact=True).click()
    expect(badge(page, "answered").first).to_be_visible()
    expect(page.get_by_text(re.compile("states the golden anchor")).first).to_be_visible()


def test_every_page_names_its_dataset_and_overview_has_its_own_address(page, server):
    for path in ("ablations", "compare", "your_data", "overview"):
        page.goto(f"{server.url}/{path}")
        wait_idle(page)
        expect(page).to_have_url(re.compile(r"[?&]data=bundled(&|$)"))
    page.goto(server.url + "/overview")
    wait_idle(page)
    expect(page.get_by_role("heading", name=re.compile("Open Book: watch a RAG system work"))).to_be_visible()
    expect(page.get_by_text("Page not found")).to_have_count(0)
