"""The independent units of a sweep ranked on a Ray cluster: one chunker of the Ablations' grid, one Compare setup.

    units = table_units(wb, ["size_overlap", "strategies"])   # what those tables rank: one unit per chunker
    units = setup_units(wb, setups)                            # one unit per Compare setup
    swept = rank_units(wb, units, compute)                     # those not ranked yet, on the cluster; then,
    tables.size_overlap(wb); compare_setups(wb, setups)        # in process, reading the rankings remembered

A unit is one retrieval setting (retriever, reranker, chunker) and the rankings it needs (Rank: depth k, allowed
statuses, rerank, candidates), as the tables and `losses.rankings` ask `Workbench.top_ids` for them. rank_units
first encodes what the units need with the cluster's encoder (its actors, batch by batch, into the workbench's
vector cache: `Workbench.prepare`), gives the actors' CPUs back (unless another run of this process, a dashboard's
other browser session, is encoding on them: then the units are ranked in process, after one note saying so), then
sends each unit to a task of one CPU (two per CPU in flight): the task rebuilds a Workbench from the corpus, the golden rows and the trusted statuses (put
in Ray's object store once; a worker keeps the last one it built) and from the vectors of its unit (sent with it:
a worker on another node shares no disk cache, and never encodes what it was given), ranks, and sends back the
chunk ids. The driver keeps them with `Workbench.remember_top_ids`, under the keys `ranked` uses, so that the tables
and `compare_setups` then run as in process and find them. Same code, same vectors: identical rankings. A table
that asks for something no unit holds computes it in process: slower, never different.

Failures as the encoder's (retrieval.ray_encoder), never a hang: a worker killed, a head gone, or no unit back
within UNIT_S ends the cluster's part of the sweep; the units already back are kept; with on_loss="process" the
rest is ranked in process (by the tables, as without Ray) after one `note`, with "stop" ClusterLost says so. A
unit that fails with an error of its own (e.g. a status the corpus lacks) is left to the process too, which
raises that error as it always does. A cluster lost while encoding has said so already (the encoder's note):
when no unit could be sent after it, no second note.

Left out on purpose: the PostgreSQL engines (their searches run in the database: those units stay here), the
answers and checks of Compare (they follow a unit's rankings question by question, in process), retrying a
unit on the cluster, and timing tables (latency is measured here, where the user waits).
"""
from __future__ import annotations

from collections import deque
from typing import Callable, NamedTuple

from rag_core.evaluation import tables as T
from rag_core.evaluation.losses import setup_workbench
from rag_core.evaluation.outcomes import PIPELINE_CANDIDATES, PIPELINE_FINAL, filters
from rag_core.evaluation.setup import default_setup
from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Progress, Workbench
from rag_core.retrieval.chunkers import ChunkerConfig
from rag_core.retrieval.ray_encoder import ON_LOSS, QUEUED, ClusterLost, RayEncoder, _sentence
from rag_core.retrieval.vectors import Embedder, VectorStore

UNIT_S = 300.0               # the longest a unit may take to come back (the first in a worker includes its start)


class Rank(NamedTuple):
    k: int                          # depth of the ranking (with rerank: the candidates, all of them reranked)
    allowed: frozenset | None       # statuses the filter allows; None: no filter
    rerank: bool = False
    k_candidates: int = 0           # candidates reranked (0 without rerank)


class Unit(NamedTuple):
    retriever: str
    reranker: str
    chunker: ChunkerConfig
    ranks: tuple                    # Rank, in the order first asked, one per setting at its deepest k

    @property
    def label(self) -> str:
        """"minilm, fixed 40/8" (", dense rerank" when it reranks with the dense reranker)."""
        rr = ", dense rerank" if self.reranker == "dense" and any(r.rerank for r in self.ranks) else ""
        return f"{self.retriever}, {self.chunker.label}{rr}"


