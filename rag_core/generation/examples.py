"""Examples an answer gives, run: a call of a standard-library function on literal values, or a sum of numbers,
followed by the result the answer says it has ("`math.comb(3, 5)  # -> 0`", "harmonic_mean([40, 60]) returns 48.0",
">>> Fraction(8, 6)" then "Fraction(4, 3)", "2 / (1/40 + 1/60) = 48"). An example whose result Python gives agrees;
its numbers are checked by running, not looked for in the span (verifier). One whose result Python does not give
disagrees, and the answer is not green (judgement).

    run("`math.comb(3, 5)  # -> 0`") -> [Example(call="math.comb(3, 5)", said="0", got="0", agrees=True, ...)]
    run("median_low([1, 3, 5, 7]) gives 5") -> [Example(call='median_low([1, 3, 5, 7])', said='5', got='3',
                                                        agrees=False)]

Nothing is executed but the functions of _FUNCTIONS on values read by ast.literal_eval, and + - * / // % ** on
numbers, each bounded (_fits: a million, 200 characters, 1,000 items and characters in all the arguments of a call):
no name lookup, no attribute, no import; a name is the literal the text bound it to ("with a = [1, 2, 2, 3],
bisect_left(a, 2) returns 1"), and insort and heappush, which change their list, run on a copy and give the list
after ("insort([1, 2, 2, 3], 2) gives [1, 2, 2, 2, 3]"). Left out on purpose: an example with no stated result
(its numbers stay claims), results written in prose ("a final group with just one item"), and any function with a
side effect outside its list (glob, tempfile, gzip's timestamp).
"""
from __future__ import annotations

import ast
import base64
import bisect
import difflib
import fnmatch
import heapq
import math
import operator
import re
import statistics
import textwrap
from fractions import Fraction
from typing import NamedTuple

from rag_core.text.arguments import text_argument

MOST = 20                       # examples of one text run (each is parsed and run: a 1 MB answer of calls stays fast)
_LONG = 300                     # characters of a call or a result read


class Example(NamedTuple):
    call: str           # as written: "math.comb(3, 5)"
    said: str           # the result the answer states: "0"
    got: str            # what Python gives: "0", or the exception's name: "StatisticsError"
    agrees: bool
    start: int = 0      # where it is in the text, from the call to the end of the stated result
    end: int = 0
    inputs: tuple = ()  # (start, end) of each binding of a name it calls with ("a = [1, 2, 2, 3]")

    @property
    def places(self) -> tuple:
        """(start, end) of the example and of each literal its names are bound to: what running it checks."""
        return ((self.start, self.end), *self.inputs)


def _batched(iterable, n, *, strict=False):
    """itertools.batched as its documentation describes it (Python 3.12), for an interpreter without it."""
    if n < 1:
        raise ValueError("n must be at least one")
    items = list(iterable)
    out = [tuple(items[i:i + n]) for i in range(0, len(items), n)]
    if strict and out and len(out[-1]) != n:
        raise ValueError("batched(): incomplete batch")
    return iter(out)


def _copying(f):
    """A function of the heapq or bisect family run on a copy of its list: the example's list is a literal."""
    return lambda a, *rest, **kw: f(list(a), *rest, **kw)


def _after(f):
    """A function that changes its list in place (insort, heappush) run on a copy: its result is the list after."""
    def changed(a, *rest, **kw):
        items = list(a)
        f(items, *rest, **kw)
        return items
    return changed


_CHANGING = {"insort": _after(bisect.insort_right), "insort_right": _after(bisect.insort_right),   # they change
             "insort_left": _after(bisect.insort_left), "heappush": _after(heapq.heappush)}       # their list
