"""Marks in a real browser: three answers marked on Ask (the scripted one, two of my own), the page reloaded, the
marks still shown, and the Judge page counting the three, with a CSV of them."""
from __future__ import annotations

import csv
import io
import re

import pytest

from browser import WAIT_MS, rerun, wait_idle
from e2e_helpers import ask_question, main, no_exception, open_view

from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.browser
CUTOFF = "What is the default cutoff of get_close_matches?"


def button(page, place: str, label: str):
    """The Right/Wrong/Clear button of the answer at `place` (scripted, yours) of the last run (not a stale one);
    Streamlit draws a second copy of a button to measure its width: the first is the one a user sees."""
    return page.locator(f'.st-key-mark_{place}_{label}[data-stale="false"] button').first


def mark(page, place: str, label: str) -> None:
    """Click Right/Wrong of the answer at `place` and wait until the mark read back from the store says so."""
    wait_idle(page)
    with rerun(page):
        button(page, place, label).click()
    expect(button(page, place, label)).to_have_attribute("kind", re.compile("primary"), timeout=WAIT_MS)


def my_answer(page, text: str) -> None:
    box = main(page).get_by_label("Your answer")
    wait_idle(page)
    with rerun(page):
        box.fill(text)
        box.press("Control+Enter")
    expect(button(page, "yours", "right")).to_have_attribute("kind", re.compile("secondary"), timeout=WAIT_MS)


def test_three_marks_on_ask_survive_a_reload_and_are_counted_on_the_judge_page(page, server):
    open_view(page, server.url + "/ask")
    ask_question(page, CUTOFF)
    expect(main(page).get_by_text("Not marked yet").first).to_be_visible(timeout=WAIT_MS)
    mark(page, "scripted", "wrong")
    my_answer(page, "Optional arg cutoff (default 0.6) is a float in [0, 1] [S1].")
    mark(page, "yours", "right")
    my_answer(page, "The default cutoff is 0.9 [S1].")
    mark(page, "yours", "wrong")
    no_exception(page)

    page.reload()
    wait_idle(page)
    expect(button(page, "scripted", "wrong")).to_have_attribute("kind", re.compile("primary"), timeout=WAIT_MS)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Judge", exact=True).click()
    expect(page.get_by_role("heading", name=re.compile(r"The rule against people: 3 marked answers"))) \
        .to_be_visible(timeout=WAIT_MS)
    wait_idle(page)
    expect(main(page).get_by_text("3 of 3 marks.")).to_be_visible()
    with page.expect_download(timeout=WAIT_MS) as got:
        main(page).get_by_role("button", name=re.compile("Download these marks")).click()
    rows = list(csv.reader(io.StringIO(got.value.path().read_bytes().decode("utf-8"), newline="")))
    assert rows[0][:3] == ["Question", "Answer", "Marked"] and len(rows) == 4
    assert sorted((r[1], r[2]) for r in rows[1:])[1:] == [
        ("Optional arg cutoff (default 0.6) is a float in [0, 1] [S1].", "right"),
        ("The default cutoff is 0.9 [S1].", "wrong")] and all(r[0] == CUTOFF for r in rows[1:])
    no_exception(page)


def test_the_judge_page_measures_the_rule_on_every_bundled_set(page, server):
    from rag_core.evaluation.judges import holds_sentence
    from rag_core.evaluation.labelled_sets import bundled_holds, bundled_summary, rule_on_bundled_sets
    sets = rule_on_bundled_sets()
    open_view(page, server.url + "/judge")
    expect(main(page)).to_contain_text(bundled_summary(sets), timeout=WAIT_MS)
    expect(main(page)).to_contain_text(holds_sentence(bundled_holds(sets)))       # what holds right answers back
    for title in ("What holds right answers back", "The rule on each bundled set"):
        main(page).get_by_text(title).click()
        grid = main(page).get_by_test_id("stExpander").filter(has_text=title).get_by_test_id("stDataFrame")
        expect(grid).to_be_visible(timeout=WAIT_MS)
    expect(main(page)).to_contain_text("figures are on answers it was written from")
    no_exception(page)
