"""The grounding prompt: three requirements written as requirements, and spans numbered [S1]..[Sn].

    build_prompt("Q?", ["first span", "second span"])
    -> INSTRUCTIONS + "\\n\\nSPANS:\\n\\n[S1] first span\\n\\n[S2] second span\\n\\nQUESTION: Q?\\n\\nANSWER:"

Left out on purpose: chat templates and system roles (a server applies its own), and any trimming
of spans to fit a window: `prompt_size` reports the size so the caller decides.
"""
from __future__ import annotations

from typing import NamedTuple

ABSTAIN = "NOT IN THE CONTEXT"

INSTRUCTIONS = """You are an assistant that answers ONLY with what is written in the context.

Rules, all three must be respected:
1. Use only the information in the spans below. Do not use anything
   you know from other sources, even if you are certain it is true.
2. If the spans do not contain the answer, write exactly this line and nothing else:
   NOT IN THE CONTEXT
3. Every sentence of the answer must end with the identifier of the span you
   took it from, in square brackets, like this: [S3]. A sentence without an
   identifier is a violation. Do not cite spans you did not use.

Answer in English, in at most two sentences."""


class PromptSize(NamedTuple):
    words: int        # whitespace-separated words, the article's unit
    characters: int
    spans: int


def build_prompt(question: str, span_texts: list[str]) -> str:
    context = "\n\n".join("[S%d] %s" % (i + 1, t) for i, t in enumerate(span_texts))
    return INSTRUCTIONS + "\n\nSPANS:\n\n" + context + "\n\nQUESTION: " + question + "\n\nANSWER:"


def prompt_size(prompt: str, n_spans: int) -> PromptSize:
    return PromptSize(len(prompt.split()), len(prompt), n_spans)
