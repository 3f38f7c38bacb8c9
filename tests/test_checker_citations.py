"""Which spans a sentence cites, and what they must hold: [S1], [s1], (S1), [S1, S2], [1] and "see S1" all cite
S1; a sentence is checked against the union of the spans it cites; a citation of a span that was not handed over
is refused and named; an answer is cut into sentences (not at "e.g." or "i.e."), and a citation at the end of a
paragraph covers the uncited sentences before it.
"""
import pytest

from rag_core.generation.verifier import verify

from checker_cases import CONTEXT, MEDIAN, SPANS, mode  # noqa: F401  (mode: a fixture, both modes)

CUTOFF = CONTEXT[:1]                  # the library's sentence alone: "(default 0.6) is a float in [0, 1]"


# ---- the ways to write a citation ----------------------------------------------------------------

@pytest.mark.parametrize("answer,cited", [("The cutoff is 0.6 [s1].", (1,)), ("The cutoff is 0.6 [S1, S2].", (1, 2)),
                                          ("The cutoff is 0.6 [S1][S2].", (1, 2)), ("The cutoff is 0.6 (S1).", (1,)),
                                          ("The cutoff is 0.6 [S1; s3].", (1, 3))])
def test_citations_as_a_person_writes_them(answer, cited):
    v = verify(answer, SPANS)
    assert v.verdict == "anchored" and v.cited_spans == cited
    assert verify(answer, SPANS, "article").verdict == ("anchored" if "[S1]" in answer else "refused")


def test_a_citation_read_as_one_still_needs_its_claims():
    v = verify("The cutoff is 0.9 (S1).", SPANS)
    assert v.verdict == "refused" and "0.9" in v.reason


@pytest.mark.parametrize("written", ["[Source 1]", "[source: S1]", "(source 1)", "[1]", ", S1"])
def test_other_ways_to_cite_a_span_are_read_as_one(written):
    v = verify(f"The default cutoff is 0.6 {written}", CUTOFF)
    assert v.verdict == "anchored" and v.sentences[0].cited == (1,), v.reason


@pytest.mark.parametrize("answer", ["It is a[1] of the list.", "It is a float in [0, 1].", "Use S1 as the name."])
def test_brackets_that_are_not_citations_stay_uncited(answer):
    assert verify(answer, CUTOFF).verdict == "refused" and "No citation" in verify(answer, CUTOFF).reason


def test_see_s2_and_a_clause_ending_citation_are_read_as_citations():
    v = verify("The default cutoff is 0.6 (see S1).", CUTOFF)
    assert v.verdict == "anchored" and v.sentences[0].cited == (1,)
    v = verify("The default cutoff is 0.6 [1], a float [2].", CUTOFF + ["It is a float."])
    assert v.sentences[0].cited == (1, 2) and not v.sentences[0].missing_numbers, v.reason


def test_numbers_inside_the_citation_are_not_searched(mode):
    # S3 holds 7 but not 3: the "3" of "[S3]" must not be looked for
    spans = ["x", "y", "the answer is 7"]
    assert verify("It is 7 [S3].", spans, mode).verdict == "anchored"
    assert verify("It is 3 [S3].", spans, mode).verdict == "refused"


def test_cited_spans_in_first_citation_order_without_repeats(mode):
    v = verify("A [S2]. B [S1][S2]. C [S3][S1].", ["a", "b", "c"], mode)
    assert v.cited_spans == (2, 1, 3)
    assert v.sentences[1].cited == (1, 2)


def test_repeated_citation_counts_once(mode):
    v = verify("It is 0.6 [S1][S1].", CONTEXT, mode)
    assert v.sentences[0].cited == (1,)
    assert v.sentences[0].explanation == "Every number and technical name appears in S1."


# ---- citations of spans that were not handed over ------------------------------------------------

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


# ---- two citations: the union of their spans -----------------------------------------------------

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


# ---- sentences -----------------------------------------------------------------------------------

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


@pytest.mark.parametrize("answer", ["The cutoff is 0.6, i.e. six tenths [S1].", "The cutoff is 0.6, e.g. for words "
                                    "[S1].", "It is a float in [0, 1], approx. 0.6 [S1].",
                                    "Floats etc. are accepted; the cutoff is 0.6 [S1]."])
def test_abbreviations_do_not_end_a_sentence(answer):
    v = verify(answer, SPANS)
    assert v.verdict == "anchored" and len(v.sentences) == 1, v.reason


def test_a_citation_after_the_period_belongs_to_its_sentence():
    v = verify("The cutoff is 0.6. [S1]", ["The default cutoff is 0.6."])
    assert v.verdict == "anchored" and len(v.sentences) == 1


# ---- a citation covers the uncited sentences before it in its paragraph --------------------------

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
    ("The smaller one is returned [S1].\n\nIt is fast.\n\nThe smaller of the two middle values is returned [S1].",
     "No citation"),                            # a paragraph in the middle: only an opening one is a headline
])
def test_what_a_following_citation_does_not_cover(answer, why):
    v = verify(answer, MEDIAN)
    assert v.verdict == "refused" and why in v.reason, v.reason


def test_the_articles_checker_still_wants_a_citation_in_every_sentence():
    assert verify("Yes. The smaller of the two middle values is returned [S1].", MEDIAN, "article").verdict == "refused"
