"""What a question must be before anything searches with it (`check_question`), and when two golden questions are
the same one (`question_key`).

Left out on purpose: reading a golden set (rag_core.data.golden) and the tokenizer itself (`text.tokens`).
"""
from __future__ import annotations

import unicodedata

from rag_core.text.tokens import normalize, words

MAX_QUESTION_CHARS = 20_000


def check_question(question: str) -> str:
    """The question, stripped, or a ValueError saying how to fix it."""
    if not isinstance(question, str) or not question.strip():
        raise ValueError("The question is empty: type a question.")
    if len(question) > MAX_QUESTION_CHARS:
        raise ValueError(f"The question is {len(question):,} characters long; keep it under "
                         f"{MAX_QUESTION_CHARS:,} characters (a question, not a document).")
    if not words(question):
        raise ValueError("The question has no searchable words (only stopwords like 'what', 'the', 'is', "
                         "or only punctuation and symbols): add a content word, e.g. a function name.")
    return question.strip()


def question_key(question: str) -> str:
    """What makes two golden questions the same: case, spacing and Unicode's compatible forms aside.

        question_key("Café  timeout？") == question_key("cafe\u0301 timeout?")  -> True
    """
    return normalize(unicodedata.normalize("NFKC", question)).casefold()
