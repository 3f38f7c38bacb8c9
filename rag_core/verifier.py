"""The citation verifier: every number and technical name of a sentence must appear in the span it cites.

Verdicts, as in the article:
    abstained  the answer starts with NOT IN THE CONTEXT
    refused    a sentence has no [Sn], cites a span that does not exist, or has a number or a
               technical name (a dot, an underscore or an inner capital) that its cited spans lack
    anchored   every sentence passes

Beyond the article, `verify` explains every sentence: which citation, which number or name is
missing from which span, or which citation is out of range. The verdict is the article's; the
explanation only adds detail.

    verify("The default cutoff is 0.9 [S1].", ["Optional arg cutoff (default 0.6)"]).verdict -> "refused"

Left out on purpose: meaning. It compares strings, so it guarantees grounding, not truth: a wrong
answer faithfully citing a wrong span passes. That failure is repaired upstream, by the filter.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from .prompt import ABSTAIN

CITATION = re.compile(r"\[S(\d+)\]")
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# A technical name has a dot, an underscore or an inner capital; common English words have none,
# so "According" at the start of a sentence does not get a correct answer refused.
NAME = re.compile(r"\b(?:[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*"
                  r"|[A-Za-z]*[a-z][A-Z][A-Za-z]*"
                  r"|[a-z]+_[a-z_]+)\b")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")

VERDICTS = ("anchored", "refused", "abstained")


class SentenceCheck(NamedTuple):
    sentence: str
    cited: tuple            # span numbers cited, e.g. (1, 3)
    out_of_range: tuple     # cited numbers with no such span
    missing_numbers: tuple  # numbers absent from the cited spans
    missing_names: tuple    # technical names absent from the cited spans
    ok: bool
    explanation: str        # one plain sentence


class Verdict(NamedTuple):
    verdict: str            # anchored | refused | abstained
    sentences: tuple        # SentenceCheck per sentence (empty when abstained)
    reason: str             # the first problem in plain words, or why it passed

    @property
    def cited_spans(self) -> tuple:
        """Span numbers cited by the answer, first citation first, without repeats."""
        return tuple(dict.fromkeys(n for s in self.sentences for n in s.cited))


def _quote(items) -> str:
    return ", ".join(f"'{x}'" for x in items)


def _handed_over(n_spans: int) -> str:
    """What was handed over, in words: 0 -> 'no span was', 1 -> 'only S1 was', 3 -> 'only S1 to S3 were'."""
    if n_spans == 0:
        return "no span was"
    return "only S1 was" if n_spans == 1 else f"only S1 to S{n_spans} were"


def _spans_named(cited, joiner: str) -> str:
    """(1,) -> 'S1'; (1, 3) -> 'S1 or S3' (joiner 'or') or 'S1 and S3' (joiner 'and')."""
    names = [f"S{n}" for n in cited]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {joiner} " + names[-1]


def check_sentence(sentence: str, spans: list[str]) -> SentenceCheck:
    cited = tuple(dict.fromkeys(int(c) for c in CITATION.findall(sentence)))   # "[S1][S1]" cites S1 once
    if not cited:
        return SentenceCheck(sentence, (), (), (), (), False,
                             "No citation: the sentence does not say which span it comes from "
                             "(it should end with a span number such as [S1]).")
    out = tuple(n for n in cited if not 1 <= n <= len(spans))
    if out:
        return SentenceCheck(sentence, cited, out, (), (), False,
                             f"Cites {_spans_named(out, 'and')}, which {'does' if len(out) == 1 else 'do'} not exist: "
                             f"{_handed_over(len(spans))} handed over.")
    union = " ".join(spans[n - 1] for n in cited).lower()
    bare = CITATION.sub("", sentence)        # without this, the "3" of "[S3]" would be searched too
    numbers = tuple(dict.fromkeys(x for x in NUMBER.findall(bare) if x.lower() not in union))
    names = tuple(dict.fromkeys(x for x in NAME.findall(bare) if x.lower() not in union))
    if numbers or names:
        parts = []
        if numbers:
            parts.append(f"number {_quote(numbers)}" if len(numbers) == 1 else f"numbers {_quote(numbers)}")
        if names:
            parts.append(f"name {_quote(names)}" if len(names) == 1 else f"names {_quote(names)}")
        return SentenceCheck(sentence, cited, (), numbers, names, False,
                             f"The {' and the '.join(parts)} {'do' if len(numbers) + len(names) > 1 else 'does'} "
                             f"not appear in {_spans_named(cited, 'or')}.")
    return SentenceCheck(sentence, cited, (), (), (), True,
                         f"Every number and technical name appears in {_spans_named(cited, 'or')}.")


def verify(answer: str, spans: list[str]) -> Verdict:
    """The article's verdict with a per-sentence explanation."""
    if not isinstance(answer, str):
        raise ValueError(f"The answer must be text, got {type(answer).__name__}.")
    if answer.strip().startswith(ABSTAIN):
        return Verdict("abstained", (), "The answer says the spans do not contain it.")
    sentences = [f.strip() for f in _SENTENCE_END.split(answer) if f.strip()]
    if not sentences:
        return Verdict("refused", (), "The answer is empty.")
    checks = tuple(check_sentence(s, spans) for s in sentences)
    bad = [c for c in checks if not c.ok]
    if bad:
        return Verdict("refused", checks, f"Sentence {checks.index(bad[0]) + 1}: {bad[0].explanation}")
    return Verdict("anchored", checks, "Every sentence cites a span that contains its numbers and names.")


def verify_grounding(answer: str, spans: list[str]) -> str:
    """Only the verdict string, as the article's function returns it."""
    return verify(answer, spans).verdict
