"""A number in an answer is a claim about a value: it must appear in a cited span as a whole number of the same
value, however either side writes it (0.60 and 0.6, 1,000 and 1000, full-width digits, "twenty-one" and 21),
with its sign; "0" is not found inside "0.6", nor "64" inside "base64". "one" and "two" in prose are counts, not
values. Numbers with a kind (dates, versions, units, times, percentages) are in tests/test_checker_quantities.py.
"""
import re
from decimal import Decimal

import pytest

from rag_core.generation.claims import Claims, closest, names
from rag_core.generation.quantities import numbers
from rag_core.generation.verifier import verify

from checker_cases import CUTOFF, DEFAULT, strict, verdicts


# ---- a number is a whole token, compared by value ------------------------------------------------

@pytest.mark.parametrize("answer", ["The default cutoff is 0 [S1].", "The default cutoff is 6 [S1]."])
def test_a_number_is_not_part_of_another(answer):
    assert verdicts(answer, DEFAULT) == ("refused", "anchored")
    n = re.search(r"is (\d)", answer)[1]
    assert verify(answer, DEFAULT).reason == \
        f"Sentence 1: The number '{n}' does not appear in S1: the span says 0.6, not {n}."


@pytest.mark.parametrize("answer, span, instead", [
    ("It takes 64 bytes [S1].", "Encode it with base64.", "base64"),              # 64 is part of a word
    ("Up to 1,000,000 items [S1].", "Up to 1,000 items.", "1,000"),              # 1,000 is part of 1,000,000
    ("Up to 1,000 items [S1].", "Up to 1,000,000 items.", "1,000,000"),
    ("The cutoff is 0.9 [S1].", "The cutoff is 0.6.", "0.6"),
])
def test_a_number_is_a_whole_token_compared_by_value(answer, span, instead):
    v = verify(answer, [span])
    assert v.verdict == "refused" and v.sentences[0].closest[0][1] == instead
    assert f"the span says {instead}, not " in v.reason


@pytest.mark.parametrize("answer, span", [
    ("The default cutoff is 0.60 [S1].", "default 0.6"),
    ("The default cutoff is .6 [S1].", "default 0.6"),                   # the article finds "6" in "0.6" too
    ("Up to 1000 items [S1].", "Up to 1,000 items."),
    ("Up to 1,000 items [S1].", "Up to 1000 items."),
    ("Up to 1_000 items [S1].", "Up to 1,000 items."),
    ("The default cutoff is ０．６ [S1].", "default 0.6"),                 # full-width digits
    ("Up to １，０００ items [S1].", "Up to 1,000 items."),
    ("The default is 5 [S1].", "The default is 5.0."),
    ("The default cutoff is 0.6 ［S1］.", "default 0.6"),                  # a full-width citation
])
def test_reformatted_numbers_pass(answer, span):
    assert verify(answer, [span]).verdict == "anchored"


def test_reformatted_numbers_were_refused_by_the_article():
    for answer, span in [("The default cutoff is 0.60 [S1].", "default 0.6"), ("Up to 1000 items [S1].", "1,000 items"),
                         ("The default cutoff is ０．６ [S1].", "default 0.6")]:
        assert verdicts(answer, [span]) == ("anchored", "refused")


# ---- the sign is part of the number --------------------------------------------------------------

def test_the_sign_is_part_of_the_number():
    assert verdicts("The last index is 1 [S1].", ["The last index is -1."]) == ("refused", "anchored")
    assert verify("The last index is −1 [S1].", ["The last index is -1."]).verdict == "anchored"    # U+2212


@pytest.mark.parametrize("answer", ["The cutoff is minus zero point six [S1].", "The cutoff is \u20130.6 [S1].",
                                    "The cutoff is \u20100.6 [S1].", "The cutoff is negative 0.6 [S1]."])
def test_a_sign_in_words_or_as_a_dash_is_a_sign(answer):
    assert verify(answer, ["The default cutoff is 0.6."]).verdict == "refused"


# ---- numbers written as words are numbers, both ways ---------------------------------------------

@pytest.mark.parametrize("answer", ["The default cutoff is zero point nine [S1].", "The default cutoff is nine tenths [S1].",
                                    "The default cutoff is Zero Point Nine [S1].", "The default cutoff is a half [S1]."])
def test_a_number_in_words_is_checked(answer):
    v = verify(answer, CUTOFF)
    assert v.verdict == "refused" and v.sentences[0].missing_numbers and "does not appear in S1" in v.reason


