"""Wrong answers written to turn green through the fifth pass's readings, and bad calls of judge_answer (the attack
pass of that session): each is not green, or a ValueError that says how to call it. Documents made up here, but for
the difflib span and its draft note."""
import pytest

from one_document import Documents, OneDocument, judged_in
from rag_core.evaluation.judgement import judge_answer
from rag_core.generation.answer_key import check_key
from rag_core.generation.dismissal import dismissed
from rag_core.generation.verifier import verify

CUT = ("## difflib.get_close_matches\n\nOptional arg cutoff (default 0.6) is a float in [0, 1].  Possibilities "
       "that don't score at least that similar to word are ignored.")
DRAFT = "NOTE (draft): the default cutoff of get_close_matches is 0.9, so only near identical words are returned."
DIFFLIB_FIRST = Documents(("difflib", "current"), ("note-difflib", "draft"))
TIMEOUT = Documents(("timeout", "current"), ("note-timeout", "draft"))
HEAP = "runs more efficiently than heappush() followed by a separate call to heappop()"



def cutoff(answer, **kw):
    return judge_answer(answer, [CUT, DRAFT], [0, 1], DIFFLIB_FIRST, "difflib", "Optional arg cutoff (default 0.6)",
                        key="0.6", **kw)


@pytest.mark.parametrize("answer", [
    "The draft note [S2] is hardly wrong about the default of 0.9; the docs print 0.6 [S1].",
    "The draft [S2] isn't wrong that the default is 0.9; the docs print 0.6 [S1].",
    "Although the real default cutoff is 1 [S1] and the 0.9 of the draft [S2] is wrong, possibilities scoring 0.6 "
    "[S1] are kept.",
    "The docs once listed 0.6 [S1]. The default cutoff is now 0.9 [S2]; this replaced the outdated value.",
])
def test_a_claim_is_not_set_aside_by_a_status_word_that_does_not_dismiss_it(answer):
    assert cutoff(answer).tone != "green", cutoff(answer).sentence


def test_the_set_aside_readings_that_hold():
    assert dismissed("The default is 0.9 [S2], but that's outdated; it is 0.6 [S1].")[0] == {2}
    assert dismissed("The default is 0.9 [S2], which was wrong; it is 0.6 [S1].")[0] == {2}
    assert dismissed("Although the draft [S2] and the docs [S1] differ, it is 0.6 [S1].")[0] == set()


def test_a_never_written_only_by_a_draft_set_aside_does_not_count_as_written():
    spans = ["## timeout\n\nThe default timeout is 30 seconds.", "NOTE (draft): the timeout never applies."]
    got = judge_answer("Although the draft [S2] is outdated, the default timeout is 30 seconds [S1] and it never "
                       "expires early.", spans, [0, 1], TIMEOUT, "timeout", "The default timeout is 30 seconds",
                       key="30 seconds")
    assert got.outcome == "not confirmed" and "'never'" in got.sentence, got.sentence


@pytest.mark.parametrize("answer", ["The default cutoff is not the 0.6 option [S1].",
                                    "get_close_matches does not use a 0.6 parameter as its default cutoff [S1]."])
def test_only_a_quoted_name_before_argument_or_option_is_an_argument(answer):
    assert check_key(answer, "0.6", "Optional arg cutoff (default 0.6)").right is False


def test_less_so_opposes_more_efficiently():
    answer = ("The combined action runs more efficiently than a sort, but less so than heappush() followed by a "
              "separate call to heappop() [S1].")
    assert check_key(answer, "more efficiently", HEAP).right is not True


def test_an_accepted_wording_beside_a_contrast_word_is_grey_and_names_it():
    heap = judged_in("## heapq\n\nThe combined action " + HEAP + ".", "heapq", HEAP, key="more efficiently",
                     accept=("costs less", "cheaper"))
    got = heap("It costs less typing, yet it runs slower than heappush() followed by a separate call to heappop() "
               "[S1].")
    assert got.outcome == "not confirmed" and "its 'yet' may add a claim" in got.sentence, got.sentence
    assert heap("It costs less than a push and a pop in heapq [S1].").outcome == "answered"


@pytest.mark.parametrize("mark", ["\u200f", "\u200b", "\u2066", "\ufeff"])
def test_an_invisible_mark_inside_a_number_does_not_change_the_verdict(mark):
    assert cutoff(f"The default cutoff is 0{mark}.6 [S1].").outcome == "answered"
    assert check_key(f"It is 0{mark}.6 [S1].", "0.6", "Optional arg cutoff (default 0.6)").right is True  # verify
    assert verify(f"The default cutoff is 0{mark}.6 [S1].", [CUT]).verdict == "anchored"            # reads both


@pytest.mark.parametrize("kwargs,says", [
    (dict(answer=None), "answer must be text"), (dict(answer=b"0.6 [S1]"), "answer must be text"),
    (dict(spans=None), "spans must be a list"), (dict(spans="abc"), "spans must be a list"),
    (dict(spans=[None]), "spans must be a list"), (dict(span_ids=[]), "span_ids must give"),
    (dict(span_ids=["x"]), "span_ids must give"), (dict(index=None), "index must answer"),
    (dict(accept="faster"), "accept must be a list"), (dict(accept=[None]), "accept must be a list"),
    (dict(reply=5), "reply must be"),
])
def test_a_bad_call_is_a_value_error_that_says_how_to_call_it(kwargs, says):
    call = dict(answer="The default cutoff is 0.6 [S1].", spans=[CUT], span_ids=[0], index=OneDocument("difflib"),
                expected_doc="difflib", anchor="Optional arg cutoff (default 0.6)", key="0.6")
    with pytest.raises(ValueError, match=says):
        judge_answer(**{**call, **kwargs})
