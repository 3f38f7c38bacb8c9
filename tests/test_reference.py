"""Every table equals what the article's code prints on the bundled corpus, value for value.

The expected values are parsed from tests/data/reference_output.txt (the reference program's output),
not typed here. A second set of tests runs the reference functions themselves (from
../shared/reference/seed_reference.py) and compares rankings chunk by chunk.
"""
import re
from pathlib import Path

import numpy as np
import pytest

from rag_core import ChunkerConfig
from rag_core.evaluation import tables
from rag_core.retrieval.rerank import retrieve
from reference_code import reference_namespace

OUT = (Path(__file__).parent / "data" / "reference_output.txt").read_text().splitlines()


def block(after: str, n: int) -> list[str]:
    """The n lines that follow the first line starting with `after`."""
    i = next(i for i, line in enumerate(OUT) if line.lstrip().startswith(after))
    return OUT[i + 1:i + 1 + n]


def line_with(prefix: str) -> str:
    return next(line for line in OUT if line.startswith(prefix))


def test_corpus_sizes(wb):
    s = tables.corpus_sizes(wb).iloc[0]
    docs = re.findall(r"\d+", line_with("documents:"))
    words = re.findall(r"\d+", line_with("total words"))
    assert [s.current, s.not_current, s.documents] == [int(x) for x in docs]
    assert [s.total_words, s.median_words, s.max_words] == [int(x) for x in words]
    assert s.questions == int(re.findall(r"\d+", line_with("questions in the golden set"))[0])
    assert s.excluded_questions == 0


def test_ceiling(wb):
    expected = {int(k): float(v) for k, v in (re.findall(r"k=\s*(\d+)\s+ceiling = ([\d.]+)", line)[0]
                                               for line in OUT if line.startswith("k="))}
    got = tables.ceiling(wb)
    assert {int(r.k): round(r.recall, 3) for r in got.itertuples()} == expected


def test_strategies(wb):
    got = tables.strategies(wb)
    for row, line in zip(got.itertuples(), block("strategy", 4)):
        name, nums = line[:36].strip(), line[36:].split()
        assert row.strategy == name
        assert [row.chunks, round(row.words_per_chunk, 1), round(row.recall_at_1, 3), round(row.recall_at_3, 3)] == \
               [int(nums[0]), float(nums[1]), float(nums[2]), float(nums[3])]


def test_size_overlap(wb):
    got = tables.size_overlap(wb)
    for row, line in zip(got.itertuples(), block("size  ovl.", 8)):
        n = line.split()
        assert [row.size, row.ovl, row.chunks] == [int(x) for x in n[:3]]
        assert [round(v, 3) for v in (row.recall_at_1, row.recall_at_3, row.recall_at_5, row.recall_at_50)] == [float(x) for x in n[3:]]


def test_cut_anchors(wb):
    got = tables.cut_anchors(wb)
    expected = {}
    i = OUT.index(next(line for line in OUT if "cut without ovl." in line)) + 1
    while OUT[i].split()[0].isdigit():
        s, a, b = map(int, OUT[i].split())
        expected[s] = (a, b)
        i += 1
    nonzero = {r.size: (r.cut_without_ovl, r.cut_with_20_percent) for r in got.itertuples()
               if r.cut_without_ovl or r.cut_with_20_percent}
    assert nonzero == expected
    assert len(got) == 20


def test_cut_summary(wb):
    s = tables.cut_summary(wb).iloc[0]
    assert f"{s.sizes} sizes x {len(wb.golden_check.valid)} anchors = {s.trials}" in line_with("total trials")
    assert f"{s.cut_without_overlap}/{s.trials}" in line_with("anchors cut WITHOUT")
    assert f"{s.cut_with_overlap}/{s.trials}" in line_with("anchors cut WITH a 20%")
    assert line_with("cost of the overlap") == (f"cost of the overlap: {s.chunks_with_overlap} chunks against "
                                                f"{s.chunks_without_overlap} = +{s.overlap_cost_percent:.1f}% of index")
    assert line_with("example at size") == f"example at size {s.example_size}, module {s.example_doc}, anchor: {s.example_anchor!r}"
    assert line_with("  tail of chunk i ") == "  tail of chunk i  : ..." + s.example_tail
    assert line_with("  head of chunk i+1") == "  head of chunk i+1: " + s.example_head + " ..."


