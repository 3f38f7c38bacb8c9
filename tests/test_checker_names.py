"""A technical name in an answer (a word with a dot, an underscore, an inner capital, or digits with letters) is a
claim: it must stand whole in a cited span (itertools.combinations is not in itertools.combinations_with_replacement),
in the span's case unless either side writes it in capitals or as plain prose; a name the question asks about may
be restated, and a name of the cited span's title (its document and section) may be written.
"""
import pytest

from rag_core.generation.claims import Claims, is_name
from rag_core.generation.prose import asked_words
from rag_core.generation.two_checkers import compare_modes
from rag_core.generation.verifier import verify, verify_grounding

from checker_cases import CONTEXT, MEDIAN, mode, strict, verdicts  # noqa: F401  (mode: a fixture, both modes)


# ---- what a name is ------------------------------------------------------------------------------

@pytest.mark.parametrize("word, name", [("b64encode", True), ("sha256", True), ("os.path", True), ("x86_64", True),
                                        ("getCloseMatches", True), ("According", False), ("0.6", False),
                                        ("e.g", False), ("i.e", False)])
def test_what_is_a_name(word, name):
    assert is_name(word) == name


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


def test_missing_numbers_and_names_together(mode):
    v = verify("Use foo.bar, fooBar, 7 and 8 [S1].", CONTEXT, mode)
    assert v.sentences[0].missing_numbers == ("7", "8")
    assert v.sentences[0].missing_names == ("foo.bar", "fooBar")
    assert v.reason == "Sentence 1: The numbers '7', '8' and the names 'foo.bar', 'fooBar' do not appear in S1."


def test_an_identifier_with_digits_is_checked_as_a_name():
    v = verify("Use sha256 [S1].", ["Use sha3_256 or sha512."])
    assert v.verdict == "refused" and v.sentences[0].missing_names == ("sha256",)
    assert verify_grounding("Use sha256 [S1].", ["Use sha3_256 or sha512."]) == "anchored"   # no name, and "256" is there


# ---- a name stands whole in the span -------------------------------------------------------------

@pytest.mark.parametrize("answer, span", [
    ("Use itertools.combinations [S1].", "See itertools.combinations_with_replacement(p, r)."),
    ("Call get_close [S1].", "Call difflib.get_close_matches(word, possibilities)."),
    ("Call b64encode [S1].", "Call base64.urlsafe_b64encode(s)."),                 # a name with digits
    ("Hash it with sha256 [S1].", "Hash it with sha2567."),
])
def test_a_truncated_name_is_missing(answer, span):
    assert verdicts(answer, [span]) == ("refused", "anchored")
    assert "the span says" in verify(answer, [span]).reason


@pytest.mark.parametrize("answer, span", [
    ("Use itertools.combinations [S1].", "itertools.combinations(p, r) and itertools.combinations_with_replacement"),
    ("Call get_close_matches [S1].", "Call difflib.get_close_matches(word)."),      # whole dotted parts
    ("Call base64.b64encode [S1].", "Call base64.b64encode(s)."),
    ("SHA256 is there [S1].", "hashlib.sha256 returns a hash object."),            # names ignore case
])
def test_a_whole_name_passes(answer, span):
    assert verify(answer, [span]).verdict == "anchored"


# ---- technical names are case-sensitive ----------------------------------------------------------

def test_matching_ignores_case(mode):
    assert verify("The DEFAULT_CUTOFF is 0.6 [S1].", ["default_cutoff = 0.6"], mode).verdict == "anchored"


@pytest.mark.parametrize("answer, span, instead", [
    ("Call Get_Close_Matches [S1].", "Call difflib.get_close_matches(word)", "difflib.get_close_matches"),
    ("Use JsonDecoder [S1].", "Use json.JSONDecoder to decode.", "json.JSONDecoder"),
    ("Use jsondecoder.decode [S1].", "Use JSONDecoder.decode to decode.", "JSONDecoder.decode"),
    ("Get_Close_Matches takes a cutoff [S1].", "difflib.get_close_matches takes a cutoff.", "difflib.get_close_matches"),
    ("It grows by a third with Base64 [S1].", "base64 grows the data by a third.", "base64"),     # not the first word
])
def test_a_name_in_another_case_is_refused(answer, span, instead):
    s, a = compare_modes(answer, [span])
    assert (s.verdict, a.verdict) == ("refused", "anchored")
    assert s.sentences[0].closest[0][1] == instead and f"the span says {instead}, not " in s.reason


