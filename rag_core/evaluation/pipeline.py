"""The whole pipeline for one question, and its outcome over a golden set.

    ask(index, "What is the default cutoff of get_close_matches?", allowed={"current"})
    -> Answer(retrieved, spans, prompt, answer, verdict, outcome ...)

Outcomes, as in the article: "anchored / right source" (the cited span comes from the expected
document), "anchored / WRONG source", "refused", "abstained". "Right source" means the cited span
comes from the expected document, not that the chosen sentence contains the answer.

A real model answers through `model_answerer` (llm.LLMConfig); any callable answer(question, spans) -> str plugs in
through `generate=`.

Left out on purpose: retries and answer caching.
"""
from __future__ import annotations

from typing import Callable, Iterable, NamedTuple

from rag_core.generation.generator import scripted_answer
from rag_core.retrieval.index import Index
from rag_core.generation.prompt import build_prompt
from rag_core.evaluation.vocabulary import ARTICLE_OUTCOMES
from rag_core.retrieval.rerank import Retrieved, retrieve
from rag_core.generation.verifier import Verdict, verify



def ends_first(items: list) -> list:
    """The best at the two ends of the context, the weakest in the middle ('lost in the middle').

    [1, 2, 3, 4, 5] -> [1, 3, 5, 4, 2]: the best first, the second best last.
    """
    items = list(items)
    return items[0::2] + items[1::2][::-1]


SPAN_ORDERS = {"ranked": list, "ends": ends_first}   # how the kept chunks are laid out as [S1]..[Sn]


class Answer(NamedTuple):
    question: str
    retrieved: Retrieved
    spans: list         # texts handed to the generator, [S1] first
    prompt: str
    answer: str
    verdict: Verdict


def outcome(verdict: Verdict, span_ids, index: Index, expected_doc: str | None) -> str:
    """The article's outcome label for a verdict on spans `span_ids`; without an expected document, the verdict."""
    if verdict.verdict != "anchored" or expected_doc is None:
        return verdict.verdict
    first = verdict.cited_spans[0]
    return ARTICLE_OUTCOMES[0] if index.doc_id(int(span_ids[first - 1])) == expected_doc else ARTICLE_OUTCOMES[1]


def answer_from(index: Index, question: str, got: Retrieved,
                generate: Callable[[str, list], str] = scripted_answer, mode: str = "strict") -> Answer:
    """Lay out the retrieved chunks as spans, generate, verify with checker `mode` (see `verifier.MODES`)."""
    spans = [index.texts[int(c)] for c in got.ids]
    text = generate(question, spans)
    titles = [index.title(int(c)) for c in got.ids] if mode == "strict" else None     # where each span sits
    return Answer(question, got, spans, build_prompt(question, spans), text,
                  verify(text, spans, mode, question, titles))


def ask(index: Index, question: str, k_candidates: int = 20, k_final: int = 3, rerank: bool = True,
        allowed: Iterable[str] | None = None,
        generate: Callable[[str, list], str] = scripted_answer, mode: str = "strict") -> Answer:
    """Retrieve, lay out the prompt, generate, verify (strict by default: a user judges this answer)."""
    got = retrieve(index, question, k_candidates, k_final, rerank, allowed)
    return answer_from(index, question, got, generate, mode)


def model_answerer(cfg) -> Callable[[str, list], str]:
    """A generator for `ask`/`tables.pipeline` that sends the grounding prompt to a real model (llm.LLMConfig).

    An empty answer is returned as the empty text it is (the checker refuses it: "The answer is empty."), so that
    one empty answer never stops a loop over questions; every other failure raises LLMError and stops it.
    """
    from rag_core.generation.llm import EmptyAnswer, generate   # httpx: only with a real model

    def answer(question: str, spans: list) -> str:
        try:
            return generate(build_prompt(question, spans), cfg).text
        except EmptyAnswer:
            return ""
    return answer
