"""Answers to try against the checker, built from the spans actually handed over.

A fixed list of answers would be judged against spans it was not written for (the article's six cases
cite S2 as a draft; on another question S2 is something else). These are made from this question's
spans, in the order of the article's six cases:

    no citation          the base sentence without [Sn]
    invented number      its first number changed to one that no span has, citing the right span
    another span's number  its first number replaced by a number of another span, citing that span
    right citation       the base sentence citing the span it comes from
    missing span         the base sentence citing S(n+1), a span that was not handed over
    abstention           NOT IN THE CONTEXT

The base sentence is the scripted generator's answer (the span sentence sharing the most words with
the question), or the first sentence of S1 when it abstains.

    presets("default cutoff?", ["Optional arg cutoff (default 0.6) is a float."])[3]
    -> Preset("right citation", "Optional arg cutoff (default 0.6) is a float [S1].")

Left out on purpose: paraphrases and several-sentence answers; presets a span cannot support
(no number to change, a single span) are left out rather than faked.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from rag_core.generation.generator import scripted_answer, sentences
from rag_core.generation.prompt import ABSTAIN
from rag_core.generation.verifier import CITATION

# the article's six cases: its two spans (a current docstring, a draft note) and six answers judged against them
ARTICLE_CONTEXT = ("Optional arg cutoff (default 0.6) is a float in [0, 1].",
                   "NOTE (draft): the default cutoff of get_close_matches is 0.9.")
ARTICLE_CASES = ("The default cutoff is 0.6.", "The default cutoff is 0.9 [S1].", "The default cutoff is 0.9 [S2].",
                 "The default cutoff is 0.6 [S1].", "The default cutoff is 0.6 [S4].", "NOT IN THE CONTEXT")
NUMBER = re.compile(r"(?<![\w.,])\d+(?:\.\d+)?(?![\w]|[.,]\d)")


class Preset(NamedTuple):
    kind: str       # what kind of answer it is, in words
    answer: str


def _base(question: str, spans: list[str]) -> tuple[str, int] | None:
    """(sentence without citation or final period, 1-based span it comes from), or None without spans."""
    answer = scripted_answer(question, spans)
    cited = CITATION.findall(answer)
    if answer != ABSTAIN and cited:
        return CITATION.sub("", answer).strip().rstrip(".").strip(), int(cited[0])
    for n, text in enumerate(spans, 1):
        first = sentences(text)
        if first:
            return " ".join(first[0]).rstrip(".!?").strip(), n
    return None


def _numbers(text: str) -> list[str]:
    return NUMBER.findall(text)


def _invented(number: str, spans: list[str]) -> str:
    """A number near `number` that appears in no span: '0.6' -> '0.9', '3' -> '4'."""
    value, decimals = float(number), len(number.split(".")[1]) if "." in number else 0
    step = 0.3 if decimals else 1
    for i in range(1, 1000):
        candidate = f"{value + i * step:.{decimals}f}"
        if not any(candidate in _numbers(s) for s in spans):
            return candidate
    return number + "7"


def presets(question: str, spans: list[str]) -> tuple[Preset, ...]:
    """The answers to try for these spans, in the order of the article's six cases."""
    base = _base(question, spans)
    if base is None:
        return (Preset("abstention", ABSTAIN),)
    sentence, n = base
    out = [Preset("no citation", f"{sentence}.")]
    numbers = _numbers(sentence)
    if numbers:
        first = numbers[0]
        out.append(Preset("invented number", f"{sentence.replace(first, _invented(first, spans), 1)} [S{n}]."))
        others = [(m, x) for m, text in enumerate(spans, 1) if m != n
                  for x in _numbers(text) if x not in _numbers(spans[n - 1])]
        if others:
            m, x = others[0]
            out.append(Preset("another span's number", f"{sentence.replace(first, x, 1)} [S{m}]."))
    out.append(Preset("right citation", f"{sentence} [S{n}]."))
    out.append(Preset("missing span", f"{sentence} [S{len(spans) + 1}]."))
    out.append(Preset("abstention", ABSTAIN))
    return tuple(out)
