"""The outcome labels, named once: the article's four and ours, and the one way a label becomes a column name.

    ARTICLE_OUTCOMES   ("anchored / right source", "anchored / WRONG source", "refused", "abstained"): the article's
                       checker (its tables, mode "article"), printed as the article printed them
    OUTCOMES           ours, the judgement a user reads (evaluation.judgement, with their meaning and colours)
    GOLDEN_OUTCOMES    ours for a golden question, which always has an anchor (no "grounded")
    column("anchored / WRONG source") -> "anchored_wrong_source";  column("wrong answer") -> "wrong_answer"

Left out on purpose: what each outcome means and its colour (judgement.MEANING, TONES, COLOURS), and the loss
stages (evaluation.losses.STAGES), which say where a question is lost, not what its answer is.
"""
from __future__ import annotations

ARTICLE_OUTCOMES = ("anchored / right source", "anchored / WRONG source", "refused", "abstained")
OUTCOMES = ("answered", "wrong answer", "not confirmed", "grounded", "wrong source", "refused", "abstained")
GOLDEN_OUTCOMES = tuple(o for o in OUTCOMES if o != "grounded")


def column(label: str) -> str:
    """The column name of an outcome label in a table: lower case, words joined by "_"."""
    return label.replace(" / ", "_").replace(" ", "_").lower()
