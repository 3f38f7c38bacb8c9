"""The eighth pass of the verdict, rule by rule, on made-up spans: a number or fraction written as code, a letter's
greeting and sign-off, a note measured against the documentation it contradicts, a value passed for another case,
sums that show how the span's number comes about, a closing summary, a citation that opens its sentence."""
import pytest

from one_document import Documents, judged_in
from rag_core.evaluation.judgement import judge_answer
from rag_core.generation.answer_key import check_key
from rag_core.generation.dismissal import dismissed
from rag_core.generation.letter import body
from rag_core.generation.restatement import restates
from rag_core.generation.verifier import MAX_ANSWER_CHARS, verify

FRACTION_ANCHOR = "Fraction(8, 6) will produce a rational number equivalent to 4/3"
FRACTION_QUESTION = "What rational number does Fraction(8, 6) produce?"
CUTOFF = "Optional arg cutoff (default 0.6) is a float in [0, 1]. Possibilities that don't score at least that " \
         "similar to word are ignored."
DRAFT = "NOTE (draft): the default cutoff of get_close_matches is 0.9, so only near identical words are returned."
MEAN = "## statistics.harmonic_mean\n\nharmonic_mean([40, 60]) returns 48.0 for equal distances."
TEMP = "## tempfile.NamedTemporaryFile\n\nIf delete is true (the default) and delete_on_close is true (the default), " \
       "the file is deleted as soon as it is closed. delete: whether the file is automatically deleted (default True)."
COMB = "## math.comb\n\nEvaluates to n! / (k! * (n - k)!) when k <= n and evaluates to zero when k > n."
MEDIAN = "## statistics.median_low\n\nWhen the number of data points is even, the smaller of the two middle values " \
         "is returned."

mean = judged_in(MEAN, "statistics", "returns 48.0", key="48.0",
                 question="I drive one leg at 40 and back at 60: what is my overall speed?")
temp = judged_in(TEMP, "tempfile", "whether the file is automatically deleted (default True)",
                 key="deleted (default True)", question="Is a NamedTemporaryFile deleted automatically?")
comb = judged_in(COMB, "math", "evaluates to zero when k > n", key="zero when k > n",
                 question="What does math.comb return when k is greater than n?")
median = judged_in(MEDIAN, "statistics", "the smaller of the two middle values", key="smaller",
                   question="Which middle value does median_low return?")


def cutoff(answer: str):
    """An answer judged against the documentation (S1) and a draft note (S2)."""
    return judge_answer(answer, [CUTOFF, DRAFT], [0, 1], Documents(("difflib", "current"), ("note-difflib", "draft")),
                        "difflib", "Optional arg cutoff (default 0.6)", key="0.6",
                        question="What is the default cutoff of get_close_matches?")


def fraction(answer: str):
    return check_key(answer, "4/3", FRACTION_ANCHOR, FRACTION_QUESTION).right


def test_a_fraction_or_a_number_in_backticks_is_the_value_it_shows():
    assert fraction("`4/3`, it's reduced to lowest terms [S1].") is True
    assert fraction("It is `4/3` [S1].") is True
    assert fraction("It is `3/4` [S1].") is False                # the inverse, in code type, is still the inverse
    assert fraction("You get `Fraction(4, 3)` [S1].") is True
    assert check_key("The default cutoff is `0.6` [S1].", "0.6", "Optional arg cutoff (default 0.6)").right is True
    assert check_key("The default cutoff is `0.9` [S1].", "0.6", "Optional arg cutoff (default 0.6)").right is False
    # a string of digits in quotes is still a string, not the fraction: Fraction('4/3') builds it from text
    assert fraction("It gives 4/3; fractions can also be built from strings such as '123/456' [S1].") is True


# --- a letter ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("letter, inside", [
    ("Hi Sam,\n\nThe default is 0.6 [S1].\n\nBest regards,\nDana", "The default is 0.6 [S1]."),
    ("Hello!\nThe default is 0.6 [S1].\nCheers,\nDana\nSupport Engineer, Acme", "The default is 0.6 [S1]."),
    ("Dear Ms. Lee:\n\nThe default is 0.6 [S1].\n\nKind regards", "The default is 0.6 [S1]."),
    ("The default is 0.6 [S1].\n\n-- Dana", "The default is 0.6 [S1]."),
    ("The default is 0.6 [S1].\nThanks!", "The default is 0.6 [S1]."),
])
def test_a_letter_s_greeting_and_sign_off_are_not_read(letter, inside):
    assert body(letter) == inside
    assert cutoff(letter).outcome == "answered"


