"""Every page and the CLI on PostgreSQL + pgvector, against a real server (the session's `pg`, tests/pg_server.py).

The in-process index is the reference: on the exact PostgreSQL engine every table, every comparison and
every page shows the same chunks and numbers. Then what a user meets when the database fails: no URL, a
wrong password, a server that is down, a server that goes away between the sidebar's check and a search;
each is a readable sentence, the password never shown, and the pages keep working in process.
"""
from __future__ import annotations

import re
from contextlib import contextmanager

import pandas as pd
import pytest

from rag_core import ARTICLE_CHUNKER, ChunkerConfig, Workbench
from rag_core.__main__ import main
from rag_core.evaluation import tables
from rag_core.evaluation.compare import compare_setups
from rag_core.evaluation.setup import default_setup, parse_setup
from rag_core.retrieval.engines.registry import ENV

from apptest_helpers import (CUTOFF, assert_fine, chunk_labels, expected_labels, markdowns, open_any, open_page, screen,
                             shown)

PASSWORD = "s3cret-Pa55"
USER = "dashboard"
EXACT_TABLES = [n for n in tables.TABLES if n != "latency"]          # latency is timed anew on every run


@pytest.fixture(scope="module")
def memory_wb():
    return Workbench.bundled()


@pytest.fixture(scope="module")
def on_pg(pg, memory_wb):
    """The same workbench (memos shared, kept apart per engine) searching on PostgreSQL, exact."""
    return memory_wb.connected(pg.url()).using(engine="postgres")


@pytest.fixture(scope="module")
def reader(pg):
    """A role that must give its password, and a database it owns (pgvector created there by the superuser)."""
    return pg.database_for(USER, PASSWORD, "openbook_ui")


# ---------------------------------------------------------------- the library

@pytest.mark.parametrize("retriever", ["hashing", "bm25"])
@pytest.mark.parametrize("name", EXACT_TABLES)
def test_every_table_is_the_same_on_postgres(memory_wb, on_pg, name, retriever):
    want = tables.TABLES[name](memory_wb.using(retriever=retriever), ARTICLE_CHUNKER)
    got = tables.TABLES[name](on_pg.using(retriever=retriever), ARTICLE_CHUNKER)
    pd.testing.assert_frame_equal(got, want)


@pytest.mark.parametrize("retriever", ["minilm", "hybrid"])
def test_the_trained_encoder_s_rankings_are_the_same_on_postgres(memory_wb, on_pg, retriever):
    for allowed in (None, {"current"}):
        want = memory_wb.using(retriever=retriever).top_ids(ARTICLE_CHUNKER, 20, allowed)
        got = on_pg.using(retriever=retriever).top_ids(ARTICLE_CHUNKER, 20, allowed)
        assert [g.tolist() for g in got] == [w.tolist() for w in want]


def test_rankings_are_remembered_per_engine(memory_wb, on_pg):
    """A ranking computed in process is never served for PostgreSQL (and back): each engine's memo is its own."""
    chunker = ChunkerConfig("fixed", 64, 8)
    memory_wb.top_ids(chunker, 5)
    assert on_pg.index(chunker).engine is on_pg.search_engine        # bound to the database, not the in-process one
    assert memory_wb.index(chunker).engine is None
    keys = [k for k in memory_wb._ranked if k[2] == chunker]
    on_pg.top_ids(chunker, 5)
    assert len([k for k in memory_wb._ranked if k[2] == chunker]) == len(keys) + 1


def test_a_comparison_names_its_engine_and_agrees(memory_wb, pg):
    wb = memory_wb.connected(pg.url())
    base = default_setup(wb)
    setups = [parse_setup(t, base) for t in ("mem: engine=memory", "pg: engine=postgres", "hnsw: engine=postgres-hnsw")]
    assert "engine=postgres-hnsw" in setups[2].to_text()
    result = compare_setups(wb, setups)
    board = result.leaderboard.drop(columns=["mean_seconds", "chunks"]).set_index("setup")
    assert board.loc["mem"].tolist() == board.loc["pg"].tolist()
    assert result.grid["mem rank"].tolist() == result.grid["pg rank"].tolist()
    assert result.grid["mem stage"].tolist() == result.grid["pg stage"].tolist()