class Swept(NamedTuple):
    on_ray: int                     # units ranked on the cluster
    here: int                       # units left to this process (after a loss, or an error of their own)
    lost: str                       # why the cluster's part stopped, in a few words ("" if it did not)
    missing_on_workers: int         # texts a worker lacked a vector for (0: it never needed the model's encoding)


def units_of(items) -> list[Unit]:
    """(retriever, reranker, chunker, Rank) items -> Units, one per (retriever, reranker, chunker) in order of
    appearance; a setting asked twice is ranked once, at its deepest k; a rerank brings its candidates' ranking
    (the bi-encoder's, `Workbench.top_ids` ranks them first) and is ranked to its candidates' depth.

    [("hashing", "lexical", c, Rank(3, None)), ("hashing", "lexical", c, Rank(50, None))]
    -> [Unit("hashing", "lexical", c, (Rank(50, None),))]
    """
    groups: dict = {}               # (retriever, reranker, chunker) -> {(allowed, rerank, k_candidates): depth}
    for retriever, reranker, chunker, r in items:
        allowed = None if r.allowed is None else frozenset([r.allowed] if isinstance(r.allowed, str) else r.allowed)
        settings = groups.setdefault((retriever, reranker, chunker), {})
        wanted = [((allowed, False, 0), r.k_candidates), ((allowed, True, r.k_candidates), r.k_candidates)] \
            if r.rerank else [((allowed, False, 0), r.k)]
        for setting, depth in wanted:
            settings[setting] = max(depth, settings.get(setting, 0))
    return [Unit(*key, tuple(Rank(depth, *setting) for setting, depth in settings.items()))
            for key, settings in groups.items()]


def _table_ranks(wb: Workbench, name: str, chunker: ChunkerConfig) -> list[tuple[ChunkerConfig, Rank]]:
    """(chunker, Rank) for each `ranked` call table `name` makes (see tables; none for those that rank nothing)."""
    trusted = frozenset(wb.trusted)
    if name == "ceiling":
        return [(chunker, Rank(max(T.CEILING_KS), None))]
    if name in ("strategies", "size_overlap"):
        return [(c, Rank(3 if name == "strategies" else 50, None)) for c in T.chunkers_of(name)]
    if name == "filter":
        return [(chunker, Rank(3, None if a is None else frozenset(a))) for _, a in filters(wb)]
    if name == "rerank":
        return [(c, r) for c in T.chunkers_of(name) for r in (Rank(50, trusted), Rank(50, trusted, True, 50))]
    if name in ("pipeline", "pipeline_model"):
        return [(chunker, Rank(PIPELINE_FINAL, None if a is None else frozenset(a), True, PIPELINE_CANDIDATES))
                for _, a in filters(wb)]
    return []


def table_units(wb: Workbench, names, chunker: ChunkerConfig = ARTICLE_CHUNKER) -> list[Unit]:
    """The units the report's tables `names` rank with wb's retriever and reranker, so that computing them
    afterwards finds every ranking remembered ("losses" ranks as the article's pipeline setup does). None on a
    PostgreSQL engine."""
    if wb.engine != "memory":
        return []
    items = [(wb.retriever, wb.reranker, c, r) for name in names for c, r in _table_ranks(wb, name, chunker)]
    units = units_of(items)
    if "losses" in names:
        units = units_of([(u.retriever, u.reranker, u.chunker, r) for u in units + setup_units(wb, [
            default_setup(wb, chunker=chunker)]) for r in u.ranks])
    return units


def setup_units(wb: Workbench, setups) -> list[Unit]:
    """One unit per Compare setup: its candidates before and after the rerank (`losses.rankings`), with the
    retrieval options it sets. Setups on a PostgreSQL engine have none; ValueError for a setup's bad option."""
    items = []
    for s in setups:
        bench = setup_workbench(wb, s)
        if bench.engine == "memory":
            items.append((bench.retriever, bench.reranker, s.chunker,
                          Rank(s.candidates, s.statuses, s.rerank, s.candidates if s.rerank else 0)))
    return units_of(items)