@pytest.mark.parametrize("text", [
    "Hi Sam, the default is 0.6 [S1].",                          # the salutation goes on: the line stays whole
    "Best practice: pass cutoff=0.6 [S1].",                      # a closing word that goes on
    "The default is 0.6 [S1].\n\nThanks to the cache, it is fast.",
    "The default is 0.6 [S1].\n\nBest regards,\nDana\nP.S. it was 0.9 in 2019 [S2].",     # a P.S. says something
    "The default is 0.6 [S1].\n\nCheers,\nDana, who thinks that the default was changed to 0.9 last year",
    "Best regards,\nDana",                                      # nothing but a sign-off: nothing to read
])
def test_what_is_not_a_greeting_or_a_sign_off_stays(text):
    assert body(text) == text


def test_a_wrong_letter_is_still_wrong():
    assert cutoff("Hi Sam,\n\nThe default is 0.9 [S2].\n\nBest regards,\nDana").outcome == "wrong source"
    assert cutoff("Hi Sam,\n\nThe default is 0.6 [S1]. It is also the maximum.\n\nBest regards,\nDana").outcome \
        != "answered"


# --- a note measured against the documentation ----------------------------------------------------------------------

@pytest.mark.parametrize("aside", [
    "[S2] states that the default is 0.9, but this is a draft note and contradicts the documentation in [S1].",
    "[S2] says it is 0.9, but that note is marked as an old version and conflicts with [S1].",
    "The note in [S2] says 0.9, but that is a draft and contradicts [S1].",
    "[S2] is an old note saying 0.9, which conflicts with [S1].",
    "[S2] claims 0.9, but that draft contradicts [S1].",
    "The note saying 0.9 [S2] doesn't agree with the documentation, so I'd set that one aside.",
])
def test_a_note_set_aside_against_the_span_it_contradicts(aside):
    answer = f"The default cutoff is 0.6 [S1]. {aside}"
    assert dismissed(answer) == ({2}, "The default cutoff is 0.6 [S1].")
    assert cutoff(answer).outcome == "answered"


def test_the_span_a_clause_calls_wrong_is_the_one_set_aside_even_when_it_is_the_documentation():
    answer = "The default is 0.9 [S2]. [S1] says 0.6, but that is outdated and contradicts [S2]."
    assert dismissed(answer)[0] == {1}
    assert cutoff(answer).outcome != "answered"
    assert dismissed("The default is 0.9 [S2], which contradicts [S1].")[0] == set()    # no status: nothing set aside


# --- what a caller may pass, sums, summaries, attributions ----------------------------------------------------------

def test_a_value_passed_for_another_case_is_no_opposite_of_the_default():
    right = temp("Yes, by default it's deleted automatically when closed [S1]. If you need it to survive the close, "
                 "pass delete_on_close=False; pass delete=False if you want to keep it entirely [S1].")
    assert right.outcome != "wrong answer"
    assert temp("By default delete is False, so the file is kept [S1].").outcome == "wrong answer"
    assert temp("It is not deleted: the default is delete=False [S1].").outcome == "wrong answer"


def test_a_sum_that_gives_the_span_s_number_needs_no_span_for_its_terms():
    assert verify("It is the harmonic mean, 2 / (1/40 + 1/60) = 48 [S1].", [MEAN]).verdict == "anchored"
    assert verify("It is the plain mean, (40 + 60) / 2 = 50 [S1].", [MEAN]).verdict == "refused"    # no 50 in S1
    assert mean("It comes out at 48, not 50 [S1]. Over equal distances it is 2 / (1/40 + 1/60) = 48, which matches "
                "harmonic_mean([40, 60]) [S1].").outcome == "answered"
    assert mean("It is 2 / (1/40 + 1/60) = 48, so about 50 [S1].").outcome != "answered"


