"""The sixth pass of the verdict, rule by rule, on made-up spans: "one" handed over, additions restating the span,
an adjective "even", absolutes no span writes, "but X does" beside a negated key, literals the span quotes, a
draft set aside by a later clause or beside the document's citation, "I think", a comma that ends the words
introducing the key's value, "either ... or", "un-" before a key word, a key word negated in another case's
sentence, a leading "No" that vouches for no later sentence, and a claim after the last citation."""
import pytest

from one_document import judged_in
from rag_core.generation.claim_words import added_claim, claim_word, contrary_contrast, either_or, uncited_tail, \
    undoes_key, unwritten_always
from rag_core.generation.dismissal import dismissed
from rag_core.generation.hedge import hedged
from rag_core.generation.prose import prose_counts
from rag_core.generation.verifier import verify


# made-up documents: (text, document id, anchor, the golden row's key, question and reply)
DOCS = {
    "fractions": ("## fractions\n\nFraction(8, 6) will produce a rational number equivalent to 4/3. The numerator "
                  "defaults to 0 and the denominator to 1.", "fractions",
                  "Fraction(8, 6) will produce a rational number equivalent to 4/3",
                  dict(key="4/3", question="What does building a ratio from eight and six reduce to?")),
    "statistics": ("## statistics\n\nThis runs faster than the mean() function and it always returns a float.\nIf the "
                   "input dataset is empty, it raises a StatisticsError.", "statistics",
                   "If the input dataset is empty, it raises a StatisticsError",
                   dict(key="empty, it raises a StatisticsError", question="What does fmean do with an empty input?")),
    "glob": ("## glob\n\nUnlike fnmatch, filenames starting with a dot are special cases that are not matched by '*' "
             "and '?' patterns by default.", "glob", "not matched by '*' and '?' patterns by default",
             dict(key="not matched by '*'", question="Does a wildcard pattern pick up hidden files?", reply="no")),
    "tempfile": ("## tempfile\n\n'delete' -- whether the file is automatically deleted (default True).\n"
                 "'delete_on_close' -- if 'delete', whether the file is deleted on close (default True) or otherwise "
                 "on context manager exit.", "tempfile", "whether the file is automatically deleted (default True)",
                 dict(key="deleted (default True)", question="Is a NamedTemporaryFile deleted automatically?")),
}
judged, stats, glob, tempfile = (judged_in(text, doc, anchor, **row) for text, doc, anchor, row in DOCS.values())


@pytest.mark.parametrize("text, prose", [("unless you give one with mtime", True), ("pass mtime to set one", True),
                                         ("it returns one", False),
                                         ("set it to one", False)])
def test_one_handed_over_is_a_pronoun_not_a_number(text, prose):
    assert ("one" in prose_counts(text)) is prose


def test_an_addition_the_span_writes_word_for_word_adds_nothing_and_any_other_word_adds_a_claim():
    span = "'delete_on_close' -- whether the file is deleted on close (default True)"
    assert added_claim("delete is True, and delete_on_close also defaults to True [S1].", [span]) == ""
    assert added_claim("delete_on_close also defaults to False [S1].", [span]) == "also"
    assert added_claim("It gives 0 [S1], and likewise returns 0 when k equals n.", [span]) == "likewise"
    assert added_claim("It matches hidden directories as well [S1].", [span]) == "as well"


@pytest.mark.parametrize("text, word", [("Given an even count, it picks the smaller one", ""),
                                        ("When the number is even, the smaller one", ""),
                                        ("It cuts, even in the middle of a word", "even")])
def test_even_as_an_adjective_is_no_claim_word(text, word):
    assert claim_word(text) == word


def test_an_absolute_no_span_writes_is_named_and_one_the_span_writes_is_not():
    assert unwritten_always("It is cut, even in the middle of a word [S1].", "collapsed", ["Text is cut."]) == "even"
    assert unwritten_always("Even counts work [S1].", "x", ["even in the middle"]) == ""
    assert unwritten_always("None at all, before anything else [S1].", "x", ["zero"]) == ""


@pytest.mark.parametrize("answer, word", [("'*' does not match them, but '?' does [S1].", "but"),
                                          ("No for '*', but '?' does match a leading dot [S1].", "but"),
                                          ("'*' does not match them, but neither does '?' [S1].", ""),
                                          ("They are not matched by '*', whereas '?' will not either [S1].", "")])
def test_but_x_does_beside_a_negated_key_is_named(answer, word):
    assert contrary_contrast(answer, "not matched by '*'") == word
    assert contrary_contrast(answer, "matched by '*'") == ""           # a key that denies nothing


