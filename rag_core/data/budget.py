"""How many PDF pages and seconds one reading may still spend, per file and in all, and a word for the caller
between pages (a progress bar; the place where a page can stop the reading when the user cancels).

    budget = Budget(Limits(max_pdf_pages=2)); budget.start("a.pdf")
    budget.room() -> None; budget.page(); budget.room() -> None; budget.page()
    budget.room() -> "the max_pdf_pages limit of 2 pages for one file"

`room()` is asked before each page and says why there is none (a phrase naming the limit), else None;
`left()` is asked between files and says why the reading as a whole stops. `page()` counts a page, calls
`on_progress(label, pages_of_this_file, pages_in_all)` at most every PROGRESS_S seconds, and pauses as long as the
page took (a sleep releases the GIL): other sessions' scripts and the server's event loop keep their pace while a
session reads (benchmarks/bench_reading.py: another session's page 1.42 s quiet, 1.43 s while ten 60,000-page PDFs
are read; 2.29 s with a mere time.sleep(0) between pages). The pauses cost little: a PDF's pages are capped.

Left out on purpose: stopping inside one page (pypdf reads a page whole) and limits in seconds for the text
formats (reading them is linear in the bytes max_file_bytes and max_total_bytes let in; `left()` still stops the
reading between files when the time is spent).
"""
from __future__ import annotations

import time
from typing import Callable

from rag_core.data.limits import Limits

PROGRESS_S = 0.2      # the least time between two calls of on_progress
PAUSE_SHARE = 1.0     # after each page, a pause of this share of the page's time: the reading takes at most half
MAX_PAUSE_S = 0.05    # of the GIL when others want it; a page that took long is followed by at most this pause


class Budget:
    """What one reading has spent: pages and seconds, in all and on the file being read."""

    def __init__(self, limits: Limits, on_progress: Callable[[str, int, int], None] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.limits, self.on_progress, self.clock = limits, on_progress, clock
        self.started = self.file_started = clock()
        self.pages = 0            # PDF pages read in all
        self.file_pages = 0       # PDF pages read of the file being read
        self.label = ""           # the file being read
        self.told = float("-inf")  # when on_progress was last called
        self.page_at = time.monotonic()   # when the page being read was started (real time, whatever the clock)

    def start(self, label: str) -> None:
        """A new file: its pages and seconds count from here."""
        self.label, self.file_started, self.file_pages = label, self.clock(), 0
        self.page_at = time.monotonic()
        self.tell(force=True)

    def page(self) -> None:
        """One page read; then as long a pause, in which whoever waits for the GIL runs (see the module)."""
        self.pages += 1
        self.file_pages += 1
        now = time.monotonic()
        time.sleep(min(now - self.page_at, MAX_PAUSE_S) * PAUSE_SHARE)
        self.page_at = time.monotonic()
        self.tell()

    def room(self) -> str | None:
        """Why no further page of this file may be read (the limit, in words), or None."""
        limits = self.limits
        if self.file_pages >= limits.max_pdf_pages:
            return f"the max_pdf_pages limit of {limits.max_pdf_pages:,} pages for one file"
        if self.clock() - self.file_started >= limits.max_file_seconds:
            return f"the max_file_seconds limit of {limits.max_file_seconds:g} s for one file"
        return self.left()

    def left(self) -> str | None:
        """Why the reading as a whole must stop (the limit, in words), or None."""
        limits = self.limits
        if self.pages >= limits.max_pages:
            return f"the max_pages limit of {limits.max_pages:,} PDF pages for everything read at once"
        if self.clock() - self.started >= limits.max_seconds:
            return f"the max_seconds limit of {limits.max_seconds:g} s for everything read at once"
        return None

    def tell(self, force: bool = False) -> None:
        if self.on_progress is not None and (force or self.clock() - self.told >= PROGRESS_S):
            self.told = self.clock()
            self.on_progress(self.label, self.file_pages, self.pages)
