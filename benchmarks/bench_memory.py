"""Benchmark 4: the server's memory over many small uploads, and after their sessions end.

One streamlit server (a fresh process). Its resident memory (VmRSS of /proc/PID/status, plus any child
process) is read:
  fresh      right after start-up;
  before     after one visit of the Overview and the Ablations page on the bundled corpus (what every
             server holds once it has been used);
  upload i   for each of N uploads, each in its own browser context (its own Streamlit session): Your data
             -> a generated .jsonl of D documents of W words (different every time) and a golden CSV ->
             'Use these documents' -> the active-dataset heading -> the Ablations page with every chart
             drawn; RSS is read with the session open, then the context is closed;
  ended      once every context is closed and ui.memory.GRACE_S (10 s) + ENDED_S more have passed, with no
             other visitor: the sessions have ended (closed at the end of their grace), their memory returned;
  after      polled every few seconds once every context is closed. Streamlit keeps a disconnected
             session for server.disconnectedSessionTTL seconds (120 by default) so that a tab can
             reconnect; a session past its TTL is dropped only when the session store is next written,
             i.e. when another session disconnects. So: poll until the TTL has passed, then one more
             visitor comes and goes ("nudge"), then poll again.

    .venv/bin/python benchmarks/bench_memory.py [--uploads 25] [--docs 30] [--words 2000] [--ttl 120] [--rounds 1]

Each line also gives what Streamlit itself says it holds (/_stcore/metrics: active sessions, and the bytes
of st.cache_data, st.cache_resource, session state, uploaded files and media). Prints a summary per round
(peak / after). Nothing is forced: no gc call in the server, only waiting and an ordinary visit. A second
round (--rounds 2) that peaks no higher than the first shows memory freed by dropped sessions is reused;
a short --ttl against the default tells "sessions not yet dropped" apart from "memory kept after they are".

Left out on purpose: Python-level attribution inside the server (tracemalloc).
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import os
import random
import re
import sys
import time
import urllib.request
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

GRACE_S = 10.0               # ui.memory.GRACE_S: a closed tab's session ends this long after its disconnect

from browser import (MAIN, SLOW_MS, StreamlitServer, chromium_missing, launch_chromium, page_path,  # noqa: E402
                     upload, wait_charts, wait_idle)

POLL_S = 5.0                 # how often RSS is read while waiting for sessions to be dropped
ENDED_S = 10.0               # after the sessions' grace: time for the close and the memory's return
MB = 1024 * 1024


# ---------------------------------------------------------------- memory of a process tree

def _children(pid: int) -> list[int]:
    kids = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return kids


def rss_bytes(pid: int) -> int:
    """VmRSS of pid and of all its descendants, in bytes (0 for a process that is gone)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024        # "VmRSS:   53124 kB"
        except OSError:
            continue
        todo += _children(p)
    return total


def streamlit_figures(url: str) -> str:
    """What Streamlit's own /_stcore/metrics says it holds: active sessions and cache_memory_bytes summed by
    cache type (st_cache_data, st_cache_resource, st_session_state, the uploaded files...)."""
    try:
        with urllib.request.urlopen(url + "/_stcore/metrics", timeout=10) as r:
            text = r.read().decode()
    except OSError as e:
        return f"(no metrics: {e})"
    held, active = defaultdict(float), "?"
    for line in text.splitlines():
        m = re.match(r'cache_memory_bytes\{cache_type="([^"]*)",cache="[^"]*"\} (\S+)', line)
        if m:
            held[m.group(1)] += float(m.group(2))
        elif line.startswith("active_sessions "):
            active = line.split()[1]
    return f"active sessions {active}; " + ", ".join(f"{k} {v / MB:.2f} MB" for k, v in sorted(held.items()))


# ---------------------------------------------------------------- a generated upload

