"""The note under each Ablations title: the settings its table is computed with, read from
rag_core.evaluation.tables' named constants, so that a note cannot say other settings than the table used.

Left out on purpose: what the table shows (ui.captions) and the sidebar's settings, which these tables do not take.
"""
from __future__ import annotations

from rag_core.evaluation import tables
from rag_core.text.messages import listing


def notes(reranker: str = "the lexical surrogate") -> dict[str, str]:
    """name -> the settings a table is computed with, from rag_core.evaluation.tables' named constants; `reranker`:
    the sidebar's reranker, as the rerank table uses it ('the MiniLM similarity (bi-encoder)')."""
    ks, cut, configs, pairs = tables.CEILING_KS, tables.CUT_SIZES, tables.STRATEGIES, tables.SIZE_OVERLAP
    overlaps = {s: [str(o) for t, o in pairs if t == s] for s, _ in pairs}    # size -> its overlaps
    article = tables.ARTICLE_CHUNKER.label                                   # the chunker of the single-chunker tables
    chunker = dict.fromkeys(("ceiling", "filter", "latency", "pipeline"), article)
    return {
        "ceiling": f"Chunker: {chunker['ceiling']}; no filter. How often the anchor is in the first k chunks, "
                   f"k = {listing(str(k) for k in ks)}.",
        "strategies": f"{len(configs)} chunkings, no filter: " + "; ".join(c.label for c in configs) + ".",
        "size_overlap": "Fixed window, no filter; size in words (overlaps): "
                        + ", ".join(f"{s} ({', '.join(o)})" for s, o in overlaps.items()) + ".",
        "cut_anchors": f"{len(cut)} window sizes from {min(cut)} to {max(cut)} words, each without overlap and with "
                       "20 % (size // 5): how many anchors fit whole in no window of their document.",
        "filter": f"Chunker: {chunker['filter']}; the filter is applied before ranking.",
        "rerank": f"Filter on, 50 candidates from the bi-encoder, reranked by {reranker}; fixed window "
                  + ", ".join(f"{s}/{o}" for s, o in tables.RERANK_SIZES) + ".",
        "latency": f"Chunker: {chunker['latency']}; filter on; 50 candidates, reranked or not.",
        "pipeline": f"Chunker: {chunker['pipeline']}. All valid golden questions through retrieval "
                    f"({tables.PIPELINE_CANDIDATES} candidates, reranked, {tables.PIPELINE_FINAL} spans), the scripted "
                    "generator and the checker, with and without the filter.",
    }
