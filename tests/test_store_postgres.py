"""The run store in PostgreSQL, against a real server (the session's `pg`, tests/pg_server.py): nothing is mocked.

The round trips run on both backends in test_store.py (BOTH_BACKENDS, tests/stores.py). Here, what only a server
does: processes and threads starting at once create the tables once and lose no
run, a server that stops and comes back, a connection cut mid-write, a wrong password, store tables of another
format or someone else's, a user that may not create tables, tables dropped by hand, and how OPENBOOK_STORE
chooses the backend. The password never appears in a message, describe() or repr().
"""
import re
import subprocess
import sys
import threading
import time

import psycopg
import pytest

from rag_core.evaluation.setup import Setup
from rag_core.retrieval.engines.pgtables import lock_id
from rag_core.store import FILE_NAME, SCHEMA, Store
from rag_core.store.postgres import TABLES, VERSION_TABLE
from rag_core.text.credentials import mask_secrets
from stores import RESULT, ROOT

USER, PASSWORD = "keeper", "s3cret-Horse&7"        # a role that owns the fresh databases and gives its password
STORE_TABLES = [*TABLES.values(), VERSION_TABLE]


@pytest.fixture(scope="module")
def keeper(pg):
    pg.add_user(USER, PASSWORD)


@pytest.fixture
def store(pg):
    """The store in the server's `postgres` database, emptied."""
    s = Store.postgres(pg.url())
    s.delete_all()
    return s


@pytest.fixture
def fresh(pg, keeper, request):
    """A new database owned by USER, without tables: (its name, its URL with USER's password)."""
    name = "store_" + re.sub(r"\W+", "_", request.node.name.lower())[:50]
    pg.create_database(name, owner=USER)
    return name, pg.url(USER, PASSWORD, name)


def save(store, name):
    return store.save_run(Setup(name), [RESULT], "bundled", "Bundled", "g-1")


def poll(pg, query, until, seconds=30):
    """The first row of `query` (run as the superuser) for which until(row) holds; fails after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        rows = pg.sql(query)
        if rows and until(rows[0]):
            return rows[0]
        assert time.monotonic() < deadline, f"still not there after {seconds} s: {query}"
        pg.sql("SELECT pg_sleep(0.02)")


def store_tables(pg, database):
    return pg.sql("SELECT tablename FROM pg_tables WHERE tablename LIKE 'openbook_store%' ORDER BY 1",
                  database=database)


# ---- writers at once ------------------------------------------------------------------------------

WRITER = """
import sys
from rag_core.evaluation.losses import QuestionResult
from rag_core.evaluation.setup import Setup
from rag_core.store import Store
store, tag = Store.postgres(sys.argv[1]), sys.argv[2]
r = QuestionResult("q", "d", 1, 1, "answered", False, "answered", "a", "r", 0.0)
for i in range(20):
    store.save_run(Setup(f"{tag}-{i}"), [r], "bundled", "Bundled", "g-1")