@pytest.mark.parametrize("closing, green", [
    ("In summary, the answer is 48.0 km/hr.", True),
    ("So the overall speed is 48.0.", True),
    ("In summary, the answer is 50 km/hr.", False),                 # a number not said before
    ("In summary, the answer is 48.0 km/hr, not the plain mean.", False),   # a negation not said before
    ("In summary, it is roughly 48.0 km/hr.", False),               # a word not said before
    ("In summary, the answer is probably 48.0 km/hr.", False),      # a hedge
])
def test_a_closing_sentence_that_only_says_again_what_was_cited(closing, green):
    answer = f"According to [S1], harmonic_mean([40, 60]) returns 48.0, so the overall speed is 48.0 km/hr [S1]. " \
             f"{closing}"
    assert (mean(answer).outcome == "answered") is green, mean(answer).sentence


def test_restates_reads_numbers_names_and_words():
    before = "According to [S1], the average speed is 48.0 km/hr."
    assert restates("In summary, the answer is 48.0 km/hr.", before)
    assert not restates("In summary, it is 50 km/hr.", before)
    assert not restates("In summary, median_low gives 48.0.", before)
    assert not restates("", before)
    assert not restates("In summary, " + "48.0 " * 100, before)    # too long to be a summary


def test_a_citation_that_opens_the_sentence_cites_all_of_it():
    assert comb("According to [S1], comb evaluates to zero when k > n, so for example math.comb(3, 5) returns 0. "
                "When k <= n it evaluates to n! / (k! * (n - k)!) [S1].").outcome == "answered"
    assert comb("Based on [S1], it evaluates to zero when k > n.").outcome == "answered"
    # a citation at the end, then a clause of other words, is still a claim no span is cited for
    assert comb("It evaluates to zero when k > n [S1], because the universe forbids picking more marbles than you "
                "own.").outcome != "answered"


def test_even_before_a_count_or_with_a_hyphen_is_no_claim_word():
    assert median("According to [S1], median_low returns the smaller of the two middle values for an even-length "
                  "dataset.").outcome == "answered"
    assert median("It always returns the smaller of the two middle values, even for floats [S1].").outcome \
        != "answered"


# --- round 2: quotations, examples without a citation, two possibilities -------------------------------------------

def test_a_quotation_that_ends_a_sentence_ends_it_and_its_citation_stays_with_it():
    from rag_core.generation.citations import strict_sentences
    assert strict_sentences('It says "x goes right." [S1] For example, it lands at 3.') == \
        ['It says "x goes right." [S1]', "For example, it lands at 3."]
    assert strict_sentences("It returns 'Hello world!' for width 12 [S1].") == \
        ["It returns 'Hello world!' for width 12 [S1]."]                      # a quoted string inside a sentence
    assert strict_sentences("The note is outdated. [S2] says 0.9, but the docs say 0.6 [S1].") == \
        ["The note is outdated. [S2] says 0.9, but the docs say 0.6 [S1]."]   # a citation as the subject
    # the sentence after the quotation is not covered by its citation: a false claim there is no longer green
    answer = 'The docs say "The default is 0.6." [S1] It is also the largest value allowed.'
    assert cutoff(answer).outcome != "answered"
    assert cutoff('The docs say "Optional arg cutoff (default 0.6)" [S1]').outcome == "answered"


@pytest.mark.parametrize("aside", [
    "The note [S2] is contradicting the documentation, so I am trusting [S1] here.",
    "The note [S2] saying 0.9 is not correct for the default.",
    'The draft note says 0.9 [S2], but that conflicts with the documentation; pass cutoff yourself if you want '
    'another one [S1].',
])
def test_more_ways_to_measure_a_note_against_the_documentation(aside):
    answer = f'The docs say "Optional arg cutoff (default 0.6)." [S1] {aside}'
    assert 2 in dismissed(answer)[0]
    assert cutoff(answer).outcome == "answered", cutoff(answer).sentence


def test_examples_python_agrees_with_need_no_citation_but_are_no_source_alone():
    answer = "It evaluates to zero when k > n [S1]. For example:\n\n    >>> math.comb(3, 5)\n    0\n\n" \
             "When k <= n it evaluates to n! / (k! * (n - k)!) [S1]."
    got = comb(answer)
    assert got.outcome == "answered" and "checked by running" in got.sentence, got.sentence
    wrong = comb("It evaluates to zero when k > n [S1]. For example:\n\n    >>> math.comb(3, 5)\n    1\n\n"
                 "When k <= n it evaluates to n! / (k! * (n - k)!) [S1].")
    assert wrong.outcome != "answered"
    alone = verify("math.comb(3, 5) gives 0.", [COMB], question="What does math.comb return when k > n?")
    assert alone.verdict == "refused" and "No citation" in alone.reason        # an example alone cites nothing
    # an uncited sentence before an example at the end is read with it as the answer's uncited tail
    tail = comb("It evaluates to 0 when k > n [S1]. You can't pick 5 cookies out of a jar of 3. Tiny example: "
                "math.comb(3, 5) returns 0.")
    assert tail.outcome == "not confirmed" and "cite no span" in tail.sentence, tail.sentence


