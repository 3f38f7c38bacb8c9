"""Does an answer state its golden anchor? The check that turns "grounded" into "right" for a golden question.

The citation checker proves provenance: every number and name of a sentence is in the span it cites. It cannot
tell whether the sentence answers the question. For a golden question the answer is known (its anchor), so this
module asks whether the answer states it. The rule:

    every number of the anchor is in the answer      (by value, as the strict checker compares them: 0.60 = 0.6)
    every technical name of the anchor is in it      (whole, as the strict checker compares them)
    and at least two thirds of the anchor's other content words are in it
                                                     (lowercase, any order, stopwords and digits aside)

    states_anchor("The default cutoff is 0.6 [S1].", "Optional arg cutoff (default 0.6)")
    -> AnchorCheck(states=False, missing=('optional', 'arg'), words_found=2, words_needed=3)
    states_anchor("Optional arg cutoff (default 0.6) is a float [S1].", "Optional arg cutoff (default 0.6)").states
    -> True
    states_anchor("A NamedTemporaryFile is deleted automatically by default [S1].",
                  "whether the file is automatically deleted (default True)").states   -> True (4 of its 6 words)

Left out on purpose: meaning. "The cutoff is not 0.6" states the anchor "cutoff (default 0.6)"; a paraphrase
with other words ("removed on its own") does not. The rule is lexical like the checker, and says so.
"""
from __future__ import annotations

import math
from typing import NamedTuple

from rag_core.generation import claims
from rag_core.generation.verifier import CITATION
from rag_core.text import words

SHARE_OF_WORDS = 2 / 3      # the share of the anchor's other content words the answer must hold


class AnchorCheck(NamedTuple):
    states: bool            # the answer states the anchor (numbers, names, and enough words)
    missing: tuple          # the anchor's numbers, names and words the answer lacks, in the anchor's order
    words_found: int        # the anchor's other content words found in the answer
    words_needed: int       # how many of them the rule asks for (two thirds, rounded up)

    def as_dict(self) -> dict:
        return {"states_anchor": self.states, "missing_from_answer": list(self.missing)}


def content_words(text: str) -> list[str]:
    """The words of `text` that are neither numbers nor parts of technical names, lowercase, stopwords aside.

    "Optional arg cutoff (default 0.6)" -> ['optional', 'arg', 'cutoff', 'default']
    """
    text = claims.normalize(text)
    for name in claims.names(text):
        text = text.replace(name, " ")
    return list(dict.fromkeys(w for w in words(text) if not w.isdigit()))


def states_anchor(answer: str, anchor: str) -> AnchorCheck:
    """Whether `answer` states `anchor` by the rule above, and what of the anchor it lacks."""
    said = claims.normalize(CITATION.sub(" ", claims.normalize(answer)))
    have = claims.Claims(said)
    missing_numbers = list(dict.fromkeys(lit for lit, value in claims.numbers(anchor) if not have.has_number(value)))
    missing_names = [n for n in claims.names(anchor) if not have.has_name(n)]
    wanted = content_words(anchor)
    answer_words = set(words(said))
    found = [w for w in wanted if w in answer_words]
    needed = math.ceil(SHARE_OF_WORDS * len(wanted) - 1e-9)
    missing = tuple(missing_numbers + missing_names + [w for w in wanted if w not in answer_words])
    states = not missing_numbers and not missing_names and len(found) >= needed
    return AnchorCheck(states, missing, len(found), needed)
