"""Numbers as a sentence writes them, read strictly as values: digits, words, dates, times, versions, Roman
numerals and units. The claims of a span (rag_core.generation.claims) are built on these readings:

    numbers("Cutoff 0.60, sizes 1,000 and .5, not base64")
    -> [('0.60', Decimal('0.60')), ('1,000', Decimal('1000')), ('.5', Decimal('0.5'))]
    numbers("Python 3.10 since 2024-01-15, zero point nine")
    -> [('3.10', ('version', '3.10')), ('2024-01-15', ('date', 2024, 1, 15)), ('zero point nine', Decimal('0.9'))]
    with_units("5 s or 64 KiB") -> [('5 s', Decimal('5'), 's'), ('64 KiB', Decimal('64'), 'KiB')]

The rules, each with its examples in the README ("Checking an answer on its own"): text in NFKC form; a number is a
whole token compared by value (0.60 = 0.6, "64" is not in "base64"); numbers in words are numbers ("zero point
nine", "nine tenths"; "one" as a pronoun is not); YYYY-MM-DD is one date, H:MM(:SS) one time (am/pm read on 24
hours); a dotted number after "Python", "version", ... or with two dots is a version compared as written; Roman
numerals of I, V and X are claims; a unit after a number is part of it ("5 ms" is not "5 s").

Left out on purpose: units glued to a number ("10ms" is a name) or after numbers in words, converting units,
decimal commas, spaces as thousands separators, scientific notation, dates in other forms than YYYY-MM-DD, ratios
("3:2" is 3 and 2), time zones, ordinals, "dozen", "once", "twice", other languages. Every reading is linear in the
text's length and no number becomes an unbounded int, so no text makes it raise or hang.
"""
from __future__ import annotations

import bisect
import re
import unicodedata
from decimal import Decimal


# a number: not glued to a word ("base64", "2016.pdf"), an escape ("\0") or another number;
# "1,000", "1_000", "0.6", ".5", "3.14.1", "-2". A number never starts inside a run of digits and
# separators ("1,,2" is one token), so each run is scanned once: the time stays linear in the text.
NUMBER = re.compile(r"(?<![\w.\\])(?<![\d_.,],)(?P<sign>[-+]?)(?P<body>\.?\d[\d,_.]*)(?!\w|\.\w|[,_]\d)")
DATE = re.compile(r"(?<![\w.\\-])(\d{4})-(\d\d?)-(\d\d?)(?!(?!T\d)\w|[-.,]\d)")     # "2024-01-15", "2024-01-15T10:30"
# a time of day or a duration: "10:30", "09:05:59", "25:00", the "10:30:00" of "2024-01-15T10:30:00Z" (its fraction
# of a second aside), compared as the numbers it writes, in order
TIME = re.compile(r"(?:(?<=\dT)|(?<![\w:.]))(\d\d?)(?::(\d\d)(?::(\d\d(?:\.\d+)?))?(?!(?!Z\b)\w|:\d|\.\d)"
                  r"(?:[ \t]?([AaPp])\.?[Mm]\b\.?)?|[ \t]?([AaPp])\.?[Mm]\b\.?)")     # and "10:30 pm", "10 a.m."
VERSION_WORD = re.compile(r"(?<!\w)(?:python|py|cpython|pypy|versions?|ver|v|releases?)[ \t]{0,3}$", re.I)
THOUSANDS = re.compile(r"[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?")      # "1,000,000.5"; "0,100" is a list
_DIGIT = re.compile(r"\d")

