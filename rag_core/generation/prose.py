"""What of an answer's sentence is no claim to look for in the spans it cites: a name the question asks about, a
name the cited span's place gives (its document and section heading, data.sections), a module-qualified name of
one the span writes, and "one" or "two" as counts in prose ("the two calls", "the quicker one").

    asked_words("Does math.comb return 0?") -> {'does', 'math.comb', 'math', 'comb', 'return', '0'}
    prose_counts("It is faster than the two calls [S1].") -> {'two'}

Left out on purpose: checking anything (the verifier looks up what remains), and "three" and above in words,
which stay claims.
"""
from __future__ import annotations

import functools
import importlib
import re

from rag_core.generation import claims, quantities
from rag_core.text.tokens import STOP

COUNTING = frozenset({"one", "two"})   # "one combined action", "the two calls": a count in prose, not a claim
_COUNT_WORD = re.compile(r"(?<!\w)(?:one|two)(?!\w)", re.I)
_COUNTING = re.compile(r"(?<![\w\[(])(?:one|two)[ \t]+([A-Za-z]+)", re.I)      # and a word that is not a stop word
# "the first existing one [S1]", "the quicker one.": "one" after a word that does not give a value, before no word
_PRONOUN_ONE = re.compile(r"(?i:\b([a-z]+)[ \t]+)one(?=[ \t]*(?:[.,;:!?)\[(]|$))")
_GIVES_VALUE = frozenset("is was are be been to of equals exactly only just than at returns return returned "
                         "gives give yields becomes become set get gets make makes by from plus minus".split())
# "unless you give one", "pass mtime to set one": "one" for a thing a person hands over, whatever comes after it
_YOU_ONE = re.compile(r"(?i:\b(?:you|yourself|to)[ \t]+(?:can[ \t]+|must[ \t]+|may[ \t]+)?"
                      r"(?:set|give|supply|provide|choose|pick|specify|want|need)[ \t]+)one\b")


def titled_words(title: str | None) -> frozenset:
    """The words of a span's place (data.sections.section_title: "bisect bisect.insort"), and the other names the
    standard library gives the same function ("insort_right" for bisect.insort, which is insort_right): a span
    under "bisect.insort" speaks of insort_right too."""
    words = asked_words(title)
    others = [(name.split(".")[0], w) for name in words if "." in name for w in _same_object(name)]
    return words | {w for _, w in others} | {f"{module}.{w}" for module, w in others}


_ALIAS_MODULES = frozenset("bisect heapq statistics math textwrap itertools functools difflib base64 glob fnmatch "
                           "tempfile secrets gzip fractions".split())     # pure modules whose names are looked up


@functools.lru_cache(maxsize=256)
def _same_object(name: str) -> tuple:
    """The names under which `module.function` is the same object in this interpreter's standard library
    ("bisect.insort" -> ("insort", "insort_right")); () for any other module or name."""
    module, _, attr = name.lower().partition(".")
    if module not in _ALIAS_MODULES or not attr.isidentifier():
        return ()
    mod = importlib.import_module(module)
    target = next((getattr(mod, n) for n in dir(mod) if n.lower() == attr), None)
    if target is None or not callable(target):
        return ()
    return tuple(n.lower() for n in dir(mod) if not n.startswith("_") and getattr(mod, n) is target)


def asked_words(question: str | None) -> frozenset:
    """The words of a question, in lower case, and the parts of its dotted names: "Does math.comb ..." ->
    {'does', 'math.comb', 'math', 'comb', ...}. A name the question asks about may be restated without its span."""
    if not question:
        return frozenset()
    found = [w.lower() for w in claims.WORD.findall(quantities.normalize(question))]
    return frozenset(found) | {p for w in found for p in w.split(".")}


def prose_counts(bare: str) -> frozenset:
    """The words of COUNTING that are prose each time the sentence writes them: "one" or "two" before a word that
    is not a stop word ("the two calls"), or "one" for a thing ("the quicker one"); not "reduced to one", "p[two]",
    "one or two", "two if". One pass over the sentence."""
    prose, value = set(), set()
    for m in _COUNT_WORD.finditer(bare):
        word, p = m[0].lower(), m.start()
        c = _COUNTING.match(bare, p)
        (prose if c and c[1].lower() not in STOP or word == "one" and _pronoun(bare, p) else value).add(word)
    return frozenset(prose - value)


def _pronoun(bare: str, p: int) -> bool:
    """Whether the "one" at p stands for a thing: "the first existing one", "unless you give one", not "returns
    one" or "is one"."""
    if any(m.end() == p + 3 for m in _YOU_ONE.finditer(bare, max(0, p - 40), p + 3)):
        return True
    m = _PRONOUN_ONE.search(bare, max(0, p - 40), p + 3)
    return bool(m) and m.end() == p + 3 and m[1].lower() not in _GIVES_VALUE


def documented(name: str, asked: frozenset) -> bool:
    """Whether a function is the one the question or a cited span's section is about: the last part of a dotted
    name among their words ("harmonic_mean" for "statistics.harmonic_mean", "insort_right" for "bisect.insort"),
    or a name with an underscore the question writes ("get_close_matches"), or a function of a module both written
    there ("What does math comb return ...?": comb). Not a name the span only mentions
    ("fnmatch" in glob's "unlike fnmatch") nor a module ("bisect" under "bisect.bisect_left")."""
    name = name.lower()
    return any("." in w and w.rsplit(".", 1)[1] == name for w in asked) or "_" in name and name in asked or \
        name in asked and name not in _ALIAS_MODULES and any(w in _ALIAS_MODULES and _same_object(f"{w}.{name}")
                                                             for w in asked)      # not "bisect" of "bisect.bisect_left"


def asked(name: str, asked: frozenset) -> bool:
    """Whether a name is the question's: written there ("get_close_matches"), or its parts are ("math.comb" for
    "math comb"), or its last part is ("secrets.compare_digest" for "compare_digest")."""
    parts = name.lower().split(".")
    return name.lower() in asked or all(p in asked for p in parts) or parts[-1] in asked and len(parts[-1]) > 3


def placed(name: str, have: claims.Claims, asked: frozenset) -> bool:
    """Whether a dotted name is the span's own name under a module the question or a title names:
    "statistics.StatisticsError" for a span of the statistics document that writes StatisticsError."""
    parts = name.split(".")
    return len(parts) > 1 and have.has_name(parts[-1]) and all(p.lower() in asked for p in parts[:-1])
