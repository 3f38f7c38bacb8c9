"""Benchmark: another session's page load while one session reads a hostile zip (ten PDFs of 60,000 blank pages,
generated here with pypdf: about 4.8 MB zipped).

One streamlit server (a fresh process) and two browser contexts (two Streamlit sessions):
  quiet      session B loads the Glossary page LOADS times (time from goto to "no script running");
  reading    session A uploads the hostile zip on Your data; while A's reading runs, B loads the Glossary page
             again and again (at most LOADS times);
  reading s  how long A's reading took (until "document(s) read", "were stopped" or the page's problems), or
             the --cap after which the benchmark stops waiting (the server is stopped with it).
Run it against this checkout and another one (`--app /other/checkout/app.py`) to compare.

    PYTHONPATH=.:tests .venv/bin/python benchmarks/bench_reading.py [--pages 60000] [--files 10] [--loads 5]

Left out on purpose: many concurrent readers (one hostile session is the case measured) and CPU time per thread.
"""
from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from browser import (MAIN, SLOW_MS, StreamlitServer, chromium_missing, launch_chromium, page_path,  # noqa: E402
                     upload, wait_idle)


def hostile_zip(files: int, pages: int) -> bytes:
    from pypdf import PdfWriter
    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(72, 72)
    one = io.BytesIO()
    writer.write(one)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(files):
            zf.writestr(f"long{i}.pdf", one.getvalue())
    return out.getvalue()


def load(page, url: str) -> float:
    from playwright.sync_api import expect
    t0 = time.perf_counter()
    page.goto(url + page_path("Glossary"))
    expect(page.locator(MAIN).locator("h1").first).to_be_visible(timeout=SLOW_MS)
    wait_idle(page, timeout=SLOW_MS)
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=60_000, help="pages of each PDF")
    ap.add_argument("--files", type=int, default=10, help="PDFs in the zip")
    ap.add_argument("--loads", type=int, default=5, help="page loads of session B, quiet and while A reads")
    ap.add_argument("--cap", type=float, default=400, help="seconds to wait at most for A's reading")
    ap.add_argument("--app", type=Path, default=ROOT / "app.py", help="the app to serve (e.g. another checkout's)")
    args = ap.parse_args()
    if chromium_missing():
        return 1
    from playwright.sync_api import sync_playwright
    t0 = time.perf_counter()
    data = hostile_zip(args.files, args.pages)
    print(f"hostile zip: {args.files} PDFs x {args.pages:,} pages, {len(data) / 1e6:.1f} MB, made in "
          f"{time.perf_counter() - t0:.0f} s", flush=True)
    with StreamlitServer(app=args.app) as srv, sync_playwright() as p:
        browser = launch_chromium(p)
        try:
            b = browser.new_context().new_page()
            load(b, srv.url)                                   # a first visit warms the server's caches
            quiet = [load(b, srv.url) for _ in range(args.loads)]
            a = browser.new_context().new_page()
            a.goto(srv.url + page_path("Your data"))
            wait_idle(a, timeout=SLOW_MS)
            upload(a, "Documents", [{"name": "hostile.zip", "mimeType": "application/zip", "buffer": data}])
            started = time.perf_counter()
            ended = a.locator(MAIN).get_by_text("document(s) read").or_(
                a.locator(MAIN).get_by_text("None of the files gave a document"))
            busy = []
            while len(busy) < args.loads and (not busy or ended.count() == 0):
                busy.append(load(b, srv.url))              # only loads that start while A still reads
            try:
                ended.first.wait_for(timeout=max(1, args.cap - (time.perf_counter() - started)) * 1000)
                reading = f"{time.perf_counter() - started:.0f} s"
            except Exception:
                reading = f"more than {args.cap:.0f} s (stopped waiting)"
        finally:
            browser.close()
    print(f"app {args.app}: session B's Glossary load, median of {args.loads}: quiet {statistics.median(quiet):.2f} s "
          f"(max {max(quiet):.2f}), while A reads {statistics.median(busy):.2f} s (max {max(busy):.2f}); "
          f"A's reading took {reading}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