@pytest.mark.parametrize("answer, span", [
    ("The DEFAULT_CUTOFF is 0.6 [S1].", "default_cutoff = 0.6"),       # written in capitals: any case
    ("Hash with sha256 [S1].", "hashlib.SHA256 returns a hash."),
    ("Call get_close_matches [S1].", "Call difflib.get_close_matches(word)"),
    ("Base64 grows the data by a third [S1].", "base64 grows the data by a third."),    # a sentence's first word
    ("Get_close_matches takes a cutoff [S1].", "difflib.get_close_matches takes a cutoff."),
])
def test_names_in_capitals_match_in_any_case(answer, span):
    assert strict(answer, [span]) == "anchored"


@pytest.mark.parametrize("answer, span, instead", [
    ("Use `Jsondecoder` to parse [S1].", "Use json.JSONDecoder to parse.", "json.JSONDecoder"),   # a plain word
    ("An `ordereddict` keeps order [S1].", "An OrderedDict keeps order.", "OrderedDict"),          # written as code
    ("Ordereddict() keeps order [S1].", "collections.OrderedDict keeps order.", "collections.OrderedDict"),
    ("Call `getlogger(name)` [S1].", "Call logging.getLogger(name).", "logging.getLogger"),
    ("Override `setup` [S1].", "Override TestCase.setUp to prepare.", "TestCase.setUp"),
])
def test_a_word_written_as_code_in_another_case_than_the_spans_mixed_case_name_is_refused(answer, span, instead):
    s, a = compare_modes(answer, [span])
    assert (s.verdict, a.verdict) == ("refused", "anchored")
    assert s.sentences[0].closest[0][1] == instead and f"the span says {instead}, not " in s.reason


@pytest.mark.parametrize("answer, span", [
    ("The path module joins paths [S1].", "The Path class joins paths."),            # one capital: English case
    ("`JSONDECODER` parses it [S1].", "JSONDecoder parses it."),                      # capitals: any case
    ("An OrderedDict keeps order [S1].", "An OrderedDict keeps order."),
    ("Sha is a hash [S1].", "SHA is a hash."),
    ("Use Jsondecoder to parse [S1].", "Use json.JSONDecoder to parse."),            # prose: the writer's case
    ("The numpy arrays and sqlite files [S1].", "NumPy arrays and SQLite files."),
    ("Override the setup [S1].", "Override TestCase.setUp to prepare."),
    ("Use `zipfile` here [S1].", "Use zipfile.ZipFile here."),                       # the span writes it so too
    ("Github and Iphone apps [S1].", "GitHub and iPhone apps."),
])
def test_case_of_words_in_prose_or_written_so_by_the_span_is_free(answer, span):
    assert strict(answer, [span]) == "anchored"


def test_has_name_examples():
    c = Claims("json.JSONDecoder, difflib.get_close_matches, DEFAULT_CUTOFF")
    assert [c.has_name(n) for n in ("JSONDecoder", "JsonDecoder", "Get_Close_Matches", "default_cutoff", "JSONDECODER")] \
        == [True, False, False, True, True]


# ---- names the question asks about ---------------------------------------------------------------

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


# ---- names of a span's title: its document and section -------------------------------------------

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


def test_a_module_qualified_name_of_a_span_name_may_be_written():
    span = ["If the input dataset is empty, it raises a StatisticsError."]
    answer = "It raises statistics.StatisticsError [S1]."
    assert verify(answer, span).verdict == "refused"
    assert verify(answer, span, titles=["statistics statistics.fmean"]).verdict == "anchored"
    assert verify("It raises statistics.ValueError [S1].", span, titles=["statistics"]).verdict == "refused"
