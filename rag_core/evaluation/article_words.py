"""The article's words beside ours: its verdicts and labels, what they mean, and the outcome a user reads.

The article calls an answer "anchored" when every number and name of each sentence is found in the span it cites,
and "right source" when that span comes from the document that holds the answer. Neither says the answer is right:
"The default cutoff is 0.9 [S2]." is anchored (S2 is the draft note that says 0.9) and wrong. The article's own
tables keep its labels value for value (evaluation.tables); the pages show these beside them.

    verifier_cases_judged()  answer, the article's verdict, what it means, our outcome, why
    ARTICLE_MEANING          the article's label -> what it means, in words

Left out on purpose: computing anything the article's tables do not (this module only reads the same answers
again with the strict checker and the answer key).
"""
from __future__ import annotations

import pandas as pd

from rag_core.evaluation.judgement import judge_answer
from rag_core.generation.presets import ARTICLE_CASES, ARTICLE_CONTEXT

ARTICLE_MEANING = {
    "anchored": "the article's word: every number and name is found in the cited span (grounded), right or not",
    "refused": "the article's word: a sentence without a citation, a citation to a missing span, or a number or "
               "name the cited span lacks",
    "abstained": "the article's word: the answer says NOT IN THE CONTEXT",
    "anchored / right source": "the article's label: grounded, and the cited span comes from the document that "
                               "holds the answer; it does not say the answer is right",
    "anchored / WRONG source": "the article's label: grounded on a span of another document (a draft, an outdated "
                               "note): a faithful quote of the wrong page",
}
# the article's two spans: S1 the library's docstring (current), S2 a draft note; the question and its key
SPANS_FROM = (("difflib", "current"), ("draft note", "draft"))
QUESTION, ANCHOR, KEY = ("What is the default cutoff of get_close_matches?", "Optional arg cutoff (default 0.6)",
                         "0.6")


class _ArticleSpans:
    """The article's two spans as judge_answer reads an index: chunk i is span S(i+1), with its document and
    status."""

    def doc_id(self, i: int) -> str:
        return SPANS_FROM[i][0]

    def status(self, i: int) -> str:
        return SPANS_FROM[i][1]


def verifier_cases_judged(context=ARTICLE_CONTEXT, cases=ARTICLE_CASES) -> pd.DataFrame:
    """The article's six answers: its verdict and what it means, beside our outcome and its sentence.

    "The default cutoff is 0.9 [S2]." -> article "anchored" (grounded), ours "wrong source" (S2 is a draft)
    """
    rows = []
    for answer in cases:
        j = judge_answer(answer, list(context), list(range(len(context))), _ArticleSpans(), "difflib", ANCHOR,
                         ("current",), key=KEY, question=QUESTION)
        article = j.article.verdict if j.article is not None else j.verdict.verdict
        rows.append({"answer": answer, "the article's verdict": article,
                     "what the article's word means": ARTICLE_MEANING[article], "our outcome": j.outcome,
                     "why": j.sentence})
    return pd.DataFrame(rows)
