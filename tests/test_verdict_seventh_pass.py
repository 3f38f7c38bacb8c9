"""The seventh pass of the verdict, rule by rule, on made-up spans: a headline paragraph read with the citation after
it, a list after "[S1]:", a list's numbering, a number denied ("48, not 50") or reported of a note, advice and
examples after the last citation, examples run by Python, drafts set aside in more words, a refusal only inside a
clause that sets a draft aside, the other names of a function, "two-step" and "try/except"."""
import sys

import pytest

from one_document import Documents, judged_in
from rag_core.evaluation.judgement import judge_answer
from rag_core.generation.advice import advice
from rag_core.generation.citations import strict_sentences
from rag_core.generation.claim_words import claim_word
from rag_core.generation.dismissal import dismissed
from rag_core.generation.examples import only_examples, outside, run
from rag_core.generation.prose import prose_counts, titled_words
from rag_core.generation.unasserted import blank
from rag_core.generation.verifier import verify

MEAN = "## statistics.harmonic_mean\n\nharmonic_mean([40, 60]) returns 48.0 for equal distances."
COMB = "## math.comb\n\nEvaluates to n! / (k! * (n - k)!) when k <= n and evaluates to zero when k > n."
LRU = "## functools.lru_cache\n\nIf maxsize is set to None, the LRU features are disabled and the cache can grow " \
      "without bound."
GLOB = "## glob\n\nUnlike fnmatch, filenames starting with a dot are special cases that are not matched by '*' and " \
       "'?' patterns by default."
DRAFT = "NOTE (draft): the default cutoff of get_close_matches is 0.9, so only near identical words are returned."
CUTOFF = "Optional arg cutoff (default 0.6) is a float in [0, 1]."

mean = judged_in(MEAN, "statistics", "returns 48.0", key="48.0",
                 question="I drive one leg at 40 and back at 60: what is my overall speed?")
comb = judged_in(COMB, "math", "evaluates to zero when k > n", key="zero when k > n",
                 question="What does math.comb return when k is greater than n?")    # names the documented comb
lru = judged_in(LRU, "functools", "the LRU features are disabled and the cache can grow without bound",
                key="disabled and the cache can grow without bound", question="What does lru_cache do when "
                                                                              "maxsize is None?")
glob = judged_in(GLOB, "glob", "not matched by '*'", key="not matched by '*'", reply="no",
                 question="Does a wildcard pattern pick up hidden files?")


def cutoff(answer: str):
    """An answer judged against the documentation (S1) and a draft note (S2)."""
    return judge_answer(answer, [CUTOFF, DRAFT], [0, 1], Documents(("difflib", "current"), ("note-difflib", "draft")),
                        "difflib", "Optional arg cutoff (default 0.6)", key="0.6",
                        question="What is the default cutoff of get_close_matches?")


# --- how the checker reads sentences and what they assert ---------------------------------------------------------

def test_an_opening_paragraph_without_a_citation_is_read_with_the_next_one():
    assert strict_sentences("48 km/h.\n\nIt returns 48.0 [S1].\n\nNote: drive safely.") == \
        ["48 km/h. It returns 48.0 [S1].", "Note: drive safely."]
    assert verify("48 km/h.\n\nharmonic_mean([40, 60]) returns 48.0 [S1].", [MEAN]).verdict == "anchored"
    assert verify("50 km/h.\n\nharmonic_mean([40, 60]) returns 48.0 [S1].", [MEAN]).verdict == "refused"   # checked
    middle = verify("It returns 48.0 [S1].\n\nIt is fast.\n\nharmonic_mean([40, 60]) returns 48.0 [S1].", [MEAN])
    assert middle.verdict == "refused" and "No citation" in middle.reason


def test_the_items_of_a_list_opened_by_a_citation_are_read_with_it():
    got = strict_sentences("Two effects [S1]:\n1. The LRU features are off.\n2. The cache has no limit.\nThe note [S2] "
                           "is wrong.")
    assert got == ["Two effects [S1]:\n1. The LRU features are off. 2. The cache has no limit.", "The note [S2] is wrong."]
    assert strict_sentences("It is 0.6 [S1]: the default. It is a float.") == ["It is 0.6 [S1]: the default.",
                                                                                "It is a float."]


