"""Every chart draws, at a desktop's width and a phone's: in Chromium, each chart's plot has a height and keeps at least
half the chart's width (the labels never take the bars' place), and no text of it (a label, a legend entry, a
title) is cut with "…" or runs past the chart's edge.

Measured in the drawn SVG (vega's own `path.background` of the plot, and each `text`'s box), on a fresh session.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser import MAIN, SLOW_MS, wait_charts, wait_idle, wait_loaded

# per chart: the chart's box, the plot's box (the background of the outermost view), and the texts that are cut or
# stick out left or right of the chart (a rotated axis title's box is its glyphs' advance turned sideways: not
# measured)
MEASURE = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')].map(c => {
    const r = c.getBoundingClientRect();
    const bg = c.querySelector('svg.marks path.background');      // the first: the root view's plot
    const b = bg ? bg.getBoundingClientRect() : {width: 0, height: 0};
    const texts = [...c.querySelectorAll('svg.marks text')].filter(t => t.textContent.trim()
                                                                  && !(t.getAttribute('transform') || '').includes('rotate'));
    return {width: r.width, plot_width: b.width, plot_height: b.height,
            cut: texts.map(t => t.textContent).filter(t => t.includes('…')),
            out: texts.filter(t => { const q = t.getBoundingClientRect();
                                     return q.width > 0 && (q.left < r.left - 3 || q.right > r.right + 3); })
                      .map(t => t.textContent)};
})"""

PAGES = ["/", "/ablations", "/compare", "/your_data"] + [f"/tour?step={n}" for n in range(1, 10)]
WIDTHS = [(1440, 900), (390, 844)]


def charts_of(page) -> list[dict]:
    wait_idle(page, SLOW_MS)
    wait_loaded(page)
    wait_charts(page, None, SLOW_MS)
    return page.evaluate(MEASURE)


@pytest.mark.parametrize("width,height", WIDTHS, ids=["desktop", "phone"])
def test_every_chart_draws_whole_at_this_width(new_page, server, width, height):
    problems = []
    page = new_page(width, height)
    for path in PAGES:
        page.goto(server.url + path)
        for i, c in enumerate(charts_of(page)):
            where = f"{path} chart {i + 1}"
            if c["plot_height"] < 30:
                problems.append(f"{where}: plot {c['plot_height']:.0f} px high")
            if c["plot_width"] < c["width"] / 2:
                problems.append(f"{where}: plot {c['plot_width']:.0f} of {c['width']:.0f} px wide")
            problems += [f"{where}: cut text {t!r}" for t in c["cut"]]
            problems += [f"{where}: text past the edge {t!r}" for t in c["out"]]
    assert not problems, "\n".join(problems)


# a metric's label that is cut ("Questions with a contradicting ch…"): its text wider than its box
CUT_LABELS = """() => [...document.querySelectorAll('[data-testid="stMetricLabel"]')]
    .filter(l => [l, ...l.querySelectorAll('*')].some(e => e.scrollWidth > e.clientWidth + 1))
    .map(l => l.innerText)"""


@pytest.mark.parametrize("width,height", WIDTHS, ids=["desktop", "phone"])
def test_the_overview_s_figures_have_whole_labels_and_say_why_the_ceiling_beats_answered(new_page, server, width,
                                                                                          height):
    page = new_page(width, height)
    page.goto(server.url + "/")
    charts_of(page)
    labels = page.locator('[data-testid="stMetricLabel"]').all_inner_texts()
    assert len(set(labels)) == len(labels) == 6
    assert page.evaluate(CUT_LABELS) == []
    expect(page.locator(MAIN).get_by_text(re.compile(r"reach the spans handed over \(what the ceiling counts\)"))) \
        .to_be_visible()
