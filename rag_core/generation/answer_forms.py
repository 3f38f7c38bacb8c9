"""The forms a value takes in an answer, read for the answer-key rule: fractions, comparisons, calls, "A instead
of B" pairs and standalone symbols.

    fractions("4/3 or Fraction(8, 6)") -> [Fraction(4, 3), Fraction(4, 3)]
    comparisons("n < k, or k is greater than n") -> [('k', '>', 'n'), ('k', '>', 'n')]
    calls("Fraction(8, 6)") -> [('Fraction', ('8', '6'))]
    sequences("heappop() followed by heappush()") -> [('heappop', 'heappush')]
    pairs("'-' replaces '+'") -> [('-', '+')];  pairs("'+' becomes '-'") -> [('-', '+')]
    named_symbols("a hyphen for the plus") -> "'-' for '+'"
    symbols("uses '-' instead of '+'") -> ['-', '+']

Left out on purpose: arithmetic ("8/6" is read as a fraction, never computed further), comparisons of
expressions ("k + 1 > n" compares "1" and "n"), chained comparisons, and calls with nested brackets.
"""
from __future__ import annotations

import re
from fractions import Fraction

from rag_core.generation.citations import strip_citations

SYMBOL = re.compile(r"(?<!\S)['\"`(\[]*([-+*/%=<>!?^&|~_]{1,2})['\"`)\],.;:]*(?!\S)")   # '-', ">", (*), '?'
FRACTION = re.compile(r"(?<![\w./'\"])(\d+)\s*/\s*(\d+)(?![\w/]|\.\d|['\"](?![\s\[.,;:)!?]|$))")  # "4/3", "4 / 3",
# '"equivalent to 4/3" [S1]' (a quotation that ends with it); not "'123/456'", a string
CALL = re.compile(r"(?<![\w.])([A-Za-z_][\w.]*)\(([^()]{1,200})\)")                         # "Fraction(8, 6)"
_OP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_WORD_OP = {"greater": ">", "larger": ">", "bigger": ">", "more": ">", "less": "<", "smaller": "<", "fewer": "<"}
COMPARISON = re.compile(r"(?<![\w.])(\w+)\s*(<=|>=|==|!=|<|>)\s*(\w+)(?![\w(])"
                        r"|(?<![\w.])(\w+)\s+(?:is\s+|are\s+)?(greater|larger|bigger|more|less|smaller|fewer)\s+than"
                        r"\s+(\w+)(?!\w)|(?<![\w.])(\w+)\s+(exceeds?)\s+(\w+)(?!\w)", re.I)
_SYMBOL = r"('[^\s']{1,2}')"
# "swaps '+' for '-' and '/' for '_'", "replaces '+' with '-'": what is given up first, then what is used
_SWAP = re.compile(r"\b(?:swaps?|swapping|swapped|exchanges?|trades?|replac(?:es|e|ing))\s+(?:out\s+)?(?:the\s+)?"
                   + _SYMBOL + r"\s+(?:for|with|by)\s+(?:the\s+)?" + _SYMBOL +
                   r"(?:\s*,?\s+and\s+(?:the\s+)?" + _SYMBOL + r"\s+(?:for|with|by)\s+(?:the\s+)?" + _SYMBOL + ")?",
                   re.I)
_SWAPPED = re.compile(_SYMBOL + r"\s+(?:is|are|gets?|was|were)\s+(?:swapped|exchanged|traded|replaced)\s+(?:out\s+)?"
                      r"(?:for|with|by)\s+(?:the\s+)?" + _SYMBOL, re.I)
_PAIR = re.compile(r"(?<!\S)(\S+)\s+(?:is\s+used\s+)?instead\s+of\s+(\S+)|(?<!\S)(\S+)\s+replaces\s+(?:the\s+)?(\S+)"
                   r"|(?<!\S)(\S+)\s+(?:is\s+replaced\s+(?:by|with)|becomes|turns\s+into)\s+(\S+)"
                   r"|('[^\s']{1,2}')\s+for\s+(?:the\s+)?('[^\s']{1,2}')", re.I)
_SYMBOL_NAMES = {"asterisk": "*", "star": "*", "plus": "+", "minus": "-", "hyphen": "-", "dash": "-",
                 "underscore": "_", "slash": "/", "forward slash": "/", "question mark": "?"}
_SYMBOL_NAME = re.compile(r"\b(?:(?:a|an|the)\s+)?(" + "|".join(sorted(_SYMBOL_NAMES, key=len, reverse=True)) +
                          r")(?:\s+(?:sign|character|symbol|wildcard))?\b", re.I)


def named_symbols(text: str) -> str:
    """Symbols written by their names, as symbols: "a hyphen for the plus" -> "'-' for '+'"."""
    return _SYMBOL_NAME.sub(lambda m: f"'{_SYMBOL_NAMES[' '.join(m[1].lower().split())]}'", text)


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


_SYM = r"'([^\s']{1,2})'"
_RESPECTIVELY = re.compile(rf"{_SYM}\s*,?\s*and\s+{_SYM}\s*\(?\s*(?:for|instead\s+of|replac(?:e|ing))\s+(?:the\s+)?"
                           rf"{_SYM}\s*,?\s*and\s+(?:the\s+)?{_SYM}\s*,?\s*respectively", re.I)


_SEQUENCE = re.compile(r"(?<!\w)([A-Za-z_]\w*)\(\)\s+(?:(?:is|are)\s+)?(?:followed\s+by|and\s+then|then|before)\s+"
                       r"(?:[a-z]+\s+){0,5}?([A-Za-z_]\w*)\(\)")
_PLAIN_SEQUENCE = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s+(?:followed\s+by|and\s+then|then)\s+([A-Za-z_]\w*)(?![\w(])")


def sequences(text: str) -> list[tuple[str, str]]:
    """Calls in the order a text says they run: "heappush() followed by a separate call to heappop()" ->
    [('heappush', 'heappop')]; also two plain words side by side, "heappop followed by heappush" (the rule
    compares them with the key's calls only)."""
    return [(m[1], m[2]) for m in _SEQUENCE.finditer(text)] + [(m[1], m[2]) for m in _PLAIN_SEQUENCE.finditer(text)]


def pairs(text: str) -> list[tuple[str, str]]:
    """(what is used, what it replaces): "'-' instead of '+'", "'-' replaces '+'", "'+' becomes '-'", "'-' for
    '+'", "swaps '+' for '-'", "replaces '+' with '-'", "'+' is swapped for '-'" -> [('-', '+')];
    "'-' and '_' (for '+' and '/' respectively)" -> [('-', '+'), ('_', '/')]."""
    out = []
    for m in _SWAP.finditer(text):
        out += [(m[2].strip("'"), m[1].strip("'"))] + ([(m[4].strip("'"), m[3].strip("'"))] if m[3] else [])
    text = _SWAP.sub(" ", text)
    for m in _SWAPPED.finditer(text):                       # "'+' is swapped for '-'": '+' is given up
        out.append((m[2].strip("'"), m[1].strip("'")))
    text = _SWAPPED.sub(" ", text)
    for m in _PAIR.finditer(text):
        a, b = (m[1], m[2]) if m[1] else (m[3], m[4]) if m[3] else (m[6], m[5]) if m[5] else (m[7], m[8])
        out.append((a.strip("'\"`.,;:()"), b.strip("'\"`.,;:()")))
    for m in _RESPECTIVELY.finditer(text):                  # "'-' and '_' (for '+' and '/' respectively)"
        out += [(m[1], m[3]), (m[2], m[4])]
    return out