"""


def test_processes_and_threads_starting_at_once_create_the_tables_once_and_lose_nothing(pg, fresh):
    name, url = fresh
    here, errors = Store.postgres(url), []

    def write(t):
        try:
            for i in range(10):
                save(here, f"t{t}-{i}")
        except Exception as e:              # noqa: BLE001  (reported below)
            errors.append(e)

    gate = psycopg.connect(pg.url(database=name), autocommit=True)
    try:
        with gate.transaction():            # holds the lock the creators take: every writer waits at the gate
            gate.execute("SELECT pg_advisory_xact_lock(%s)", (lock_id("store schema"),))
            procs = [subprocess.Popen([sys.executable, "-c", WRITER, url, f"p{n}"], cwd=ROOT, text=True,
                                      stderr=subprocess.PIPE) for n in range(2)]
            threads = [threading.Thread(target=write, args=(t,)) for t in range(4)]
            for th in threads:
                th.start()
            poll(pg, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
                 lambda row: row[0] == 3)   # both processes, and this one (its threads queue behind one check)
        for th in threads:
            th.join()
        for p in procs:
            assert p.wait(timeout=120) == 0, p.stderr.read()
    finally:
        gate.close()
    assert errors == []
    names = sorted(r.name for r in here.list_runs())
    assert names == sorted([f"p{n}-{i}" for n in range(2) for i in range(20)] +
                           [f"t{t}-{i}" for t in range(4) for i in range(10)])
    assert pg.sql(f"SELECT version FROM {VERSION_TABLE}", database=name) == [(SCHEMA,)]    # created once


# ---- failures: readable, nothing lost, never a password -------------------------------------------------

def test_a_server_stopped_then_back(pg, store):
    before = save(store, "before")
    pg.stop()
    try:
        for call in (store.list_runs, lambda: save(store, "during")):
            with pytest.raises(ValueError, match=r"PostgreSQL at .* cannot be reached .* is the server running.* "
                                                 r"unset it to keep them in the data folder") as err:
                call()
            assert "in-process engine" not in str(err.value)     # pgwire's advice for searches is not for the store
    finally:
        pg.start()
    assert [r.id for r in store.list_runs()] == [before]         # nothing lost; the store comes back by itself
    assert save(store, "after") > before


def test_a_connection_cut_mid_write_is_opened_again_and_the_run_kept_once(pg, store):
    store.check()
    errors = []
    writer = threading.Thread(target=lambda: errors.append(None) if save(store, "cut") else None)
    waiting = ("SELECT pid FROM pg_stat_activity WHERE application_name = 'openbook-store' "
               "AND wait_event_type = 'Lock'")
    admin = psycopg.connect(pg.url(), autocommit=True)
    try:
        with admin.transaction():           # the save's INSERT waits for this lock; its connection is cut there
            admin.execute(f"LOCK TABLE {TABLES['runs']} IN ACCESS EXCLUSIVE MODE")
            writer.start()
            first = poll(pg, waiting, lambda row: True)[0]
            admin.execute("SELECT pg_terminate_backend(%s)", (first,))
            poll(pg, waiting, lambda row: row[0] != first)           # the save, again, on a new connection
        writer.join(60)
    finally:
        admin.close()
    assert errors == [None]                 # the save returned an id
    assert [r.name for r in store.list_runs()] == ["cut"]


def test_a_wrong_password_is_said_and_never_shown(pg, keeper):
    store = Store.postgres(pg.url(USER, "Tr0ub4dor&3"))
    with pytest.raises(ValueError) as err:
        store.list_runs()
    message = str(err.value)
    assert f"rejected the password of user '{USER}'" in message and "check the user and password" in message
    for shown in (message, repr(store), store.describe()):
        assert "Tr0ub4dor" not in shown and "Tr0ub4dor%263" not in shown, shown


def expect_clear_error(pg, name, url, *words):
    """Every call fails with a ValueError naming the database (password masked) and the fix; nothing touched."""
    store = Store.postgres(url)
    before = store_tables(pg, name)
    for call in (store.list_runs, lambda: save(store, "x")):
        with pytest.raises(ValueError) as err:
            call()
        message = str(err.value)
        assert f"PostgreSQL at {mask_secrets(url, url)}" in message and f"{USER}:***@" in message, message
        assert "DROP TABLE" in message and "unset OPENBOOK_STORE" in message, message
        assert PASSWORD not in message and "s3cret" not in message
        for w in words:
            assert w in message, message
    assert store_tables(pg, name) == before


def as_owner(url, *statements):
    with psycopg.connect(url, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


@pytest.mark.parametrize("version, words", [(0, "an older version of Open Book (format 0"),
                                            (SCHEMA + 1, "a newer version of Open Book")])
def test_store_tables_of_another_format(pg, fresh, version, words):
    name, url = fresh
    as_owner(url, f"CREATE TABLE {VERSION_TABLE} (version integer NOT NULL)",
             f"INSERT INTO {VERSION_TABLE} VALUES ({version})")
    expect_clear_error(pg, name, url, words, f"this one reads format {SCHEMA}")
    assert pg.sql(f"SELECT version FROM {VERSION_TABLE}", database=name) == [(version,)]


def test_store_tables_someone_else_wrote(pg, fresh):
    name, url = fresh
    as_owner(url, f"CREATE TABLE {TABLES['runs']} (id integer PRIMARY KEY, setup text)")
    expect_clear_error(pg, name, url, "not ones Open Book wrote", f"{VERSION_TABLE} is missing")


def test_a_user_that_may_not_create_tables(pg):
    pg.add_user("guest", "guest-pw")
    pg.create_database("store_guest")                       # owned by postgres: guest may connect, not create
    store = Store.postgres(pg.url("guest", "guest-pw", "store_guest"))
    with pytest.raises(ValueError, match="refused: permission denied for schema public. Give the database user "
                                         "CREATE on schema public"):
        store.list_runs()
    pg.sql("GRANT CREATE ON SCHEMA public TO guest", database="store_guest")        # once granted, it works
    assert save(store, "granted") and store.list_runs()[0].name == "granted"


def test_tables_dropped_by_hand_start_an_empty_store(pg, store):
    save(store, "gone")
    pg.sql(f"DROP TABLE {', '.join(STORE_TABLES)}")
    assert store.list_runs() == []
    assert save(store, "new") and [r.name for r in store.list_runs()] == ["new"]


# ---- which store -----------------------------------------------------------------------------------

def test_OPENBOOK_STORE_chooses_the_database(pg, tmp_path):
    chosen = Store.default({"OPENBOOK_STORE": "postgres", "OPENBOOK_DATABASE_URL": pg.url(),
                            "OPENBOOK_DATA_DIR": "off"})           # the data folder is for the file, not the database
    assert chosen.enabled and chosen.path is None
    run = save(chosen, "shared")
    assert Store.postgres(pg.url()).load_run(run).info.name == "shared"       # another dashboard sees it
    for env in ({}, {"OPENBOOK_STORE": "sqlite"}, {"OPENBOOK_STORE": " "}):
        assert Store.default({**env, "OPENBOOK_DATA_DIR": str(tmp_path)}).path == tmp_path / FILE_NAME
    with pytest.raises(ValueError, match="No database for the saved runs: set OPENBOOK_DATABASE_URL .* or unset "
                                         "OPENBOOK_STORE to keep them in the data folder"):
        Store.default({"OPENBOOK_STORE": "postgres", "OPENBOOK_DATABASE_URL": " "})
    with pytest.raises(ValueError, match="OPENBOOK_STORE='mysql' names no store: set it to 'postgres'"):
        Store.default({"OPENBOOK_STORE": "MySQL"})


def test_what_the_page_says_never_holds_the_password():
    store = Store.default({"OPENBOOK_STORE": "postgres",                 # nothing connects before the first call
                           "OPENBOOK_DATABASE_URL": "postgresql://ann:s3cret@db.example:5432/openbook"})
    text = store.describe()
    assert "PostgreSQL at postgresql://ann:***@db.example:5432/openbook" in text
    assert all(t in text for t in STORE_TABLES) and "drop those tables" in text and "unset OPENBOOK_STORE" in text
    assert "s3cret" not in text + repr(store)
