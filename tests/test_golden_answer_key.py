"""Answer keys of golden rows: the words of the anchor that answer, checked like the anchor, read from CSV, kept
by the store, and written for both bundled golden sets."""
import pytest

from rag_core.data.corpus import Corpus, Document, bundled_corpus
from rag_core.data.golden import GoldenRow, check_golden, golden_problems, load_golden
from rag_core.data.golden_csv import golden_to_csv, read_golden_csv
from rag_core.store.records import dataset_key, golden_key

DOCS = [Document("math", "math.comb(n, k) evaluates to zero when k > n. More text here.", "current")]


def test_without_a_key_the_anchor_is_the_key():
    row = GoldenRow("What does comb return when k > n?", "math", "evaluates to zero when k > n")
    assert row.answer == "" and row.key == "evaluates to zero when k > n"
    assert GoldenRow(*row[:3], "zero when k > n").key == "zero when k > n"


@pytest.mark.parametrize("key,reason", [
    ("zero when k < n", "is not in the anchor"),
    ("Zero when k > n", "only with different upper/lower case"),
    ("> ,", "holds no word, number or name"),
])
def test_a_key_not_in_its_anchor_excludes_the_row_with_its_reason(key, reason):
    row = GoldenRow("What does comb return when k > n?", "math", "evaluates to zero when k > n", key)
    problems = golden_problems([row], DOCS)
    assert len(problems) == 1 and reason in problems[0].reason, problems
    assert check_golden([row], Corpus(tuple(DOCS))).valid == ()


def test_a_key_found_in_the_anchor_is_valid_and_kept():
    row = GoldenRow("What does comb return when k > n?", "math", "evaluates to zero when k > n", "zero  when k > n")
    check = check_golden([row], Corpus(tuple(DOCS)))
    assert check.valid == (row,) and check.valid[0].key == "zero  when k > n"


def test_csv_reads_an_optional_answer_column_and_writes_it_back():
    text = 'question,doc,anchor,answer\n"What does comb return?",math,evaluates to zero when k > n,zero when k > n\n' \
           '"Where is it?",math,evaluates to zero when k > n,\n'
    rows, problems = read_golden_csv(text)
    assert problems == [] and [r.key for r in rows] == ["zero when k > n", "evaluates to zero when k > n"]
    again, problems = read_golden_csv(golden_to_csv(rows))
    assert problems == [] and again == rows
    plain, problems = read_golden_csv("question,doc,anchor\nq?,math,evaluates to zero\n")
    assert problems == [] and plain[0].answer == "" and golden_to_csv(plain).startswith("question,doc,anchor\n")


@pytest.mark.parametrize("which", ["article", "user"])
def test_both_bundled_sets_have_a_key_for_every_row_and_every_key_counts(which):
    rows = load_golden(which)
    assert all(r.answer and r.answer != r.anchor for r in rows)
    check = check_golden(rows, bundled_corpus())
    assert check.problems == () and len(check.valid) == len(rows)


def test_a_key_changes_the_hashes_and_no_key_leaves_them_as_they_were():
    row = GoldenRow("q?", "math", "evaluates to zero when k > n")
    assert golden_key([row]) == golden_key([row._replace(answer="")])
    assert golden_key([row]) != golden_key([row._replace(answer="zero")])
    assert dataset_key("d", DOCS, [row]) != dataset_key("d", DOCS, [row._replace(answer="zero")])


def test_the_store_keeps_a_datasets_answer_keys(tmp_path):
    from rag_core.store import Store
    store = Store(tmp_path / "runs.sqlite")
    rows = [GoldenRow("q?", "math", "evaluates to zero when k > n", "zero when k > n"),
            GoldenRow("r?", "math", "evaluates to zero when k > n")]
    key = store.save_dataset("d", DOCS, rows)
    assert store.load_dataset(key).golden == tuple(rows)
