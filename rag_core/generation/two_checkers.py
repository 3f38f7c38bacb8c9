"""Why the two checkers disagree: the strict checker (ours) and the article's, on the same answer, in one sentence.

    compare_modes(answer, spans)      # (strict verdict, article verdict)
    disagreement("The default cutoff is 0 [S1].", ["(default 0.6)"])
    -> "The article's checker accepts this answer because it compares strings: '0' is found inside S1 (in 0.6); ..."

Ask shows this sentence under a verdict when the checkers differ, and the `verify` command prints it.

Left out on purpose: checking itself (verifier.verify) and judging against a golden answer (evaluation.judgement).
"""
from __future__ import annotations

from rag_core.generation import quantities
from rag_core.generation.verifier import CITED_ABSTENTION, STARTS_ABSTAINING, Verdict, short, spans_named, verify


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
    if strict.verdict == "refused" and (CITED_ABSTENTION in strict.reason or "Nothing to check" in strict.reason):
        return (f"The article's checker says {article.verdict} ({article.reason}); "
                f"the strict checker says {strict.verdict} ({strict.reason})")
    if strict.verdict == "refused" and STARTS_ABSTAINING.match(quantities.normalize(answer)):
        said = ("abstains because the answer starts with NOT IN THE CONTEXT" if article.verdict == "abstained" else
                f"says {article.verdict}: it checks the claims and overlooks the abstention before them")
        return (f"The article's checker {said}; the strict checker refuses it because claims follow, and an "
                f"abstention must be the whole answer.")
    if strict.verdict == "abstained":
        return ("The article's checker refuses this answer because it does not start with NOT IN THE CONTEXT written "
                "exactly so; the strict checker reads it as an abstention (case, emphasis, quotes and final "
                "punctuation do not matter).")
    bad = next(c for c in (strict if strict.verdict == "refused" else article).sentences if not c.ok)
    if not (bad.missing_numbers or bad.missing_names):
        return (f"The article's checker says {article.verdict} ({article.reason}); "
                f"the strict checker says {strict.verdict} ({strict.reason}).")
    claim = (bad.missing_numbers + bad.missing_names)[0]
    where = spans_named(bad.cited, "or")
    if strict.verdict == "refused":
        near = dict(bad.closest).get(claim)
        inside = f" (in {short(near)})" if near and claim.lower() in near.lower() else ""
        union = " ".join(spans[n - 1] for n in bad.cited).lower()
        if not any(ch.isdigit() for ch in claim) and claim in bad.missing_numbers:
            found = f"it looks for digits only, and '{short(claim)}' is written in words"
        elif claim.lower() in union:
            found = f"'{short(claim)}' is found inside {where}{inside}"
        else:
            found = f"it reads '{short(claim)}' in pieces that {where} contains"      # "1,000,000": 1, 000, 000
        why = bad.explanation[0].lower() + bad.explanation[1:]
        return (f"The article's checker accepts this answer because it compares strings: {found}; the strict "
                f"checker compares numbers by value and names whole, and {why}")
    return (f"The article's checker refuses this answer because '{short(claim)}' is not written the same way in "
            f"{where}; the strict checker compares numbers by value and names whole, and finds every claim there.")