_FUNCTIONS = {
    "comb": math.comb, "perm": math.perm, "factorial": math.factorial, "gcd": math.gcd, "lcm": math.lcm,
    "isqrt": math.isqrt, "sqrt": math.sqrt, "floor": math.floor, "ceil": math.ceil, "fsum": math.fsum,
    "prod": math.prod, "mean": statistics.mean, "fmean": statistics.fmean, "median": statistics.median,
    "median_low": statistics.median_low, "median_high": statistics.median_high,
    "harmonic_mean": statistics.harmonic_mean, "geometric_mean": statistics.geometric_mean, "mode": statistics.mode,
    "multimode": statistics.multimode, "stdev": statistics.stdev, "pstdev": statistics.pstdev,
    "variance": statistics.variance, "pvariance": statistics.pvariance,
    "bisect_left": bisect.bisect_left, "bisect_right": bisect.bisect_right, "bisect": bisect.bisect_right,
    "heappushpop": _copying(heapq.heappushpop), "heapreplace": _copying(heapq.heapreplace),
    **_CHANGING,
    "nlargest": heapq.nlargest, "nsmallest": heapq.nsmallest, "Fraction": Fraction,
    "shorten": textwrap.shorten, "wrap": textwrap.wrap, "fill": textwrap.fill, "dedent": textwrap.dedent,
    "batched": _batched, "b64encode": base64.b64encode, "b64decode": base64.b64decode,
    "urlsafe_b64encode": base64.urlsafe_b64encode, "urlsafe_b64decode": base64.urlsafe_b64decode,
    "get_close_matches": difflib.get_close_matches, "fnmatch": fnmatch.fnmatchcase,
    "list": list, "tuple": tuple, "sorted": sorted, "len": len, "abs": abs, "round": round, "float": float,
    "int": int, "sum": sum, "min": min, "max": max,
}
_MODULES = frozenset("math statistics bisect heapq fractions textwrap itertools base64 difflib fnmatch".split())
_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
              ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_TEXT = 200                     # characters of a text an example may hold
_SMALL_NUMBERS = {"comb": 10 ** 4, "perm": 10 ** 4, "factorial": 10 ** 4, "round": 100, "wrap": 1000,
                  "fill": 1000, "shorten": 1000, "get_close_matches": 1000}   # the largest number they may be given
_NUMBERS_ONLY = frozenset({"Fraction", "int", "float", "round"})     # a text would be parsed: "1e999999999"
_BIG = 10 ** 6                  # the largest number an example may hold
_SMALL = 10 ** 4                # the largest base of a power


class _Unsafe(Exception):
    """The expression is not an example this module runs."""


def _fits(value, depth: int = 0) -> bool:
    """Whether a value is small enough to run on: numbers up to _BIG, texts up to _TEXT characters, collections of
    1,000 items and characters in all."""
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, Fraction):                 # 1/10**5000 is small, and has 5,000 digits to show
        return abs(value) <= _BIG and value.denominator <= _BIG ** 2
    if isinstance(value, (int, float)):
        return abs(value) <= _BIG
    if isinstance(value, (str, bytes)):
        return len(value) <= _TEXT
    if isinstance(value, (list, tuple, set, frozenset)):
        return depth < 3 and len(value) <= 1000 and all(_fits(v, depth + 1) for v in value) and \
            _size(value) <= 1000
    return False


