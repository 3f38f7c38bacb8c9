"""Never green for a wrong answer the rule can read: the key's fraction in the terms of the question's input ("it
stays 8/6" for 4/3), both a key word and its opposite ("either before ... or after"), and a bound on the key's
value that no cited span writes ("above 0.6" where the span says "at least"), and a restriction of the key with
"only" and a condition no cited span writes ("only faster for small files")."""
import pytest

from one_document import Documents, OneDocument
from rag_core.evaluation.judgement import judge_answer
from rag_core.generation.answer_key import check_key

FR = "Fraction(8, 6) will produce a rational number equivalent to 4/3"
Q_FR = "What rational number does Fraction(8, 6) produce?"
LEFT = "insert just before the leftmost x already there"
CUT_SPAN = ("## difflib.get_close_matches\n\nOptional arg cutoff (default 0.6) is a float in [0, 1].  Possibilities "
            "that don't score at least that similar to word are ignored.")
DIFFLIB = OneDocument("difflib")
DRAFT_FIRST = Documents(("note-difflib", "draft"), ("difflib", "current"))
STATS = Documents(("statistics", "current"), ("note-statistics", "outdated"))


@pytest.mark.parametrize("answer", ["It stays 8/6 [S1].", "Fraction(8, 6) stays 8/6; it is not reduced [S1].",
                                    "It gives Fraction(8, 6) [S1]."])
def test_the_key_fraction_in_the_terms_of_the_input_does_not_state_it(answer):
    assert check_key(answer, "4/3", FR, Q_FR).right is not True


@pytest.mark.parametrize("answer", ["It produces 4/3 [S1].", "Fraction(4, 3) [S1].", "Four thirds [S1].",
                                    "Fraction(8, 6) is reduced to 4/3 [S1]."])
def test_the_key_fraction_in_its_own_terms_or_words_states_it(answer):
    assert check_key(answer, "4/3", FR, Q_FR).right is True


@pytest.mark.parametrize("answer,right", [
    ("Either just before the leftmost x or just after the rightmost x, depending on the list [S1].", False),
    ("Just before the leftmost x; bisect_right puts it after the rightmost [S1].", None),
    ("Just before the leftmost x, not after it [S1].", True),
    ("Just before the leftmost x [S1].", True),
])
def test_a_key_word_and_its_opposite_both_said(answer, right):
    assert check_key(answer, "before the leftmost", LEFT).right is right



def judged(answer):
    return judge_answer(answer, [CUT_SPAN], [0], DIFFLIB, "difflib", "Optional arg cutoff (default 0.6)", key="0.6")


@pytest.mark.parametrize("answer", ["Candidates scoring above 0.6 are ignored [S1].",
                                    "Words that score 0.6 or less are ignored [S1].",
                                    "Only matches below 0.6 are kept [S1]."])
def test_a_bound_on_the_value_that_no_span_writes_is_not_green(answer):
    got = judged(answer)
    assert got.outcome == "not confirmed" and "no cited span says" in got.sentence


def test_a_bound_the_span_writes_is_green():
    assert judged("A candidate must score at least 0.6 to be offered [S1].").outcome == "answered"
    assert judged("The default cutoff is 0.6 [S1].").outcome == "answered"


@pytest.mark.parametrize("answer,bound", [("It needs a score of 0.6 or more [S1].", "more"),
                                          ("It must score no less than 0.6 [S1].", "no less than"),
                                          ("Possibilities scoring 0.6 or higher are the ones ignored [S1].", "higher")])
def test_the_same_bound_in_other_words_is_grey_never_red(answer, bound):
    """"0.6 or more" is the span's "at least" in other words, but the rule cannot read which side of the bound is
    kept ("scoring 0.6 or higher are ignored" is wrong): grey, naming the bound; "no less than" negates nothing."""
    got = judged(answer)
    assert got.outcome == "not confirmed" and f"'{bound}'" in got.sentence, got.sentence


DRAFT = "NOTE (draft): the default cutoff of get_close_matches is 0.9, so only near identical words are returned."



def judged_two(answer):
    return judge_answer(answer, [DRAFT, CUT_SPAN], [0, 1], DRAFT_FIRST, "difflib", "Optional arg cutoff (default 0.6)",
                        key="0.6")


