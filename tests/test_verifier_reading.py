"""The strict checker reads an answer as a person reads it: a name the question asks about may be restated, a
citation at the end of a paragraph covers the uncited sentences before it, "60%" is 0.6, and "w/o" is "without".
Each rule is checked both ways: what it lets through, and what it still refuses."""
import json

import pytest

from rag_core.__main__ import main
from rag_core.generation.answer_key import check_key
from rag_core.generation.verifier import asked_words, verify

MEDIAN = ["When it is even, the smaller of the two middle values is returned."]
CUTOFF = ["Optional arg cutoff (default 0.6) is a float in [0, 1]."]
DIGEST = ["Compare strings a and b using a method designed to prevent timing analysis."]


@pytest.mark.parametrize("answer, question", [
    ("median_low returns the smaller of the two middle values [S1].", "What does median_low return?"),
    ("statistics.median_low returns the smaller of the two middle values [S1].", "What does median_low return?"),
    ("math.comb gives the smaller of the two middle values [S1].", "What does math comb return?"),
])
def test_a_name_of_the_question_may_be_restated(answer, question):
    spans = MEDIAN if "median" in answer else ["the smaller of the two middle values"]
    assert verify(answer, spans).verdict == "refused"                   # without the question: not in the span
    assert verify(answer, spans, question=question).verdict == "anchored"


@pytest.mark.parametrize("answer, question", [
    ("median_high returns the smaller of the two middle values [S1].", "What does median_low return?"),
    ("statistics.mode returns the smaller of the two middle values [S1].", "What does median_low return?"),
    ("It returns the smaller of the two middle values as a statistics.Fraction [S1].", "What does median_low return?"),
])
def test_a_name_the_question_does_not_ask_about_is_still_looked_for_in_the_span(answer, question):
    v = verify(answer, MEDIAN, question=question)
    assert v.verdict == "refused" and v.sentences[0].missing_names


def test_a_name_only_restated_is_nothing_to_check():
    """Restating the question's name checks nothing against the span: the sentence still needs something of it."""
    v = verify("compare_digest is a good idea [S1].", DIGEST, question="Why use compare_digest?")
    assert v.verdict == "refused" and "Nothing to check" in v.reason
    assert verify("compare_digest prevents timing analysis [S1].", DIGEST,
                  question="Why use compare_digest?").verdict == "anchored"


def test_asked_words_hold_the_parts_of_dotted_names():
    assert {"math.comb", "math", "comb", "does"} <= asked_words("Does math.comb return 0?")
    assert asked_words(None) == frozenset() and asked_words("") == frozenset()


@pytest.mark.parametrize("answer", [
    "Yes. The smaller of the two middle values is returned [S1].",
    "Smaller. When it is even, the smaller of the two middle values is returned [S1].",
    "The smaller one. It is returned when it is even. [S1]",
])
def test_an_uncited_sentence_is_covered_by_the_next_citation_of_its_paragraph(answer):
    v = verify(answer, MEDIAN)
    assert v.verdict == "anchored", v.reason
    assert len(v.sentences) == 1 and v.sentences[0].cited == (1,)


@pytest.mark.parametrize("answer, why", [
    ("It returns 3. The smaller of the two middle values is returned [S1].", "number '3'"),     # still checked
    ("The smaller of the two middle values is returned [S1]. It is fast.", "No citation"),    # nothing after it
    ("It is the smaller one.\n\nThe smaller of the two middle values is returned [S1].", "No citation"),  # paragraph
])
def test_what_a_following_citation_does_not_cover(answer, why):
    v = verify(answer, MEDIAN)
    assert v.verdict == "refused" and why in v.reason, v.reason


def test_the_articles_checker_still_wants_a_citation_in_every_sentence():
    assert verify("Yes. The smaller of the two middle values is returned [S1].", MEDIAN, "article").verdict == "refused"


@pytest.mark.parametrize("answer, verdict", [
    ("It must be at least 60% similar [S1].", "anchored"),
    ("It must be at least 60 percent similar [S1].", "anchored"),
    ("It must be at least 60 similar [S1].", "refused"),           # 60 without % is not 0.6
    ("It must be at least 70% similar [S1].", "refused"),
])
def test_a_percentage_is_its_share(answer, verdict):
    assert verify(answer, CUTOFF).verdict == verdict


def test_a_percentage_states_a_key_in_shares():
    assert check_key("The default cutoff is 60% [S1].", "0.6", "Optional arg cutoff (default 0.6)").right is True
    assert check_key("The default cutoff is 90% [S1].", "0.6", "Optional arg cutoff (default 0.6)").right is not True


@pytest.mark.parametrize("answer, right", [
    ("LRU disabled -> cache grows w/o bound [s1]", True),
    ("LRU disabled, the cache can grow unbounded [S1].", True),
    ("LRU disabled, the cache grows with a bound [S1].", False),
])
def test_w_o_and_unbounded_read_as_without_bound(answer, right):
    key = "disabled and the cache can grow without bound"
    got = check_key(answer, key, "the LRU features are disabled and the cache can grow without bound")
    assert got.right is right, got


def test_verify_on_the_command_line_takes_the_question(capsys, tmp_path):
    (tmp_path / "spans.json").write_text(json.dumps(MEDIAN))
    args = ["verify", "--spans", str(tmp_path / "spans.json"), "--answer",
            "median_low returns the smaller of the two middle values [S1].", "--format", "json"]
    assert main(args) == 0 and json.loads(capsys.readouterr().out)["verdict"] == "refused"
    assert main(args + ["--question", "What does median_low return?"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "anchored"
