"""Search (top_k, filter before ranking), the index, golden-set checks and metrics, the stdlib corpus, ask().

Hand-made corpora first, each cut by hand in its comment; then brute-force cross-checks on the bundled
corpus (a slow obvious computation against the fast one).
"""
import math
import sys

import numpy as np
import pytest

from rag_core import (ChunkerConfig, Corpus, Document, GoldenRow, Index, TokenizedCorpus, Workbench, ask,
                      check_golden, fixed_window, load_golden, retrieve, stdlib_corpus)
from rag_core.evaluation import tables
from rag_core.data.corpus import ARTICLE_MODULES
from rag_core.retrieval.index import top_k
from rag_core.evaluation.metrics import (anchor_holders, anchor_is_cut, contradicted, cut_anchors,
                                         first_hit_ranks, fixed_window_count, recall_at)
from rag_core.evaluation.pipeline import outcome
from rag_core.evaluation.vocabulary import ARTICLE_OUTCOMES
from rag_core.text.tokens import normalize, words


def build(docs, size, overlap=0):
    return Index.build(TokenizedCorpus(Corpus(tuple(docs))), ChunkerConfig("fixed", size, overlap))


# ---- top_k ----------------------------------------------------------------------------------------

def test_top_k_docstring_example():
    assert top_k(np.array([0.2, 0.9, 0.2, 0.5]), 3).tolist() == [1, 3, 0]


@pytest.mark.parametrize("n", [1, 7, 100, 2047, 2048, 5000, 30000])
@pytest.mark.parametrize("k", [1, 2, 3, 10, 100, 511, 513, 2000, 10**6])
@pytest.mark.parametrize("levels", [2, 5, 1000])
def test_top_k_is_a_stable_argsort_with_ties(n, k, levels):
    # few distinct values -> many ties; n >= 2048 with n > 4k takes the partition branch
    rng = np.random.default_rng(n * 7919 + k * 31 + levels)
    s = rng.integers(-levels, levels, n).astype(np.float64) / levels
    assert top_k(s, k).tolist() == np.argsort(-s, kind="stable")[:k].tolist()


def test_top_k_all_equal_scores_keep_position_order():
    assert top_k(np.zeros(10_000), 5).tolist() == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("k", [0, -3])
def test_top_k_of_nothing(k):
    assert top_k(np.arange(5.0), k).tolist() == []


# ---- filter before ranking ------------------------------------------------------------------------

# fixed 5/0: chunk 0 "cutoff alpha beta gamma delta", 1 "epsilon zeta eta theta iota",
#            chunk 2 "heap push pop kappa lambda", 3 "mu nu xi omicron pi",
#            chunk 4 "NOTE: default cutoff is 0.9." (the draft holds BOTH question words)
FILTER_DOCS = [Document("lib", "cutoff alpha beta gamma delta epsilon zeta eta theta iota"),
               Document("heap", "heap push pop kappa lambda mu nu xi omicron pi"),
               Document("note", "NOTE: default cutoff is 0.9.", "draft")]
QUESTION = "default cutoff"


@pytest.fixture(scope="module")
def fix():
    return build(FILTER_DOCS, 5)


def test_the_draft_is_the_best_match_without_a_filter(fix):
    assert fix.search(QUESTION, 1).ids.tolist() == [4]


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_filter_returns_k_current_chunks_and_never_the_draft(fix, k):
    res = fix.search(QUESTION, k, {"current"})
    assert len(res.ids) == k                             # not k minus the filtered draft
    assert 4 not in res.ids.tolist()
    assert set(fix.statuses()[res.ids]) == {"current"}
    assert res.ids[0] == 0                               # the only current chunk with "cutoff"
    assert res.notes == ()


def test_filter_scores_are_the_unfiltered_scores(fix):
    everything = fix.search(QUESTION, 5)
    by_id = dict(zip(everything.ids.tolist(), everything.scores.tolist()))
    res = fix.search(QUESTION, 4, {"current"})
    assert res.scores.tolist() == [by_id[i] for i in res.ids.tolist()]
    assert list(res.scores) == sorted(res.scores, reverse=True)


def test_filter_only_drafts(fix):
    res = fix.search(QUESTION, 3, {"draft"})
    assert res.ids.tolist() == [4] and "only 1 pass the filter" in res.notes[0]


def test_search_many_equals_search_one_by_one(fix):
    qs = [QUESTION, "heap push", "iota theta"]
    for allowed in (None, {"current"}):
        many = fix.search_many(qs, 3, allowed)
        for q, got in zip(qs, many):
            one = fix.search(q, 3, allowed)
            assert got.ids.tolist() == one.ids.tolist() and got.scores.tolist() == one.scores.tolist()