def test_the_approximate_engine_s_overlap_with_exact_search_is_measured(on_pg):
    exact = on_pg.overlap_with_exact(ARTICLE_CHUNKER, 20, {"current"})
    approx = on_pg.using(engine="postgres-hnsw").overlap_with_exact(ARTICLE_CHUNKER, 20, {"current"})
    assert exact == 1.0
    assert 0.5 <= approx <= 1.0
    assert on_pg.using(engine="postgres-hnsw").index(ARTICLE_CHUNKER).engine.approximate


def test_a_stopped_server_is_seen_on_the_engine_s_connection_without_a_query(pg):
    """What the frame looks at once a run: the engine's open connection, read without a round trip."""
    from rag_core.retrieval.engines.registry import engine_from
    engine = engine_from("postgres", pg.url())
    assert not engine.still_open()                   # nothing opened yet
    engine.check()
    assert engine.still_open() and engine.still_open()
    pg.stop()
    try:
        assert not engine.still_open()
    finally:
        pg.start()
    engine.check()                                   # a restarted server: connected again
    assert engine.still_open()
    engine.close()


def test_an_unknown_engine_says_which_exist(memory_wb):
    with pytest.raises(ValueError, match="memory, postgres, postgres-hnsw"):
        memory_wb.using(engine="elastic")


# ---------------------------------------------------------------- the command line

def run(capsys, *args) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_report_on_postgres_equals_in_process(capsys, pg, monkeypatch):
    monkeypatch.setenv(ENV, pg.url())
    tables_ = "ceiling,strategies,filter,rerank,pipeline"
    here = run(capsys, "report", "--tables", tables_)
    there = run(capsys, "report", "--tables", tables_, "--engine", "postgres")
    assert here[0] == there[0] == 0 and there[1] == here[1]


def test_compare_runs_setups_on_both_engines(capsys, pg):
    code, out, err = run(capsys, "compare", "--database-url", pg.url(), "--setup", "here: engine=memory",
                         "--setup", "there: engine=postgres", "--format", "json")
    assert code == 0, err
    assert "engine=postgres" in out


@pytest.mark.parametrize("args, says", [
    (["--engine", "postgres", "--database-url", "URL:wrong"], "rejected the password of user 'dashboard'"),
    (["--engine", "postgres"], "No database URL"),
    (["--database-url", "URL"], "--database-url goes with --engine postgres"),
])
def test_engine_errors_are_one_line_without_the_password(capsys, reader, monkeypatch, args, says):
    monkeypatch.delenv(ENV, raising=False)
    args = [a.replace("URL:wrong", reader.replace(PASSWORD, "wrong")).replace("URL", reader) for a in args]
    code, out, err = run(capsys, "report", "--tables", "ceiling", *args)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and says in err
    assert PASSWORD not in err and "wrong" not in err.replace("wrong-", "")


def test_a_server_that_is_down_is_one_line(capsys, pg):
    pg.stop()
    try:
        code, _, err = run(capsys, "report", "--tables", "ceiling", "--engine", "postgres", "--database-url", pg.url())
    finally:
        pg.start()
    assert code == 2 and "cannot be reached" in err and err.count("\n") == 1


# ---------------------------------------------------------------- the pages

def on_postgres(at, url: str, engine: str = "postgres"):
    at.sidebar.selectbox(key="engine").set_value(engine).run()
    at.sidebar.text_input(key="_database_url_field").set_value(url).run()
    assert_fine(at)
    assert at.sidebar.text_input(key="_database_url_field").value == ""     # kept on the server, the field emptied
    return at


def everything_shown(at) -> str:
    """Every text on screen, as read (escapes and code marks taken off), the fields' values too."""
    parts = markdowns(at) + [e.value for e in at.error] + [w.value for w in at.warning] + [c.value for c in at.caption]
    parts += [t.value for t in at.text_input] + [t.placeholder for t in at.text_input]
    return shown("\n".join(parts)).replace("`", "")


def test_ask_on_postgres_shows_the_same_chunks(reader, memory_wb):
    at = open_page("ask")
    on_postgres(at, reader)
    assert "Searching on PostgreSQL at postgresql://dashboard:***@" in everything_shown(at)
    at.text_input(key="ask_question").set_value(CUTOFF).run()
    assert_fine(at)
    assert chunk_labels(at) == expected_labels(memory_wb, CUTOFF)
    assert PASSWORD not in everything_shown(at) and PASSWORD not in str(dict(at.query_params))
    assert at.query_params["engine"] == ["postgres"] or at.query_params["engine"] == "postgres"


