"""What a sentence claims, read strictly: numbers as values, technical names as whole names.

The article's checker compares characters, so "0" is found inside "0.6" and "combinations" inside
"combinations_with_replacement". The strict checker compares claims instead, read by this module:

    numbers("Cutoff 0.60, sizes 1,000 and .5, not base64")
    -> [('0.60', Decimal('0.60')), ('1,000', Decimal('1000')), ('.5', Decimal('0.5'))]
    names("Use itertools.combinations or b64encode, e.g. now") -> ['itertools.combinations', 'b64encode']
    Claims("see itertools.combinations_with_replacement").has_name("itertools.combinations") -> False
    closest("0", ["0.6", "1"]) -> "0.6"

Every text is first put in Unicode compatibility form (NFKC: full-width "０．６" is "0.6") and the
minus sign U+2212 becomes "-". A number is a whole token: never glued to a letter, a digit or an
underscore ("64" is not in "base64"), with "," or "_" as thousands separators ("1,000" is 1000,
"1,000,000" is another number) and compared by value (0.60 = 0.6 = .6). Three or more dotted parts
make a version ("3.14.1"), compared part by part. A technical name is a word with a dot, an
underscore, an inner capital or a digit next to a letter (b64encode, sha256); it matches a whole
name of the span, or whole dotted parts of one ("get_close_matches" is in "difflib.get_close_matches").

Left out on purpose: units glued to a number ("10ms" is a name, compared whole, so "10 ms" does not
match it), decimal commas ("0,6" is two numbers, 0 and 6), spaces as thousands separators, and
scientific notation ("1e-6" reads as the name "1e" and the number 6).
"""
from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from decimal import Decimal

# a number: not glued to a word ("base64", "2016.pdf"), an escape ("\0") or another number;
# "1,000", "1_000", "0.6", ".5", "3.14.1", "-2"
NUMBER = re.compile(r"(?<![\w.\\])(?<!\d,)(?P<sign>[-+]?)(?P<body>\.?\d[\d,_.]*)(?!\w|\.\w|[,_]\d)")
PART = re.compile(r"\d*\.?\d+|\d+(?:\.\d+){2,}")                    # "0.6", ".5", "1000", "3.14.1"
THOUSANDS = re.compile(r"[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?")      # "1,000,000.5"; "0,100" is a list
WORD = re.compile(r"\w+(?:\.\w+)*")                                # "difflib.get_close_matches", "sha256"
_INNER_CAPITAL, _LETTER, _DIGIT = re.compile(r"[a-z][A-Z]"), re.compile(r"[^\W\d_]"), re.compile(r"\d")


def normalize(text: str) -> str:
    """NFKC plus the minus sign: "０．６" -> "0.6", "−1" -> "-1"."""
    return unicodedata.normalize("NFKC", text).replace("\u2212", "-")


def _key(part: str, negative: bool):
    """A comparable value: "0.60" -> Decimal('0.60') (equal to 0.6), "3.14.1" -> (3, 14, 1)."""
    part = part.replace("_", "")
    if part.count(".") > 1:
        return tuple(int(p) for p in part.split("."))
    value = Decimal(part)
    return -value if negative else value


def numbers(text: str) -> list[tuple[str, object]]:
    """(as written, value) for every number of `text`: "[0,1] and 1,000" -> [('0', 0), ('1', 1), ('1,000', 1000)]."""
    out = []
    for m in NUMBER.finditer(normalize(text)):
        body = m["body"].rstrip(",_.")
        parts = [body] if THOUSANDS.fullmatch(body.replace("_", "")) else body.split(",")
        for i, part in enumerate(parts):
            part = part.strip("_").rstrip(".")
            if PART.fullmatch(part.replace(",", "").replace("_", "")):
                literal = ("-" if i == 0 and m["sign"] == "-" else "") + part
                out.append((literal, _key(part.replace(",", ""), literal.startswith("-"))))
    return out


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


def closest(claim: str, candidates) -> str | None:
    """What the span has that looks most like `claim`: the most similar candidate by difflib's ratio,
    among those containing it, contained in it, or at least 0.6 similar; None when nothing is close.

    closest("0", ["1", "0.6"]) -> "0.6";  closest("0.9", ["0", "0.6"]) -> "0.6";  closest("7", ["abc"]) -> None
    """
    c, best, best_ratio = claim.lower(), None, 0.0
    sm = difflib.SequenceMatcher()
    sm.set_seq2(c)                                  # analysed once, as difflib.get_close_matches does
    for cand in dict.fromkeys(candidates):
        k = cand.lower()
        sm.set_seq1(k)
        if k == c or not (c in k or k in c or sm.real_quick_ratio() >= 0.6 and sm.quick_ratio() >= 0.6):
            continue
        ratio = sm.ratio()
        if (c in k or k in c or ratio >= 0.6) and ratio > best_ratio:
            best, best_ratio = cand, ratio
    return best


class Claims:
    """The numbers and names a span holds, ready to be asked about (build it with `of`, which caches).

    Claims("default 0.6, see difflib.get_close_matches").has_number(Decimal("0.60")) -> True
    """

    def __init__(self, text: str):
        self.numbers = numbers(text)                            # [(as written, value)]
        self.values = {v for _, v in self.numbers}
        self.words = list(dict.fromkeys(WORD.findall(normalize(text))))
        self.names = [w for w in self.words if is_name(w)]
        self.glued = [w for w in self.names if _DIGIT.search(w)]     # words with digits: "base64", "sha256"
        self.paths = set()                                      # every run of whole dotted parts, lower case
        for w in self.words:
            parts = w.lower().split(".")
            if len(parts) == 1:
                self.paths.add(parts[0])
            else:
                self.paths.update(".".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 1, len(parts) + 1))

    def has_number(self, value) -> bool:
        return value in self.values

    def has_name(self, name: str) -> bool:
        return normalize(name).lower() in self.paths

    def near_number(self, literal: str) -> str | None:
        """The span's number, or word with digits, closest to `literal` ("64" -> "base64")."""
        return closest(literal, [n for n, _ in self.numbers] + self.glued)

    def near_name(self, name: str) -> str | None:
        return closest(name, self.names)


@functools.lru_cache(maxsize=512)
def of(text: str) -> Claims:
    """Claims(text), cached: the same spans are checked answer after answer."""
    return Claims(text)