def rank_units(wb: Workbench, units, compute, on_progress: Progress | None = None, on_loss: str = "process",
               note: Callable[[str], None] | None = None, unit_s: float = UNIT_S) -> Swept:
    """Rank every unit on the cluster of `compute` (a ray_encoder.RayCompute) and remember the rankings in wb's
    memo (shared by its siblings). on_progress(units done, units in all, what) as units come back; note(sentence)
    once if the cluster fails and the rest is left to this process (on_loss="process"); ClusterLost with
    on_loss="stop"."""
    if on_loss not in ON_LOSS:
        raise ValueError(f"on_loss is one of {', '.join(ON_LOSS)}, got {on_loss!r}.")
    units = [u for u in units if not _ranked_already(wb, u)]
    if not units:
        return Swept(0, 0, "", 0)
    on_progress = on_progress or wb.on_progress
    encoder = _encode(wb, units, compute, on_loss, note)
    if compute.busy:                 # another run of this process (a dashboard's other browser session) encodes on
        if note:                     # the actors: they keep their CPUs, the units are ranked here
            note(f"the Ray cluster's CPUs are encoding for another run; the {len(units):,} unit"
                 f"{'s' * (len(units) != 1)} of this one {'are' if len(units) != 1 else 'is'} ranked in this process.")
        return Swept(0, len(units), "", 0)
    compute.release()                # the encoder's actors give their CPUs back to the units' tasks
    run = _Run(wb, units, compute, on_progress, unit_s)
    run.send_all()
    left = len(units) - run.done - len(run.errors)
    if run.lost and left:
        if on_loss == "stop":
            raise ClusterLost(f"The Ray cluster failed mid-sweep ({run.lost}) after {run.done:,} of {len(units):,} "
                              f"units: run again, or use --on-cluster-loss process to rank the {left:,} left here.")
        if note and (run.sent or not encoder.noted):
            note(f"the Ray cluster failed mid-sweep ({run.lost}) after {run.done:,} of {len(units):,} units; "
                 f"the {left:,} left are ranked in this process.")
    return Swept(run.done, len(units) - run.done, run.lost, run.missing)


def _encode(wb: Workbench, units, compute, on_loss: str, note) -> RayEncoder:
    """Encode, in one pass on the cluster's actors, every vector the units need (as `Workbench.prepare` does);
    the encoder used (the workbench's own when it already encodes on this cluster)."""
    backend = wb.embedder.backend
    encoder = backend if isinstance(backend, RayEncoder) and backend.compute is compute else \
        compute.encoder(on_loss, note=note)
    need = {"chunks": [], "whole": [], "questions": []}
    for u in units:
        for part, texts in _bench(wb, u).needs([u.chunker]).items():
            need[part] += texts
    if any(need.values()):
        wb.embedder.using(encoder).prepare(**{p: list(dict.fromkeys(t)) for p, t in need.items()},
                                           on_progress=wb.on_progress)
    return encoder


def _ranked_already(wb: Workbench, unit: Unit) -> bool:
    """Whether wb remembers every ranking of the unit (an earlier sweep or page did it): nothing to send."""
    bench = _bench(wb, unit)
    return all(bench.has_top_ids(unit.chunker, r.k, r.allowed, r.rerank, r.k_candidates or 50) for r in unit.ranks)


def _bench(wb: Workbench, unit: Unit) -> Workbench:
    return wb.using(retriever=unit.retriever, reranker=unit.reranker)


