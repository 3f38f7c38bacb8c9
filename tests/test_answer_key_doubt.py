"""When the answer-key rule cannot tell, it says not confirmed (grey), never wrong answer (red) and never answered
(green): a count word against another count, a number in an example, an opposite of a word of the anchor outside
the key, "unless" on both sides of a key word, a dropped negation next to a negation of its own; a sentence with
nothing to check is not confirmed, not refused. And the one-word synonyms the rule knows (lower = smaller)."""
import pytest

from rag_core.evaluation.judgement import judge_answer
from rag_core.generation.answer_key import check_key

SPOT = "the left of the two equal entries is kept"                   # a key with a count word
DEF = "Optional arg width (default 70)"
AUTO = "whether the log is automatically rotated (default True)"
HIDE = "entries starting with an underscore are not listed by ls()"


@pytest.mark.parametrize("answer", ["The left of the two equal entries is kept, e.g. for [4, 4] the entry kept is 1 [S1].",
                                    "The left one is kept [S1]."])
def test_a_count_word_or_an_example_number_is_a_doubt_never_red(answer):
    got = check_key(answer, "left of the two equal entries is kept", SPOT)
    assert got.right is None and got.doubt and not got.contradiction


def test_a_value_in_digits_after_its_subject_is_still_red_and_an_example_only_grey():
    assert check_key("The default width is 80 [S1].", "70", DEF).right is False
    got = check_key("The default width is 70; e.g. the default width is 80 for wide screens [S1].", "70", DEF)
    assert got.right is None and "80" in got.doubt


def test_an_opposite_of_an_anchor_word_outside_the_key_is_a_doubt():
    key = "rotated (default True)"
    assert check_key("The log is automatically rotated (default True) [S1].", key, AUTO).right is True
    got = check_key("It is rotated (default True), so you must rotate it manually [S1].", key, AUTO)
    assert got.right is None and "manually" in got.doubt
    assert check_key("It is rotated (default True), you need not rotate it manually [S1].", key, AUTO).right is True


def test_unless_on_both_sides_of_a_key_word_is_a_doubt_and_unless_before_it_still_negates():
    key = "rotated (default True)"
    got = check_key("Yes, by default it is rotated (True) unless rotating is turned off [S1].", key, AUTO)
    assert got.right is None and got.doubt
    # an argument's name after "unless" is no key word: the exception to the default, as a person reads it
    assert check_key("Yes, by default it is rotated (True) unless the 'rotate' flag is set to False [S1].", key,
                     AUTO).right is True
    assert check_key("It is never rotated (default True) [S1].", key, AUTO).right is False


def test_a_dropped_negation_next_to_another_negation_is_a_doubt():
    key = "not listed by ls()"
    assert check_key("They are listed by ls() [S1].", key, HIDE).right is False
    got = check_key("Not by default; pass all=True and ls() has them listed [S1].", key, HIDE)
    assert got.right is None and got.doubt


@pytest.mark.parametrize("said,right", [("lower", True), ("smaller", True), ("higher", False), ("greater", False)])
def test_one_word_synonyms_of_smaller_and_larger(said, right):
    assert check_key(f"It keeps the {said} of the two values [S1].", "smaller of the two values").right is right


class _Spans:
    def doc_id(self, i):
        return "guide"

    def status(self, i):
        return "current"


SPANS = ["## guide\n\nThe archive keeps the newest copy and drops older ones.", "## other\n\nUnrelated text here."]


def judged(answer):
    return judge_answer(answer, SPANS, [0, 1], _Spans(), "guide", "keeps the newest copy", key="newest copy")


def test_nothing_to_check_is_not_confirmed_with_its_reason_never_green_and_real_faults_stay_refused():
    alone = judged("The most recent stays [S1].")
    assert alone.outcome == "not confirmed" and alone.tone == "gray"
    assert "nothing in it can be checked" in alone.sentence and "S1" in alone.sentence
    mixed = judged("The archive keeps the newest copy [S1]. A sentence without an identifier is a violation. [S1]")
    assert mixed.outcome == "not confirmed" and "sentence 2" in mixed.sentence
    assert judged("The archive keeps the newest copy [S1].").outcome == "answered"
    assert judged("The archive keeps the newest copy").outcome == "refused"               # no citation
    assert judged("The archive keeps the newest 3 copies [S1].").outcome == "refused"     # a number S1 lacks
    assert judged("The archive keeps the newest copy [S7].").outcome == "refused"         # no such span


def test_an_opposite_in_a_condition_is_a_doubt_and_stated_outright_still_red():
    key = "rotated (default True)"
    got = check_key("Yes, it is rotated if the 'keep' flag is set to False [S1].", key, AUTO)
    assert got.right is None and "condition" in got.doubt
    # after "unless", False is the exception to the default that "by default" states: right (it was a doubt)
    assert check_key("Yes, by default it is rotated, unless the 'keep' flag is set to False [S1].", key, AUTO).right
    assert check_key("By default it is rotated if the 'keep' flag is set to False [S1].", key, AUTO).right is None
    assert check_key("By default it is rotated, and the flag is False [S1].", key, AUTO).right is False


