"""The units of a sweep on a real local Ray (the session's, two CPUs): the tables and a comparison computed after
`rank_units` equal those of the process, value for value, and read only rankings the workers sent back; a worker
killed mid-sweep leaves the rest to the process after one note, or stops with one sentence.

Nothing of Ray is mocked: a worker is killed with SIGKILL while it ranks a unit. MiniLM's vectors of the bundled
corpus come from the shipped pack, so these tests encode nothing.
"""
import csv
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from rag_core.__main__ import main
from rag_core.data.corpus import Corpus, Document, bundled_corpus
from rag_core.data.golden import load_golden
from rag_core.data.jsonl import documents_to_jsonl
from rag_core.evaluation import tables as T
from rag_core.evaluation.compare import compare_setups
from rag_core.evaluation.setup import default_setup, parse_setup
from rag_core.evaluation.sweep import Rank, rank_units, setup_units, table_units, units_of
from rag_core.evaluation.workbench import Workbench
from rag_core.retrieval.chunkers import ChunkerConfig
from rag_core.retrieval.ray_encoder import ClusterLost

SWEEP = ("size_overlap", "strategies", "rerank")
ROOT = Path(__file__).resolve().parents[1]


def remembered(wb: Workbench) -> int:
    """How many rankings the workbench's memo holds (shared by its siblings)."""
    return len(wb._ranked)


def test_a_setting_asked_twice_is_one_ranking_at_its_deepest_k_and_a_rerank_brings_its_candidates():
    c = ChunkerConfig("fixed", 40, 8)
    units = units_of([("bm25", "lexical", c, Rank(3, None)), ("bm25", "lexical", c, Rank(50, None)),
                      ("bm25", "lexical", c, Rank(3, {"current"}, True, 20))])
    assert units == [("bm25", "lexical", c, (Rank(50, None), Rank(20, frozenset({"current"})),
                                             Rank(20, frozenset({"current"}), True, 20)))]


@pytest.mark.parametrize("retriever, reranker", [("hashing", "lexical"), ("bm25", "lexical"), ("minilm", "lexical"),
                                                 ("minilm", "dense"), ("hybrid", "dense")])
def test_the_sweep_tables_after_ray_equal_the_process(ray_local, retriever, reranker):
    on_ray = Workbench.bundled(retriever=retriever, reranker=reranker)
    here = Workbench.bundled(retriever=retriever, reranker=reranker)
    units = table_units(on_ray, SWEEP)
    assert len(units) == len({c for name in SWEEP for c in T.chunkers_of(name)})        # one per chunker
    seen = []
    swept = rank_units(on_ray, units, ray_local, on_progress=lambda done, total, what: seen.append((done, total)))
    assert swept == (len(units), 0, "", 0)           # all on Ray; no worker lacked a vector (none encoded there)
    assert seen == [(i, len(units)) for i in range(1, len(units) + 1)]
    ranked_on_ray = remembered(on_ray)
    for name in SWEEP:
        assert T.TABLES[name](on_ray).equals(T.TABLES[name](here)), name
    assert remembered(on_ray) == ranked_on_ray       # the tables computed no ranking of their own


def without_seconds(comparison) -> dict:
    return {n: [r._replace(seconds=0.0) for r in rs] for n, rs in comparison.results.items()}


def test_a_comparison_of_three_setups_after_ray_equals_the_process(ray_local):
    on_ray, here = Workbench.bundled(), Workbench.bundled()
    base = default_setup(on_ray)
    setups = [parse_setup(text, base) for text in (
        "article:",
        "small dense: size=40 overlap=8 retriever=minilm reranker=dense statuses=all candidates=30",
        "hybrid sentences: chunker=sentence retriever=hybrid rerank=off statuses=current|draft k=5")]
    units = setup_units(on_ray, setups)
    assert [u.retriever for u in units] == ["hashing", "minilm", "hybrid"]
    assert rank_units(on_ray, units, ray_local) == (3, 0, "", 0)
    ranked_on_ray = remembered(on_ray)
    a, b = compare_setups(on_ray, setups), compare_setups(here, setups)
    assert without_seconds(a) == without_seconds(b) and a.chunks == b.chunks
    assert a.pairs.equals(b.pairs)
    assert remembered(on_ray) == ranked_on_ray


def test_a_units_own_error_is_left_to_the_process_which_says_it_as_always_and_a_ranked_unit_is_not_sent_again(
        ray_local):
    wb = Workbench.bundled()
    odd = parse_setup("odd: statuses=nosuch", default_setup(wb))
    swept = rank_units(wb, setup_units(wb, [odd]), ray_local)
    assert (swept.on_ray, swept.here, swept.lost) == (0, 1, "")          # not a lost cluster: the unit's own error
    with pytest.raises(ValueError, match="Setup 'odd'") as on_ray:
        compare_setups(wb, [odd])
    with pytest.raises(ValueError) as here:
        compare_setups(Workbench.bundled(), [odd])
    assert str(on_ray.value) == str(here.value)
    units = setup_units(wb, [default_setup(wb)])
    assert rank_units(wb, units, ray_local).on_ray == 1
    assert rank_units(wb, units, ray_local) == (0, 0, "", 0)              # remembered: nothing sent


