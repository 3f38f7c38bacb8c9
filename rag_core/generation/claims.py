"""What a sentence claims, read strictly: numbers as values, dates as dates, versions as written, names whole.

The article's checker compares characters, so "0" is found inside "0.6" and "combinations" inside
"combinations_with_replacement". The strict checker compares claims instead, read by this module:

    numbers("Cutoff 0.60, sizes 1,000 and .5, not base64")
    -> [('0.60', Decimal('0.60')), ('1,000', Decimal('1000')), ('.5', Decimal('0.5'))]
    numbers("Python 3.10 since 2024-01-15, zero point nine")
    -> [('3.10', ('version', '3.10')), ('2024-01-15', ('date', 2024, 1, 15)), ('zero point nine', Decimal('0.9'))]
    names("Use itertools.combinations or b64encode, e.g. now") -> ['itertools.combinations', 'b64encode']
    Claims("see itertools.combinations_with_replacement").has_name("itertools.combinations") -> False
    closest("0", ["0.6", "1"]) -> "0.6"

Every text is first put in Unicode compatibility form (NFKC: full-width "０．６" is "0.6") and the
minus sign U+2212 becomes "-". The rules:

Numbers. A number is a whole token: never glued to a letter, a digit or an underscore ("64" is not
in "base64"), with "," or "_" as thousands separators ("1,000" is 1000, "1,000,000" is another
number), compared by value (0.60 = 0.6 = .6).

Dates. YYYY-MM-DD ("2024-01-15") is one claim, compared as a date: "2024-15-01" is another date, not
the same three numbers. A span's date also states its year, month and day as numbers ("in 2024").
Times of day (and durations) are one claim too: H:MM, HH:MM or HH:MM:SS ("10:30" = "10:30:00", not "30:10";
with or after a date, "2024-01-15T10:30:00Z"; fractions of a second count), a span's time also stating the
numbers it writes. With am or pm ("10:30 pm", "10 a.m.") a time is read on 24 hours: "10:30 pm" is "22:30",
not "10:30 am"; an answer's time without am or pm matches the span's with ("10:30" for "10:30 pm").

Versions. A dotted number is a version when it has two or more dots ("3.14.1", "192.168.0.1"), or
when it comes right after one of the words python, py, cpython, pypy, version(s), ver, v, release(s)
("Python 3.10", "version 2.5"). A version is compared as written, with no reading as a decimal:
"Python 3.10" is not "Python 3.1", "3.11" is not "3.110". When either side reads a number as a
version, the two must be written the same ("3.10" in the answer matches "Python 3.10" in the span,
"3.1" does not); between two plain decimals the value decides ("0.60" matches "0.6").

Numbers written as words are numbers, both ways ("three" is 3, "n is 3" matches "n is three"):
zero to nineteen, the tens (twenty ... ninety, "twenty-one", "twenty one"), hundred, thousand and
million ("two hundred and five", "a thousand"), a decimal point read out ("zero point nine" is 0.9,
digits after "point" one word each), simple fractions after a count ("nine tenths" 0.9, "one half",
"three quarters", "two thirds", "a half", "a quarter", "two and a half" 2.5; denominators half,
third, quarter, fifth, tenth, hundredth, thousandth). "one" alone is a pronoun, not a number, after
the, this, that, which, each, every, any, no, some, another, or before of, another and the modal
verbs (can, could, may, might, must, should, would, will): "the one", "one of them", "one can".

Roman numerals. A word of two or more capitals I, V and X that is a valid numeral ("II", "IV", "XIV", up to
"XXXIX") is a claim found when the span writes the same word, in any case ("Part III" is not "Part II"; "IV"
matches "(iv)"), or its value in digits ("Level II" for "Level 2"). Not the other way: a span's "IV" may be
an initialisation vector, so it never stands for 4, nor its "Part III" for "Part 3". A single "I", "V" or "X"
is a letter; numerals with L, C, D or M, and numerals in lower case in the answer, are left to the names
("CLI", "MD") and the words.

Units. A number in digits followed by a unit of time, size or share ("5 s", "5 seconds", "16-byte", "50%") states
that unit too: when the span has that number only with other units, the answer's is another claim ("5 ms"
against "5 s"); "5 s" and "5 seconds" are one unit, "KB" and "KiB" two. The numbers of a range or a list take
the unit written after the last ("5-10 ms", "between 5 and 10 ms", "5, 10 or 20 ms": 5 is in ms). A number the
span also writes without a unit takes any unit (the span does not say). Units: ns, us, ms, s, min, h, day, week,
month, year, B/bytes, bits, KB, KiB, MB, MiB, GB, GiB, TB, TiB (with their spellings: "usec", "megabytes"),
%, px, Hz, kHz, MHz, GHz; their case aside ("Mb" is MB).

Technical names. A word with a dot, an underscore, an inner capital or a digit next to a letter
(b64encode, sha256) is a name. It matches a whole name of the span, or whole dotted parts of one
("get_close_matches" is in "difflib.get_close_matches"), with its case (Python's names are
case-sensitive: "JsonDecoder" is not "JSONDecoder"), except that a name written with no lower-case
letter matches in any case, on either side ("DEFAULT_CUTOFF", "SHA256" for "sha256"). The verifier
also lets the first word of a sentence be capitalised as English writes it ("Base64 adds a third"
for base64; "Get_close_matches" at the start, never "Get_Close_Matches"). A plain word written as code (in
backticks, or called: "`Jsondecoder`", "ordereddict()") that writes a word of the span in mixed case in another
case ("JSONDecoder", "OrderedDict") is that name miswritten, unless the span also writes it so ("zipfile" beside
"ZipFile"); in prose a word's case is the writer's ("numpy", "Github", "the setup").

Left out on purpose: units glued to a number ("10ms" is a name, compared whole, so "10 ms" does not
match it; "50%" aside), units after numbers written in words ("five seconds"), converting units ("1 s" is
not "1000 ms"), decimal commas ("0,6" is two numbers, 0 and 6), spaces as thousands separators,
scientific notation ("1e-6" reads as the name "1e" and the number 6), dates in any other form than
YYYY-MM-DD ("January 15, 2024", "15/01/2024": plain numbers), ratios ("3:2" is 3 and 2),
time zones ("10:30 UTC" is 10:30), a version in a list after its word ("Python 3.10
and 3.11": only 3.10 is a version), ordinals ("first", "third" alone), "half" or
"point six" without a count before them, digits mixed with words ("3 thousand", "1.5 million": 3
and 1.5), "dozen", "once", "twice", words in other languages, and the English ambiguity of "and"
("one hundred and five hundred" reads as 105).

Cost: every reading is linear in the length of the text, and no number of unbounded length becomes a
Python int (a 5,000-digit number is a Decimal, a version stays a string), so no text can make it
raise or hang; dotted names are indexed up to 8 parts per run (longer ones are looked up word by word).

It runs past 300 lines because reading a claim is one idea with several short rules (numbers, words,
dates, versions, names), each with its examples.
"""
from __future__ import annotations

