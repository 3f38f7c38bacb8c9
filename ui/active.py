"""The active dataset's Workbench with the sidebar's settings, and what the pages read from it: rag_core's tables,
the tour's steps, the latency, a comparison, each cached in `ui.cache` under `settings_key`; and the preparation:
what the trained encoder needs, encoded once under one progress bar (on Ray when the sidebar chose it).

Left out on purpose: any computation (it belongs to rag_core), the caches themselves (`ui.cache`), which dataset is
active (`ui.datasets`) and persistence across server restarts.
"""
from __future__ import annotations

import contextlib
import hashlib

import pandas as pd
import streamlit as st

from rag_core import ARTICLE_CHUNKER, ChunkerConfig, Workbench
from rag_core.data.golden import load_golden
from rag_core.evaluation import tables
from ui import cache, datasets, ray_compute, search_engine
from ui.widgets import plain


def workbench() -> Workbench:
    """The active dataset's Workbench with the sidebar's retriever, reranker, search engine and trusted statuses.
    The built-in ones are shared by every session (read-only); an upload's lives in its session alone and is
    released with it, so memory follows the sessions that are open."""
    ds = datasets.dataset()
    base = cache.upload_workbench(ds.key, ds) if ds.uploaded else cache.built_in_workbench(
        datasets.BUILT_IN_GOLDEN[ds.key])
    return _with_sidebar(base).trusting(datasets.chosen_trust(ds.key))


def _with_sidebar(base: Workbench) -> Workbench:
    wb = base.using(retriever=st.session_state.get("retriever", "hashing"),
                    reranker=st.session_state.get("reranker", "lexical"),
                    engine=search_engine.engine_status().name).connected(search_engine.database_url())
    return wb.encoding_with(ray_compute.ray_embedder(wb)) if ray_compute.compute_status().name == "ray" else wb


def _bundled_with_sidebar() -> Workbench:
    """The bundled corpus and the article's questions with the sidebar's settings, whatever dataset is active."""
    return _with_sidebar(cache.built_in_workbench(datasets.BUILT_IN_GOLDEN[datasets.BUNDLED.key]))


def settings_key(wb: Workbench, dataset_key: str | None = None) -> str:
    """What decides a table besides the chunker: the dataset (the active one unless given), retriever, reranker,
    engine, database (hashed) and the trusted statuses (never holding ',')."""
    db = hashlib.sha256(search_engine.database_url().encode()).hexdigest()[:12] if wb.engine != "memory" else ""
    key = dataset_key or datasets.dataset().key
    return f"{key}|{wb.retriever}|{wb.reranker}|{wb.engine}|{db}|{','.join(wb.trusted)}"


def overlap_with_exact(chunker: ChunkerConfig, k: int) -> float:
    """Recall at k of the engine in use against exact in-process search, over the golden questions, trusted
    statuses only (every status when nothing is trusted); kept in this session per dataset, chunker and settings."""
    wb = workbench()
    key = (settings_key(wb), chunker, k)
    held = st.session_state.setdefault("_overlap_with_exact", {})
    if key not in held:
        prepare([chunker], wb)
        held[key] = wb.overlap_with_exact(chunker, k, set(wb.trusted) or None)    # nothing trusted: every status
    return held[key]


def table(name: str, chunker: ChunkerConfig = ARTICLE_CHUNKER) -> pd.DataFrame:
    """A rag_core table for the active dataset (and chunker, for the tables that take one)."""
    wb = workbench()
    prepare(tables.chunkers_of(name, chunker))
    return cache.table(settings_key(wb), name, chunker, wb)


def tour_step(number: int, chunker: ChunkerConfig, controls):
    """Step `number` of the tour (rag_core.evaluation.tour) for the active dataset, sidebar and controls."""
    wb = workbench()
    return cache.tour_step(settings_key(wb), number, chunker, controls, wb)


def trap3_table(active: bool = False) -> pd.DataFrame:
    """Ceiling at k of every retriever, trusted statuses only: on the bundled corpus, the article's questions beside
    the same anchors asked as a user would (the article's trap 3); with `active`, on the active dataset (an upload:
    its own questions, the user-phrased column empty)."""
    key = _trap3_dataset(active)
    wb = workbench() if key == datasets.dataset().key else _bundled_with_sidebar().trusting(datasets.chosen_trust(key))
    prepare_all(trap3_jobs(active))
    return cache.trap3(settings_key(wb, key), wb)


def latency(repetitions: int = 5) -> pd.DataFrame:
    """The latency table, timed live: 3 runs of `repetitions` passes (the article uses 20; 5 keeps the page quick)."""
    wb = workbench()
    prepare(tables.chunkers_of("latency"))
    return cache.latency(settings_key(wb), repetitions, wb)


def comparison(setups: tuple, generate_for, identity, on_progress=None):
    """The comparison of `setups` on the active dataset, kept in this session for its last 4 settings.

    identity: what else decides the answers (the model's settings, or "scripted"), part of the key.
    """
    from rag_core.evaluation.compare import compare_setups
    wb = workbench()
    key = (settings_key(wb), setups, identity)        # a setup's empty option takes the sidebar's, and the database
    held = st.session_state.setdefault("_comparisons", {})
    if key not in held:
        sweep_on_ray(setups=setups)               # with Ray chosen: each setup's rankings there
        partial = st.session_state.setdefault("_comparisons_partial", {})
        done = partial.setdefault(key, {})        # answers received so far: kept if the run is stopped, not asked again
        held[key] = compare_setups(wb, list(setups), generate_for=generate_for, done=done, on_progress=on_progress)
        partial.pop(key, None)
        while len(held) > 4:
            held.pop(next(iter(held)))
    return held[key]


