"""The dashboard in a real browser: Debian's chromium driven by Playwright's sync API.

One streamlit server and one browser for the whole session, a new page (a new Streamlit session) per
test. Every wait is an `expect(...)` on what the page shows: Streamlit reruns asynchronously, so reading
the page right after a keypress would race the rerun, and "idle" right after a click proves nothing on a
busy machine (the rerun may not have started). Each action is followed by the state that proves it ran.

Expected rankings are computed here from rag_core, never typed, so the tests follow the data.
Screenshots of every page go to artifacts/screenshots/ (git-ignored).
"""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from browser import WAIT_MS, click_label, rerun, screenshot, wait_charts, wait_idle, wait_loaded
from rag_core.evaluation import tables
from rag_core.evaluation.pipeline import ask

from playwright.sync_api import expect  # requirements-dev.txt pins it; `make test` installs it
from e2e_helpers import (ask_question, expect_chunks, expected_labels, main, no_exception, open_view, pick_golden,  # noqa: F401
                         pill, prompt_box, question_box, span_header, spans_box, status_badges)

CUTOFF = "What is the default cutoff of get_close_matches?"
PAGES = {  # title in the sidebar menu -> (url path, the page's h1)
    "Overview": ("overview", "Open Book: watch a RAG system work"),
    "The tour": ("tour", "The tour"),
    "Corpus": ("corpus", "Corpus"),
    "Ask": ("ask", "Ask"),
    "Ablations": ("ablations", "Ablations"),
    "Compare": ("compare", "Compare setups"),
    "Your data": ("your_data", "Your data"),
    "Model": ("model", "A real model"),
    "Glossary": ("glossary", "Glossary"),
}
N_CHARTS = 9          # one chart per section of the Ablations page, and trap 3 at its end
TIMEOUT = WAIT_MS     # ms; generous for a 2-core machine kept busy by other work, a pass takes a fraction of it
CHUNK_LABEL = re.compile(r"^\S+ · chunk \d+$")        # a span row's header: 'difflib · chunk 13'
VERDICT = re.compile(r"^(answered|wrong answer|not confirmed|grounded|wrong source|refused|abstained)$")   # the outcome badge
VERDICT_SENTENCE = re.compile(r"^(Every claim is in S\d|Grounded in S\d|The answer is grounded, but|The checker refused this answer"
                              r"|The answer says the spans do not contain it)")   # rag_core.evaluation.judgement, beside it
expect.set_options(timeout=TIMEOUT)


# ---------------------------------------------------------------- Ask

def test_golden_question_shows_ranked_chunks_with_status_badges(new_page, server, wb):
    page = new_page(1280, 3000)
    open_view(page, server.url + "/ask")
    expect(main(page).get_by_text("Type a question above, or pick a golden question")).to_be_visible()
    pick_golden(page, CUTOFF)
    expect_chunks(page, expected_labels(wb, CUTOFF))
    expect(status_badges(page)).to_have_text(["current"] * 3)      # filter on: only current documents
    expect(main(page).locator('[data-testid="stAlertContentSuccess"]')).to_contain_text("The anchor of this golden question is in span S")
    no_exception(page)
    full_height_screenshot(page, "ask-golden-question")


def test_turning_the_filter_off_lets_a_draft_or_outdated_chunk_into_the_top_3(page, server, wb):
    open_view(page, server.url + "/ask")
    ask_question(page, CUTOFF)
    expect(status_badges(page)).to_have_text(["current"] * 3)
    for status in ("draft", "outdated"):
        with rerun(page):
            pill(page, "Allowed statuses", status).click()
        expect(pill(page, "Allowed statuses", status)).to_have_attribute("aria-pressed", "true")
    expected = expected_labels(wb, CUTOFF, allowed=("current", "draft", "outdated"))
    expect_chunks(page, expected)
    expect(status_badges(page).filter(has_text=re.compile("^(draft|outdated)$")).first).to_be_visible()
    no_exception(page)


def test_the_rerank_toggle_reorders_the_spans(page, server, wb):
    # a golden question whose top 3 differs with and without reranking (computed, not typed)
    q = next(r.question for r in wb.golden_check.valid
             if expected_labels(wb, r.question, rerank=True) != expected_labels(wb, r.question, rerank=False))
    open_view(page, server.url + "/ask")
    ask_question(page, q)
    expect_chunks(page, expected_labels(wb, q, rerank=True))
    with rerun(page):
        click_label(page, "Rerank")
    expect_chunks(page, expected_labels(wb, q, rerank=False))
    expect(span_header(page, "rerank off").first).to_be_visible()