def test_two_possibilities_each_with_may_are_a_doubt():
    from rag_core.generation.hedge import hedged
    assert hedged("It may be zero or it may raise an error when k > n [S1].") == "may ... or may"
    assert hedged("The last batch may be shorter than n [S1].") == ""
    assert comb("It may be zero or it may raise an error when k > n [S1].").outcome == "not confirmed"


def test_a_result_listed_with_and_then_is_read_whole():
    from rag_core.generation.examples import run
    (e,) = run("batched('ABCDEFG', 3) gives ('A', 'B', 'C'), ('D', 'E', 'F') and then ('G',)")
    assert e.agrees
    (e,) = run("batched('ABCDEFG', 3) gives ('A', 'B', 'C') and ('D', 'E', 'F', 'G')")
    assert not e.agrees


def test_a_closing_denial_and_a_number_the_key_has_are_no_new_claims():
    assert mean("harmonic_mean([40, 60]) is giving 48.0, not the normal average [S1]. It is 48, not 50.").outcome \
        == "answered"
    assert mean('The docs show "harmonic_mean([40, 60])" returning "48.0" [S1], so the average speed is 48 '
                "km/hr.").outcome == "answered"
    assert mean('The docs show "harmonic_mean([40, 60])" returning "48.0" [S1], so the average speed is 50 '
                "km/hr.").outcome != "answered"


# --- round 3: structured answers, code blocks, notes that describe another function --------------------------------

INSORT = "## bisect.insort_right\n\nIf x is already in a, insert it to the right of the rightmost x."
NOTE_LEFT = "NOTE (draft): insort_right inserts x before the leftmost x already there."
LRU_DOC = "## functools.lru_cache\n\nIf maxsize is set to None, the LRU features are disabled and the cache can grow " \
          "without bound."


def insort(answer: str):
    return judge_answer(answer, [INSORT, NOTE_LEFT], [0, 1], Documents(("bisect", "current"), ("note-bisect", "draft")),
                        "bisect", "to the right of the rightmost x", key="right of the rightmost",
                        question="Where does insort_right put a value that is already in the list?")


lru = judged_in(LRU_DOC, "functools", "the LRU features are disabled and the cache can grow without bound",
                key="disabled and the cache can grow without bound", question="What does lru_cache do when maxsize "
                                                                              "is None?")


@pytest.mark.parametrize("answer", [
    "To the right of the rightmost x [S1]. [S2] says before the leftmost, but that contradicts [S1]; that's "
    "`insort_left` behaviour, not `insort_right`.",
    "To the right of the rightmost x [S1]. [S2] says before the leftmost, which conflicts with [S1]; that behaviour "
    "belongs to `insort_left()`.",
    "To the right of the rightmost x [S1]. The draft note says before the leftmost [S2], but that is insort_left's "
    "behaviour.",
    "To the right of the rightmost x [S1]. [S2] describes putting it before the leftmost, which contradicts [S1].",
])
def test_a_note_that_describes_another_function_is_set_aside(answer):
    got = insort(answer)
    assert got.outcome == "answered", got.sentence
    assert dismissed(answer)[0] == {2}


def test_a_clause_that_says_a_note_contradicts_the_documentation_keeps_the_documentation():
    answer = "To the right of the rightmost x [S1]. [S2] says before the leftmost, but that contradicts [S1]; that's " \
             "`insort_left` behaviour, not `insort_right`."
    assert 1 not in dismissed(answer)[0]
    # trusting the draft and calling the documentation wrong is not green
    assert insort("Before the leftmost x [S2]. [S1] says to the right, but that contradicts [S2].").outcome != "answered"


