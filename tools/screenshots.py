"""Screenshots of every page and every tour step, on a desktop (1440x900) and a phone (390x844), for looking at.

    PYTHONPATH=.:tests python tools/screenshots.py [--out docs/screenshots] [--only ask,tour-4]

Starts its own Streamlit server (tests/browser.py) and Debian's Chromium, opens each view in a new tab (a new
session, default settings; Ask with the article's cutoff question), waits until the run is over and every chart is
drawn, and writes a PNG of the whole page (the window made as tall as it) named WIDTH-VIEW.png
(1440-ask.png, 390-tour-4.png). Exit code 2 without Chromium or with an unknown view.

Left out on purpose: comparing images (a person looks at them) and any view that needs an upload or a model.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import quote

from browser import StreamlitServer, chromium_missing, launch_chromium, page_path, wait_idle, wait_loaded
from rag_core.evaluation.tour import TITLES
from ui.navigation import PAGES

ROOT = Path(__file__).resolve().parent.parent
SIZES = ((1440, 900), (390, 844))
QUESTION = "What is the default cutoff of get_close_matches?"
# every chart of the page drawn (none is fine): vega's svg with its marks, or its canvas
ALL_DRAWN = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
    .every(c => c.querySelector(':scope > svg.marks g.role-mark, :scope > canvas'))"""


TALL = """() => Math.max(...['[data-testid="stMain"]', '[data-testid="stSidebarContent"]']
    .map(q => document.querySelector(q)).filter(e => e && e.getBoundingClientRect().right > 0)
    .map(e => e.scrollHeight))"""           # a folded sidebar (a phone's) does not count
MAX_HEIGHT = 16_000       # px: Chromium's largest screenshot is about 16,384 px tall


def views() -> dict[str, str]:
    """name -> address path: every page, the tour as its steps. {'overview': '/', ..., 'tour-9': '/tour?step=9'}"""
    out = {Path(p.script).stem: page_path(p.title) for p in PAGES if p.script != "pages/tour.py"}   # = tour-1
    out["ask"] += "?ask_question=" + quote(QUESTION)
    out.update({f"tour-{n}": f"/tour?step={n}" for n in range(1, len(TITLES) + 1)})
    return out


def shoot(browser, url: str, path: Path, width: int, height: int) -> None:
    page = browser.new_page(viewport={"width": width, "height": height})
    try:
        page.goto(url)
        wait_idle(page, timeout=240_000)
        wait_loaded(page, timeout=60_000)
        page.wait_for_function(ALL_DRAWN, polling=100, timeout=60_000)
        # the page scrolls inside Streamlit's main block, not the document: a window as tall as its content
        tall = page.evaluate(TALL)
        if tall > height:
            page.set_viewport_size({"width": width, "height": min(tall, MAX_HEIGHT)})
            wait_idle(page, timeout=60_000)
            page.wait_for_function(ALL_DRAWN, polling=100, timeout=60_000)
        page.screenshot(path=str(path))
    finally:
        page.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--only", default="", help="comma-separated view names (ask,tour-4); default: every view")
    args = ap.parse_args()
    if chromium_missing():
        return 2
    wanted = views()
    if args.only:
        unknown = set(args.only.split(",")) - set(wanted)
        if unknown:
            print(f"Unknown view(s) {', '.join(sorted(unknown))}: choose from {', '.join(wanted)}.", file=sys.stderr)
            return 2
        wanted = {k: v for k, v in wanted.items() if k in args.only.split(",")}
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright
    with StreamlitServer() as srv, sync_playwright() as p:
        browser = launch_chromium(p)
        for width, height in SIZES:
            for name, path in wanted.items():
                target = args.out / f"{width}-{name}.png"
                shoot(browser, srv.url + path, target, width, height)
                print(target.relative_to(ROOT) if target.is_relative_to(ROOT) else target, flush=True)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
