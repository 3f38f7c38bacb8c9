"""The strict checker on the cases a real model writes (issue 17) and on answers that claim nothing (issue 16).

Each group starts with the cases that were judged wrongly before (they fail on the old checker) and ends with
the controls that must keep their verdict. The last test feeds generated odd inputs (random unicode, huge numbers,
many brackets, 1 MB answers) to both modes and asserts a verdict comes back, in bounded time.
"""
import json
import random
import time
from decimal import Decimal

import pytest

from rag_core.__main__ import main
from rag_core.generation.claims import Claims
from rag_core.generation.quantities import numbers, with_units
from rag_core.generation.two_checkers import compare_modes, disagreement
from rag_core.generation.verifier import MODES, VERDICTS, Verdict, verify


def strict(answer, spans):
    return verify(answer, spans).verdict


# ---- numbers written as words are numbers, both ways ----------------------------------------------

CUTOFF = ["The default cutoff is 0.6."]


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


# ---- dates compare as dates ------------------------------------------------------------------------

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


# ---- versions are not decimals ---------------------------------------------------------------------

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


# ---- technical names are case-sensitive ------------------------------------------------------------

@pytest.mark.parametrize("answer, span, instead", [
    ("Call Get_Close_Matches [S1].", "Call difflib.get_close_matches(word)", "difflib.get_close_matches"),
    ("Use JsonDecoder [S1].", "Use json.JSONDecoder to decode.", "json.JSONDecoder"),
    ("Use jsondecoder.decode [S1].", "Use JSONDecoder.decode to decode.", "JSONDecoder.decode"),
    ("Get_Close_Matches takes a cutoff [S1].", "difflib.get_close_matches takes a cutoff.", "difflib.get_close_matches"),
    ("It grows by a third with Base64 [S1].", "base64 grows the data by a third.", "base64"),     # not the first word
])
def test_a_name_in_another_case_is_refused(answer, span, instead):
    s, a = compare_modes(answer, [span])
    assert (s.verdict, a.verdict) == ("refused", "anchored")
    assert s.sentences[0].closest[0][1] == instead and f"the span says {instead}, not " in s.reason


@pytest.mark.parametrize("answer, span", [
    ("The DEFAULT_CUTOFF is 0.6 [S1].", "default_cutoff = 0.6"),       # written in capitals: any case
    ("Hash with sha256 [S1].", "hashlib.SHA256 returns a hash."),
    ("Call get_close_matches [S1].", "Call difflib.get_close_matches(word)"),
    ("Base64 grows the data by a third [S1].", "base64 grows the data by a third."),    # a sentence's first word
    ("Get_close_matches takes a cutoff [S1].", "difflib.get_close_matches takes a cutoff."),
])
def test_names_in_capitals_match_in_any_case(answer, span):
    assert strict(answer, [span]) == "anchored"


@pytest.mark.parametrize("answer, span, instead", [
    ("Use `Jsondecoder` to parse [S1].", "Use json.JSONDecoder to parse.", "json.JSONDecoder"),   # a plain word
    ("An `ordereddict` keeps order [S1].", "An OrderedDict keeps order.", "OrderedDict"),          # written as code
    ("Ordereddict() keeps order [S1].", "collections.OrderedDict keeps order.", "collections.OrderedDict"),
    ("Call `getlogger(name)` [S1].", "Call logging.getLogger(name).", "logging.getLogger"),
    ("Override `setup` [S1].", "Override TestCase.setUp to prepare.", "TestCase.setUp"),
])
def test_a_word_written_as_code_in_another_case_than_the_spans_mixed_case_name_is_refused(answer, span, instead):
    s, a = compare_modes(answer, [span])
    assert (s.verdict, a.verdict) == ("refused", "anchored")
    assert s.sentences[0].closest[0][1] == instead and f"the span says {instead}, not " in s.reason


