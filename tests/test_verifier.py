"""The citation verifier (verdicts AND explanations) and the scripted generator, on hand-written spans.

Every verifier test here runs in both modes, where they agree; tests/test_verifier_strict.py holds
what strict changes, and the differential test that proves it.
"""
import pytest

from rag_core import build_prompt, scripted_answer, verify, verify_grounding
from rag_core.generation.generator import sentences
from rag_core.generation.prompt import ABSTAIN, INSTRUCTIONS
from rag_core.generation.verifier import MODES

# the article's context: S1 is the library, S2 the draft note that contradicts it
CONTEXT = ["Optional arg cutoff (default 0.6) is a float in [0, 1].",
           "NOTE (draft): the default cutoff of get_close_matches is 0.9."]


@pytest.fixture(params=MODES)
def mode(request):
    return request.param


# ---- the article's six cases ----------------------------------------------------------------------

@pytest.mark.parametrize("answer, verdict, explained", [
    ("The default cutoff is 0.6.", "refused", ["No citation", "[S1]"]),
    ("The default cutoff is 0.9 [S1].", "refused", ["number '0.9'", "not appear in S1"]),
    ("The default cutoff is 0.9 [S2].", "anchored", ["numbers and names"]),
    ("The default cutoff is 0.6 [S1].", "anchored", ["numbers and names"]),
    ("The default cutoff is 0.6 [S4].", "refused", ["S4", "does not exist", "S1 to S2"]),
    ("NOT IN THE CONTEXT", "abstained", ["do not contain"]),
])
def test_article_cases(answer, verdict, explained, mode):
    v = verify(answer, CONTEXT, mode)
    assert v.verdict == verdict == verify_grounding(answer, CONTEXT) and v.mode == mode
    for words in explained:
        assert words in v.reason


@pytest.mark.parametrize("mode, said", [("article", ""), ("strict", ": the span says 0.6, not 0.9")])
def test_refused_explanations_say_which_sentence(mode, said):
    assert verify("The default cutoff is 0.9 [S1].", CONTEXT, mode).reason == \
        f"Sentence 1: The number '0.9' does not appear in S1{said}."


@pytest.mark.parametrize("n_spans, said", [(0, "no span was handed over"), (1, "only S1 was handed over"),
                                           (2, "only S1 to S2 were handed over"),
                                           (5, "only S1 to S5 were handed over")])
def test_out_of_range_names_the_span_and_the_range(n_spans, said, mode):
    v = verify("It is so [S7].", ["span"] * n_spans, mode)
    assert v.verdict == "refused"
    assert v.sentences[0].out_of_range == (7,)
    assert v.reason == f"Sentence 1: Cites S7, which does not exist: {said}."


def test_citation_zero_is_out_of_range(mode):
    v = verify("It is so [S0].", CONTEXT, mode)
    assert v.verdict == "refused" and v.sentences[0].out_of_range == (0,)


def test_several_out_of_range_citations_are_all_named(mode):
    v = verify("It is so [S1][S4][S3][S4].", CONTEXT, mode)
    assert v.sentences[0].out_of_range == (4, 3)
    assert "Cites S4 and S3, which do not exist" in v.reason


# ---- sentences ------------------------------------------------------------------------------------

def test_second_sentence_fails(mode):
    v = verify("The cutoff is 0.6 [S1]. It is used by get_close_matches [S1].", CONTEXT, mode)
    assert v.verdict == "refused"
    assert [s.ok for s in v.sentences] == [True, False]
    assert v.sentences[1].missing_names == ("get_close_matches",)
    assert v.reason == "Sentence 2: The name 'get_close_matches' does not appear in S1."


def test_second_sentence_without_citation(mode):
    v = verify("The cutoff is 0.6 [S1]. It is a float.", CONTEXT, mode)
    assert v.verdict == "refused" and v.reason.startswith("Sentence 2: No citation")


def test_every_failing_sentence_is_explained_and_the_first_is_the_reason(mode):
    v = verify("It is 0.7 [S1]. Fine [S2]. It is 0.8 [S2].", CONTEXT, mode)
    assert [s.ok for s in v.sentences] == [False, True, False]
    assert v.sentences[2].missing_numbers == ("0.8",)
    assert v.reason.startswith("Sentence 1:") and "'0.7'" in v.reason


