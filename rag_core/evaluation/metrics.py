"""What the article measures: the ceiling (recall@k on literal anchors), cut anchors, contradicted questions.

    ranks = first_hit_ranks(index, check, [ids_q1, ids_q2, ...])   # e.g. [1, 3, inf]
    recall_at(ranks, 1) -> 0.333 ; recall_at(ranks, 3) -> 0.667

Every ratio is over the VALID golden questions only; the caller reports how many were excluded.

Left out on purpose: graded relevance (nDCG, MRR). The anchor is binary and strict, and that is
what makes the ceiling readable: the answer is in the chunks handed over, or it is not.
"""
from __future__ import annotations

import math

import numpy as np

from rag_core.retrieval.chunkers import ChunkerConfig
from rag_core.data.anchor_places import phrase_positions
from rag_core.data.golden import GoldenCheck
from rag_core.retrieval.index import Index
from rag_core.retrieval.tokenized import TokenizedCorpus
from rag_core.text.tokens import normalize


def _ranges(ranges) -> np.ndarray:
    """(first, last) token pairs as an (n, 2) int64 array: [(2, 3)] -> [[2, 3]]; [] -> shape (0, 2)."""
    return np.asarray(ranges, dtype=np.int64).reshape(-1, 2)


def anchor_holders(index: Index, occurrences: dict) -> np.ndarray:
    """Ids of the chunks whose text contains the anchor, given its occurrences.

    occurrences: doc position -> (first token, last token) pairs, from GoldenCheck.occurrences[q].
    A chunk holds an occurrence when its word span [start, end) covers [first, last].

    In O((chunks + occurrences) log): occurrences sorted by (doc, first); a chunk holds one when, among
    those of its document with first >= start, the smallest last is < end (a suffix minimum). Document d
    and token t are packed as d * span + t, so one sorted array serves every document.
    """
    if not occurrences:
        return np.zeros(0, dtype=np.int64)
    docs = np.concatenate([np.full(len(r), d, dtype=np.int64) for d, r in occurrences.items()])
    pairs = np.concatenate([_ranges(r) for r in occurrences.values()])
    if not len(pairs) or not len(index.doc):
        return np.zeros(0, dtype=np.int64)
    span = int(max(pairs.max(), index.end.max())) + 1             # every token and every end is below span
    first = docs * span + pairs[:, 0]
    order = np.argsort(first, kind="stable")
    first = first[order]
    last_min = np.minimum.accumulate((docs * span + pairs[:, 1])[order][::-1])[::-1]   # suffix minimum
    chunk_doc = index.doc.astype(np.int64) * span
    at = np.searchsorted(first, chunk_doc + index.start, side="left")
    held = (at < len(first)) & (last_min[np.minimum(at, len(first) - 1)] < chunk_doc + index.end)
    return np.flatnonzero(held).astype(np.int64)


def occurrences_held(starts: np.ndarray, ends: np.ndarray, ranges) -> np.ndarray:
    """For each (first, last) pair, whether one of the spans [starts[c], ends[c]) covers it.

    starts [0, 3], ends [3, 6], ranges [(1, 2), (2, 3)] -> [True, False]. Spans sorted by start, then a
    running maximum of their ends: O((spans + ranges) log).
    """
    pairs = _ranges(ranges)
    if not len(starts):
        return np.zeros(len(pairs), dtype=bool)
    order = np.argsort(starts, kind="stable")
    starts, reach = np.asarray(starts)[order], np.maximum.accumulate(np.asarray(ends)[order])
    at = np.searchsorted(starts, pairs[:, 0], side="right")      # spans starting at or before first
    return (at > 0) & (reach[np.maximum(at - 1, 0)] > pairs[:, 1])


def first_hit_ranks(holders: list, ranked: list) -> np.ndarray:
    """1-based rank of the first chunk holding each question's anchor (inf when none does).

    holders[q]: ids of the chunks holding question q's anchor; ranked[q]: ids retrieved, best first.
    holders [[7], [2, 9]], ranked [[3, 7], [1, 4]] -> [2, inf]
    """
    ranks = np.full(len(ranked), np.inf)
    for q, ids in enumerate(ranked):
        held = holders[q] if isinstance(holders[q], set) else set(np.asarray(holders[q]).tolist())
        ranks[q] = next((r for r, c in enumerate(np.asarray(ids).tolist(), 1) if c in held), np.inf)
    return ranks