def test_filter_on_the_bundled_index_never_returns_a_note(wb):
    ix = wb.index()
    n_current = int(np.sum(ix.statuses() == "current"))
    for q in wb.questions:
        res = ix.search(q, 50, {"current"})
        assert len(res.ids) == 50 <= n_current
        assert set(ix.statuses()[res.ids]) == {"current"}


# ---- the index ------------------------------------------------------------------------------------

@pytest.mark.parametrize("cfg", [ChunkerConfig("fixed", 160, 32), ChunkerConfig("fixed", 7, 3),
                                 ChunkerConfig("structure", 160, 0), ChunkerConfig("sentence", 4, 1)],
                         ids=lambda c: c.label)
def test_each_chunk_owns_exactly_the_words_of_its_text(wb, cfg):
    ix = wb.index(cfg)
    id_to_word = {i: w for w, i in wb.tc.tokenizer.vocab.items()}
    for c in range(0, len(ix), max(1, len(ix) // 300)):           # a sample of at most ~300 chunks
        assert [id_to_word[i] for i in wb.tc.word_ids[ix.lo[c]:ix.hi[c]].tolist()] == words(ix.texts[c])
        assert ix.texts[c].split() == ix.documents[ix.doc[c]].text.split()[ix.start[c]:ix.end[c]]


# ---- golden set: occurrences and holders ----------------------------------------------------------

# doc a: "one two three four five six" (tokens 0..5); doc b (draft): "two three seven" (tokens 0..2)
GOLD_DOCS = [Document("a", "one two three\nfour five six"), Document("b", "two three seven", "draft")]


def as_lists(occurrences: dict) -> dict:
    """GoldenCheck.occurrences with each (n, 2) array as a list of (first, last) tuples."""
    return {q: {d: list(map(tuple, r.tolist())) for d, r in occ.items()} for q, occ in occurrences.items()}


@pytest.mark.parametrize("anchor, occurrences", [
    ("three four", {0: [(2, 3)]}),                        # spans a newline of the document
    ("two three", {0: [(1, 2)], 1: [(0, 1)]}),           # found in every document, not only its own
    ("six", {0: [(5, 5)]}),
])
def test_occurrences_by_hand(anchor, occurrences):
    check = check_golden([("q?", "a", anchor)], Corpus(tuple(GOLD_DOCS)))
    assert as_lists(check.occurrences) == {0: occurrences}


@pytest.mark.parametrize("anchor, inside", [("wo thr", "one two three four"), ("max", "maxsize is 128"),
                                            ("is 12", "maxsize is 128"), ("0.6", "cutoff 10.6 here"),
                                            ("128.5", "cutoff 128.55 here"), ("1,00", "1,000 items")])
def test_an_anchor_inside_longer_words_or_numbers_is_excluded_with_its_reason(anchor, inside):
    """The article's substring test found '0' in '0.6' (and 'wo thr' in 'two three'): ceiling 1.0 for nothing."""
    check = check_golden([("What is the value?", "a", anchor)], Corpus((Document("a", inside),)))
    assert not check.valid and check.occurrences == {}
    assert check.problems[0].reason.startswith("Anchor found in 'a' only inside longer words or numbers")


@pytest.mark.parametrize("anchor, text, found", [
    ("(default 0.6)", "cutoff (default 0.6) is", [(1, 2)]),       # symbols at its ends: no boundary asked there
    ("is 0.6", "the cutoff is 0.6.", [(2, 3)]),                    # a sentence's period after a number
    ("1,000 items", "keeps 1,000 items, at most", [(1, 2)]),
    ("max_len", "max_len=5 and max_len", [(0, 0), (2, 2)]),        # '=' after it; found twice
    ("get_close_matches", "Use get_close_matches() here", [(1, 1)]),
])
def test_an_anchor_standing_alone_is_found_on_token_boundaries(anchor, text, found):
    check = check_golden([("What is the value?", "a", anchor)], Corpus((Document("a", text),)))
    assert as_lists(check.occurrences) == {0: {0: found}}


@pytest.mark.parametrize("anchor", ["0", "b", "42", " 7 ", "a b"])
def test_an_anchor_shorter_than_three_characters_is_excluded_with_its_reason(anchor):
    """A one-character anchor was found in every chunk holding that character: ceiling 1.0."""
    check = check_golden([("What is the cutoff?", "a", anchor)],
                         Corpus((Document("a", "The cutoff is 0.6, b is 42 and 7 a b."),)))
    assert not check.valid
    assert "shorter than 3 characters" in check.problems[0].reason


def test_a_repeated_question_counts_once_and_says_which_row_it_repeats():
    rows = [("What is the cutoff?", "zz", "is 0.6"),            # invalid: the next one is the first that counts
            ("What is the cutoff?", "a", "is 0.6"),
            ("what is  THE cutoff?", "a", "cutoff is"),          # whitespace and case aside, the same question
            ("Which cutoff?", "a", "is 0.6")]
    check = check_golden(rows, Corpus((Document("a", "The cutoff is 0.6 here."),)))
    assert [r.question for r in check.valid] == ["What is the cutoff?", "Which cutoff?"]
    assert [(p.row, p.reason.split(":")[0]) for p in check.problems] == [
        (0, "Unknown document 'zz'"), (2, "The same question as row 2")]


def test_overlapping_occurrences_are_all_found():
    check = check_golden([("q?", "c", "x y x")], Corpus((Document("c", "x y x y x"),)))
    assert as_lists(check.occurrences) == {0: {0: [(0, 2), (2, 4)]}}


def test_occurrences_are_numbered_by_valid_row():
    check = check_golden([("q?", "a", "nope"), ("q?", "a", "six")], Corpus(tuple(GOLD_DOCS)))
    assert check.valid == (GoldenRow("q?", "a", "six"),) and as_lists(check.occurrences) == {0: {0: [(5, 5)]}}


@pytest.mark.parametrize("size, overlap, anchor, holders", [
    # 3/0: a -> chunk 0 [0,3) "one two three", 1 [3,6) "four five six"; b -> chunk 2 [0,3)
    (3, 0, "three four", []),                            # the boundary falls inside the anchor: nobody
    (3, 0, "two three", [0, 2]),
    (3, 0, "five six", [1]),
    # 3/1 (step 2): a -> 0 [0,3), 1 [2,5) "three four five", 2 [4,6); b -> 3 [0,3)
    (3, 1, "three four", [1]),                           # the overlap repairs the cut
    (3, 1, "five six", [2]),
    (3, 1, "four five six", []),
    (6, 0, "four five six", [0]),
])
def test_anchor_holders_by_hand(size, overlap, anchor, holders):
    corpus = Corpus(tuple(GOLD_DOCS))
    ix = Index.build(TokenizedCorpus(corpus), ChunkerConfig("fixed", size, overlap))
    check = check_golden([("q?", "a", anchor)], corpus)
    assert anchor_holders(ix, check.occurrences[0]).tolist() == holders


@pytest.mark.parametrize("cfg", [ChunkerConfig("fixed", 40, 8), ChunkerConfig("fixed", 60, 0),
                                 ChunkerConfig("structure", 160, 0), ChunkerConfig("sentence", 4, 1)],
                         ids=lambda c: c.label)
def test_anchor_holders_equal_the_article_substring_test(wb, cfg):
    ix = wb.index(cfg)
    chunks = [normalize(t) for t in ix.texts]
    for q, row in enumerate(wb.golden_check.valid):
        brute = [c for c, t in enumerate(chunks) if normalize(row.anchor) in t]
        assert anchor_holders(ix, wb.golden_check.occurrences[q]).tolist() == brute, row.question


# ---- metrics --------------------------------------------------------------------------------------

def test_first_hit_ranks_docstring_example():
    assert first_hit_ranks([[7], [2, 9]], [[3, 7], [1, 4]]).tolist() == [2, math.inf]


@pytest.mark.parametrize("holders, ranked, ranks", [
    ([{5}], [[5, 1, 2]], [1]),
    ([{1, 2}], [[9, 2, 1]], [2]),                           # the FIRST holder counts
    ([set()], [[1, 2]], [math.inf]),
    ([np.array([3])], [np.array([], dtype=np.int64)], [math.inf]),
    ([], [], []),
])
def test_first_hit_ranks_by_hand(holders, ranked, ranks):
    assert first_hit_ranks(holders, ranked).tolist() == ranks


@pytest.mark.parametrize("k, expected", [(0, 0.0), (1, 1 / 3), (2, 1 / 3), (3, 2 / 3), (100, 2 / 3)])
def test_recall_at(k, expected):
    assert recall_at(np.array([1, 3, math.inf]), k) == pytest.approx(expected)


def test_recall_at_with_no_question_is_nan():
    assert math.isnan(recall_at(np.array([]), 1))


def test_contradicted_by_hand(fix):
    # chunk 4 is the draft; the others are current
    ranked = [[0, 1, 4], [4, 0], [2, 3], []]
    assert [contradicted(fix, ranked, k) for k in (1, 2, 3)] == [1, 1, 2]


@pytest.mark.parametrize("ranges, size, overlap, cut", [
    ([(2, 3)], 3, 0, True),           # windows [0,3) [3,6): the boundary between tokens 2 and 3
    ([(2, 3)], 3, 1, False),          # window [2,5) holds it
    ([(2, 3)], 4, 0, False),
    ([(0, 4)], 4, 0, True),           # longer than any window
    ([(2, 3), (4, 4)], 3, 0, False),  # one whole occurrence is enough
    ([], 3, 0, True),                 # no occurrence in the document: cut
])
def test_anchor_is_cut_by_hand(ranges, size, overlap, cut):
    assert anchor_is_cut(ranges, size, overlap) is cut


SIZE_OVERLAP = [(s, o) for s in (2, 3, 5, 13, 37, 60, 160, 400)
                for o in sorted({0, 1, s // 5, s - 1}) if o < s]


def test_fixed_window_count_and_anchor_is_cut_against_brute_force(wb):
    docs, positions = wb.corpus.documents, {d.id: i for i, d in enumerate(wb.corpus.documents)}
    for size, overlap in SIZE_OVERLAP:
        for d in docs:
            assert fixed_window_count(len(d.text.split()), size, overlap) == len(fixed_window(d.text, size, overlap))
        brute_cut = 0
        for q, row in enumerate(wb.golden_check.valid):
            target = normalize(row.anchor)
            d = positions[row.doc]
            cut = not any(target in p.text for p in fixed_window(docs[d].text, size, overlap))
            assert anchor_is_cut(wb.golden_check.occurrences[q].get(d, []), size, overlap) is cut, (size, overlap, row)
            brute_cut += cut
        assert cut_anchors(wb.tc, wb.golden_check, size, overlap) == brute_cut


@pytest.mark.parametrize("n", [0, 1, 9, 10, 11])
def test_fixed_window_count_by_hand(n):
    # size 5, overlap 2 -> windows start at 0, 3, 6, 9: ceil(n / 3), and 1 for an empty document
    assert fixed_window_count(n, 5, 2) == max(1, math.ceil(n / 3)) == len(fixed_window(" ".join("w" * n), 5, 2))


# ---- the stdlib corpus of this interpreter --------------------------------------------------------

@pytest.fixture(scope="module")
def stdlib_wb():
    return Workbench(stdlib_corpus(), load_golden())


def test_stdlib_builds_the_article_modules(stdlib_wb):
    ids = [d.id for d in stdlib_wb.corpus.documents]
    assert ids[:18] == list(ARTICLE_MODULES) and len(ARTICLE_MODULES) == 18
    assert [d.status for d in stdlib_wb.corpus.documents[18:]] != [] and \
        all(d.status != "current" for d in stdlib_wb.corpus.documents[18:])
    for d in stdlib_wb.corpus.documents[:18]:
        assert d.text.startswith(f"MODULE {d.id}")


def test_stdlib_invalid_anchors_are_reported_and_really_absent(stdlib_wb):
    check, by_id = stdlib_wb.golden_check, stdlib_wb.corpus.by_id
    assert len(check.rows) == 18
    assert len(check.valid) + check.n_excluded == 18
    bad = {p.row for p in check.problems}
    for i, row in enumerate(check.rows):
        present = normalize(row.anchor) in normalize(by_id[row.doc].text)
        assert present is (i not in bad), row
    for p in check.problems:
        assert p.reason.startswith(f"Anchor not found in {check.rows[p.row].doc!r}")


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="itertools.batched exists from Python 3.12 on")
def test_stdlib_before_312_excludes_the_batched_question(stdlib_wb):
    # the article's golden set asks about itertools.batched, which this Python does not have
    assert any("batched" in p.question for p in stdlib_wb.golden_check.problems)


def test_stdlib_metrics_are_over_the_valid_questions_only(stdlib_wb):
    n_valid = len(stdlib_wb.golden_check.valid)
    df = tables.ceiling(stdlib_wb)
    assert df.attrs == {"questions": n_valid, "excluded": 18 - n_valid}
    assert len(stdlib_wb.anchor_ranks(ChunkerConfig("fixed", 160, 32), 50)) == n_valid
    for value in df.recall:
        assert value * n_valid == pytest.approx(round(value * n_valid))      # a count over n_valid questions
    sizes = tables.corpus_sizes(stdlib_wb).iloc[0]
    assert (sizes.valid_questions, sizes.excluded_questions) == (n_valid, 18 - n_valid)


def test_stdlib_with_fewer_modules_excludes_the_other_questions():
    wb = Workbench(stdlib_corpus(["math", "bisect"]), load_golden())
    assert [d.id for d in wb.corpus.documents[:2]] == ["math", "bisect"]
    golden = load_golden()
    for p in wb.golden_check.problems:
        if golden[p.row].doc not in ("math", "bisect"):
            assert "Unknown document" in p.reason
    assert {r.doc for r in wb.golden_check.valid} <= {"math", "bisect"}


# ---- the pipeline ---------------------------------------------------------------------------------

@pytest.mark.parametrize("k_final", [1, 3, 5])
@pytest.mark.parametrize("allowed", [None, {"current"}])
def test_ask_on_the_bundled_index(wb, k_final, allowed):
    ix = wb.index()
    q = wb.questions[0]
    a = ask(ix, q, 20, k_final, True, allowed)
    assert len(a.spans) == len(a.retrieved.ids) == k_final
    assert a.spans == [ix.texts[i] for i in a.retrieved.ids]
    assert f"[S1] {a.spans[0]}" in a.prompt and f"[S{k_final}] " in a.prompt
    assert f"[S{k_final + 1}]" not in a.prompt.split("SPANS:")[1]
    assert a.prompt.endswith(f"QUESTION: {q}\n\nANSWER:")
    assert a.verdict.verdict in ("anchored", "refused", "abstained")
    assert outcome(a.verdict, a.retrieved.ids, ix, wb.golden_check.valid[0].doc) in ARTICLE_OUTCOMES


def test_ask_with_the_filter_cites_the_right_source(wb):
    # the article: with "status = current" every question is "anchored / right source"
    ix = wb.index()
    row = wb.golden_check.valid[0]
    a = ask(ix, row.question, 20, 3, True, {"current"})
    assert outcome(a.verdict, a.retrieved.ids, ix, row.doc) == "anchored / right source"
    assert outcome(a.verdict, a.retrieved.ids, ix, None) == "anchored"


def test_outcome_wrong_source_when_the_draft_is_cited(fix):
    a = ask(fix, QUESTION, 5, 2, True)                  # unfiltered: the draft comes first
    assert fix.status(a.retrieved.ids[0]) == "draft"
    answer = ask(fix, QUESTION, 5, 2, True, generate=lambda q, spans: "The default cutoff is 0.9 [S1].")
    assert answer.verdict.verdict == "anchored"
    assert outcome(answer.verdict, answer.retrieved.ids, fix, "lib") == "anchored / WRONG source"
    assert outcome(answer.verdict, answer.retrieved.ids, fix, "note") == "anchored / right source"


@pytest.mark.parametrize("text, label", [("NOT IN THE CONTEXT", "abstained"), ("It is 42 [S9].", "refused"),
                                         ("No citation here.", "refused")])
def test_outcome_of_unanchored_answers_is_the_verdict(fix, text, label):
    a = ask(fix, QUESTION, 5, 2, generate=lambda q, spans: text)
    assert a.answer == text and outcome(a.verdict, a.retrieved.ids, fix, "lib") == label


def test_retrieve_without_rerank_is_the_bi_encoder_prefix(wb):
    ix = wb.index()
    for q in wb.questions[:5]:
        got = retrieve(ix, q, 20, 3, False, {"current"})
        assert got.ids.tolist() == ix.search(q, 3, {"current"}).ids.tolist()
        assert got.bi_rank.tolist() == [1, 2, 3] and np.isnan(got.rerank_score).all()


def test_rerank_keeps_candidates_and_orders_by_score(wb):
    ix = wb.index()
    for q in wb.questions[:5]:
        cand = ix.search(q, 20, {"current"}).ids
        got = retrieve(ix, q, 20, 20, True, {"current"})
        assert sorted(got.ids.tolist()) == sorted(cand.tolist())
        assert list(got.rerank_score) == sorted(got.rerank_score, reverse=True)
        assert [cand.tolist().index(c) + 1 for c in got.ids] == got.bi_rank.tolist()


def test_a_question_repeated_in_another_unicode_form_counts_once():
    """'Café' composed and decomposed, '?' and its full-width form: the same question (found by an attack pass)."""
    from rag_core.data.golden import check_golden
    from rag_core.data.corpus import Corpus, Document
    corpus = Corpus((Document("a", "The timeout is thirty seconds by default."),))
    rows = [GoldenRow("Café timeout?", "a", "thirty seconds"), GoldenRow("Cafe\u0301 timeout\uff1f", "a", "thirty seconds")]
    check = check_golden(rows, corpus)
    assert len(check.valid) == 1 and "counts once" in check.frame().query("not valid").iloc[0].reason
