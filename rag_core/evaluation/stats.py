"""Is a difference real? The Wilson interval of a share, the exact McNemar test, its power, one plain sentence.

    wilson(16, 18)            -> (0.672, 0.969)     the 95 % interval of 16 hits out of 18
    mcnemar_exact(9, 0)       -> 0.0039             9 questions only A finds, 0 only B finds
    questions_needed(9/18, 0) -> 15                 questions for 80 % power at the 5 % level
    verdict_sentence(0, 9, 0.0039, "no filter", "filter", k=1)     a_only 0, b_only 9: B is "filter"
    -> "With filter, 9 questions are found at k = 1 that no filter misses, and none is lost: p = 0.004, unlikely to be chance."

McNemar looks only at the discordant questions (found by one setup, not by the other): on them, if the two
setups were equally good, each question would go either way with probability 1/2. The p-value is the exact
two-sided binomial one, min(1, 2 * P(X <= min(b, c))) with X ~ Binomial(b + c, 1/2); no normal approximation,
no continuity correction, so it is right for the handfuls of questions a golden set has.

Left out on purpose: scipy (exact sums with math.comb suffice), corrections for testing many pairs at once
(the page shows every pair; a reader comparing four setups should expect one "not chance" in twenty by luck),
and any claim beyond the golden set: questions are treated as a sample of the questions users would ask.
"""
from __future__ import annotations

import functools
import math
from statistics import NormalDist

import numpy as np

MAX_QUESTIONS = 100_000   # questions_needed looks no further: beyond, the difference is too small to matter here
EXACT_UP_TO = 5_000       # above, questions_needed uses the normal approximation (exact and normal agree there)


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of the share hits / n (z = 1.96: 95 %). (nan, nan) when n is 0.

    wilson(16, 18) -> (0.6720, 0.9689); wilson(0, 5) -> (0.0, 0.4345); wilson(0, 0) -> (nan, nan)
    """
    if not 0 <= hits <= n:
        raise ValueError(f"Hits must be between 0 and the number of questions ({n}), got {hits}.")
    if n == 0:
        return math.nan, math.nan
    p, z2 = hits / n, z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    return (0.0 if hits == 0 else low), (1.0 if hits == n else high)     # exact at the ends, not 0.9999999999999999


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value of b questions only A finds against c only B finds.

    (9, 0) -> 2 / 2**9 = 0.0039; (2, 1) -> 2 * (1 + 3) / 8, capped: 1.0; (0, 0) -> 1.0 (nothing differs)
    """
    if b < 0 or c < 0:
        raise ValueError(f"Counts of questions cannot be negative, got {b} and {c}.")
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1))
    return min(1.0, 2 * tail / 2 ** n)          # int / int: exact until the final rounding, no overflow


def _rejection_power(theta: float, alpha: float, d_max: int) -> np.ndarray:
    """P(the exact test rejects | d discordant questions) for d = 0..d_max, each going A's way with prob theta.

    It rejects at b <= lo(d) or b >= d - lo(d), lo(d) the largest b with 2 P(Bin(d, 1/2) <= b) <= alpha.
    lo(d) and both tails under theta are carried from d to d + 1 in O(1), by the binomial recurrences
    cdf_{d+1}(c) = cdf_d(c) - p pmf_d(c) and pmf_d(c + 1) = pmf_d(c) (d - c) / (c + 1) p / (1 - p),
    the pmfs under theta in logs (they can be far below the smallest float).
    """
    out = np.zeros(d_max + 1)
    c, f0, p0 = 0, 1.0, 1.0             # c = lo(d) + 1; cdf and pmf of Bin(d, 1/2) at c
    sides = [[t, 0.0, 1.0] for t in (theta, 1 - theta) if 0 < t < 1]   # [p, log pmf at c, cdf at c]
    for d in range(1, d_max + 1):
        f0 -= p0 / 2                    # from d - 1 to d, at the same c
        p0 *= d / (d - c) / 2
        for s in sides:
            s[2] -= s[0] * math.exp(s[1])
            s[1] += math.log(d / (d - c)) + math.log1p(-s[0])
        while 2 * f0 <= alpha:          # c is rejected at this d: lo(d) >= c
            c += 1
            p0 *= (d - c + 1) / c
            f0 += p0
            for s in sides:
                s[1] += math.log((d - c + 1) / c) + math.log(s[0]) - math.log1p(-s[0])
                s[2] += math.exp(s[1])
        if c == 0:
            continue                    # nothing can be rejected with so few discordant questions
        if not sides:                   # theta 0 or 1: every discordant question goes the same way
            out[d] = 1.0
        else:                           # P(b <= c - 1) on each side = cdf at c minus pmf at c
            out[d] = sum(max(0.0, cdf - math.exp(lp)) for _, lp, cdf in sides)
    return np.minimum(out, 1.0)


