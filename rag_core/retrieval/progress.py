"""One count for one encoding pass: texts done of the total, texts a second, and the time left.

    count = Count(total=1583, pieces=380_000, on_progress=cb)    # cb(done, total, sentence)
    count.add(texts=16, pieces=4096)                             # after each batch
    -> cb(16, 1583, "Encoding 1,583 texts with all-MiniLM-L6-v2: 16 done, 8.0 a second, about 3 min left")

The total is known before the first batch (the texts in no cache), so the count never restarts. The time left is
the time so far per word piece times the pieces left: the encoder's cost follows the pieces it reads (a batch holds
about 4096 of them), and the texts come longest first, so a count of texts alone would promise too much at the
start.

Left out on purpose: smoothing (the rate is over the whole pass so far) and drawing (the caller's on_progress).
"""
from __future__ import annotations

import time
from typing import Callable

from rag_core.retrieval.minilm import MODEL_ID


def duration(seconds: float) -> str:
    """A short duration for a person: 4.2 -> '4 s', 95 -> '1 min 35 s', 3700 -> '1 h 2 min'."""
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s" if s % 60 else f"{s // 60} min"
    return f"{s // 3600} h {s % 3600 // 60} min"


class Count:
    """Texts and word pieces done of a pass whose totals are known; tells on_progress(done, total, sentence)."""

    def __init__(self, total: int, pieces: int, on_progress: Callable[[int, int, str], None] | None,
                 clock: Callable[[], float] = time.perf_counter):
        self.total, self.pieces = total, pieces      # texts and word pieces the pass will encode
        self.done = self.pieces_done = 0
        self.on_progress, self.clock = on_progress, clock
        self.started = clock()
        self._tell()

    def add(self, texts: int, pieces: int) -> None:
        self.done += texts
        self.pieces_done += pieces
        self._tell()

    def seconds_left(self) -> float | None:
        """Time so far per piece times the pieces left; None before the first batch."""
        if not self.pieces_done:
            return None
        return (self.clock() - self.started) * (self.pieces - self.pieces_done) / self.pieces_done

    def sentence(self) -> str:
        head = f"Encoding {self.total:,} texts with {MODEL_ID}: {self.done:,} done"
        left = self.seconds_left()
        if left is None:
            return head + ", estimating the time left"
        rate = self.done / max(self.clock() - self.started, 1e-9)
        return head + f", {rate:.1f} a second, about {duration(left)} left"

    def _tell(self) -> None:
        if self.on_progress:
            self.on_progress(self.done, self.total, self.sentence())
