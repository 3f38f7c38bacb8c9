"""The attack pass on the answer-key rule (tests/data/attack_answers.py: 105 answers to the bundled golden
questions, labelled right or wrong as a reader would judge them): no wrong answer is green, and at least 90 % of
the right ones are. Written by the rule's author, so a development set: the rule's measure on answers it was not
written from is taken elsewhere. Before this rule (the whole anchor stated, no added negation): 2 of 51 wrong
answers green, 14 of 54 right answers green; with it: 0 of 51, 50 of 54."""
import pytest

from data.attack_answers import ATTACK
from rag_core.data.golden import load_golden
from rag_core.generation.answer_key import check_key

WORD = {"cutoff": "cutoff", "leftmost": "leftmost", "rightmost": "rightmost", "heappushpop": "heappush()",
        "fmean": "StatisticsError", "harmonic": "harmonic_mean", "median_low": "middle", "shorten": "whitespace",
        "mkdtemp": "creating", "NamedTemporaryFile": "automatically", "compare_digest": "timing", "batched": "batch",
        "lru_cache": "LRU", "urlsafe": "instead", "glob": "dot", "gzip": "modification", "comb": "k > n",
        "Fraction": "Fraction"}
CASES = [(group, answer, right) for group, items in ATTACK.items() for answer, right in items]


@pytest.mark.parametrize("which", ["article", "user"])
def test_no_wrong_answer_is_green_and_most_right_ones_are(which):
    rows = load_golden(which)
    assert len(CASES) >= 100
    greens = {True: 0, False: 0}
    for group, answer, right in CASES:
        row = next(r for r in rows if WORD[group] in r.anchor)
        got = check_key(answer, row.key, row.anchor, row.question)
        greens[right] += got.right is True
        assert not (got.right is True and not right), (answer, row.key)
        assert not (got.right is False and right), (answer, got.contradiction)      # no right answer red
    rights = sum(right for _, _, right in CASES)
    assert greens[False] == 0 and greens[True] >= 0.9 * rights, greens