def _power(n: int, p_discordant: float, reject: np.ndarray) -> float:
    """Power with n questions: the number of discordant ones is Binomial(n, p_discordant)."""
    d = np.arange(n + 1)
    if p_discordant >= 1:
        return float(reject[n])
    logfact = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, n + 1)))])
    logpmf = logfact[n] - logfact[d] - logfact[n - d] + d * math.log(p_discordant) + (n - d) * math.log1p(-p_discordant)
    return float(np.exp(logpmf) @ reject[:n + 1])


@functools.lru_cache(maxsize=1024)
def questions_needed(p_a_only: float, p_b_only: float, alpha: float = 0.05, power: float = 0.8) -> int | None:
    """Golden questions needed for the exact McNemar test to tell the two setups apart, with this power.

    An estimate, under these assumptions: questions are independent; each one is found by A only with
    probability p_a_only and by B only with p_b_only (the shares observed, taken as the truth); the test
    is `mcnemar_exact` at level alpha. The power with n questions is computed exactly (the discordant count
    is Binomial(n, p_a_only + p_b_only), then the test's rejection region on them); the smallest n reaching
    `power` is found by doubling then bisection, which assumes the power grows with n (it does, but for the
    small saw-tooth steps of an exact test, so a neighbouring n may already suffice). When the normal
    approximation (Connor 1987) says more than EXACT_UP_TO questions, its figure is returned instead: there
    the two agree within a few per cent, and the exact sum would take seconds.

    None when no number of questions up to MAX_QUESTIONS would do: equal shares (no difference to detect)
    or a difference too small.
    questions_needed(0.5, 0.0) -> 15: 6 discordant questions all one way give p = 2/64 (5 give 2/32, too many);
    with 15 questions, P(at least 6 of them discordant) = 0.849, with 14 only 0.788.
    """
    for name, v in (("p_a_only", p_a_only), ("p_b_only", p_b_only)):
        if not 0 <= v <= 1:
            raise ValueError(f"{name} is a share of questions, between 0 and 1; got {v}.")
    if p_a_only + p_b_only > 1 + 1e-12:
        raise ValueError(f"The two shares add up to more than 1 ({p_a_only} + {p_b_only}).")
    if not (0 < alpha < 1 and 0 < power < 1):
        raise ValueError(f"alpha and power are probabilities between 0 and 1, got {alpha} and {power}.")
    pd_ = min(1.0, p_a_only + p_b_only)
    if pd_ == 0 or p_a_only == p_b_only:
        return None
    theta = p_a_only / pd_
    approx = _connor(p_a_only, p_b_only, alpha, power)
    if approx > EXACT_UP_TO:
        return math.ceil(approx) if approx <= MAX_QUESTIONS else None
    reject = _rejection_power(theta, alpha, int(1.5 * approx) + 100)     # enough, unless the guess is far off

    def enough(n: int) -> bool:
        nonlocal reject
        if len(reject) <= n:
            reject = _rejection_power(theta, alpha, 2 * n)
        return _power(n, pd_, reject) >= power

    hi = 1
    while not enough(hi):
        if hi >= MAX_QUESTIONS:
            return None
        hi = min(2 * hi, MAX_QUESTIONS)
    lo = hi // 2                           # enough(lo) is False (or lo is 0)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if enough(mid) else (mid, hi)
    return hi


