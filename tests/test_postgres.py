"""PostgreSQL + pgvector as the search engine, against a real server (tests/pg_server.py): nothing is mocked.

Equality first: the exact engine must give the in-process index's top k chunk for chunk (ids, scores, notes),
for every retriever, chunker and filter on the bundled corpus, and on 200 questions over a corpus of real
text from this machine. Then the stored tables (built once, reused, one build for two processes), the
approximate mode, and every failure: a server stopped, restarted, a connection cut mid-query, a wrong
password, a database without the `vector` extension, a build that fails half-way.
"""
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import psycopg
import pytest

from rag_core import ARTICLE_CHUNKER, ChunkerConfig, Corpus, Document, Index, TokenizedCorpus
from rag_core.retrieval.engines import EngineError, MemoryEngine, PostgresEngine, overlap_with_exact, engine_from
from rag_core.retrieval.engines import pgtables
from rag_core.retrieval.engines.spaces import Vectors, csr_rows
from rag_core.retrieval.encoder import SparseMatrix
from rag_core.text.credentials import mask_secrets

ROOT = Path(__file__).resolve().parent.parent
MEMORY = MemoryEngine()
CHUNKERS = [ARTICLE_CHUNKER, ChunkerConfig("fixed", 40, 8), ChunkerConfig("fixed", 400, 0),
            ChunkerConfig("sentence", 3, 1), ChunkerConfig("structure", 200, 0)]
FILTERS = [None, {"current"}, {"draft", "outdated"}, {"outdated"}]


@pytest.fixture(scope="module")
def engine(pg):
    e = PostgresEngine(pg.url())
    yield e
    e.close()


def same(got, want):
    """The same chunks, notes and scores, to the last bit (MiniLM too: both sides sum each row on its own)."""
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.ids.tolist() == w.ids.tolist()
        assert g.notes == w.notes
        assert g.scores.tolist() == w.scores.tolist()


# ---- the pieces, by hand ----------------------------------------------------------------------------

def test_csr_rows_docstring_example():
    m = SparseMatrix(2, 3, np.array([0, 2, 2, 3]), np.array([0, 1, 0], np.int32), np.array([0.6, 1.0, 0.8], np.float32))
    ptr, cols, vals = csr_rows(m)
    assert ptr.tolist() == [0, 2, 3] and cols.tolist() == [0, 2, 0] and vals.tolist() == pytest.approx([0.6, 0.8, 1.0])


@pytest.mark.parametrize("url, shown, password", [
    ("postgresql://ann:s3cret@db:5432/ob", "postgresql://ann:***@db:5432/ob", "s3cret"),
    ("postgresql://ann:p%40ss%2Fw@db/ob", "postgresql://ann:***@db/ob", "p@ss/w"),
    ("postgresql://ann@db/ob?password=s3cret&sslmode=require", "postgresql://ann@db/ob?password=***&sslmode=require",
     "s3cret"),
    ("host=db user=ann password=s3cret dbname=ob", "host=db user=ann password=*** dbname=ob", "s3cret"),
    ("host=db password='s3 cret' dbname=ob", "host=db password=*** dbname=ob", "s3 cret"),
    ("postgresql://ann@/ob?host=/tmp/x", "postgresql://ann@/ob?host=/tmp/x", None),
])
def test_the_password_is_masked(url, shown, password):
    assert mask_secrets(url, url) == shown
    if password:
        assert password not in mask_secrets(f"could not connect with {url}: {password}!", url)


def test_engine_from_names_an_engine():
    assert engine_from("memory").name == "memory"
    assert engine_from("postgres", env={"OPENBOOK_DATABASE_URL": "postgresql://a:b@h/d"}).describe() == \
        "PostgreSQL at postgresql://a:***@h/d (exact)"
    with pytest.raises(EngineError, match="No database URL: set OPENBOOK_DATABASE_URL"):
        engine_from("postgres", env={})
    with pytest.raises(ValueError, match="Unknown search engine 'elastic'"):
        engine_from("elastic")


