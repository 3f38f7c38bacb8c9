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


def guard(value):
    """A text cell a spreadsheet would run as a formula, with ' before it; anything else unchanged."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_START) else value


def unguard(cell: str) -> str:
    """A cell without the ' that `guard` put before a formula-like start: "'=x" -> '=x', "'x" -> "'x"."""
    return cell[1:].strip() if cell[:1] == "'" and cell[1:2] in FORMULA_START else cell