@pytest.mark.parametrize("sentence, kept, gone", [
    ("2. It is 48, not 50 [S1].", "48", ["50", "2."]),
    ("Not 50: it is 48 [S1].", "48", ["50"]),
    ("It is not 1 but 2 [S1].", "1", []),                       # says what is: both stay claims
    ("It uses 'y' instead of 14 spaces [S1].", "14", []),
    ("width (default: 71) the maximum [S1].", "71", []),        # no list: a number after a colon
    ("12) 0.22 References [S1].", "12", []),                    # no list: no word after it
    ("One of the notes says zero point nine, but the docs say 0.6 [S1].", "0.6", ["nine"]),
    ("so no need for os.remove [S1].", "need", ["os.remove"]),
])
def test_what_a_sentence_writes_without_asserting_it(sentence, kept, gone):
    out = blank(sentence)
    assert len(out) == len(sentence) and kept in out and not any(g in out for g in gone), out


def test_a_denied_number_and_a_note_s_number_are_not_looked_for_in_the_span():
    assert verify("It's 48, not 50 [S1].", [MEAN]).verdict == "anchored"
    assert verify("It's 50, not 48 [S1].", [MEAN]).verdict == "refused"
    assert verify("The note claiming 0.9 is only a draft, so go with 0.6 [S1].", [CUTOFF]).verdict == "anchored"
    assert verify("As the documentation says, it is 0.9 [S1].", [CUTOFF]).verdict == "refused"
    assert verify("As the note says 0.9 is the default [S1].", [CUTOFF]).verdict == "refused"   # not rejected: said


def test_the_other_names_of_a_function_come_with_its_section_and_nothing_else_is_imported():
    assert {"insort", "insort_right"} <= titled_words("bisect bisect.insort")
    assert "bisect_right" in titled_words("bisect bisect.bisect")
    assert titled_words("antigravity antigravity.fly") == {"antigravity", "antigravity.fly", "fly"}
    assert "antigravity" not in sys.modules


def test_the_except_of_try_except_is_prose_and_a_count_before_a_hyphen_stays_a_number():
    assert "two" not in prose_counts("Python uses two-based indexing")     # "zero-based" changed: a claim
    assert claim_word("Wrap it in a try/except if empty lists can happen.") == ""
    assert claim_word("Every batch except the last has n items.") in ("every", "except")


# --- advice and examples ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("sentence, is_advice", [
    ("Tip: bump the cutoff up if you only want really close suggestions.", True),
    ("If you need hidden files, match the leading dot explicitly.", True),
    ("You can raise or lower it per call.", True),
    ("Nice and predictable!", True),
    ("Just keep an eye on memory if you call it with lots of different arguments!", True),
    ("In addition, mkdtemp removes the directory when the program exits.", False),
    ("If you need privacy, you should set permissions yourself.", False),       # doubts the answer
    ("Pass it explicitly to be safe.", False),
    ("I'd benchmark it.", False),
    ("This is done to keep the output small.", False),
])
def test_advice(sentence, is_advice):
    assert advice(sentence) is is_advice


def test_advice_after_the_last_citation_leaves_a_right_answer_green_and_a_doubt_or_a_new_name_does_not():
    got = mean("Your overall speed is 48.0 [S1]. Tip: use harmonic_mean for rates.")
    assert got.outcome == "answered" and "advice" in got.sentence, got.sentence
    assert mean("Your overall speed is 48.0 [S1]. Tip: use statistics.fmean for rates.").outcome == "not confirmed"
    assert mean("Your overall speed is 48.0 [S1]. Benchmark it yourself to be safe.").outcome == "not confirmed"
    assert mean("Your overall speed is 48.0 [S1]. It is also faster than the mean.").outcome == "not confirmed"
    assert mean("Your overall speed is 50 [S1]. Tip: use harmonic_mean for rates.").tone != "green"


