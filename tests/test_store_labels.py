"""People's labels in the store (on SQLite, and on PostgreSQL for those marked BOTH_BACKENDS): set,
replace, clear, list newest first, filter by label and question words, kept apart by dataset, forgotten with their
dataset, exported as cases the `judge` command reads; and a file from before labels gains the table, keeping its
runs."""
import sqlite3
from contextlib import closing

import pytest

from rag_core.evaluation.cases import read_cases
from rag_core.evaluation.setup import Setup
from rag_core.store import FILE_NAME, Store, label_id
from stores import BOTH_BACKENDS, DOCS, GOLDEN, RESULT, open_store

SPANS = ("The launch code for the rocket is 7741.", "A draft says 1234.")
Q = "What is the launch code?"


@pytest.fixture
def store(request, tmp_path):
    """A SQLite store; on PostgreSQL too for the round trips marked BOTH_BACKENDS (tests/stores.py)."""
    return open_store(request, tmp_path)


@BOTH_BACKENDS
def test_a_label_is_set_replaced_and_cleared(store):
    labels = store.labels
    key = labels.set("bundled", Q, "It is 7741 [S1].", SPANS, "right", anchor="code is 7741", doc="a.txt",
                     source="scripted")
    assert key == label_id("bundled", Q, "It is 7741 [S1].", SPANS)
    got = labels.get("bundled", Q, "It is 7741 [S1].", list(SPANS))
    assert (got.label, got.spans, got.anchor, got.doc, got.source) == ("right", SPANS, "code is 7741", "a.txt",
                                                                      "scripted")
    assert labels.set("bundled", Q, "It is 7741 [S1].", SPANS, "wrong") == key          # the same answer: replaced
    assert [(x.id, x.label) for x in labels.list()] == [(key, "wrong")]
    labels.clear(key)
    assert labels.list() == [] and labels.get("bundled", Q, "It is 7741 [S1].", SPANS) is None


@BOTH_BACKENDS
def test_labels_are_listed_newest_first_filtered_and_kept_apart_by_dataset(store):
    labels = store.labels
    a = labels.set("bundled", Q, "7741 [S1].", SPANS, "right")
    b = labels.set("bundled", "Which draft?", "1234 [S2].", SPANS, "wrong")
    c = labels.set("user-0123456789abcdef", Q, "7741 [S1].", SPANS, "right")
    assert {x.id for x in labels.list()} == {a, b, c} and len({a, b, c}) == 3
    assert [x.id for x in labels.list("bundled")] in ([b, a], [a, b])          # the same second: either order
    assert [x.id for x in labels.list("bundled", label="wrong")] == [b]
    assert [x.id for x in labels.list("bundled", question="LAUNCH")] == [a]
    assert labels.list("stdlib") == []
    labels.clear_dataset("user-0123456789abcdef")
    assert {x.id for x in labels.list()} == {a, b}


@BOTH_BACKENDS
def test_a_dataset_deleted_takes_its_labels_and_delete_all_takes_every_label(store):
    key = store.save_dataset("rockets", DOCS, GOLDEN)
    store.labels.set(key, Q, "7741 [S1].", SPANS, "right")
    store.labels.set("bundled", Q, "7741 [S1].", SPANS, "right")
    store.delete_dataset(key)
    assert [x.dataset_key for x in store.labels.list()] == ["bundled"]
    store.delete_all()
    assert store.labels.list() == []


@BOTH_BACKENDS
def test_bad_labels_are_refused(store):
    with pytest.raises(ValueError, match="'right' or 'wrong'"):
        store.labels.set("bundled", Q, "7741 [S1].", SPANS, "maybe")
    with pytest.raises(ValueError, match="empty answer"):
        store.labels.set("bundled", Q, "  ", SPANS, "right")


@BOTH_BACKENDS
def test_labels_export_as_cases_the_judge_command_reads(store):
    store.labels.set("bundled", Q, "7741 [S1].", SPANS, "right", anchor="code for the rocket is 7741")
    store.labels.set("bundled", Q, 'Say "1234" [S2].\nReally.', SPANS, "wrong", anchor="code for the rocket is 7741")
    cases, problems = read_cases(store.labels.as_cases(store.labels.list("bundled")))
    assert problems == [] and sorted((c.answer, c.label, c.spans) for c in cases) == \
        [("7741 [S1].", "right", SPANS), ('Say "1234" [S2].\nReally.', "wrong", SPANS)]


def test_a_store_that_keeps_nothing_keeps_no_label():
    off = Store(None)
    assert off.labels.set("bundled", Q, "7741 [S1].", SPANS, "right") is None and off.labels.list() == []


def test_a_file_from_before_labels_gains_the_table_and_keeps_its_runs(tmp_path):
    path = tmp_path / FILE_NAME
    old = Store(path)
    run = old.save_run(Setup("s"), [RESULT], "bundled", "Bundled", "g-1")
    with closing(sqlite3.connect(path)) as con:
        con.execute("DROP TABLE labels")
        con.commit()
    again = Store(path)
    assert again.load_run(run).results == [RESULT]
    again.labels.set("bundled", Q, "7741 [S1].", SPANS, "right")
    assert len(again.labels.list()) == 1
