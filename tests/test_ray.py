"""Encoding on a real local Ray (two CPUs, started once for the test session): the same vectors as the process, to the
last bit, in the same cache; the same report tables; failures in one sentence, fast, with the work done kept.

Nothing of Ray is mocked: a worker is killed with SIGKILL, an address is a closed port or a socket that never
speaks. Vectors through Ray batched as the process batches them (the default) are compared with np.array_equal,
bit for bit. Other batch sizes (finer progress, or the rest of a run finished here) differ in the last bits of
256-piece texts (BLAS sums a matrix of other height in another order): those are compared within 1e-6, with
identical rankings.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from rag_core.__main__ import main
from rag_core.retrieval.minilm import MiniLM, batched
from rag_core.retrieval.ray_connect import probe
from rag_core.retrieval.ray_encoder import ClusterLost
from rag_core.retrieval.vectors import MODEL_KEY, WINDOWS_KEY, Embedder, VectorStore, text_key

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """Data folders shared by the report and compare tests: "process" holds the vectors the process encoded."""
    return tmp_path_factory.mktemp("ray-folders")


@pytest.fixture(scope="module")
def long_docs(wb):
    """Three whole documents of 700-1,100 word pieces: several dense-rerank windows each."""
    model = MiniLM.load()
    docs = [d.text for d in wb.corpus.documents]
    sizes = [len(p) for p in model.pieces(docs)]
    return [t for t, n in sorted(zip(docs, sizes), key=lambda x: x[1]) if 600 < n < 1100][:3]


def short_texts(wb, n=40):
    """n real sentences of the corpus, each short (cheap to encode), all different."""
    seen = []
    for d in wb.corpus.documents:
        for s in d.text.split(". "):
            s = s.strip()
            if 40 < len(s) < 160 and s not in seen:
                seen.append(s)
    return seen[:n]


def test_whole_text_windows_through_ray_equal_the_process_to_the_bit_and_land_in_the_cache(ray_local, long_docs,
                                                                                            tmp_path):
    here = Embedder(VectorStore(None)).whole(long_docs)
    path = tmp_path / "vectors.sqlite3"
    got = Embedder(VectorStore(path)).using(ray_local.encoder()).whole(long_docs)
    assert [w.shape[0] for w in got] == [w.shape[0] for w in here] and min(w.shape[0] for w in got) >= 3
    assert all(np.array_equal(a, b) for a, b in zip(got, here))          # bit for bit
    # the same cache: a fresh embedder on the file reads everything from disk and encodes nothing
    again = Embedder(VectorStore(path))
    assert all(np.array_equal(a, b) for a, b in zip(again.whole(long_docs), here)) and again.encoded == 0


def same_within_1e6(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal within 1e-6, and every text ranks the others in the same order (cosine = dot of unit vectors)."""
    return (np.abs(a - b).max() <= 1e-6 and
            np.array_equal(np.argsort(-(a @ a.T), axis=1, kind="stable"), np.argsort(-(b @ b.T), axis=1, kind="stable")))


def test_smaller_batches_give_progress_batch_by_batch_within_1e6(ray_local, long_docs):
    here = Embedder(VectorStore(None)).whole(long_docs)
    seen = []
    got = Embedder(VectorStore(None)).using(ray_local.encoder(batch_pieces=1024)).whole(
        long_docs, lambda done, total, what: seen.append((done, total)))
    assert same_within_1e6(np.concatenate(got), np.concatenate(here))
    windows = [(d, t) for d, t in seen if t > len(long_docs)]        # 1,024 pieces a batch: four windows of 256
    assert len(windows) >= 4 and windows[-1][0] == windows[-1][1] and [d for d, _ in windows] == sorted(d for d, _ in windows)


def test_what_runs_where_and_a_real_head_passes_the_probe(ray_local):
    where = ray_local.where()             # one actor per CPU, each its own process
    assert len(where) == 2 and len({pid for _, pid in where}) == 2 and os.getpid() not in {p for _, p in where}
    assert ray_local.status().startswith("Ray 2.") and "1 node, 2 CPUs" in ray_local.status()
    probe(ray_local.ray.get_runtime_context().gcs_address)      # a real head passes the probe (gRPC greeting)