import bisect
import difflib
import functools
import itertools
import re
import unicodedata
from collections import Counter
from decimal import Decimal

from rag_core.text import words as content_words

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
WORD = re.compile(r"\w+(?:\.\w+)*")                                # "difflib.get_close_matches", "sha256"
_INNER_CAPITAL, _LETTER, _DIGIT = re.compile(r"[a-z][A-Z]"), re.compile(r"[^\W\d_]"), re.compile(r"\d")

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
_FRACTION = re.compile(r"(?<![\w./])(\d{1,9})\s*/\s*(\d{1,9})(?![\w/]|\.\d)")       # "4/3": a value of 4/3 too
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
_CODE = re.compile(r"`([^`\n]{1,200})`|(?<!\w)([^\W\d]\w*+)(?=\()")   # `code`, or a word called: "f("; linear
NEAREST = 2000                  # candidates compared for "what the span has instead"
_LONG = 200                     # claims and candidates longer than this are not compared for "what the span has"


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


def _roman(numeral: str) -> int:
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


def plain(literal: str, value) -> str:
    """The number in digits, for comparing how it looks: ('zero point nine', 0.9) -> "0.9"; ('3.10', ...) -> "3.10"."""
    if isinstance(value, Decimal) and not _DIGIT.search(literal):
        return format(value.normalize(), "f") if len(literal) < _LONG else literal
    return literal


