"""Wilson intervals, the exact McNemar test, its power and its sentence: against values computed by hand,
then against brute force (every outcome of a small golden set enumerated)."""
import math

import pytest

from rag_core.evaluation.stats import (MAX_QUESTIONS, _connor, _rejection_power, mcnemar_exact, power_sentence,
                                       questions_needed, verdict_sentence, wilson)


# ---- Wilson -------------------------------------------------------------------------------------------

def test_wilson_16_of_18_is_the_issue_example():
    # p = 8/9, z^2 = 3.8416: centre (8/9 + 0.10671) / 1.21342 = 0.82049, half 0.14849
    lo, hi = wilson(16, 18)
    assert (round(lo, 3), round(hi, 3)) == (0.672, 0.969)


@pytest.mark.parametrize("n", [1, 5, 18, 100])
def test_wilson_at_the_ends_has_a_closed_form(n):
    z2 = 1.96 ** 2
    assert wilson(0, n) == pytest.approx((0.0, z2 / (n + z2)))          # p = 0: [0, z^2 / (n + z^2)]
    assert wilson(n, n) == pytest.approx((n / (n + z2), 1.0))           # p = 1: [n / (n + z^2), 1]


def test_wilson_is_symmetric_and_contains_the_share():
    for n in range(1, 40):
        for h in range(n + 1):
            lo, hi = wilson(h, n)
            assert 0 <= lo <= h / n <= hi <= 1
            assert wilson(n - h, n) == pytest.approx((1 - hi, 1 - lo))


def test_wilson_of_no_question_is_nan_not_an_error():
    lo, hi = wilson(0, 0)
    assert math.isnan(lo) and math.isnan(hi)


def test_wilson_refuses_more_hits_than_questions():
    with pytest.raises(ValueError, match="between 0 and the number of questions"):
        wilson(5, 3)


# ---- McNemar ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("b, c, p", [
    (9, 0, 2 / 2 ** 9),                      # 0.0039: the issue's example
    (0, 9, 2 / 2 ** 9),
    (2, 1, 1.0),                             # 2 * (1 + 3) / 8 = 1, capped
    (0, 0, 1.0),                             # nothing differs
    (1, 0, 1.0),                             # 2 * 1/2
    (6, 0, 2 / 64),
    (10, 2, 2 * (1 + 12 + 66) / 4096),       # 0.0386
    (5, 5, 1.0),
])
def test_mcnemar_by_hand(b, c, p):
    assert mcnemar_exact(b, c) == pytest.approx(p, rel=1e-12)


def test_mcnemar_of_9_against_0_rounds_to_the_issue_value():
    assert round(mcnemar_exact(9, 0), 4) == 0.0039


def test_mcnemar_is_the_two_sided_binomial_sum_of_the_less_likely_outcomes():
    for n in range(1, 30):
        pmf = [math.comb(n, i) / 2 ** n for i in range(n + 1)]
        for b in range(n + 1):
            # the textbook definition: the probability of every outcome as unlikely as b (ties included)
            brute = min(1.0, sum(q for q in pmf if q <= pmf[b] * (1 + 1e-12)))
            assert mcnemar_exact(b, n - b) == pytest.approx(brute, rel=1e-9), (b, n - b)


def test_mcnemar_with_many_questions_does_not_overflow():
    assert 0 < mcnemar_exact(600, 400) < 1e-9
    assert mcnemar_exact(5000, 5000) == 1.0


# ---- power ------------------------------------------------------------------------------------------

def test_questions_needed_by_hand():
    # all discordant questions go A's way (p_b_only = 0): 6 of them give p = 2/64 <= 0.05, 5 give 2/32 > 0.05.
    # P(at least 6 discordant of n), discordant with probability 1/2: n = 14 -> 0.788, n = 15 -> 0.849
    assert questions_needed(0.5, 0.0) == 15
    assert questions_needed(1.0, 0.0) == 6          # every question discordant: 6 questions, 6 discordant
    assert questions_needed(0.0, 0.5) == 15         # symmetric


