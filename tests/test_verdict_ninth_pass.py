"""The ninth pass of the verdict, rule by rule: what a sentence that only points at a span says when the answer is
refused, the longest answer read, claims in Title Case after a sign-off, a closing pleasantry, "; Y" after "According
to [S1]", misquotes, a note set aside and then called right, examples with named inputs or that raise, symbols put
for each other's, "may X, or Y", and a summary that adds a negation."""
import json
import subprocess
import sys
import time

import pytest

from one_document import Documents, judged_in
from rag_core.evaluation.cases import read_cases
from rag_core.evaluation.judgement import judge_answer
from rag_core.generation import rival
from rag_core.generation.citations import canonical_citations, strict_sentences
from rag_core.generation.dismissal import called_right, dismissed
from rag_core.generation.examples import checked_places, fails_unsaid, run
from rag_core.generation.hedge import hedged
from rag_core.generation.letter import body, framed
from rag_core.generation.quotation import misquote
from rag_core.generation.restatement import restates
from rag_core.generation.verifier import MAX_ANSWER_CHARS, verify

CUTOFF = "Optional arg cutoff (default 0.6) is a float in [0, 1]. Possibilities that don't score at least that " \
         "similar to word are ignored."
DRAFT = "NOTE (draft): the default cutoff of get_close_matches is 0.9, so only near identical words are returned."
COMB = "## math.comb\n\nEvaluates to n! / (k! * (n - k)!) when k <= n and evaluates to zero when k > n."
B64 = "The alphabet uses '-' instead of '+' and '_' instead of '/'."
B64_KEY = "'-' instead of '+' and '_' instead of '/'"
FRACTION = "In the two-argument form of the constructor, Fraction(8, 6) will produce a rational number equivalent " \
           "to 4/3. Both arguments must be Rational."
BATCH = "Batch data from the iterable into tuples of length n. The last batch may be shorter than n."
def cutoff(answer: str):
    return judge_answer(answer, [CUTOFF, DRAFT], [0, 1], Documents(("difflib", "current"), ("note-difflib", "draft")),
                        "difflib", "Optional arg cutoff (default 0.6)", key="0.6",
                        question="What is the default cutoff of get_close_matches?")


comb = judged_in(COMB, "math", "evaluates to zero when k > n", key="zero when k > n",
                 question="What does math.comb return when k is greater than n?")
b64 = judged_in(B64, "base64", B64, key=B64_KEY, question="Which characters replace '+' and '/'?")
fraction = judged_in(FRACTION, "fractions", "equivalent to 4/3", key="4/3",
                     question="What does Fraction(8, 6) reduce to?")
batch = judged_in(BATCH, "itertools", "The last batch may be shorter than n", key="shorter than n",
                  question="Can the last batch of batched be shorter?")


# ---- what the page says of a sentence that only points at a span ----------------------------------------

def test_a_pointing_sentence_says_why_it_stays_also_when_the_answer_is_refused():
    v = verify("Reasoning: [S1] gives the default right in the parameter description.\nAnswer: 0.6 [S1].\n"
               "In summary, the default cutoff is 0.6.", [CUTOFF])
    assert v.verdict == "refused" and v.reason.startswith("Sentence 3: No citation")
    assert v.sentences[0].ok and v.sentences[0].explanation == "It only points at S1 and claims nothing: nothing to " \
                                                               "check."
    assert v.sentences[1].explanation == "Every number and technical name appears in S1."


# ---- the longest answer read, and patterns that were quadratic ------------------------------------------

