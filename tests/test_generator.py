"""The scripted generator (it answers with the span sentence sharing the most question terms, at least two, cited;
else it abstains) and the prompt a model gets (numbered spans, then the question).
"""
import pytest

from rag_core import build_prompt, scripted_answer, verify
from rag_core.generation.generator import sentences
from rag_core.generation.prompt import ABSTAIN, INSTRUCTIONS


# ---- the scripted generator ----------------------------------------------------------------------

def test_generator_docstring_example():
    assert scripted_answer("default cutoff?", ["Optional arg cutoff (default 0.6) is a float."]) == \
        "Optional arg cutoff (default 0.6) is a float [S1]."


@pytest.mark.parametrize("question, spans", [
    ("bisect position?", ["The bisect module keeps lists sorted."]),           # 1 shared term: bisect
    ("what is the cutoff", ["The cutoff is what it is."]),                      # stopwords do not count
    ("heap order", []),                                                          # nothing handed over
    ("heap heap heap", ["A heap."]),                                             # a repeated term counts once
])
def test_generator_abstains_below_two_shared_terms(question, spans):
    assert scripted_answer(question, spans) == ABSTAIN
    assert verify(scripted_answer(question, spans), spans).verdict == "abstained"


def test_generator_answers_with_exactly_two_shared_terms():
    assert scripted_answer("heap order", ["The heap keeps order."]) == "The heap keeps order [S1]."


def test_generator_camel_case_counts_as_words():
    assert scripted_answer("get close matches", ["Use getCloseMatches here. Other."]) == \
        "Use getCloseMatches here [S1]."


@pytest.mark.parametrize("spans, expected", [
    (["Alpha beta one. Alpha beta two."], "Alpha beta one [S1]."),           # tie inside a span: first
    (["Alpha beta one.", "Alpha beta two."], "Alpha beta one [S1]."),        # tie across spans: first
    (["Alpha beta.", "Alpha beta gamma."], "Alpha beta gamma [S2]."),        # strictly more wins
    (["Alpha beta gamma.", "Alpha beta gamma delta."], "Alpha beta gamma [S1]."),   # delta is not asked
])
def test_generator_picks_the_first_of_tied_sentences(spans, expected):
    assert scripted_answer("alpha beta gamma", spans) == expected


def test_generator_output_is_anchored_by_the_verifier():
    spans = ["Intro text.", "The cutoff is 0.6 and bisect_left is fast."]
    answer = scripted_answer("cutoff bisect_left", spans)
    assert answer == "The cutoff is 0.6 and bisect_left is fast [S2]."
    assert verify(answer, spans).verdict == "anchored"


def test_generator_format_strips_only_the_final_periods():
    # the sentence keeps its inner punctuation, loses trailing dots, and gains " [Sn]."
    assert scripted_answer("alpha beta", ["x.", "See alpha.beta etc..."]) == "See alpha.beta etc [S2]."


def test_sentences_docstring_example():
    assert sentences("A b. C? d") == [["A", "b."], ["C?"], ["d"]]
    assert sentences("  ") == []


# ---- the prompt ----------------------------------------------------------------------------------

def test_prompt_numbers_spans_from_s1():
    p = build_prompt("Q?", ["first span", "second span"])
    assert p == INSTRUCTIONS + "\n\nSPANS:\n\n[S1] first span\n\n[S2] second span\n\nQUESTION: Q?\n\nANSWER:"
    assert "NOT IN THE CONTEXT" in INSTRUCTIONS and "[S3]" in INSTRUCTIONS
