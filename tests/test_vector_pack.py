"""The bundled corpus's vector pack (rag_core/data/minilm-pack.npz) and the one count of an encoding pass.

The pack must hold what the encoder computes (a sample recomputed, each text alone as the pack's build encodes
it, equal within TOLERANCE: another CPU's BLAS kernels round the last bits differently, so nothing here compares
the pack bit for bit with a vector computed now), give the same rankings and tables as vectors computed on this
machine, and hold every text the pages ask for on the bundled corpus (else it is stale: the message says how to
rebuild it). An upload still encodes its own chunks, under one count that never restarts.
"""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rag_core import ChunkerConfig, Workbench
from rag_core.data.corpus import Corpus, Document
from rag_core.data.golden import load_golden
from rag_core.evaluation import tables
from rag_core.evaluation.workbench import ARTICLE_CHUNKER
from rag_core.evaluation.vector_pack import REBUILD, chunkers, missing, wanted
from rag_core.retrieval import encoder_path
from rag_core.retrieval.minilm import MiniLM
from rag_core.retrieval.pack import BUNDLED_PACK, VectorPack, write_pack
from rag_core.retrieval.progress import Count, duration
from rag_core.retrieval.vectors import MODEL_KEY, WINDOWS_KEY, Embedder, VectorStore, text_key


@pytest.fixture(scope="module")
def pack():
    return VectorPack.bundled()


@pytest.fixture(scope="module")
def want():
    return wanted()


def fresh(pack=None) -> Embedder:
    """An embedder with nothing cached but the pack given (no disk)."""
    return Embedder(VectorStore(None), threads=1, model=MiniLM.load(), pack=pack)


def test_the_pack_is_small_and_float32(pack):
    assert BUNDLED_PACK.stat().st_size < 5e6 and pack.data.dtype == np.float32 and len(pack) > 3000


def test_the_pack_covers_every_chunk_and_question_the_pages_ask_for(pack, want):
    sweep = {*tables.STRATEGIES, *(ChunkerConfig("fixed", s, o) for s, o in tables.SIZE_OVERLAP + tables.RERANK_SIZES),
             ChunkerConfig("fixed", 160, 32), ChunkerConfig("structure", 160, 0), ChunkerConfig("sentence", 4, 1)}
    assert sweep <= set(chunkers())
    lacking = missing(pack, want)
    assert not lacking, (f"The vector pack lacks {len(lacking)} of the bundled corpus's texts (a new chunker size, or a "
                         f"changed corpus or golden set), e.g. {lacking[0][:60]!r}. Rebuild it: {REBUILD}")


# How close the shipped vectors are to those this CPU computes. The pack was built on one machine; OpenBLAS picks
# its kernels by CPU (Haswell, SkylakeX, Sandybridge, ...), and their sums round differently in the last bits.
# Measured on 76 texts (40 chunks, the 36 questions): identical with the Haswell kernels the pack was built with,
# up to 1.6e-7 with SkylakeX and 2.0e-7 with Sandybridge (cosine 0.9999999 at worst). A vector's components are at most 1 in size (unit length), so 1e-5 is a hundred times that drift and
# far below what moves a ranking (the closest two scores in any golden question's top 20 differ by 4.5e-6 ... 3.7e-5).
TOLERANCE = 1e-5


def close(a, b) -> bool:
    """The same vectors within TOLERANCE per component and of the same shape."""
    return a.shape == b.shape and float(np.abs(a - b).max(initial=0)) < TOLERANCE


def test_the_pack_holds_the_encoders_own_vectors_within_a_stated_tolerance(pack, want):
    rng = np.random.default_rng(19)
    model = MiniLM.load()
    long_ones = [t for t in want.chunks if len(pack.get_many(WINDOWS_KEY, [text_key(t)])[text_key(t)])]
    sample = list(dict.fromkeys([*rng.choice(want.chunks, 12, replace=False), *long_ones[:3]]))
    now = fresh()                                                   # encoded now, without the pack, each alone
    assert now.prepare(chunks=sample, whole=sample, alone=True) > len(sample)
    again = now.whole(sample)
    for t, w in zip(sample, again):
        k = text_key(t)
        assert close(pack.get_many(MODEL_KEY, [k])[k], w[:1])
        assert close(pack.get_many(WINDOWS_KEY, [k])[k], w[1:])
    assert len(long_ones) and all(len(w) > 1 for w in again[-len(long_ones[:3]):])
    for q in rng.choice(want.questions, 4, replace=False):          # a question alone, as Embedder.query encodes it
        assert close(pack.get_many(MODEL_KEY, [text_key(q)])[text_key(q)][0], model.encode([q])[0])