def report_json(capsys, monkeypatch, folder, *options, tables="ceiling,filter,rerank") -> tuple[dict, str]:
    """A MiniLM + dense report run by main() in this process (it joins the file's Ray): (its JSON, its stderr)."""
    monkeypatch.setenv("OPENBOOK_DATA_DIR", str(folder))
    code = main(["report", "--format", "json", "--tables", tables, "--encoder", "minilm",
                 "--reranker", "dense", *options])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out), err


def test_a_minilm_report_through_ray_equals_the_process(ray_local, capsys, monkeypatch, folders):
    """Every chunk of a corpus the shipped vector pack does not hold (this interpreter's stdlib, not the bundled
    snapshot) and its windows encoded on Ray, in a fresh data folder, against the process in another: the tables
    are equal value for value, the cached vectors bit for bit."""
    from rag_core.data.corpus import stdlib_corpus
    from rag_core.data.golden import load_golden
    from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Workbench
    on_ray, said = report_json(capsys, monkeypatch, folders / "ray", "--compute", "ray", "--corpus", "stdlib",
                               tables="ceiling,filter")
    here, _ = report_json(capsys, monkeypatch, folders / "process", "--corpus", "stdlib", tables="ceiling,filter")
    assert "run on Ray 2." in said and "1 node, 2 CPUs" in said
    assert on_ray["tables"] == here["tables"]
    stores = [VectorStore(folders / f / "vectors.sqlite3") for f in ("ray", "process")]
    keys = [text_key(t) for t in Workbench(stdlib_corpus(), load_golden()).index(ARTICLE_CHUNKER).texts]
    for model in (MODEL_KEY, WINDOWS_KEY):      # the chunks this stdlib shares with the snapshot come from the pack
        a, b = (s.get_many(model, keys) for s in stores)
        assert set(a) == set(b) and all(np.array_equal(a[k], b[k]) for k in a)
        assert model == WINDOWS_KEY or len(a) > len(set(keys)) // 3      # most were encoded, on Ray and here


COMPARE = ["compare", "--format", "json", "--corpus", "stdlib", "--setup", "minilm: retriever=minilm",   # not packed
           "--setup", "minilm dense: retriever=minilm reranker=dense"]


def without_timings(value):
    """A compare's JSON without its clock readings (mean_seconds: how long each setup took a question)."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k != "mean_seconds"}
    return [without_timings(v) for v in value] if isinstance(value, list) else value


def test_compare_from_another_process_joining_the_cluster_equals_the_process(ray_local, capsys, monkeypatch, folders):
    """A second driver (a command in its own process) joins this file's Ray by its address, encodes every chunk
    there in an empty data folder, and compares the setups exactly as the process does."""
    address = ray_local.ray.get_runtime_context().gcs_address
    env = {**os.environ, "OPENBOOK_DATA_DIR": str(folders / "joined"), "PYTHONPATH": str(ROOT),
           "OPENBOOK_RAY_ADDRESS": address}
    joined = subprocess.run([sys.executable, "-m", "rag_core", *COMPARE, "--compute", "ray",
                             "--on-cluster-loss", "stop"], cwd=str(ROOT), env=env, capture_output=True, text=True,
                            timeout=600)
    assert joined.returncode == 0, joined.stderr
    assert f"run on Ray 2.60.0, at {address}: 1 node, 2 CPUs" in joined.stderr
    monkeypatch.setenv("OPENBOOK_DATA_DIR", str(folders / "process"))     # vectors from the report test
    assert main(COMPARE) == 0
    assert without_timings(json.loads(joined.stdout)) == without_timings(json.loads(capsys.readouterr().out))
    joined_store = VectorStore(folders / "joined" / "vectors.sqlite3")
    from rag_core.data.corpus import stdlib_corpus
    from rag_core.data.golden import load_golden
    from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Workbench
    keys = [text_key(t) for t in Workbench(stdlib_corpus(), load_golden()).index(ARTICLE_CHUNKER).texts]
    assert len(joined_store.get_many(MODEL_KEY, keys)) > len(set(keys)) // 3   # encoded there (the rest: the pack)


def test_a_cluster_that_goes_away_mid_run_is_one_note_and_the_run_finishes_here(ray_local, own_head, folders,
                                                                                 capsys, monkeypatch):
    address, kill_head = own_head
    env = {**os.environ, "OPENBOOK_DATA_DIR": str(folders / "head"), "PYTHONPATH": str(ROOT)}
    env.pop("RAY_AUTH_MODE", None)              # as in a fresh shell: the command finds the token itself
    argv = ["report", "--format", "json", "--tables", "ceiling", "--encoder", "minilm", "--corpus", "stdlib"]
    run = subprocess.Popen([sys.executable, "-m", "rag_core", *argv, "--compute", "ray", "--ray-address", address],
                           cwd=str(ROOT), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    cache = folders / "head" / "vectors.sqlite3"
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and run.poll() is None:      # the first batches are back: kill the head
        if cache.exists() and VectorStore(cache).get_many(MODEL_KEY, keys_of_stdlib()):
            break
        time.sleep(0.05)
    kill_head()
    t = time.monotonic()
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0, err
    lines = err.splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"note: the trained encoder and the sweep's rankings run on "
                                                f"Ray 2.60.0, at {address}")
    assert lines[1].startswith("note: the Ray cluster failed mid-run (") and "encoded in this process." in lines[1]
    monkeypatch.setenv("OPENBOOK_DATA_DIR", str(folders / "process"))       # the report test's vectors
    assert main(argv) == 0
    assert json.loads(out)["tables"] == json.loads(capsys.readouterr().out)["tables"]
    print(f"the command ended {time.monotonic() - t:.1f} s after the head was killed")


def keys_of_stdlib() -> list[bytes]:
    """The chunks (fixed 160/32) of this interpreter's stdlib corpus: most are not in the shipped vector pack."""
    from rag_core.data.corpus import stdlib_corpus
    from rag_core.data.golden import load_golden
    from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Workbench
    return [text_key(t) for t in Workbench(stdlib_corpus(), load_golden()).index(ARTICLE_CHUNKER).texts]


