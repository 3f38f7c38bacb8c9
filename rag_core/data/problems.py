"""Problems met while reading files, grouped by kind: 20,000 bad lines make one sentence, not 20,000.

Every problem is one plain sentence about one place ("data.jsonl line 3", "notes.txt"). `Problems.grouped()`
gives each kind of problem once, where it was first met: as its own sentences while it was met at most SHOWN
times, else as its first sentence followed by the count and the first SHOWN places:

    data.jsonl line 1: not valid JSON (Expecting value); skipped. Same kind of problem on 20,000 lines in all,
    the first 5: data.jsonl lines 1, 2, 3, 4, 5, …

`Problems.listing()` is every sentence, one a line (at most MAX_LISTED, then how many more), for a download.
The kind is the sentence without its place, cut before the first " (" (where the details start), unless the
caller names it: "not valid JSON (Expecting value)" and "not valid JSON (Extra data)" are one kind.

Left out on purpose: severities (every problem is worth reading) and any order but the order of reading.
"""
from __future__ import annotations

import re

SHOWN = 5              # a kind met more often than this is one grouped sentence; the first SHOWN places are named
MAX_LISTED = 100_000   # sentences kept for the full listing (about 10 MB); the rest are counted


class Problems:
    """The problems of one reading, in the order met."""

    def __init__(self):
        self.firsts: list[tuple[str, str, str]] = []   # (kind, place, sentence) of the first SHOWN of each kind
        self.counts: dict[str, int] = {}               # kind -> times met
        self.units: dict[str, str] = {}                # kind -> "lines" or "files": what the count counts
        self.listed: list[str] = []                    # every sentence, up to MAX_LISTED
        self.total = 0                                 # every sentence, counted

    def __len__(self) -> int:
        return self.total

    def add(self, sentence: str, place: str = "", unit: str = "files", kind: str | None = None) -> None:
        """One problem; `place` is what the sentence starts with ('data.jsonl line 3'), if it is about one place."""
        kind = kind or _kind(sentence, place)
        n = self.counts.get(kind, 0) + 1
        self.counts[kind] = n
        self.units.setdefault(kind, unit)
        if n <= SHOWN:
            self.firsts.append((kind, place, sentence))
        self.total += 1
        if len(self.listed) < MAX_LISTED:
            self.listed.append(sentence)

    def grouped(self) -> tuple[str, ...]:
        """Each kind once (or its sentences, when met at most SHOWN times), in the order first met."""
        out, done = [], set()
        for kind, _, sentence in self.firsts:
            n = self.counts[kind]
            if n <= SHOWN:
                out.append(sentence)
            elif kind not in done:
                done.add(kind)
                places = _places([p for k, p, _ in self.firsts if k == kind])
                out.append(f"{sentence} Same kind of problem on {n:,} {self.units[kind]} in all, the first {SHOWN}: "
                           f"{places}, …")
        return tuple(out)

    def listing(self) -> tuple[str, ...]:
        """Every sentence in reading order; past MAX_LISTED, one last line saying how many more there were."""
        more = self.total - len(self.listed)
        return tuple(self.listed) + ((f"… and {more:,} more problems, not listed (the first {MAX_LISTED:,} are).",)
                                     if more else ())


def _kind(sentence: str, place: str) -> str:
    """'data.jsonl line 3: not valid JSON (Expecting value); skipped.' -> 'not valid JSON', numbers as #."""
    rest = sentence[len(place):] if place and sentence.startswith(place) else sentence
    return _NUMBER.sub("#", rest.lstrip(": ").split(" (", 1)[0])


_NUMBER = re.compile(r"\d[\d,.]*")      # 'expands 3000 times' and 'expands 120 times' are one kind
_LINE = re.compile(r"^(.*) line (\d+)$")


def _places(places: list[str]) -> str:
    """['a.jsonl line 1', 'a.jsonl line 2'] -> 'a.jsonl lines 1, 2'; other places joined by commas."""
    lines = [_LINE.match(p) for p in places]
    if all(lines) and len({m.group(1) for m in lines}) == 1:
        return f"{lines[0].group(1)} lines {', '.join(m.group(2) for m in lines)}"
    return ", ".join(places)