def test_a_literal_the_span_quotes_or_a_formula_it_writes_is_something_to_check():
    span = "Unlike fnmatch, names starting with a dot are not matched by '*' and '?'. Gives n! / (k! * (n - k)!)."
    assert verify("By default '*' and '?' skip names that start with a dot [S1].", [span]).verdict == "anchored"
    assert verify("Here it gives n!/(k! * (n-k)!) [S1].", [span]).verdict == "anchored"
    assert verify("Here '#' and '~' skip such names [S1].", [span]).verdict == "refused"      # not the span's


@pytest.mark.parametrize("answer, aside, kept", [
    ("The note [S2] says 0.9, but the docs [S1] say 0.6, so the note is outdated.", {2}, "[S1]"),
    ("The docs [S1] say 0.6, so the note is outdated.", set(), "[S1]"),
    ("It is 0.6 [S1]. The note claiming 0.9 [S2] is only a draft and conflicts with the documentation [S1].", {2},
     "0.6 [S1]"),
    ("It is faster [S1]. The old-version note saying it is slower [S2] contradicts the documentation.", {2}, "[S1]"),
    ("It is 48.0 [S1]; the fmean note in there [S2] is unrelated, ignore it.", {2}, "48.0"),
])
def test_a_draft_is_set_aside_by_a_later_clause_about_the_note_or_beside_the_documents_citation(answer, aside, kept):
    out, rest = dismissed(answer)
    assert out == aside and kept in rest and ("[S2]" not in rest and "0.9" not in rest if aside else True)


def test_i_think_before_a_committed_claim_is_no_hedge_but_maybe_is():
    assert hedged("I think the answer is 48 [S1].") == "" and hedged("I believe so [S1].") == ""
    assert hedged("It is probably 48 [S1].") == "probably" and hedged("48, I guess [S1].") == "I guess"


def test_a_comma_ends_the_words_that_introduce_the_keys_value():
    got = judged("It is 4/3 [S1]. Both args have to be Rational, and the defaults are numerator 0 and denominator 1 "
                 "[S1].")
    assert got.tone != "red", got.sentence
    assert judged("It will produce a rational number equivalent to 3/4 [S1].").outcome == "wrong answer"


def test_an_addition_restates_only_what_one_sentence_of_the_span_writes():
    span = ("compresslevel sets the compression level in range of 0-9.\nmtime can be used to set the modification "
            "time.\nThe modification time is set to 0 by default, for reproducibility.")
    assert added_claim("It is 0 [S1]. The compresslevel likewise defaults to 0 [S1].", [span]) == "likewise"


@pytest.mark.parametrize("answer, word", [
    ("The last batch is either shorter than n or padded out to length n [S1].", "either"),
    ("It is either 0.6 or 0.9 [S1].", "either"),
    ("Either way, the last batch may be shorter than n [S1].", ""),
])
def test_the_key_offered_inside_either_or_is_named(answer, word):
    assert either_or(answer, "shorter than n" if "batch" in answer else "0.6") == word


@pytest.mark.parametrize("answer, word", [("The original uncollapsed text is returned [S1].", "uncollapsed"),
                                          ("The cache is unbounded [S1].", ""),
                                          ("Whitespace is collapsed first [S1].", "")])
def test_a_key_word_with_un_or_non_before_it_is_named(answer, word):
    key = "without bound" if "cache" in answer else "collapsed"
    assert undoes_key(answer, key) == word


def test_a_key_word_negated_in_a_sentence_without_the_rest_of_the_key_is_grey_not_red():
    got = stats("`fmean([])` raises `StatisticsError` [S1]. Note that for non-empty input it always returns a float "
                "[S1].")
    assert got.outcome == "not confirmed" and "another case" in got.sentence
    assert stats("A non-empty input raises a StatisticsError [S1].").outcome == "wrong answer"


def test_a_leading_no_does_not_vouch_for_a_later_sentence_with_nothing_to_check():
    assert glob("No [S1].").outcome == "answered"
    got = glob("No, they are not matched by '*' by default [S1]. Glob relies on fnmatch for all of its work [S1].")
    assert got.outcome == "not confirmed" and got.tone == "gray"


def test_a_draft_rejected_as_not_the_value_claimed_in_it_is_set_aside():
    out, rest = dismissed("Default cutoff is 0.6 [S1], not the 0.9 claimed in the draft note [S2].")
    assert out == {2} and "0.6 [S1]" in rest
    out, _ = dismissed("The draft note claiming 0.9 [S2] doesn't match the documented default of 0.6 [S1], so I'd "
                       "set it aside.")
    assert out == {2}