def kill_after_first_batch(compute):
    """An on_progress that kills one of the session's actors (SIGKILL) once the first batch is back."""
    victim = compute.where()[1][1]
    seen = []

    def on_progress(done, total, what):
        seen.append(done)
        if done and len(seen) == 2:
            os.kill(victim, signal.SIGKILL)
    return on_progress, seen


def in_process(texts, batch_pieces):
    """The process's vectors of the texts, cut into the same batches."""
    model = MiniLM.load()
    seqs = [MiniLM.framed(p) for p in model.pieces(texts)]
    return model.encode_pieces(seqs, 2, batches=batched(seqs, batch_pieces))


def test_a_worker_killed_mid_run_finishes_in_process_with_the_same_vectors(ray_local, wb):
    texts = short_texts(wb)
    enc = ray_local.encoder(on_loss="process", batch_pieces=128)      # a dozen batches
    on_progress, seen = kill_after_first_batch(ray_local)
    got = Embedder(VectorStore(None)).using(enc).vectors(texts, on_progress)
    assert "ActorDiedError" in enc.lost or "died" in enc.lost.lower()
    assert np.array_equal(got, in_process(texts, 128))              # the rest cut as the cluster would: bit for bit
    assert same_within_1e6(got, Embedder(VectorStore(None)).vectors(texts))
    assert seen[-1] == len(texts) and seen == sorted(seen)


