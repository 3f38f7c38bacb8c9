"""Bad input at every entry point: a ValueError that says how to fix the call, or a defined result.

Each test asserts the message's content (what was wrong and what to do), not only the exception type.
The small corpus below is cut by hand: with ChunkerConfig("fixed", 4, 0)
    lib   (8 words)  -> chunks 0 "alpha beta cutoff gamma", 1 "delta epsilon zeta eta"
    heap  (4 words)  -> chunk  2 "heap push pop order"
    note  (draft)    -> chunk  3 "draft: default cutoff wrong."
"""
import math

import numpy as np
import pytest

from rag_core import (ChunkerConfig, Corpus, Document, GoldenRow, Index, TokenizedCorpus, Workbench,
                      by_sentence, by_structure, check_golden, fixed_window, retrieve, stdlib_corpus, verify)
from rag_core.text.questions import MAX_QUESTION_CHARS, check_question
from rag_core.evaluation.metrics import anchor_is_cut, contradicted, fixed_window_count, recall_at
from rag_core.evaluation.report import TABLE_NAMES

DOCS = (Document("lib", "alpha beta cutoff gamma delta epsilon zeta eta"),
        Document("heap", "heap push pop order"),
        Document("note", "draft: default cutoff wrong.", "draft"))


@pytest.fixture(scope="module")
def small():
    return Index.build(TokenizedCorpus(Corpus(DOCS)), ChunkerConfig("fixed", 4, 0))


def test_small_index_is_cut_as_the_docstring_says(small):
    assert small.texts == ["alpha beta cutoff gamma", "delta epsilon zeta eta", "heap push pop order",
                           "draft: default cutoff wrong."]
    assert list(small.statuses()) == ["current", "current", "current", "draft"]


# ---- questions ------------------------------------------------------------------------------------

@pytest.mark.parametrize("question", ["", "   ", "\n\t"])
def test_empty_question(small, question):
    with pytest.raises(ValueError, match="question is empty: type a question"):
        small.search(question, 2)


@pytest.mark.parametrize("question", ["what is the", "What IS the?", "how does it do that", "?!", "🤔🤔"])
def test_question_without_searchable_words(small, question):
    # stopwords only, punctuation only, emoji only: nothing to search, and the message says what to add
    with pytest.raises(ValueError, match="no searchable words.*add a content word"):
        small.search(question, 2)


