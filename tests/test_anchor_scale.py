"""A frequent anchor stays linear (issue 17): where anchors stand, which chunks hold them, which a boundary cuts.

The fast versions in golden.py, metrics.py and Workbench are checked against brute force (the article's
substring test where the anchor stands alone, by regular expressions, and the loops they replaced) on small random
corpora, then timed on a document where a two-word anchor occurs two million times (it took minutes before: every occurrence scanned every chunk).
"""
from __future__ import annotations

import random
import re
import time

import numpy as np
import pytest

from rag_core.data.corpus import Corpus, Document
from rag_core.data.anchor_places import phrase_positions
from rag_core.data.golden import check_golden
from rag_core.evaluation import tables
from rag_core.evaluation.metrics import anchor_holders, anchor_is_cut, first_cut_example, occurrences_held
from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Workbench
from rag_core.retrieval.chunkers import ChunkerConfig
from rag_core.retrieval.index import Index
from rag_core.retrieval.tokenized import TokenizedCorpus
from rag_core.text.tokens import normalize, words

WORDS = ["a", "b", "ab", "ba", "a.", "b\n\n", "1", "0.1"]   # short tokens: overlapping, mid-word, repeated matches


def alone(text: str, at: int, target: str) -> bool:
    """target at `at` is no piece of a longer word or number: no letter, digit or _ glued to an end that is one, and
    no digit and '.' or ',' before a digit it begins with (the '1' of '0.1'), nor after one it ends with (the '0' of
    '0.6')."""
    before, after = text[:at], text[at + len(target):]
    if re.match(r"\w", target) and (re.search(r"\w$", before)
                                    or re.match(r"\d", target) and re.search(r"\d[.,]$", before)):
        return False
    return not (re.search(r"\w$", target) and (re.match(r"\w", after)
                                               or re.search(r"\d$", target) and re.match(r"[.,]\d", after)))


def found_alone(text: str, target: str) -> list[int]:
    return [at for at in range(len(text) - len(target) + 1) if text.startswith(target, at) and alone(text, at, target)]


def brute_occurrences(text: str, target: str) -> list[tuple[int, int]]:
    """(first, last) token of every match of target standing alone in text = " ".join(tokens), by a char -> token
    table."""
    token_of, t = [], 0
    for ch in text:
        token_of.append(t)
        t += ch == " "
    return [(token_of[at], token_of[at + len(target) - 1]) for at in found_alone(text, target)]


def brute_valid(corpus, row) -> bool:
    """At least 3 characters besides spaces, and standing alone somewhere in its document."""
    target = normalize(row[2])
    return len(target.replace(" ", "")) >= 3 and bool(found_alone(normalize(corpus.by_id[row[1]].text), target))