def vocabulary(n: int = 4000, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    return sorted({"".join(rng.choice(letters) for _ in range(rng.randint(3, 10))) for _ in range(n)})


def generated_upload(i: int, docs: int, words: int, questions: int = 10) -> tuple[dict, dict]:
    """A .jsonl of `docs` documents of `words` words (sentences of 8-20 words, paragraphs of 5 sentences)
    and a golden CSV whose anchors are sentences of those documents; upload i differs from every other."""
    rng = random.Random(1000 + i)
    vocab = vocabulary()
    lines, sentences_of = [], []
    for d in range(docs):
        sentences, n = [], 0
        while n < words:
            k = min(rng.randint(8, 20), words - n)
            sentences.append(" ".join(rng.choice(vocab) for _ in range(k)).capitalize() + ".")
            n += k
        paragraphs = [" ".join(sentences[p:p + 5]) for p in range(0, len(sentences), 5)]
        doc_id = f"upload{i}-doc{d:02d}"
        status = rng.choice(["current", "current", "draft", "outdated"])
        lines.append(json.dumps({"id": doc_id, "text": "\n\n".join(paragraphs), "status": status}))
        sentences_of.append((doc_id, sentences))
    rows = io.StringIO()
    w = csv.writer(rows)
    w.writerow(["question", "doc", "anchor"])
    for q in range(questions):
        doc_id, sentences = sentences_of[rng.randrange(docs)]
        anchor = rng.choice([s for s in sentences if len(s.split()) >= 8])
        w.writerow(["What about " + " ".join(anchor.rstrip(".").split()[2:7]) + "?", doc_id, anchor])
    return ({"name": f"upload-{i}.jsonl", "mimeType": "application/jsonl", "buffer": "\n".join(lines).encode()},
            {"name": f"golden-{i}.csv", "mimeType": "text/csv", "buffer": rows.getvalue().encode()})


# ---------------------------------------------------------------- the visits

def nudge(browser, url: str) -> None:
    """One more visitor comes and goes: its session's disconnect writes to the session store, which drops
    the sessions past their TTL."""
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(url + page_path("Glossary"))
        wait_idle(page, timeout=SLOW_MS)
    finally:
        ctx.close()


def visit_bundled(browser, url: str) -> None:
    """The Overview, then the Ablations page drawn, on the bundled corpus; then the context closes."""
    from playwright.sync_api import expect
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    try:
        page = ctx.new_page()
        page.goto(url + page_path("Overview"))
        expect(page.get_by_text("Headline figures, computed now")).to_be_visible(timeout=SLOW_MS)
        page.goto(url + page_path("Ablations"))
        wait_charts(page, timeout=SLOW_MS)
    finally:
        ctx.close()


def visit_upload(browser, url: str, i: int, docs: int, words: int, on_open) -> None:
    """Upload i in its own context, made the active dataset, the Ablations page drawn; on_open() is called
    while the session is still open, then the context closes."""
    from playwright.sync_api import expect
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    try:
        page = ctx.new_page()
        main = page.locator(MAIN)
        page.goto(url + page_path("Your data"))
        expect(main).to_contain_text("Active dataset: Bundled corpus", timeout=SLOW_MS)
        wait_idle(page)
        documents, golden = generated_upload(i, docs, words)
        upload(page, "Documents", [documents])
        expect(main).to_contain_text(f"{docs} document(s) read", timeout=SLOW_MS)
        upload(page, "Golden set", [golden])
        expect(main).to_contain_text("question(s) read", timeout=SLOW_MS)
        page.get_by_role("button", name="Use these documents").click()
        expect(main.locator("h3").filter(has_text="Active dataset: My documents")).to_be_visible(timeout=SLOW_MS)
        page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name="Ablations").click()
        expect(main.locator("h1").first).to_contain_text("Ablations", timeout=SLOW_MS)
        wait_charts(page, timeout=SLOW_MS)
        wait_idle(page, timeout=SLOW_MS)
        on_open()
    finally:
        ctx.close()