@pytest.mark.parametrize("answer, span", [
    ("The path module joins paths [S1].", "The Path class joins paths."),            # one capital: English case
    ("`JSONDECODER` parses it [S1].", "JSONDecoder parses it."),                      # capitals: any case
    ("An OrderedDict keeps order [S1].", "An OrderedDict keeps order."),
    ("Sha is a hash [S1].", "SHA is a hash."),
    ("Use Jsondecoder to parse [S1].", "Use json.JSONDecoder to parse."),            # prose: the writer's case
    ("The numpy arrays and sqlite files [S1].", "NumPy arrays and SQLite files."),
    ("Override the setup [S1].", "Override TestCase.setUp to prepare."),
    ("Use `zipfile` here [S1].", "Use zipfile.ZipFile here."),                       # the span writes it so too
    ("Github and Iphone apps [S1].", "GitHub and iPhone apps."),
])
def test_case_of_words_in_prose_or_written_so_by_the_span_is_free(answer, span):
    assert strict(answer, [span]) == "anchored"


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


def test_has_name_examples():
    c = Claims("json.JSONDecoder, difflib.get_close_matches, DEFAULT_CUTOFF")
    assert [c.has_name(n) for n in ("JSONDecoder", "JsonDecoder", "Get_Close_Matches", "default_cutoff", "JSONDECODER")] \
        == [True, False, False, True, True]


# ---- abstentions -----------------------------------------------------------------------------------

@pytest.mark.parametrize("answer", ["NOT IN THE CONTEXT!", "NOT IN THE CONTEXT?", "NOT IN THE CONTEXT!!", "Not in the context;",
                                    "**NOT IN THE CONTEXT!**", '"NOT IN THE CONTEXT!"', "NOT IN THE CONTEXT…",
                                    "_Not in the context!_.", "NOT IN THE CONTEXT:"])
def test_an_abstention_with_any_final_punctuation_abstains(answer):
    assert strict(answer, CUTOFF) == "abstained"


@pytest.mark.parametrize("answer", ["The answer is NOT IN THE CONTEXT [S1].", "NOT IN THE CONTEXT [S1].",
                                    "**NOT IN THE CONTEXT** [S1]", "The answer is not in the context [S1].",
                                    "The cutoff is 0.6 [S1]. The rest is NOT IN THE CONTEXT [S1]."])
def test_a_claimed_abstention_with_a_citation_is_refused(answer):
    v = verify(answer, CUTOFF)
    assert v.verdict == "refused"
    assert "It says NOT IN THE CONTEXT and cites S1: a claimed abstention with a citation is not an answer" in v.reason
    assert not v.sentences[-1].ok


def test_not_in_the_context_of_something_is_plain_english():
    assert strict("This is not in the context of threads [S1].", ["This is not in the context of threads."]) == "anchored"


def test_the_disagreement_on_a_claimed_abstention_names_both_reasons():
    said = disagreement("NOT IN THE CONTEXT [S1].", CUTOFF)
    assert said.startswith("The article's checker says abstained") and "claimed abstention" in said


# ---- nothing to check ------------------------------------------------------------------------------

SPANS = ["Optional arg cutoff (default 0.6) is a float in [0, 1].", "NOTE (draft): the cutoff of get_close_matches.",
         "Return a list of the best good enough matches."]


@pytest.mark.parametrize("answer, where", [("The answer is: [S3].", "S3"), ("The answer is: [S3][S2].", "S3 or S2"),
                                           ("It is so [S1]. Yes [S2].", "S1 or S2")])
def test_an_answer_with_nothing_to_check_is_refused(answer, where):
    s, a = compare_modes(answer, SPANS)
    assert (s.verdict, a.verdict) == ("refused", "anchored")
    assert s.reason.startswith(f"Nothing to check: the answer has no number, no technical name and not most of its "
                               f"words in {where}, so nothing in it can be looked for in the span")
    assert all(not c.ok and c.explanation.startswith("Nothing to check:") for c in s.sentences)


@pytest.mark.parametrize("answer", ["Return a list of the best good enough matches [S3].",     # copied: passes
                                    "The best matches [S3].",                                 # words of S3
                                    "The cutoff is 0.6 [S1]. Yes [S2].",                      # yes/no answers it
                                    "It is 0.6 [S1]."])
def test_an_answer_with_something_to_check_passes(answer):
    assert strict(answer, SPANS) == "anchored"


