"""A closing sentence that only says again what the answer said before it: "In summary, the answer is 48.0 km/hr."
after "... the average speed is 48.0 km/hr [S1]." claims nothing the cited sentences did not, so it needs no
citation of its own.

    restates("In summary, the answer is 48.0 km/hr.", "According to [S1], the average speed is 48.0 km/hr.") -> True
    restates("In summary, it is 50 km/hr.", "According to [S1], the average speed is 48.0 km/hr.")          -> False

A sentence restates when every number and technical name of it, and every content word (folded: "defaults" is
"default") but the words of a summary ("in short", "bottom line", "answer") and those of the question, is in the
text before it, and it has no negation the text before lacks; a number it denies ("It is 48, not 50.") is not
read (generation.unasserted).

Left out on purpose: a restatement in new words ("To sum up: sixty percent"), which stays a claim, and the order of
the words: "the smaller one, not the larger" said again as "the larger one, not the smaller" passes here; the
caller reads the sentence against the answer key as well (evaluation.judgement).
"""
from __future__ import annotations

from rag_core.generation import claims, quantities
from rag_core.generation.lexicon import FUNCTION, stem_set
from rag_core.generation.negation import has_negation
from rag_core.generation.unasserted import blank
from rag_core.text.arguments import text_argument
from rag_core.text.tokens import words

_SUMMING = stem_set("summary sum summing summarize summarise summarized short answer answers bottom line tldr tl dr "
                    "conclusion overall simply put word words other basically essentially recap again so yes no "
                    "final verdict therefore thus hence give gives return returns yield yields") | stem_set(" ".join(FUNCTION))
_LONGEST = 300          # characters of a closing sentence read as a restatement: a summary is short


def restates(sentence: str, before: str, question: str | None = None) -> bool:
    """Whether `sentence` says nothing that `before` (the answer before it) and `question` do not."""
    text_argument(sentence, "sentence")
    text_argument(before, "before")
    if len(sentence) > _LONGEST or not words(sentence):
        return False
    sentence = blank(sentence)                      # "It is 48, not 50.": a number denied is not said
    context = f"{before} {question or ''}"
    said = {v for _, v in quantities.numbers(before)}
    if any(v not in said for _, v in quantities.numbers(sentence)):
        return False
    named = set(claims.names(context))
    if any(n not in named for n in claims.names(sentence)):
        return False
    if has_negation(sentence) and not has_negation(before):
        return False
    new = stem_set(sentence) - stem_set(context) - _SUMMING
    return not new
