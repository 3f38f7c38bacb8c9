"""One count for one encoding pass: texts done of the total, texts a second, and the time left.

    count = Count(total=1583, pieces=380_000, on_progress=cb)    # cb(done, total, sentence)
    count.add(texts=16, pieces=4096)                             # after each batch
    -> cb(16, 1583, "Encoding 1,583 texts with all-MiniLM-L6-v2: 16 done, 8.0 a second, about 3 min left")

The total is known before the first batch (the texts in no cache), so the count never restarts. The time left is
the pieces left at the pace of the recent half of the pass (word pieces a second since the batch that ended at or
before half the time so far): the encoder's cost follows the pieces it reads (a batch holds about 4096 of them) and
the texts come longest first, so a count of texts would promise too much at the start; and on a shared machine the
pace changes as others start and stop, which the recent half follows and the whole pass would lag.

Left out on purpose: a model of the machine's load (the pace measured is all there is) and drawing (the caller's
on_progress).
"""
from __future__ import annotations

import bisect
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
        self._times, self._counts = [self.started], [(0, 0)]     # after each batch: clock, (texts, pieces) done
        self._tell()

    def add(self, texts: int, pieces: int) -> None:
        self.done += texts
        self.pieces_done += pieces
        self._times.append(self.clock())
        self._counts.append((self.done, self.pieces_done))
        self._tell()

    def _recent(self) -> tuple[float, int, int]:
        """(seconds, texts, pieces) over the recent half of the pass so far: from the last batch at or before it."""
        now = self._times[-1]
        at = max(0, bisect.bisect_right(self._times, now - (now - self.started) / 2) - 1)
        texts, pieces = self._counts[at]
        return now - self._times[at], self.done - texts, self.pieces_done - pieces

    def seconds_left(self) -> float | None:
        """The pieces left at the pace of the recent half of the pass; None before the first batch."""
        seconds, _, pieces = self._recent()
        if not pieces:
            return None
        return seconds * (self.pieces - self.pieces_done) / pieces

    def sentence(self) -> str:
        head = f"Encoding {self.total:,} texts with {MODEL_ID}: {self.done:,} done"
        left = self.seconds_left()
        if left is None:
            return head + ", estimating the time left"
        seconds, texts, _ = self._recent()
        return head + f", {texts / max(seconds, 1e-9):.1f} a second, about {duration(left)} left"

    def _tell(self) -> None:
        if self.on_progress:
            self.on_progress(self.done, self.total, self.sentence())