def test_the_tolerance_tells_a_wrong_vector_apart(pack, want):
    """The check above can fail: another text's vector, or this one moved by a hundredth, is not close."""
    k0, k1 = text_key(want.chunks[0]), text_key(want.chunks[1])
    v0, v1 = pack.get_many(MODEL_KEY, [k0])[k0], pack.get_many(MODEL_KEY, [k1])[k1]
    assert close(v0, v0.copy()) and not close(v0, v1) and not close(v0, v0 + 0.01) and not close(v0, v0[:, :10])


def same_ranking(a: np.ndarray, b: np.ndarray, scores: np.ndarray) -> bool:
    """Two rankings of chunk ids are the same, but where the scores of the chunks swapped are within TOLERANCE
    (a near tie that the last bits may decide either way on another CPU)."""
    if len(a) != len(b) or set(a) != set(b):
        return False
    return all(x == y or abs(scores[x] - scores[y]) < TOLERANCE for x, y in zip(a, b))


def test_shipped_and_fresh_vectors_give_the_same_rankings_and_tables(pack):
    """What a user sees does not depend on whose CPU computed the vectors: on both bundled golden sets, the
    article chunker's top 20 (MiniLM), its dense rerank's top 10 and the ceiling table are the same from the
    shipped pack and from vectors computed now, on this machine, without it."""
    shipped_embedder, now_embedder = Embedder(VectorStore(None), pack=pack), fresh()
    for which in ("article", "user"):
        golden = load_golden(which)
        shipped = Workbench.bundled(retriever="minilm", reranker="dense", embedder=shipped_embedder).with_golden(golden)
        now = Workbench.bundled(retriever="minilm", reranker="dense", embedder=now_embedder).with_golden(golden)
        assert shipped.prepare([ARTICLE_CHUNKER]) == 0 and now.prepare([ARTICLE_CHUNKER]) > 0
        scores = list(now.index(ARTICLE_CHUNKER).scores_many(now.questions))
        for a, b, s in zip(shipped.top_ids(ARTICLE_CHUNKER, 20), now.top_ids(ARTICLE_CHUNKER, 20), scores):
            assert same_ranking(a, b, s)
        for a, b in zip(shipped.top_ids(ARTICLE_CHUNKER, 10, rerank=True), now.top_ids(ARTICLE_CHUNKER, 10, rerank=True)):
            assert np.array_equal(a, b)
        pd.testing.assert_frame_equal(tables.ceiling(shipped), tables.ceiling(now))


def test_same_ranking_allows_only_near_ties():
    scores = np.array([0.9, 0.5, 0.5 + TOLERANCE / 2, 0.1])
    assert same_ranking(np.array([0, 2, 1]), np.array([0, 1, 2]), scores)          # a near tie swapped
    assert not same_ranking(np.array([0, 1, 3]), np.array([0, 3, 1]), scores)      # 0.5 against 0.1
    assert not same_ranking(np.array([0, 1]), np.array([0, 3]), scores)


def test_a_prepared_question_is_the_question_alone():
    qs = ["How do I sort a list?", "What does lru_cache do when maxsize is None, and when typed is true?", "zip"]
    e = fresh()
    assert e.prepare(questions=qs) == 3
    assert all(np.array_equal(e.query(q), MiniLM.load().encode([q])[0]) for q in qs)


def test_the_bundled_corpus_encodes_nothing(pack):
    emb = Embedder(VectorStore(None), pack=pack)                    # no model given: it would load on first use
    wb = Workbench.bundled(retriever="hybrid", reranker="dense", embedder=emb)
    assert wb.prepare(chunkers()) == 0 and emb.encoded == 0 and emb._model is None
    assert np.array_equal(emb.query(wb.questions[0]), pack.get_many(MODEL_KEY, [text_key(wb.questions[0])])[
        text_key(wb.questions[0])][0]) and emb._model is None


UPLOAD = (Document("a", "How to sort a list quickly. " * 30), Document("b", "Dictionaries map keys to values. " * 90))


def test_an_upload_encodes_its_own_chunks_under_one_count(pack):
    emb = fresh(pack)
    wb = Workbench(Corpus(UPLOAD), [], retriever="minilm", reranker="dense", embedder=emb)
    calls = []
    cfgs = [ChunkerConfig("fixed", 160, 32), ChunkerConfig("fixed", 80, 16)]
    n = wb.prepare(cfgs, on_progress=lambda done, total, what: calls.append((done, total, what)))
    texts = wb.needs(cfgs)["chunks"]
    assert n > len(texts) and emb.encoded == n                      # each chunk, and the long ones' windows
    assert {t for _, t, _ in calls} == {n}                          # one total, known at the start: no restart
    assert calls[0][0] == 0 and calls[-1][0] == n and [d for d, _, _ in calls] == sorted(d for d, _, _ in calls)
    assert calls[0][2].startswith(f"Encoding {n:,} texts with all-MiniLM-L6-v2: 0 done")
    assert "a second, about" in calls[-1][2] and calls[-1][2].endswith("left")
    assert wb.prepare(cfgs) == 0 and emb.missing(**wb.needs(cfgs)) == 0