def test_cited_advice_with_nothing_to_check_does_not_make_the_answer_grey():
    got = lru("The LRU features are disabled and the cache can grow without bound [S1]. You can pass a number "
              "if you want a limit [S1].")
    assert got.outcome == "answered" and "advice" in got.sentence, got.sentence


@pytest.mark.parametrize("text, said, got, agrees", [
    ("`math.comb(3, 5)  # -> 0`", "0", "0", True),
    ("median_low([1, 3, 5, 7]) gives 5", "5", "3", False),
    ("harmonic_mean([40, 60]) returns 48.0", "48.0", "48.0", True),
    ("2 / (1/40 + 1/60) = 48", "48", "47.99999999999999", True),
    ("`Fraction(8, 6)  # -> Fraction(4, 3)`", "Fraction(4, 3)", "Fraction(4, 3)", True),
    ("Fraction(8, 6) gives 4/3", "4/3", "Fraction(4, 3)", True),
    ("`list(batched('ABCDEFG', 3))  # -> [('A', 'B', 'C'), ('D', 'E', 'F'), ('G',)]`",
     "[('A', 'B', 'C'), ('D', 'E', 'F'), ('G',)]", "[('A', 'B', 'C'), ('D', 'E', 'F'), ('G',)]", True),
    (">>> base64.urlsafe_b64encode(b'\\xfb\\xff')\nb'-_8='", "b'-_8='", "b'-_8='", True),
    ("`statistics.fmean([])` raises `StatisticsError`", "StatisticsError", "StatisticsError", True),
    (">>> fmean([])\nTraceback (most recent call last):\n  ...\nstatistics.StatisticsError: no data",
     "Traceback (most recent call last):\n  ...\nstatistics.StatisticsError: no data", "StatisticsError", True),
])
def test_an_example_is_run_and_compared_with_the_result_it_states(text, said, got, agrees):
    (e,) = run(text)
    assert (e.said, e.got, e.agrees) == (said, got, agrees)


@pytest.mark.parametrize("text", [
    "comb(10**9, 5) = 3",                           # too big to run
    "'a' * 10**9 = 1",                              # not numbers
    "os.system('rm -rf /') returns 0",              # not a function it runs
    "__import__('os').getcwd() returns 1",
    "math.comb.__globals__ is 1",
    "fmean() raises StatisticsError when the dataset is empty",     # a name, not a call
    "batched('ABCDEFG', 3) gives ('A', 'B', 'C'), ('D', 'E', 'F'), or ('G',)",          # a result in pieces
    "comb(3, 5) is the number of ways",             # no result stated
    "(" * 100_000 + "1" + ")" * 100_000 + " = 1",   # deep: not read
])
def test_what_is_not_run(text):
    assert run(text) == []


def test_examples_checked_by_running_need_not_be_in_the_span_and_a_wrong_one_is_grey():
    assert comb("Zero when k > n [S1]: `math.comb(3, 5)  # -> 0`.").outcome == "answered"
    got = comb("Zero when k > n [S1]; for instance `math.comb(3, 5)` returns 1 [S1].")
    assert got.verdict.verdict == "refused"                             # 3, 5 and 1 are not in the span
    got = comb("It evaluates to zero when k > n [S1]. For instance, comb(3, 5) gives 0.")
    assert got.outcome == "answered" and "example" in got.sentence, got.sentence
    assert only_examples("For instance, comb(3, 5) gives 0.") and not only_examples(
        "Since the legs are equal, the average is simply (40 + 60) / 2 = 50 km/hr.")
    assert outside("comb(3, 5) gives 1. Use it.") is None


def test_an_example_that_python_contradicts_makes_a_grounded_answer_grey():
    spans = ["median_low([1, 3, 5, 7]) returns the smaller of the two middle values, 3; 5 is the larger."]
    got = judge_answer("It returns the smaller middle value: median_low([1, 3, 5, 7]) gives 5 [S1].", spans, [0],
                       Documents(("statistics", "current")), "statistics", "the smaller", key="smaller")
    assert got.outcome == "not confirmed" and "when Python runs it" in got.sentence, got.sentence


