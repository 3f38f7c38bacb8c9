"""What changes in the spans handed over when one switch flips: rerank on/off, the status filter on/off.

    flips(ix, "default cutoff?", k_candidates=20, k=3, rerank=True, allowed={"current"})
    -> [Flip("rerank off", ids, entered=[...], summary="1 chunk(s) enter the top 3."), Flip("filter off", ...)]

Each flip is the same question through `retrieve` with one setting changed; the summary says whether
the same chunks come back, in another order, or which enter (and how many of them are of a status the
filter does not trust).

Left out on purpose: generation. A flip compares retrievals; the answer follows from the spans.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rag_core.retrieval.index import Index
from rag_core.retrieval.rerank import retrieve


class Flip(NamedTuple):
    name: str               # what was flipped, e.g. "rerank off" or "filter off (all statuses)"
    ids: np.ndarray         # chunk ids kept with the switch flipped, best first
    entered: tuple          # chunk ids that enter the top k with the flip
    summary: str            # one plain sentence


def difference(now_ids, other_ids, index: Index, trusted, k: int) -> tuple[tuple, str]:
    """(chunks entering, a sentence) when `other_ids` replaces `now_ids` as the top k.

    [1, 2, 3] vs [1, 2, 3] -> ((), "the same chunks."); vs [3, 2, 1] -> ((), "same chunks, another order.")
    """
    now = [int(c) for c in now_ids]
    other = [int(c) for c in other_ids]
    entered = tuple(c for c in other if c not in now)
    if not entered and len(other) == len(now):
        return entered, "the same chunks." if other == now else "same chunks, another order."
    untrusted = sorted({index.status(c) for c in entered if index.status(c) not in trusted})
    n_untrusted = sum(index.status(c) not in trusted for c in entered)
    text = f"{len(entered)} chunk(s) enter the top {k}"
    if len(other) < len(now):
        text = f"{len(now) - len(other)} fewer chunk(s) pass; {text}"
    return entered, text + (f", {n_untrusted} of them {', '.join(untrusted)}." if untrusted else ".")


def flips(index: Index, question: str, k_candidates: int, k: int, rerank: bool, allowed, trusted,
          now=None, others: dict | None = None) -> list[Flip]:
    """The top k with rerank flipped, with the filter flipped (off if on; the trusted statuses if off), and
    with each index of `others` (name -> Index of the same chunks by another retriever) instead of `index`."""
    trusted = tuple(trusted)
    every = set(index.tc.corpus.statuses)
    allowed = every if allowed is None else set(allowed)
    now = now if now is not None else retrieve(index, question, k_candidates, k, rerank, allowed).ids
    other_filter = every if allowed != every else set(trusted)
    filter_name = ("filter off (all statuses)" if other_filter == every
                   else "filter on: " + ", ".join(sorted(other_filter)))
    out = []
    for name, rr, statuses in ((f"rerank {'off' if rerank else 'on'}", not rerank, allowed),
                               (filter_name, rerank, other_filter)):
        ids = retrieve(index, question, k_candidates, k, rr, statuses).ids
        entered, summary = difference(now, ids, index, trusted, k)
        out.append(Flip(name, ids, entered, summary))
    for name, other in (others or {}).items():
        ids = retrieve(other, question, k_candidates, k, rerank, allowed).ids
        entered, summary = difference(now, ids, index, trusted, k)
        out.append(Flip(name, ids, entered, summary))
    return out
