"""Answers to try against the checker, built from the spans actually handed over, each named for what it is.

A fixed list of answers would be judged against spans it was not written for (the article's six cases cite S2
as a draft; on another question S2 is something else). These are made from this question's spans. The base
sentence is the golden anchor when a span holds it (`anchor`), else the scripted generator's sentence (or the
first sentence of S1 when it abstains):

    the anchor, cited                    every sentence of the anchor, citing the span that holds it
    the anchor, no citation              the same without [Sn]
    the anchor, a number changed         its first number changed to one that no span has, citing the same span
    a number from S2 (draft), cited      its first number replaced by a number of another span, citing that span
    the generator's sentence, cited      the scripted generator's answer (when it is not the anchor itself)
    the anchor, citing S4 (not handed over)   a citation to a span that does not exist
    abstention                           NOT IN THE CONTEXT
(without an anchor in the spans, "the generator's sentence" takes the anchor's place in these names)

    presets("default cutoff?", ["Optional arg cutoff (default 0.6) is a float."])[0]
    -> Preset("the generator's sentence, cited", "Optional arg cutoff (default 0.6) is a float [S1].")

Left out on purpose: paraphrases and several-sentence answers of our own; presets the spans cannot support (no
number to change, a single span) are left out rather than faked.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from rag_core.generation import claims, quantities
from rag_core.generation.generator import scripted_answer, sentences
from rag_core.generation.prompt import ABSTAIN
from rag_core.generation.citations import CITATION, cited_numbers
from rag_core.text.tokens import normalize

# the article's six cases: its two spans (a current docstring, a draft note) and six answers judged against them
ARTICLE_CONTEXT = ("Optional arg cutoff (default 0.6) is a float in [0, 1].",
                   "NOTE (draft): the default cutoff of get_close_matches is 0.9.")
ARTICLE_CASES = ("The default cutoff is 0.6.", "The default cutoff is 0.9 [S1].", "The default cutoff is 0.9 [S2].",
                 "The default cutoff is 0.6 [S1].", "The default cutoff is 0.6 [S4].", "NOT IN THE CONTEXT")
NUMBER = re.compile(r"(?<![\w.,])\d+(?:\.\d+)?(?![\w]|[.,]\d)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


class Preset(NamedTuple):
    kind: str       # what kind of answer it is, in words
    answer: str


def _cite(text: str, n: int) -> str:
    """Every sentence of `text` followed by [Sn], so that each one cites: "A. B" -> "A [S1]. B [S1]."."""
    parts = [p.strip().rstrip(".!?").strip() for p in _SENTENCE_END.split(text) if p.strip()]
    return " ".join(f"{p} [S{n}]." for p in parts if p) or f"{text.strip()} [S{n}]."


def _generated(question: str, spans: list[str]) -> tuple[str, int] | None:
    """(the generator's sentence without citation or final period, 1-based span), or S1's first sentence."""
    answer = scripted_answer(question, spans)
    cited = cited_numbers(answer)
    if answer != ABSTAIN and cited:
        return CITATION.sub("", answer).strip().rstrip(".").strip(), cited[0]
    for n, text in enumerate(spans, 1):
        first = sentences(text)
        if first:
            return " ".join(first[0]).rstrip(".!?").strip(), n
    return None


def _invented(number: str, spans: list[str]) -> str:
    """A number near `number` that no span has, in digits or in words (as the strict checker reads numbers):
    '0.6' -> '0.9', '3' -> '4'."""
    value, decimals = float(number), len(number.split(".")[1]) if "." in number else 0
    step = 0.3 if decimals else 1
    held = [claims.of(s) for s in spans]
    for i in range(1, 1000):
        candidate = f"{value + i * step:.{decimals}f}"
        if not any(candidate in NUMBER.findall(s) for s in spans) and \
                not any(h.has_number(v) for h in held for _, v in quantities.numbers(candidate)):
            return candidate
    return number + "7"


def presets(question: str, spans: list[str], anchor: str | None = None, statuses=None) -> tuple[Preset, ...]:
    """The answers to try for these spans; `anchor`: the golden anchor (its sentence is the base when a span holds
    it); `statuses`: each span's status, to name where a borrowed number comes from."""
    target = normalize(anchor) if anchor else None
    holder = next((n for n, t in enumerate(spans, 1) if target and target in normalize(t)), None)
    generated = _generated(question, spans)
    if holder is not None:
        base, n, what = target.rstrip("."), holder, "the anchor"
    elif generated is not None:
        (base, n), what = generated, "the generator's sentence"
    else:
        return (Preset("abstention", ABSTAIN),)
    out = [Preset(f"{what}, cited", _cite(base, n)), Preset(f"{what}, no citation", f"{base}.")]
    numbers = NUMBER.findall(base)
    if numbers:
        first = numbers[0]
        out.append(Preset(f"{what}, a number changed", _cite(base.replace(first, _invented(first, spans), 1), n)))
        others = [(m, x) for m, text in enumerate(spans, 1) if m != n
                  for x in NUMBER.findall(text) if x not in NUMBER.findall(spans[n - 1])]
        if others:
            m, x = others[0]
            status = f" ({statuses[m - 1]})" if statuses is not None and m <= len(statuses) else ""
            out.append(Preset(f"a number from S{m}{status}, cited to it", _cite(base.replace(first, x, 1), m)))
    if holder is not None and generated is not None and normalize(generated[0]) != normalize(base):
        out.append(Preset("the generator's sentence, cited", _cite(generated[0], generated[1])))
    out.append(Preset(f"{what}, citing S{len(spans) + 1} (not handed over)", _cite(base, len(spans) + 1)))
    out.append(Preset("abstention", ABSTAIN))
    return tuple(out)