# --- drafts set aside --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("answer", [
    "It is 0.6 [S1]. The note about fmean [S2] has nothing to do with this question.",
    "It is 0.6 [S1]. The [S2] note concerns fmean rather than median_low, so it doesn't affect this.",
    "It is 0.6 [S1]. Don't trust the draft note saying it is 0.9 [S2]; the docs say otherwise.",
    "It is 0.6 [S1]. Note [S2] talks about bisect_left, not about this function.",
    "It is 0.6 [S1]. Ignore [S2], it is not 0.9.",
    "It is 0.6 [S1]. One note says 0.9, but that's not what the documentation says [S2].",
    "It is 0.6 [S1]. [S2] says 0.9, but that's how `get_close_matches_fast` behaves.",
])
def test_more_ways_to_set_a_draft_aside(answer):
    assert dismissed(answer)[0] == {2}


def test_a_refusal_only_inside_a_clause_that_sets_the_draft_aside_leaves_the_rest_to_judge():
    got = cutoff("The default cutoff is 0.6 [S1]. [S2] says 0.9, but that's how `get_close_matches_fast` behaves.")
    assert got.verdict.verdict == "refused" and got.outcome == "answered", got.sentence
    got = cutoff("The default cutoff is 0.6 [S1]. [S2] says 0.9 and `get_close_matches_fast` uses it.")
    assert got.outcome == "refused"


def test_a_draft_said_not_to_be_trusted_is_not_negated_by_the_not():
    assert dismissed("Don't trust the draft [S2].")[0] == {2}
    assert dismissed("It is not a draft [S2].")[0] == set()


# --- round two: replies, "rather than", endorsed citations, questions, an "only" widened -----------------------------

@pytest.mark.parametrize("answer, reply", [("Yep [S1].", "yes"), ("Nope, it is skipped [S1].", "no"),
                                           ("Not by default. It is 0 [S1].", "no"), ("No one but you [S1].", ""),
                                           ("Nothing is stored [S1].", "")])
def test_more_ways_to_say_yes_or_no(answer, reply):
    from rag_core.generation.yes_no import opening_reply
    assert opening_reply(answer)[0] == reply


def test_rather_than_does_not_reach_past_a_when():
    from rag_core.generation.answer_key import check_key
    key, anchor, q = "zero when k > n", "evaluates to zero when k > n", "What does comb return when k > n?"
    assert check_key("It just returns 0 rather than raising when k > n [S1].", key, anchor, q).right is True
    assert check_key("It returns 0.0 instead of raising [S1].", "raising", "raising", None).right is False
    assert comb("IIRC it just returns 0 rather than raising when k > n [S1].").outcome == "answered"


@pytest.mark.parametrize("answer, aside, rest", [
    ("It is 0.6 [S1]. The note in [S2] claims 0.9, but that contradicts the documentation, so go with [S1].", {2},
     "It is 0.6 [S1]."),
    ("It is 0.6 [S1]. The note in [S2] says 0.9, but the documentation contradicts that.", {2}, "It is 0.6 [S1]."),
    ("The note [S2] says 0.9, but the documentation [S1] says otherwise.", {2}, ""),
    ("It is 0.9 [S2], but the documentation [S1] says otherwise.", {2}, ""),     # S1 stays a source
    ("The default cutoff is 0.6, not 0.9 as the draft note [S2] claims [S1].", {2}, None),
])
def test_a_citation_a_status_clause_trusts_stays_a_source(answer, aside, rest):
    got = dismissed(answer)
    assert got[0] == aside and (rest is None or got[1] == rest), got


def test_a_question_to_the_reader_after_the_last_citation_claims_nothing():
    got = mean("Your overall speed is 48.0 [S1]. Quick check: what would 30 and 90 give?")
    assert got.outcome == "answered" and "question" in got.sentence, got.sentence
    assert mean("Your overall speed is 48.0 [S1]. That is 2 km/h below 50.").outcome == "not confirmed"