def test_filter(wb):
    got = tables.filter_effect(wb)
    on = got.iloc[1]
    assert line_with("chunks excluded") == (f"chunks excluded by the filter: {on.chunks_excluded}/{on.chunks} "
                                            f"({100 * on.chunks_excluded / on.chunks:.2f}%)")
    for row, prefix in zip(got.itertuples(), ("no filter", "status = current")):
        assert row.filter == prefix
        assert line_with(prefix + " ") == (f"{prefix:<18} recall@1 {row.recall_at_1:.3f} | recall@3 {row.recall_at_3:.3f} | "
                                           f"questions with a contradictory chunk in the top 3: {row.contradicted_top_3}/18")


def test_rerank(wb):
    got = tables.rerank_effect(wb)
    for row, line in zip(got.itertuples(), block("chunk  rec@50", 3)):
        n = line.split()
        assert n[0] == row.chunk
        assert [round(v, 3) for v in (row.recall_at_50, row.recall_at_1_bi, row.recall_at_1_rerank, row.recall_at_3_bi,
                                      row.recall_at_3_rerank)] == [float(x) for x in n[1:]]


def test_verifier_cases():
    got = tables.verifier_cases()
    expected = [re.match(r"(\w+)\s+<- (.*)", line).groups() for line in OUT if "<- " in line]
    assert [(r.verdict, r.answer) for r in got.itertuples()] == expected


def test_prompt_and_pipeline(wb):
    p = tables.prompt_table(wb).iloc[0]
    assert line_with("prompt:") == f"prompt: {p.words} words, {p.characters} characters; spans delivered: {p.spans}"
    assert line_with("answer of the scripted generator:") == "answer of the scripted generator: " + p.answer
    got = tables.pipeline(wb)
    labels = {"anchored_right_source": "anchored / right source", "anchored_wrong_source": "anchored / WRONG source",
              "refused": "refused", "abstained": "abstained"}
    for row in got.to_dict("records"):
        counts = {labels[k]: v for k, v in row.items() if k in labels and v}
        expected = f"{row['filter']:<18} " + str(dict(sorted(counts.items())))
        assert expected in OUT[-2:]


# ---- against the reference functions themselves -------------------------------------------------

@pytest.fixture(scope="module")
def ref():
    return reference_namespace()


CONFIGS = [ChunkerConfig("fixed", 160, 32), ChunkerConfig("fixed", 40, 8), ChunkerConfig("structure", 160, 0),
           ChunkerConfig("sentence", 4, 1), ChunkerConfig("fixed", 80, 0)]


def ref_chunker(ref, cfg):
    if cfg.kind == "fixed":
        return lambda t: ref["fixed_window"](t, cfg.size, cfg.overlap)
    if cfg.kind == "structure":
        return lambda t: ref["by_structure"](t, cfg.size)
    return lambda t: ref["by_sentence"](t, cfg.size, cfg.overlap)


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.label)
def test_same_chunks_vectors_and_rankings(wb, ref, cfg):
    docs = [{"id": d.id, "text": d.text, "status": d.status} for d in wb.corpus.documents]
    rix = ref["index_docs"](docs, ref_chunker(ref, cfg))
    ix = wb.index(cfg)
    assert ix.texts == [c["text"] for c in rix["chunks"]]
    assert np.allclose(ix.matrix.to_dense(), rix["M"], atol=1e-6)
    pos = {id(c): i for i, c in enumerate(rix["chunks"])}
    questions = wb.questions + ["heap queue algorithm", "getCloseMatches cutoff", "zzzz unknown words only 42"]
    for q in questions:
        for status in (None, "current"):
            ours = ix.search(q, 50, {status} if status else None).ids
            theirs = [pos[id(c)] for c, _ in ref["search"](rix, q, 50, status)]
            assert list(ours) == theirs, (q, status)
            ours_rr = retrieve(ix, q, 50, 50, True, {status} if status else None).ids
            theirs_rr = [pos[id(c)] for c, _ in ref["retrieve"](rix, q, 50, 50, True, status)]
            assert list(ours_rr) == theirs_rr, (q, status)


def test_generator_and_verifier_match_reference(wb, ref):
    from rag_core import scripted_answer, verify_grounding
    ix = wb.index(ChunkerConfig("fixed", 80, 16))
    for q in wb.questions:
        spans = [ix.texts[i] for i in ix.search(q, 5).ids]
        assert scripted_answer(q, spans) == ref["fake_model"](q, spans)
        for answer in (scripted_answer(q, spans), "It is 0.6 [S1]. And get_close_matches [S2].", "x [S9].", ""):
            assert verify_grounding(answer, spans) == ref["verify_grounding"](answer, spans)