def test_a_sweep_leaves_the_actors_to_another_run_encoding_on_them_and_says_so_truly(ray_local):
    """A dashboard's browser sessions share one Ray: a sweep used to stop the actors another session was encoding on,
    whose run then said the cluster had failed. Now the sweep ranks its units here, in one true sentence."""
    import ray
    wb, here = Workbench.bundled(), Workbench.bundled()
    actors = ray_local.pool()
    notes = []
    ray_local.busy += 1                              # the other session's encoder, mid-run
    try:
        swept = rank_units(wb, table_units(wb, ["strategies"]), ray_local, note=notes.append)
    finally:
        ray_local.busy -= 1
    assert swept == (0, len(T.chunkers_of("strategies")), "", 0)
    assert notes == [f"the Ray cluster's CPUs are encoding for another run; the {swept.here} units of this one are "
                     "ranked in this process."]
    assert ray_local.actors == actors and len(ray.get([a.where.remote() for a in actors], timeout=60)) == len(actors)
    assert T.TABLES["strategies"](wb).equals(T.TABLES["strategies"](here))


def test_the_report_command_on_ray_prints_what_the_process_prints(ray_local, capsys):
    argv = ["report", "--tables", "size_overlap", "--retriever", "minilm"]
    assert main(argv + ["--compute", "ray"]) == 0
    on_ray = capsys.readouterr()
    assert main(argv) == 0
    here = capsys.readouterr()
    assert on_ray.out == here.out and "| 40 | 8 |" in here.out
    assert on_ray.err == "note: the trained encoder and the sweep's rankings run on Ray 2.60.0, local: 1 node, " \
                         "2 CPUs.\n" and here.err == ""


def big_workbench(copies: int = 12) -> Workbench:
    """The bundled corpus and questions, each document there `copies` times (other ids): units that take long
    enough to be caught running."""
    docs = bundled_corpus().documents
    return Workbench(Corpus(docs + tuple(Document(f"{d.id} (copy {i})", d.text, d.status)
                                         for i in range(2, copies + 1) for d in docs)), load_golden())


def kill_the_first_unit_seen():
    """A thread that SIGKILLs the first Ray worker of this test process seen ranking a unit ("ray::_rank_unit");
    returns the thread and a list that gets the pid killed."""
    killed, me = [], psutil.Process()

    def watch():
        while not killed:
            for p in me.children(recursive=True):
                try:
                    if p.name() == "ray::_rank_unit":
                        os.kill(p.pid, signal.SIGKILL)
                        killed.append(p.pid)
                        return
                except psutil.NoSuchProcess:
                    pass
            time.sleep(0.01)
    t = threading.Thread(target=watch, daemon=True)
    t.start()
    return t, killed


@pytest.mark.parametrize("on_loss", ["process", "stop"])
def test_a_worker_killed_mid_sweep_leaves_the_rest_to_the_process_or_stops_in_one_sentence(ray_local, on_loss):
    on_ray, here = big_workbench(), big_workbench()
    units = table_units(on_ray, ["size_overlap"])
    notes = []
    watcher, killed = kill_the_first_unit_seen()
    if on_loss == "stop":
        with pytest.raises(ClusterLost) as e:
            rank_units(on_ray, units, ray_local, on_loss="stop", note=notes.append)
        message = str(e.value)
        assert message.startswith("The Ray cluster failed mid-sweep (WorkerCrashedError") and "\n" not in message
        assert "--on-cluster-loss process" in message and notes == [] and killed
        return
    swept = rank_units(on_ray, units, ray_local, note=notes.append)
    watcher.join(timeout=5)
    assert killed and swept.lost.startswith("WorkerCrashedError") and 0 < swept.here and swept.on_ray < len(units)
    assert len(notes) == 1 and notes[0].startswith("the Ray cluster failed mid-sweep (WorkerCrashedError")
    assert notes[0].endswith(f"the {swept.here} left are ranked in this process.")
    assert T.size_overlap(on_ray).equals(T.size_overlap(here))     # the rest ranked here, by the table


def test_a_head_gone_mid_sweep_is_one_note_and_the_command_prints_what_the_process_prints(own_head, tmp_path,
                                                                                          capsys, monkeypatch):
    """The report command, in its own process, joins a head of its own; the head and its workers are killed while
    a worker ranks a unit: the command leaves Ray (without starting a local one), ranks the rest here, and
    prints the process's tables after one note."""
    address, kill_head = own_head
    big = big_workbench()
    (tmp_path / "docs.jsonl").write_text(documents_to_jsonl(big.corpus.documents), encoding="utf-8")
    with open(tmp_path / "golden.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([("question", "doc", "anchor"), *load_golden()])
    argv = ["report", "--format", "json", "--tables", "size_overlap", "--docs", str(tmp_path / "docs.jsonl"),
            "--golden", str(tmp_path / "golden.csv")]
    env = {**os.environ, "OPENBOOK_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": str(ROOT)}
    env.pop("RAY_AUTH_MODE", None)
    run = subprocess.Popen([sys.executable, "-m", "rag_core", *argv, "--compute", "ray", "--ray-address", address],
                           cwd=str(ROOT), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and run.poll() is None:       # a unit is being ranked: kill the head
        if any(p.info["name"] == "ray::_rank_unit" for p in psutil.process_iter(["name"])):
            break
        time.sleep(0.01)
    kill_head()
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0, err
    lines = err.splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"note: the trained encoder and the sweep's rankings run on "
                                                   f"Ray 2.60.0, at {address}")
    assert lines[1].startswith("note: the Ray cluster failed mid-sweep (") and \
        lines[1].endswith("left are ranked in this process."), err
    assert "Started a local Ray" not in err
    monkeypatch.setenv("OPENBOOK_DATA_DIR", str(tmp_path / "data"))
    assert main(argv) == 0
    assert json.loads(out) == json.loads(capsys.readouterr().out)
