"""The rule and a model, each judged against people's labels on the same cases: what `judge --cases` prints and
what the Judge page shows, computed once here so that both say the same figures.

    report = judge_cases(cases, SpanSources(corpus.documents, golden_rows), model=lambda c: ModelVerdict(...))
    report.rule       -> Confusion(right_green=27, ...)      the rule against people
    report.model      -> Confusion(...) or None              the model against people (None: no model)
    report.kappa      -> Kappa(...) or None                  the model and the rule: green or not, chance-corrected
    report.length     -> LengthBias(...) or None             the model's green rate on long and short answers

The model's verdict counts as a tone: RIGHT green, WRONG red (called wrong), no verdict not green. A model call
that fails (`model` raises) is a case without a model verdict, its message kept in the row (`model_error`).

Length bias: within each label, the answers are split at the median word count (long: more words than the
median); the bias shows when, on every label with both halves, the model says RIGHT of long answers at least
LENGTH_GAP more often than of short ones. Left out on purpose: "the first of two" (every case here is one answer,
so the data cannot show it). "Its own answers" needs to know who wrote each answer, which a case does not say:
`own_answers(rows, writers, model)` measures it where the caller knows (the Judge page: the marks' sources).
"""
from __future__ import annotations

import statistics
from collections import Counter
from typing import Callable, NamedTuple

from rag_core.evaluation.cases import LabelledCase, SpanSources, rule_judgement
from rag_core.evaluation.confusion import Confusion, Kappa, confusion, disagrees, kappa

LENGTH_GAP = 0.15          # the least gap in green rate (long minus short) that names the bias


class CaseRow(NamedTuple):
    case: LabelledCase
    rule_outcome: str           # judge_answer's outcome
    rule_tone: str              # its tone: green, red or another colour
    rule_sentence: str
    model_verdict: str | None = None   # RIGHT, WRONG, or None (no verdict, or no model)
    model_why: str = ""
    model_error: str = ""       # why the model gave no verdict when its call failed
    rule_hold: str = ""         # what keeps the rule from green (Judgement.hold), "" when green

    @property
    def model_tone(self) -> str:
        return {"RIGHT": "green", "WRONG": "red"}.get(self.model_verdict, "gray")

    @property
    def rule_disagrees(self) -> bool:
        return disagrees(self.case.label, self.rule_tone)


class LengthBias(NamedTuple):
    rates: tuple       # (label, long green rate, long n, short green rate, short n), for each label with both halves
    shows: bool        # the model favours long answers on every such label (by LENGTH_GAP or more)

    def sentence(self) -> str:
        parts = [f"of {label} answers it says RIGHT to {lr:.0%} of the {ln} long and {sr:.0%} of the {sn} short"
                 for label, lr, ln, sr, sn in self.rates]
        if not parts:
            return "Too few answers to compare long and short ones."
        said = "; ".join(parts)
        return (f"The model favours long answers: {said}." if self.shows else
                f"No sign that the model favours long answers: {said}.")


class OwnAnswers(NamedTuple):
    rates: tuple       # (label, RIGHT rate on its own answers, n, RIGHT rate on the others, n), per label with both
    shows: bool        # it says RIGHT of its own answers more often on every such label (by LENGTH_GAP or more)

    def sentence(self, model: str) -> str:
        if not self.rates:
            return (f"None of these answers is {model}'s own beside others of the same mark: whether it favours its "
                    "own answers cannot be told. Mark some of its answers on Ask.")
        said = "; ".join(f"of {label} answers it says RIGHT to {o:.0%} of its {on} own and {t:.0%} of the {tn} "
                         f"others" for label, o, on, t, tn in self.rates)
        return (f"The model favours its own answers: {said}." if self.shows else
                f"No sign that the model favours its own answers: {said}.")


class JudgeReport(NamedTuple):
    rows: list                   # CaseRow, in the cases' order
    rule: Confusion
    model: Confusion | None      # None when no model judged
    kappa: Kappa | None          # the model and the rule, green or not, over every case
    length: LengthBias | None

    def as_dict(self) -> dict:
        """The JSON of `judge --format json`: "cases", "rule", "model" and "kappa" (null without a model)."""
        out = {"cases": len(self.rows), "rule": self.rule.as_dict(),
               "precision_when_green": {"rule": _number(self.rule.precision_when_green)},
               "disagreements": [{"line": r.case.line, "label": r.case.label, "rule": r.rule_outcome}
                                 for r in self.rows if r.rule_disagrees],
               "right_not_green_by": dict(holds(self.rows)),
               "model": None, "kappa": None}
        if self.model is not None:
            out["model"] = self.model.as_dict()
            out["precision_when_green"]["model"] = _number(self.model.precision_when_green)
            out["kappa"] = self.kappa.as_dict()
            out["model_no_verdict"] = sum(r.model_verdict is None for r in self.rows)
            out["length_bias"] = {"shows": self.length.shows, "sentence": self.length.sentence()}
        return out