def brute_first_cut(tc, check, sizes, min_size):
    """The loop first_cut_example replaced: every word position of every anchor, per size."""
    positions = {d.id: i for i, d in enumerate(tc.corpus.documents)}
    for s in sizes:
        if s < min_size:
            continue
        for row in check.valid:
            doc_words, a = tc.tokens[positions[row.doc]], normalize(row.anchor).split()
            for i in range(len(doc_words) - len(a) + 1):
                if doc_words[i:i + len(a)] == a:
                    b = (i // s + 1) * s
                    if i < b < i + len(a):
                        return s, row.doc, row.anchor, doc_words[b - 6:b], doc_words[b:b + 6]
    return None


def random_case(rng: random.Random):
    docs = tuple(Document(f"d{i}", " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 40))))
                 for i in range(rng.randint(1, 3)))
    docs += (Document(f"d{len(docs)}", "b ba " + docs[0].text),)   # some word to state in every case
    rows = []
    while not any(brute_valid(Corpus(docs), r) for r in rows):   # some row counts (an anchor with no word to state,
        for _ in range(rng.randint(1, 4)):                          # '. a', is excluded by the golden check)
            d = rng.choice(docs)
            text = normalize(d.text)
            if rng.random() < 0.5:                                  # whole words
                tokens = text.split()
                i = rng.randrange(len(tokens))
                anchor = " ".join(tokens[i:i + rng.randint(1, 4)])
            else:                                                   # any piece of the text, words cut anywhere
                i = rng.randrange(len(text))
                anchor = text[i:i + rng.randint(1, 9)].strip() or text.split()[0]
            if words(anchor):
                rows.append((f"where is answer {len(rows)}?", d.id, anchor))
    return Corpus(docs), rows


def random_chunker(rng: random.Random) -> ChunkerConfig:
    strategy = rng.choice(["fixed", "fixed", "sentence", "structure"])
    if strategy == "fixed":
        size = rng.randint(1, 9)
        return ChunkerConfig("fixed", size, rng.randint(0, size - 1))
    if strategy == "sentence":
        size = rng.randint(1, 4)
        return ChunkerConfig("sentence", size, rng.randint(0, size - 1))
    return ChunkerConfig("structure", rng.randint(2, 30), 0)


@pytest.mark.parametrize("seed", range(60))
def test_fast_anchor_search_equals_brute_force(seed):
    rng = random.Random(seed)
    corpus, rows = random_case(rng)
    tc = TokenizedCorpus(corpus)
    check = check_golden(rows, corpus, tc.tokens)
    assert [r.question for r in check.valid] == [r[0] for r in rows if brute_valid(corpus, r)], check.problems
    texts = [" ".join(t) for t in tc.tokens]
    for q, row in enumerate(check.valid):
        target = normalize(row.anchor)
        want = {d: o for d, t in enumerate(texts) if (o := brute_occurrences(t, target))}
        assert {d: list(map(tuple, r.tolist())) for d, r in check.occurrences[q].items()} == want
        words, a = tc.tokens[[d.id for d in corpus.documents].index(row.doc)], target.split()
        assert phrase_positions(words, a).tolist() == [i for i in range(len(words) - len(a) + 1)
                                                        if words[i:i + len(a)] == a]
        for size in range(1, 8):
            for overlap in range(size):
                ranges = want.get([d.id for d in corpus.documents].index(row.doc), [])
                step = size - overlap
                brute = not any(-(-max(0, b - size + 1) // step) * step <= a0 for a0, b in ranges)
                assert anchor_is_cut(ranges, size, overlap) is brute
    sizes = list(range(1, 12))
    assert first_cut_example(tc, check, sizes, min_size=2) == brute_first_cut(tc, check, sizes, 2)

    cfg = random_chunker(rng)
    ix = Index.build(tc, cfg)
    chunks = [normalize(t) for t in ix.texts]
    for q, row in enumerate(check.valid):                       # the article's test: the anchor in the chunk (alone)
        assert anchor_holders(ix, check.occurrences[q]).tolist() == \
            [c for c, t in enumerate(chunks) if found_alone(t, normalize(row.anchor))], (cfg, row)

    wb = Workbench(corpus, rows)
    for d in range(len(corpus.documents)):
        anchors, cut = wb.anchors_in(cfg, d)
        ix = wb.index(cfg)
        spans = [(s, e) for s, e, c in zip(ix.start.tolist(), ix.end.tolist(), ix.doc.tolist()) if c == d]
        assert anchors == [r for occ in check.occurrences.values() for r in map(tuple, occ.get(d, np.zeros((0, 2))).tolist())]
        assert cut == {(a0, b) for a0, b in anchors if not any(s <= a0 and b < e for s, e in spans)}


@pytest.mark.parametrize("starts, ends, ranges, held", [
    ([0, 3], [3, 6], [(1, 2), (2, 3)], [True, False]),
    ([3, 0], [6, 3], [(0, 2), (3, 5), (2, 4)], [True, True, False]),     # spans in any order
    ([0], [10], [], []),
    ([], [], [(0, 0)], [False]),
])
def test_occurrences_held_by_hand(starts, ends, ranges, held):
    assert occurrences_held(np.array(starts, dtype=np.int64), np.array(ends, dtype=np.int64), ranges).tolist() == held


def test_two_million_occurrences_of_a_two_word_anchor_finish_in_seconds():
    # one line of 2,000,000 times "word" (10 MB): "word word" occurs 1,999,999 times. Before: over a minute for the
    # holders alone (each occurrence scanned all 15,625 chunks); now a few seconds. 30 s leaves room for a busy machine.
    n = 2_000_000
    began = time.perf_counter()
    wb = Workbench(Corpus((Document("big", " ".join(["word"] * n)),)), [("what is the word?", "big", "word word")])
    holders = wb.holders(ARTICLE_CHUNKER)
    ceiling = tables.ceiling(wb)
    anchors, cut = wb.anchors_in(ARTICLE_CHUNKER, 0)
    took = time.perf_counter() - began
    assert len(wb.golden_check.occurrences[0][0]) == n - 1 and len(anchors) == n - 1 and not cut
    assert holders[0] == set(range(len(wb.index(ARTICLE_CHUNKER))))        # every chunk holds it
    assert ceiling.set_index("k")["recall"].eq(1.0).all()
    assert took < 30, f"{took:.1f} s"
