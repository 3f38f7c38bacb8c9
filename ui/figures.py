"""Figures as the pages show them, and as a caption compares them: a share at three decimals, a count as an integer,
"n/a" for a missing value (`share`, `count`, `shown`, `plural`, `nothing`).

    share(0.3888) -> '0.389';  count(114.0) -> '114';  shown(0.99996) -> 1.0;  share(nan) -> 'n/a'

Left out on purpose: percentages and milliseconds (each caption writes its own, at the precision its table shows)
and any sentence (ui.captions).
"""
from __future__ import annotations

import math

import pandas as pd


def share(x) -> str:
    """A share as the pages show it: 0.3888 -> '0.389'; NaN -> 'n/a'."""
    return "n/a" if pd.isna(x) else f"{x:.3f}"


def count(x) -> str:
    """A count: 114.0 -> '114'; NaN -> 'n/a'."""
    return "n/a" if pd.isna(x) else str(int(x))


def shown(x) -> float:
    """The value a reader compares: the share at its displayed precision (NaN stays NaN). 0.99996 -> 1.0"""
    return math.nan if pd.isna(x) else round(float(x), 3)


def nothing(what: str) -> str:
    return f"Nothing to show: the {what} table is empty."


def plural(n, one: str, many: str) -> str:
    """(1, 'answer is', 'answers are') -> '1 answer is'; NaN -> 'n/a answers are'."""
    return f"{count(n)} {one if not pd.isna(n) and int(n) == 1 else many}"
