"""A number with a kind is one claim, compared as that kind: a date as a date (not its three numbers), a version
as written (3.1 is not 3.10), a roman numeral of I, V and X as written, a number with its unit (5 ms is not 5 s),
a time of day with its am or pm, a percentage as its share (60% is 0.6), a fraction in quotes as a string.
"""
import pytest

from rag_core.generation.answer_key import check_key
from rag_core.generation.quantities import numbers, with_units
from rag_core.generation.two_checkers import compare_modes
from rag_core.generation.verifier import verify

from checker_cases import CONTEXT, strict

CUTOFF = CONTEXT[:1]                  # the library's sentence alone: "(default 0.6) is a float in [0, 1]"


# ---- dates compare as dates ----------------------------------------------------------------------

RELEASED = ["Released on 2024-01-15."]


def test_a_date_with_day_and_month_swapped_is_refused():
    assert compare_modes("Released on 2024-15-01 [S1].", RELEASED)[0].verdict == "refused"
    assert verify("Released on 2024-15-01 [S1].", RELEASED, "article").verdict == "anchored"     # found as a bag
    assert verify("Released on 2024-01-16 [S1].", RELEASED).verdict == "refused"


@pytest.mark.parametrize("answer", ["Released on 2024-01-15 [S1].", "Released in 2024 [S1].",
                                    "Released on ２０２４-０１-１５ [S1]."])
def test_the_same_date_or_its_year_is_anchored(answer):
    assert strict(answer, RELEASED) == "anchored"


def test_a_date_is_one_claim():
    assert numbers("on 2024-01-15, not 2024-15-01") == [("2024-01-15", ("date", 2024, 1, 15)),
                                                         ("2024-15-01", ("date", 2024, 15, 1))]


# ---- versions are not decimals -------------------------------------------------------------------

@pytest.mark.parametrize("answer, span", [
    ("Requires Python 3.1 [S1].", "Requires Python 3.10."),
    ("Requires Python 3.10 [S1].", "Requires Python 3.1."),
    ("Requires Python 3.110 [S1].", "Requires Python 3.11."),
    ("It runs on 3.110 [S1].", "Requires Python 3.11."),                 # the span reads it as a version
    ("Needs version 2.50 [S1].", "Needs version 2.5."),
    ("Fixed in 3.14.01 [S1].", "Fixed in 3.14.1."),                      # two dots: a version, as written
])
def test_a_version_is_compared_as_written(answer, span):
    assert compare_modes(answer, [span])[0].verdict == "refused"
    assert verify(answer, [span]).sentences[0].missing_numbers


def test_a_version_says_what_the_span_has():
    assert verify("Requires Python 3.1 [S1].", ["Requires Python 3.10."]).reason == \
        "Sentence 1: The number '3.1' does not appear in S1: the span says 3.10, not 3.1."


@pytest.mark.parametrize("answer, span", [
    ("Requires Python 3.10 [S1].", "Requires Python 3.10."),
    ("It needs 3.10 [S1].", "Requires Python 3.10."),                    # written the same
    ("Requires Python 3.10 [S1].", "Tested on 3.10 only."),
    ("The default cutoff is 0.60 [S1].", "The default cutoff is 0.6."),  # plain decimals: by value
    ("The ratio is 3.110 [S1].", "The ratio is 3.11."),
])
def test_versions_and_decimals_that_agree_are_anchored(answer, span):
    assert strict(answer, [span]) == "anchored"


# ---- roman numerals ------------------------------------------------------------------------------

@pytest.mark.parametrize("answer, span, verdict", [
    ("See part III of the guide [S1].", "See part II of the guide.", "refused"),
    ("See part II of the guide [S1].", "See Part II.", "anchored"),                   # a period after it
    ("Chapter XIV covers it [S1].", "Chapter XIX covers it.", "refused"),
    ("A random IV is needed [S1].", "The initialization vector (iv) is random.", "anchored"),   # any case
    ("The IV must be 4 bytes [S1].", "The IV must be 16 bytes.", "refused"),         # a span's IV is not 4
    ("There are 3 retries [S1].", "Section III: 5 retries.", "refused"),               # nor its III 3
    ("See part II [S1].", "See part 2.", "anchored"),                                  # the answer's, by value
    ("See part 2 [S1].", "See part II.", "refused"),                                   # the span's: as written
    ("I agree with X [S1].", "I think X is right.", "anchored"),                      # "I", "X": letters
    ("Use the CLI [S1].", "Use the CLI.", "anchored"),                                 # C, L, D, M: names
])
def test_roman_numerals_of_i_v_x_are_claims_found_as_written(answer, span, verdict):
    assert strict(answer, [span]) == verdict


def test_what_a_roman_numeral_is():
    assert [lit for lit, _ in numbers("II III IV VI IX XIV XIX XXXIX IIII VX I Part II.")] == \
        ["II", "III", "IV", "VI", "IX", "XIV", "XIX", "XXXIX", "II"]


# ---- units and times of day ----------------------------------------------------------------------

