"""Exact reciprocal rank fusion from a database's float32 scores, re-scoring only the rows whose place is in doubt.

    best, scores = fused_top_k([(ids, p, band, nonneg, rescore), (ids, p, band, nonneg, rescore)], k=3, rrf_k=60)

Each ranking comes as every allowed chunk's id (ascending, the same ids in both), its float32 score from the
database `p`, `band` = twice the rounding bound E (a row's exact score is within E of p), whether the space is
non-negative (then p == 0 means exactly 0: no shared word), and rescore(ids) -> the exact scores of those rows
(their vectors fetched and scored as the in-process index does).

The exact 1-based rank of a row (ties in chunk order) lies between lo = 1 + #(rows with p > p_row + band) (rows
certainly better) and hi = #(rows with p >= p_row - band) (rows perhaps better, itself included). A row's fused
score 1/(rrf_k + rank) summed over the rankings lies between what its hi and lo ranks give. Only the rows whose
best case reaches the k-th best worst case can make the top k (the others are strictly below at least k rows);
their exact ranks come from re-scoring the rows within `band` of them, and the k best fused scores, ties in chunk
order, are the in-process HybridIndex's to the last bit.

Left out on purpose: more than what RRF needs (the fused scores are exact for the rows returned only).
"""
from __future__ import annotations

import numpy as np

from rag_core.retrieval.engines.base import rank


def rank_bounds(p: np.ndarray, band: float) -> tuple[np.ndarray, np.ndarray]:
    """(lo, hi) 1-based rank bounds of each row: [0.9, 0.5, 0.5], band 0.1 -> lo [1, 2, 2], hi [1, 3, 3]."""
    s = np.sort(p)
    n = len(p)
    lo = n - np.searchsorted(s, p + band, side="right") + 1
    hi = n - np.searchsorted(s, p - band, side="left")
    return lo, hi


def exact_ranks(ids: np.ndarray, p: np.ndarray, band: float, nonnegative: bool, rescore, rows: np.ndarray) -> np.ndarray:
    """The exact 1-based ranks (ties in chunk order) of the rows at positions `rows`, re-scoring only the rows
    within `band` of them (none for a row at exactly 0 in a non-negative space, among its equals)."""
    order = np.argsort(p, kind="stable")
    s = p[order]
    n = len(p)
    near = [order[np.searchsorted(s, p[r] - band, side="left"):np.searchsorted(s, p[r] + band, side="right")]
            for r in rows]
    doubt = np.unique(np.concatenate(near)) if near else np.zeros(0, np.int64)
    if nonnegative:
        doubt = doubt[p[doubt] != 0]                    # exactly 0: no shared word, the same in process
    exact = p.copy()                                    # exact wherever a rank depends on it
    if len(doubt):
        exact[doubt] = rescore(ids[doubt])
    above = n - np.searchsorted(s, p[rows] + band, side="right")          # certainly better
    out = np.empty(len(rows), dtype=np.int64)
    for j, (r, around) in enumerate(zip(rows.tolist(), near)):
        theirs, mine = exact[around], exact[r]
        out[j] = above[j] + 1 + np.count_nonzero((theirs > mine) | ((theirs == mine) & (ids[around] < ids[r])))
    return out


def fused_top_k(lists, k: int, rrf_k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k best chunks by reciprocal rank fusion of the rankings in `lists` (see the module's docstring)."""
    ids = lists[0][0]
    bounds = [rank_bounds(p, band) for _, p, band, _, _ in lists]
    worst = sum(1.0 / (rrf_k + hi) for _, hi in bounds)
    best = sum(1.0 / (rrf_k + lo) for lo, _ in bounds)
    floor = np.partition(worst, len(worst) - k)[len(worst) - k]           # the k-th best worst case
    rows = np.flatnonzero(best >= floor)
    fused = sum(1.0 / (rrf_k + exact_ranks(i, p, band, nn, rescore, rows)) for i, p, band, nn, rescore in lists)
    return rank(ids[rows], fused, k)