def test_a_source_line_cites_the_sentence_before_it():
    from rag_core.generation.citations import strict_sentences
    assert strict_sentences("**Short answer: Yes.**\nDetails: delete defaults to True [S1].\nSource: [S1]") == \
        ["**Short answer: Yes.**\nDetails: delete defaults to True [S1]. Source: [S1]"]
    assert lru("**Short answer: unbounded.**\nDetails: with maxsize None the LRU features are disabled and the cache "
               "can grow without bound.\nSource: [S1]").outcome == "answered"


def test_a_related_line_is_advice():
    from rag_core.generation.advice import advice
    assert advice("Related: use `functools.cache` in new code.")
    assert lru("The LRU features are disabled and the cache can grow without bound [S1].\n"
               "Related: watch the memory use of the cache.").outcome == "answered"


@pytest.mark.parametrize("block, green", [
    ("```python\n@lru_cache(maxsize=None)\ndef fib(n): ...\n```", True),
    ("```python\n@lru_cache(maxsize=None)\ndef fib(n):\n    ...\n```", True),      # "    ..." is a body, no prompt
    ("```python\n@lru_cache(maxsize=None)  # the cache can grow without bound\ndef fib(n): ...\n```", True),
    ("```python\n@lru_cache(maxsize=None)  # at most 128 entries\ndef fib(n): ...\n```", False),   # a new number
    ("```python\n@lru_cache(maxsize=None)  # evicts the oldest entry\ndef fib(n): ...\n```", False),   # new words
    ("```python\n>>> fib(10)\n55\n```", False),                                   # a result: not usage
    ("```python\nthis is not python\n```", False),                               # parses, and does nothing
    ("```python\nthe cache grows forever\n```", False),
])
def test_a_code_block_showing_a_call_claims_only_what_its_comments_say(block, green):
    answer = f"The LRU features are disabled and the cache can grow without bound [S1].\n\n{block}"
    assert (lru(answer).outcome == "answered") is green, lru(answer).sentence


def test_a_fenced_block_is_never_cut_into_sentences():
    from rag_core.generation.citations import strict_sentences
    got = strict_sentences("It is unbounded [S1].\n\n```python\ndef fib(n): ...\n\n\nx = 1. y\n```\nDone.")
    assert got == ["It is unbounded [S1].", "```python\ndef fib(n): ...\n\n\nx = 1. y\n```\nDone."]
    assert strict_sentences("`0`:\n```python\n>>> math.comb(3, 5)\n0\n```\nIt is zero when k > n [S1].") == \
        ["`0`:\n```python\n>>> math.comb(3, 5)\n0\n```\nIt is zero when k > n [S1]."]
    assert strict_sentences("a\x00 [S1].") == ["a\x00 [S1]."]                 # the mark's character in the text


# --- round 4: a reasoning section, chat lines, a note reported then set aside ----------------------------------------

@pytest.mark.parametrize("sentence, points", [
    ("Reasoning: [S1] gives the default right in the parameter description.", True),
    ("Reasoning: [S1] states what fmean does when given empty input.", True),
    ("[S1] covers the k > n case explicitly.", True),
    ("[S1] says the default is 0.9.", False),                  # says what the span says: a claim
    ("[S1] describes the cutoff as strict.", False),
    ("[S1] gives the default: 0.9.", False),                   # a number
    ("[S1] states that the file is kept.", False),
    ("The cutoff [S1] covers the case.", False),               # not opened by the citation
])
def test_a_sentence_that_only_points_at_a_span(sentence, points):
    from rag_core.generation.source_talk import source_talk
    assert source_talk(sentence) is points


def test_a_reasoning_section_that_points_at_the_span_needs_nothing_to_check():
    answer = "Reasoning: [S1] gives the default right in the parameter description.\nAnswer: 0.6 [S1]."
    assert cutoff(answer).outcome == "answered", cutoff(answer).sentence
    assert cutoff("Reasoning: [S1] gives the default right in the parameter description.").outcome != "answered"
    assert cutoff("Reasoning: [S1] describes the cutoff as strict.\nAnswer: 0.6 [S1].").outcome != "answered"


@pytest.mark.parametrize("answer", [
    "default cutoff is 0.6 [S1]\nfwiw [S2] says 0.9 but that contradicts the doc, i'd ignore it \U0001F44D",
    "it is 0.6 [S1]\n[S2] claims 0.9 but that's a draft and wrong afaik",
    "Reasoning: [S1] says 0.6, whereas [S2] claims 0.9; [S2] is a draft that contradicts the docs.\nAnswer: 0.6 [S1].",
])
def test_chat_lines_and_a_note_reported_then_set_aside(answer):
    assert dismissed(answer)[0] == {2}
    assert cutoff(answer).outcome == "answered", cutoff(answer).sentence