_ONES = dict(zip("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                 "sixteen seventeen eighteen nineteen".split(), range(20)))
_TENS = dict(zip("twenty thirty forty fifty sixty seventy eighty ninety".split(), range(20, 100, 10)))
_SCALES = {"hundred": 100, "thousand": 1000, "million": 10 ** 6}
_PARTS = {w: d for d, ws in [(2, "half halves"), (3, "third thirds"), (4, "quarter quarters"), (5, "fifth fifths"),
                             (10, "tenth tenths"), (100, "hundredth hundredths"), (1000, "thousandth thousandths")]
          for w in ws.split()}
_A_BEFORE = {"hundred", "thousand", "million", "half", "quarter"}          # "a hundred", "a half"
_TOKENS = "|".join(sorted([*_ONES, *_TENS, *_SCALES, *_PARTS, "point", "and", "a"], key=len, reverse=True))
_FIRST = "".join(sorted({w[0] for w in _TOKENS.split("|")}))           # a first letter to look for: 3x faster
WORD_NUMBER = re.compile(rf"(?=[{_FIRST}])(?<![\w.])(?:{_TOKENS})(?!\w)(?:[\s-]+(?:{_TOKENS})(?!\w))*", re.I)
_PIECE = re.compile(r"[^\s-]+")
# the word before or after a "one", within its sentence ("the. One is" starts a sentence: a number)
_LAST_WORD, _FIRST_WORD = re.compile(r"(\w+)[^\w.!?]{0,3}$"), re.compile(r"[^\w.!?]{0,3}(\w+)")
_PRONOUN_BEFORE = frozenset("the this that which each every any no some another smaller larger lower higher bigger "
                            "lesser greater leftmost rightmost first last new other same earlier next".split())
_PRONOUN_AFTER = frozenset("of another can could may might must should would will".split())
ROMAN = re.compile(r"(?<![\w.])(?=[IVX]{2})X{0,3}(?:IX|IV|V?I{0,3})(?!\w|\.\w)")   # "II", "XIV."; not "I", "IIII"
_UNITS = {canonical: spellings.split() for canonical, spellings in [
    ("ns", "ns nsec nsecs nanosecond nanoseconds"), ("us", "us μs usec usecs microsecond microseconds"),
    ("ms", "ms msec msecs millisecond milliseconds"), ("s", "s sec secs second seconds"),
    ("min", "min mins minute minutes"), ("h", "h hr hrs hour hours"), ("day", "day days"), ("week", "week weeks"),
    ("month", "month months"), ("year", "year years yr yrs"), ("B", "byte bytes"), ("bit", "bit bits"),
    ("KB", "kb kilobyte kilobytes"), ("KiB", "kib kibibyte kibibytes"), ("MB", "mb megabyte megabytes"),
    ("MiB", "mib mebibyte mebibytes"), ("GB", "gb gigabyte gigabytes"), ("GiB", "gib gibibyte gibibytes"),
    ("TB", "tb terabyte terabytes"), ("TiB", "tib tebibyte tebibytes"), ("%", "% percent"), ("px", "px"),
    ("Hz", "hz"), ("kHz", "khz"), ("MHz", "mhz"), ("GHz", "ghz")]}
_UNIT_OF = {w: c for c, ws in _UNITS.items() for w in ws}
# a number in digits (as NUMBER reads it), spaces or a hyphen, a unit: "5 s", "16-byte", "1,000 ms"; "50%". "10ms"
# and "%6s" are names. Possessive: a run of a million digits is read once, not once per digit.
WITH_UNIT = re.compile(r"(?<![\w.\\])(?<![\d_.,],)(\.?\d[\d,_]*+(?:\.\d++)*+)(?:[ \t]{1,3}|-|(?=%))(" +
                       "|".join(sorted(map(re.escape, _UNIT_OF), key=len, reverse=True)) + r"|B)(?!\w|\.\w)", re.I)
SHARED = 10                     # numbers of one range or list that take the unit written after the last
# the numbers of a range or a list that a unit ends, read backwards: the "5" of "5-10 ms", "5 to 10 ms",
# "between 5 and 10 ms", "5, 10 or 20 ms"
_SHARED_UNIT = re.compile(r"(?<![\w.\\])(\.?\d[\d_]*(?:\.\d+)?)[ \t]*(?:,[ \t]*(?:and|or)?|-|to|and|or)[ \t]*\Z")
LONG = 200                      # numbers longer than this are not compared for "what the span has"


_DASH_BEFORE_DIGIT = re.compile(r"[\u2010-\u2015\u2212\ufe63\uff0d](?=\d)")   # hyphens, en/em dashes, minus signs
_MINUS_WORD = re.compile(r"\b(?:minus|negative)\s+$", re.I)


def normalize(text: str) -> str:
    """NFKC, and any dash or minus sign before a digit is "-": "０．６" -> "0.6", "−1" -> "-1", "–0.6" -> "-0.6"."""
    return _DASH_BEFORE_DIGIT.sub("-", unicodedata.normalize("NFKC", text).replace("\u2212", "-"))


def _minus_before(text: str, start: int) -> bool:
    """Whether the number at text[start:] is preceded by the word minus or negative: "minus zero point six"."""
    return bool(_MINUS_WORD.search(text[max(0, start - 12):start]))


def _valid(part: str) -> bool:
    """Digits with dots, no empty piece but a leading one: "0.6", ".5", "1000", "3.14.1"; not "1..2", "3.", "."."""
    pieces = part.split(".")
    return all(p.isdecimal() for p in pieces[1:]) and (pieces[0].isdecimal() or pieces[0] == "" and len(pieces) == 2)


def _integer(t: list[str], i: int) -> tuple[int, int] | None:
    """(value, next index) of the whole number written in words at t[i]: "two hundred and five" -> 205."""
    def below_hundred(j):
        if j < len(t) and t[j] in _ONES:
            return _ONES[t[j]], j + 1
        if j < len(t) and t[j] in _TENS:
            if j + 1 < len(t) and 0 < _ONES.get(t[j + 1], 0) < 10:
                return _TENS[t[j]] + _ONES[t[j + 1]], j + 2
            return _TENS[t[j]], j + 1
        return None

    def below_thousand(j):
        head = below_hundred(j) or ((1, j + 1) if j + 1 < len(t) and t[j] == "a" and t[j + 1] in _SCALES else None)
        if head is None:
            return None
        value, k = head
        if k < len(t) and t[k] == "hundred" and value:
            value, k = value * 100, k + 1
            tail = below_hundred(k + 1) if k < len(t) and t[k] == "and" else below_hundred(k)
            if tail:
                value, k = value + tail[0], tail[1]
        return value, k

    first = below_thousand(i)
    if first is None:
        return None
    total, (value, k), last_scale = 0, first, None
    while k < len(t) and t[k] in ("thousand", "million") and value and (last_scale is None or _SCALES[t[k]] < last_scale):
        last_scale = _SCALES[t[k]]
        total, k = total + value * last_scale, k + 1
        nxt = below_thousand(k + 1) if k < len(t) and t[k] == "and" else below_thousand(k)
        value, k = nxt if nxt else (0, k)
    return total + value, k


def _word_number(t: list[str], i: int) -> tuple[Decimal, int] | None:
    """(value, next index) of the number written in words at t[i], with its decimals or fraction, or None."""
    if t[i] == "a" and i + 1 < len(t) and t[i + 1] in ("half", "quarter"):
        return Decimal(1) / _PARTS[t[i + 1]], i + 2
    whole = _integer(t, i)
    if whole is None:
        return None
    value, k = Decimal(whole[0]), whole[1]
    if k + 1 < len(t) and t[k] == "point" and t[k + 1] in _ONES and _ONES[t[k + 1]] < 10:
        digits, k = [], k + 1
        while k < len(t) and t[k] in _ONES and _ONES[t[k]] < 10:
            digits, k = digits + [str(_ONES[t[k]])], k + 1
        return value + Decimal("0." + "".join(digits)), k
    if k < len(t) and t[k] in _PARTS:
        return value / _PARTS[t[k]], k + 1
    if k + 2 < len(t) and t[k:k + 3] == ["and", "a", "half"]:
        return value + Decimal("0.5"), k + 3
    return value, k


def _word_numbers(text: str) -> list[tuple[int, str, Decimal]]:
    """(position, as written, value) of each number written in words: "n is twenty-one" -> [(5, 'twenty-one', 21)]."""
    out = []
    for run in WORD_NUMBER.finditer(text):
        pieces = list(_PIECE.finditer(run[0]))
        t = [p[0].lower() for p in pieces]
        i = 0
        while i < len(t):
            got = _word_number(t, i)
            if got is None:
                i += 1
                continue
            value, j = got
            start, end = run.start() + pieces[i].start(), run.start() + pieces[j - 1].end()
            if not (j - i == 1 and t[i] == "one" and _pronoun(text, start, end)):
                negative = _minus_before(text, start)                             # "minus zero point six"
                out.append((start, text[start:end], -value if negative else value))
            i = j
    return out


def _pronoun(text: str, start: int, end: int) -> bool:
    """Whether the "one" at text[start:end] is a pronoun: "the one", "one of", "one can"."""
    before = _LAST_WORD.search(text[max(0, start - 16):start])
    after = _FIRST_WORD.match(text[end:end + 16])
    return bool(before and before[1].lower() in _PRONOUN_BEFORE or after and after[1].lower() in _PRONOUN_AFTER)


def numbers(text: str) -> list[tuple[str, object]]:
    """(as written, value) for every number of `text`, in order: "[0,1] and 1,000" -> [('0', 0), ('1', 1), ('1,000', 1000)].

    A value is a Decimal, ('version', as written), ('date', year, month, day), ('time', hour, minute, second) or
    ('roman', as written); see the module's rules.
    """
    text = normalize(text)
    found = [(m.start(), m[0], ("date", int(m[1]), int(m[2]), int(m[3]))) for m in DATE.finditer(text)]
    found += [(m.start(), m[0].rstrip("."), _time(m)) for m in TIME.finditer(text)]
    dates = sorted((s, s + len(lit)) for s, lit, _ in found)
    starts = [s for s, _ in dates]
    for m in NUMBER.finditer(text):
        d = bisect.bisect_right(starts, m.start()) - 1
        if d >= 0 and m.start() < dates[d][1]:
            continue                                                    # a piece of a date or a time
        body = m["body"].rstrip(",_.")
        parts = [body] if THOUSANDS.fullmatch(body.replace("_", "")) else body.split(",")
        offset = m.start("body")
        for i, part in enumerate(parts):
            part = part.strip("_").rstrip(".")
            plain = part.replace(",", "").replace("_", "")
            if not _valid(plain):
                continue
            literal = ("-" if i == 0 and m["sign"] == "-" else "") + part
            if plain.count(".") > 1 or "." in plain and i == 0 and VERSION_WORD.search(text, max(0, m.start() - 12),
                                                                                      m.start()):
                value = ("version", plain)
            else:
                value = Decimal(plain)
                if not literal.startswith("-") and _minus_before(text, m.start()):
                    literal = "-" + literal                                      # "minus 0.6"
                value = value.copy_negate() if literal.startswith("-") else value     # exact, whatever its length
            found.append((offset, literal, value))
            offset += len(part) + 1
    found += _word_numbers(text)
    found += [(m.start(), m[0], ("roman", m[0])) for m in ROMAN.finditer(text)]
    return [(lit, value) for _, lit, value in sorted(found, key=lambda f: f[0])]


def _time(m: re.Match) -> tuple:
    """('time', hour, minute, second) of "10:30"; ('ampm', hour of 24, minute, second) of "10:30 pm", "10 a.m."."""
    hour, minute, second, meridiem = int(m[1]), int(m[2] or 0), Decimal(m[3] or 0), (m[4] or m[5] or "").lower()
    if not meridiem:
        return "time", hour, minute, second
    return "ampm", hour % 12 + (12 if meridiem == "p" else 0), minute, second


def roman_value(numeral: str) -> int:
    """The value of a valid numeral of I, V and X: "XIV" -> 14."""
    values = [{"I": 1, "V": 5, "X": 10}[c] for c in numeral.upper()]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


def with_units(text: str) -> list[tuple[str, Decimal, str]]:
    """(as written, value, unit) of each number in digits followed by a unit: "5 s or 64 KiB" ->
    [('5 s', Decimal('5'), 's'), ('64 KiB', Decimal('64'), 'KiB')]; "1,000 ms" is 1000, "0,100 ms" 100."""
    out, text = [], normalize(text)
    for m in WITH_UNIT.finditer(text):
        digits, unit = m[1].rstrip(",_"), m[2]
        canonical = "B" if unit == "B" else _UNIT_OF.get(unit.lower())   # None: "5 b" (no unit), "5 mİn"
        if canonical is None:
            continue
        if "," in digits and not THOUSANDS.fullmatch(digits.replace("_", "")):
            digits = digits.rsplit(",", 1)[1]                 # a list: the number the unit follows
        plain_digits = digits.replace(",", "").replace("_", "")
        if _valid(plain_digits) and plain_digits.count(".") <= 1:
            out.append((m[0], Decimal(plain_digits), canonical))
            start = m.start()
            for _ in range(SHARED):                           # "5-10 ms": 5 is in ms too
                before = _SHARED_UNIT.search(text, max(0, start - 40), start)
                if not before:
                    break
                out.append((f"{before[1]} {unit}", Decimal(before[1].replace("_", "")), canonical))
                start = before.start()
    return out


def in_digits(literal: str, value) -> str:
    """The number in digits, for comparing how it looks: ('zero point nine', 0.9) -> "0.9"; ('3.10', ...) -> "3.10"."""
    if isinstance(value, Decimal) and not _DIGIT.search(literal):
        return format(value.normalize(), "f") if len(literal) < LONG else literal
    return literal