def test_numbers_said_again_after_an_example_python_agrees_with_are_the_example_s():
    spans = ["Return the index where to insert item x in list a. So if x already appears in the list, a.insert(i, x) "
             "will insert just before the leftmost x already there."]
    q = "Which position does bisect_left return when x is already in the list?"
    assert verify("`bisect_left([1, 2, 2, 3], 2)` -> `1`, i.e. the slot just before the leftmost existing 2 [S1].",
                  spans, question=q).verdict == "anchored"
    assert verify("`bisect_left([1, 2, 2, 3], 2)` -> `1`, i.e. the slot just before index 7 [S1].",
                  spans, question=q).verdict == "refused"
    assert verify("`bisect_right([1, 2, 2, 3], 2)` -> `3`, i.e. the slot after the last 2 [S1].", spans,
                  question=q).verdict == "refused"        # not the documented function: its numbers are claims


def test_an_only_widened_with_what_no_span_writes_is_grey():
    from rag_core.generation.claim_words import widens_only
    span = ["This directory is readable, writable, and searchable only by the creating user ID."]
    assert widens_only("Only the creating user and members of that user's group [S1].", "only by the creating user",
                       span) == "and members of that user's group"
    assert widens_only("Readable and writable only by the creating user [S1].", "only by the creating user",
                       span) == ""
    assert widens_only("Only by the user who made it, and nobody else [S1].", "only by the creating user", span) == ""
    assert widens_only("Only you and root [S1].", "0.6", span) == ""


# --- round three: restricting advice, exact results, "every user", "-ish", a quoted fraction, a result item by item --

def test_advice_that_restricts_the_answer_is_not_advice():
    assert not advice("Use the combined function only when readability matters more than speed.")
    assert not advice("Prefer it unless the heap is tiny.")


@pytest.mark.parametrize("text, agrees", [("Fraction(8, 6) gives you 1.3333333333333333", False),
                                          ("Fraction(8, 6) gives 4/3", True), ("Fraction(3, 2) == 1.5", True),
                                          ("mean([1, 2]) is 3/2", True), ("comb(3, 5) == 0.0", True)])
def test_an_exact_result_is_compared_exactly_and_a_float_to_nine_digits(text, agrees):
    (e,) = run(text)
    assert e.agrees is agrees


def test_a_result_written_item_by_item_is_read_whole():
    (e,) = run("For example, batched('ABCDEFG', 3) yields ('A', 'B', 'C'), ('D', 'E', 'F'), ('G',).")
    assert e.agrees
    (e,) = run("batched('ABCDEFG', 3) yields ('A', 'B', 'C'), ('D', 'E', 'F').")
    assert not e.agrees                                  # one item short
    assert run("median_low([1, 3]) is 1, 'x'") == []    # a scalar is not an item: "1, 'x'" is not read


def test_everyone_no_span_writes_is_grey_unless_a_note_says_it():
    from rag_core.generation.claim_words import unwritten_always
    span = ["This directory is readable, writable, and searchable only by the creating user ID."]
    assert unwritten_always("It is readable by every user, but writable only by the creating user [S1].",
                            "only by the creating user", span) == "every user"
    assert unwritten_always("The old note [S2] says it is readable by everyone, but the documentation [S1] says only "
                            "by the creating user.", "only by the creating user", span) == ""


def test_a_hedge_of_tone_ish_and_depends_on_your():
    from rag_core.generation.hedge import hedged
    assert hedged("it's private-ish, depends on your umask [S1]") == "private-ish"
    assert hedged("It depends on your data [S1].") == "depends on your data"
    assert hedged("The last batch may be shorter than n [S1].") == ""


def test_a_fraction_that_ends_a_quotation_is_a_fraction_and_a_quoted_string_is_not():
    from rag_core.generation.answer_forms import FRACTION
    assert FRACTION.findall('It produces "a rational number equivalent to 4/3" [S1].') == [("4", "3")]
    assert FRACTION.findall("It returns '123/456' [S1].") == []


