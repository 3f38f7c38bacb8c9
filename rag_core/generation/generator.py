"""The scripted generator: it is NOT a model.

It takes the sentence of the spans that shares the most terms with the question and cites it;
if the best sentence shares fewer than two terms, it abstains. Ties go to the first sentence met.

    scripted_answer("default cutoff?", ["Optional arg cutoff (default 0.6) is a float."])
    -> "Optional arg cutoff (default 0.6) is a float [S1]."

Left out on purpose: paraphrase, several sentences, any knowledge outside the spans. Real models
live in `llm`; this one exists so every run is repeatable and offline.
"""
from __future__ import annotations

import functools

from rag_core.generation.prompt import ABSTAIN
from rag_core.text.tokens import cached_words, words


def sentences(text: str) -> list[list[str]]:
    """The sentences of normalize(text) as lists of whitespace tokens; a sentence ends at a token
    ending in . ! or ?, exactly where the article splits normalize(text) on whitespace after . ! or ?.

    "A b. C? d" -> [["A", "b."], ["C?"], ["d"]]
    """
    out, current = [], []
    for token in text.split():
        current.append(token)
        if token[-1] in ".!?":
            out.append(current)
            current = []
    return out + [current] if current else out


@functools.lru_cache(maxsize=1024)
def sentence_words(text: str) -> tuple[tuple[str, frozenset], ...]:
    """(sentence, its words) for each sentence of a span; cached: a table answers the same chunks many times."""
    return tuple((" ".join(s), frozenset(w for t in s for w in cached_words(t)))    # words never span whitespace
                 for s in sentences(text))


def scripted_answer(question: str, spans: list[str]) -> str:
    qt = set(words(question))
    points, span_no, chosen = 0, 0, ""
    for n, text in enumerate(spans, 1):
        for sentence, terms in sentence_words(text):
            p = len(qt & terms)
            if p > points:
                points, span_no, chosen = p, n, sentence
    if points < 2:
        return ABSTAIN
    return f"{chosen.rstrip('.')} [S{span_no}]."