def test_prompt_cites_S1_and_the_verdict_is_shown(page, server):
    open_view(page, server.url + "/ask")
    ask_question(page, CUTOFF)
    prompt = prompt_box(page)
    expect(prompt).to_contain_text("[S1]")
    expect(prompt).to_contain_text(f"QUESTION: {CUTOFF}")
    verdict = main(page).locator(".stMarkdownBadge").filter(has_text=VERDICT)
    expect(verdict.first).to_be_visible()
    expect(main(page).locator("p").filter(has_text=VERDICT_SENTENCE).first).to_be_visible()


def test_an_invented_number_in_my_answer_is_refused_naming_it(page, server):
    open_view(page, server.url + "/ask")
    ask_question(page, CUTOFF)
    answer = main(page).get_by_label("Your answer")
    with rerun(page):
        answer.fill("The default cutoff is 0.9 [S1].")
        answer.press("Control+Enter")
    mine = main(page).get_by_text(re.compile(r"The number '0\.9' does not appear in S1"))
    expect(mine.first).to_be_visible()
    expect(main(page).locator(".stMarkdownBadge").filter(has_text=re.compile("^refused$")).first).to_be_visible()
    no_exception(page)


def test_a_question_with_html_is_shown_as_text_never_run(page, server):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    evil = "<img src=x onerror=alert(1)> cutoff"
    open_view(page, server.url + "/ask")
    ask_question(page, evil)
    expect(main(page).get_by_role("heading", name=re.compile(r"chunk\(s\) handed to the model"))).to_be_visible()
    expect(question_box(page)).to_have_value(evil)
    # the literal characters are on screen (in the prompt), and no <img src="x"> element exists
    expect(prompt_box(page)).to_contain_text(f"QUESTION: {evil}")
    expect(page.locator('img[src="x"]')).to_have_count(0)
    no_exception(page)
    assert dialogs == [], f"a dialog fired: {dialogs}"


# ---------------------------------------------------------------- links and navigation

def test_a_copied_link_opens_the_same_view(new_page, server, wb):
    first = new_page()
    open_view(first, server.url + "/ask")
    ask_question(first, CUTOFF)
    expect_chunks(first, expected_labels(wb, CUTOFF))
    spans = spans_box(first)
    with rerun(first):
        spans.fill("2")
        spans.press("Enter")
    expect_chunks(first, expected_labels(wb, CUTOFF, k=2))
    with rerun(first):
        click_label(first, "Rerank")
    expect(span_header(first, "rerank off").first).to_be_visible()
    with rerun(first):
        pill(first, "Allowed statuses", "draft").click()
    want = expected_labels(wb, CUTOFF, k=2, rerank=False, allowed=("current", "draft"))
    expect_chunks(first, want)
    # the address bar holds every setting changed above (each run writes it: wait for the last one)
    expect(first).to_have_url(re.compile(r"^(?=.*[?&]ask_k=2(&|$))(?=.*[?&]ask_rerank=0(&|$))"
                                         r"(?=.*[?&]ask_statuses=current(%2C|,)draft(&|$))"))
    link = first.url
    params = parse_qs(urlparse(link).query)
    assert params["ask_question"] == [CUTOFF] and params["ask_rerank"] == ["0"]

    second = new_page()                               # a new session: nothing shared but the link
    open_view(second, link)
    expect(question_box(second)).to_have_value(CUTOFF)
    expect(spans_box(second)).to_have_value("2")
    expect(main(second).get_by_role("switch", name="Rerank")).not_to_be_checked()
    expect(pill(second, "Allowed statuses", "draft")).to_have_attribute("aria-pressed", "true")
    expect(pill(second, "Allowed statuses", "outdated")).to_have_attribute("aria-pressed", "false")
    expect_chunks(second, want)


def test_a_malformed_link_value_falls_back_with_a_warning(page, server):
    open_view(page, server.url + "/ask?ask_question=cutoff&ask_k=abc")
    expect(main(page).locator('[data-testid="stAlertContentWarning"]')).to_contain_text("'abc' for 'ask_k' is not valid")
    expect(spans_box(page)).to_have_value("3")
    expect(main(page).get_by_role("heading", name="The 3 chunk(s) handed to the model")).to_be_visible()


def test_a_copied_link_works_on_a_fresh_server(new_page, fresh_server):
    """A deep link as the very first request of a server gets the whole app: menu, sidebar settings, page.
    (It did not while the page scripts lived in a folder named pages/: Streamlit ran them without app.py.)"""
    page = new_page()
    try:
        page.goto(fresh_server.url + "/ask?ask_question=" + CUTOFF.replace(" ", "+").replace("?", "%3F"))
        expect(main(page).get_by_role("heading", name="The 3 chunk(s) handed to the model")).to_be_visible(timeout=2 * WAIT_MS)
        wait_idle(page)
        wait_loaded(page)
        no_exception(page)
        # the frame ran: the sidebar menu has the pages' titles and the chunker settings are there
        expect(page.locator('[data-testid="stSidebarNav"]')).to_contain_text("Overview")
        expect(page.locator('[data-testid="stSidebar"]').get_by_role("spinbutton", name="Size (words)")).to_be_visible()
    finally:
        page.close()                                  # before its server goes away


