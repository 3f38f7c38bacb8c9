"""Real browser: when a tab closes, its session ends within its grace (ui.memory.GRACE_S), and what it held (its
session state, its uploaded files) goes, without waiting for Streamlit's disconnect window (120 s) nor for another
session to disconnect. Read from Streamlit's own /_stcore/metrics of a server nobody else visits.

The test polls the server's figures (a state) until a deadline; it never sleeps a fixed time.
"""
import re
import threading
import time
import urllib.request
from collections import defaultdict

from playwright.sync_api import expect

from browser import MAIN, SLOW_MS, StreamlitServer, page_path, upload, wait_idle

MB = 1_000_000


def held(url: str) -> dict:
    """Bytes Streamlit holds by cache type (st_session_state, the uploaded files, ...), from /_stcore/metrics."""
    with urllib.request.urlopen(url + "/_stcore/metrics", timeout=10) as r:
        text = r.read().decode()
    out = defaultdict(float)
    for m in re.finditer(r'cache_memory_bytes\{cache_type="([^"]*)",cache="[^"]*"\} (\S+)', text):
        out[m.group(1)] += float(m.group(2))
    return out


def uploads_and_state(url: str) -> float:
    figures = held(url)
    return sum(v for k, v in figures.items() if "upload" in k.lower() or k == "st_session_state")


def test_a_closed_tabs_session_state_and_uploads_go_within_its_grace(context):
    """On a server of its own, through the suite's browser (a second Playwright in one process fails)."""
    text = " ".join(f"Sentence number {i} of a long note about the office." for i in range(60_000)).encode()
    with StreamlitServer() as srv:
        ctx = context.browser.new_context(viewport={"width": 1280, "height": 1000})
        try:
            page = ctx.new_page()
            page.goto(srv.url + page_path("Your data"))
            expect(page.locator(MAIN)).to_contain_text("Active dataset: Bundled corpus", timeout=SLOW_MS)
            wait_idle(page)
            upload(page, "Documents", [{"name": "note.txt", "mimeType": "text/plain", "buffer": text}])
            expect(page.locator(MAIN)).to_contain_text("1 document(s) read", timeout=SLOW_MS)
            open_bytes = uploads_and_state(srv.url)
            assert open_bytes > len(text), held(srv.url)       # the upload's bytes and its reading, in the session
            ctx.close()
            deadline, gone = time.monotonic() + 60, threading.Event()
            while time.monotonic() < deadline and uploads_and_state(srv.url) > 0.1 * MB:
                gone.wait(0.5)                                  # poll the server's figure, not a fixed wait
            assert uploads_and_state(srv.url) <= 0.1 * MB, (open_bytes, held(srv.url))
        finally:
            ctx.close()