@pytest.mark.parametrize("answer", ["The cutoff is 0.6 [S1]. Fine [S2].",
                                    "The cutoff is 0.6 [S1]. A sentence without an identifier is a violation. [S3]",
                                    "It is 0.6 [S1]. Words without any identifier are a violation of the rule "
                                    "[S3]."])
def test_every_sentence_must_carry_something_to_check(answer):
    v = verify(answer, SPANS)
    bad = [c for c in v.sentences if not c.ok]
    assert v.verdict == "refused" and len(bad) == 1 and not bad[0].testable
    assert bad[0].explanation.startswith("Nothing to check: this sentence has no number")
    assert "every sentence must carry something to check" in v.reason


@pytest.mark.parametrize("answer", ["The cutoff is 0.6, i.e. six tenths [S1].", "The cutoff is 0.6, e.g. for words "
                                    "[S1].", "It is a float in [0, 1], approx. 0.6 [S1].",
                                    "Floats etc. are accepted; the cutoff is 0.6 [S1]."])
def test_abbreviations_do_not_end_a_sentence(answer):
    v = verify(answer, SPANS)
    assert v.verdict == "anchored" and len(v.sentences) == 1, v.reason


@pytest.mark.parametrize("answer,cited", [("The cutoff is 0.6 [s1].", (1,)), ("The cutoff is 0.6 [S1, S2].", (1, 2)),
                                          ("The cutoff is 0.6 [S1][S2].", (1, 2)), ("The cutoff is 0.6 (S1).", (1,)),
                                          ("The cutoff is 0.6 [S1; s3].", (1, 3))])
def test_citations_as_a_person_writes_them(answer, cited):
    v = verify(answer, SPANS)
    assert v.verdict == "anchored" and v.cited_spans == cited
    assert verify(answer, SPANS, "article").verdict == ("anchored" if "[S1]" in answer else "refused")


def test_a_citation_read_as_one_still_needs_its_claims():
    v = verify("The cutoff is 0.9 (S1).", SPANS)
    assert v.verdict == "refused" and "0.9" in v.reason


# ---- no answer crashes the checker -----------------------------------------------------------------

HUGE = "1" * 4301


@pytest.mark.parametrize("answer", [f"The cutoff is 0.{HUGE} [S1].", f"Version {HUGE}.{HUGE}.{HUGE} [S1].",
                                    f"It is {HUGE}.{HUGE} [S1].", f"It is 0.6 [S{HUGE}].", f"It is 0.6 [S1][S{'0' * 5000}7].",
                                    f"NOT IN THE CONTEXT [S{HUGE}]."])
def test_huge_numbers_give_a_verdict(answer):
    for mode in MODES:
        v = verify(answer, CUTOFF, mode)
        assert v.verdict == ("abstained" if mode == "article" and answer.startswith("NOT") else "refused")
        assert json.dumps(v.as_dict())
    disagreement(answer, CUTOFF)


def test_a_huge_citation_is_out_of_range_and_shown_short():
    v = verify(f"It is 0.6 [S{HUGE}].", CUTOFF)
    assert v.reason == ("Sentence 1: Cites S(a number of more than 18 digits), which does not exist: only S1 was "
                        "handed over.")