def recall_at(ranks: np.ndarray, k: int) -> float:
    """Share of questions whose anchor is in the first k: the ceiling at k. NaN with no valid question."""
    return float(np.mean(ranks <= k)) if len(ranks) else math.nan


def contradicted(index: Index, ranked: list, k: int, trusted=("current",)) -> int:
    """Questions with at least one chunk of a non-trusted status (a draft, an outdated note) in the top k."""
    trusted = [trusted] if isinstance(trusted, str) else list(trusted)   # np.isin reads a set as one object
    status = index.statuses()
    return sum(bool(np.any(~np.isin(status[np.asarray(ids[:k], dtype=np.int64)], trusted))) for ids in ranked)


def _window(size: int, overlap: int) -> int:
    """The step of a fixed window, its settings checked (ChunkerConfig's ValueError when they make no window)."""
    if not (isinstance(size, int) and isinstance(overlap, int) and 0 <= overlap < size):
        ChunkerConfig("fixed", size, overlap)        # raises, saying how to fix them
    return size - overlap


def fixed_window_count(n_words, size: int, overlap: int):
    """How many windows fixed_window makes of a document of n words (1 for an empty one); n_words may be an array
    of document lengths, then the counts are an array too."""
    step = _window(size, overlap)
    if isinstance(n_words, np.ndarray):
        return np.maximum(1, -(-n_words // step))
    return max(1, math.ceil(n_words / step))


def anchor_is_cut(ranges, size: int, overlap: int) -> bool:
    """True when no fixed window of (size, overlap) holds any occurrence (first, last token) whole.

    Windows start at multiples of step = size - overlap; one holds [a, b] when start <= a and b < start + size,
    i.e. when the first multiple of step at or after b - size + 1 is <= a.
    """
    step, pairs = _window(size, overlap), _ranges(ranges)
    lo = np.maximum(0, pairs[:, 1] - size + 1)
    return not bool(np.any(-(-lo // step) * step <= pairs[:, 0]))


def own_occurrences(tc: TokenizedCorpus, check: GoldenCheck) -> tuple[np.ndarray, np.ndarray]:
    """Every valid question's occurrences in its own document, end to end: ((n, 2) first/last token pairs,
    (n,) the question each belongs to)."""
    positions = {d.id: i for i, d in enumerate(tc.corpus.documents)}
    own = [_ranges(check.occurrences[q].get(positions[row.doc], [])) for q, row in enumerate(check.valid)]
    pairs = np.concatenate(own) if own else np.zeros((0, 2), dtype=np.int64)
    return pairs, np.repeat(np.arange(len(own)), [len(p) for p in own])


def cut_anchors(tc: TokenizedCorpus, check: GoldenCheck, size: int, overlap: int, own=None) -> int:
    """Valid questions whose anchor is not whole in any fixed window of ITS OWN document (anchor_is_cut for all of
    them at once); `own`: own_occurrences(tc, check) when the caller already has it."""
    step = _window(size, overlap)
    pairs, owner = own if own is not None else own_occurrences(tc, check)
    lo = np.maximum(0, pairs[:, 1] - size + 1)
    held = -(-lo // step) * step <= pairs[:, 0]
    return int(np.sum(np.bincount(owner, weights=held, minlength=len(check.valid)) == 0))


def first_cut_example(tc: TokenizedCorpus, check: GoldenCheck, sizes, min_size: int = 60):
    """The article's example: the first size >= min_size where a window boundary falls inside an anchor.

    Returns (size, doc, anchor, last 6 words before the boundary, first 6 after) or None.
    Where each anchor stands (whole words) is found once, in linear time; each size then tests them all at once.
    """
    positions = {d.id: i for i, d in enumerate(tc.corpus.documents)}
    found: dict[int, np.ndarray] = {}                   # valid row -> word positions of its anchor in its doc
    for s in sizes:
        if s < min_size:
            continue
        for q, row in enumerate(check.valid):
            doc_words, n = tc.tokens[positions[row.doc]], len(normalize(row.anchor).split())
            if q not in found:
                found[q] = phrase_positions(doc_words, normalize(row.anchor).split())
            i = found[q]
            b = (i // s + 1) * s                        # first boundary after each start
            inside = np.flatnonzero((i < b) & (b < i + n))
            if len(inside):
                i, b = int(i[inside[0]]), int(b[inside[0]])
                return s, row.doc, row.anchor, doc_words[b - 6:b], doc_words[b:b + 6]
    return None