@pytest.mark.parametrize("answer, tail", [
    ("It is 0 by default [S1], because the default compression level leaves the header empty.", "because the"),
    ("The last batch may be shorter [S1]; those leftover items come back as a list rather than a tuple.", "those"),
    ("It is 0 by default [S1], unless you pass mtime.", ""),                      # a condition the span writes
    ("It is 0 by default [S1], unless you pass compresslevel zero.", "unless"),   # one it does not
    ("It is 0 by default [S1], but that draft note says otherwise.", ""),         # the draft set aside
    ("It returns 48.0 [S1], so the average speed is 48.0 km/hr.", ""),          # the key restated
    ("It is 0 by default [S1], for reproducibility of the compressed output.", ""),   # in the span
])
def test_a_claim_after_the_last_citation_of_its_sentence_is_named(answer, tail):
    span = ("The modification time is set to 0 by default, for reproducibility of the compressed output. Pass mtime. "
            "The last batch may be shorter than n. harmonic_mean([40, 60]) gives 48.0.")
    got = uncited_tail(answer, "48.0" if "48" in answer else "set to 0", [span])
    assert got.startswith(tail) and bool(got) is bool(tail)


def test_an_uncited_claim_after_the_citation_keeps_a_right_key_grey():
    got = stats("fmean raises a StatisticsError when the input dataset is empty [S1], because it divides by the "
                "length of the data first.")
    assert got.outcome == "not confirmed" and "no span is cited for" in got.sentence


def test_what_is_kept_around_a_draft_set_aside_reads_as_it_was_written():
    answer = ("You'll get an exception, not a number: an empty input makes fmean raise StatisticsError [S1]. The "
              "draft note saying it returns 0.0 [S2] contradicts the docs. Otherwise it always returns a float [S1].")
    out, rest = dismissed(answer)
    assert out == {2} and "not a number: an empty input" in rest and "0.0" not in rest
    assert dismissed("It is 0.9 [S2], but that is outdated; it is 0.6 [S1].") == ({2}, "it is 0.6 [S1].")


@pytest.mark.parametrize("text, pairs_read", [
    ("swaps '+' for '-' and '/' for '_'", [("-", "+"), ("_", "/")]),
    ("replaces '+' with '-'", [("-", "+")]),
    ("uses '-' for '+' and '_' for '/'", [("-", "+"), ("_", "/")]),
    ("'+' becomes '-'", [("-", "+")]),
])
def test_a_swap_names_first_what_is_given_up(text, pairs_read):
    from rag_core.generation.answer_forms import pairs
    assert pairs(text) == pairs_read


def test_a_value_the_user_passes_is_not_the_opposite_of_the_default():
    got = tempfile("Yes: 'delete' is True by default, so the file is deleted automatically [S1]. To keep it after "
                   "close, pass delete_on_close=False and it is deleted on context manager exit [S1].")
    assert got.tone != "red", got.sentence
    assert tempfile("No: the default is delete=False, so it is not deleted automatically [S1].").outcome == \
        "wrong answer"


def test_an_uncited_last_sentence_is_grey_and_the_rest_is_judged():
    got = tempfile("Yes, it is deleted automatically by default (default True) [S1]. The data is gone for good "
                   "after that.")
    assert got.verdict.verdict == "refused"                 # the checker's own verdict stays
    assert got.outcome == "not confirmed" and "cites no span" in got.sentence and "The rest:" in got.sentence
    wrong = tempfile("No: the default is delete=False, so it is not deleted automatically [S1]. Remove it yourself.")
    assert wrong.outcome == "wrong answer" and "cites no span" in wrong.sentence


def test_a_draft_said_not_to_apply_is_set_aside():
    assert dismissed("It is 48.0 [S1]. The note [S2] is about fmean and doesn't apply here.")[0] == {2}
    assert dismissed("It is 48.0 [S1]. The note in [S2] has no bearing on this.")[0] == {2}


def test_words_that_set_aside_anything_dismiss_only_a_named_note_or_a_leading_citation():
    assert dismissed("It is 48.0 [S1]. [S2] is about fmean and is unrelated.")[0] == {2}
    assert dismissed("The docs say 0.6 [S1], but the default is 0.9 [S2], since the documented value is "
                     "irrelevant.")[0] == set()
    assert dismissed("The default is 0.6 [S1]; the 0.9 claimed in the draft note [S2] doesn't apply.")[0] == {2}


def test_a_passive_swap_and_a_false_value_in_a_condition():
    from rag_core.generation.answer_forms import pairs
    assert pairs("'-' is swapped for '+'") == [("+", "-")]
    got = tempfile("Yes, it is deleted automatically (default True) [S1]. That only holds if you pass "
                   "delete_on_close=False; otherwise 'delete' is ignored [S1].")
    assert got.tone == "gray", got.sentence


def test_repeated_uncited_last_sentences_are_read_once():
    got = tempfile("Yes, it is deleted automatically (default True) [S1]." + " It is handy." * 2000)
    assert got.outcome == "not confirmed" and got.sentence.count("The rest:") == 1