# ---- exact mode: the in-process top k, chunk for chunk ------------------------------------------------

@pytest.mark.parametrize("chunker", CHUNKERS, ids=lambda c: c.label)
def test_hashing_equals_in_process_for_every_chunker_and_filter(wb, engine, chunker):
    ix = wb.index(chunker)
    for allowed in FILTERS:
        for k in (1, 3, 50, 10 ** 6):
            same(engine.search_many(ix, wb.questions, k, allowed), MEMORY.search_many(ix, wb.questions, k, allowed))


@pytest.mark.parametrize("retriever", ["bm25", "minilm", "hybrid"])
def test_every_retriever_equals_in_process(wb, engine, retriever):
    ix = wb.using(retriever=retriever).index(ARTICLE_CHUNKER)
    for allowed in FILTERS:
        for k in (1, 5, 50, 10 ** 6):
            same(engine.search_many(ix, wb.questions, k, allowed), MEMORY.search_many(ix, wb.questions, k, allowed))


@pytest.mark.parametrize("copies", [3, 60])
@pytest.mark.parametrize("retriever", ["hashing", "bm25"])
def test_ties_keep_chunk_order(pg, engine, retriever, copies):
    # copies of the same documents: every chunk has twins with the very same score; with 60 copies the
    # first rows fetched are all tied, and every row within the rounding bound is fetched and re-scored
    from rag_core import bundled_corpus
    from rag_core.retrieval.retrievers import build_index
    docs = bundled_corpus().documents[:6 if copies == 3 else 1]
    corpus = Corpus(tuple(Document(f"{d.id}#{i}", d.text, d.status) for i in range(copies) for d in docs))
    ix = build_index(retriever, TokenizedCorpus(corpus), ChunkerConfig("fixed", 30, 0))
    qs = ["bisect insort sorted list", "heap push pop smallest", "zzzz unknown words only qqqq"]
    for k in (1, 2, 7, 40):
        same(engine.search_many(ix, qs, k, {"current"}), MEMORY.search_many(ix, qs, k, {"current"}))


@pytest.fixture(scope="module")
def large():
    """About 12,000 chunks of the machine's documentation and manual pages, and 200 questions cut from them."""
    from real_text import cut_questions, real_documents
    corpus = Corpus(tuple(real_documents(1_500_000, ("docs", "man"))), name="machine text")
    ix = Index.build(TokenizedCorpus(corpus), ARTICLE_CHUNKER)
    return ix, cut_questions(corpus.documents, ix, 200)


def test_large_corpus_200_questions_equal_in_process(engine, large):
    ix, questions = large
    assert len(ix) > 10_000
    same(engine.search_many(ix, questions, 50, {"current"}), MEMORY.search_many(ix, questions, 50, {"current"}))
    same(engine.search_many(ix, questions[:40], 10), MEMORY.search_many(ix, questions[:40], 10))


class ProjectedWords:
    """A stand-in for MiniLM's question encoder on the large corpus (encoding 12,000 chunks would take minutes): the
    hashing encoder's vector of a text, projected to 384 numbers by a fixed random matrix and normalised, float32.
    Chunks get the same projection of their hashing vectors, so that close texts score close (many near-ties)."""

    def __init__(self, ix, dim=384, decimals=None):
        self.ix = ix
        self.proj = np.random.default_rng(7).standard_normal((ix.encoder.dim, dim)).astype(np.float32)
        self.decimals = decimals            # rounding the vectors makes exact ties, many of them

    def unit(self, m):
        m = m / np.maximum(np.linalg.norm(m, axis=-1, keepdims=True), 1e-12)
        return (np.round(m, self.decimals) if self.decimals else m).astype(np.float32)

    def chunks(self):
        dense = np.zeros((len(self.ix), self.ix.encoder.dim), np.float32)
        m = self.ix.matrix
        for col in range(m.dim):
            rows = m.rows[m.ptr[col]:m.ptr[col + 1]]
            dense[rows, col] = m.vals[m.ptr[col]:m.ptr[col + 1]]
        return self.unit(dense @ self.proj)

    def query(self, question):
        return self.unit(self.ix.encoder.encode_query(question) @ self.proj)