@pytest.mark.parametrize("answer,outcome", [
    ("The default cutoff is 0.6 [S2]; the 0.9 mentioned in [S1] is only a draft note.", "answered"),
    ("The default cutoff is 0.6 [S2], but the draft note [S1] says 0.9.", "answered"),
    ("The default cutoff is 0.9 according to the draft note [S1].", "wrong source"),
    ("The default cutoff is 0.6 [S2]; [S1] is not a draft and says 0.9.", "wrong source"),
    ("The default cutoff is 0.6 [S2] or 0.9 [S1].", "wrong source"),
    ("The default cutoff is 0.9 [S2]; the 0.6 in [S1] is a draft.", "wrong answer"),
    ("Although the draft note [S1] says 0.9, the documentation gives 0.6 [S2].", "answered"),
    ("Yes; even though a draft note [S1] says difflib.get_close_matches uses 0.9, the default cutoff is 0.6 [S2].",
     "answered"),
    ("An old note says 0.9 [S1], but that's outdated: the default cutoff is 0.6 [S2].", "answered"),
    ("Despite the draft note [S1] saying 0.9, the default cutoff is 0.6 [S2].", "answered"),
    ("The default cutoff is 0.6 [S2]. The old note says 0.9 but that's outdated [S1]", "answered"),
    ("Although it is a draft, the default cutoff is 0.9 [S1] and 0.6 [S2].", "wrong source"),
    ("The default cutoff is 0.9 [S1], although that is only a draft.", "wrong source"),
])
def test_a_draft_cited_only_to_set_it_aside_is_no_source(answer, outcome):
    got = judged_two(answer)
    assert got.outcome == outcome, got.sentence
    assert ("only to call it a draft" in got.sentence) == (outcome == "answered")


HEAP = "runs more efficiently than heappush() followed by a separate call to heappop()"
TEXT = "The text first has its whitespace collapsed."


@pytest.mark.parametrize("answer,key,anchor,question,right", [
    ("It pops first and then pushes, which is more efficient than heappop() followed by heappush() [S1].",
     "more efficiently", HEAP, None, False),
    ("It is more efficient than heappush() followed by heappop() [S1].", "more efficiently", HEAP, None, True),
    ("By default it stores the current time [S1]; pass mtime=0 if you need reproducible output.", "set to 0",
     "The modification time is set to 0 by default, for reproducibility.", None, None),
    ("4/3, or 8/6 depending on whether it gets normalised [S1].", "4/3", FR, Q_FR, False),
    ("8/6 reduces to 4/3 [S1].", "4/3", FR, Q_FR, True),
    ("Not first: the text is truncated first and the whitespace is collapsed afterwards [S1].",
     "whitespace collapsed", TEXT, None, None),
])
def test_wrong_answers_of_the_fresh_set_are_not_green(answer, key, anchor, question, right):
    assert check_key(answer, key, anchor, question).right is right


SMALL = ("## statistics.median_low\n\nWhen the number of data points is even, the smaller of the two middle values "
         "is returned.")
NOTE = "NOTE (outdated): median_low returns the larger of the two middle values."



@pytest.mark.parametrize("answer,outcome", [
    ("It returns the smaller of the two middle values [S1]; the draft claim that it returns the larger [S2] is "
     "wrong.", "answered"),
    ("The smaller of the two middle values is returned [S1]; an older note said the larger [S2], but that is "
     "outdated.", "answered"),
    ("The smaller of the two middle values is returned [S1]. An older note says the larger [S2]; that no longer "
     "applies.", "answered"),
    ("The larger of the two middle values is returned [S2]; that is outdated.", "wrong source"),
    ("The smaller of the two middle values is returned [S1] and the larger [S2].", "wrong source"),
])
def test_an_outdated_note_set_aside_in_the_next_clause_or_as_wrong(answer, outcome):
    got = judge_answer(answer, [SMALL, NOTE], [0, 1], STATS, "statistics",
                       "the smaller of the two middle values is returned",
                       key="smaller of the two middle values is returned")
    assert got.outcome == outcome, got.sentence


def test_the_pronoun_one_after_an_adjective_is_no_number_of_the_checker():
    from rag_core.generation.verifier import verify
    span = "Locate the insertion point for x ... insert just before the leftmost x already there."
    assert verify("Before the leftmost one (S1).", [span]).verdict == "anchored"
    assert verify("It inserts three copies before the leftmost x [S1].", [span]).verdict == "refused"
    assert verify("It inserts it before the leftmost x, reduced to one [S1].", [span]).verdict == "refused"
    # "one copy": a count in prose before a word, not looked for (prose.COUNTING)
    assert verify("It inserts one copy before the leftmost x [S1].", [span]).verdict == "anchored"
    assert verify("It inserts x just before the leftmost equal one [S1].", [span]).verdict == "anchored"  # an adjective


