"""The strict checker reads an answer as a person reads it: a name the question asks about may be restated, a
citation at the end of a paragraph covers the uncited sentences before it, "60%" is 0.6, and "w/o" is "without".
Each rule is checked both ways: what it lets through, and what it still refuses."""
import json

import pytest

from rag_core.__main__ import main
from rag_core.generation.answer_key import check_key
from rag_core.generation.prose import asked_words
from rag_core.generation.verifier import verify

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


# ---- where a span sits: its document and section ------------------------------------------------------------------

DOC = "MODULE math\n\n## math.comb\n\nEvaluates to n! / (k! * (n - k)!) when k <= n and evaluates\nto zero when k > n.\n\n" \
      "## math.perm\n\nEvaluates to n! / (n - k)! when k <= n and evaluates\nto zero when k > n."


def test_a_span_is_titled_by_its_document_and_the_heading_above_it():
    from rag_core.data.sections import section_title
    assert section_title("math", DOC, "Evaluates to n! / (k! * (n - k)!) when k <= n") == "math math.comb"
    assert section_title("math", DOC, "Evaluates to n! / (n - k)! when k <= n and") == "math math.perm"
    assert section_title("math", DOC, "a passage from elsewhere") == "math"
    assert section_title("notes", "no heading at all", "no heading") == "notes"
    assert section_title("math", DOC, "when k <= n and evaluates to zero when k > n.") == "math math.comb math.perm"


def test_a_name_of_the_cited_spans_title_may_be_written():
    span = "Evaluates to n! / (k! * (n - k)!) when k <= n and evaluates\nto zero when k > n."
    answer = "math.comb evaluates to zero when k > n [S1]."
    assert verify(answer, [span]).verdict == "refused"
    assert verify(answer, [span], titles=["math math.comb"]).verdict == "anchored"
    v = verify("math.perm evaluates to zero when k > n [S1].", [span], titles=["math math.comb"])
    assert v.verdict == "refused" and v.sentences[0].missing_names == ("math.perm",)
    v = verify("x [S1]. math.comb evaluates to zero when k > n [S2].", ["x", span], titles=["math math.perm", "x"])
    assert v.verdict == "refused"                                   # the title of S1, not of S2 that it cites


def test_the_index_titles_its_chunks_and_the_judgement_reads_them():
    from rag_core import ChunkerConfig
    from rag_core.data.corpus import Corpus, Document
    from rag_core.evaluation.judgement import judge_answer
    from rag_core.retrieval.index import Index
    from rag_core.retrieval.tokenized import TokenizedCorpus
    ix = Index.build(TokenizedCorpus(Corpus((Document("math", DOC, "current"),), name="t")),
                     ChunkerConfig("fixed", size=12, overlap=0))
    titles = [ix.title(c) for c in range(len(ix))]
    assert "math math.comb" in titles and "math math.comb math.perm" in titles     # the last passage is in both
    comb = titles.index("math math.comb")
    for name, outcome in (("math.comb", "grounded"), ("math.perm", "refused")):
        j = judge_answer(f"{name} evaluates to zero when k > n [S1].", [ix.texts[comb]], [comb], ix, "math", None,
                         ("current",))
        assert j.outcome == outcome, (ix.texts[comb], j.sentence)


# ---- other ways to cite, counts in prose --------------------------------------------------------------------------

@pytest.mark.parametrize("written", ["[Source 1]", "[source: S1]", "(source 1)", "[1]", ", S1"])
def test_other_ways_to_cite_a_span_are_read_as_one(written):
    v = verify(f"The default cutoff is 0.6 {written}", CUTOFF)
    assert v.verdict == "anchored" and v.sentences[0].cited == (1,), v.reason


@pytest.mark.parametrize("answer", ["It is a[1] of the list.", "It is a float in [0, 1].", "Use S1 as the name."])
def test_brackets_that_are_not_citations_stay_uncited(answer):
    assert verify(answer, CUTOFF).verdict == "refused" and "No citation" in verify(answer, CUTOFF).reason


@pytest.mark.parametrize("answer, verdict", [
    ("It runs more efficiently than the two calls heappush() and heappop() [S1].", "anchored"),
    ("As one combined action it runs more efficiently [S1].", "anchored"),
    ("It runs more efficiently, two if the heap is empty [S1].", "refused"),      # before a stop word: a value
    ("The combined action runs more efficiently, one [S1].", "refused"),             # at the end: a value
    ("It runs more efficiently than the three calls heappush() and heappop() [S1].", "refused"),   # only one, two
])
def test_one_and_two_before_a_word_are_counts_in_prose(answer, verdict):
    span = "The combined action runs more efficiently than heappush() followed by a separate call to heappop()."
    assert verify(answer, [span]).verdict == verdict


@pytest.mark.parametrize("answer, verdict", [
    ("It goes in front of the first existing one [S1].", "anchored"),      # "one" for a thing
    ("The quicker one runs more efficiently [S1].", "anchored"),
    ("It returns one [S1].", "refused"),                                  # a value
])
def test_one_for_a_thing_is_not_a_number(answer, verdict):
    span = "It goes in front of the first existing x; it runs more efficiently, and it returns the first x."
    assert verify(answer, [span]).verdict == verdict


def test_see_s2_and_a_clause_ending_citation_are_read_as_citations():
    v = verify("The default cutoff is 0.6 (see S1).", CUTOFF)
    assert v.verdict == "anchored" and v.sentences[0].cited == (1,)
    v = verify("The default cutoff is 0.6 [1], a float [2].", CUTOFF + ["It is a float."])
    assert v.sentences[0].cited == (1, 2) and not v.sentences[0].missing_numbers, v.reason


def test_a_module_qualified_name_of_a_span_name_may_be_written():
    span = ["If the input dataset is empty, it raises a StatisticsError."]
    answer = "It raises statistics.StatisticsError [S1]."
    assert verify(answer, span).verdict == "refused"
    assert verify(answer, span, titles=["statistics statistics.fmean"]).verdict == "anchored"
    assert verify("It raises statistics.ValueError [S1].", span, titles=["statistics"]).verdict == "refused"


def test_a_fraction_in_quotes_is_a_string_not_a_value():
    anchor = "Fraction(8, 6) will produce a rational number equivalent to 4/3"
    answer = "It gives 4/3; fractions can also be built from strings such as '123/456' [S1]."
    assert check_key(answer, "4/3", anchor).right is True
    assert check_key("It gives 123/456 [S1].", "4/3", anchor).right is False