@pytest.mark.parametrize("decimals", [None, 2])
def test_hybrid_on_the_large_corpus_equals_in_process(engine, large, decimals):
    """Hybrid fuses two full rankings: the engine re-scores only the rows whose place is in doubt, and must still
    give the in-process top k to the last bit, with near-ties (projected vectors) and exact ties (rounded ones)."""
    from rag_core.retrieval.bm25 import BM25Index
    from rag_core.retrieval.retrievers import DenseIndex, HybridIndex
    ix, questions = large
    words = ProjectedWords(ix, decimals=decimals)
    dense = DenseIndex(**ix.pieces(), embedder=words, vectors=words.chunks())
    sparse = BM25Index.build(ix.tc, ix.chunker, ix)
    hybrid = HybridIndex(**sparse.pieces(), embedder=words, sparse=sparse, dense=dense)
    same(engine.search_many(hybrid, questions[:30], 50, {"current"}), MEMORY.search_many(hybrid, questions[:30], 50, {"current"}))
    same(engine.search_many(hybrid, questions[30:40], 5), MEMORY.search_many(hybrid, questions[30:40], 5))


# ---- the filter runs inside the query ----------------------------------------------------------------

def test_filter_first_fills_k_with_allowed_chunks(wb, engine):
    ix = wb.index()
    q = wb.questions[:5]
    unfiltered = engine.search_many(ix, q, 5)
    outdated = engine.search_many(ix, q, 5, {"outdated"})
    n_outdated = len(ix.allowed_ids({"outdated"}))
    for u, o in zip(unfiltered, outdated):
        assert len(o.ids) == min(5, n_outdated)                    # never fewer than k because of the filter
        assert set(ix.statuses()[o.ids]) == {"outdated"}
    assert any(set(ix.statuses()[u.ids]) != {"outdated"} for u in unfiltered)


def test_empty_allowed_set_returns_nothing_and_says_so(wb, engine):
    got = engine.search_many(wb.index(), wb.questions[:2], 5, set())
    assert [len(r.ids) for r in got] == [0, 0]
    assert got[0].notes == MEMORY.search(wb.index(), wb.questions[0], 5, set()).notes
    assert "No chunk passes the status filter" in got[0].notes[0]


def test_bad_calls_fail_as_in_process(wb, engine):
    for call in (lambda e: e.search(wb.index(), "  ", 5), lambda e: e.search(wb.index(), "bisect", 0),
                 lambda e: e.search(wb.index(), "bisect", 5, {"archived"})):
        with pytest.raises(ValueError) as mine:
            call(engine)
        with pytest.raises(ValueError) as theirs:
            call(MEMORY)
        assert str(mine.value) == str(theirs.value)


# ---- stored tables: built once, reused, keyed ----------------------------------------------------------

def catalog(pg) -> list:
    return pg.sql("SELECT key, dataset, chunker, retriever, chunks FROM openbook_indexes ORDER BY built_at")


def test_built_once_and_reused_by_another_engine(pg, wb):
    ix = wb.index(ChunkerConfig("fixed", 64, 16))
    first = PostgresEngine(pg.url()).build_or_reuse(ix, "bundled")
    again = PostgresEngine(pg.url())                                  # another session, its own connection
    second = again.build_or_reuse(ix, "bundled")
    assert first.built and not second.built and first.table == second.table
    assert pg.sql(f"SELECT count(*) FROM {first.table}")[0][0] == len(ix)
    other = again.build_or_reuse(ix, "another dataset")              # another key: a table of its own
    assert other.built and other.table != first.table
    rows = {r[0]: r for r in catalog(pg)}
    assert rows[first.key][1:] == ("bundled", "fixed 64/16", "hashing-1024", len(ix))