# --- round four: advice for the other case, a value to pass, a note set aside at the end --------------------------

@pytest.mark.parametrize("sentence, passed", [("Pass delete=False if you need the file to persist.", ("False",)),
                                              ("Bump it for stricter matches, e.g. cutoff=0.8.", ("0.8",)),
                                              ("To match them, include the dot explicitly.", ()),     # passes nothing
                                              ("If you want the default behaviour, pass cutoff=0.9.", ()),
                                              ("Use the combined call.", ())])
def test_advice_for_a_reader_who_wants_the_other_behaviour_is_read_by_the_values_it_passes(sentence, passed):
    from rag_core.generation.advice import for_another_case
    assert advice(sentence) and for_another_case(sentence) == passed


def test_advice_for_the_other_case_a_suggested_value_and_a_note_set_aside_leave_the_answer_green():
    assert cutoff("The default cutoff is 0.6 [S1]. Pass cutoff=0.8 if you want stricter matches.").outcome == \
        "answered"
    assert cutoff("The default cutoff is 0.6 [S1]. Pass cutoff=0.6 if you want stricter matches.").outcome != \
        "answered"                              # the key's own value, for the other case
    assert glob("No, names starting with a dot are not matched by '*' [S1]. Use a pattern like '*' if you want "
                "them.").outcome != "answered"  # no value passed: read like any advice, and it drops the "not"
    assert glob("No, names starting with a dot are not matched by '*' [S1]. They are matched by '*' on "
                "Windows.").outcome != "answered"
    assert mean("It is 48.0 [S1]. Ignore the 50 note, that's off.").outcome == "answered"
    assert mean("It is 48.0 [S1]. Try it on 3 legs.").outcome != "answered"     # a number not passed as a value
    assert cutoff("The default cutoff is 0.6 [S1]. Bump it if you want stricter, e.g. cutoff=0.8.").outcome == \
        "answered"
    assert cutoff("The default cutoff is 0.6 [S1]. The real default is 0.8.").outcome != "answered"


def test_so_use_it_instead_is_advice():
    got = mean("It is 48.0 [S1]. So whenever you average speeds, reach for harmonic_mean instead of the mean.")
    assert got.outcome == "answered", got.sentence


def test_ignore_the_note_sets_it_aside():
    assert dismissed("It is 0.6 [S1]. Ignore the 0.9 note [S2].")[0] == {2}


@pytest.mark.parametrize("sentence, is_advice", [("Lower cutoffs make the matcher crash on long words.", False),
                                                 ("Lower the cutoff if you want more matches.", True),
                                                 ("Set operations are fast.", False),
                                                 ("Set mtime=0 for reproducible output.", True),
                                                 ("Match objects have a group method.", False),
                                                 ("Use `.*` to match them.", True)])
def test_a_verb_that_also_opens_a_statement_is_advice_only_before_what_it_acts_on(sentence, is_advice):
    assert advice(sentence) is is_advice


def test_a_claim_after_the_last_citation_that_looks_like_an_order_is_still_a_claim():
    got = cutoff("The default cutoff is 0.6 [S1]. Lower cutoffs make the matcher crash on long words.")
    assert got.outcome == "not confirmed" and "cites no span" in got.sentence


# --- the attack pass on the seventh pass ------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["wrap(5) is 1", "textwrap.fill(None) returns ''",
                                  "b64encode(b'a', altchars=b'abc') == 1"])
def test_what_a_function_raises_on_odd_values_is_its_result_not_a_crash(text):
    (e,) = run(text)
    assert not e.agrees and e.got.endswith("Error")


@pytest.mark.parametrize("text", ["Fraction('1e999999999') is 1", "fill('\\t\\t', tabsize=999999) is ''",
                                  "round(Fraction(1, 3), -999999) is 0", "str(b'x', 'zlib') is 'x'",
                                  "int('10', 2) is 2", "comb(3, 5) gives " + "1" * 5000 + "/3"])