POOL = ("## pool\n\nThe queue may hold more than size items.\n\n"
        "If \"bounded\" is set, put() blocks a producer thread while the queue holds more than size items.")


def judged_pool(answer):
    return judge_answer(answer, [POOL], [0], _Spans(), "guide", "The queue may hold more than size items.",
                        key="more than size")


def test_the_key_in_the_words_of_another_sentence_of_the_span_is_not_confirmed():
    other = judged_pool("put() blocks a producer thread when the queue holds more than size items [S1].")
    assert other.outcome == "not confirmed" and "another sentence" in other.sentence and "bounded" in other.sentence
    assert judged_pool("The queue may hold more than size items [S1].").outcome == "answered"
    assert judged_pool("The queue may hold more than size items; put() blocks only if bounded [S1].").outcome \
        == "answered"                                                          # it quotes the anchor itself
    assert judged_pool("It can hold more than size items in the queue [S1].").outcome == "answered"


@pytest.mark.parametrize("answer,right", [
    ("Yes, by default the log is automatically rotated [S1].", True),
    ("The log is rotated by default [S1].", True),
    ("By default the log is not rotated [S1].", False),
    ("By default the log is rotated only when rotate=False is passed [S1].", False),
    ("The log is rotated [S1].", None),
])
def test_by_default_states_a_key_of_default_true(answer, right):
    assert check_key(answer, "rotated (default True)", AUTO).right is right


@pytest.mark.parametrize("answer", ["If you don't pass width it's 70 [S1].", "If width isn't given it's 70 [S1]."])
def test_a_negation_in_an_if_clause_before_the_key_is_a_doubt_never_red(answer):
    got = check_key(answer, "70", DEF)
    assert got.right is None and "'if'" in got.doubt


def test_a_comma_closes_the_if_clause_and_its_negation():
    assert check_key("If you don't pass a width, it's 70 [S1].", "70", DEF).right is True


@pytest.mark.parametrize("answer", ["The default width is not 70 [S1].", "If I recall, it is not 70 [S1].",
                                    "It isn't 70 unless you pass it [S1].", "By default it is not 70 unless set [S1]."])
def test_a_negation_of_the_key_itself_is_still_red(answer):
    assert check_key(answer, "70", DEF).right is False


@pytest.mark.parametrize("answer,right", [
    ("Unless you pass width, it is 70 [S1].", True),
    ("Yes. Unless you give a width, the default is 70 [S1].", True),
    ("Short answer: unless a width is passed, it uses 70 [S1].", True),
    ("It is 80 unless you pass width=70 [S1].", False),
    ("Unless you pass 70, it is 80 [S1].", False),
    ("The width is something else unless it is 70 [S1].", False),
])
def test_an_unless_clause_that_opens_the_sentence_ends_at_its_comma(answer, right):
    assert check_key(answer, "70", DEF).right is right


TIMEOUT = "Optional arg timeout (default 30 seconds)"


@pytest.mark.parametrize("answer,right", [
    ("The timeout is 30 seconds by default, and by default up to 5 retries are made [S1].", None),
    ("By default it waits 30 seconds, the sum of the two waits [S1].", None),
    ("The default timeout is 5 [S1].", False),
    ("The default timeout is 20 seconds [S1].", False),
    ("The default timeout is 30 seconds [S1].", True),
])
def test_a_number_that_counts_things_the_key_does_not_name_is_a_doubt(answer, right):
    assert check_key(answer, "30 seconds", TIMEOUT).right is right


def test_a_negation_in_the_cited_spans_own_words_is_a_doubt_never_red():
    anchor, source = "Optional arg timeout (default 30)", ("Optional arg timeout (default 30). Requests that don't "
                                                           "finish within that many seconds are cancelled.")
    quoted = check_key("By default, requests that don't finish within 30 seconds are cancelled [S1].", "30", anchor,
                       None, source)
    assert quoted.right is None and "same negation" in quoted.doubt
    assert check_key("Requests that don't finish within 30 seconds are kept [S1].", "30", anchor, None,
                     source).right is None                                   # never green either
    assert check_key("The default timeout is not 30 [S1].", "30", anchor, None, source).right is False
    assert check_key("Requests that never finish within 30 seconds are cancelled [S1].", "30", anchor, None,
                     source).right is False                                  # not the span's negation



@pytest.mark.parametrize("answer,right", [
    ("Yes, unless rotate=False [S1].", None),
    ("Yes, it rolls over each night, unless you set rotate to False [S1].", None),
    ("Yes, it is rotated by default, unless you set rotate to False [S1].", True),
    ("It is not rotated unless you set rotate to True [S1].", False),
    ("No, it is not rotated by default [S1].", False),
])
def test_a_key_word_that_names_an_argument_is_neither_stated_nor_negated_there(answer, right):
    """A question in other words than the key's: "Yes" does not state the key, and "rotate=False" neither states
    nor negates it (it was read as "rotated" negated: red)."""
    assert check_key(answer, "rotated (default True)", AUTO, "Does the log roll over on its own?").right is right