def test_two_processes_asking_at_once_build_once(pg):
    script = ("import sys; from rag_core import Workbench, ChunkerConfig; "
              "from rag_core.retrieval.engines import PostgresEngine; "
              "ix = Workbench.bundled().index(ChunkerConfig('fixed', 96, 0)); "
              "print(PostgresEngine(sys.argv[1]).build_or_reuse(ix, 'race').built)")
    env = {"PYTHONPATH": f"{ROOT}:{ROOT / 'tests'}", "PATH": "/usr/bin:/bin", "OPENBOOK_DATA_DIR": "off"}
    blocker = psycopg.connect(pg.url(), autocommit=True)            # holds the schema lock: both wait at the gate
    try:
        with blocker.transaction():
            blocker.execute("SELECT pg_advisory_xact_lock(%s)", (pgtables.lock_id("schema"),))
            procs = [subprocess.Popen([sys.executable, "-c", script, pg.url()], stdout=subprocess.PIPE, text=True,
                                      env=env, cwd=ROOT) for _ in range(2)]
            deadline = time.monotonic() + 60
            while pg.sql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")[0][0] < 2:
                assert time.monotonic() < deadline and all(p.poll() is None for p in procs), "both should wait"
                pg.sql("SELECT pg_sleep(0.02)")
        outs = sorted(p.communicate(timeout=120)[0].strip() for p in procs)
    finally:
        blocker.close()
    assert outs == ["False", "True"]                                  # one built, the other found it built
    assert pg.sql("SELECT count(*) FROM openbook_indexes WHERE dataset = 'race'")[0][0] == 1


