"""Where a passage sits in its document: the document's id and the heading of the section the passage is in
("## statistics.median_low" holds "When it is even, the smaller of the two middle values is returned."). The
checker lets an answer name what these titles name ("median_low returns the smaller ... [S1]") although the
passage itself does not write it, as a reader who sees the passage under its heading would.

    section_title("statistics", "MODULE statistics\n\n## statistics.median_low\n\nWhen it is even, ...",
                  "When it is even, ...") -> "statistics statistics.median_low"

Headings are Markdown's (# to ######, at a line's start); a passage is found by its first 300 characters,
whitespace folded; a passage the document writes in several sections ("evaluates to zero when k > n" under
math.comb and math.perm) is titled by each of them, since it documents each.

Left out on purpose: reST's underlined titles and other markups' headings (their passages get
the document's id only), and every heading but the nearest one above the passage (a neighbouring function's name
is still looked for in the passage).
"""
from __future__ import annotations

import bisect
import functools
import re

from rag_core.text.tokens import normalize

_HEADING = re.compile(r"^#{1,6}[ \t]+(\S[^\n]*)$", re.M)
_PROBE = 300                    # characters of a passage looked for in its document
_PLACES = 20                    # places of one passage whose headings are read (a passage written in many sections)


@functools.lru_cache(maxsize=64)
def _headings(text: str) -> tuple[str, tuple[int, ...], tuple[str, ...]]:
    """(the text folded, where each heading starts in it, each heading's first word)."""
    folded = normalize(text)
    places, names, at = [], [], 0
    for m in _HEADING.finditer(text):
        head = normalize(m[0])
        at = folded.find(head, at)
        if at < 0:                  # cannot happen: folding keeps a line's words in order
            break
        places.append(at)
        names.append(m[1].split()[0].strip("`*_"))
    return folded, tuple(places), tuple(names)


def section_title(doc_id: str, text: str, passage: str) -> str:
    """The document's id and the first word of the nearest heading above the passage, above each place when the
    document writes the passage more than once (see the module)."""
    folded, places, names = _headings(text)
    probe = normalize(passage)[:_PROBE]
    found, at = [], folded.find(probe) if probe else -1
    while at >= 0 and len(found) < _PLACES:
        i = bisect.bisect_right(places, at) - 1
        if i >= 0:
            found.append(names[i])
        at = folded.find(probe, at + 1)
    return " ".join(dict.fromkeys([doc_id, *found]))