def _connor(p10: float, p01: float, alpha: float, power: float) -> float:
    """Connor's (1987) normal approximation of the questions a McNemar test needs; inf when they are equal."""
    delta, pd_ = abs(p10 - p01), p10 + p01
    if delta == 0:
        return math.inf
    za, zb = NormalDist().inv_cdf(1 - alpha / 2), NormalDist().inv_cdf(power)
    return (za * math.sqrt(pd_) + zb * math.sqrt(max(0.0, pd_ - delta * delta))) ** 2 / (delta * delta)


def _p_text(p: float) -> str:
    """0.0039 -> 'p = 0.004'; 0.00002 -> 'p < 0.001'; 1.0 -> 'p = 1'."""
    if p < 0.001:
        return "p < 0.001"
    return "p = 1" if p >= 0.9995 else f"p = {p:.3f}"


def _questions(n: int) -> str:
    return "none" if n == 0 else ("1 question" if n == 1 else f"{n} questions")


def verdict_sentence(a_only: int, b_only: int, p_value: float, a: str = "A", b: str = "B", k: int | None = None,
                     alpha: float = 0.05) -> str:
    """One plain sentence on B against A, from the discordant questions and the exact p-value (names kept as given).

    (0, 9) "no filter" vs "filter", k=1 -> "With filter, 9 questions are found at k = 1 that no filter misses,
    and none is lost: p = 0.004, unlikely to be chance."
    (1, 2) -> "A against B: 1 won, 2 lost (p = 1, could be chance): this golden set cannot tell them apart."
    The setups are named in the order given (a, then b); "won" counts the questions only `a` finds.
    """
    at = f" at k = {k}" if k is not None else ""
    won, lost = b_only, a_only
    if won == lost == 0:
        return f"{f'At k = {k}, ' if k is not None else ''}{a} and {b} find the same questions: nothing to tell apart."
    if p_value <= alpha:
        better, worse, gained, dropped = (b, a, won, lost) if won > lost else (a, b, lost, won)
        found = "1 question is" if gained == 1 else f"{gained} questions are"
        return (f"With {better}, {found} found{at} that {worse} misses, and {_questions(dropped)} "
                f"{'is' if dropped <= 1 else 'are'} lost: {_p_text(p_value)}, unlikely to be chance.")
    return (f"{a} against {b}{at}: {a_only} won, {b_only} lost ({_p_text(p_value)}, could be chance): this golden set "
            "cannot tell them apart.")


def power_sentence(needed: int | None, have: int, a_only: int | None = None, b_only: int | None = None,
                   power: float = 0.8, alpha: float = 0.05) -> str:
    """What `questions_needed` says, stated as an estimate; a_only == b_only says there is nothing to detect.

    (120, 18) -> "About 120 golden questions would tell a difference of this size apart (an estimate: 80 % power
    at the 5 % level, taking the shares observed on these 18 as the truth)."
    """
    if a_only is not None and a_only == b_only:
        each = "Neither finds a question the other misses" if a_only == 0 else \
            f"Each finds {_questions(a_only)} the other misses"
        return f"{each}: no difference was observed, so no number of golden questions would tell them apart."
    how = (f"(an estimate: {power:.0%} power at the {alpha:.0%} level, taking the shares observed on "
           f"{'this question' if have == 1 else f'these {have}'} as the truth)").replace("%", " %")
    if needed is None:
        return f"Even {MAX_QUESTIONS:,} golden questions would not tell a difference this small apart {how}."
    return (f"About {needed:,} golden question{'s' if needed != 1 else ''} would tell a difference of this size "
            f"apart {how}.")