def holds(rows, label: str = "right") -> list[tuple[str, int]]:
    """(what keeps the rule from green, how many answers) over the rows of `label` it does not call green, most
    first (ties by name): the answers people marked right that the rule leaves grey or red, and why."""
    return most_first(Counter(r.rule_hold for r in rows if r.case.label == label and r.rule_tone != "green"))


def most_first(counted: Counter) -> list[tuple[str, int]]:
    """A count of reasons as (reason, n), most first, ties by name."""
    return sorted(counted.items(), key=lambda item: (-item[1], item[0]))


def holds_sentence(counted: list[tuple[str, int]], who: str = "right answer") -> str:
    """One sentence on what keeps most of the `who`s the rule does not call green from green: "Of the 80 right
    answers not green, 40 (50%) are held back because a sentence at its end cites no span (...)."; the reasons
    tied for most named together; none held back: says so."""
    total = sum(n for _, n in counted)
    if not total:
        return f"The rule calls every {who} here green: nothing holds one back."
    if total == 1:
        return f"The one {who} not green is held back because {counted[0][0]}."
    top = counted[0][1]
    first = [why for why, n in counted if n == top]
    because = f", and {top:,} because ".join(first)
    return f"Of the {total:,} {who}s not green, {top:,} ({top / total:.0%}) are held back because {because}."


def _number(x: float):
    return None if x != x else round(x, 4)


def judge_cases(cases, sources: SpanSources, model: Callable | None = None, trusted=("current",),
                on_case: Callable[[int, int], None] | None = None) -> JudgeReport:
    """The rule's (and the model's, when `model` is given: case -> ModelVerdict) judgement of every case."""
    cases = list(cases)
    rows = []
    for i, case in enumerate(cases):
        j = rule_judgement(case, sources, trusted)
        row = CaseRow(case, j.outcome, j.tone, j.sentence, rule_hold=j.hold)
        if model is not None:
            try:
                v = model(case)
                row = row._replace(model_verdict=v.verdict, model_why=v.why)
            except Exception as e:            # one failed call costs its case only
                row = row._replace(model_error=str(e))
        rows.append(row)
        if on_case is not None:
            on_case(i + 1, len(cases))
    rule = confusion((r.case.label, r.rule_tone) for r in rows)
    if model is None:
        return JudgeReport(rows, rule, None, None, None)
    return JudgeReport(rows, rule, confusion((r.case.label, r.model_tone) for r in rows),
                       kappa([r.model_tone == "green" for r in rows], [r.rule_tone == "green" for r in rows]),
                       length_bias(rows))


def model_judge(cfg) -> Callable:
    """case -> the model's ModelVerdict (cfg: an llm.LLMConfig), judged against the case's key, else its anchor."""
    from rag_core.generation.model_judge import judge_with_model
    return lambda case: judge_with_model(case.question, case.spans, case.key or case.anchor, case.answer, cfg)


def _split_rates(rows, in_first) -> tuple:
    """(label, RIGHT rate of the first group, n, of the second, n) for each label with both groups non-empty."""
    rates = []
    for label in ("right", "wrong"):
        first = [r.model_verdict == "RIGHT" for r in rows if r.case.label == label and in_first(r)]
        second = [r.model_verdict == "RIGHT" for r in rows if r.case.label == label and not in_first(r)]
        if first and second:
            rates.append((label, sum(first) / len(first), len(first), sum(second) / len(second), len(second)))
    return tuple(rates)


def own_answers(rows, writers, model: str) -> OwnAnswers:
    """The model's RIGHT rate on its own answers (writer "model:<its name>") against the others, per label.
    writers: who wrote each row's answer, in the rows' order."""
    own = {id(r) for r, w in zip(rows, writers) if w == f"model:{model}"}
    rates = _split_rates(rows, lambda r: id(r) in own)
    return OwnAnswers(rates, bool(rates) and all(o - t >= LENGTH_GAP for _, o, _, t, _ in rates))


def length_bias(rows) -> LengthBias:
    """The model's RIGHT rate on long and short answers of each label (module docstring)."""
    middle = {label: statistics.median([len(r.case.answer.split()) for r in rows if r.case.label == label] or [0])
              for label in ("right", "wrong")}
    rates = _split_rates(rows, lambda r: len(r.case.answer.split()) > middle[r.case.label])
    shows = bool(rates) and all(lr - sr >= LENGTH_GAP for _, lr, _, sr, _ in rates)
    return LengthBias(tuple(rates), shows)