class _Run:
    """One pass of units over the cluster: sent two per CPU ahead, collected as they come back."""

    def __init__(self, wb: Workbench, units: list, compute, on_progress, unit_s: float):
        self.wb, self.units, self.compute, self.ray = wb, units, compute, compute.ray
        self.on_progress, self.unit_s = on_progress, unit_s
        self.done, self.missing, self.lost, self.sent = 0, 0, "", 0
        self.errors: list[int] = []          # units that failed with an error of their own: left to the process

    def send_all(self) -> None:
        ray, todo, pending = self.ray, deque(range(len(self.units))), {}     # pending: object ref -> unit number
        try:
            if not self.units:
                return
            if not self.compute.check_alive():
                raise ConnectionError(self.compute.gone)
            base = [ray.put((self.wb.corpus, self.wb.golden_check.rows, self.wb.trusted))]   # once, by reference
            task = ray.remote(num_cpus=1, max_retries=0)(_rank_unit)
            ahead = QUEUED * max(1, int(ray.cluster_resources().get("CPU", 1)))
            while (todo or pending) and not self.lost:
                while todo and len(pending) < ahead:
                    i = todo.popleft()
                    u = self.units[i]
                    pending[task.remote(base, u, self._held(u))] = i
                    self.sent += 1
                self._collect(pending)
            if self.lost and not self.lost.startswith("no unit") and self.compute.check_alive():
                while pending and self._collect(pending):       # keep what the other workers finish
                    pass
        except (ray.exceptions.RayError, ConnectionError) as e:     # the cluster went away while sending work
            self.lost = self.lost or (str(e) if isinstance(e, ConnectionError) else _sentence(e))
        finally:
            if self.lost and self.compute.check_alive():   # a head gone: Ray is left now (else it ends this
                for ref in pending:                            # process); a call now would start a local one
                    try:
                        ray.cancel(ref, force=True)
                    except Exception:                # gone with its cluster
                        pass

    def _held(self, unit: Unit) -> dict:
        bench = _bench(self.wb, unit)
        return bench.embedder.held(**bench.needs([unit.chunker]))

    def _collect(self, pending: dict) -> bool:
        """Take one unit that is back: its rankings remembered, or the reason it failed. False if none came."""
        ready, _ = self.ray.wait(list(pending), num_returns=1, timeout=self.unit_s)
        if not ready:
            self.lost = self.lost or f"no unit came back within {self.unit_s:g} s"
            return False
        u = self.units[pending.pop(ready[0])]
        try:
            lists, missing = self.ray.get(ready[0])
        except self.ray.exceptions.RayTaskError as e:
            if isinstance(getattr(e, "cause", None), ValueError):   # the unit's own error (a bad status, ...):
                self.errors.append(u)                                  # the process raises it as always
            else:                                 # the worker cannot run ours (an environment without rag_core)
                self.lost = self.lost or _sentence(getattr(e, "cause", None) or e)
            return True
        except self.ray.exceptions.RayError as e:
            self.lost = self.lost or _sentence(e)
            return True
        bench = _bench(self.wb, u)
        for r, ids in zip(u.ranks, lists):
            bench.remember_top_ids(u.chunker, r.k, ids, r.allowed, r.rerank, r.k_candidates or 50)
        self.done += 1
        self.missing += missing
        if self.on_progress:
            self.on_progress(self.done, len(self.units), f"Ranking {len(self.units):,} sweep units on Ray: "
                                                         f"{self.done:,} done ({u.label})")
        return True


_BENCHES: dict = {}          # in a Ray worker: the sweep's object ref (hex) -> its Workbench, the last one only


def _rank_unit(base: list, unit: Unit, held: dict) -> tuple[list, int]:
    """In a Ray worker: the rankings of the unit, and how many texts it lacked a vector for (0 when the vectors
    sent are all it needs: then the model encodes nothing here)."""
    import ray
    key = (base[0].hex(), held.get("path"))       # the sweep and the forward pass its vectors come from
    if key not in _BENCHES:
        corpus, rows, trusted = ray.get(base[0])
        _BENCHES.clear()
        _BENCHES[key] = Workbench(corpus, rows, trusted,
                                  embedder=Embedder(VectorStore(None), threads=1, path=held.get("path")))
    wb = _BENCHES[key].using(retriever=unit.retriever, reranker=unit.reranker)
    wb.embedder.remember(held)
    missing = wb.embedder.missing(**wb.needs([unit.chunker]))
    return [wb.top_ids(unit.chunker, r.k, r.allowed, r.rerank, r.k_candidates or 50) for r in unit.ranks], missing
