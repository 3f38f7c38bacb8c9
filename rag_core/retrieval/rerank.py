"""The rerankers and `retrieve`: candidates from the index, reranked, k kept.

Two rerankers, chosen by the index (`Index.reranker`, set with `Index.with_reranker`):

lexical (the article's, a cross-encoder surrogate) reads the PAIR (question, chunk) in one pass, which is
the property of a cross-encoder, but it is not a model: score = 0.55 * coverage + 0.30 * bigrams + 0.15 * proximity,
    coverage  = share of the question's distinct terms found in the chunk,
    bigrams   = share of the question's distinct bigrams found in the chunk,
    proximity = (distinct terms found) / (span between their first occurrences), 0 with fewer than 2 hits.

dense: the cosine between the question's MiniLM vector and the chunk's, the whole chunk read in windows of
254 word pieces (the best window counts). A bi-encoder rerank: question and chunk are encoded apart.

Equal scores keep the candidates' order (the retriever's ranking).

Left out on purpose: a cross-encoder (no package we know ships its weights for offline use); the lexical
surrogate sees the same words as a lexical retriever, so it can only reorder what the candidates contain.
"""
from __future__ import annotations

from typing import Iterable, NamedTuple

import numpy as np

from rag_core.retrieval.index import Index
from rag_core.text.tokens import words

WEIGHTS = (0.55, 0.30, 0.15)   # coverage, bigrams, proximity: the article's choice, not optimised


class Retrieved(NamedTuple):
    ids: np.ndarray            # chunk ids in final order
    similarity: np.ndarray     # the retriever's score of each (the article's: bi-encoder cosine)
    rerank_score: np.ndarray   # reranker score of each (NaN when rerank is off)
    bi_rank: np.ndarray        # 1-based rank each chunk had among the candidates before reranking
    notes: tuple               # what was clamped or filtered away