def is_name(word: str) -> bool:
    """A technical name: a dot, an underscore, an inner capital, or digits next to letters.

    "get_close_matches", "os.path", "getCloseMatches", "b64encode" -> True; "According", "0.6", "e.g" -> False
    """
    if not _LETTER.search(word):
        return False
    if "." in word and all(len(p) == 1 for p in word.split(".")):     # e.g, i.e: abbreviations
        return False
    return "." in word or "_" in word or bool(_INNER_CAPITAL.search(word) or _DIGIT.search(word))


def names(text: str) -> list[str]:
    """The technical names of `text`, whole and in order, without repeats."""
    return list(dict.fromkeys(w for w in WORD.findall(normalize(text)) if is_name(w)))


def _shouted(name: str) -> bool:
    """No lower-case letter: "SHA256", "DEFAULT_CUTOFF" -> True; "JSONDecoder" -> False."""
    return name == name.upper()


def code_words(text: str) -> list[str]:
    """The words written as code, where Python's case counts: inside backticks, or called.
    "Use `Jsondecoder` or ordereddict() in prose" -> ['Jsondecoder', 'ordereddict']"""
    out = []
    for m in _CODE.finditer(normalize(text)):
        out += WORD.findall(m[1]) if m[1] is not None else [m[2]]
    return out


def _mixed(part: str) -> bool:
    """A capital after the first letter and a lower-case letter: "JSONDecoder", "OrderedDict"; not "Path", "SHA"."""
    return part[1:] != part[1:].lower() and part != part.upper()


def closest(claim: str, candidates) -> str | None:
    """What the span has that looks most like `claim`: the most similar candidate by difflib's ratio
    (case aside), among those containing it, contained in it, or at least 0.6 similar; None when nothing
    is close, and for texts over 200 characters (comparing those would cost more than it tells). Only the first
    NEAREST distinct candidates are compared: a chunk has far fewer, a megabyte span would cost seconds a claim.

    closest("0", ["1", "0.6"]) -> "0.6";  closest("0.9", ["0", "0.6"]) -> "0.6";  closest("7", ["abc"]) -> None
    closest("JsonDecoder", ["JSONDecoder"]) -> "JSONDecoder"
    """
    if len(claim) > _LONG:
        return None
    c, best, best_ratio = claim.lower(), None, 0.0
    sm = difflib.SequenceMatcher()
    sm.set_seq2(c)                                  # analysed once, as difflib.get_close_matches does
    for cand in itertools.islice(dict.fromkeys(candidates), NEAREST):
        if cand == claim or len(cand) > _LONG:
            continue
        k = cand.lower()
        sm.set_seq1(k)
        if not (c in k or k in c or sm.real_quick_ratio() >= 0.6 and sm.quick_ratio() >= 0.6):
            continue
        ratio = sm.ratio()
        if (c in k or k in c or ratio >= 0.6) and ratio > best_ratio:
            best, best_ratio = cand, ratio
    return best