@pytest.mark.parametrize("answer, verdict", [
    ("The default is 0.6 and get_close_matches uses it [S1][S2].", "anchored"),   # 0.6 in S1, the name in S2
    ("The default is 0.6 and get_close_matches uses it [S1].", "refused"),
    ("The default is 0.6 and get_close_matches uses it [S2].", "refused"),
    ("The default is 0.6 and get_close_matches uses it [S2][S1].", "anchored"),
])
def test_two_citations_are_checked_against_their_union(answer, verdict, mode):
    assert verify(answer, CONTEXT, mode).verdict == verdict


@pytest.mark.parametrize("mode, said", [("article", ""), ("strict", ": the spans say 0.6, not 0.7")])
def test_union_explanation_names_both_spans(mode, said):
    v = verify("It is 0.7 [S1][S2].", CONTEXT, mode)
    assert v.reason == f"Sentence 1: The number '0.7' does not appear in S1 or S2{said}."


def test_missing_numbers_and_names_together(mode):
    v = verify("Use foo.bar, fooBar, 7 and 8 [S1].", CONTEXT, mode)
    assert v.sentences[0].missing_numbers == ("7", "8")
    assert v.sentences[0].missing_names == ("foo.bar", "fooBar")
    assert v.reason == "Sentence 1: The numbers '7', '8' and the names 'foo.bar', 'fooBar' do not appear in S1."


def test_numbers_inside_the_citation_are_not_searched(mode):
    # S3 holds 7 but not 3: the "3" of "[S3]" must not be looked for
    spans = ["x", "y", "the answer is 7"]
    assert verify("It is 7 [S3].", spans, mode).verdict == "anchored"
    assert verify("It is 3 [S3].", spans, mode).verdict == "refused"


@pytest.mark.parametrize("answer", ["According to the docs, the cutoff is 0.6 [S1].",
                                    "Optional arg cutoff is 0.6 [S1].",
                                    "However, Floats In Brackets hold 0 and 1 [S1]."])
def test_capitalised_english_words_are_not_names(answer, mode):
    # a technical name needs a dot, an underscore or an inner capital: "According" has none
    assert verify(answer, CONTEXT, mode).verdict == "anchored"


@pytest.mark.parametrize("name", ["getCloseMatches", "difflib.get_close_matches", "close_matches"])
def test_technical_names_are_checked(name, mode):
    v = verify(f"Use {name} with 0.6 [S1].", CONTEXT, mode)
    assert v.verdict == "refused" and v.sentences[0].missing_names == (name,)


def test_matching_ignores_case(mode):
    assert verify("The DEFAULT_CUTOFF is 0.6 [S1].", ["default_cutoff = 0.6"], mode).verdict == "anchored"


def test_cited_spans_in_first_citation_order_without_repeats(mode):
    v = verify("A [S2]. B [S1][S2]. C [S3][S1].", ["a", "b", "c"], mode)
    assert v.cited_spans == (2, 1, 3)
    assert v.sentences[1].cited == (1, 2)


def test_repeated_citation_counts_once(mode):
    v = verify("It is 0.6 [S1][S1].", CONTEXT, mode)
    assert v.sentences[0].cited == (1,)
    assert v.sentences[0].explanation == "Every number and technical name appears in S1."


@pytest.mark.parametrize("answer", ["NOT IN THE CONTEXT", "  NOT IN THE CONTEXT\n", "NOT IN THE CONTEXT."])
def test_abstention(answer, mode):
    v = verify(answer, CONTEXT, mode)
    assert v.verdict == "abstained" and v.sentences == () and v.cited_spans == ()


# ---- the scripted generator -----------------------------------------------------------------------

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


# ---- the prompt -----------------------------------------------------------------------------------

def test_prompt_numbers_spans_from_s1():
    p = build_prompt("Q?", ["first span", "second span"])
    assert p == INSTRUCTIONS + "\n\nSPANS:\n\n[S1] first span\n\n[S2] second span\n\nQUESTION: Q?\n\nANSWER:"
    assert "NOT IN THE CONTEXT" in INSTRUCTIONS and "[S3]" in INSTRUCTIONS