# ---------------------------------------------------------------- the run

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--uploads", type=int, default=25)
    ap.add_argument("--docs", type=int, default=30, help="documents per upload")
    ap.add_argument("--words", type=int, default=2000, help="words per document")
    ap.add_argument("--ttl", type=int, default=120,
                    help="server.disconnectedSessionTTL in seconds (Streamlit's default: 120)")
    ap.add_argument("--settle", type=float, default=60.0,
                    help="seconds to keep polling after the TTL has passed and after the nudge")
    ap.add_argument("--app", type=Path, default=ROOT / "app.py", help="the app to serve (e.g. another checkout's)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="repeat uploads + wait; a later round that peaks no higher reuses what the first freed")
    ap.add_argument("--malloc-arena-max", type=int, default=None,
                    help="MALLOC_ARENA_MAX for the server (glibc keeps one heap per thread by default)")
    args = ap.parse_args()
    if chromium_missing():
        return 1
    from playwright.sync_api import sync_playwright
    if args.malloc_arena_max:
        os.environ["MALLOC_ARENA_MAX"] = str(args.malloc_arena_max)      # inherited by the server process

    readings: list[tuple[str, int]] = []

    def read(label: str) -> int:
        value = rss_bytes(srv.proc.pid)
        readings.append((label, value))
        print(f"{label:<34} RSS {value / MB:8.1f} MB   [{streamlit_figures(srv.url)}]", flush=True)
        return value

    summary = []
    with StreamlitServer(app=args.app, options={"server.disconnectedSessionTTL": args.ttl}) as srv, sync_playwright() as p:
        browser = launch_chromium(p)
        try:
            fresh = read("fresh server")
            visit_bundled(browser, srv.url)
            before = read("before (bundled corpus visited)")
            for r in range(1, args.rounds + 1):
                first = len(readings)
                t0 = time.monotonic()
                for i in range(1, args.uploads + 1):
                    n = (r - 1) * args.uploads + i              # every upload of every round differs
                    visit_upload(browser, srv.url, n, args.docs, args.words,
                                 on_open=lambda n=n: read(f"upload {n:>2}, session open"))
                closed_at = time.monotonic()
                print(f"{args.uploads} uploads in {closed_at - t0:.0f} s; every context is closed now", flush=True)
                read("all closed, at once")
                ended = None
                # sessions past their TTL are dropped at the next write to the session store
                while time.monotonic() - closed_at < args.ttl + args.settle:
                    time.sleep(POLL_S)          # a benchmark waiting on a server's memory, not on a page
                    value = read(f"closed for {time.monotonic() - closed_at:4.0f} s")
                    if ended is None and time.monotonic() - closed_at >= GRACE_S + ENDED_S:
                        ended = value                   # the sessions' grace has passed; nobody else came
                nudge(browser, srv.url)
                read("after one more visitor (nudge)")
                nudged = time.monotonic()
                while time.monotonic() - nudged < args.settle:
                    time.sleep(POLL_S)
                    read(f"after nudge + {time.monotonic() - nudged:4.0f} s")
                summary.append((r, max(v for _, v in readings[first:]), ended, readings[-1][1]))
        finally:
            browser.close()
    print(f"\nSummary: {args.uploads} uploads a round of {args.docs} docs x {args.words} words, TTL {args.ttl} s"
          + (f", MALLOC_ARENA_MAX={args.malloc_arena_max}" if args.malloc_arena_max else "")
          + f": fresh {fresh / MB:.0f} MB, before {before / MB:.0f} MB")
    for r, peak, ended, after in summary:
        print(f"  round {r}: peak {peak / MB:.0f} MB, {GRACE_S + ENDED_S:.0f} s after the last tab closed {ended / MB:.0f} MB "
              f"(- before: {(ended - before) / MB:+.0f} MB), after the TTL and a nudge {after / MB:.0f} MB "
              f"(- before: {(after - before) / MB:+.0f} MB)")
    return 0

if __name__ == "__main__":
    sys.exit(main())
