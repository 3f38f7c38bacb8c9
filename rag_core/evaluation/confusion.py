"""How often a judge is wrong: its confusion against people's labels, its precision when green, and the agreement
of two judges (Cohen's kappa with its 95 % interval).

A judge says one of three tones about an answer: green (right), red (called wrong) or anything else (not
confirmed: grey, blue, orange...). A person says right or wrong. The five cells:

    right_green         the person says right, the judge says green
    right_not_green     the person says right, the judge does not say green (any other tone, red included)
    wrong_green         the person says wrong, the judge says green: the one mistake a reader pays for
    wrong_not_green     the person says wrong, the judge neither greens nor calls it wrong
    wrong_called_wrong  the person says wrong, the judge says red

    confusion([("right", "green"), ("wrong", "green"), ("wrong", "red")])
    -> Confusion(right_green=1, right_not_green=0, wrong_green=1, wrong_not_green=0, wrong_called_wrong=1)
    precision_when_green -> 0.5 (1 of the 2 green answers is right)

    kappa([True, True, False, False], [True, False, False, False])
    -> Kappa(value=0.5, low=-0.35.., high=1.0, n=4)     two judges' "green or not", chance-corrected

Kappa's interval uses Cohen's (1960) large-sample standard error, sqrt(po (1 - po) / (n (1 - pe)^2)), and is
clipped to [-1, 1]; on a handful of cases it is wide, as it should be. Left out on purpose: the five cells of
two judges against each other (kappa says it in one number), weighted kappa (two categories only), and any
statistics library (scipy and statsmodels are not installed; the formula is one line).
"""
from __future__ import annotations

import math
from typing import NamedTuple

from rag_core.evaluation.stats import wilson

LABELS = ("right", "wrong")                 # what a person says
CELLS = ("right_green", "right_not_green", "wrong_green", "wrong_not_green", "wrong_called_wrong")
Z95 = 1.959963984540054                     # the normal quantile of a two-sided 95 % interval


class Confusion(NamedTuple):
    right_green: int = 0
    right_not_green: int = 0
    wrong_green: int = 0
    wrong_not_green: int = 0
    wrong_called_wrong: int = 0

    @property
    def total(self) -> int:
        return sum(self)

    @property
    def green(self) -> int:
        return self.right_green + self.wrong_green

    @property
    def precision_when_green(self) -> float:
        """The share of green answers people call right; nan when nothing is green."""
        return self.right_green / self.green if self.green else math.nan

    @property
    def precision_interval(self) -> tuple[float, float]:
        """The Wilson 95 % interval of precision_when_green ((nan, nan) when nothing is green)."""
        return wilson(self.right_green, self.green)

    @property
    def agreement(self) -> int:
        """Cases where the judge and the person agree: right and green, or wrong and not green."""
        return self.right_green + self.wrong_not_green + self.wrong_called_wrong

    def as_dict(self) -> dict:
        return dict(self._asdict())


def cell(label: str, tone: str) -> str:
    """The confusion cell of one answer: ("wrong", "red") -> "wrong_called_wrong"; ("right", "blue") ->
    "right_not_green". ValueError for a label other than right or wrong."""
    if label not in LABELS:
        raise ValueError(f"A label is 'right' or 'wrong', got {label!r}.")
    if tone == "green":
        return f"{label}_green"
    if label == "right":
        return "right_not_green"
    return "wrong_called_wrong" if tone == "red" else "wrong_not_green"


def confusion(pairs) -> Confusion:
    """The counts of (label, tone) pairs in the five cells."""
    counts = dict.fromkeys(CELLS, 0)
    for label, tone in pairs:
        counts[cell(label, tone)] += 1
    return Confusion(**counts)


def disagrees(label: str, tone: str) -> bool:
    """Whether a judge's tone contradicts a person's label: right but not green, or wrong but green."""
    return cell(label, tone) in ("right_not_green", "wrong_green")


class Kappa(NamedTuple):
    value: float      # Cohen's kappa; nan when chance agreement is total (both judges say one thing throughout)
    low: float        # the 95 % interval, clipped to [-1, 1]
    high: float
    n: int            # cases both judges judged
    observed: float   # the share of cases where they agree (po)

    def as_dict(self) -> dict:
        return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in self._asdict().items()}


def kappa(a, b) -> Kappa:
    """Cohen's kappa of two judges' yes/no calls on the same cases, with its 95 % interval.

    [T, T, F, F] against [T, F, F, F]: po = 3/4, pe = 1/2 * 1/4 + 1/2 * 3/4 = 1/2, kappa = (po - pe) / (1 - pe)
    = 0.5; se = sqrt(0.75 * 0.25 / (4 * 0.25)) = 0.433, interval 0.5 -/+ 1.96 * 0.433 -> (-0.349, 1.0).
    """
    a, b = [bool(x) for x in a], [bool(x) for x in b]
    if len(a) != len(b):
        raise ValueError(f"Both judges must judge the same cases: got {len(a)} and {len(b)} calls.")
    n = len(a)
    if n == 0:
        return Kappa(math.nan, math.nan, math.nan, 0, math.nan)
    po = sum(x == y for x, y in zip(a, b)) / n
    pa, pb = sum(a) / n, sum(b) / n
    pe = pa * pb + (1 - pa) * (1 - pb)
    if pe >= 1:
        return Kappa(math.nan, math.nan, math.nan, n, po)
    value = (po - pe) / (1 - pe)
    se = math.sqrt(po * (1 - po) / (n * (1 - pe) ** 2))
    return Kappa(value, max(-1.0, value - Z95 * se), min(1.0, value + Z95 * se), n, po)


def kappa_sentence(k: Kappa, a: str = "the model", b: str = "the rule") -> str:
    """One sentence on a kappa: 'Kappa of the model and the rule: 0.42 (95 % interval 0.21 to 0.63), over 217
    answers; they agree on 76 %.'"""
    if k.n == 0:
        return f"No answer was judged by both {a} and {b}: no agreement to measure."
    if math.isnan(k.value):
        return (f"Kappa of {a} and {b} cannot be computed over {k.n} answers: both say the same thing of every "
                "answer, so chance alone explains their agreement.")
    return (f"Kappa of {a} and {b}: {k.value:.2f} (95 % interval {k.low:.2f} to {k.high:.2f}), over {k.n} "
            f"answers; they agree on {k.observed:.0%}.")