def _size(value) -> int:
    """Items and characters in a value, all levels: what a call on it may have to go through."""
    if isinstance(value, (str, bytes)):
        return len(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        return len(value) + sum(_size(v) for v in value)
    return 1


def _value(node: ast.AST):
    """The value of a node: a literal, a call of _FUNCTIONS, a sign or an operation on numbers; else _Unsafe."""
    if isinstance(node, ast.Call):
        return _call(node)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _value(node.operand)
        if not isinstance(v, (int, float, Fraction)) or isinstance(v, bool):
            raise _Unsafe
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        a, b = _value(node.left), _value(node.right)
        if not all(isinstance(x, (int, float, Fraction)) and not isinstance(x, bool) for x in (a, b)):
            raise _Unsafe
        if isinstance(node.op, ast.Pow) and (abs(b) > 64 or abs(a) > _SMALL):
            raise _Unsafe
        out = _OPERATORS[type(node.op)](a, b)
        if not _fits(out):
            raise _Unsafe
        return out
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        items = [_value(e) for e in node.elts]
        return {ast.List: list, ast.Tuple: tuple, ast.Set: set}[type(node)](items)
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise _Unsafe from None
    if not _fits(value):
        raise _Unsafe
    return value


def _call(node: ast.Call):
    """Run a call of _FUNCTIONS ("math.comb(3, 5)", "list(batched('ABCDEFG', 3))") on values that fit."""
    f = node.func
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in _MODULES:
        name = f.attr
    elif isinstance(f, ast.Name):
        name = f.id
    else:
        raise _Unsafe
    if name not in _FUNCTIONS:
        raise _Unsafe
    args = [_value(a) for a in node.args]
    kwargs = {k.arg: _value(k.value) for k in node.keywords if k.arg}
    if len(kwargs) != len(node.keywords) or sum(_size(v) for v in [*args, *kwargs.values()]) > 1000:
        raise _Unsafe                           # get_close_matches on 1,000 texts of 1,000 characters: minutes
    if name in _NUMBERS_ONLY and (len(args) > 2 or kwargs and name != "round"):
        raise _Unsafe                           # int("10", base=...) and the like: one value, read as a number
    numbers = [v for v in [*args, *kwargs.values()] if isinstance(v, (int, float, Fraction))]
    if name in _SMALL_NUMBERS and any(abs(v) > _SMALL_NUMBERS[name] for v in numbers) or \
            name in _NUMBERS_ONLY and any(isinstance(v, (str, bytes)) for v in args) and \
            not (name == "Fraction" and len(args) == 2):      # Fraction('8', '6'): a TypeError, nothing parsed
        raise _Unsafe                           # comb(10**6, 5 * 10**5), fill(tabsize=10**6), round(x, -10**6),
    #                                             Fraction("1e999999999"): minutes
    out = _FUNCTIONS[name](*args, **kwargs)
    if name == "batched":
        out = list(out)                     # an iterator shows as its batches
    if not _fits(out):
        raise _Unsafe
    return out


class _Bound(ast.NodeTransformer):
    """A call's names that the text bound to a literal ("a = [1, 2, 2, 3]") replaced by the literal."""

    def __init__(self, bound: dict):
        self.bound = bound

    def visit_Name(self, node: ast.Name):
        return self.bound.get(node.id, node) if node.id not in _FUNCTIONS else node


def _evaluate(text: str, bound: dict | None = None):
    """(value, exception name or "") of an expression written in an answer, its names bound as `bound` says
    (name -> the literal's tree); _Unsafe when it is not one to run."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        raise _Unsafe from None
    if bound:
        tree = _Bound(bound).visit(tree)
    try:
        return _value(tree.body), ""
    except _Unsafe:
        raise
    except Exception as e:                      # what the function raises is its result: StatisticsError,
        return None, type(e).__name__           # ValueError, wrap(5)'s AttributeError


# where an example starts: a function of _FUNCTIONS, maybe after its module, or a number opening a sum
_START = re.compile(r"(?<![\w.])(?:(?:" + "|".join(sorted(_MODULES)) + r")\.)?(?:" +
                    "|".join(sorted(_FUNCTIONS, key=len, reverse=True)) + r")\(|(?<![\w.\d/])\(?\d[\d.]*\s*[-+*/]")
_SAYS = re.compile(r"[`\s]*(?:#\s*)?(?:->|\u2192|=>|==|=(?!=)|returns?|gives?(?:\s+(?:you|back))?|yields?|is|"
                   r"evaluates\s+to|comes\s+(?:back|out)\s+as|produces|raises|leaves(?:\s+[A-Za-z_]\w*\s+as)?|\n)"
                   r"[\s`]*(?:(?:a|an)\s+)?", re.I)
_SUM_SIGN = re.compile(r"\d\s*[-+*/]")
_NEXT_ITEM = re.compile(r"`?[ \t]*(?:,[ \t]*(?:and[ \t]+)?|(?<=[ \t])and[ \t]+)(?:then[ \t]+|finally[ \t]+)?`?"
                        r"(?=[\[('\"])")     # ", (", ", '", " and then (": another item of the result
_CODE_SAYS = re.compile(r"[`\s]*(?:#\s*)?(?:->|\u2192|=>|==)")
_GOES_ON = re.compile(r"[`'\"]?\s*(?:,\s*[\[({'\"]|(?:,\s*)?(?:and|or)\s+(?:then\s+)?(?:just\s+)?[\[({'\"])")
#                       one run of spaces at a time, in these two: 64 KB of spaces after a result took 18 to 50 s
_NUMBER = re.compile(r"-?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?(?:[eE]-?\d+)?(?:\s*/\s*\d+(?:\.\d+)?)?")   # 5,040
_EXCEPTION = re.compile(r"(?:[a-z]+\.)?([A-Z]\w*(?:Error|Exception))\b")


def _closing(text: str, start: int) -> int:
    """The end of the call or the bracket opened before `start`, quotes read; -1 when it does not close soon."""
    depth, quote, i = 0, "", start
    while i < len(text) and i < start + _LONG:
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


def _sum_end(text: str, start: int) -> int:
    """The end of a sum of numbers ("2 / (1/40 + 1/60)") that starts at `start`, before its "=" or its words."""
    m = re.compile(r"[\d.\s+\-*/()]{1,%d}" % _LONG).match(text, start)
    end = m.end() if m else start
    while end > start and text[end - 1] in " \t\n+-*/(":
        end -= 1
    return end


def _stated(text: str, start: int) -> tuple[str, object, str] | None:
    """(as written, value, exception name) of the result stated at `start`, else None."""
    if text.startswith(("b'", 'b"'), start) or text[start:start + 1] in "'\"([{" or \
            re.match(r"[A-Za-z]\w*\(", text[start:start + 40]):
        end = _closing(text, start + (1 if text[start] == "b" else 0)) if text[start:start + 1] in "([{" or \
            re.match(r"[A-Za-z]\w*\(", text[start:start + 40]) else _quote_end(text, start)
        if end < 0:
            return None
        written = text[start:end]
        try:
            value, raised = _evaluate(written)
        except _Unsafe:
            return None
        return written, value, raised
    if text.startswith("Traceback", start):                  # ">>> fmean([])", "Traceback ...", "...Error: ..."
        m = _EXCEPTION.search(text, start, start + _LONG)
        line_end = text.find("\n", m.end()) if m else -1
        return (text[start:line_end if line_end > 0 else len(text)], None, m[1]) if m else None
    m = _NUMBER.match(text, start) or _EXCEPTION.match(text, start)
    if not m:
        m = re.match(r"(?:True|False|None)\b", text[start:start + 6])
        return (m[0], {"True": True, "False": False, "None": None}[m[0]], "") if m else None
    if m.re is _EXCEPTION:
        return m[0], None, m[1]
    written = m[0].replace(" ", "").replace(",", "")
    if len(written) > 40:                       # "111...1/3" of 5,000 digits: no result anyone reads
        return None
    top, _, bottom = written.partition("/")
    if bottom and top.lstrip("-").isdigit() and bottom.isdigit() and int(bottom):
        return m[0], Fraction(int(top), int(bottom)), ""       # "4/3" written as a result is the fraction
    try:
        return m[0], _evaluate(written)[0], ""
    except _Unsafe:
        return None


def _quote_end(text: str, start: int) -> int:
    """The end of the quoted text (a b'' bytes literal too) that starts at `start`, else -1."""
    q = start + (1 if text[start] == "b" else 0)
    end = text.find(text[q], q + 1, q + _LONG)
    return end + 1 if end > 0 else -1


def _same(got, raised: str, value, said_raised: str) -> bool:
    """Whether the stated result is what Python gave: the same exception, or an equal value (a float to 9 digits,
    an exact result exactly: Fraction(8, 6) is not 1.3333333333333333; an iterator as its items)."""
    if raised or said_raised:
        return raised == said_raised
    if isinstance(got, (int, float, Fraction)) and isinstance(value, (int, float, Fraction)) and \
            not isinstance(got, bool) and not isinstance(value, bool):
        if isinstance(got, float) or isinstance(value, float) and not isinstance(got, Fraction):
            return math.isclose(got, value, rel_tol=1e-9, abs_tol=1e-12)
        return Fraction(value) == got          # an exact result: Fraction(8, 6) is 4/3, not 1.3333333333333333
    return got == value or isinstance(got, (list, tuple)) and isinstance(value, (list, tuple)) and \
        list(got) == list(value)


# a name bound to a literal: "a = [1, 2, 2, 3]", "with data = (40, 60),", "x=2"
_BIND = re.compile(r"(?<![\w.=!<>])([A-Za-z_]\w{0,30})[ \t]*=(?!=)[ \t]*(?=[\[({'\"\d-])")
BINDINGS = 20                   # names bound in one text at most (the first ones)
_LITERAL = r"(?:-?\d+(?:\.\d+)?|'[^'\n]{0,40}'|\"[^\"\n]{0,40}\"|\[[^\[\]\n]{0,200}\]|\([^()\n]{0,200}\))"
_BIND_MANY = re.compile(rf"(?<![\w.=!<>])([A-Za-z_]\w{{0,30}}(?:[ \t]*,[ \t]*[A-Za-z_]\w{{0,30}}){{1,4}})[ \t]*=(?!=)[ \t]*"
                        rf"({_LITERAL}(?:[ \t]*,[ \t]*{_LITERAL}){{1,4}})")      # "n, k = 3, 5"


def _bindings(text: str) -> list[tuple[int, int, str, ast.AST]]:
    """(where it starts, where it ends, name, the literal's tree) of each name the text binds to a literal that
    fits (see _fits)."""
    out = []
    for m in _BIND.finditer(text):
        if len(out) >= BINDINGS:
            break
        start = m.end()
        number = _NUMBER.match(text, start)
        end = _closing(text, start) if text[start] in "[({" else _quote_end(text, start) if text[start] in "'\"" \
            else number.end() if number else -1
        if end <= start:
            continue
        try:
            tree = ast.parse(text[start:end], mode="eval").body
            _value(tree)
        except (_Unsafe, SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
            continue
        out.append((m.start(), end, m[1], tree))
    for m in _BIND_MANY.finditer(text):         # "n, k = 3, 5": each name its item
        names = [n.strip() for n in m[1].split(",")]
        try:
            tree = ast.parse(m[2], mode="eval").body
            items = tree.elts if isinstance(tree, ast.Tuple) else []
            for item in items:
                _value(item)
        except (_Unsafe, SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
            continue
        if len(items) == len(names) and len(out) + len(names) <= BINDINGS:
            out += [(m.start(), m.end(2), name, item) for name, item in zip(names, items)]
    return out


def run(text: str) -> list[Example]:
    """The examples of a text that state a result, each run (see the module): at most MOST of them. A name in a
    call is the literal the text bound it to last before the call ("with a = [1, 2, 2, 3], bisect_left(a, 2)
    returns 1")."""
    text_argument(text, "text")
    out, at = [], 0
    if "(" not in text and not _SUM_SIGN.search(text):     # most sentences: nothing to run
        return out
    binds = _bindings(text) if "=" in text else []
    for tried, m in enumerate(_START.finditer(text)):
        if len(out) >= MOST or tried >= 10 * MOST:      # 100,000 "comb(" that never close: read the first ones
            break
        if m.start() < at:
            continue
        is_sum = not m[0].endswith("(") or m[0][0] == "("
        end = _sum_end(text, m.start()) if is_sum else _closing(text, m.end() - 1)
        if end <= m.start():
            continue
        call = text[m.start():end]
        says = _SAYS.match(text, end)
        if not says or is_sum and not re.match(r"[`\s]*(?:=|==|is|equals)", text[end:end + 8]) or \
                call.endswith("()") and not _CODE_SAYS.match(text, end):      # "fmean() raises ... when": a name
            continue
        try:
            bound = {name: (start, end_of, tree) for start, end_of, name, tree in binds if end_of <= m.start()}
            got, raised = _evaluate(call, {name: tree for name, (_, _, tree) in bound.items()})
        except _Unsafe:
            continue
        function = m[0].rstrip("(").rsplit(".", 1)[-1]
        if function in _CHANGING and not raised:
            changed = re.match(r"\(\s*([A-Za-z_]\w*)\s*,", call[len(m[0]) - 1:])
            if changed and changed[1] in bound:         # "heappush(h, 0) ..., then heappush(h, 2)": h as changed
                binds.append((bound[changed[1]][0], end, changed[1], ast.parse(repr(got), mode="eval").body))
            if re.search(r"return|==", says[0], re.I):   # insort returns None: the list after is what it "gives"
                got = None
        stated = _stated(text, says.end())
        if stated is None:
            continue
        said, value, said_raised = stated
        items, end = [value], says.end() + len(said)
        while not said_raised and said[:1] in "([" and (comma := _NEXT_ITEM.match(text, end)) and len(items) < 100:
            more = _stated(text, comma.end())          # "yields ('A', 'B', 'C'), ('D', 'E', 'F') and then ('G',)":
            if more is None or more[2]:                # what it yields, item by item
                break
            items.append(more[1])
            end = comma.end() + len(more[0])
        if len(items) > 1:
            value, said = tuple(items), text[says.end():end]
        if _GOES_ON.match(text, says.end() + len(said)):     # "gives ('A', 'B', 'C'), ('D', 'E', 'F'), or":
            continue                                          # a result written in pieces read no further
        got_shown = raised or repr(got)
        used = tuple((b[0], b[1]) for name, b in bound.items() if re.search(rf"(?<![\w.]){name}(?![\w(])", call))
        out.append(Example(call, said, got_shown, _same(got, raised, value, said_raised), m.start(),
                           says.end() + len(said), used))
        at = says.end() + len(said)
    return out


_WRAPPERS = frozenset("list tuple sorted len abs round float int sum min max".split())
_CALLED = re.compile(r"([A-Za-z_]\w*)\s*\(")


def documents(e: Example, documented) -> bool:
    """Whether an example runs the documented function: every function it calls but list(), len() and the like is
    one `documented(name)` accepts (a name the spans, their sections or the question write), and it calls one.
    "mean([40, 60]) gives 50" does not document harmonic_mean, nor "(40 + 60) / 2 = 50" anything."""
    called = [n for n in _CALLED.findall(e.call) if n not in _WRAPPERS]
    return bool(called) and all(documented(n) for n in called)


def checked_places(text: str, documented=lambda name: True, in_span=lambda said: False) -> list[tuple[int, int]]:
    """Where the examples of a text that agree with Python and run a documented function are (from the call to the
    end of its result), and the sums whose result `in_span` accepts: "2 / (1/40 + 1/60) = 48" shows how the span's
    48.0 comes about ("(40 + 60) / 2 = 50" is true and the span has no 50: its numbers stay claims)."""
    return [place for e in run(text) if e.agrees and (documents(e, documented) or not _CALLED.search(e.call) and
                                                     in_span(e.said)) for place in e.places]


_IMPORT = re.compile(r"^[ \t]*(?:>>>[ \t]*)?(?:from[ \t]+[\w.]+[ \t]+)?import[ \t]+[\w., \t]+$", re.M)
_CODE_DRESS = re.compile(r"```\w*|>>>|\.\.\.|[`#>\-\u2192=:,.;!?()\[\]\s]+")


def outside(text: str, documented=lambda name: True) -> str | None:
    """The words of a text outside its examples, when it has examples and Python agrees with every one, each
    running a documented function ("For instance, `comb(3, 5)` gives 0." -> "For instance"); else None."""
    examples = run(text)
    if not examples or not all(e.agrees and documents(e, documented) for e in examples):
        return None
    rest, at = [], 0
    for start, end in sorted({place for e in examples for place in e.places}):       # with their bound literals
        rest.append(text[at:max(at, start)])
        at = max(at, end)
    rest.append(text[at:])
    return " ".join(_CODE_DRESS.sub(" ", _IMPORT.sub(" ", " ".join(rest))).split())


def few_words(words: str) -> bool:
    """Whether the words beside a text's examples are three at most, each one that introduces an example ("For
    instance", "e.g.", "Quick test"; not "Negative k gives" or "Raises ValueError instead", which say something)."""
    said = re.findall(r"[A-Za-z]+", words)
    return len([w for w in said if len(w) > 1]) <= 3 and all(w.lower() in _INTRO for w in said)


_INTRO = frozenset("for example examples instance e g eg i ie like this so see here try it quick test demo usage output "
                   "run in python repl session shell check such as tiny sample with".split())


def only_examples(text: str, documented=lambda name: True) -> bool:
    """Whether a text is examples Python agrees with and little else: at most three words beside them ("For
    instance, `comb(3, 5)` gives 0."), not a claim that holds an example ("the average is simply (40 + 60) / 2 =
    50 km/hr, since ...")."""
    words = outside(text, documented)
    return words is not None and few_words(words)


_SAYS_IT_FAILS = re.compile(r"\b(?:rais\w*|errors?|exceptions?|fails?|failing|invalid|rejects?|rejected|refuses?|"
                            r"cannot|can't|can\u2019t|won't|won\u2019t|not\s+(?:allowed|accepted|work|valid|possible)|"
                            r"must|only|never|don't|don\u2019t|doesn't|doesn\u2019t|isn't|isn\u2019t)\b", re.I)


def fails_unsaid(text: str) -> Example | None:
    """The first call of a documented function the text gives with no stated result ("Floats work too, e.g.
    `Fraction(8.0, 6.0)`") that raises when Python runs it, while its sentence says nothing of an error or a
    limit (no "raises", "error", "must", "can't", ...): an example shown as working that does not; else None."""
    if "(" not in text:
        return None
    stated = [(e.start, e.end) for e in run(text)]
    for tried, m in enumerate(_START.finditer(text)):
        if tried >= 10 * MOST:
            break
        if not m[0].endswith("(") or m[0][0] == "(" or any(a <= m.start() < b for a, b in stated):
            continue
        end = _closing(text, m.end() - 1)
        if end <= m.start() or not text[m.end():end - 1].strip():      # "heappush()" names the function
            continue
        try:
            _, raised = _evaluate(text[m.start():end])
        except _Unsafe:
            continue
        left = max(text.rfind(". ", 0, m.start()), text.rfind("\n", 0, m.start()))
        right = min((p for p in (text.find(". ", end), text.find("\n", end)) if p >= 0), default=len(text))
        around = text[left + 1:m.start()] + " " + text[end:right]
        if raised and not _SAYS_IT_FAILS.search(around) and raised.lower() not in around.lower():
            return Example(text[m.start():end], "", raised, False, m.start(), end)
    return None
