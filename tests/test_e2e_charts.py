"""Every chart draws, at a desktop's width and a phone's: in Chromium, each chart's plot has a height and keeps at least
half the chart's width (the labels never take the bars' place), and no text of it (a label, a legend entry, a
title) is cut with "…" or runs past the chart's edge.

Measured in the drawn SVG (vega's own `path.background` of the plot, and each `text`'s box), on a fresh session.
"""
from __future__ import annotations

import pytest

from browser import SLOW_MS, wait_charts, wait_idle, wait_loaded

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