def test_the_cli_gives_a_verdict_for_a_huge_number(capsys, tmp_path):
    spans = tmp_path / "spans.json"
    spans.write_text(json.dumps(CUTOFF))
    assert main(["verify", "--spans", str(spans), "--answer", f"It is 1.{HUGE}.2 [S1].", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "refused"


def odd_answers(rng: random.Random):
    """Generated odd answers: random unicode, digits and separators, brackets and citations, number words,
    the abstention phrase, huge numbers; and a few 1 MB answers built to be slow for a backtracking reader."""
    pieces = ["0", "1", "9", ".", ",", "_", "-", "+", "[", "]", "[S", "S", "[S1]", "[S0]", "[S99]", " ", "\n", "*", "`",
              "NOT IN THE CONTEXT", "not in the context", "one", "twenty", "hundred", "point", "tenths", "a", "and",
              "Python", "version", "v", "2024-01-15", "e", "x", "é", "\u2212", "０", "．", "\u0000", "\ud800", "\U0001F600",
              "difflib.get_close_matches", "JSONDecoder", "!", "?", ":", "\\"]
    for _ in range(300):
        n = rng.randint(0, 60)
        yield "".join(rng.choice(pieces) if rng.random() < 0.8 else chr(rng.randint(1, 0x10FFFF)) for _ in range(n))
    for _ in range(20):
        yield "".join(rng.choice("0123456789.,_") for _ in range(rng.randint(4000, 20000))) + " [S1]."
    mb = 1_000_000
    yield "1" * mb + ".1.1 [S1]."                         # a long run of digits, then dots
    yield "1,," * (mb // 3) + "a [S1]."                   # separators that restart a number on each digit
    yield "_,1" * (mb // 3) + "a [S1]."
    yield "[" * mb
    yield "[S1]" * (mb // 4)
    yield "a." * (mb // 2) + "b [S1]."                    # one dotted name of 500,000 parts
    yield "one two three " * (mb // 14) + "[S1]."
    yield "I" * mb + " [S1]."                             # one long word: each start of a call "f(" was read anew
    yield "x" * mb + "( [S1]."
    yield "10:30 pm 5-10 ms `IV` " * (mb // 22) + "[S1]."
    yield "".join(chr(rng.randint(32, 0x2FFFF)) for _ in range(mb // 4))


def test_missing_names_against_a_megabyte_of_names_take_seconds_not_minutes():
    """Each missing name searched what the span has instead among all its names: 200 sentences against a 1 MB
    span took 35 s, a 1 MB answer over 14 minutes. Now 20 sentences get that hint, over 2,000 names each."""
    span = " ".join(f"FooBar{i}" for i in range(100_000))[:1_000_000]
    start = time.perf_counter()
    v = verify(("Call `foobar1` or foo_bar2 now [S1]. " * 30_000)[:1_000_000], [span])
    took = time.perf_counter() - start
    assert v.verdict == "refused" and "the span says FooBar1, not foobar1" in v.reason
    assert not v.sentences[-1].closest                          # no hint that far down: its cost is bounded
    assert took < 60, f"{took:.1f} s"                            # about 2 s on this machine, busy


def test_generated_odd_answers_always_get_a_verdict():
    rng = random.Random(17)
    span_sets = [CUTOFF, SPANS, [], ["", "x" * 10_000 + " 0.6 " * 1000], ["Python 3.10 on 2024-01-15, twenty-one."]]
    slowest = 0.0
    for answer in odd_answers(rng):
        spans = rng.choice(span_sets)
        for mode in MODES:
            start = time.perf_counter()
            v = verify(answer, spans, mode)
            slowest = max(slowest, time.perf_counter() - start)
            assert isinstance(v, Verdict) and v.verdict in VERDICTS and isinstance(v.reason, str)
            json.dumps(v.as_dict())
        if len(answer) < 100_000:
            disagreement(answer, spans)
    assert slowest < 60, f"the slowest answer took {slowest:.1f} s"      # linear: about 5 s for 1 MB on a busy machine


# ---- the attack pass's cases (after the first round of fixes) -------------------------------------------------

@pytest.mark.parametrize("answer", ["The cutoff is minus zero point six [S1].", "The cutoff is \u20130.6 [S1].",
                                    "The cutoff is \u20100.6 [S1].", "The cutoff is negative 0.6 [S1]."])
def test_a_sign_in_words_or_as_a_dash_is_a_sign(answer):
    assert verify(answer, ["The default cutoff is 0.6."]).verdict == "refused"


def test_a_citation_after_the_period_belongs_to_its_sentence():
    v = verify("The cutoff is 0.6. [S1]", ["The default cutoff is 0.6."])
    assert v.verdict == "anchored" and len(v.sentences) == 1


@pytest.mark.parametrize("answer", ["> NOT IN THE CONTEXT", "# NOT IN THE CONTEXT", "**NOT IN THE CONTEXT!**"])
def test_an_abstention_as_a_quote_or_heading_is_an_abstention(answer):
    assert verify(answer, ["x"]).verdict == "abstained"
