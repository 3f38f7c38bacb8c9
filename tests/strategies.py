"""Hypothesis strategies shared by the property tests (tests/test_properties_*.py): texts made of the pieces the
parsers look for, so that generated inputs reach their rules instead of stopping at the first character.

    texts()     any text: arbitrary characters, or pieces such as "3.10", "2024-01-15", "10:30 pm", "[S1]", "`f(`"
    sentence()  one sentence as the verifier splits them: words, numbers and names, no [.!?] before a space
"""
from __future__ import annotations

from hypothesis import strategies as st

# pieces the claim reader and the checker give a meaning to, each next to what could break it
PIECES = (
    "0", "1", "3", "0.6", "0.60", ".5", "1,000", "1_000", "1,000,000", "-2", "3.10", "3.1", "3.14.1", "192.168.0.1",
    "2024-01-15", "2024-15-01", "2024-01-15T10:30:00Z", "10:30", "10:30:00", "10:30 pm", "10 a.m.", "25:00",
    "Python", "python", "version", "v", "release", "zero", "one", "two", "three", "twenty", "twenty-one", "hundred",
    "thousand", "million", "point", "nine", "tenths", "half", "a", "and", "minus", "the", "of", "can",
    "II", "IV", "XIV", "(iv)", "I", "5 s", "5 ms", "16-byte", "50%", "64 KiB", "5-10 ms", "between", "or", "to",
    "os.path", "difflib.get_close_matches", "get_close_matches", "b64encode", "base64", "sha256", "SHA256",
    "JSONDecoder", "JsonDecoder", "`Jsondecoder`", "ordereddict()", "f(", "OrderedDict", "e.g", "i.e", "x.y.z.a.b.c.d.e.f",
    "[S1]", "[S2]", "[S0]", "[S99999999999999999999]", "［S1］", "NOT IN THE CONTEXT", "not in the context", "**",
    "`", "\"", "'", "(", ")", ",", ".", ". ", "! ", "? ", ":", ";", "-", "−", "–", "\u2212", "_", "\\", "%",
    " ", "  ", "\t", "\n", "０．６", "İ", "ı", "ß", "ﬁ", "é", "e\u0301", "\u0301", "\u2028", "\x00", "\ufeff", "\U0001f600",
)


def pieces():
    return st.sampled_from(PIECES)


def texts(max_size: int = 40):
    """Any text: mostly pieces joined with and without spaces, sometimes arbitrary characters (any code point)."""
    joined = st.lists(st.one_of(pieces(), st.text(max_size=3)), max_size=max_size).map("".join)
    spaced = st.lists(pieces(), max_size=max_size).map(" ".join)
    return st.one_of(joined, spaced, st.text(max_size=max_size * 3))


# words, numbers and names a sentence of a document is made of (no citation, no abstention, no [.!?] + space inside)
SENTENCE_WORDS = (
    "the", "default", "cutoff", "is", "of", "one", "can", "a", "and", "returns", "Python", "python", "version",
    "v", "minus", "zero", "two", "three", "twenty", "twenty-one", "hundred", "point", "nine", "tenths", "half",
    "0", "1", "3", "0.6", ".5", "1,000", "1_000", "-2", "3.10", "3.14.1", "2024-01-15", "10:30", "10:30 pm", "10 a.m",
    "II", "IV", "(iv)", "5 s", "5 ms", "5-10 ms", "16-byte", "50%", "64 KiB", "between", "to", "or", "os.path",
    "difflib.get_close_matches", "get_close_matches", "b64encode", "base64", "SHA256", "JSONDecoder", "`zipfile`",
    "ZipFile", "ordereddict()", "OrderedDict", "e.g", "Base64", "(", ")", ",", ":", "-", "\u2212", "０．６", "é",
)


# words whose meaning depends on the word before or after them, across a sentence's end: "the. One", "5 and. 10 ms"
ENDS = ("", "the", "each", "minus", "python", "version", "5 and", "5 to", "5,", "twenty", "one", "two hundred",
        "zero point", "2024-01-15", "10:30", "`zipfile", "ordereddict")
STARTS = ("", "one", "One", "of", "can", "3.10", "5 ms", "ms", "10 ms", "three", "hundred", "half", "tenths", "pm",
          "II", "T10:30", "-2", "0.6", "and five", "KiB", "%")


def sentence(min_size: int = 1, max_size: int = 12):
    """One sentence: words of SENTENCE_WORDS joined by spaces, starting with one of STARTS and ending with one of
    ENDS (either may be empty)."""
    middle = st.lists(st.sampled_from(SENTENCE_WORDS), min_size=min_size, max_size=max_size).map(" ".join)
    return st.tuples(st.sampled_from(STARTS), middle, st.sampled_from(ENDS)).map(lambda t: " ".join(filter(None, t)))