# ---------------------------------------------------------------- the preparation

@contextlib.contextmanager
def _progress_bar():
    """A progress bar for `on_progress(done, total, what)`: drawn at the first count (nothing to do, nothing drawn),
    gone at the end; then what happened on Ray (a cluster lost mid-run: the rest ran here) is said once."""
    bar = []

    def tell(done: int, total: int, what: str) -> None:
        bar[:] = bar or [st.empty()]
        bar[0].progress(done / max(total, 1), text=what)
    try:
        yield tell
    finally:
        if bar:
            bar[0].empty()
        for note in ray_compute.compute_notes():
            st.warning(plain(note[:1].upper() + note[1:]), icon=":material/cloud_off:")


def prepare(chunkers, wb: Workbench | None = None) -> None:
    """Encode with the trained encoder, once, every chunk these chunkers need with `wb` (the active workbench unless
    given), then its questions, under one progress bar (`prepare_all`)."""
    prepare_all([(wb or workbench(), tuple(chunkers))])


def prepare_all(jobs) -> None:
    """Encode in one pass under one progress bar everything each (workbench, chunkers) of `jobs` needs from the
    trained encoder: chunks, then questions (nothing for the lexical retrievers, nor for what a cache holds). The
    bar counts texts done of the total, texts a second and the time left; it never restarts, and goes once done."""
    need = _needs(jobs)
    if need is None:
        return
    owner, need = need
    try:
        with _progress_bar() as tell:
            owner.embedder.prepare(**need, on_progress=tell)
    finally:
        if ray_compute.compute_status().session is not None:
            ray_compute.compute_status().session.release(if_idle=True)     # idle actors give CPUs and memory back


def sweep_on_ray(names=(), setups=(), chunker: ChunkerConfig = ARTICLE_CHUNKER) -> None:
    """With Ray chosen in the sidebar: the sweep units of the tables `names` (one per chunker) or of the Compare
    `setups` (one per setup) that are not ranked yet, ranked on the cluster under one progress bar, so that the
    tables and the comparison then read their rankings (rag_core.evaluation.sweep). Nothing in process."""
    status = ray_compute.compute_status()
    if status.name != "ray":
        return
    from rag_core.evaluation.sweep import rank_units, setup_units, table_units
    wb = workbench()
    units = table_units(wb, names, chunker) + setup_units(wb, setups)
    with _progress_bar() as tell:
        swept = rank_units(wb, units, status.session, on_progress=tell, note=ray_compute.note_taker())
        ray_compute.count_units_on_ray(swept.on_ray)


def _needs(jobs) -> tuple[Workbench, dict] | None:
    """(a workbench whose embedder all share, the merged Embedder.prepare arguments) of (workbench, chunkers) jobs;
    None when none of them uses the trained encoder."""
    merged, owner = {"chunks": [], "whole": [], "questions": []}, None
    for wb, chunkers in jobs:
        if wb.needs_encoder:
            owner = owner or wb
            for k, texts in wb.needs(chunkers).items():
                merged[k] += texts
    return (owner, merged) if owner is not None else None


def ready(jobs) -> bool:
    """Whether every vector each (workbench, chunkers) of `jobs` needs is in a cache already: what uses them is
    drawn at once, without a bar."""
    need = _needs(jobs)
    return need is None or need[0].embedder.missing(**need[1]) == 0


def draw_ready_first(sections: dict, bar_place) -> None:
    """Draw at once each section whose vectors a cache holds (the lexical figures too); encode what the others need
    in one pass, under one bar in `bar_place`, then draw them. sections: name -> (jobs, draw), in drawing order."""
    waiting = [name for name, (jobs, _) in sections.items() if not ready(jobs)]
    for name, (_, draw) in sections.items():
        if name not in waiting:
            draw()
    if waiting:
        with bar_place:
            prepare_all([job for name in waiting for job in sections[name][0]])
        for name in waiting:
            sections[name][1]()


def _trap3_dataset(active: bool) -> str:
    """The dataset a trap 3 table is of: the bundled corpus (the only one with user-phrased questions), or with
    `active` the active dataset (an upload's own questions only)."""
    return datasets.dataset().key if active else datasets.BUNDLED.key


def trap3_jobs(active: bool = False) -> list:
    """What the trap 3 table encodes, as `prepare_all`'s jobs: MiniLM on its dataset, with every golden set it has."""
    key = _trap3_dataset(active)
    wb = (workbench() if key == datasets.dataset().key else _bundled_with_sidebar()).using(retriever="minilm")
    users = [(wb.with_golden(load_golden("user")), (ARTICLE_CHUNKER,))] if key == datasets.BUNDLED.key else []
    return [(wb, (ARTICLE_CHUNKER,))] + users


def table_jobs(names) -> list:
    """What the tables `names` encode on the active dataset, as `prepare_all`'s jobs."""
    return [(workbench(), tuple(dict.fromkeys(c for n in names for c in tables.chunkers_of(n))))]
