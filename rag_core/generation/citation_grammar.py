"""A citation grammar for small local models: llama.cpp's server constrains the answer so that every sentence ends
with a citation [Sn], or the answer is the abstention NOT IN THE CONTEXT.

    LLMConfig("openai", "http://127.0.0.1:8080", "smollm2-135m", grammar="cite")   # sends {"grammar": CITE_GBNF}

A small model (SmolLM2-135M through a llama.cpp server, in a trial reported on issue 27) cites no span in 36 of 36
answers without help; with the grammar every answer is well-formed, and about one in seven is right: the grammar
makes an answer checkable, not true. It goes in the request's `grammar` field, which llama.cpp's
/v1/chat/completions reads; other OpenAI-compatible servers ignore the field or refuse it, so it is off by default
and chosen in the model form. CITED is the same shape as a Python pattern, for tests and for reading.

Left out on purpose: `response_format` with a JSON schema (the answer would come back as JSON and need unwrapping
while it streams), Ollama's `format` (JSON only), and any span number beyond 99.
"""
from __future__ import annotations

import re

GRAMMARS = ("off", "cite")      # off: the model writes freely; cite: CITE_GBNF constrains every answer
CITE_GBNF = r'''root ::= abstain | sentence (" " sentence)*
abstain ::= "NOT IN THE CONTEXT"
sentence ::= first rest " [S" [1-9] [0-9]? "]."
first ::= [^\[\]\n. ]
rest ::= [^\[\]\n]*
'''
_SENTENCE = r"[^\[\]\n. ][^\[\]\n]* \[S[1-9][0-9]?\]\."
CITED = re.compile(rf"NOT IN THE CONTEXT|{_SENTENCE}(?: {_SENTENCE})*")


def fits(answer: str) -> bool:
    """Whether an answer has the grammar's shape: "The cutoff is 0.6 [S1]." -> True; "The cutoff is 0.6." -> False."""
    return CITED.fullmatch(answer) is not None