class Claims:
    """The numbers, names and content words a span holds, ready to be asked about (build it with `of`, which caches).

    Claims("default 0.6, see difflib.get_close_matches").has_number(Decimal("0.60")) -> True
    """

    RUN = 8                                                     # dotted names this long are looked up word by word

    def __init__(self, text: str):
        text = normalize(text)
        self.numbers = numbers(text)                            # [(as written, value)]
        self.values, self.written, self.dates, self.romans, self.clock12 = set(), set(), set(), set(), set()
        for literal, value in self.numbers:
            if isinstance(value, Decimal):
                self.values.add(value)                          # by value: 0.6 = 0.60
                if "." in literal:
                    self.written.add(literal)                   # "3.10" as written, for a version of the answer
            elif value[0] == "version":
                self.written.add(value[1])
            elif value[0] == "roman":
                self.romans.add(value[1])
            elif value[0] == "ampm":                           # "10:30 pm": 22:30, and 10:30 for an answer's bare
                self.dates.add(("time", *value[1:]))           # time; it states 10 and 30
                self.clock12.add((value[1] % 12 or 12, *value[2:]))
                self.values.update(Decimal(v) for v in (value[1] % 12 or 12, value[2])[:literal.count(":") + 1])
            else:
                self.dates.add(value)                           # a date or a time, and the numbers it writes
                stated = 3 if value[0] == "date" else literal.count(":") + 1     # "10:30": no second stated
                self.values.update(Decimal(v) for v in value[1:1 + stated])
        self.values.update(Decimal(a) / Decimal(b) for a, b in _FRACTION.findall(text) if int(b))   # "4/3": "four thirds"
        self.units: dict[Decimal, set] = {}             # value -> the units the span writes it with
        self.unit_forms: list[str] = []                 # "5 s", as written
        bare = Counter(v for _, v in self.numbers if isinstance(v, Decimal))
        for written, value, unit in with_units(text):
            self.units.setdefault(value, set()).add(unit)
            self.unit_forms.append(written)
            bare[value] -= 1
        self.bare = {v for v, n in bare.items() if n > 0}     # values the span also writes without a unit
        self.words = list(dict.fromkeys(WORD.findall(text)))
        self.names = [w for w in self.words if is_name(w)]
        self.glued = [w for w in self.names if _DIGIT.search(w)]     # words with digits: "base64", "sha256"
        self.content = frozenset(content_words(text))           # rag_core.text.words: lower case, stopwords aside
        self.paths, self.folded, self.shouted = set(), set(), set()   # runs of whole dotted parts (folded: lower
        # case, also for a roman numeral of the answer: "IV" for "(iv)")
        self.long = [w for w in self.words if w.count(".") >= self.RUN]
        for w in self.words:
            parts = w.split(".")
            for i in range(len(parts)):
                for j in range(i + 1, min(len(parts), i + self.RUN) + 1):
                    run = ".".join(parts[i:j])
                    self.paths.add(run)
                    self.folded.add(run.lower())
                    if _shouted(run):
                        self.shouted.add(run.lower())
        # parts of names in mixed case, by their lower case: "jsondecoder" -> "JSONDecoder"
        self.cased = {p.lower(): p for w in self.words for p in w.split(".") if _mixed(p)}

    def has_number(self, value) -> bool:
        """A value of `numbers`: a Decimal by value, a version as written, a date as a date."""
        if isinstance(value, Decimal):
            return value in self.values
        if value[0] == "roman":                     # as written in any case, or its value written in digits
            return value[1] in self.romans or value[1].lower() in self.folded or _roman(value[1]) in self.values
        if value[0] == "ampm":
            return ("time", *value[1:]) in self.dates
        if value[0] == "time" and value[1:] in self.clock12:                 # "10:30" for "10:30 pm"
            return True
        return value[1] in self.written if value[0] == "version" else value in self.dates

    def has_claim(self, literal: str, value) -> bool:
        """Whether the span states this number of the answer: by value, or as written when the span reads it
        as a version ("3.10" of the answer against "Python 3.10")."""
        return self.has_number(value) or isinstance(value, Decimal) and literal in self.written

    def has_name(self, name: str) -> bool:
        """Whole, with its case; a name with no lower-case letter, or one the span writes so, in any case."""
        n = normalize(name)
        if n.count(".") >= self.RUN:
            return any(f".{n}." in f".{w}." for w in self.long)
        return n in self.paths or n.lower() in self.shouted or _shouted(n) and n.lower() in self.folded

    def other_unit(self, value: Decimal, unit: str) -> bool:
        """Whether the span writes this number only with units other than `unit` ("5 s" against "5 ms")."""
        return value in self.units and value not in self.bare and unit not in self.units[value]

    def miscased(self, word: str) -> str | None:
        """The span's word in mixed case that this plain word writes in another case: "Jsondecoder" ->
        "JSONDecoder"; None for a name as written, a word in capitals ("JSONDECODER": any case, as for names)."""
        found = self.cased.get(word.lower())
        return found if found is not None and word not in self.paths and not _shouted(word) else None

    def has_word_of(self, text: str) -> bool:
        """Whether `text` has a content word (rag_core.text.words) of the span: "The answer is:" -> only "answer"."""
        return not self.content.isdisjoint(content_words(normalize(text)))

    def near_number(self, literal: str, value=None) -> str | None:
        """The span's number, or word with digits, closest to `literal` ("64" -> "base64")."""
        return closest(plain(literal, value), [n for n, _ in self.numbers] + self.glued + self.unit_forms)

    def near_name(self, name: str) -> str | None:
        return closest(name, self.names) or closest(name, list(self.cased.values()))


@functools.lru_cache(maxsize=512)
def of(text: str) -> Claims:
    """Claims(text), cached: the same spans are checked answer after answer."""
    return Claims(text)
