"""Helpers shared by the browser test files: open a view, wait for what it shows, read the Ask page's rows.
Every wait is an `expect(...)` on the page's state, never a sleep. Plain functions, no tests.

Left out on purpose: the server and the browser themselves (tests/browser.py, tests/conftest.py).
"""
from __future__ import annotations

import re

from playwright.sync_api import expect

from browser import MAIN, choose, rerun, wait_idle, wait_loaded
from rag_core import ChunkerConfig
from rag_core.evaluation.pipeline import ask

CUTOFF = "What is the default cutoff of get_close_matches?"
CHUNK_LABEL = re.compile(r"^\S+ · chunk \d+$")        # a span row's header: 'difflib · chunk 13'


def open_view(page, url: str) -> None:
    """Go to url and wait for the first script run to end and every widget to be loaded."""
    page.goto(url)
    wait_idle(page)
    wait_loaded(page)
    no_exception(page)


def no_exception(page) -> None:
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    expect(page.get_by_text("Page not found")).to_have_count(0)


def main(page):
    return page.locator(MAIN)


def expected_labels(wb, question, k=3, rerank=True, allowed=("current",), chunker=ChunkerConfig("fixed", 160, 32)):
    ix = wb.index(chunker)
    a = ask(ix, question, 20, k, rerank, set(allowed))
    return [f"{ix.doc_id(int(c))} · chunk {ix.chunk_number(int(c))}" for c in a.retrieved.ids]   # numbered in its document


def expect_chunks(page, labels: list[str]) -> None:
    """The span header rows show exactly these chunks, in this order."""
    expect(main(page).get_by_role("heading", name=f"The {len(labels)} chunk(s) handed to the model")).to_be_visible()
    rows = main(page).locator('[data-testid="stMarkdownContainer"] p').filter(has_text=CHUNK_LABEL)
    expect(rows).to_have_text(labels)


def status_badges(page):
    """The status badges of the span rows (the verdict badge says answered/wrong source/refused/abstained)."""
    return main(page).locator(".ob-status").filter(has_text=re.compile(r"^(current|draft|outdated)$"))


def span_header(page, text: str):
    """A cell of the span rows' headers that says exactly `text` ('rerank off'; a grid's column may say it too)."""
    return main(page).locator('[data-testid="stMarkdownContainer"] p').filter(has_text=re.compile(rf"^{re.escape(text)}$"))


def question_box(page):
    return main(page).get_by_label("Your question")


def ask_question(page, text: str) -> None:
    """Type a question and press Enter; callers then wait for what the answer shows (`expect`)."""
    box = question_box(page)
    with rerun(page):                  # the value commits on Enter (or on blur): track from before the fill
        box.fill(text)
        box.press("Enter")


def pick_golden(page, question: str) -> None:
    """Choose a golden question on the Ask page: it fills the question box."""
    choose(page, "Golden questions", question, within=main(page))
    expect(question_box(page)).to_have_value(question)


def spans_box(page):
    return main(page).get_by_role("spinbutton", name="Spans handed over (k)")


def pill(page, group_label: str, name: str):
    group = main(page).get_by_role("toolbar", name=group_label)
    return group.get_by_role("button", name=name, exact=True)


def prompt_box(page):
    """The Ask page's prompt, its folded expander opened first."""
    expander = main(page).locator('[data-testid="stExpander"]').filter(has_text="The prompt handed to the model")
    header = expander.locator("summary")
    expect(header).to_be_visible()
    prompt = expander.locator('[data-testid="stCode"]')
    if not prompt.is_visible():
        header.click()
    return prompt
