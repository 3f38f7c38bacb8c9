"""What a sentence claims, read strictly: numbers as values, dates as dates, versions as written, names whole.

The article's checker compares characters, so "0" is found inside "0.6" and "combinations" inside
"combinations_with_replacement". The strict checker compares claims instead, read by this module:

    names("Use itertools.combinations or b64encode, e.g. now") -> ['itertools.combinations', 'b64encode']
    Claims("see itertools.combinations_with_replacement").has_name("itertools.combinations") -> False
    closest("0", ["0.6", "1"]) -> "0.6"

Numbers, dates, times, versions, Roman numerals and units are read by rag_core.generation.quantities (its
docstring has their rules); every text is first normalized there (NFKC, minus signs as "-"). The rule for names:

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

Left out on purpose: reading numbers (rag_core.generation.quantities), and whether a sentence is supported
(rag_core.generation.verifier, which asks a Claims).

Cost: every reading is linear in the length of the text; dotted names are indexed up to 8 parts per run (longer
ones are looked up word by word).
"""
from __future__ import annotations

import difflib
import functools
import itertools
import re
from collections import Counter
from decimal import Decimal

from rag_core.generation.quantities import LONG, normalize, numbers, in_digits, roman_value, with_units
from rag_core.text.tokens import words as content_words

WORD = re.compile(r"\w+(?:\.\w+)*")                                # "difflib.get_close_matches", "sha256"
_INNER_CAPITAL, _LETTER, _DIGIT = re.compile(r"[a-z][A-Z]"), re.compile(r"[^\W\d_]"), re.compile(r"\d")
_FRACTION = re.compile(r"(?<![\w./])(\d{1,9})\s*/\s*(\d{1,9})(?![\w/]|\.\d)")       # "4/3": a value of 4/3 too
_CODE = re.compile(r"`([^`\n]{1,200})`|(?<!\w)([^\W\d]\w*+)(?=\()")   # `code`, or a word called: "f("; linear
NEAREST = 2000                  # candidates compared for "what the span has instead"


_SPAN_LABEL = re.compile(r"S\d{1,2}")


def is_name(word: str) -> bool:
    """A technical name: a dot, an underscore, an inner capital, or digits next to letters.

    "get_close_matches", "os.path", "getCloseMatches", "b64encode" -> True; "According", "0.6", "e.g", "S1" -> False
    """
    if not _LETTER.search(word):
        return False
    if "." in word and all(len(p) == 1 for p in word.split(".")):     # e.g, i.e: abbreviations
        return False
    if _SPAN_LABEL.fullmatch(word):             # "S1 says ...": the answer names a span it was handed, no claim
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
    if len(claim) > LONG:
        return None
    c, best, best_ratio = claim.lower(), None, 0.0
    sm = difflib.SequenceMatcher()
    sm.set_seq2(c)                                  # analysed once, as difflib.get_close_matches does
    for cand in itertools.islice(dict.fromkeys(candidates), NEAREST):
        if cand == claim or len(cand) > LONG:
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
            if unit == "%":
                self.values.add(value / 100)                # "60%" states 0.6 too
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
            return value[1] in self.romans or value[1].lower() in self.folded or roman_value(value[1]) in self.values
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
        return closest(in_digits(literal, value), [n for n, _ in self.numbers] + self.glued + self.unit_forms)

    def near_name(self, name: str) -> str | None:
        return closest(name, self.names) or closest(name, list(self.cased.values()))


@functools.lru_cache(maxsize=512)
def of(text: str) -> Claims:
    """Claims(text), cached: the same spans are checked answer after answer."""
    return Claims(text)
