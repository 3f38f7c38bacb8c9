"""An answer either claims something the cited spans can confirm, or abstains, wholly: a sentence with no number, no
technical name and not most of its words in its spans has nothing to check and is refused; NOT IN THE CONTEXT
abstains however it is dressed (case, emphasis, quotes, final punctuation), but not with a citation or with claims
after it. Prose shorthand reads as its words: "w/o bound" and "unbounded" state an answer key's "without bound".
"""
import pytest

from rag_core.generation.answer_key import check_key
from rag_core.generation.two_checkers import compare_modes, disagreement
from rag_core.generation.verifier import verify

from checker_cases import CONTEXT, CUTOFF, DEFAULT, SPANS, mode, strict, verdicts  # noqa: F401  (mode: a fixture)


# ---- nothing to check ----------------------------------------------------------------------------

@pytest.mark.parametrize("answer, where", [("The answer is: [S3].", "S3"), ("The answer is: [S3][S2].", "S3 or S2"),
                                           ("It is so [S1]. Yes [S2].", "S1 or S2")])
def test_an_answer_with_nothing_to_check_is_refused(answer, where):
    s, a = compare_modes(answer, SPANS)
    assert (s.verdict, a.verdict) == ("refused", "anchored")
    assert s.reason.startswith(f"Nothing to check: the answer has no number, no technical name and not most of its "
                               f"words in {where}, so nothing in it can be looked for in the span")
    assert all(not c.ok and c.explanation.startswith("Nothing to check:") for c in s.sentences)


@pytest.mark.parametrize("answer", ["Return a list of the best good enough matches [S3].",     # copied: passes
                                    "The best matches [S3].",                                 # words of S3
                                    "The cutoff is 0.6 [S1]. Yes [S2].",                      # yes/no answers it
                                    "It is 0.6 [S1]."])
def test_an_answer_with_something_to_check_passes(answer):
    assert strict(answer, SPANS) == "anchored"


@pytest.mark.parametrize("answer", ["The cutoff is 0.6 [S1]. Fine [S2].",
                                    "The cutoff is 0.6 [S1]. A sentence without an identifier is a violation. [S3]",
                                    "It is 0.6 [S1]. Words without any identifier are a violation of the rule "
                                    "[S3]."])
def test_every_sentence_must_carry_something_to_check(answer):
    v = verify(answer, SPANS)
    bad = [c for c in v.sentences if not c.ok]
    assert v.verdict == "refused" and len(bad) == 1 and not bad[0].testable
    assert bad[0].explanation.startswith("Nothing to check: this sentence has no number")
    assert "every sentence must carry something to check" in v.reason


# ---- abstentions ---------------------------------------------------------------------------------

@pytest.mark.parametrize("answer", ["NOT IN THE CONTEXT", "  NOT IN THE CONTEXT\n", "NOT IN THE CONTEXT."])
def test_abstention(answer, mode):
    v = verify(answer, CONTEXT, mode)
    assert v.verdict == "abstained" and v.sentences == () and v.cited_spans == ()


@pytest.mark.parametrize("answer", ["not in the context.", "**NOT IN THE CONTEXT**", "  Not In The Context  \n",
                                    '"NOT IN THE CONTEXT."', "`NOT IN THE CONTEXT`", "_NOT IN THE CONTEXT_.",
                                    "“Not in the context”", "**NOT IN THE CONTEXT.**", "NOT  IN\nTHE CONTEXT"])
def test_genuine_abstentions(answer):
    assert verdicts(answer, DEFAULT) == ("abstained", "refused")


@pytest.mark.parametrize("answer", ["NOT IN THE CONTEXT", "NOT IN THE CONTEXT.", "  NOT IN THE CONTEXT\n"])
def test_the_exact_phrase_abstains_in_both_modes(answer):
    assert verdicts(answer, DEFAULT) == ("abstained", "abstained")


@pytest.mark.parametrize("answer", ["NOT IN THE CONTEXT!", "NOT IN THE CONTEXT?", "NOT IN THE CONTEXT!!", "Not in the context;",
                                    "**NOT IN THE CONTEXT!**", '"NOT IN THE CONTEXT!"', "NOT IN THE CONTEXT…",
                                    "_Not in the context!_.", "NOT IN THE CONTEXT:"])
def test_an_abstention_with_any_final_punctuation_abstains(answer):
    assert strict(answer, CUTOFF) == "abstained"


@pytest.mark.parametrize("answer", ["> NOT IN THE CONTEXT", "# NOT IN THE CONTEXT", "**NOT IN THE CONTEXT!**"])
def test_an_abstention_as_a_quote_or_heading_is_an_abstention(answer):
    assert verify(answer, ["x"]).verdict == "abstained"


def test_not_in_the_context_of_something_is_plain_english():
    assert strict("This is not in the context of threads [S1].", ["This is not in the context of threads."]) == "anchored"


# ---- an abstention is the whole answer -----------------------------------------------------------

@pytest.mark.parametrize("answer", ["NOT IN THE CONTEXT. The default cutoff is 0.9.",
                                    "NOT IN THE CONTEXT. The default cutoff is 0.6 [S1].",
                                    "NOT IN THE CONTEXT, but the default cutoff is 0.6 [S1].",
                                    "**NOT IN THE CONTEXT** The default cutoff is 0.9 [S1]."])
def test_an_abstention_followed_by_claims_is_refused(answer):
    v = verify(answer, DEFAULT)
    assert v.verdict == "refused" and "abstention must be the whole answer" in v.reason
    assert v.sentences and not v.sentences[0].ok
    assert verify(answer, DEFAULT, "article").verdict == ("abstained" if answer.startswith("NOT") else "refused")


@pytest.mark.parametrize("answer", ["The answer is NOT IN THE CONTEXT [S1].", "NOT IN THE CONTEXT [S1].",
                                    "**NOT IN THE CONTEXT** [S1]", "The answer is not in the context [S1].",
                                    "The cutoff is 0.6 [S1]. The rest is NOT IN THE CONTEXT [S1]."])
def test_a_claimed_abstention_with_a_citation_is_refused(answer):
    v = verify(answer, CUTOFF)
    assert v.verdict == "refused"
    assert "It says NOT IN THE CONTEXT and cites S1: a claimed abstention with a citation is not an answer" in v.reason
    assert not v.sentences[-1].ok


def test_the_disagreement_on_a_claimed_abstention_names_both_reasons():
    said = disagreement("NOT IN THE CONTEXT [S1].", CUTOFF)
    assert said.startswith("The article's checker says abstained") and "claimed abstention" in said


# ---- prose shorthand -----------------------------------------------------------------------------

@pytest.mark.parametrize("answer, right", [
    ("LRU disabled -> cache grows w/o bound [s1]", True),
    ("LRU disabled, the cache can grow unbounded [S1].", True),
    ("LRU disabled, the cache grows with a bound [S1].", False),
])
def test_w_o_and_unbounded_read_as_without_bound(answer, right):
    key = "disabled and the cache can grow without bound"
    got = check_key(answer, key, "the LRU features are disabled and the cache can grow without bound")
    assert got.right is right, got
