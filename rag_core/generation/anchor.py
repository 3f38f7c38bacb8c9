"""Does an answer state its golden anchor? The check that turns "grounded" into "right" for a golden question.

The citation checker proves provenance: every number and name of a sentence is in the span it cites. It cannot
tell whether the sentence answers the question. For a golden question the answer is known (its anchor), so this
module asks whether the answer states it. The rule, all of it:

    every number of the anchor is in the answer     (by value, as the strict checker compares them: 0.60 = 0.6)
    every technical name of the anchor is in it     (whole, as the strict checker compares them)
    every other content word of the anchor is in it (lowercase, any order; stopwords, digits and a few fillers
                                                     such as "whether" and "just" aside)
    the anchor's symbols ('-', '+', '>', '*', ...) appear in it in the same order
    it adds no negation the anchor does not have    ("not", "never", "no", "n't", "without", ...)

    states_anchor("The default cutoff is 0.6 [S1].", "Optional arg cutoff (default 0.6)")
    -> AnchorCheck(states=False, missing=('optional', 'arg'), ...)
    states_anchor("Optional arg cutoff (default 0.6) is a float [S1].", "Optional arg cutoff (default 0.6)").states
    -> True
    states_anchor("The file is deleted automatically (default True) [S1].",
                  "whether the file is automatically deleted (default True)").states   -> True (any order)
    states_anchor("The larger of the two middle values is returned [S1].",
                  "the smaller of the two middle values is returned").states          -> False (lacks 'smaller')

Every word counts because one word decides many answers (smaller or larger, leftmost or rightmost, shorter or
longer): an attack pass with a two-thirds share of the words (what the issue first proposed) had 14 of 14 such
substitutions judged right; none passes this rule. A paraphrase with other words ("removed on its own") does not
state the anchor either: it is judged "misses the answer", never green, which is the safe side.

Left out on purpose: meaning beyond words and negations: "the cutoff is 0.6 of something else" states "cutoff
(default 0.6)" if it holds its words; synonyms and inflections ("deletes" is not "deleted").
"""
from __future__ import annotations

import re
from typing import NamedTuple

from rag_core.generation import claims
from rag_core.generation.verifier import CITATION
from rag_core.text import words

FILLERS = frozenset("whether just also very really simply".split())   # words an answer may drop
NEGATIONS = frozenset("not no never nothing neither nor without cannot".split())   # "None" is a value here
SYMBOL = re.compile(r"(?<!\S)['\"`(\[]*([-+*/%=<>!?^&|~_]{1,2})['\"`)\],.;:]*(?!\S)")   # '-', ">", (*), '?'
_TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)?")


class AnchorCheck(NamedTuple):
    states: bool            # the answer states the anchor (numbers, names, words, symbols, no added negation)
    missing: tuple          # what of the anchor the answer lacks (numbers, names, words, symbols), in the anchor's order
    words_found: int        # the anchor's other content words found in the answer
    words_needed: int       # how many there are (every one is needed)

    def as_dict(self) -> dict:
        return {"states_anchor": self.states, "missing_from_answer": list(self.missing)}


def content_words(text: str) -> list[str]:
    """The words of `text` that are neither numbers nor parts of technical names, lowercase, stopwords and
    fillers aside.

    "Optional arg cutoff (default 0.6)" -> ['optional', 'arg', 'cutoff', 'default']
    """
    text = claims.normalize(text)                    # every name left out in one pass (linear in the text)
    text = claims.WORD.sub(lambda m: " " if claims.is_name(m[0]) else m[0], text)
    return list(dict.fromkeys(w for w in words(text) if not w.isdigit() and w not in FILLERS))


def symbols(text: str) -> list[str]:
    """The standalone symbols of a text, in order: "uses '-' instead of '+'" -> ['-', '+']; "k > n" -> ['>']."""
    return SYMBOL.findall(CITATION.sub(" ", text))


def negations(text: str) -> int:
    """How many negations a text holds: "is not, and never" -> 2; "isn't" -> 1."""
    return sum(t in NEGATIONS or t.endswith("n't") for t in _TOKEN.findall(text.lower()))


def _in_order(wanted: list, have: list) -> bool:
    """Whether `wanted` is a subsequence of `have`: ['-', '+'] in ['a', '-', '+'] -> True; in ['+', '-'] -> False."""
    it = iter(have)
    return all(any(w == h for h in it) for w in wanted)


def states_anchor(answer: str, anchor: str) -> AnchorCheck:
    """Whether `answer` states `anchor` by the rule above, and what of the anchor it lacks."""
    said = claims.normalize(CITATION.sub(" ", claims.normalize(answer)))
    have = claims.Claims(said)
    missing_numbers = list(dict.fromkeys(lit for lit, value in claims.numbers(anchor) if not have.has_number(value)))
    missing_names = [n for n in claims.names(anchor) if not have.has_name(n)]
    wanted = content_words(anchor)
    answer_words = set(words(said))
    found = [w for w in wanted if w in answer_words]
    marks = symbols(claims.normalize(anchor))
    symbols_ok = _in_order(marks, symbols(said))
    negated = negations(said) > negations(anchor)
    missing = tuple(missing_numbers + missing_names + [w for w in wanted if w not in answer_words]
                    + ([] if symbols_ok else [" ".join(marks)]) + (["(no added negation)"] if negated else []))
    states = not missing_numbers and not missing_names and len(found) == len(wanted) and symbols_ok and not negated
    return AnchorCheck(states, missing, len(found), len(wanted))
