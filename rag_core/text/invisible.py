"""Marks a reader does not see: direction marks (U+200E, U+200F, U+061C, U+202A-U+202E, U+2066-U+2069), zero-width
spaces and joiners (U+200B-U+200D, U+2060) and the byte-order mark. An answer is read without them, so that
"0\\u200f.6" is 0.6 as it shows, not "0" then ".6".

    visible("0\\u200f.6 [S1]") -> "0.6 [S1]"

Left out on purpose: what the page shows (the user's own text, unchanged) and other format characters (a soft
hyphen is read as written).
"""
from __future__ import annotations

import re

_INVISIBLE = re.compile("[\u200b-\u200f\u061c\u202a-\u202e\u2060\u2066-\u2069\ufeff]")


def visible(text: str) -> str:
    """The text without the marks above."""
    return _INVISIBLE.sub("", text)