def test_an_answer_longer_than_the_longest_read_is_a_value_error_that_says_what_to_do():
    long = "The default is 0.6 [S1]. " * (MAX_ANSWER_CHARS // 25 + 1)
    for call in (lambda: verify(long, [CUTOFF]), lambda: cutoff(long), lambda: verify(long, [CUTOFF], "article")):
        with pytest.raises(ValueError, match=f"at most {MAX_ANSWER_CHARS:,} are checked"):
            call()
    assert cutoff(long[:MAX_ANSWER_CHARS]).outcome in ("answered", "not confirmed")    # the longest one still read
    good = {"spans": [CUTOFF], "answer": "It is 0.6 [S1].", "anchor": "cutoff (default 0.6)", "label": "right"}
    cases, problems = read_cases("\n".join(json.dumps(x) for x in (good, {**good, "answer": long}, good)))
    assert len(cases) == 2 and [n for n, _ in problems] == [2] and "at most 65,536 are checked" in problems[0][1]


def test_the_verify_command_says_so_in_one_line_and_exits_2(tmp_path):
    spans = tmp_path / "spans.json"
    spans.write_text(json.dumps([CUTOFF]))
    answer = tmp_path / "answer.txt"
    answer.write_text("The default is 0.6 [S1]. " * 3000)
    p = subprocess.run([sys.executable, "-m", "rag_core", "verify", "--spans", str(spans), "--answer-file",
                        str(answer)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "at most 65,536 are checked" in p.stderr


@pytest.mark.parametrize("text", [" " * 1_000_000 + "x", "a" + " \t" * 500_000 + "S1"])
def test_a_run_of_spaces_before_a_bare_span_name_is_read_once(text):
    started = time.perf_counter()
    canonical_citations(text)
    assert time.perf_counter() - started < 5          # seconds: 40 KB took 12.8 s, 1 MB minutes; 0.05 s here


@pytest.mark.parametrize("text", ["[" * 100_000, "(" * 100_000, "[a" * 100_000])
def test_brackets_that_never_make_a_range_are_read_in_linear_time(text):
    started = time.perf_counter()
    assert rival._ranges(text) == []
    assert time.perf_counter() - started < 5          # seconds: 100 KB took 25 s; 0.1 s here


def test_a_span_name_after_spaces_or_a_comma_is_still_a_citation():
    assert canonical_citations("It is 0.6, S1\nand this   S2.\nthen \nS3") == "It is 0.6 [S1]\nand this [S2]\nthen  [S3]"


# ---- a letter's frame -----------------------------------------------------------------------------------

@pytest.mark.parametrize("claim", ["Negative K Gives Zero Too", "P.S. Except On Windows", "P.S. The Last Batch Is Padded",
                                   "P.S. Median_high Does The Same"])
def test_a_claim_in_title_case_after_a_sign_off_is_read_as_a_claim(claim):
    answer = f"It evaluates to zero when k > n [S1].\n\nCheers,\nDana\n{claim}"
    assert claim in body(answer)
    assert comb(answer).outcome != "answered"


@pytest.mark.parametrize("after", ["Dana", "Dana Lee\nSupport Engineer at Acme", "The Docs Team", "Dana\nSupport, Acme"])
def test_a_name_or_a_role_after_a_sign_off_is_still_the_frame(after):
    assert body(f"It evaluates to zero when k > n [S1].\n\nBest regards,\n{after}") == \
        "It evaluates to zero when k > n [S1]."


@pytest.mark.parametrize("answer,inside", [
    ("Zero [S1]. Hope that clears it up!", "Zero [S1]."),
    ("It is 0.6 [S1].\nHope this helps! \U0001F642", "It is 0.6 [S1]."),
    ("It is 0.6 [S1]. Let me know if you have any other questions.", "It is 0.6 [S1]."),
    ("It is 0.6 [S1]. Happy coding.\n\nBest,\nDana", "It is 0.6 [S1]."),
    ("I hope it helps you decide [S1].", "I hope it helps you decide [S1]."),        # a sentence of the answer
    ("It is 0.6 [S1]. Good luck with passing cutoff=0.9!", "It is 0.6 [S1]. Good luck with passing cutoff=0.9!"),
    ("Hope this helps", "Hope this helps"),                                          # nothing else to read
])
def test_a_closing_pleasantry_is_part_of_the_frame(answer, inside):
    assert body(answer) == inside
    assert ("a closing pleasantry" in framed(answer)[1]) == (inside != answer)


def test_a_pleasantry_after_a_right_answer_leaves_it_green_and_the_page_says_the_frame_was_not_read():
    got = comb("It evaluates to zero when k > n [S1]. Hope that clears it up!")
    assert got.outcome == "answered" and got.sentence.endswith("What frames it (a closing pleasantry) was not read.")
    said = comb("Hi,\n\nYou're asking what comb gives for k > n. It evaluates to zero when k > n [S1].\n\nCheers,\n"
                "Dana").sentence
    assert said.endswith("What frames it (its greeting, the question said again and its sign-off) was not read.")


# ---- a clause after "According to [S1], X" --------------------------------------------------------------

@pytest.mark.parametrize("answer", ["According to [S1], the default cutoff is 0.6; raising it returns more close matches.",
                                    "According to [S1], the default cutoff is 0.6 - higher values return more close "
                                    "matches."])
def test_a_clause_after_a_semicolon_or_a_dash_is_a_claim_of_its_own(answer):
    got = cutoff(answer)
    assert got.outcome == "not confirmed" and "a claim no span is cited for" in got.sentence


def test_a_reason_right_after_the_citation_needs_no_comma_to_be_a_claim_of_its_own():
    got = cutoff("The default cutoff is 0.6 [S1] because the matcher prefers close words over loose ones.")
    assert got.outcome == "not confirmed" and "a claim no span is cited for" in got.sentence


def test_an_attributed_answer_with_nothing_after_it_stays_green():
    assert cutoff("According to [S1], the default cutoff is 0.6.").outcome == "answered"


# ---- quotations -----------------------------------------------------------------------------------------

def test_a_quote_no_span_writes_is_a_misquote():
    assert misquote('The docs say "Possibilities that score at least that similar to word are ignored." [S1]',
                    [CUTOFF]) == "possibilities that score at least that similar to word are ignored"
    assert misquote('The docs say \u201cthe default cutoff is nine tenths\u201d [S1]', [CUTOFF]) == \
        "the default cutoff is nine tenths"
    got = cutoff('The docs say "Possibilities that score at least that similar to word are ignored." [S1] The '
                 'default cutoff is 0.6 [S1].')
    assert got.outcome == "not confirmed" and "no span writes these words" in got.sentence


@pytest.mark.parametrize("answer", [
    'The docs say "Possibilities that don\u2019t score at least that similar to word are ignored." [S1]',   # curly
    'It says "optional arg cutoff (default 0.6) is ... in [0, 1]" [S1].',                  # parts between "..."
    "The 'forget the least recently used words' behaviour is off [S1].",                   # single quotes: a term
    'It is "the default" [S1].',                                                            # three words: loose
    'Run `print("this is not in the span at all")` [S1].',                                 # a string of a program
    'You asked "what is the default cutoff of get_close_matches" [S1].',                   # the question's words
])
def test_a_quote_the_span_writes_or_one_not_read_as_the_document_s_words_is_no_misquote(answer):
    assert misquote(answer, [CUTOFF], "What is the default cutoff of get_close_matches?") == ""


# ---- a note set aside, then called right ----------------------------------------------------------------

@pytest.mark.parametrize("answer", [
    "The default is 0.6 [S1]. [S2] is an old note saying 0.9, which conflicts with [S1], but it is correct for newer "
    "versions.",
    "The default cutoff is 0.6 [S1], but [S2] contradicts that and [S2] is current: 0.9.",
    "The default cutoff is 0.6 [S1]. [S2] claims 0.9, but that draft contradicts [S1]; still, nine tenths is what "
    "you get.",
    "The default cutoff is 0.6 [S1]. The draft note [S2] says 0.9 and contradicts [S1], and is what newer versions "
    "use.",
])
def test_a_note_set_aside_and_then_called_right_is_not_green(answer):
    got = cutoff(answer)
    assert got.outcome != "answered", got.sentence


def test_a_value_true_is_no_source_called_right():
    assert called_right("Default 'delete' is True, and the draft is wrong [S2].") == ""
    assert called_right("The note [S2] is wrong, but [S1] is correct.") == "is correct"


def test_going_with_a_value_and_its_citation_trusts_that_citation_and_not_relying_on_one_does_not():
    answer = ("The default cutoff is zero point six [S1]. The note says zero point nine [S2], but that conflicts "
              "with the documentation, so go with zero point six [S1].")
    assert dismissed(answer)[0] == {2}
    assert cutoff(answer).outcome == "answered"
    assert dismissed("It is 0.6 [S1]. The note saying 0.9 contradicts the documentation, so I'm not relying on it "
                     "[S2].")[0] == {2}


# ---- examples -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,said,agrees", [
    ("For example, with a = [1, 2, 2, 2, 3], bisect_left(a, 2) returns 1.", "1", True),
    ("a = [1, 2, 2, 3]\nbisect_left(a, 2)  # -> 1", "1", True),
    ("With a = [1, 2, 2, 2, 3], bisect_left(a, 2) returns 2.", "2", False),
    ("x = 5; comb(x, 3) gives 10", "10", True),
    ("a = [1, 2]\na = [5, 6, 7]\nbisect_left(a, 6) gives 1", "1", True),                  # the last binding
    ("insort([1, 2, 2, 3], 2) gives [1, 2, 2, 2, 3]", "[1, 2, 2, 2, 3]", True),           # the list after
    ("heappush([1, 3, 5], 0) gives [0, 1, 5, 3]", "[0, 1, 5, 3]", True),
])
def test_an_example_runs_with_the_literal_its_names_are_bound_to(text, said, agrees):
    [e] = run(text)
    assert (e.said, e.agrees) == (said, agrees)


def test_an_example_s_named_input_is_checked_with_it_and_a_name_never_bound_is_not_run():
    text = "For `a = [1, 2, 2, 3]`, `bisect_left(a, 2)` returns 1 [S1]"
    assert checked_places(text) == [(25, 53), (5, 21)]
    assert run("bisect_left(a, 2) returns 1") == []
    assert run("a = open('x')\nbisect_left(a, 2) returns 1") == []        # no literal: the name stays unbound


def test_an_example_shown_as_working_that_raises_is_not_green():
    e = fails_unsaid("4/3 [S1]. Floats work as arguments too, e.g. `Fraction(8.0, 6.0)` [S1].")
    assert (e.call, e.got) == ("Fraction(8.0, 6.0)", "TypeError")
    got = fraction("It reduces to 4/3 [S1]. Floats work as arguments too, e.g. `Fraction(8.0, 6.0)` [S1].")
    assert got.outcome == "not confirmed" and "raises TypeError when Python runs it" in got.sentence
    for said in ("Both must be Rational, so Fraction(8.0, 6.0) fails.", "Fraction(8.0, 6.0) raises TypeError [S1]",
                 "heappush() and heappop() in one call [S1]", "fmean([]) gives a StatisticsError"):
        assert fails_unsaid(said) is None, said


# ---- symbols put for each other's -----------------------------------------------------------------------

@pytest.mark.parametrize("answer", ["It uses `_` instead of `+` and `-` instead of `/` [S1].",
                                    "The URL-safe alphabet uses '-' instead of '/' and '_' instead of '+' [S1].",
                                    "'_' replaces '+' and '-' replaces '/' [S1]."])
def test_symbols_put_for_each_other_s_are_a_wrong_answer_that_says_which(answer):
    got = b64(answer)
    assert got.outcome == "wrong answer" and "where the golden answer has" in got.sentence


def test_the_symbols_as_the_span_maps_them_stay_green():
    assert b64("It uses '-' instead of '+' and '_' instead of '/' [S1].").outcome == "answered"


# ---- "may X, or Y" and a summary that adds a negation ---------------------------------------------------

@pytest.mark.parametrize("answer,outcome", [
    ("It may be zero when k > n, or an error is raised [S1].", "not confirmed"),
    ("It evaluates to zero when k > n [S1].", "answered"),
])
def test_another_outcome_offered_after_may_is_not_green(answer, outcome):
    assert comb(answer).outcome == outcome


def test_may_then_or_with_the_span_s_words_is_no_other_outcome():
    assert batch("The last batch may be shorter than n, or of length n [S1].").outcome != "wrong answer"
    assert batch("The last batch may be shorter than n, or get discarded [S1].").outcome == "not confirmed"


def test_a_summary_that_adds_a_negation_is_no_summary():
    assert comb("It evaluates to zero when k > n [S1]. In short, zero is not returned when k > n.").outcome != \
        "answered"


# ---- the attack pass on this pass (a helper who read the new code) --------------------------------------

@pytest.mark.parametrize("answer", ["The default is 0.6 [S1]. Hope this helps" + " " * 65_000 + "x",
                                    "The default is 0.6 [S1]. Hope this helps" + " \t" * 32_000 + "x",
                                    "comb(3, 5) gives 0" + " " * 65_000 + "x"])
def test_64_kb_of_spaces_after_a_pleasantry_or_a_result_are_read_in_linear_time(answer):
    started = time.perf_counter()
    cutoff(answer)
    assert time.perf_counter() - started < 10          # seconds: 96 s and 18 to 50 s before; under 1 s here


@pytest.mark.parametrize("opening", [
    "You're asking about the default cutoff, which newer releases moved to 0.9.",
    "So you're asking whether the default is 0.9 like in Python 3.13 and later.",
    "You asked whether it is the default cutoff, as it is in difflib_next.",
])
def test_a_question_said_again_with_a_claim_in_it_is_read(opening):
    answer = f"{opening} The documented default is 0.6 [S1]."
    assert body(answer, "What is the default cutoff of get_close_matches?") == answer
    assert cutoff(answer).outcome != "answered"


def test_a_question_said_again_is_frame_only_beside_the_question():
    answer = "You're asking what the default cutoff of get_close_matches is. It is 0.6 [S1]."
    assert body(answer, "What is the default cutoff of get_close_matches?") == "It is 0.6 [S1]."
    assert body(answer) == answer                       # without the question nothing is known to be said again


@pytest.mark.parametrize("answer,inside", [
    ("Hi, nine tenths in practice!\nThe default is 0.6 [S1].", None),
    ("Hi Sam,\nThe default is 0.6 [S1].", "The default is 0.6 [S1]."),
    ("Good morning, team,\nThe default is 0.6 [S1].", "The default is 0.6 [S1]."),
])
def test_a_greeting_names_someone(answer, inside):
    assert body(answer) == (inside or answer)


@pytest.mark.parametrize("after,frame", [
    ("Dana\nWindows Excluded", False), ("Dana\nN.B. Padding Removed", False), ("Dana\nNegative K Likewise", False),
    ("Dana\nSupport Engineer", True), ("Dana\nPython Help Desk", True), ("Dana Lee\nAcme, Berlin", True)])
def test_a_line_under_the_name_of_a_sign_off_is_a_role(after, frame):
    answer = f"It evaluates to zero when k > n [S1].\n\nCheers,\n{after}"
    assert (body(answer) == "It evaluates to zero when k > n [S1].") == frame


def test_a_decimal_between_go_with_and_its_citation_still_trusts_it():
    answer = "The default cutoff is 0.6 [S1]. The note says 0.9 [S2], but that conflicts with the documentation, so " \
             "go with 0.6 [S1]."
    assert dismissed(answer)[0] == {2} and cutoff(answer).outcome == "answered"


def test_the_inputs_of_an_example_python_agrees_with_are_no_rival_values():
    assert comb("With n = 3 and k = 5, comb(n, k) returns 0 [S1].").outcome == "answered"
    assert comb("With n = 3 and k = 5, comb(n, k) returns 3 [S1].").outcome != "answered"


@pytest.mark.parametrize("text,agrees", [
    ("insort([1, 2, 2, 3], 2) returns [1, 2, 2, 2, 3]", [False]),          # insort returns None
    ("With a = [1, 2, 2, 3], insort(a, 2) leaves a as [1, 2, 2, 2, 3]", [True]),
    ("With h = [1, 3, 5], heappush(h, 0) gives [0, 1, 5, 3], then heappush(h, 2) gives [1, 2, 5, 3]", [True, False]),
    ("With h = [1, 3, 5], heappush(h, 0) gives [0, 1, 5, 3], then heappush(h, 2) gives [0, 1, 5, 3, 2]", [True, True]),
    ("Fraction('8', '6') gives 4/3", [False]),                              # a TypeError: strings are no Rational
])
def test_a_changed_list_is_what_later_calls_see_and_insort_returns_none(text, agrees):
    assert [e.agrees for e in run(text)] == agrees


@pytest.mark.parametrize("said", ["[S2] is a draft, but it's correct.", "and that's the value you actually get.",
                                  "which newer releases adopted.", "it's right for Python 3.13"])
def test_more_ways_to_call_a_source_right(said):
    assert called_right(said)


def test_what_you_get_is_no_source_called_right():
    assert called_right("What you get is 0.6 [S1].") == ""


@pytest.mark.parametrize("answer", ["The last batch may be shorter than n (or get discarded) [S1].",
                                    "The last batch may be shorter than n; or it gets discarded [S1].",
                                    "The last batch may be shorter than n or get discarded [S1]."])
def test_another_outcome_after_may_needs_no_comma(answer):
    assert batch(answer).outcome == "not confirmed"


@pytest.mark.parametrize("answer", [
    "As [S1] says, the default cutoff is 0.6; raising it returns more close matches.",
    "[S1] says the default cutoff is 0.6; raising it returns more close matches.",
    "As per [S1], the default cutoff is 0.6; raising it returns more close matches.",
    "Per the docs [S1], the default cutoff is 0.6; raising it returns more close matches.",
    "According to [S1], the default cutoff is 0.6 \u2013 raising it returns more close matches.",
    "According to [S1], the default cutoff is 0.6: raising it returns more close matches.",
])
def test_every_way_to_attribute_a_sentence_to_a_span_cites_its_first_clause_only(answer):
    assert cutoff(answer).outcome == "not confirmed"


def test_an_ellipsis_that_skips_a_negation_misquotes_and_two_apostrophes_quote():
    assert misquote('as documented, "Possibilities that ... score at least that similar to word are ignored" [S1]',
                    [CUTOFF]) == "possibilities that ... score at least that similar to word are ignored"
    assert misquote("Quoting: ''the default cutoff is nine tenths'' [S1]", [CUTOFF]) == \
        "the default cutoff is nine tenths"
    assert misquote("It's 'the default' here, and ''x'' there.", [CUTOFF]) == ""


def test_a_swap_of_symbols_the_golden_answer_does_not_write_is_a_doubt():
    got = b64("The alphabet uses '-' instead of '+' and '_' instead of '/' [S1], and '=' becomes '~'.")
    assert got.outcome == "not confirmed" and "it puts '~' for '='" in got.sentence


def test_an_uncited_ending_with_an_example_python_disagrees_with_is_no_summary():
    assert fraction("Fraction(8, 6) gives 4/3 [S1]. Fraction(8.0, 6.0) gives Fraction(4, 3) too.").outcome != \
        "answered"


def test_wrong_titles_or_a_verdict_that_is_not_one_are_value_errors():
    with pytest.raises(ValueError, match="titles"):
        verify("It is 0.6 [S1].", [CUTOFF], titles=5)
    with pytest.raises(ValueError, match="titles"):
        verify("It is 0.6 [S1].", [CUTOFF], titles=[5])
    with pytest.raises(ValueError, match="verdict"):
        judge_answer("It is 0.6 [S1].", [CUTOFF], [0], Documents(("difflib", "current")), "difflib", "default 0.6",
                     verdict="anchored")


def test_names_bound_together_are_each_bound_to_their_item():
    text = "It evaluates to zero when k > n [S1]:\n\n```python\nn, k = 3, 5\ncomb(n, k)  # -> 0\n```"
    [e] = run(text)
    assert e.agrees and e.inputs == ((49, 60), (49, 60))
    assert comb(text).outcome == "answered"                       # 3 and 5 were a rival value and a refusal
    assert [e.agrees for e in run("a, b = [1, 2], 3; bisect_left(a, b) gives 1")] == [False]   # it gives 2


@pytest.mark.parametrize("call", [
    lambda: strict_sentences(None),
    lambda: run(b"comb(3, 5) gives 0"),
    lambda: dismissed(None),
    lambda: body(None),
    lambda: restates("In short, 0.", None),
    lambda: hedged(7),
])
def test_the_helpers_the_verdict_is_built_from_say_what_to_pass(call):
    with pytest.raises(ValueError, match=r"must be a str, not \w+: pass \w+='...'"):
        call()