def _segments(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Flatten ranges [lo, hi): (segment of each element, position within its segment, flat index).

    lo [10, 20], hi [12, 23] -> seg [0, 0, 1, 1, 1], pos [0, 1, 0, 1, 2], flat [10, 11, 20, 21, 22]
    """
    lengths = hi - lo
    seg = np.repeat(np.arange(len(lo)), lengths)
    pos = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    return seg, pos, np.repeat(lo, lengths) + pos


def rerank_scores_many(index: Index, questions: list[str], candidates: list) -> list[np.ndarray]:
    """The index's reranker's score of each candidate chunk of each question.

    questions[i] is scored against the chunk ids candidates[i]; returns one score array per question.
    The questions are those the candidates were searched for (`Index.search` has checked them).
    """
    if index.reranker == "dense":
        return dense_scores_many(index, questions, candidates)
    return lexical_scores_many(index, questions, candidates)


def dense_scores_many(index: Index, questions: list[str], candidates: list) -> list[np.ndarray]:
    """Per question, the best cosine between its MiniLM vector and the windows of each candidate chunk."""
    from rag_core.retrieval.vectors import Embedder
    embedder = index.embedder or Embedder.default()
    out = []
    for q, ids in zip(questions, candidates):
        ids = [int(c) for c in ids]
        whole = embedder.whole([index.texts[c] for c in ids])                 # per chunk, (windows, 384)
        v = embedder.query(q)
        out.append(np.array([float((w @ v).max()) for w in whole]))
    return out


def lexical_scores_many(index: Index, questions: list[str], candidates: list) -> list[np.ndarray]:
    """The article's reranker, all pairs in one vectorized pass."""
    if not questions:
        return []
    V = len(index.tc.tokenizer.hashes)
    vocab = index.tc.tokenizer.vocab
    term_keys, term_mult, bigram_keys, n_terms, n_bigrams = [], [], [], [], []
    for qi, question in enumerate(questions):
        qt = words(question)                  # already checked by the search that found the candidates
        n_terms.append(len(set(qt)))                                  # unknown words count here too
        n_bigrams.append(max(1, len(set(zip(qt, qt[1:])))))
        ids = [vocab.get(w, -1) for w in qt]
        known, mult = np.unique(np.array([i for i in ids if i >= 0], dtype=np.int64), return_counts=True)
        term_keys.append(qi * V + known)                               # (question, word)
        term_mult.append(mult)
        bigram_keys.extend({(qi * V + a) * V + b for a, b in zip(ids, ids[1:]) if a >= 0 and b >= 0})
    term_keys, term_mult = np.concatenate(term_keys), np.concatenate(term_mult)   # sorted: qi-major
    bigram_keys = np.unique(np.array(bigram_keys, dtype=np.int64))
    n_terms, n_bigrams = np.array(n_terms), np.array(n_bigrams)

    pair_q = np.repeat(np.arange(len(questions)), [len(c) for c in candidates])   # question of each pair
    pair_c = np.concatenate([np.asarray(c, dtype=np.int64) for c in candidates]) if len(pair_q) else np.zeros(0, np.int64)
    n = len(pair_c)
    seg, pos, at = _segments(index.lo[pair_c], index.hi[pair_c])       # every word of every candidate
    word = index.tc.word_ids[at]
    key = pair_q[seg] * V + word
    hit = np.flatnonzero(np.isin(key, term_keys))                       # occurrences of question terms
    term = np.searchsorted(term_keys, key[hit])
    _, first = np.unique(seg[hit] * len(term_keys) + term, return_index=True)   # first per (pair, term)
    f_seg, f_pos, f_term = seg[hit][first], pos[hit][first], term[first]
    found = np.bincount(f_seg, minlength=n)
    with_repeats = np.bincount(f_seg, weights=term_mult[f_term], minlength=n)
    # bigrams: a question term followed, in the same chunk, by the next word; distinct per pair
    nxt = hit[hit + 1 < len(word)]
    nxt = nxt[seg[nxt] == seg[nxt + 1]]
    bkey = key[nxt] * V + word[nxt + 1]
    is_qb = np.isin(bkey, bigram_keys)
    pairs = np.unique(seg[nxt][is_qb] * len(bigram_keys) + np.searchsorted(bigram_keys, bkey[is_qb]))
    bigram_hits = np.bincount(pairs // max(1, len(bigram_keys)), minlength=n)
    lo_pos, hi_pos = np.full(n, np.iinfo(np.int64).max), np.full(n, -1)
    np.minimum.at(lo_pos, f_seg, f_pos)
    np.maximum.at(hi_pos, f_seg, f_pos)
    coverage = found / n_terms[pair_q]
    bigrams = bigram_hits / n_bigrams[pair_q]
    proximity = np.where(with_repeats >= 2, found / np.maximum(1, hi_pos - lo_pos + 1), 0.0)
    score = WEIGHTS[0] * coverage + WEIGHTS[1] * bigrams + WEIGHTS[2] * proximity
    return np.split(score, np.cumsum([len(c) for c in candidates])[:-1])


def rerank_scores(index: Index, question: str, chunk_ids) -> np.ndarray:
    """The reranker's score for each chunk id, in the order given."""
    return rerank_scores_many(index, [question], [chunk_ids])[0]


def rerank_order(scores: np.ndarray) -> np.ndarray:
    """Positions by reranker score, best first; equal scores keep the candidates' (bi-encoder) order."""
    return np.lexsort((np.arange(len(scores)), -scores))


def retrieve(index: Index, question: str, k_candidates: int = 50, k_final: int = 5,
             rerank: bool = True, allowed: Iterable[str] | None = None) -> Retrieved:
    """Search k_candidates with the index's retriever (filter first), optionally rerank them, keep k_final."""
    for name, k in (("candidates", k_candidates), ("chunks to keep", k_final)):
        if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or k <= 0:
            raise ValueError(f"The number of {name} must be a whole number above 0, got {k!r}.")
    if k_final > k_candidates:
        raise ValueError(f"Cannot keep {k_final} chunks out of {k_candidates} candidates: "
                         f"ask for at least as many candidates as chunks to keep.")
    res = index.search(question, k_candidates, allowed)
    bi_rank = np.arange(1, len(res.ids) + 1)
    if not rerank:
        return Retrieved(res.ids[:k_final], res.scores[:k_final], np.full(min(k_final, len(res.ids)), np.nan),
                         bi_rank[:k_final], res.notes)
    rr = rerank_scores(index, question, res.ids)
    order = rerank_order(rr)[:k_final]
    return Retrieved(res.ids[order], res.scores[order], rr[order], bi_rank[order], res.notes)
