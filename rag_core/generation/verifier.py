"""The citation verifier: every number and technical name of a sentence must appear in the span it cites.

Verdicts, as in the article:
    abstained  the answer is NOT IN THE CONTEXT
    refused    a sentence has no [Sn], cites a span that does not exist, or has a number or a
               technical name that its cited spans lack
    anchored   every sentence passes

Two modes. `article` is the article's checker, exactly: it compares strings, so "0" is found in
"0.6", "64" in "base64", "itertools.combinations" in "itertools.combinations_with_replacement",
while "0.60" is not found in "0.6"; and any answer that starts with NOT IN THE CONTEXT abstains,
whatever follows. The tables that reproduce the article use it. `strict`, the default, reads
claims (see `claims`): numbers by value as whole tokens, names whole, and an abstention only when
the whole answer is the phrase (any case, emphasis, quotes, a final period).

    verify("The default cutoff is 0 [S1].", ["Optional arg cutoff (default 0.6)"], "article").verdict -> "anchored"
    verify("The default cutoff is 0 [S1].", ["Optional arg cutoff (default 0.6)"]).reason
    -> "Sentence 1: The number '0' does not appear in S1: the span says 0.6, not 0."

Both explain every sentence: which citation, which number or name is missing from which span,
which citation is out of range; strict also says what the span has instead when it is close.

What strict still cannot see, on purpose (it compares claims, not meaning):
    meaning      "the cutoff is 0.6 [S1]" passes although S1 says 0.6 of another parameter
    negation     "the default is not 0.6 [S1]" passes against "the default is 0.6"
    a wrong but existing citation: the draft note S2 says 0.9, so "0.9 [S2]" is anchored, and false
    a number elsewhere in the span: "is 0 [S1]" passes if S1 holds [0, 1], even if the default is 0.6
    words that are not names: "combinations" is plain English, "combinations_with_replacement" is a name
It guarantees grounding, not truth: that failure is repaired upstream, by the filter.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from rag_core.generation import claims
from rag_core.generation.prompt import ABSTAIN

CITATION = re.compile(r"\[S(\d+)\]")
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# A technical name has a dot, an underscore or an inner capital; common English words have none,
# so "According" at the start of a sentence does not get a correct answer refused.
NAME = re.compile(r"\b(?:[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*"
                  r"|[A-Za-z]*[a-z][A-Z][A-Za-z]*"
                  r"|[a-z]+_[a-z_]+)\b")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_DRESS = r"""[\s*_`"'“”‘’«»]*"""                      # emphasis, quotes and spaces around the phrase
ABSTENTION = re.compile(_DRESS + r"not\s+in\s+the\s+context" + _DRESS + r"\.?" + _DRESS, re.I)
_STARTS_ABSTAINING = re.compile(_DRESS + r"not\s+in\s+the\s+context\b", re.I)

VERDICTS = ("anchored", "refused", "abstained")
MODES = ("strict", "article")


class SentenceCheck(NamedTuple):
    sentence: str
    cited: tuple            # span numbers cited, e.g. (1, 3)
    out_of_range: tuple     # cited numbers with no such span
    missing_numbers: tuple  # numbers absent from the cited spans
    missing_names: tuple    # technical names absent from the cited spans
    ok: bool
    explanation: str        # one plain sentence
    closest: tuple = ()     # strict: (missing, what the cited spans have instead), e.g. (("0", "0.6"),)


class Verdict(NamedTuple):
    verdict: str            # anchored | refused | abstained
    sentences: tuple        # SentenceCheck per sentence (empty when abstained)
    reason: str             # the first problem in plain words, or why it passed
    mode: str = "strict"    # the checker that gave it: strict | article

    @property
    def cited_spans(self) -> tuple:
        """Span numbers cited by the answer, first citation first, without repeats."""
        return tuple(dict.fromkeys(n for s in self.sentences for n in s.cited))

    def as_dict(self) -> dict:
        """Plain JSON-ready values: verdict, mode, reason, and per sentence its checks."""
        return {"verdict": self.verdict, "mode": self.mode, "reason": self.reason,
                "sentences": [{"sentence": s.sentence, "cited": list(s.cited), "ok": s.ok, "explanation": s.explanation,
                               "missing_numbers": list(s.missing_numbers), "missing_names": list(s.missing_names),
                               "out_of_range": list(s.out_of_range)} for s in self.sentences]}


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


def _missing(bare: str, cited: tuple, spans: list[str], mode: str):
    """(missing numbers, missing names, closest pairs) of a sentence against the union of its cited spans."""
    if mode == "article":
        union = " ".join(spans[n - 1] for n in cited).lower()
        numbers = tuple(dict.fromkeys(x for x in NUMBER.findall(bare) if x.lower() not in union))
        names = tuple(dict.fromkeys(x for x in NAME.findall(bare) if x.lower() not in union))
        return numbers, names, ()
    have = claims.of(" ".join(spans[n - 1] for n in cited))
    numbers = tuple(dict.fromkeys(lit for lit, value in claims.numbers(bare) if not have.has_number(value)))
    names = tuple(x for x in claims.names(bare) if not have.has_name(x))
    near = [(x, have.near_number(x)) for x in numbers] + [(x, have.near_name(x)) for x in names]
    return numbers, names, tuple((x, c) for x, c in near if c)


def check_sentence(sentence: str, spans: list[str], mode: str = "strict") -> SentenceCheck:
    text = sentence if mode == "article" else claims.normalize(sentence)     # strict: "［S1］" is [S1]
    cited = tuple(dict.fromkeys(int(c) for c in CITATION.findall(text)))      # "[S1][S1]" cites S1 once
    if not cited:
        return SentenceCheck(sentence, (), (), (), (), False,
                             "No citation: the sentence does not say which span it comes from "
                             "(it should end with a span number such as [S1]).")
    out = tuple(n for n in cited if not 1 <= n <= len(spans))
    if out:
        return SentenceCheck(sentence, cited, out, (), (), False,
                             f"Cites {_spans_named(out, 'and')}, which {'does' if len(out) == 1 else 'do'} not exist: "
                             f"{_handed_over(len(spans))} handed over.")
    bare = CITATION.sub("", text)        # without this, the "3" of "[S3]" would be searched too
    numbers, names, near = _missing(bare, cited, spans, mode)
    if numbers or names:
        parts = []
        if numbers:
            parts.append(f"number {_quote(numbers)}" if len(numbers) == 1 else f"numbers {_quote(numbers)}")
        if names:
            parts.append(f"name {_quote(names)}" if len(names) == 1 else f"names {_quote(names)}")
        where = f"{'do' if len(numbers) + len(names) > 1 else 'does'} not appear in {_spans_named(cited, 'or')}"
        instead = ""
        if near:
            says = "the span says" if len(cited) == 1 else "the spans say"
            instead = f": {says} " + "; ".join(f"{c}, not {x}" for x, c in near)
        return SentenceCheck(sentence, cited, (), numbers, names, False,
                             f"The {' and the '.join(parts)} {where}{instead}.", near)
    return SentenceCheck(sentence, cited, (), (), (), True,
                         f"Every number and technical name appears in {_spans_named(cited, 'or')}.")


def verify(answer: str, spans: list[str], mode: str = "strict") -> Verdict:
    """The verdict of checker `mode` ("strict" or "article") with a per-sentence explanation."""
    if mode not in MODES:
        raise ValueError(f"Unknown verifier mode {mode!r}: use one of {', '.join(MODES)}.")
    if not isinstance(answer, str):
        raise ValueError(f"The answer must be text, got {type(answer).__name__}.")
    strict = mode == "strict"
    abstains = ABSTENTION.fullmatch(claims.normalize(answer)) if strict else answer.strip().startswith(ABSTAIN)
    if abstains:
        return Verdict("abstained", (), "The answer says the spans do not contain it.", mode)
    sentences = [f.strip() for f in _SENTENCE_END.split(answer) if f.strip()]
    if not sentences:
        return Verdict("refused", (), "The answer is empty.", mode)
    checks = tuple(check_sentence(s, spans, mode) for s in sentences)
    if strict and _STARTS_ABSTAINING.match(claims.normalize(answer)):
        checks = (checks[0]._replace(ok=False, explanation="It says NOT IN THE CONTEXT, yet the answer goes on."),) \
            + checks[1:]
        return Verdict("refused", checks, "The answer says NOT IN THE CONTEXT and then goes on: an abstention "
                                          "must be the whole answer, and claims after it are not one.", mode)
    bad = [c for c in checks if not c.ok]
    if bad:
        return Verdict("refused", checks, f"Sentence {checks.index(bad[0]) + 1}: {bad[0].explanation}", mode)
    return Verdict("anchored", checks, "Every sentence cites a span that contains its numbers and names.", mode)


def verify_grounding(answer: str, spans: list[str]) -> str:
    """Only the verdict string, as the article's function returns it (mode article)."""
    return verify(answer, spans, "article").verdict


def compare_modes(answer: str, spans: list[str]) -> tuple[Verdict, Verdict]:
    """(strict verdict, article verdict) of the same answer."""
    return verify(answer, spans, "strict"), verify(answer, spans, "article")


def disagreement(answer: str, spans: list[str]) -> str | None:
    """Why the two checkers give different verdicts, in one sentence; None when the verdicts agree.

    disagreement("The default cutoff is 0 [S1].", ["(default 0.6)"])
    -> "The article's checker accepts this answer because it compares strings: '0' is found inside S1 (in 0.6); the
        strict checker compares numbers by value and names whole, and the number '0' does not appear in S1: ..."
    """
    return disagreement_of(answer, spans, *compare_modes(answer, spans))


def disagreement_of(answer: str, spans: list[str], strict: Verdict, article: Verdict) -> str | None:
    """`disagreement` from the two verdicts already computed (no checker runs again)."""
    if strict.verdict == article.verdict:
        return None
    if strict.verdict == "refused" and _STARTS_ABSTAINING.match(claims.normalize(answer)):
        said = ("abstains because the answer starts with NOT IN THE CONTEXT" if article.verdict == "abstained" else
                f"says {article.verdict}: it checks the claims and overlooks the abstention before them")
        return (f"The article's checker {said}; the strict checker refuses it because claims follow, and an "
                f"abstention must be the whole answer.")
    if strict.verdict == "abstained":
        return ("The article's checker refuses this answer because it does not start with NOT IN THE CONTEXT written "
                "exactly so; the strict checker reads it as an abstention (case, emphasis, quotes and a final period "
                "do not matter).")
    bad = next(c for c in (strict if strict.verdict == "refused" else article).sentences if not c.ok)
    if not (bad.missing_numbers or bad.missing_names):
        return (f"The article's checker says {article.verdict} ({article.reason}); "
                f"the strict checker says {strict.verdict} ({strict.reason}).")
    claim = (bad.missing_numbers + bad.missing_names)[0]
    where = _spans_named(bad.cited, "or")
    if strict.verdict == "refused":
        near = dict(bad.closest).get(claim)
        inside = f" (in {near})" if near and claim.lower() in near.lower() else ""
        union = " ".join(spans[n - 1] for n in bad.cited).lower()
        found = (f"'{claim}' is found inside {where}{inside}" if claim.lower() in union
                 else f"it reads '{claim}' in pieces that {where} contains")      # "1,000,000": 1, 000, 000
        why = bad.explanation[0].lower() + bad.explanation[1:]
        return (f"The article's checker accepts this answer because it compares strings: {found}; the strict "
                f"checker compares numbers by value and names whole, and {why}")
    return (f"The article's checker refuses this answer because '{claim}' is not written the same way in {where}; "
            f"the strict checker compares numbers by value and names whole, and finds every claim there.")
