"""Benchmark 3: what a user waits for, measured in a real browser (Debian's chromium, Playwright sync API).

1. Ask: after a first load, the time from submitting a question (typed in the question box, then Enter)
   until its results are all on screen: the span rows of THIS question (checked against rag_core, so
   stale rows from the previous question do not count), its prompt, the verdict, and the script idle.
   Median over the golden questions (10 by default, all different).
2. Ablations, cold: a fresh server process (empty caches), time from navigation until every chart is
   drawn (an <svg class="marks"> or canvas in each chart). Two routes, each on its own fresh server:
   - "deep link": /ablations is the first request the server gets (corpus, index and tables all cold);
   - "from the menu": "/" is loaded first (corpus read, one index built), then the menu link is clicked
     (the ablation tables are still cold).

    .venv/bin/python benchmarks/bench_browser.py [--questions 10] [--cold-runs 3]

Prints each figure with its goal (0.5 s and 3 s) and whether it is met.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from browser import RESULTS_SHOWN, StreamlitServer, chromium_missing, launch_chromium, wait_idle  # noqa: E402
from rag_core import ChunkerConfig, Workbench  # noqa: E402
from rag_core.evaluation.pipeline import ask  # noqa: E402

ASK_GOAL_S, ABLATIONS_GOAL_S = 0.5, 3.0
N_CHARTS = 8
TIMEOUT_MS = 60_000

# the script run is over and every element has arrived (9 tables; charts may still be drawing)
ELEMENTS_IN = """(n) => {
    const app = document.querySelector('[data-testid="stApp"]');
    const h1 = document.querySelector('[data-testid="stMain"] h1');
    return app && app.dataset.testScriptState === 'notRunning' && h1 && h1.innerText.includes('Ablations')
        && document.querySelectorAll('[data-testid="stVegaLiteChart"]').length === n
        && document.querySelectorAll('[data-testid="stDataFrame"]').length === n + 1;
}"""

CHARTS_DRAWN = """(n) => {
    const charts = document.querySelectorAll('[data-testid="stVegaLiteChart"]');
    if (charts.length !== n) return false;
    return [...charts].every(c => c.querySelector(':scope > svg.marks g.role-mark, :scope > canvas'));
}"""


def labels_for(wb: Workbench, question: str) -> list[str]:
    ix = wb.index(ChunkerConfig("fixed", 160, 32))           # the page's defaults: 20 candidates, k=3, rerank, current
    a = ask(ix, question, 20, 3, True, {"current"})
    return [f"{ix.doc_id(int(c))} · chunk {int(c)}" for c in a.retrieved.ids]


def bench_ask(browser, n_questions: int) -> list[float]:
    wb = Workbench.bundled()
    questions = wb.questions[:n_questions]
    times = []
    with StreamlitServer() as srv:
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.goto(srv.url + "/")                               # the first load: corpus read, index built
        page.get_by_text("Headline figures, computed now").wait_for(timeout=TIMEOUT_MS)
        page.goto(srv.url + "/ask")
        wait_idle(page, timeout=TIMEOUT_MS)
        box = page.locator('[data-testid="stMain"]').get_by_label("Your question")
        box.wait_for(timeout=TIMEOUT_MS)
        for q in questions:
            want = labels_for(wb, q)
            box.fill(q)
            t0 = time.perf_counter()
            box.press("Enter")
            page.wait_for_function(RESULTS_SHOWN, arg=[q, want], timeout=TIMEOUT_MS, polling="raf")
            times.append(time.perf_counter() - t0)
        page.close()
    return times


def bench_ablations_cold(browser, route: str) -> dict:
    """{"elements": s until the run is over and all elements arrived, "drawn": s until all charts are drawn,
    "warm": the same page again on the same server (caches warm), for comparison}."""
    with StreamlitServer() as srv:                              # a fresh process: every cache is empty
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        nav = page.locator('[data-testid="stSidebarNav"]')
        if route == "deep link":
            t0 = time.perf_counter()
            page.goto(srv.url + "/ablations")
        else:
            page.goto(srv.url + "/")
            page.get_by_text("Headline figures, computed now").wait_for(timeout=TIMEOUT_MS)
            wait_idle(page, timeout=TIMEOUT_MS)
            t0 = time.perf_counter()
            nav.get_by_role("link", name="Ablations").click()
        page.wait_for_function(ELEMENTS_IN, arg=N_CHARTS, timeout=TIMEOUT_MS, polling="raf")
        elements = time.perf_counter() - t0
        page.wait_for_function(CHARTS_DRAWN, arg=N_CHARTS, timeout=TIMEOUT_MS, polling="raf")
        drawn = time.perf_counter() - t0
        # warm: leave for the Glossary, come back through the menu
        nav.get_by_role("link", name="Glossary").click()
        page.locator('[data-testid="stMain"] h1').filter(has_text="Glossary").wait_for(timeout=TIMEOUT_MS)
        wait_idle(page, timeout=TIMEOUT_MS)
        t0 = time.perf_counter()
        nav.get_by_role("link", name="Ablations").click()
        page.wait_for_function(CHARTS_DRAWN, arg=N_CHARTS, timeout=TIMEOUT_MS, polling="raf")
        warm = time.perf_counter() - t0
        page.close()
    return {"elements": elements, "drawn": drawn, "warm": warm}


def verdict(value: float, goal: float) -> str:
    return f"goal {goal:.1f} s: {'MET' if value <= goal else 'NOT MET'}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--questions", type=int, default=10, help="golden questions to submit on the Ask page")
    ap.add_argument("--cold-runs", type=int, default=3, help="fresh servers per Ablations route")
    args = ap.parse_args(argv)
    if chromium_missing():
        return 2
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch_chromium(p)
        try:
            ask_times = bench_ask(browser, args.questions)
            cold = {route: [bench_ablations_cold(browser, route) for _ in range(args.cold_runs)]
                    for route in ("deep link", "from the menu")}
        finally:
            browser.close()

    ask_median = statistics.median(ask_times)
    print(f"Ask page: submit a question -> spans, prompt and verdict visible "
          f"({len(ask_times)} golden questions, typed + Enter)")
    print(f"  median {ask_median:.3f} s  (min {min(ask_times):.3f}, max {max(ask_times):.3f})  "
          f"{verdict(ask_median, ASK_GOAL_S)}")
    print(f"  each: {', '.join(f'{t:.3f}' for t in ask_times)}")
    print(f"Ablations page, cold (fresh server each run): navigation -> all {N_CHARTS} charts drawn")
    for route, runs in cold.items():
        times = [r["drawn"] for r in runs]
        m = statistics.median(times)
        print(f"  {route:<14} median {m:.2f} s over {len(times)} run(s) ({', '.join(f'{t:.2f}' for t in times)})  "
              f"{verdict(m, ABLATIONS_GOAL_S)}")
        print(f"  {'':<14} of which: script run over and all elements in after "
              f"{statistics.median(r['elements'] for r in runs):.2f} s; the same page warm (2nd visit) "
              f"{statistics.median(r['warm'] for r in runs):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
