"""Where the command line's trained encoder and sweep run: in this process (the default) or on a Ray cluster.

    python -m rag_core report --encoder minilm --compute ray                   # a local Ray, stopped at the end
    python -m rag_core report --encoder minilm --compute ray --ray-address 10.0.0.5:6379
    OPENBOOK_RAY_ADDRESS=10.0.0.5:6379 python -m rag_core compare ... --compute ray --on-cluster-loss stop

`add_compute_options(parser)` adds the three options to a command; `compute_embedder(args)` is the Embedder the
command's Workbench uses (None: the process's own, as without these options), with the Ray session it opened
kept until `close_compute()` (in a `finally`, so a failed run stops its local Ray too); `rank_sweep(wb, units,
args)` ranks the sweep's units (evaluation.sweep: a report's chunkers, a comparison's setups) on that session,
and the command then computes as in process, reading them. Only this option imports Ray
(retrieval.ray_encoder): without it installed, `--compute ray` is one line saying how to get it.

Left out on purpose: the answers and checks of a comparison on Ray (they follow the rankings question by
question, here), a dashboard of Ray's own (the `note:` line says the cluster's nodes and CPUs).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import signal
import threading

from rag_core.cli.output import on_terminate

COMPUTES = ("process", "ray")
_open: list = []                     # the Ray sessions opened by this command, closed by close_compute()


def add_compute_options(p: argparse.ArgumentParser) -> None:
    """--compute, --ray-address and --on-cluster-loss, the same on every command that encodes."""
    p.add_argument("--compute", choices=COMPUTES, default="process",
                   help="where the trained encoder and the sweep's rankings (one unit per chunker or setup) run: "
                        "process (this one, the default) or ray (a Ray cluster: a local one with this machine's "
                        "cores unless --ray-address is given)")
    p.add_argument("--ray-address", metavar="ADDR",
                   help="with --compute ray: the cluster to join, host:port of its head (default: "
                        "$OPENBOOK_RAY_ADDRESS, else a local Ray started and stopped by this command)")
    p.add_argument("--on-cluster-loss", choices=("process", "stop"),
                   help="with --compute ray, when the cluster fails mid-run: process (finish here, the default) or "
                        "stop (one error line; the vectors already encoded stay in the cache)")


def check_compute_options(args) -> None:
    """ValueError for the Ray options given without --compute ray, or an empty --ray-address."""
    if getattr(args, "compute", "process") != "ray":
        for given, option in ((args.ray_address is not None, "--ray-address"),
                              (args.on_cluster_loss is not None, "--on-cluster-loss")):
            if given:
                raise ValueError(f"{option} goes with --compute ray.")
    if args.ray_address is not None and not args.ray_address.strip():
        raise ValueError("--ray-address is empty: give the head's host:port, or leave the option out for a local "
                         "Ray.")


@contextlib.contextmanager
def quiet_stdout(args):
    """With --compute ray, what Ray itself prints on this process's stdout while the command computes ("(raylet)
    A worker died ...") is dropped: stdout carries the report alone, and the `note:` lines say what happened."""
    if getattr(args, "compute", "process") != "ray":
        yield
        return
    with contextlib.redirect_stdout(io.StringIO()):
        yield


def compute_embedder(args, note=None, path: str | None = None):
    """The Embedder for --compute (None for process); ValueError in one sentence when Ray cannot be used."""
    compute = getattr(args, "compute", "process")
    check_compute_options(args)
    if compute == "process":
        return None
    from rag_core.retrieval.ray_connect import ADDRESS_ENV
    from rag_core.retrieval.ray_encoder import RayCompute
    from rag_core.retrieval.vectors import Embedder
    session = RayCompute(args.ray_address or os.environ.get(ADDRESS_ENV) or None)
    _open.append(session)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, on_terminate)    # ours again: ray.init put its own (a stack dump, exit 1)
    if note:
        note(f"the trained encoder and the sweep's rankings run on {session.status()}.")
    return Embedder.default(path).using(session.encoder(args.on_cluster_loss or "process", note=note))


def close_compute() -> None:
    """Stop the local Ray this command started, or leave the cluster it joined."""
    while _open:
        _open.pop().close()


def rank_sweep(wb, units, args, note=None) -> None:
    """With --compute ray: the sweep's units ranked on the command's Ray session and remembered in wb (see
    evaluation.sweep; a cluster lost is one `note`, or ClusterLost with --on-cluster-loss stop). Nothing with
    --compute process."""
    if getattr(args, "compute", "process") != "ray" or not _open:
        return
    from rag_core.evaluation.sweep import rank_units
    rank_units(wb, units, _open[-1], on_loss=args.on_cluster_loss or "process", note=note)
