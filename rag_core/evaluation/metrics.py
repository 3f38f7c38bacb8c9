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
from rag_core.data.golden import GoldenCheck
from rag_core.retrieval.index import Index
from rag_core.retrieval.tokenized import TokenizedCorpus
from rag_core.text import normalize


def anchor_holders(index: Index, occurrences: dict) -> np.ndarray:
    """Ids of the chunks whose text contains the anchor, given its occurrences.

    occurrences: doc position -> [(first token, last token), ...], from GoldenCheck.occurrences[q].
    A chunk holds an occurrence when its word span [start, end) covers [first, last].
    """
    held = [np.flatnonzero((index.doc == d) & (index.start <= a) & (index.end > b))
            for d, ranges in occurrences.items() for a, b in ranges]
    return np.unique(np.concatenate(held)) if held else np.zeros(0, dtype=np.int64)


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


def fixed_window_count(n_words: int, size: int, overlap: int) -> int:
    """How many windows fixed_window makes of a document of n words (1 for an empty one)."""
    ChunkerConfig("fixed", size, overlap)            # validates: a step of 0 would divide by zero
    return max(1, math.ceil(n_words / (size - overlap)))


def anchor_is_cut(ranges: list, size: int, overlap: int) -> bool:
    """True when no fixed window of (size, overlap) holds any occurrence (first, last token) whole.

    Windows start at multiples of step = size - overlap; one holds [a, b] when start <= a and b < start + size.
    """
    ChunkerConfig("fixed", size, overlap)            # validates
    step = size - overlap
    for a, b in ranges:
        lo = max(0, b - size + 1)
        if -(-lo // step) * step <= a:
            return False
    return True


def cut_anchors(tc: TokenizedCorpus, check: GoldenCheck, size: int, overlap: int) -> int:
    """Valid questions whose anchor is not whole in any fixed window of ITS OWN document."""
    positions = {d.id: i for i, d in enumerate(tc.corpus.documents)}
    return sum(anchor_is_cut(check.occurrences[q].get(positions[row.doc], []), size, overlap)
               for q, row in enumerate(check.valid))


def first_cut_example(tc: TokenizedCorpus, check: GoldenCheck, sizes, min_size: int = 60):
    """The article's example: the first size >= min_size where a window boundary falls inside an anchor.

    Returns (size, doc, anchor, last 6 words before the boundary, first 6 after) or None.
    """
    positions = {d.id: i for i, d in enumerate(tc.corpus.documents)}
    for s in sizes:
        if s < min_size:
            continue
        for row in check.valid:
            doc_words = tc.tokens[positions[row.doc]]
            a = normalize(row.anchor).split()
            for i in range(len(doc_words) - len(a) + 1):
                if doc_words[i:i + len(a)] == a:
                    b = (i // s + 1) * s                        # first boundary after the start
                    if i < b < i + len(a):
                        return s, row.doc, row.anchor, doc_words[b - 6:b], doc_words[b:b + 6]
    return None