def test_a_written_pack_reads_back(tmp_path):
    items = {(MODEL_KEY, text_key("a")): np.ones((1, 384), np.float32),
             (WINDOWS_KEY, text_key("a")): np.zeros((0, 384), np.float32),
             (WINDOWS_KEY, text_key("b")): np.arange(768, dtype=np.float32).reshape(2, 384)}
    write_pack(tmp_path / "p.npz", items)
    p = VectorPack.read(tmp_path / "p.npz")
    assert set(p.keys()) == set(items) and all(np.array_equal(p.get_many(m, [k])[k], v) for (m, k), v in items.items())
    assert len(VectorPack.read(tmp_path / "none.npz")) == 0


def test_the_count_says_the_time_left_from_the_pieces_left_at_the_recent_pace():
    t = iter([0.0, 2.0, 8.0, 9.0, 10.0])
    said = []
    c = Count(total=8, pieces=800, on_progress=lambda *a: said.append(a), clock=lambda: next(t))
    c.add(1, 100)                  # 100 of 800 pieces in 2 s: 700 left, 14 s
    assert c.seconds_left() == 14.0
    c.add(3, 300)                  # at 8 s the recent half starts at 4 s: since the batch at 2 s, 300 pieces in 6 s
    assert c.seconds_left() == 8.0
    c.add(2, 200)                  # at 9 s, from 4.5 s: the same batch at 2 s, 500 pieces in 7 s: 200 left, 2.8 s
    c.add(2, 200)
    assert said[0] == (0, 8, "Encoding 8 texts with all-MiniLM-L6-v2: 0 done, estimating the time left")
    assert said[1] == (1, 8, "Encoding 8 texts with all-MiniLM-L6-v2: 1 done, 0.5 a second, about 14 s left")
    assert said[3] == (6, 8, "Encoding 8 texts with all-MiniLM-L6-v2: 6 done, 0.7 a second, about 3 s left")
    assert said[4][:2] == (8, 8) and said[4][2].endswith("about 0 s left")
    assert [duration(s) for s in (4.2, 95, 120, 3700)] == ["4 s", "1 min 35 s", "2 min", "1 h 1 min"]


def test_the_ablations_page_with_minilm_on_the_bundled_corpus_encodes_nothing():
    """Every table, trap 3 included, with hybrid retrieval and the dense rerank: all from the pack, no bar."""
    from streamlit.testing.v1 import AppTest
    emb = Embedder.default(encoder_path.chosen(bundled=True))   # the process's for the bundled corpus, which the page
                                                                # uses (AppTest runs here): the reference, unless told
    before = emb.encoded
    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=120)
    at.session_state["retriever"], at.session_state["reranker"] = "hybrid", "dense"
    at.switch_page("pages/ablations.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert len(at.get("vega_lite_chart")) == 8 + 1 and len(at.dataframe) == 8 + 1 + 2   # + what the article's words mean, twice
    assert [h.value for h in at.subheader][:3] == ["Ceiling at k", "Chunking strategies", "Chunk size × overlap"]
    assert emb.encoded == before and not at.get("progress")


def test_the_ablations_page_on_an_upload_encodes_once_and_keeps_its_order():
    """An upload with MiniLM: one pass encodes every chunk the page needs (no restart: a second pass finds nothing),
    and the sections still come in their order, those drawn before the pass and those drawn after."""
    from streamlit.testing.v1 import AppTest
    from rag_core.data.golden import GoldenRow
    from ui import datasets
    emb = Embedder.default()
    docs = [Document("sorting", "Sorting a list. The sort method is stable. " * 40),
            Document("maps", "Dictionaries map keys to values. A lookup takes constant time on average. " * 40)]
    ds = datasets.make_dataset("issue 19", docs, [GoldenRow("Is sorting stable?", "sorting", "The sort method is stable."),
                                              GoldenRow("How fast is a lookup?", "maps", "A lookup takes constant time")])
    before = emb.encoded
    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=300)
    at.session_state["retriever"], at.session_state["dataset"] = "minilm", ds
    at.switch_page("pages/ablations.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    wb = Workbench(Corpus(tuple(docs)), ds.golden, retriever="minilm", embedder=emb)
    sweep = dict.fromkeys(c for n in ("ceiling", "strategies", "size_overlap", "filter", "rerank", "latency", "pipeline")
                          for c in tables.chunkers_of(n))
    texts = wb.needs(sweep)
    assert emb.encoded - before == len(texts["chunks"]) + 2 and emb.missing(**texts) == 0   # chunks, then 2 questions
    titles = [h.value for h in at.subheader]
    assert titles[:4] == ["Ceiling at k", "Chunking strategies", "Chunk size × overlap", "Anchors cut by a chunk boundary"]
    assert len(at.get("vega_lite_chart")) == 8 + 1
