"""Green means right, in the browser: on the cutoff question the scripted answer ("...cutoff=0.6): ...") states the
golden answer key 0.6 and is green; the Ask page's placeholder answer typed in is green, another value is red
('wrong answer', with what it says), and an answer that neither states nor contradicts the key is grey ('not
confirmed', with the key shown); every page's address names its dataset; /overview opens the Overview. Waits on
state, never on time."""
import re

from browser import rerun, wait_idle, wait_loaded
from playwright.sync_api import expect

CUTOFF = "What is the default cutoff of get_close_matches?"


def badge(page, text: str):
    return page.get_by_test_id("stMain").locator(".stMarkdownBadge").filter(has_text=re.compile(f"^{text}$"))


def type_answer(page, text: str) -> None:
    box = page.get_by_test_id("stMain").get_by_label("Your answer")
    with rerun(page):
        box.fill(text)
        box.press("Control+Enter")


def test_three_honest_states_on_the_ask_page(page, server):
    page.goto(server.url + "/ask?" + "ask_question=" + CUTOFF.replace(" ", "+"))
    wait_idle(page)
    wait_loaded(page)
    expect(badge(page, "answered").first).to_be_visible()              # the scripted "...cutoff=0.6): ... [S3]"
    expect(badge(page, "misses the answer")).to_have_count(0)
    expect(page.get_by_text(re.compile("states the golden answer '0.6'")).first).to_be_visible()
    type_answer(page, "The default cutoff is 0.6 [S1].")                  # the placeholder: green
    expect(badge(page, "answered")).to_have_count(2)
    type_answer(page, "The default cutoff is 3 [S1].")                    # S1 also holds n's default 3: red
    expect(badge(page, "wrong answer").first).to_be_visible()
    expect(page.get_by_text(re.compile("it says 3 where the golden answer says 0.6")).first).to_be_visible()
    type_answer(page, "The maximum number of close matches is returned [S1].")   # neither: grey, the key shown
    expect(badge(page, "not confirmed").first).to_be_visible()
    expect(page.get_by_text(re.compile("neither states the golden answer '0.6' nor contradicts it")).first) \
        .to_be_visible()


def test_every_page_names_its_dataset_and_overview_has_its_own_address(page, server):
    for path in ("ablations", "compare", "your_data", "overview"):    # a link the page corrects is written whole
        page.goto(f"{server.url}/{path}?size=-5")
        wait_idle(page)
        expect(page).to_have_url(re.compile(r"[?&]data=bundled(&|$)"))
    page.goto(f"{server.url}/ablations")          # a bare address already opens the defaults: left bare (no history entry)
    wait_idle(page)
    assert page.url.endswith("/ablations"), page.url
    page.goto(server.url + "/overview")
    wait_idle(page)
    expect(page.get_by_role("heading", name=re.compile("Open Book: watch a RAG system work"))).to_be_visible()
    expect(page.get_by_text("Page not found")).to_have_count(0)
