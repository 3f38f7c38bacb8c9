"""A CSV cell a spreadsheet opens as text, never as a formula, and the same cell read back.

    guard("=HYPERLINK(...)")     # "'=HYPERLINK(...)": a ' before what a spreadsheet would run (OWASP's list)
    guard(-0.5)                  # -0.5: numbers stay numbers
    unguard("'=HYPERLINK(...)")  # "=HYPERLINK(...)"; unguard("'quoted'") stays "'quoted'"

Every CSV we write goes through `guard` (the dashboard's downloads, `golden suggest` on the command line), and the
golden set's reader `unguard`s, so a set written and read back is the same set.

Left out on purpose: other ways a spreadsheet can be made to run something (DDE in other formats, macros): a CSV
holds only cells.
"""
from __future__ import annotations

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _formula_like(text: str) -> bool:
    """A formula's start, after any quotes a guard put before it: "=x", "'=x", "''-x"; not "'x" or "x"."""
    return text.lstrip("'").startswith(FORMULA_START)


def guard(value):
    """A text cell a spreadsheet would run as a formula, with ' before it; anything else unchanged. A text that
    already starts with quotes before a formula's start ("'-'" as an answer key) gets one more, so that `unguard`
    gives it back whole."""
    return "'" + value if isinstance(value, str) and _formula_like(value) else value


def unguard(cell: str) -> str:
    """A cell without the ' that `guard` put before a formula-like start: "'=x" -> '=x', "''-'" -> "'-'",
    "'x" -> "'x"."""
    return cell[1:].strip() if cell[:1] == "'" and _formula_like(cell[1:]) else cell
