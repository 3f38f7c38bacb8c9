"""The dashboard's Ray: one session per server on a real local Ray, shared by browser sessions, and the sidebar's
compute choice as AppTest sees it (nothing of Ray mocked; an address where nothing listens is a closed port).

The regression this file guards first: a local Ray started from a thread that then ends (every Streamlit run is a
new thread) must keep running: Linux kills a process's children when the *thread* that started them ends.
"""
from __future__ import annotations

import re
import socket
import sys
import threading

import numpy as np
import pandas as pd
import pytest

from apptest_helpers import open_page
from rag_core.retrieval import encoder_path
from rag_core.retrieval.minilm import MiniLM
from rag_core.retrieval.ray_sessions import RAY, RaySessions


@pytest.fixture(autouse=True, scope="module")
def no_ray_yet():
    """These tests start and stop Ray in this process as the dashboard does, so they run before the files that
    share the test session's Ray (conftest `ray_session`: test_ray*.py, after this file in pytest's order)."""
    import ray
    assert not ray.is_initialized(), "run tests/test_dashboard_ray.py before the test_ray*.py files"
    yield
    RAY.close()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def sessions():
    s = RaySessions(linger_s=0)
    yield s
    s.close()


def test_a_local_ray_started_from_a_thread_that_ends_keeps_running_and_is_shared(sessions):
    got = {}
    starter = threading.Thread(target=lambda: got.update(session=sessions.join("alice", None)))
    starter.start()
    starter.join()                                   # the thread that asked for Ray is gone, as a page run is
    session = got["session"]
    assert sessions.join("bob", None) is session and sessions.users == {"alice", "bob"}
    assert session.check_alive() and "1 node" in session.status()
    model = MiniLM.load()
    seqs = [MiniLM.framed(p) for p in model.pieces(["a kiln soaks before cooling", "heddles are oiled weekly"])]
    assert np.array_equal(session.encoder()(seqs), model.encode_pieces(seqs))   # its actors answer, bit for bit
    sessions.leave("alice")
    assert sessions.session is session               # bob still uses it
    sessions.leave("bob")
    sessions.leave("bob")                            # twice is harmless
    assert sessions.session is None and not session.ray.is_initialized()      # the local Ray stopped


def test_another_address_while_someone_uses_ray_names_no_address_and_a_dead_one_is_one_sentence(sessions):
    port = closed_port()
    sessions.join("alice", None)
    with pytest.raises(ValueError, match="another Ray cluster for another browser session") as e:
        sessions.join("bob", f"127.0.0.1:{port}")
    assert str(port) not in str(e.value) and "bob" not in sessions.users
    sessions.leave("alice")
    with pytest.raises(ValueError, match=f"^No Ray cluster answers at 127.0.0.1:{port} "):
        sessions.join("bob", f"127.0.0.1:{port}")
    assert sessions.session is None and not sessions.users


def test_the_last_user_leaving_closes_only_after_the_linger_so_a_reload_keeps_ray():
    s = RaySessions(linger_s=30)
    try:
        first = s.join("tab", None)
        s.leave("tab")                               # a reload: the websocket closes ...
        assert s.join("tab-again", None) is first     # ... and opens again: the same Ray, not restarted
        assert s._closing is None and first.check_alive()
    finally:
        s.close()
    assert s.session is None


# ---------------------------------------------------------------- the sidebar, as AppTest sees it

def compute_box(at):
    return next(s for s in at.sidebar.selectbox if s.label == "Compute")


def sidebar_texts(at) -> list[str]:
    return [e.value for e in at.sidebar.error] + [c.value for c in at.sidebar.caption]


@pytest.fixture
def shared_ray():
    yield RAY
    RAY.close()


def test_choosing_ray_says_what_computes_and_choosing_this_process_leaves(shared_ray):
    at = open_page("overview")
    assert compute_box(at).value == "process"
    assert not [t for t in at.sidebar.text_input if t.label == "Ray address"]      # no address field by default
    compute_box(at).select("ray").run()
    said = [t for t in sidebar_texts(at) if t.startswith("Computing on Ray")]
    assert said and "local\\: 1 node" in said[0] and "On Ray: MiniLM's encoding of chunks" in said[0], sidebar_texts(at)
    field = next(t for t in at.sidebar.text_input if t.label == "Ray address")
    assert field.value == "" and "compute" not in at.query_params and RAY.session is not None
    compute_box(at).select("process").run()
    assert RAY.session is None and not any("Ray" in t for t in sidebar_texts(at))      # left, and the Ray stopped


