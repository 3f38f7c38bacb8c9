"""Outcomes a reader sees (answered / wrong source / refused / abstained), answer presets built from the spans,
switch flips, and the per-row anchor facts the Corpus page shows."""
import pytest

from rag_core import ChunkerConfig, Corpus, Document, GoldenRow, Workbench
from rag_core.retrieval.flips import compare, flips
from rag_core.evaluation.judgement import TONES, anchor_place, judge
from rag_core.evaluation.pipeline import ask
from rag_core.generation.presets import presets
from rag_core.generation.verifier import verify

CUTOFF = "What is the default cutoff of get_close_matches?"


@pytest.fixture(scope="module")
def wb():
    return Workbench.bundled()


def test_a_faithful_quote_of_a_draft_is_wrong_source_never_green(wb):
    ix = wb.index()
    a = ask(ix, CUTOFF, 20, 3, True, None)                       # filter off: the draft note comes first
    assert ix.status(int(a.retrieved.ids[0])) == "draft"
    v = verify(a.answer, a.spans, mode="strict")
    assert v.verdict == "anchored"                                # grounded...
    j = judge(v, a.retrieved.ids, ix, "difflib", wb.trusted)
    assert j.outcome == "wrong source" and j.tone != "green"      # ...but not right
    assert "draft" in j.sentence and "difflib" in j.sentence


def test_the_right_document_is_answered_and_green(wb):
    ix = wb.index()
    a = ask(ix, CUTOFF, 20, 3, True, {"current"})
    j = judge(verify(a.answer, a.spans, mode="strict"), a.retrieved.ids, ix, "difflib", wb.trusted)
    assert j.outcome == "answered" and j.tone == "green"


def test_without_a_golden_document_a_trusted_source_is_answered_an_untrusted_one_is_not(wb):
    ix = wb.index()
    a = ask(ix, CUTOFF, 20, 3, True, None)
    v = verify(a.answer, a.spans, mode="strict")
    assert judge(v, a.retrieved.ids, ix, None, ("current",)).outcome == "wrong source"
    assert judge(v, a.retrieved.ids, ix, None, ("current", "draft")).outcome == "answered"


@pytest.mark.parametrize("answer,outcome", [("The default cutoff is 0.9 [S7].", "refused"),
                                            ("NOT IN THE CONTEXT", "abstained")])
def test_refused_and_abstained_keep_their_own_outcome(wb, answer, outcome):
    ix = wb.index()
    a = ask(ix, CUTOFF, 20, 3, True, None)
    j = judge(verify(answer, a.spans, mode="strict"), a.retrieved.ids, ix, "difflib")
    assert j.outcome == outcome and j.tone == TONES[outcome]


def test_only_answered_is_green():
    assert [o for o, t in TONES.items() if t == "green"] == ["answered"]


def test_anchor_place_names_the_untrusted_chunks_above_the_anchor(wb):
    ix = wb.index()
    q = wb.questions.index(CUTOFF)
    a = ask(ix, CUTOFF, 20, 3, True, None)
    place = anchor_place(a.retrieved.ids, wb.holders(ix.chunker)[q], ix, wb.trusted)
    assert place.rank is not None and place.rank > 1
    assert (1, "draft") in place.outranked_by
    on = ask(ix, CUTOFF, 20, 3, True, {"current"})
    assert anchor_place(on.retrieved.ids, wb.holders(ix.chunker)[q], ix, wb.trusted).outranked_by == ()


def test_presets_are_built_from_the_spans_and_get_the_verdicts_their_names_promise(wb):
    ix = wb.index()
    a = ask(ix, CUTOFF, 20, 3, True, {"current"})
    got = {p.kind: p.answer for p in presets(CUTOFF, a.spans)}
    assert list(got)[0] == "no citation" and list(got)[-1] == "abstention"
    verdicts = {kind: verify(answer, a.spans, mode="strict").verdict for kind, answer in got.items()}
    assert verdicts["no citation"] == "refused"
    assert verdicts["invented number"] == "refused"
    assert verdicts["right citation"] == "anchored"
    assert verdicts["missing span"] == "refused" and f"[S{len(a.spans) + 1}]" in got["missing span"]
    assert verdicts["abstention"] == "abstained"
    if "another span's number" in got:
        assert verdicts["another span's number"] == "anchored"


@pytest.mark.parametrize("question", [CUTOFF, "heappush", "What does lru_cache do when maxsize is None?"])
@pytest.mark.parametrize("allowed", [None, {"current"}])
def test_presets_follow_every_question(wb, question, allowed):
    a = ask(wb.index(), question, 20, 3, True, allowed)
    for p in presets(question, a.spans):
        v = verify(p.answer, a.spans, mode="strict")
        expected = {"no citation": "refused", "invented number": "refused", "right citation": "anchored",
                    "missing span": "refused", "abstention": "abstained", "another span's number": "anchored"}
        assert v.verdict == expected[p.kind], (p, v.reason)


def test_presets_without_spans_offer_only_the_abstention():
    assert [p.kind for p in presets("q", [])] == ["abstention"]


def test_flips_say_what_changes(wb):
    ix = wb.index()
    fl = flips(ix, CUTOFF, 20, 3, True, {"current"}, wb.trusted)
    assert [f.name for f in fl] == ["rerank off", "filter off (all statuses)"]
    assert "draft" in fl[1].summary or "outdated" in fl[1].summary
    off = flips(ix, CUTOFF, 20, 3, True, None, wb.trusted)
    assert off[1].name == "filter on: current"


def test_compare_same_reordered_and_fewer(wb):
    ix = wb.index()
    assert compare([1, 2, 3], [1, 2, 3], ix, ("current",), 3) == ((), "the same chunks.")
    assert compare([1, 2, 3], [3, 2, 1], ix, ("current",), 3) == ((), "same chunks, another order.")
    entered, text = compare([1, 2, 3], [1], ix, ("current",), 3)
    assert entered == () and text.startswith("2 fewer chunk(s) pass")


def test_chunk_numbers_count_from_one_within_each_document(wb):
    ix = wb.index()
    for d in range(len(ix.documents)):
        ids = [c for c in range(len(ix)) if ix.doc[c] == d]
        assert [ix.chunk_number(c) for c in ids] == list(range(1, len(ids) + 1))


def test_whole_in_a_chunk_keeps_file_order_with_an_excluded_row_first():
    docs = (Document("a", "one two three four five six seven eight nine ten", "current"),)
    rows = [GoldenRow("bad question", "missing", "x"), GoldenRow("q two?", "a", "two three"),
            GoldenRow("q cut?", "a", "four five six")]
    wb = Workbench(Corpus(docs), rows)
    assert wb.whole_in_a_chunk(ChunkerConfig("fixed", 5, 0)) == [None, True, False]
    anchors, cut = wb.anchors_in(ChunkerConfig("fixed", 5, 0), 0)
    assert sorted(anchors) == [(1, 2), (3, 5)] and cut == {(3, 5)}
