"""Where the trained encoder runs, in the sidebar of every page: this process (the default) or a Ray cluster,
the cluster's address, its status in one line and what runs where.

The choice and the address live in this browser session only, never in a link (where vectors are computed
changes no figure, and a link must not start a cluster on someone's server). The address is a password field,
emptied on Enter like the database URL; empty, the server's OPENBOOK_RAY_ADDRESS is used, else a local Ray with
this machine's cores, started when first chosen and stopped when the last session using it ends or chooses this
process. While Ray cannot be used, everything runs in this process and the sidebar says why.

Left out on purpose: Ray's own dashboard (off), choosing CPUs or actors (one actor per CPU of the cluster).
"""
import threading

import streamlit as st

from rag_core.retrieval.ray_connect import ADDRESS_ENV
from ui import ray_compute
from ui.widgets import failing, plain, secret_input

COMPUTE_NAMES = {"process": "This process", "ray": "Ray cluster"}
_slot = threading.local()            # this script run's place for the counts (one thread per run)
WHERE = ("On Ray: MiniLM's encoding of chunks (and of the dense rerank's windows), and the rankings of each "
         "chunker of an Ablations table and each Compare setup. Here: questions, answers and checks. The results "
         "are the ones this process computes.")


def choose() -> None:
    st.session_state["compute"] = st.session_state["_compute_field"]
    ray_compute.forget_compute_status()


def render() -> None:
    _slot.counts = None
    chosen = st.session_state.get("compute", "process")
    st.selectbox("Compute", tuple(COMPUTE_NAMES), index=tuple(COMPUTE_NAMES).index(chosen), key="_compute_field",
                 format_func=COMPUTE_NAMES.get, on_change=choose,
                 help="Where MiniLM encodes chunks and where the Ablations' and Compare's rankings are made: in this "
                      "process, or on a Ray cluster (a local one with this machine's cores unless an address is "
                      "given). The figures are the same either way; only the time a large upload takes changes.")
    if chosen == "process":
        return
    if st.session_state.get("ray_address"):
        placeholder = "set (hidden): type another to replace it"
    else:
        placeholder = f"empty: the server's {ADDRESS_ENV}" if ray_compute.ray_address() else "empty: a local Ray"
    secret_input("Ray address", "ray_address", placeholder=placeholder, forget="Forget this address",
                 forget_key="compute_forget_address", changed=ray_compute.forget_compute_status,
                 help="The head node of a running Ray cluster, host:port (e.g. 10.0.0.5:6379, started with "
                      "`ray start --head` or `make cluster`). Kept on the server for this browser session only: "
                      "the field empties once you press Enter and the address is never in a link. Left empty: "
                      f"the server's {ADDRESS_ENV}, else a local Ray with this machine's cores.")
    status = ray_compute.compute_status()
    if failing(status.problem, "everything runs in this process", ray_compute.forget_compute_status, "compute_retry"):
        return
    st.caption(plain(f"Computing on {status.text}.") + " " + WHERE)
    _slot.counts = st.empty()
    show_counts()


def show_counts() -> None:
    """How many texts this session encoded on Ray, in the sidebar's slot; the frame calls it again once the page
    has run, so that the count includes what the page encoded."""
    slot = getattr(_slot, "counts", None)
    (on_ray, here), units = ray_compute.ray_counts(), ray_compute.units_on_ray()
    if slot is None or not (on_ray or here or units):
        return
    said = [f"{on_ray:,} text{'s' * (on_ray != 1)} encoded on Ray"] if on_ray or here else []
    said += [f"{here:,} in this process after the cluster was lost"] if here else []
    said += [f"{units:,} sweep unit{'s' * (units != 1)} ranked on Ray"] if units else []
    slot.caption("This session: " + ", ".join(said) + ".")