def test_an_address_where_nothing_listens_is_one_sentence_and_everything_runs_here(shared_ray):
    port = closed_port()
    at = open_page("overview", session={"compute": "ray"})
    field = next(t for t in at.sidebar.text_input if t.label == "Ray address")
    field.input(f"10.0.0.1:{port}").run()       # typed then Enter: AppTest sends the value like Enter does
    field = next(t for t in at.sidebar.text_input if t.label == "Ray address")
    assert field.value == "" and at.session_state["ray_address"] == f"10.0.0.1:{port}"
    errors = [e.value for e in at.sidebar.error]
    assert len(errors) == 1 and "Until it is fixed, everything runs in this process" in errors[0], errors
    assert "Try again" in [b.label for b in at.sidebar.button]
    assert f"{port}" not in str(dict(at.query_params))
    next(b for b in at.sidebar.button if b.label == "Forget this address").click().run()
    assert "ray_address" not in at.session_state


def test_without_ray_installed_the_sidebar_says_how_to_get_it(shared_ray, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)          # what an environment without Ray looks like
    at = open_page("overview", session={"compute": "ray"})
    errors = [e.value for e in at.sidebar.error]
    assert len(errors) == 1 and "Ray is not installed" in errors[0] and "requirements-ray.txt" in errors[0], errors
    assert not at.exception


def test_a_head_killed_before_a_run_finishes_it_here_says_so_once_then_the_sidebar_says_gone(shared_ray):
    import uuid
    import psutil
    from rag_core import Workbench
    from rag_core.data.corpus import Corpus, Document
    from rag_core.retrieval.vectors import Embedder, VectorStore
    from apptest_helpers import chunk_labels, unescape
    from ui import datasets
    run = uuid.uuid4().hex[:8]                       # texts no cache holds
    docs = [Document("kiln", " ".join(f"Firing {run}-{i} soaks for {i % 5 + 10} minutes before cooling."
                                      for i in range(120)))]
    mine = datasets.make_dataset("mine", docs, [])
    at = open_page("overview", session={"compute": "ray", "dataset": mine})
    assert any(t.startswith("Computing on Ray") for t in sidebar_texts(at)), sidebar_texts(at)
    heads = [p for p in psutil.Process().children(recursive=True) if "gcs_server" in p.name()]
    assert len(heads) == 1
    heads[0].kill()
    heads[0].wait(10)
    question = "How long does the kiln soak before cooling?"
    at.switch_page("pages/ask.py")
    at.query_params.update({"retriever": "minilm", "ask_question": question})
    at.session_state["retriever"] = "minilm"
    at.run()
    assert at.session_state["retriever"] == "minilm"
    warned = [unescape(w.value) for w in at.warning if "Ray cluster failed mid" in unescape(w.value)]
    assert len(warned) == 1 and "its head at" in warned[0] and "encoded in this process" in warned[0], \
        [w.value for w in at.warning]
    upload_path = encoder_path.chosen()                       # the forward pass an upload's vectors come from
    here = Workbench(Corpus(tuple(docs), name="mine"), [], retriever="minilm",
                     embedder=Embedder(VectorStore(None), path=upload_path))
    ix = here.index()
    from rag_core.evaluation.pipeline import ask
    want = [f"{ix.doc_id(int(c))} · chunk {ix.chunk_number(int(c))}" for c in ask(ix, question, 20, 3, True, {"current"}).retrieved.ids]
    assert chunk_labels(at) == want                  # the run finished here, with the process's vectors
    at.run()
    assert [e.value for e in at.sidebar.error if "The Ray cluster is gone" in unescape(e.value)], sidebar_texts(at)
    assert not [w for w in at.warning if "failed mid" in unescape(w.value)]       # said once


@pytest.mark.parametrize("name, query", [("ablations", {"retriever": "bm25"}),
                                         ("compare", {"retriever": "minilm", "reranker": "dense"})])
