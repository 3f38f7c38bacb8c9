"""The answer-key rule on what people and models write around the key: a hedge, a key word said and negated, two
calls in the wrong order without their brackets, and a comparison that the cited span writes as context."""
import pytest

from rag_core.generation.answer_key import check_key
from rag_core.generation.hedge import hedged

COMB = "evaluates to zero when k > n"
COMB_SPAN = "Evaluates to n! / (k! * (n - k)!) when k <= n and evaluates to zero when k > n."
HEAP = "The combined action runs more efficiently than heappush() followed by a separate call to heappop()."


@pytest.mark.parametrize("answer, said", [
    ("0, or maybe it errors, depends on the version [S1]", "maybe"),
    ("Zero, I guess [S1].", "I guess"),
    ("I think the answer is zero [S1].", ""),          # a claim it commits to: people label it right
    ("It is probably zero [S1].", "probably"),
    ("The last batch may be shorter than n [S1].", ""),
    ("It is a possibly shorter tuple [S1].", ""),
])
def test_a_hedge_is_found(answer, said):
    assert hedged(answer) == said


def test_a_hedged_answer_is_not_confirmed_never_green():
    got = check_key("0, or maybe it errors, depends on the version [S1]", "zero when k > n", COMB)
    assert got.right is None and "hedges" in got.doubt
    assert check_key("It evaluates to zero when k > n [S1].", "zero when k > n", COMB).right is True


@pytest.mark.parametrize("answer, right", [
    ("It is deleted when closed, but on POSIX it is not deleted [S1].", None),      # the same word both ways
    ("By default it is deleted automatically, not kept [S1].", True),
    ("It is rotated (default True), you need not rotate it manually [S1].", True),
])
def test_a_key_word_said_and_negated_is_a_doubt(answer, right):
    anchor = "whether the file is automatically deleted (default True)" if "delete" in answer else \
        "whether the log is automatically rotated (default True)"
    key = "deleted (default True)" if "delete" in answer else "rotated (default True)"
    assert check_key(answer, key, anchor).right is right


@pytest.mark.parametrize("answer, right", [
    ("It is more efficient than heappop followed by heappush [S1].", False),
    ("It is more efficient than heappush followed by heappop [S1].", True),
    ("It is more efficient than heappop() followed by heappush() [S1].", False),
])
def test_two_calls_in_the_wrong_order_with_or_without_brackets(answer, right):
    assert check_key(answer, "more efficiently", HEAP).right is right


@pytest.mark.parametrize("answer, right", [
    ("It returns 0; for k <= n it computes n! / (k! * (n - k)!) [S1].", True),      # context, in its own clause
    ("It evaluates to zero when k <= n [S1].", False),                              # beside the key's value
    ("It gives n! / (k! * (n - k)!) when k > n and zero when k <= n [S1].", False),
])
def test_a_comparison_the_span_writes_is_context_away_from_the_key(answer, right):
    assert check_key(answer, "zero when k > n", COMB, source=COMB_SPAN).right is right
    if right:
        assert check_key(answer, "zero when k > n", COMB).right is False          # without the span: swapped