def test_ablations_on_postgres_shows_the_same_tables(reader):
    here = open_page("ablations")
    there = open_page("ablations", query={"engine": "postgres"}, session={"database_url": reader})
    assert "Searching on PostgreSQL" in everything_shown(there)
    for i, (a, b) in enumerate(zip(here.dataframe, there.dataframe)):
        if i != 6:                                          # the latency table, timed anew
            pd.testing.assert_frame_equal(a.value, b.value)


def test_the_approximate_engine_shows_its_overlap_with_exact_search(reader):
    at = on_postgres(open_page("overview"), reader, "postgres-hnsw")
    assert any("Overlap with exact search in the first 20 chunks, on the 18 golden questions" in c.value for c in at.sidebar.caption)


def test_forget_this_url_goes_back_to_the_server_s_setting(reader, monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    at = on_postgres(open_page("overview"), reader)
    assert at.sidebar.text_input(key="_database_url_field").placeholder.startswith("set (hidden)")
    at.sidebar.button(key="engine_forget_url").click().run()
    assert_fine(at)
    assert any("No database URL" in e.value for e in at.sidebar.error)


def test_a_wrong_password_is_said_never_shown_and_pages_work_in_process(reader, memory_wb):
    at = on_postgres(open_page("ask"), reader.replace(PASSWORD, "not-" + PASSWORD[::-1]))
    errors = " ".join(e.value for e in at.sidebar.error)
    assert "rejected the password of user 'dashboard'" in errors and "searches in process" in errors
    assert PASSWORD[::-1] not in everything_shown(at)
    at.text_input(key="ask_question").set_value(CUTOFF).run()
    assert_fine(at)
    assert chunk_labels(at) == expected_labels(memory_wb, CUTOFF)          # in process meanwhile


def test_a_server_down_then_back_after_try_again(pg, reader, memory_wb):
    at = open_page("ask")
    pg.stop()
    try:
        on_postgres(at, reader)
        assert any("cannot be reached" in e.value for e in at.sidebar.error)
        at.text_input(key="ask_question").set_value(CUTOFF).run()
        assert chunk_labels(at) == expected_labels(memory_wb, CUTOFF)
    finally:
        pg.start()
    at.sidebar.button(key="engine_retry").click().run()
    assert_fine(at)
    assert not at.sidebar.error and "Searching on PostgreSQL" in everything_shown(at)
    assert chunk_labels(at) == expected_labels(memory_wb, CUTOFF)


@contextmanager
def refused(pg):
    """The database answers, but refuses every table to the dashboard's user: a search fails after the check (as
    one does when the server stops between the frame's look and a search), while the connection stays open."""
    pg.sql(f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {USER}", database="openbook_ui")
    try:
        yield
    finally:
        pg.sql(f"GRANT ALL ON ALL TABLES IN SCHEMA public TO {USER}", database="openbook_ui")


def test_a_search_that_fails_after_the_check_is_a_message(pg, reader):
    at = on_postgres(open_page("ask"), reader)
    assert not at.sidebar.error
    with refused(pg):
        at.text_input(key="ask_question").set_value("How does bisect.insort keep a list sorted?").run()
        assert not at.exception and not chunk_labels(at)
        assert any("permission denied" in shown(e.value) for e in at.main.error)       # said where the search was
        assert PASSWORD not in everything_shown(at)


def test_a_stopped_database_is_not_claimed_on_the_next_run(pg, reader, memory_wb):
    """The database stops while nothing searches (every ranking already kept): the very next run of the page says
    it searches in process, in the sidebar and on the page, and does; never "Searching on PostgreSQL"."""
    at = on_postgres(open_page("ask"), reader)
    at.text_input(key="ask_question").set_value(CUTOFF).run()
    assert "Searching on PostgreSQL" in everything_shown(at) and chunk_labels(at)
    pg.stop()
    try:
        at.run()
        assert_fine(at)
        assert "Searching on PostgreSQL" not in everything_shown(at)
        assert any("cannot be reached" in shown(e.value) and "every page searches in process" in e.value
                   for e in at.sidebar.error)
        assert any(w.value.startswith("Searching in process") for w in at.main.warning)
        assert chunk_labels(at) == expected_labels(memory_wb, CUTOFF)
    finally:
        pg.start()


def test_a_page_without_its_own_error_handling_says_the_search_stopped(pg, reader):
    at = open_page("ablations", query={"engine": "postgres"}, session={"database_url": reader})
    assert not at.sidebar.error
    with refused(pg):
        at.sidebar.selectbox(key="retriever").set_value("bm25").run()     # tables not computed yet: they search
        assert not at.exception
        assert any("The search stopped" in e.value and "permission denied" in shown(e.value) for e in at.main.error)
        assert PASSWORD not in everything_shown(at)
    at.button(key="engine_failed_rerun").click().run()                 # allowed again: the page is whole
    assert_fine(at)
    assert not at.main.error and len(at.dataframe) == 9 + 2      # and the two "what the article's words mean" tables


def test_compare_on_postgres_keeps_its_runs_in_the_same_database(reader, monkeypatch):
    """The Compare page searching on PostgreSQL, its runs kept there too (OPENBOOK_STORE=postgres): another session
    (another dashboard behind a load balancer) lists them."""
    from rag_core.store import Store
    here = open_page("compare")
    monkeypatch.setenv("OPENBOOK_STORE", "postgres")
    monkeypatch.setenv(ENV, reader)
    there = open_page("compare", query={"engine": "postgres"})
    assert "Searching on PostgreSQL" in everything_shown(there)
    assert "kept in PostgreSQL at postgresql://dashboard:***@" in everything_shown(there)
    assert there.dataframe[0].value["engine"].tolist() == ["postgres"] * 3                  # the setups say so
    board = [at.dataframe[1].value.drop(columns=["mean seconds"], errors="ignore") for at in (here, there)]
    pd.testing.assert_frame_equal(*board)
    there.button(key="compare_save").click().run()
    assert_fine(there)
    kept = Store.postgres(reader).list_runs()
    assert sorted(r.name for r in kept)[-3:] == sorted(["as in Ask", "filter off", "rerank off"])
    assert all("engine=postgres" in r.setup for r in kept)
    other = open_page("compare")
    assert sorted(other.dataframe[-1].value["name"]) == sorted(r.name for r in kept)
    assert PASSWORD not in everything_shown(other)


@pytest.mark.parametrize("name, query", [
    ("overview", {}), ("corpus", {}), ("ask", {"ask_question": CUTOFF}), ("ablations", {}), ("compare", {}),
    ("your_data", {}), ("model", {}), ("ask", {"ask_question": CUTOFF, "retriever": "minilm", "reranker": "dense"}),
    ("ask", {"ask_question": "How do I keep a list sorted while inserting?", "retriever": "hybrid"}),
])
def test_every_page_shows_the_same_on_postgres(reader, name, query):
    here, there = open_any(name, query), open_any(name, {**query, "engine": "postgres"}, {"database_url": reader})
    assert "Searching on PostgreSQL" in everything_shown(there) and not there.sidebar.error
    a, b = screen(here), screen(there)
    assert a["texts"] == b["texts"] and a["metrics"] == b["metrics"] and len(a["frames"]) == len(b["frames"])
    for x, y in zip(a["frames"], b["frames"]):
        pd.testing.assert_frame_equal(x, y)


@pytest.mark.parametrize("name", ["overview", "ablations"])
def test_an_upload_is_indexed_in_the_database_under_its_own_key(pg, reader, name):
    """An upload's own tables (keyed by its content), the same figures as in process."""
    from rag_core.data.corpus import bundled_corpus
    from rag_core.data.golden import load_golden
    from ui import datasets
    docs = [d for d in bundled_corpus().documents if d.id != "statistics"]
    mine = datasets.make_dataset("my documents", docs, [r for r in load_golden() if r.doc != "statistics"])
    from rag_core.data.corpus import Corpus
    from rag_core.retrieval.engines.pgtables import corpus_key
    here = open_any(name, {}, {"dataset": mine})
    there = open_any(name, {"engine": "postgres"}, {"dataset": mine, "database_url": reader})
    mine_key = corpus_key(Corpus(mine.documents, name=mine.name))
    assert pg.sql("SELECT count(*) FROM openbook_indexes WHERE dataset = %s", (mine_key,), database="openbook_ui")[0][0]
    assert "Searching on PostgreSQL" in everything_shown(there) and "my documents" in everything_shown(there)
    a, b = screen(here), screen(there)
    assert a["texts"] == b["texts"] and a["metrics"] == b["metrics"]
    for x, y in zip(a["frames"], b["frames"]):
        pd.testing.assert_frame_equal(x, y)


@pytest.fixture(scope="module")
def no_vector(pg):
    """A database whose owner may not create the `vector` extension."""
    pg.add_user("novec", "pw-novec")
    pg.create_database("openbook_novec", owner="novec")
    return pg.url("novec", "pw-novec", "openbook_novec")


@pytest.mark.parametrize("case, says", [
    ("no extension", "has no 'vector' extension and user 'novec' may not create it"),
    ("no database", "has no database 'openbook_nowhere': create it"),
    ("malformed", "the database URL is malformed. Write it as postgresql://user:password@host:5432/database."),
])
def test_each_database_problem_is_a_sentence_on_the_page(pg, no_vector, memory_wb, case, says):
    url = {"no extension": no_vector, "no database": no_vector.replace("openbook_novec", "openbook_nowhere"),
           "malformed": "postgresql://novec:pw-novec@[::1/x"}[case]
    at = on_postgres(open_page("ask"), url)
    errors = shown(" ".join(e.value for e in at.sidebar.error)).replace("`", "")
    assert says in errors and "every page searches in process" in errors, errors
    assert "pw-novec" not in everything_shown(at)
    at.text_input(key="ask_question").set_value(CUTOFF).run()
    assert chunk_labels(at) == expected_labels(memory_wb, CUTOFF)


def test_a_server_restarted_between_two_questions_goes_unnoticed(pg, reader, memory_wb):
    at = on_postgres(open_page("ask"), reader)
    at.text_input(key="ask_question").set_value(CUTOFF).run()
    pg.restart()
    question = "Who can read the directory created by mkdtemp?"
    at.text_input(key="ask_question").set_value(question).run()
    assert_fine(at)
    assert not at.error and chunk_labels(at) == expected_labels(memory_wb, question)
    assert "Searching on PostgreSQL" in everything_shown(at)


def test_the_approximate_engine_s_overlap_is_a_note_on_the_command_line(capsys, pg):
    code, out, err = run(capsys, "report", "--tables", "ceiling", "--engine", "postgres-hnsw", "--database-url", pg.url())
    assert code == 0 and out
    assert re.search(r"^note: postgres-hnsw is approximate: overlap with exact search in the first 20 chunks, on the 18 golden questions "
                     r"\(fixed 160/32, trusted statuses\): [01]\.\d{3}\.$", err, re.M), err


def test_your_data_lists_the_stored_indexes_and_drops_them(pg, reader, memory_wb):
    at = open_any("your_data", {"engine": "postgres"}, {"database_url": reader})
    listed = next(d.value for d in at.main.dataframe if {"retriever", "MB"} <= set(d.value.columns))
    stored = pg.sql("SELECT count(*) FROM openbook_indexes", database="openbook_ui")[0][0]
    assert 1 <= len(listed) <= stored and listed["active dataset"].any()     # the page builds more below the list
    at.button(key="engine_drop_mine").click().run()
    assert_fine(at)
    left = pg.sql("SELECT count(*) FROM openbook_indexes", database="openbook_ui")[0][0]
    assert left < stored
    ask = on_postgres(open_page("ask"), reader)                     # dropped: the next search builds it again
    ask.text_input(key="ask_question").set_value(CUTOFF).run()
    assert_fine(ask)
    assert chunk_labels(ask) == expected_labels(memory_wb, CUTOFF)
    assert pg.sql("SELECT count(*) FROM openbook_indexes", database="openbook_ui")[0][0] > left
    every = open_any("your_data", {"engine": "postgres"}, {"database_url": reader})
    every.button(key="engine_drop_all").click().run()
    assert_fine(every)
    assert pg.sql("SELECT count(*) FROM openbook_indexes WHERE built_at < now() - interval '1 second'",
                  database="openbook_ui")[0][0] == 0              # every older one dropped (the page rebuilt its own)


def test_the_page_itself_says_when_it_searches_in_process(monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    at = open_page("overview", query={"engine": "postgres"})
    assert any("No database URL" in e.value for e in at.sidebar.error)
    assert any(w.value.startswith("Searching in process: the database chosen") for w in at.main.warning)
    assert not open_page("overview").main.warning                     # nothing said when nothing is wrong


def test_compare_starts_from_the_engine_in_use(monkeypatch):
    """A database that cannot be used: the pages search in process, and so do the Compare page's first setups."""
    monkeypatch.delenv(ENV, raising=False)
    at = open_page("compare", query={"engine": "postgres"})
    assert at.dataframe[0].value["engine"].tolist() == ["memory"] * 3
    assert not at.main.error
