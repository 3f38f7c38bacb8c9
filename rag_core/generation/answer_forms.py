"""The forms a value takes in an answer, read for the answer-key rule: fractions, comparisons, calls, "A instead
of B" pairs and standalone symbols.

    fractions("4/3 or Fraction(8, 6)") -> [Fraction(4, 3), Fraction(4, 3)]
    comparisons("n < k, or k is greater than n") -> [('k', '>', 'n'), ('k', '>', 'n')]
    calls("Fraction(8, 6)") -> [('Fraction', ('8', '6'))]
    pairs("'-' replaces '+'") -> [('-', '+')]
    symbols("uses '-' instead of '+'") -> ['-', '+']

Left out on purpose: arithmetic ("8/6" is read as a fraction, never computed further), comparisons of
expressions ("k + 1 > n" compares "1" and "n"), chained comparisons, and calls with nested brackets.
"""
from __future__ import annotations

import re
from fractions import Fraction

from rag_core.generation.verifier import strip_citations

SYMBOL = re.compile(r"(?<!\S)['\"`(\[]*([-+*/%=<>!?^&|~_]{1,2})['\"`)\],.;:]*(?!\S)")   # '-', ">", (*), '?'
FRACTION = re.compile(r"(?<![\w./])(\d+)\s*/\s*(\d+)(?![\w/]|\.\d)")            # "4/3", "4 / 3"
CALL = re.compile(r"([A-Za-z_][\w.]*)\(([^()]{1,200})\)")                         # "Fraction(8, 6)"
_OP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_WORD_OP = {"greater": ">", "larger": ">", "bigger": ">", "more": ">", "less": "<", "smaller": "<", "fewer": "<"}
COMPARISON = re.compile(r"(?<![\w.])(\w+)\s*(<=|>=|==|!=|<|>)\s*(\w+)(?![\w(])"
                        r"|(?<![\w.])(\w+)\s+(?:is\s+|are\s+)?(greater|larger|bigger|more|less|smaller|fewer)\s+than"
                        r"\s+(\w+)(?!\w)|(?<![\w.])(\w+)\s+(exceeds?)\s+(\w+)(?!\w)", re.I)
_PAIR = re.compile(r"(\S+)\s+(?:is\s+used\s+)?instead\s+of\s+(\S+)|(\S+)\s+replaces\s+(\S+)"
                   r"|(\S+)\s+is\s+replaced\s+(?:by|with)\s+(\S+)", re.I)


def symbols(text: str) -> list[str]:
    """The standalone symbols of a text, in order: "uses '-' instead of '+'" -> ['-', '+']; "k > n" -> ['>']."""
    return SYMBOL.findall(strip_citations(text))


def comparisons(text: str) -> list[tuple[str, str, str]]:
    """Comparisons, each as (left, op, right) with op one of > >= == != : "n < k" -> [('k', '>', 'n')]."""
    out = []
    for m in COMPARISON.finditer(text):
        if m[2]:
            a, op, b = m[1], m[2], m[3]
        elif m[5]:
            a, op, b = m[4], _WORD_OP[m[5].lower()], m[6]
        else:
            a, op, b = m[7], ">", m[9]
        if op in ("<", "<="):
            a, op, b = b, _OP[op], a
        out.append((a.lower(), op, b.lower()))
    return out


def fractions(text: str) -> list[Fraction]:
    """Fractions written a/b, and calls Fraction(a, b): "4/3 or Fraction(8, 6)" -> [4/3, 4/3]."""
    return [Fraction(a, b) for a, b in fraction_terms(text)]


def fraction_terms(text: str) -> list[tuple[int, int]]:
    """The terms of the fractions, as written: "4/3 or Fraction(8, 6)" -> [(4, 3), (8, 6)]."""
    out = [(int(a), int(b)) for a, b in FRACTION.findall(text) if int(b) and len(a + b) < 12]
    for name, args in CALL.findall(text):
        parts = [p.strip() for p in args.split(",")]
        if name.split(".")[-1] == "Fraction" and len(parts) == 2 and all(p.isdigit() and len(p) < 12 for p in parts) \
                and int(parts[1]):
            out.append((int(parts[0]), int(parts[1])))
    return out


def calls(text: str) -> list[tuple[str, tuple]]:
    return [(name.split(".")[-1], tuple(p.strip() for p in args.split(","))) for name, args in CALL.findall(text)]


def pairs(text: str) -> list[tuple[str, str]]:
    """(what is used, what it replaces): "'-' instead of '+'" and "'-' replaces '+'" -> [('-', '+')]."""
    out = []
    for m in _PAIR.finditer(text):
        a, b = (m[1], m[2]) if m[1] else (m[3], m[4]) if m[3] else (m[6], m[5])
        out.append((a.strip("'\"`.,;:()"), b.strip("'\"`.,;:()")))
    return out
