"""People's labels in the PostgreSQL store, what only a server does (test_store_labels.py runs the round trips on
both backends): tables made before labels gain the labels table."""
import pytest

from rag_core.store import Store


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