def test_ablations_and_compare_with_ray_show_what_the_process_shows(shared_ray, name, query):
    """An upload (its workbench is its session's: nothing ranked yet) on a page whose sweep units go to Ray, then
    in process in another session: the same texts, metrics and tables; the sidebar counts the units."""
    from rag_core.data.corpus import bundled_corpus
    from rag_core.data.golden import load_golden
    from apptest_helpers import open_any, screen
    from ui import datasets
    docs = [d for d in bundled_corpus().documents if d.id != "statistics"]
    mine = datasets.make_dataset("my documents", docs, [r for r in load_golden() if r.doc != "statistics"])
    on_ray = open_any(name, query, {"dataset": mine, "compute": "ray"})
    counts = [c.value for c in on_ray.sidebar.caption if c.value.startswith("This session:")]
    said = re.search(r"([\d,]+) sweep units? ranked on Ray", counts[0] if counts else "")
    assert len(counts) == 1 and said, sidebar_texts(on_ray)
    # a unit per retriever, reranker and chunker: the Ablations' grid has several, Compare's two setups share one
    assert int(said[1].replace(",", "")) == on_ray.session_state["_units_on_ray"] >= (2 if name == "ablations" else 1)
    here = open_any(name, query, {"dataset": mine})
    a, b = screen(on_ray), screen(here)
    assert a["texts"] == b["texts"] and a["metrics"] == b["metrics"] and len(a["frames"]) == len(b["frames"])
    for x, y in zip(a["frames"], b["frames"]):
        pd.testing.assert_frame_equal(x, y)


@pytest.mark.parametrize("address, words", [
    ("user:s3cret@10.0.0.5:6379", "takes no user or password"),
    ("http://user:s3cret@h:1", "takes no user or password"),
    ("h" * 10_000 + ":6379", "is not host:port"),
    ("10.0.0.5:" + "9" * 10_000, "is not host:port"),
    ("10.0.0.5:²", "is not host:port"),
    ("10.0.0.5:99999", "a port from 1 to 65535"),
    ("10.0.0.5:0", "is not host:port"),
    ("ho st:6379", "is not host:port"),
    ("h\x1b[31m:6379", "is not host:port"),
    ("ray://h:10001", "ray:// addresses are not supported"),
    (":6379", "is not host:port"),
])
def test_a_malformed_ray_address_is_one_sentence_that_repeats_no_secret(address, words):
    from rag_core.retrieval.ray_connect import parse_address
    with pytest.raises(ValueError) as e:
        parse_address(address)
    said = str(e.value)
    assert words in said and "s3cret" not in said and "\n" not in said and "\x1b" not in said and len(said) < 300


def test_a_well_formed_address_is_read_whatever_the_spaces_and_brackets():
    from rag_core.retrieval.ray_connect import parse_address
    assert parse_address("  10.0.0.5:6379 ") == ("10.0.0.5", 6379)
    assert parse_address("[::1]:6379") == ("::1", 6379)
    assert parse_address("head-node.example:1") == ("head-node.example", 1)


def test_a_session_refused_another_cluster_no_longer_counts_as_a_user(sessions):
    sessions.join("alice", None)
    sessions.join("bob", None)
    with pytest.raises(ValueError):
        sessions.join("bob", f"127.0.0.1:{closed_port()}")
    assert sessions.users == {"alice"}
    sessions.leave("alice")
    assert sessions.session is None                  # bob's refused wish keeps no Ray alive


@pytest.mark.parametrize("typed", ["auto", "user:s3cret@127.0.0.1:1"])
def test_the_sidebar_refuses_auto_and_never_shows_a_password_typed_in_an_address(shared_ray, typed):
    at = open_page("overview", session={"compute": "ray"})
    next(t for t in at.sidebar.text_input if t.label == "Ray address").input(typed).run()
    errors = [e.value for e in at.sidebar.error]
    assert len(errors) == 1 and "Until it is fixed, everything runs in this process" in errors[0], errors
    shown = " ".join(sidebar_texts(at)) + " ".join(m.value for m in at.markdown) + str(dict(at.query_params))
    assert "s3cret" not in shown and RAY.address is None and not at.exception       # nothing joined with it
