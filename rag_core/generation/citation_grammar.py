"""A citation grammar for small local models: llama.cpp's server constrains the answer so that every sentence ends
with a citation [Sn], or the answer is the abstention NOT IN THE CONTEXT.

    LLMConfig("openai", "http://127.0.0.1:8080", "smollm2-135m", grammar="cite")   # sends {"grammar": cite_gbnf(prompt)}

A small model (SmolLM2-135M on llama-cpp-python's server, README "Judging the judge") answered none of 18 golden
questions in this shape without it, and 13 with it (all 18 cite a span), yet none of them right: the grammar makes
an answer checkable, not true. It goes in the request's `grammar` field, which llama.cpp's
/v1/chat/completions reads; other OpenAI-compatible servers ignore the field or refuse it, so it is off by default
and chosen in the model form. CITED is the same shape as a Python pattern, for tests and for reading.

Left out on purpose: `response_format` with a JSON schema (the answer would come back as JSON and need unwrapping
while it streams), Ollama's `format` (JSON only), and any span number beyond 99.
"""
from __future__ import annotations

import re

GRAMMARS = ("off", "cite")      # off: the model writes freely; cite: cite_gbnf(prompt) constrains every answer
_RULES = r'''abstain ::= "NOT IN THE CONTEXT"
sentence ::= first rest " [S" span "]."
first ::= [^\[\]\n. ]
rest ::= char{0,240}
char ::= [^\[\]\n.] | "." [0-9a-z_(]
'''


def cite_gbnf(prompt: str) -> str:
    """The grammar for one prompt: its citations limited to the spans it lays out ("[S1] ..." to "[Sn] ..." at a
    line's start; none: the answer can only abstain). A sentence ends only with its citation and is at most 241
    characters long (a small model otherwise writes on, citing nothing, until its tokens run out); a period inside
    a word or number (0.6, a.insert) stays allowed."""
    n = max((int(m) for m in re.findall(r"^\[S([1-9][0-9]?)\] ", prompt, re.M)), default=0)
    if not n:
        return 'root ::= abstain\n' + _RULES.split("\n", 1)[0] + "\n"
    span = " | ".join(f'"{i}"' for i in range(1, n + 1))
    return f'root ::= abstain | sentence (" " sentence)*\nspan ::= {span}\n' + _RULES


_SENTENCE = r"[^\[\]\n. ](?:[^\[\]\n.]|\.[0-9a-z_(]){0,240} \[S[1-9][0-9]?\]\."
CITED = re.compile(rf"NOT IN THE CONTEXT|{_SENTENCE}(?: {_SENTENCE})*")


def fits(answer: str) -> bool:
    """Whether an answer has the grammar's shape: "The cutoff is 0.6 [S1]." -> True; "The cutoff is 0.6." -> False."""
    return CITED.fullmatch(answer) is not None