ML = "the smaller of the two middle values is returned"
Q_ML = "What does median_low return with an even number of data points?"
Q_GZ = "Does gzip compress store the modification time of the data?"
GZ = "The modification time is set to 0 by default, for reproducibility."


@pytest.mark.parametrize("answer,right", [
    ("The smaller middle value [S1].", True), ("It hands back the lower of the two [S1].", True),
    ("The larger of the two middle values [S1].", False), ("The smaller or the larger one [S1].", False),
    ("The smaller of the two middle values is no longer returned [S1].", False),    # an anchor word negated
    ("The smaller of the two middle values is never returned [S1].", False),
    ("Their mean [S1].", None), ("The lesser of the pair [S1].", True), ("The lesser or the greater [S1].", False)])
def test_a_key_short_of_its_anchor_reads_the_anchor_s_words_for_a_negation(answer, right):
    assert check_key(answer, "smaller", ML, Q_ML).right is right, check_key(answer, "smaller", ML, Q_ML)


def test_a_no_that_negates_the_question_s_words_is_not_an_anchor_word_negated():
    assert check_key("No, mtime is 0 by default [S1].", "set to 0", GZ, Q_GZ).right is not False


def test_the_bundled_keys_answer_the_question_without_restating_it():
    from rag_core.data.golden import load_golden
    keys = {r.question: r.key for w in ("article", "user") for r in load_golden(w)}
    assert keys[Q_ML] == "smaller" and keys["How does textwrap shorten treat whitespace in the text?"] == "collapsed"


ZIP_SPAN = ("## packer\n\nThe streaming writer runs faster than writing the whole archive at once, and it keeps memory "
            "flat.")


def judged_zip(answer):
    return judge_answer(answer, [ZIP_SPAN], [0], DIFFLIB, "difflib",
                        "The streaming writer runs faster than writing the whole archive at once", key="faster")


@pytest.mark.parametrize("answer", ["The streaming writer is only faster for small archives [S1].",
                                    "The streaming writer runs faster only when the whole archive is on a slow disk "
                                    "[S1].",
                                    "The streaming writer is only faster for the whole archive on Linux [S1]."])
def test_a_restriction_with_only_and_a_condition_no_span_writes_is_not_green(answer):
    got = judged_zip(answer)
    assert got.outcome == "not confirmed" and "condition no cited span writes" in got.sentence


@pytest.mark.parametrize("answer", ["The streaming writer runs faster than writing the whole archive at once [S1].",
                                    "It is faster, only for the whole archive at once would it use more memory [S1].",
                                    "The streaming writer is faster; only writing the archive at once keeps it in "
                                    "memory [S1].",
                                    "It is faster only than writing the whole archive at once [S1]."])
def test_only_beside_a_condition_the_span_writes_or_away_from_the_key_stays_green(answer):
    assert judged_zip(answer).outcome == "answered"


MEMO = "## memo\n\nWhen size is None, entries are never evicted and the table grows."


@pytest.mark.parametrize("answer,word", [("A candidate scoring 0.6 is always offered [S1].", "always"),
                                         ("The default cutoff is 0.6, and it never changes [S1].", "never")])
def test_an_always_or_never_no_span_writes_is_not_green_and_is_named(answer, word):
    """"It always raises a ValueError when ...": a rule the span does not write, next to the right key."""
    got = judged(answer)
    assert got.outcome == "not confirmed" and f"its '{word}' claims a rule no cited span writes" in got.sentence


def test_an_always_or_never_the_span_or_the_key_writes_is_green():
    memo = lambda answer: judge_answer(answer, [MEMO], [0], DIFFLIB, "difflib", "entries are never evicted",
                                       key="never evicted")
    assert memo("When size is None, entries are never evicted [S1].").outcome == "answered"
    assert judged("The default cutoff is 0.6 [S1].").outcome == "answered"


@pytest.mark.parametrize("answer,right", [
    ("Fraction(8, 6) reduces to 4/3 [S1]. If you leave the arguments out, the numerator defaults to 0 and the "
     "denominator to 1 [S1].", True),
    ("Fraction(8, 6) is equivalent to 5 [S1].", False),
])
def test_to_before_the_key_s_value_names_no_subject(answer, right):
    """"equivalent to 4/3": the "to" is no subject of the value, so "the denominator to 1" is no rival value (a right
    answer was red); "equivalent to 5" still is."""
    assert check_key(answer, "4/3", FR, Q_FR).right is right