def test_a_note_reported_and_also_trusted_is_not_set_aside():
    answer = "The default is 0.9 [S2]. [S2] claims 0.9. [S2] is a draft."
    assert 2 not in dismissed(answer)[0]
    assert cutoff(answer).outcome != "answered"


def test_a_dash_between_spaces_ends_a_clause():
    answer = "the default is 0.6 [S1] \u2014 ignore [S2], it says 0.9 but that's wrong"
    assert dismissed(answer)[0] == {2}


def test_a_line_that_ends_with_a_citation_ends_its_sentence():
    from rag_core.generation.citations import strict_sentences
    assert strict_sentences("no [S1] \U0001F648\nuse a pattern starting with a dot") == \
        ["no [S1]", "use a pattern starting with a dot"]
    assert strict_sentences("Two effects [S1]:\n1. a\n2. b") == ["Two effects [S1]:\n1. a\n2. b"]   # a list opens
    # the uncited line after it is a tail: a false claim there is no longer read with the citation
    assert cutoff("the default is 0.6 [S1]\nand it is also the maximum, so nothing above it is ever offered").outcome \
        != "answered"


def test_the_page_says_a_letter_s_frame_was_not_read_and_its_reply_is_read():
    got = cutoff("Hi Sam,\n\nThe default cutoff is 0.6 [S1].\n\nBest regards,\nDana")
    assert got.outcome == "answered" and got.sentence.endswith("What frames it (its greeting and its sign-off) was not "
                                                               "read.")
    assert "greeting" not in cutoff("The default cutoff is 0.6 [S1].").sentence
    no = judge_answer("Hi Lucy,\n\nNo, every batch is exactly n long [S1].\n\nBest regards,\nDana",
                      ["Batch data into tuples of length n. The last batch may be shorter than n."], [0],
                      Documents(("itertools", "current")), "itertools", "The last batch may be shorter than n",
                      key="shorter than n", reply="yes", question="Can the last batch be shorter than n?")
    assert no.outcome == "wrong answer", no.sentence        # the "No" after the greeting is the reply


# --- round 5 (after the final held-out sets): span labels written bare, the question said again ---------------------

def test_a_span_named_without_brackets_is_no_name_to_look_for():
    from rag_core.generation.claims import is_name
    assert not is_name("S1") and not is_name("S12") and is_name("S1_x") and is_name("b64encode")
    answer = "Reasoning: S1 gives the cutoff's default [S1].\nAnswer: 0.6 [S1]."
    assert cutoff(answer).outcome == "answered", cutoff(answer).sentence
    trusted = "Reasoning: S1 says 0.6 [S1]. S2 says 0.9 [S2], which contradicts S1, so I follow the documentation.\n" \
              "Answer: 0.6 [S1]."
    assert dismissed(trusted)[0] == {2} and cutoff(trusted).outcome == "answered"


@pytest.mark.parametrize("opening", [
    "Restating your question: what is the default cutoff?",
    "Restating: is the default cutoff 0.9?",
    "You're asking whether the default cutoff is 0.9.",
])
def test_the_question_said_again_is_not_read_as_the_answer(opening):
    assert body(f"{opening} It is 0.6 [S1].", "What is the default cutoff of get_close_matches?") == "It is 0.6 [S1]."
    assert cutoff(f"{opening} It is 0.6 [S1].").outcome == "answered"
    assert cutoff(f"{opening} It is 0.9 [S1].").outcome != "answered"


def test_a_question_of_the_answer_s_own_is_not_a_frame():
    assert body("Why is it 0.6? Because [S1].") == "Why is it 0.6? Because [S1]."
    assert body("You are asking whether it is 0.6 [S1].") == "You are asking whether it is 0.6 [S1]."   # nothing after


# --- the attack pass on the eighth pass ------------------------------------------------------------------------------