def test_a_failed_build_leaves_nothing_behind(pg, wb):
    # a vector pgvector refuses (NaN) half-way through the COPY: the transaction takes everything back
    class Broken:
        kind, key, nonnegative = "sparse", "broken-4", False
        dim = 4

        def chunk_vectors(self):
            vals = np.ones(len(ix), np.float32)
            vals[len(ix) // 2] = np.nan
            return Vectors("sparse", 4, np.arange(len(ix) + 1), np.zeros(len(ix), np.int32), vals)
    ix = wb.index()
    before = catalog(pg)
    tables = pg.sql("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'openbook_ix_%'")
    with psycopg.connect(pg.url(), autocommit=True) as conn:
        with pytest.raises(psycopg.errors.DataException):
            pgtables.build_or_reuse(conn, ix, Broken(), "broken", "PostgreSQL")
    assert catalog(pg) == before
    assert pg.sql("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'openbook_ix_%'") == tables


# ---- approximate mode ----------------------------------------------------------------------------------

def test_approximate_mode_builds_hnsw_and_measures_its_overlap_with_exact_search(pg, wb, engine):
    ix = wb.index()
    fast = PostgresEngine(pg.url(), approximate=True, ef_search=64)
    stored = fast.build_or_reuse(ix)
    assert pg.sql("SELECT to_regclass(%s) IS NOT NULL", (pgtables.hnsw_name(stored, fast.m, fast.ef_construction),)) \
        == [(True,)]
    got = fast.search_many(ix, wb.questions, 10, {"current"})
    assert all(len(r.ids) == 10 and set(ix.statuses()[r.ids]) == {"current"} for r in got)
    assert overlap_with_exact(engine, fast, ix, wb.questions, 10, {"current"}) >= 0.95
    # the settings belong to each engine's own connection; nothing is prepared, so they reach every plan
    assert fast._connect().execute("SHOW hnsw.ef_search").fetchone()[0] == "64"
    assert engine._connect().execute("SHOW enable_indexscan").fetchone()[0] == "off"
    assert fast._connect().execute("SHOW enable_indexscan").fetchone()[0] == "on"
    assert f"approximate: HNSW m=16, ef_construction={fast.ef_construction}, ef_search=64" in fast.describe()


# ---- failures: readable, nothing lost, never a password ---------------------------------------------------

def test_server_stopped_then_back(pg, wb):
    ix = wb.index()
    e = PostgresEngine(pg.url())
    want = MEMORY.search_many(ix, wb.questions[:3], 5)
    same(e.search_many(ix, wb.questions[:3], 5), want)
    pg.stop()
    try:
        with pytest.raises(EngineError, match="cannot be reached .* is the server running") as err:
            e.search_many(ix, wb.questions[:3], 5)
        assert "in-process engine still works" in str(err.value)
        same(MEMORY.search_many(ix, wb.questions[:3], 5), want)     # the in-process index still answers
    finally:
        pg.start()
    same(e.search_many(ix, wb.questions[:3], 5), want)              # and the engine comes back by itself


def test_server_restarted_between_two_questions(pg, wb):
    ix = wb.index()
    e = PostgresEngine(pg.url())
    first = e.search(ix, wb.questions[0], 5)
    pg.restart()                                                       # the engine's connection is now dead
    assert e.search(ix, wb.questions[0], 5).ids.tolist() == first.ids.tolist()


def test_connection_cut_mid_query_is_retried_once(pg, wb):
    ix = wb.index()
    e = PostgresEngine(pg.url())
    table = e.build_or_reuse(ix).table
    result, errors = [], []
    admin = psycopg.connect(pg.url(), autocommit=True)
    try:
        with admin.transaction():
            admin.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")     # the engine's next query waits here
            worker = threading.Thread(target=lambda: _collect(result, errors, e, ix, wb.questions[:4]))
            worker.start()
            deadline = time.monotonic() + 30
            while True:                                                # wait until the query is blocked, then cut it
                pid = admin.execute("SELECT pid FROM pg_stat_activity WHERE application_name = 'openbook' "
                                    "AND wait_event_type = 'Lock'").fetchone()
                if pid:
                    break
                assert time.monotonic() < deadline
                admin.execute("SELECT pg_sleep(0.02)")
            admin.execute("SELECT pg_terminate_backend(%s)", (pid[0],))
        worker.join(60)
    finally:
        admin.close()
    assert not errors
    same(result[0], MEMORY.search_many(ix, wb.questions[:4], 5))


def _collect(result, errors, engine, ix, questions):
    try:
        result.append(engine.search_many(ix, questions, 5))
    except Exception as e:                  # reported by the test, not lost in a thread
        errors.append(e)


def test_wrong_password_is_said_and_never_shown(pg, wb):
    pg.add_user("reader", "right-horse")
    e = PostgresEngine(pg.url("reader", "Tr0ub4dor&3"))
    with pytest.raises(EngineError) as err:
        e.search(wb.index(), wb.questions[0], 5)
    message = str(err.value)
    assert "rejected the password of user 'reader'" in message and "check the user and password" in message
    for shown in (message, repr(e), e.describe()):
        assert "Tr0ub4dor" not in shown and "Tr0ub4dor%263" not in shown


def test_database_without_the_vector_extension(pg, wb):
    pg.add_user("plain", "pw-plain")
    pg.create_database("novector", owner="plain")                    # its owner is no superuser
    e = PostgresEngine(pg.url("plain", "pw-plain", "novector"))
    with pytest.raises(EngineError, match="database 'novector' has no 'vector' extension and user 'plain' may "
                                          "not create it. Ask an administrator to run CREATE EXTENSION vector"):
        e.search(wb.index(), wb.questions[0], 5)
    pg.sql("CREATE EXTENSION vector", database="novector")            # once an administrator did it, it works
    same([e.search(wb.index(), wb.questions[0], 5)], [MEMORY.search(wb.index(), wb.questions[0], 5)])


def test_no_server_at_all_and_a_malformed_url():
    e = PostgresEngine("postgresql://ann:s3cret@/nowhere?host=/nonexistent-socket-dir", connect_timeout=2)
    with pytest.raises(EngineError, match=r"PostgreSQL at postgresql://ann:\*\*\*@/nowhere.* cannot be reached"):
        e.check()
    for url in ("postgresql://ann:s3cret@[zz/x", "host=/tmp password=s3cret dbname", "postgresql://ann:s3cret@/x?bogus=1"):
        with pytest.raises(EngineError, match="the database URL is malformed") as err:
            PostgresEngine(url).check()
        assert "s3cret" not in str(err.value)