def test_a_worker_killed_mid_run_with_stop_keeps_the_work_done_and_says_so(ray_local, wb, tmp_path):
    texts = short_texts(wb)
    enc = ray_local.encoder(on_loss="stop", batch_pieces=128)
    on_progress, seen = kill_after_first_batch(ray_local)
    emb = Embedder(VectorStore(tmp_path / "v.sqlite3")).using(enc)
    with pytest.raises(ClusterLost) as e:
        emb.vectors(texts, on_progress)
    message = str(e.value)
    assert "\n" not in message and "kept in the cache" in message and "--on-cluster-loss process" in message
    kept = VectorStore(tmp_path / "v.sqlite3").get_many(MODEL_KEY, [text_key(t) for t in texts])
    assert 0 < len(kept) == seen[-1] < len(texts) and f"after {len(kept):,} of {len(texts):,}" in message
    # a second run on the cluster encodes only what is left, and gets the process's vectors
    again = Embedder(VectorStore(tmp_path / "v.sqlite3")).using(ray_local.encoder())
    assert same_within_1e6(again.vectors(texts), Embedder(VectorStore(None)).vectors(texts))
    assert again.encoded == len(texts) - len(kept)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_address_where_nothing_listens_is_one_line_at_once(ray_local, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("OPENBOOK_DATA_DIR", str(tmp_path))
    port = closed_port()
    for options, env in ((["--ray-address", f"127.0.0.1:{port}"], None), ([], f"127.0.0.1:{port}")):
        if env:
            monkeypatch.setenv("OPENBOOK_RAY_ADDRESS", env)
        t = time.monotonic()
        assert main(["report", "--tables", "ceiling", "--encoder", "minilm", "--compute", "ray", *options]) == 2
        err = capsys.readouterr().err
        assert time.monotonic() - t < 5 and err.count("\n") == 1
        assert err.startswith(f"error: No Ray cluster answers at 127.0.0.1:{port}") and "ray start --head" in err


def test_an_address_that_never_answers_fails_within_the_timeout():
    with socket.socket() as s:                   # accepts connections (the kernel does), never says a word
        s.bind(("127.0.0.1", 0))
        s.listen(4)
        t = time.monotonic()
        with pytest.raises(ValueError, match="is not a Ray cluster .no gRPC greeting within 1 s"):
            probe(f"127.0.0.1:{s.getsockname()[1]}", timeout=1.0)
        assert time.monotonic() - t < 3


@pytest.mark.parametrize("args, words", [
    (["--ray-address", "127.0.0.1:6379"], "--ray-address goes with --compute ray"),
    (["--compute", "ray", "--ray-address", "nohost"], "is not host:port"),
    (["--compute", "cloud"], "invalid choice"),
    (["--on-cluster-loss", "stop"], "--on-cluster-loss goes with --compute ray"),
    (["--compute", "ray", "--ray-address", " "], "--ray-address is empty"),
    (["--compute", "ray", "--ray-address", "u:s3cret@h:1"], "takes no user or password"),
])
def test_bad_compute_options_are_one_line(capsys, args, words):
    assert main(["report", "--tables", "ceiling", *args]) == 2      # the CLI's parsers say it in one line, exit 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1, err


def test_without_ray_installed_the_option_says_how_to_get_it():
    code = ("import sys; sys.modules['ray'] = None\n"          # what an environment without Ray looks like
            "from rag_core.__main__ import main\n"
            "sys.exit(main(['report', '--tables', 'ceiling', '--encoder', 'minilm', '--compute', 'ray']))")
    out = subprocess.run([sys.executable, "-c", code], cwd=str(ROOT), capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == "error: Ray is not installed in this environment: pip install -r requirements-ray.txt " \
                         "(or `make cluster`).\n"


def test_a_worker_killed_under_format_json_keeps_stdout_json_and_says_so_on_stderr(ray_local, capsys, monkeypatch,
                                                                                  tmp_path):
    """Ray prints "(raylet) A worker died ..." on the driver's stdout: the report's stdout must stay JSON alone."""
    import uuid
    import psutil
    import rag_core.cli.inputs as inputs
    run = uuid.uuid4().hex[:8]                       # texts no cache holds
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(3):
        (docs / f"note{i}.txt").write_text(" ".join(f"Note {run}-{i}-{j} says the kiln soaks {j} minutes."
                                                   for j in range(150)), encoding="utf-8")
    (tmp_path / "golden.csv").write_text("question,doc,anchor\n"
                                     f"How long does the kiln soak in note 0?,note0,Note {run}-0-5 says the kiln "
                                     f"soaks 5 minutes\n", encoding="utf-8")
    monkeypatch.setenv("OPENBOOK_DATA_DIR", str(tmp_path / "data"))
    seen = []

    def kill_the_workers(done, total, what):          # stands for the progress line: kills the actors mid-run
        seen.append(done)
        if done and len(seen) == 2:
            for p in psutil.Process().children(recursive=True):     # every actor: the rest cannot go to Ray
                if p.name().startswith("ray::_Worker"):
                    p.kill()
    monkeypatch.setattr(inputs, "progress_line", kill_the_workers)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code = main(["report", "--format", "json", "--tables", "ceiling", "--encoder", "minilm", "--docs", str(docs),
                 "--golden", str(tmp_path / "golden.csv"), "--compute", "ray"])
    out, err = capsys.readouterr()
    assert code == 0, err
    json.loads(out)                                  # nothing of Ray's in it
    assert len(seen) > 2 and "failed mid-run" in err and "encoded in this process" in err, err