@pytest.mark.parametrize("letter", [
    "Hi,\n\nThe default is 0.6 [S1].\n\nCheers,\nThe maximum is also 0.6\nDana",
    "Hi,\n\nThe default is 0.6 [S1].\n\nBest,\nP.S. it was 0.9 before\nDana",
    "Hi,\n\nThe default is 0.6 [S1].\n\nAll the best,\nDraft note is right: nine tenths.\nDana",
])
def test_a_claim_after_a_sign_off_is_no_name(letter):
    assert body(letter).endswith("\nDana")                     # the sign-off is kept, and read
    assert cutoff(letter).outcome != "answered"


@pytest.mark.parametrize("closing", [
    "In summary, the overall speed is 40 km/hr.",              # words and numbers said before, another claim
    "In summary, harmonic_mean returns 40 and 60.",
])
def test_a_summary_must_state_the_key_itself(closing):
    answer = f"According to [S1], harmonic_mean([40, 60]) returns 48.0, so the overall speed is 48.0 km/hr [S1]. " \
             f"{closing}"
    assert mean(answer).outcome != "answered"


@pytest.mark.parametrize("lead", ["Negative k gives:", "Raises ValueError instead:", "Case-insensitive, e.g.:"])
def test_words_beside_an_example_that_say_something_are_a_claim(lead):
    from rag_core.generation.examples import few_words
    assert not few_words(lead)
    assert few_words("For example:") and few_words("e.g.") and few_words("Quick test:")
    assert comb(f"It evaluates to zero when k > n [S1]. {lead}\n\n    >>> math.comb(3, 5)\n    0").outcome != "answered"


@pytest.mark.parametrize("answer", [
    "According to [S1], it evaluates to zero when k > n, because Python treats an impossible choice as an empty "
    "product.",
    "Per [S1], it evaluates to zero when k > n, which makes it faster than perm for large inputs.",
])
def test_an_opening_citation_covers_its_first_clause_only(answer):
    assert comb(answer).outcome != "answered"


@pytest.mark.parametrize("answer", [
    "It may be zero when k > n, or else it raises an error [S1].",
    "It may evaluate to zero when k > n, or it can raise an error [S1].",
])
def test_more_ways_to_offer_two_possibilities(answer):
    assert comb(answer).outcome == "not confirmed"


def test_tails_of_many_lines_are_read_in_linear_time():
    import time
    for tail in ("Best regards,\n" * 70_000, "-- Dana\n" * 120_000, "For example:\n\n" * 70_000, "x:\n\n" * 250_000):
        started = time.perf_counter()
        cutoff(("The default is 0.6 [S1].\n" + tail)[:MAX_ANSWER_CHARS])       # the longest answer read
        assert time.perf_counter() - started < 30, tail[:20]    # seconds: quadratic took minutes at 1 MB


@pytest.mark.parametrize("bad, says", [
    (dict(span_ids=None), "span_ids"), (dict(question=7), "question"), (dict(trusted=None), "trusted"),
    (dict(accept=5), "accept"), (dict(key=0.6), "key"), (dict(anchor=6), "anchor"), (dict(expected_doc=5), "expected_doc"),
])
def test_a_wrong_argument_is_a_value_error_that_names_it(bad, says):
    from one_document import OneDocument
    args = dict(answer="The default is 0.6 [S1].", spans=["cutoff (default 0.6)"], span_ids=[0],
                index=OneDocument("difflib"), expected_doc="difflib", anchor="cutoff (default 0.6)", key="0.6")
    with pytest.raises(ValueError, match=says):
        judge_answer(**{**args, **bad})
    with pytest.raises(ValueError, match="spans"):
        verify("The default is 0.6 [S1].", None)


def test_a_greeting_is_read_in_linear_time_and_may_take_a_comma():
    import time
    started = time.perf_counter()
    body("Hi" + " " * 1_000_000 + "x")
    body("Hi" + " \t" * 500_000 + "\nThe default is 0.6 [S1].")
    assert time.perf_counter() - started < 20               # seconds: two runs of spaces side by side took minutes
    assert body("Good morning, team,\nThe default is 0.6 [S1].") == "The default is 0.6 [S1]."
    assert body("Hi, the default is 0.6 [S1].") == "Hi, the default is 0.6 [S1]."


def test_the_page_says_why_a_sentence_that_points_at_a_span_stays():
    got = verify("Reasoning: [S1] gives the default right in the parameter description.\nAnswer: 0.6 [S1].", [CUTOFF])
    assert got.verdict == "anchored"
    assert got.sentences[0].explanation == "It only points at S1 and claims nothing: nothing to check."
