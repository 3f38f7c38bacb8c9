"""People's labels in the PostgreSQL store: test_store_labels.py's round trips again, against a real server (the
session's `pg`, tests/pg_server.py); the same SQL, run by the other backend."""
import pytest

from rag_core.store import Store
from test_store_labels import (  # noqa: F401  collected again here: they run against this module's `store`
    test_a_dataset_deleted_takes_its_labels_and_delete_all_takes_every_label, test_a_label_is_set_replaced_and_cleared,
    test_bad_labels_are_refused, test_labels_are_listed_newest_first_filtered_and_kept_apart_by_dataset,
    test_labels_export_as_cases_the_judge_command_reads)


@pytest.fixture
def store(pg):
    """The store in the server's `postgres` database, emptied."""
    s = Store.postgres(pg.url())
    s.delete_all()
    return s


def test_tables_made_before_labels_gain_the_labels_table(pg, store):
    store.labels.set("bundled", "q?", "a [S1].", ["a"], "right")
    pg.sql("DROP TABLE openbook_store_labels")
    again = Store.postgres(pg.url())
    assert again.labels.list() == []                       # created anew on first use, empty
    again.labels.set("bundled", "q?", "a [S1].", ["a"], "wrong")
    assert [x.label for x in again.labels.list()] == ["wrong"]
