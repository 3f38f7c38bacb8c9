"""MiniLM encoding on a Ray cluster: actors that each load the weights once and take batches of word pieces.

    with RayCompute(address=None) as compute:         # a local Ray with this machine's cores, stopped at the end
        emb = Embedder.default().using(compute.encoder(on_loss="process"))
        emb.vectors(texts, on_progress=cb)            # the vectors the process computes, bit for bit, same cache
    RayCompute("10.0.0.5:6379")                       # joins a running cluster (`ray start --head` on that node)
    compute.status()                                  # "Ray 2.60.0, local: 1 node, 2 CPUs"

The encoder is a drop-in for `MiniLM.encode_pieces(seqs, threads, on_batch)`, told the forward pass (`path=`, one
of encoder_path.PATHS: each actor loads that path's encoder, so the cluster runs what the process would; the
Embedder's `backend`): the
sequences are cut into the batches the process makes (`minilm.batched`: longest first, about BATCH_PIECES word
pieces each), each batch goes to one actor (one per CPU of the cluster, two batches queued on each), and on_batch
runs in the caller's thread as batches come back, so the vectors land in the same vector cache (memory and disk)
as they arrive. The same batches through the same numpy code: the process's vectors to the last bit on the same
kind of CPU (another batch height can change the last bits of a long text's vector, about 1e-7).

Failures are one sentence and never a hang: an address where no Ray answers is refused within ray_connect.CONNECT_S (a TCP
connection and an HTTP/2 greeting, Ray's gRPC, before `ray.init` is called); a worker that dies, a head that goes
away, or a batch that takes longer than BATCH_S stops the cluster's part of the run and keeps every vector already
back (they are in the cache); then `on_loss="process"` encodes the rest here, with the same batches (one `note`),
and `on_loss="stop"` raises ClusterLost saying so. A head gone is left at once (Ray ends a driver a minute after
losing its head). Ray runs with its usage statistics and dashboard off, its files under the data folder ("ray"),
and joins with this machine's Ray token when it has one.

Left out on purpose: Ray Data (a queue of batches to a pool of actors is all this needs), GPUs, restarting
dead actors (the rest runs here, or the user reruns: the cache keeps what was done), shipping the model's
weights (every node needs the same environment: requirements*.txt), and the sweep units of Ablations/Compare
(evaluation.sweep sends them as tasks to the same session; retrieval.ray_sessions shares one per server).
"""
from __future__ import annotations

import contextlib
import logging
import os
from collections import deque
from pathlib import Path
from typing import Callable

import numpy as np

from rag_core.retrieval import encoder_path
from rag_core.retrieval.minilm import BATCH_PIECES, DIM, batched
from rag_core.retrieval.ray_connect import has_token, import_ray, log_dir, probe, quiet_stderr

ON_LOSS = ("process", "stop")        # what to do with the rest of a run when the cluster fails mid-way
BATCH_S = 300.0                      # the longest a batch may take (the first includes loading the weights)
QUEUED = 2                           # batches sent ahead to each actor, so that none waits for the driver
OBJECT_STORE_BYTES = 512 * 2**20     # a local Ray's object store: a sweep's corpus and its units' vectors; spills beyond
class ClusterLost(RuntimeError):
    """The cluster failed mid-run and on_loss="stop": the message says what was kept and how to go on."""


class _Worker:
    """One Ray actor: the weights loaded once per path, then batches of framed piece sequences encoded one at a
    time."""

    def __init__(self):
        encoder_path.load("numpy")

    def encode(self, seqs: list[np.ndarray], path: str = "numpy") -> np.ndarray:
        return encoder_path.load(path).encode_pieces(seqs, threads=1)

    def where(self) -> tuple[str, int]:
        import ray
        return ray.get_runtime_context().get_node_id(), os.getpid()