def test_question_of_100000_characters(small):
    with pytest.raises(ValueError, match=r"100,000 characters long; keep it under 20,000") as e:
        small.search("cutoff " * (100_000 // 7) + "x" * (100_000 % 7), 2)
    assert f"{MAX_QUESTION_CHARS:,}" in str(e.value)


def test_question_at_the_length_limit_is_accepted(small):
    q = ("cutoff " * MAX_QUESTION_CHARS)[:MAX_QUESTION_CHARS]
    assert len(small.search(q, 1).ids) == 1


def test_question_is_stripped():
    assert check_question("  default cutoff?\n") == "default cutoff?"


def test_non_ascii_and_emoji_question_finds_bisect(wb):
    # "qu", "est", "ce", "que" are harmless extra words; "bisect" and "left" still lead to the bisect module
    ix = wb.index()
    res = ix.search("Qu'est-ce que bisect_left? 🤔", 3, {"current"})
    assert ix.doc_id(res.ids[0]) == "bisect"
    assert res.notes == ()


def test_non_ascii_question_through_the_pipeline(wb):
    got = retrieve(wb.index(), "Qu'est-ce que bisect_left? 🤔", 20, 3, True, {"current"})
    assert "bisect" in {wb.index().doc_id(i) for i in got.ids}


# ---- k --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("k", [0, -1, True, False, 2.0, "3", None])
def test_bad_k(small, k):
    with pytest.raises(ValueError, match=r"k must be a whole number of chunks above 0, got "):
        small.search("cutoff", k)


def test_numpy_integer_k_is_fine(small):
    assert len(small.search("cutoff", np.int64(2)).ids) == 2


@pytest.mark.parametrize("allowed, n_allowed", [(None, 4), ({"current"}, 3), ({"draft"}, 1)])
def test_k_above_the_number_of_chunks_is_clamped_with_a_note(small, allowed, n_allowed):
    res = small.search("cutoff", 50, allowed)
    assert sorted(res.ids.tolist()) == sorted(small.allowed_ids(allowed).tolist())   # every allowed chunk
    assert len(res.ids) == n_allowed
    assert len(res.notes) == 1
    assert f"Asked for 50 chunks but only {n_allowed}" in res.notes[0]
    assert f"returning {n_allowed}" in res.notes[0]


def test_k_equal_to_the_number_of_chunks_has_no_note(small):
    assert small.search("cutoff", 4).notes == ()


def test_clamp_note_without_a_filter_does_not_mention_a_filter(small):
    assert "filter" not in small.search("cutoff", 50).notes[0]


# ---- status filter --------------------------------------------------------------------------------

@pytest.mark.parametrize("allowed", [{"bogus"}, {"current", "bogus"}, "Current"])
def test_unknown_status_lists_the_known_ones(small, allowed):
    with pytest.raises(ValueError, match=r"Unknown status .*this corpus has current, draft\. Pick among those"):
        small.search("cutoff", 2, allowed)


@pytest.mark.parametrize("allowed", [set(), [], ()])
def test_empty_allowed_set_returns_nothing_and_says_so(small, allowed):
    res = small.search("cutoff", 2, allowed)
    assert len(res.ids) == 0 and len(res.scores) == 0            # never falls back to every chunk
    assert "No chunk passes the status filter" in res.notes[0]
    assert "Allow at least one status" in res.notes[0]


def test_empty_allowed_set_through_retrieve_and_ask(small):
    from rag_core import ask
    got = retrieve(small, "default cutoff", 3, 2, True, set())
    assert len(got.ids) == 0 and "No chunk passes" in got.notes[0]
    a = ask(small, "default cutoff", 3, 2, True, set())
    assert a.spans == [] and a.verdict.verdict == "abstained"


def test_a_single_status_string_is_one_status_not_its_letters(small):
    assert small.search("cutoff", 5, "draft").ids.tolist() == [3]


# ---- chunkers -------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["fixed", "structure", "sentence"])
@pytest.mark.parametrize("size", [0, -5])
def test_chunk_size_not_above_zero(kind, size):
    with pytest.raises(ValueError, match=rf"Chunk size must be a whole number above 0 .*got {size}"):
        ChunkerConfig(kind, size, 0)


@pytest.mark.parametrize("size", [2.5, "160", None])
def test_chunk_size_not_a_whole_number(size):
    with pytest.raises(ValueError, match="Chunk size must be a whole number"):
        ChunkerConfig("fixed", size, 0)


@pytest.mark.parametrize("kind, size, overlap", [("fixed", 4, 4), ("fixed", 4, 9), ("sentence", 2, 2)])
def test_overlap_not_below_size(kind, size, overlap):
    with pytest.raises(ValueError, match=rf"Overlap \({overlap}\) must be smaller than the size \({size}\).*"
                                         r"Lower the overlap or raise the size"):
        ChunkerConfig(kind, size, overlap)


@pytest.mark.parametrize("kind, unit", [("fixed", "words"), ("sentence", "sentences")])
def test_negative_overlap(kind, unit):
    with pytest.raises(ValueError, match=f"Overlap must be 0 or more {unit}, got -1"):
        ChunkerConfig(kind, 4, -1)


def test_structure_chunker_with_overlap():
    with pytest.raises(ValueError, match="structure chunker has no overlap: set overlap to 0"):
        ChunkerConfig("structure", 160, 32)


@pytest.mark.parametrize("kind", ["window", "Fixed", "", "paragraph"])
def test_unknown_chunker_kind(kind):
    with pytest.raises(ValueError, match=r"Unknown chunker .*use one of fixed, structure, sentence"):
        ChunkerConfig(kind, 160, 0)


@pytest.mark.parametrize("call", [lambda: fixed_window("a b", 0, 0), lambda: fixed_window("a b", 2, 2),
                                  lambda: by_structure("a b", 0), lambda: by_sentence("a. b.", 1, 1)])
def test_chunker_functions_validate_like_the_config(call):
    with pytest.raises(ValueError, match="Chunk size|Overlap"):
        call()


def test_chunk_size_true_is_rejected():
    with pytest.raises(ValueError):
        ChunkerConfig("fixed", True, 0)


def test_chunk_size_numpy_integer_is_accepted():
    assert ChunkerConfig("fixed", np.int64(160), np.int64(32)).size == 160


@pytest.mark.parametrize("call", [lambda: fixed_window_count(10, 5, 5), lambda: anchor_is_cut([(0, 1)], 5, 7)])
def test_metrics_helpers_validate_the_window(call):
    with pytest.raises(ValueError, match="must be smaller than the size"):       # not a ZeroDivisionError
        call()


# ---- documents and corpora ------------------------------------------------------------------------

def test_empty_corpus():
    with pytest.raises(ValueError, match="corpus has no documents: add at least one document"):
        Corpus(())


@pytest.mark.parametrize("text", ["", "   ", "\n\n\t"])
def test_document_with_empty_text(text):
    with pytest.raises(ValueError, match="Document 'b' has no text: remove it or give it some words"):
        Corpus((Document("a", "one"), Document("b", text)))


def test_duplicate_document_ids():
    with pytest.raises(ValueError, match="Duplicate document id 'a': ids must be unique, rename one"):
        Corpus((Document("a", "one"), Document("b", "two"), Document("a", "three")))


@pytest.mark.parametrize("doc, message", [(Document("", "x"), "empty id: give every document a name"),
                                          (Document(None, "x"), "empty id"),
                                          (Document("a", None), "'a' has no text"),
                                          (Document("a", "x", ""), "'a' has an empty status"),
                                          (Document("a", "x", None), "'a' has an empty status"),
                                          (("a", "x"), "Expected Document objects, got tuple")])
def test_malformed_documents(doc, message):
    with pytest.raises(ValueError, match=message):
        Corpus((doc,))


def test_stdlib_unknown_module():
    with pytest.raises(ValueError, match="Module 'no_such_module_xyz' cannot be imported here.*check the name"):
        stdlib_corpus(["math", "no_such_module_xyz"])


@pytest.mark.parametrize("modules", [[], ["", "  "], ""])
def test_stdlib_no_module(modules):
    with pytest.raises(ValueError, match="No module names given: pass at least one"):
        stdlib_corpus(modules)


@pytest.mark.parametrize("modules", ["math", "math, bisect", ["math", "math", "bisect"]])
def test_stdlib_module_names_as_one_string_or_with_repeats(modules):
    ids = [d.id for d in stdlib_corpus(modules, with_notes=False).documents]
    assert ids == (["math"] if modules == "math" else ["math", "bisect"])


# ---- golden set -----------------------------------------------------------------------------------

GOLDEN_CORPUS = Corpus((Document("a", "One two three\nfour five six."),))


@pytest.mark.parametrize("row, valid, reason", [
    (("q?", "a", "three four"), True, ""),
    (("q?", "a", "three   \n\tfour"), True, ""),                              # whitespace only: same text
    (("q?", "a", "  two three  "), True, ""),
    (("q?", "a", "one two"), False, "different upper/lower case"),           # the document says "One"
    (("q?", "a", "THREE FOUR"), False, "different upper/lower case"),
    (("q?", "a", "seven"), False, "does not contain that text"),
    (("q?", "a", "five six"), True, ""),
    (("q?", "a", "five six!"), False, "does not contain that text"),
    (("q?", "a", ""), False, "anchor is empty: copy the sentence that answers"),
    (("q?", "a", "  \n"), False, "anchor is empty"),
    (("q?", "a", None), False, "anchor is empty"),
    (("q?", "missing", "one"), False, "Unknown document 'missing': no document has that id"),
    (("", "a", "two"), False, "question is empty"),
])
def test_golden_row_checks(row, valid, reason):
    check = check_golden([row], GOLDEN_CORPUS)          # never raises for a bad row: it reports it
    assert (len(check.valid), check.n_excluded) == ((1, 0) if valid else (0, 1))
    if not valid:
        assert reason in check.problems[0].reason
        assert check.problems[0].row == 0


def test_golden_with_a_missing_document_is_reported_and_excluded():
    rows = [("q1?", "a", "two three"), ("q2?", "gone", "two three"), ("q3?", "a", "five")]
    check = check_golden(rows, GOLDEN_CORPUS)
    assert check.valid == (GoldenRow(*rows[0]), GoldenRow(*rows[2]))
    assert check.n_excluded == 1 and check.problems[0].row == 1 and "'gone'" in check.problems[0].reason
    frame = check.frame()
    assert frame.valid.tolist() == [True, False, True]
    assert frame.reason[1] == check.problems[0].reason


def test_workbench_with_a_missing_document_counts_it_in_every_table():
    from rag_core.evaluation import tables
    wb = Workbench(GOLDEN_CORPUS, [("q1?", "a", "two three"), ("q2?", "gone", "x")])
    df = tables.ceiling(wb, ChunkerConfig("fixed", 3, 0), ks=(1, 3))
    assert df.attrs == {"questions": 1, "excluded": 1}


def test_golden_set_with_no_valid_question_gives_nan_not_an_error():
    from rag_core.evaluation import tables
    wb = Workbench(GOLDEN_CORPUS, [("q?", "gone", "x")])
    assert wb.questions == []
    assert all(math.isnan(v) for v in tables.ceiling(wb, ChunkerConfig("fixed", 3, 0), ks=(1, 3)).recall)
    assert math.isnan(recall_at(np.zeros(0), 3))


def test_golden_row_as_a_dict():
    check = check_golden([{"question": "q?", "doc": "a", "anchor": "two three"}], GOLDEN_CORPUS)
    assert check.valid == (GoldenRow("q?", "a", "two three"),)


@pytest.mark.parametrize("row", [("q?", "a"), ("q?", "a", "x", "key", "yes", (), "extra"), "q? a x", 42,
                                 {"q": "q?", "d": "a", "a": "x"}])
def test_golden_row_of_the_wrong_shape(row):
    with pytest.raises(ValueError, match=r"Golden row 2 is .*three fields, \(question, document id, anchor\)"):
        check_golden([("ok?", "a", "two"), row], GOLDEN_CORPUS)


# ---- retrieve and verify --------------------------------------------------------------------------

def test_k_final_above_k_candidates(small):
    with pytest.raises(ValueError, match="Cannot keep 5 chunks out of 3 candidates: ask for at least as many "
                                         "candidates as chunks to keep"):
        retrieve(small, "cutoff", 3, 5)


@pytest.mark.parametrize("k_candidates, k_final, what", [(5, 0, "chunks to keep"), (5, True, "chunks to keep"),
                                                         (5, 2.5, "chunks to keep"), (0, 1, "candidates"),
                                                         (None, 1, "candidates"), (True, 1, "candidates")])
def test_retrieve_bad_counts(small, k_candidates, k_final, what):
    with pytest.raises(ValueError, match=f"number of {what} must be a whole number above 0"):
        retrieve(small, "cutoff", k_candidates, k_final)


def test_retrieve_clamps_candidates_with_the_search_note(small):
    got = retrieve(small, "default cutoff", 10, 10, True, {"current"})
    assert sorted(got.ids.tolist()) == [0, 1, 2]
    assert "only 3 pass the filter" in got.notes[0]


def test_verify_rejects_an_answer_that_is_not_text():
    with pytest.raises(ValueError, match="answer must be text, got NoneType"):
        verify(None, ["x"])


@pytest.mark.parametrize("answer", ["", "   \n"])
def test_verify_empty_answer_is_refused(answer):
    v = verify(answer, ["x"])
    assert (v.verdict, v.reason) == ("refused", "The answer is empty.")


def test_workbench_trusted_as_one_string():
    assert Workbench(GOLDEN_CORPUS, [], trusted="current").trusted == ("current",)


def test_contradicted_accepts_a_set_of_trusted_statuses(small):
    ranked = [np.array([0, 1]), np.array([3, 0]), np.array([2, 3])]
    # top 1: only the second question has the draft chunk 3 first; top 2: the second and the third
    for trusted in (("current",), ["current"], {"current"}, "current"):
        assert contradicted(small, ranked, 1, trusted) == 1
        assert contradicted(small, ranked, 2, trusted) == 2
    assert contradicted(small, ranked, 2, {"current", "draft"}) == 0


# ---- golden questions the search cannot take: excluded with their reason, never an error page -----

LONG_QUESTION = "two three " * 3100                    # 31,000 characters

UNSEARCHABLE = [
    ("它是什么？", "The question has no word the search can use"),           # no letter a-z, no digit
    ("What is it?", "The question has no word the search can use"),          # stopwords only
    ("?!", "The question has no word the search can use"),
    (LONG_QUESTION, "The question is 31,000 characters long; the limit is 20,000."),
    ("", "The question is empty."),
    ("  \n", "The question is empty."),
    (None, "The question must be text, got NoneType."),
]


@pytest.mark.parametrize("question, reason", UNSEARCHABLE)
def test_golden_question_the_search_cannot_take_is_excluded(question, reason):
    check = check_golden([(question, "a", "two three"), ("Which number follows two?", "a", "two three")], GOLDEN_CORPUS)
    assert check.valid == (GoldenRow("Which number follows two?", "a", "two three"),)
    (problem,) = check.problems
    assert problem.row == 0 and problem.reason.startswith(reason)


def test_golden_question_at_the_length_limit_is_valid():
    q = ("two three " * MAX_QUESTION_CHARS)[:MAX_QUESTION_CHARS]
    assert len(check_golden([(q, "a", "two three")], GOLDEN_CORPUS).valid) == 1


@pytest.mark.parametrize("doc, reason", [("", "The document id is empty"), ("  ", "The document id is empty"),
                                         (None, "The document id is empty"), ("gone", "Unknown document 'gone'")])
def test_golden_row_without_a_usable_doc_is_excluded(doc, reason):
    (problem,) = check_golden([("q?", doc, "two three")], GOLDEN_CORPUS).problems
    assert problem.reason.startswith(reason)


def every_table(wb):
    """Every table the pages and the CLI compute: those `report.computable` allows (all, given a valid question)."""
    from rag_core.evaluation import report, tables
    return {name: tables.TABLES[name](wb) for name in report.computable(wb, report.TABLE_NAMES)[0]}


@pytest.mark.parametrize("with_a_valid_row", [True, False])
def test_workbench_and_every_table_work_with_unsearchable_golden_rows(with_a_valid_row):
    rows = [(q, "a", "two three") for q, _ in UNSEARCHABLE] + [("q?", "a", "   "), ("q?", "gone", "two")]
    rows += [("Which number follows two?", "a", "two three")] if with_a_valid_row else []
    wb = Workbench(GOLDEN_CORPUS, rows)
    assert (len(wb.golden_check.valid), wb.golden_check.n_excluded) == (int(with_a_valid_row), len(UNSEARCHABLE) + 2)
    frames = every_table(wb)
    assert len(frames) == (len(TABLE_NAMES) if with_a_valid_row else 1)
    for name, df in frames.items():
        if name != "verifier_cases":
            assert df.attrs["excluded"] == len(UNSEARCHABLE) + 2, name


def test_cli_report_with_unsearchable_golden_rows(tmp_path, capsys):
    from rag_core.__main__ import main
    from rag_core.data.ingest import golden_to_csv
    (tmp_path / "a.txt").write_text("One two three\nfour five six.", encoding="utf-8")
    rows = [GoldenRow("它是什么？", "a.txt", "two three"), GoldenRow("What is it?", "a", "two three"),
            GoldenRow(LONG_QUESTION, "a.txt", "two three"), GoldenRow("Which number follows two?", "a", "two three")]
    (tmp_path / "g.csv").write_text(golden_to_csv(rows), encoding="utf-8")
    assert main(["report", "--docs", str(tmp_path / "a.txt"), "--golden", str(tmp_path / "g.csv"),
                 "--format", "json"]) == 0, capsys.readouterr().err
    corpus = __import__("json").loads(capsys.readouterr().out)["corpus"]
    assert (corpus["valid_questions"], corpus["excluded_questions"]) == (1, 3)


# ---- a golden row's doc: with or without the file extension, and a suggestion when it is unknown ----

NAMED = Corpus((Document("notes", "alpha beta"), Document("guide.md", "gamma delta"),
                Document("api.md", "eps zeta"), Document("api.txt", "eps zeta")))


@pytest.mark.parametrize("doc, resolved", [("notes", "notes"), ("notes.md", "notes"), ("notes.txt", "notes"),
                                           ("guide", "guide.md"), ("guide.md", "guide.md"), ("api.md", "api.md")])
def test_golden_doc_matches_with_or_without_its_extension(doc, resolved):
    anchor = NAMED.by_id[resolved].text.split()[0]
    check = check_golden([("Which word?", doc, anchor)], NAMED)
    assert check.problems == () and check.valid[0].doc == resolved     # the canonical id, for every later stage
    assert check.rows[0].doc == doc                                    # the row as given is kept too


@pytest.mark.parametrize("doc, reason", [
    ("note", "Unknown document 'note': no document has that id. Did you mean 'notes'?"),
    ("Guide.md", "Unknown document 'Guide.md': no document has that id. Did you mean 'guide.md'?"),
    ("api", "Document 'api' matches several documents ('api.md', 'api.txt'): write the full id."),
    ("zzzz", "Unknown document 'zzzz': no document has that id."),
])
def test_golden_doc_unknown_or_ambiguous(doc, reason):
    (problem,) = check_golden([("Which word?", doc, "alpha")], NAMED).problems
    assert problem.reason == reason


def test_golden_anchor_is_looked_up_in_the_resolved_document():
    (problem,) = check_golden([("Which word?", "guide", "alpha")], NAMED).problems
    assert problem.reason == "Anchor not found in 'guide.md': the document does not contain that text."


def test_golden_problems_checks_documents_not_yet_used():
    from rag_core.data.golden import golden_problems
    pending = [Document("a.txt", "One two three"), Document("a.txt", "a repeated id: not a Corpus yet")]
    rows = [("q one?", "a", "two three"), ("What is it?", "a.txt", "two"), ("q two?", "b", "x"), ("q?", "a", "TWO")]
    problems = golden_problems(rows, pending)
    assert [p.row for p in problems] == [1, 2, 3]
    assert problems == check_golden(rows, Corpus(pending[:1])).problems
    assert golden_problems(rows, Corpus(pending[:1])) == problems


def test_golden_problems_of_something_else_than_documents_says_how_to_fix():
    from rag_core.data.golden import golden_problems
    with pytest.raises(ValueError, match="Expected Document objects \\(or a Corpus\\), got tuple"):
        golden_problems([("q?", "a", "x")], [("a", "text")])