def test_a_number_in_words_is_shown_with_what_the_span_has():
    assert verify("The default cutoff is zero point nine [S1].", CUTOFF).reason == \
        "Sentence 1: The number 'zero point nine' does not appear in S1: the span says 0.6, not zero point nine."


@pytest.mark.parametrize("answer, spans", [
    ("The default n is 3 [S1].", ["The default n is three."]),
    ("The default n is three [S1].", ["The default n is 3."]),
    ("The default cutoff is zero point six [S1].", CUTOFF),
    ("The default cutoff is six tenths [S1].", CUTOFF),
    ("It holds 21 items [S1].", ["It holds twenty-one items."]),
    ("It holds two hundred and five items [S1].", ["It holds 205 items."]),
])
def test_the_same_number_in_words_or_digits_is_anchored(answer, spans):
    assert strict(answer, spans) == "anchored"


@pytest.mark.parametrize("text, values", [
    ("twenty-one, twenty one, ninety nine, seventeen", [21, 21, 99, 17]),
    ("two hundred and five, a hundred, a thousand, one million two hundred thousand", [205, 100, 1000, 1200000]),
    ("zero point six five, nine tenths, three quarters, one half, a quarter, two and a half",
     ["0.65", "0.9", "0.75", "0.5", "0.25", "2.5"]),
    ("one two three", [1, 2, 3]),                                       # three numbers, not six
    ("the one, one of them, which one, one can see, each one", []),   # "one" as a pronoun
    ("half the time, the third argument, at this point six", [6]),      # left out: no count before them
    ("3 thousand", [3]),                                                # left out: digits mixed with words
])
def test_numbers_in_words(text, values):
    assert [v for _, v in numbers(text)] == [Decimal(str(x)) for x in values]


@pytest.mark.parametrize("answer, verdict", [
    ("It runs more efficiently than the two calls heappush() and heappop() [S1].", "anchored"),
    ("As one combined action it runs more efficiently [S1].", "anchored"),
    ("It runs more efficiently, two if the heap is empty [S1].", "refused"),      # before a stop word: a value
    ("The combined action runs more efficiently, one [S1].", "refused"),             # at the end: a value
    ("It runs more efficiently than the three calls heappush() and heappop() [S1].", "refused"),   # only one, two
])
def test_one_and_two_before_a_word_are_counts_in_prose(answer, verdict):
    span = "The combined action runs more efficiently than heappush() followed by a separate call to heappop()."
    assert verify(answer, [span]).verdict == verdict


@pytest.mark.parametrize("answer, verdict", [
    ("It goes in front of the first existing one [S1].", "anchored"),      # "one" for a thing
    ("The quicker one runs more efficiently [S1].", "anchored"),
    ("It returns one [S1].", "refused"),                                  # a value
])
def test_one_for_a_thing_is_not_a_number(answer, verdict):
    span = "It goes in front of the first existing x; it runs more efficiently, and it returns the first x."
    assert verify(answer, [span]).verdict == verdict


# ---- claims: the helpers' worked examples --------------------------------------------------------

def test_claims_docstring_examples():
    assert numbers("Cutoff 0.60, sizes 1,000 and .5, not base64") == \
        [("0.60", Decimal("0.6")), ("1,000", Decimal(1000)), (".5", Decimal("0.5"))]
    assert numbers("[0,1] and 1,000") == [("0", 0), ("1", 1), ("1,000", 1000)]
    assert numbers("version 3.14.1, 1.5ms, x-1, 2**31") == [("3.14.1", ("version", "3.14.1")), ("1", 1), ("2", 2), ("31", 31)]
    assert names("Use itertools.combinations or b64encode, e.g. now") == ["itertools.combinations", "b64encode"]
    assert not Claims("see itertools.combinations_with_replacement").has_name("itertools.combinations")
    assert Claims("default 0.6, see difflib.get_close_matches").has_number(Decimal("0.60"))
    assert (closest("0", ["1", "0.6"]), closest("0.9", ["0", "0.6"]), closest("7", ["abc"])) == ("0.6", "0.6", None)
    assert numbers("Python 3.10 since 2024-01-15, zero point nine") == \
        [("3.10", ("version", "3.10")), ("2024-01-15", ("date", 2024, 1, 15)), ("zero point nine", Decimal("0.9"))]
    assert closest("JsonDecoder", ["JSONDecoder"]) == "JSONDecoder"