class RayCompute:
    """A Ray session: a local one started (and stopped by close) when no address is given, else the cluster at
    the address joined (left by close). When Ray already runs in this process it is used as it is.

    The session owns the pool of actors, one per CPU of the cluster, made on first use and shared by its
    encoders; `release()` gives their CPUs back (the next use makes a new pool)."""

    def __init__(self, address: str | None = None, num_cpus: int | None = None):
        self.address = (address or "").strip() or None
        if self.address and self.address != "auto":
            probe(self.address)
        if self.address and "RAY_AUTH_MODE" not in os.environ and has_token():
            os.environ["RAY_AUTH_MODE"] = "token"      # as Ray does for "auto" only; read when ray is imported
        self.ray = import_ray()
        if self.ray.is_initialized():
            self.owned = False
        else:
            options = dict(include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
            if self.address:
                self._join(options)
            else:
                self._start(num_cpus or os.cpu_count() or 1, options)
            self.owned = True
        self.actors: list = []
        self.busy = 0                    # encoders of this session encoding now
        self.gcs = self.ray.get_runtime_context().gcs_address      # the head, asked when something fails
        self.gone = ""                   # why the cluster is gone, once it is (then Ray is left for good)

    def _start(self, num_cpus: int, options: dict) -> None:
        """ray.init of a local Ray; ValueError in one sentence naming its logs when it does not start. Its object
        store is OBJECT_STORE_BYTES, not Ray's 30 % of the machine's memory (whose reservation alone fails under a
        limit of the address space), and its workers import rag_core from here, whatever the current folder."""
        root = str(Path(__file__).resolve().parents[2])
        path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
        try:
            with quiet_stderr():
                self.ray.init(num_cpus=num_cpus, _temp_dir=log_dir(), object_store_memory=OBJECT_STORE_BYTES,
                              runtime_env={"env_vars": {"PYTHONPATH": path}}, **options)
        except Exception as e:
            with contextlib.suppress(Exception):
                self.ray.shutdown()
            raise ValueError(f"A local Ray did not start ({_sentence(e)}): its logs are in {log_dir()}; with a "
                             f"memory limit on this process, Ray needs about 2 GB of address space.") from None

    def _join(self, options: dict) -> None:
        """ray.init at the address (Ray's retries on stderr kept out of the user's terminal), the rag_core package
        sent along for the cluster's workers."""
        root = Path(__file__).resolve().parents[1]
        try:
            with quiet_stderr():
                self.ray.init(address=self.address, runtime_env={"py_modules": [str(root)]}, **options)
        except Exception as e:
            raise ValueError(f"Joining the Ray cluster at {self.address} failed ({_sentence(e)}): check that it is "
                             f"the head's GCS port (6379 unless `ray start --head --port` said otherwise), that this "
                             f"machine has the head's token (its ~/.ray/auth_token, or RAY_AUTH_TOKEN) and the same "
                             f"Ray and Python versions.") from None

    def status(self) -> str:
        """One line: "Ray 2.60.0, local: 1 node, 2 CPUs" (nodes alive, the cluster's CPUs)."""
        nodes = [n for n in self.ray.nodes() if n.get("Alive")]
        cpus = int(self.ray.cluster_resources().get("CPU", 0))
        where = f"at {self.address}" if self.address else "local"
        return (f"Ray {self.ray.__version__}, {where}: {len(nodes)} node{'s' * (len(nodes) != 1)}, "
                f"{cpus} CPU{'s' * (cpus != 1)}")

    def encoder(self, on_loss: str = "process", batch_pieces: int = BATCH_PIECES, note=None) -> "RayEncoder":
        return RayEncoder(self, on_loss, batch_pieces=batch_pieces, note=note)

    def pool(self) -> list:
        """The actors, one per CPU of the cluster, each with the weights loaded (once, when it starts)."""
        if not self.actors:
            remote = self.ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(_Worker)
            cpus = max(1, int(self.ray.cluster_resources().get("CPU", 1)))
            self.actors = [remote.remote() for _ in range(cpus)]
        return self.actors

    def where(self, timeout: float = BATCH_S) -> list[tuple[str, int]]:
        """(node id, process id) of each actor: what runs where."""
        return self.ray.get([a.where.remote() for a in self.pool()], timeout=timeout)

    def check_alive(self) -> bool:
        """Whether the head still answers; if not, this process leaves Ray at once (else Ray ends the process a
        minute after losing its head) and `gone` says why."""
        if not self.gone:
            try:
                probe(self.gcs, timeout=2.0)
            except ValueError:
                self.gone = f"its head at {self.gcs} no longer answers"
                self.actors = []
                with quiet_stderr():
                    self.ray.shutdown()
        return not self.gone

    def release(self, if_idle: bool = False) -> None:
        """Stop the actors (their CPUs and memory go back to the cluster); with if_idle, only when no encoder of
        this session is encoding (a dashboard's other browser sessions share them)."""
        if self.gone or (if_idle and self.busy):
            return
        for a in self.actors:
            try:
                self.ray.kill(a)
            except Exception:          # already gone with its cluster
                pass
        self.actors = []

    def close(self) -> None:
        self.release()
        if self.owned and not self.gone and self.ray.is_initialized():
            self.ray.shutdown()

    def __enter__(self) -> "RayCompute":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class RayEncoder:
    """encode_pieces on the session's actors; on_loss says what to do with the rest when the cluster fails."""

    def __init__(self, compute: RayCompute, on_loss: str = "process", batch_s: float = BATCH_S,
                 batch_pieces: int = BATCH_PIECES, note: Callable[[str], None] | None = None):
        if on_loss not in ON_LOSS:
            raise ValueError(f"on_loss is one of {', '.join(ON_LOSS)}, got {on_loss!r}.")
        self.compute, self.ray, self.on_loss, self.batch_s = compute, compute.ray, on_loss, batch_s
        self.batch_pieces = batch_pieces          # per batch sent (smaller: finer progress, more round trips)
        self.lost = ""                 # what went wrong in the last run, if anything (one sentence)
        self.noted = False
        self.on_ray = self.here = 0    # texts encoded by the cluster's actors, and by this process after a loss
        self.note = note               # told once, in one sentence, when the rest of a run is encoded here

    def __call__(self, seqs: list[np.ndarray], threads: int = 1,
                 on_batch: Callable[[np.ndarray, np.ndarray], None] | None = None, path: str = "numpy") -> np.ndarray:
        self.compute.busy += 1
        try:
            return self._encode(seqs, threads, on_batch, path)
        finally:
            self.compute.busy -= 1

    def _encode(self, seqs: list[np.ndarray], threads: int,
                on_batch: Callable[[np.ndarray, np.ndarray], None] | None, path: str) -> np.ndarray:
        out = np.zeros((len(seqs), DIM), dtype=np.float32)
        todo, pending, failed = deque(batched(seqs, self.batch_pieces)), {}, []   # pending: object ref -> (actor, positions)
        self.lost, done = "", 0
        try:
            if not self.compute.check_alive():
                raise ConnectionError(self.compute.gone)
            actors = self.compute.pool()
            load = {id(a): 0 for a in actors}
            while (todo or pending) and not self.lost:
                for a in actors:
                    while todo and load[id(a)] < QUEUED:
                        batch = todo.popleft()
                        pending[a.encode.remote([seqs[i] for i in batch], path)] = (a, batch)
                        load[id(a)] += 1
                done += self._collect(pending, load, failed, out, on_batch, wait_all=False)
            if self.lost and self.compute.check_alive():    # keep what the other actors finish: done work
                done += self._collect(pending, load, failed, out, on_batch, wait_all=True)
        except (self.ray.exceptions.RayError, ConnectionError) as e:    # the cluster went away while sending work
            self.lost = self.lost or (str(e) if isinstance(e, ConnectionError) else _sentence(e))
        if not self.lost:
            return out
        self.compute.check_alive()                   # a head gone: leave Ray now, before it ends this process
        rest = list(todo) + failed + [b for _, b in pending.values()]
        self.compute.release()                       # a new pool next time, on what is left of the cluster
        left = sum(len(b) for b in rest)
        if self.on_loss == "stop":
            raise ClusterLost(f"The Ray cluster failed mid-run ({self.lost}) after {done:,} of {len(seqs):,} texts; "
                              f"those vectors are kept in the cache: run again to encode the {left:,} left, or use "
                              f"--on-cluster-loss process to finish here.")
        if self.note and not self.noted:
            self.noted = True
            self.note(f"the Ray cluster failed mid-run ({self.lost}) after {done:,} of {len(seqs):,} texts; "
                      f"the {left:,} left are encoded in this process.")
        here = encoder_path.load(path).encode_pieces(seqs, threads, on_batch, batches=rest)   # the same batches, here
        self.here += left
        for b in rest:
            out[b] = here[b]
        return out

    def _collect(self, pending: dict, load: dict, failed: list, out, on_batch, wait_all: bool) -> int:
        """Take the batches that are back (one, or all that come back when wait_all): their vectors go to out
        and on_batch; a failed batch goes to `failed` and sets self.lost. Returns how many texts came back."""
        got = 0
        while pending:
            ready, _ = self.ray.wait(list(pending), num_returns=1, timeout=self.batch_s)
            if not ready:
                self.lost = self.lost or f"no batch came back within {self.batch_s:g} s"
                return got
            actor, batch = pending.pop(ready[0])
            load[id(actor)] -= 1
            try:
                vecs = self.ray.get(ready[0])
            except self.ray.exceptions.RayError as e:
                self.lost = self.lost or _sentence(e)
                failed.append(batch)
            else:
                out[batch] = vecs
                self.on_ray += len(batch)        # counted as it arrives: a run interrupted keeps its count
                if on_batch:
                    on_batch(batch, vecs)
                got += len(batch)
            if not wait_all:
                return got
        return got


def _sentence(e: Exception) -> str:
    """Ray's error in a few words: its type and first sentence, at most 160 characters
    ("ActorDiedError: The actor died unexpectedly before finishing this task.")."""
    first = next((line.strip() for line in str(e).splitlines() if line.strip()), "")
    first = first.split(". ")[0].rstrip(".")
    if len(first) > 160:
        first = first[:160].rsplit(" ", 1)[0] + " ..."
    return f"{type(e).__name__}: {first}".rstrip(": ")