def _brute_power(n, p10, p01, alpha=0.05):
    """P(reject) with n questions, every (a_only, b_only) enumerated with its trinomial probability."""
    total = 0.0
    for x in range(n + 1):
        for y in range(n - x + 1):
            if mcnemar_exact(x, y) <= alpha:
                total += (math.factorial(n) / (math.factorial(x) * math.factorial(y) * math.factorial(n - x - y))
                          * p10 ** x * p01 ** y * (1 - p10 - p01) ** (n - x - y))
    return total


@pytest.mark.parametrize("p10, p01", [(0.3, 0.05), (0.4, 0.1), (0.25, 0.0), (0.5, 0.2)])
def test_questions_needed_reaches_the_power_by_brute_force(p10, p01):
    n = questions_needed(p10, p01)
    assert _brute_power(n, p10, p01) >= 0.8 > _brute_power(n - 1, p10, p01)


@pytest.mark.parametrize("theta", [0.0, 0.2, 0.5, 2 / 3, 0.9, 1.0])
def test_rejection_power_against_brute_force(theta):
    got = _rejection_power(theta, 0.05, 200)
    for d in range(0, 201, 9):
        want = sum(math.comb(d, b) * theta ** b * (1 - theta) ** (d - b)
                   for b in range(d + 1) if mcnemar_exact(b, d - b) <= 0.05)
        assert got[d] == pytest.approx(want, abs=1e-12), d


def test_no_difference_needs_no_number_of_questions():
    assert questions_needed(0.1, 0.1) is None
    assert questions_needed(0.0, 0.0) is None
    assert questions_needed(0.01, 0.0099) is None                    # beyond MAX_QUESTIONS


def test_large_needs_use_the_normal_approximation():
    n = questions_needed(0.1, 0.09)
    assert n == math.ceil(_connor(0.1, 0.09, 0.05, 0.8)) and 5_000 < n <= MAX_QUESTIONS
    assert questions_needed(0.3, 0.1) < questions_needed(0.3, 0.2) < n   # a smaller difference needs more


@pytest.mark.parametrize("args", [(-0.1, 0.2), (0.7, 0.6), (0.2, 0.1, 0.0), (0.2, 0.1, 0.05, 1.0)])
def test_questions_needed_refuses_impossible_shares(args):
    with pytest.raises(ValueError):
        questions_needed(*args)


# ---- sentences --------------------------------------------------------------------------------------

def test_a_real_difference_is_said_as_not_chance():
    s = verdict_sentence(0, 9, mcnemar_exact(0, 9), "no filter", "filter", k=1)
    assert s == ("With filter, 9 questions are found at k = 1 that no filter misses, and none is lost: "
                 "p = 0.004, unlikely to be chance.")


def test_a_small_difference_is_said_as_undecided():
    s = verdict_sentence(1, 2, mcnemar_exact(1, 2), "A", "B", k=3)
    assert s == "A against B at k = 3: 1 won, 2 lost (p = 1, could be chance): this golden set cannot tell them apart."


def test_the_better_one_is_named_first_whichever_side_it_is():
    s = verdict_sentence(10, 1, mcnemar_exact(10, 1), "small", "large", k=1)
    assert s.startswith("With small, 10 questions are found at k = 1 that large misses, and 1 question is lost: "
                        "p = 0.012")


def test_no_discordant_question():
    assert verdict_sentence(0, 0, 1.0, "a", "b", k=5) == "At k = 5, a and b find the same questions: nothing to tell apart."


def test_power_sentence_says_it_is_an_estimate():
    assert power_sentence(448, 18, 2, 1) == ("About 448 golden questions would tell a difference of this size apart "
                                             "(an estimate: 80 % power at the 5 % level, taking the shares observed "
                                             "on these 18 as the truth).")
    assert "no difference was observed" in power_sentence(None, 18, 3, 3)
    assert power_sentence(None, 18, 1, 0).startswith("Even 100,000 golden questions would not")