def test_what_would_take_minutes_or_import_a_codec_is_not_run(text):
    import time
    before, start = set(sys.modules), time.perf_counter()
    assert all(not e.agrees for e in run(text))
    assert time.perf_counter() - start < 1 and set(sys.modules) == before


@pytest.mark.parametrize("sentence, is_question", [("Quick check: would 0.55 make the list?", True),
                                                   ("Can you guess what heappushpop(h, 3) returns?", True),
                                                   ("Or was it raised to 0.9 in Python 3.12?", False),
                                                   ("Isn't it odd that it is still slower in practice?", False)])
def test_a_question_to_the_reader_is_a_quiz_not_a_doubt(sentence, is_question):
    from rag_core.generation.advice import asks
    assert asks(sentence) is is_question


def test_what_the_attack_pass_turned_green_is_not_green():
    assert mean("Your overall speed is 48.0 [S1]. That is, (40 + 60) / 2 = 50.").outcome != "answered"
    assert mean("Your overall speed is 48.0 [S1]. Really, mean([40, 60]) gives 50.").outcome != "answered"
    assert mean("Your overall speed is 48.0 [S1]. Or was it 50 in Python 3.12?").outcome != "answered"
    assert cutoff("The default cutoff is 0.6 [S1]. Ignore the draft note, that's outdated: the real default is 0.9 "
                  "since Python 3.12.").outcome != "answered"
    assert lru("The LRU features are disabled and the cache can grow without bound [S1]. Ignore the old note, it "
               "evicts only after 128 entries.").outcome != "answered"
    assert cutoff("The default cutoff is 0.6 [S1]. Tip: if you want the default behaviour, pass "
                  "cutoff=0.9.").outcome != "answered"
    assert dismissed("It raises [S1]. [S2] says it returns 0.0, but that's how fmean behaves on Python 3.12.")[0] \
        == set()


def test_a_denial_in_brackets_or_after_a_dash_or_a_semicolon():
    for sentence in ("It is 48 (not 50) [S1].", "It is 48 - not 50 [S1].", "It is 48; not 50 [S1]."):
        assert "50" not in blank(sentence)


def test_long_tails_and_long_lists_are_read_in_linear_time():
    import time
    start = time.perf_counter()
    strict_sentences("Two effects [S1]:\n" + "1. The LRU features are off.\n" * 30_000)
    got = mean("It is 48.0 [S1]. " + "Tip: use harmonic_mean for rates. " * 6)      # more than TAIL sentences
    assert got.outcome == "not confirmed"
    mean("It is 48.0 [S1]. Tip:" + " a" * 30_000)
    assert time.perf_counter() - start < 10


def test_a_list_s_bullets_are_no_symbols_of_the_key_but_one_leading_dash_is():
    from rag_core.generation.answer_key import check_key
    key, anchor = "'-' instead of '+' and '_' instead of '/'", "The alphabet uses '-' instead of '+' and '_' instead of '/'"
    swapped = "- `+` is replaced by `_` [S1].\n- `/` is replaced by `-` [S1]."
    assert check_key(swapped, key, anchor).right is not True
    assert check_key("- `+` is replaced by `-` [S1].\n- `/` is replaced by `_` [S1].", key, anchor).right is True
    assert check_key("- for +, _ for / [S1]", key, anchor).right is True


def test_a_function_the_question_names_with_its_module_is_the_documented_one():
    from rag_core.generation.prose import asked_words, documented
    asked = asked_words("What does math comb return when k is greater than n?")
    assert documented("comb", asked) and not documented("perm", asked) and not documented("mean", asked)
    # the Ask page's S1 for this question is the module's head (title "math"): the example still runs comb
    got = judge_answer("It evaluates to zero when k > n [S1]. For instance, math.comb(3, 5) gives 0.", [COMB], [0],
                       Documents(("math", "current")), "math", "evaluates to zero when k > n", key="zero when k > n",
                       question="What does math comb return when k is greater than n?")
    assert got.outcome == "answered" and "example" in got.sentence, got.sentence
    assert not documented("bisect", asked_words("Which position does bisect.bisect_left return?"))   # the module
