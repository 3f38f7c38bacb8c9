"""A model as second judge: one short, fixed prompt asks a model whether an answer is RIGHT or WRONG, given the
question, the spans and the golden answer; its reply is read strictly, and anything else is no verdict.

    prompt = judge_prompt("What is the default cutoff?", ["Optional arg cutoff (default 0.6) ..."],
                          "Optional arg cutoff (default 0.6)", "Default: 0.6 [S1].")
    verdict = parse_verdict("RIGHT\\nIt states the default, 0.6.")   # ModelVerdict("RIGHT", "It states ...")
    verdict = judge_with_model(question, spans, golden, answer, cfg)   # through generation.llm, temperature 0

Reading the reply: its first line that holds a letter must hold exactly one of the words RIGHT and WRONG (any
case, markup around it allowed: "**Right.**", "Verdict: WRONG") and no NOT; the reason is the rest of that line or
the next line that holds a letter, at most WHY_CHARS characters. "RIGHT or WRONG", "Correct", "I cannot tell" and
an empty reply are no verdict (verdict None). The call is the configured model's with temperature 0, the seed
fixed (SEED) and a short answer budget (NUM_PREDICT): a rerun gives the same verdict where the server honours them.

Left out on purpose: showing two answers at once (the "first of two" bias is measured only where cases allow),
chains of thought (one line of why), retries (an LLMError is the caller's to report), and any decision of the
page: the model's verdict is shown beside the rule's, never instead of it.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import NamedTuple

VERDICTS = ("RIGHT", "WRONG")
SEED = 7                  # the model judge's seed, whatever the answering model's
NUM_PREDICT = 60          # tokens: a word and one line of why
WHY_CHARS = 300
ASK = "Reply with one word, RIGHT or WRONG, on the first line, then one line saying why."
PROMPT = """You check one answer to a question. Judge its content against the passages and the golden answer: \
it is RIGHT only if it says what the golden answer says, and WRONG if it says something else, contradicts the \
passages, or takes a draft or outdated note for the truth.

Question: {question}

Passages:
{passages}

Golden answer: {golden}

Answer to check: {answer}

{ask}"""


class ModelVerdict(NamedTuple):
    verdict: str | None       # "RIGHT", "WRONG", or None (no verdict)
    why: str                  # one line, as the model said it ("" when it said nothing more)
    reply: str = ""           # the whole reply

    @property
    def tone(self) -> str:
        """RIGHT is green, WRONG red, no verdict gray: the tones a rule's judgement has."""
        return {"RIGHT": "green", "WRONG": "red"}.get(self.verdict, "gray")


def judge_prompt(question: str | None, spans, golden: str, answer: str) -> str:
    """The fixed prompt: the passages as [S1] text, one a line block, the golden answer and the answer."""
    passages = "\n".join(f"[S{i}] {' '.join(s.split())}" for i, s in enumerate(spans, 1))
    return PROMPT.format(question=(question or "(not given)").strip(), passages=passages,
                         golden=" ".join(golden.split()), answer=answer.strip(), ask=ASK)


_WORDS = re.compile(r"[A-Za-z]+")


def parse_verdict(reply: str) -> ModelVerdict:
    """The verdict of a reply (module docstring).

    "RIGHT\\nIt says 0.6." -> ("RIGHT", "It says 0.6.");  "**Wrong** - 0.9 is the draft's" -> ("WRONG", "0.9 is the
    draft's");  "RIGHT or WRONG" -> (None, "");  "Correct." -> (None, "")
    """
    lines = [ln.strip() for ln in (reply or "").splitlines() if _WORDS.search(ln)]
    if not lines:
        return ModelVerdict(None, "", reply or "")
    first = [w.upper() for w in _WORDS.findall(lines[0])]
    said = [v for v in VERDICTS if v in first]
    if len(said) != 1 or "NOT" in first:
        return ModelVerdict(None, "", reply)
    match = re.search(said[0], lines[0], re.IGNORECASE)
    rest = lines[0][match.end():].strip(" *_:.-–—,;`\"'")
    why = rest if _WORDS.search(rest) else (lines[1] if len(lines) > 1 else "")
    return ModelVerdict(said[0], why[:WHY_CHARS], reply)


def judge_with_model(question: str | None, spans, golden: str, answer: str, cfg) -> ModelVerdict:
    """The model's verdict on one answer (cfg: an llm.LLMConfig); LLMError when the server fails."""
    from rag_core.generation.llm import generate       # httpx: only with a real model
    judge_cfg = replace(cfg, temperature=0.0, seed=SEED, num_predict=NUM_PREDICT,
                        grammar="off")                  # a verdict cites nothing: no citation grammar
    return parse_verdict(generate(judge_prompt(question, spans, golden, answer), judge_cfg, stream=False).text)