@pytest.mark.parametrize("answer, span, verdict", [
    ("The timeout is 5 ms [S1].", "The timeout is 5 s.", "refused"),
    ("The timeout is 5 seconds [S1].", "The timeout is 5 s.", "anchored"),            # one unit, two spellings
    ("The timeout is 5 ms [S1].", "The timeout is 5.", "anchored"),                   # the span gives no unit
    ("It waits 5 ms [S1].", "It waits 5 s, then 5 ms.", "anchored"),
    ("It waits 5 ms [S1].", "It waits 5 s; the limit is 5.", "anchored"),             # 5 also written bare
    ("Blocks of 64 KB [S1].", "Blocks of 64 KiB.", "refused"),                         # KB is not KiB
    ("Blocks of 64 kb [S1].", "Blocks of 64 KB.", "anchored"),
    ("It takes 50 percent [S1].", "It takes 50% of the time.", "anchored"),
    ("It takes 50 minutes [S1].", "It takes 50% of the time.", "refused"),
    ("It holds 1,000 ms [S1].", "It holds 1,000 s.", "refused"),
    ("It is 5 B [S1].", "It is 5 b.", "anchored"),                                     # "b" alone is no unit
    ("Print 6 ms of it [S1].", 'Print "%6s" and 6 more.', "anchored"),                # glued: a name, no unit
    ("It waits 5 s [S1].", "It waits 5-10 ms.", "refused"),                          # a range shares its unit
    ("It waits at least 5 s [S1].", "It waits between 5 and 10 ms.", "refused"),
    ("It waits 5 s [S1].", "It waits 5, 10 or 20 ms.", "refused"),
    ("It waits 5 ms [S1].", "It waits 5 to 10 ms.", "anchored"),
    ("It waits 5 s [S1].", "It retries 5 times, 10 ms apart.", "anchored"),          # 5 has no unit there
    ("It needs 64 megabytes [S1].", "It needs 64 KB.", "refused"),
    ("It waits 5\tms [S1].", "It waits 5 s.", "refused"),
    ("It lasts 5 mın [S1].", "It lasts 5 s.", "anchored"),                             # no unit of ours: no crash
    ("It lasts 5 s [S1].", "It lasts 5 mİn.", "anchored"),
    ("A UUID is 16 KB long [S1].", "The UUID as a 16-byte string.", "refused"),      # with a hyphen
    ("A UUID is 16 bytes long [S1].", "The UUID as a 16-byte string.", "anchored"),
])
def test_a_unit_after_a_number_is_part_of_its_claim(answer, span, verdict):
    assert strict(answer, [span]) == verdict


@pytest.mark.parametrize("answer, span, verdict", [
    ("It runs at 30:10 [S1].", "It runs at 10:30 every day.", "refused"),           # the same two numbers
    ("It runs at 10:30:00 [S1].", "It runs at 10:30 every day.", "anchored"),
    ("It runs at 10:30 [S1].", "It runs at 10 and stops at 30.", "refused"),
    ("It runs at 10 [S1].", "It runs at 10:30.", "anchored"),                         # a time states its numbers
    ("Stamp 2024-01-02T10:00:30Z [S1].", "Stamp 2024-01-02T10:30:00Z.", "refused"),
    ("Stamp 2024-01-02T10:30:00Z [S1].", "Stamp 2024-01-02T10:30:00Z.", "anchored"),
    ("On 2024-01-02 at 10:30 [S1].", "Stamp 2024-01-02T10:30:00Z.", "anchored"),
    ("The cutoff is 0 [S1].", "Runs at 10:30; the cutoff is 0.6.", "refused"),       # no second written: no 0
    ("At 10:30:00.9 [S1].", "At 10:30:00.5.", "refused"),                             # fractions of a second count
    ("At 0:00:01.5 [S1].", "At 0:00:01.500000.", "anchored"),
    ("It runs at 10:30 pm [S1].", "It runs at 10:30 am.", "refused"),               # am and pm
    ("It runs at 10 pm [S1].", "It runs at 10 a.m.", "refused"),
    ("It runs at 22:30 [S1].", "It runs at 10:30 PM.", "anchored"),
    ("It runs at 10:30 p.m. [S1].", "It runs at 22:30.", "anchored"),
    ("It runs at 10:30 [S1].", "It runs at 10:30 pm.", "anchored"),                  # a bare time: the clock's
    ("It draws 10 amps [S1].", "It draws 10 amps.", "anchored"),
])
def test_a_time_is_one_claim(answer, span, verdict):
    assert strict(answer, [span]) == verdict


def test_a_wrong_unit_is_named_with_what_the_span_has():
    v = verify("The timeout is 5 ms [S1].", ["The timeout is 5 s."])
    assert "The number '5 ms' does not appear in S1: the span says 5 s, not 5 ms." in v.reason
    assert with_units("5 s or 64 KiB, 1,000 ms and 0,100 ms") == [
        ("5 s", 5, "s"), ("64 KiB", 64, "KiB"), ("1,000 ms", 1000, "ms"), ("0,100 ms", 100, "ms")]


# ---- percentages and fractions -------------------------------------------------------------------

@pytest.mark.parametrize("answer, verdict", [
    ("It must be at least 60% similar [S1].", "anchored"),
    ("It must be at least 60 percent similar [S1].", "anchored"),
    ("It must be at least 60 similar [S1].", "refused"),           # 60 without % is not 0.6
    ("It must be at least 70% similar [S1].", "refused"),
])
def test_a_percentage_is_its_share(answer, verdict):
    assert verify(answer, CUTOFF).verdict == verdict


def test_a_percentage_states_a_key_in_shares():
    assert check_key("The default cutoff is 60% [S1].", "0.6", "Optional arg cutoff (default 0.6)").right is True
    assert check_key("The default cutoff is 90% [S1].", "0.6", "Optional arg cutoff (default 0.6)").right is not True


def test_a_fraction_in_quotes_is_a_string_not_a_value():
    anchor = "Fraction(8, 6) will produce a rational number equivalent to 4/3"
    answer = "It gives 4/3; fractions can also be built from strings such as '123/456' [S1]."
    assert check_key(answer, "4/3", anchor).right is True
    assert check_key("It gives 123/456 [S1].", "4/3", anchor).right is False