def test_the_entry_url_opens_the_overview_without_a_page_not_found(page, server):
    page.goto(server.url + "/")
    wait_idle(page)
    expect(main(page).locator("h1").first).to_contain_text(PAGES["Overview"][1])
    expect(page.get_by_text("Page not found")).to_have_count(0, timeout=500)


def full_height_screenshot(page, name: str):
    """Streamlit scrolls inside its own container: make the viewport as tall as the content, then shoot."""
    wait_loaded(page)
    height = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
    if height > page.viewport_size["height"]:
        page.set_viewport_size({"width": page.viewport_size["width"], "height": height + 40})
        wait_idle(page)
    shot = screenshot(page, name)
    assert shot.stat().st_size > 10_000
    return shot


def test_the_sidebar_menu_reaches_every_page(new_page, server):
    """Click through the menu; each page shows its title, no exception, and leaves a full-height screenshot."""
    page = new_page(1280, 3000)
    open_view(page, server.url + "/")
    nav = page.locator('[data-testid="stSidebarNav"]')
    for name, (path, title) in [*list(PAGES.items())[1:], next(iter(PAGES.items()))]:
        nav.get_by_role("link", name=re.compile(rf"{name}$")).click()   # the URL and the title below are the wait
        # the default page (Overview) lives at "/"
        expect(page).to_have_url(re.compile(rf"/({path})?(\?|$)" if path == "overview" else rf"/{path}(\?|$)"))
        expect(main(page).locator("h1").first).to_contain_text(title)
        wait_idle(page)
        no_exception(page)
        if path != "ablations":                  # the `ablations` fixture shoots that one, charts drawn
            full_height_screenshot(page, path)
            page.set_viewport_size({"width": 1280, "height": 3000})


# ---------------------------------------------------------------- Ablations

def chart_surfaces(page):
    # the stVegaLiteChart element is itself the vega-embed container; vega draws an <svg class="marks"> or a canvas
    return main(page).locator('[data-testid="stVegaLiteChart"] > svg.marks, [data-testid="stVegaLiteChart"] > canvas')


@pytest.fixture(scope="module")
def ablations(context, server):
    """The Ablations page, opened once with every chart drawn; its tests only read it."""
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_view(page, server.url + "/ablations")
    wait_charts(page, N_CHARTS)
    full_height_screenshot(page, "ablations")
    yield page
    page.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


def test_ablations_draws_every_chart(ablations, wb):
    charts = main(ablations).locator('[data-testid="stVegaLiteChart"]')
    expect(charts).to_have_count(N_CHARTS)
    expect(chart_surfaces(ablations)).to_have_count(N_CHARTS)
    # drawn means marks on the surface, not an empty frame: every chart has mark items
    for i in range(N_CHARTS):
        expect(charts.nth(i).locator("g.role-mark > *").first).to_be_attached()
    # the ceiling chart draws one point per row of the ceiling table
    expect(charts.first.locator("g.mark-symbol.role-mark > path")).to_have_count(len(tables.ceiling(wb)))
    no_exception(ablations)


def test_every_chart_fits_its_column(ablations):
    too_wide = ablations.evaluate("""() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')].map((c, i) => {
        const col = c.closest('[data-testid="stColumn"]') || c.parentElement;
        const svg = c.querySelector('svg.marks, canvas');
        return [i, Math.round(svg.getBoundingClientRect().width), Math.round(col.getBoundingClientRect().width)];
    }).filter(([i, w, col]) => w > col + 1)""")
    assert too_wide == [], f"charts wider than their column [index, chart px, column px]: {too_wide}"


# ---------------------------------------------------------------- layout



@pytest.mark.parametrize("name", list(PAGES))
def test_every_page_fits_a_phone_screen(new_page, server, name):
    page = new_page(390, 844)
    path, title = PAGES[name]
    url = server.url + ("/" if path == "overview" else f"/{path}") + ("?ask_question=cutoff" if path == "ask" else "")
    open_view(page, url)
    expect(main(page).locator("h1").first).to_contain_text(title)
    if path == "ablations":
        wait_charts(page, N_CHARTS)
    widths = page.evaluate("""() => {
        const m = document.querySelector('[data-testid="stMain"]');
        return {doc: document.documentElement.scrollWidth, win: window.innerWidth,
                main: m.scrollWidth, mainClient: m.clientWidth};
    }""")
    no_exception(page)
    full_height_screenshot(page, f"phone-{path}")          # before the verdict, so a failure leaves its picture
    assert widths["doc"] <= widths["win"] + 1, widths
    assert widths["main"] <= widths["mainClient"] + 1, f"the main content scrolls sideways: {widths}"
