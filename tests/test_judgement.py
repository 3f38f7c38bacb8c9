"""Outcomes a reader sees (answered / wrong answer / not confirmed / grounded / wrong source / refused / abstained), answer presets built from the spans,
switch flips, and the per-row anchor facts the Corpus page shows."""
import pytest

from rag_core import ChunkerConfig, Corpus, Document, GoldenRow, Workbench
from rag_core.retrieval.flips import difference, flips
from rag_core.evaluation.judgement import TONES, AnchorPlace, anchor_note, anchor_place, judge_answer
from rag_core.evaluation.pipeline import ask
from rag_core.generation.presets import presets
from rag_core.generation.verifier import verify

CUTOFF = "What is the default cutoff of get_close_matches?"
ANCHOR = "Optional arg cutoff (default 0.6)"


def test_a_faithful_quote_of_a_draft_is_wrong_source_never_green(wb):
    ix = wb.index()
    a = ask(ix, CUTOFF, 20, 3, True, None)                       # filter off: the draft note comes first
    assert ix.status(int(a.retrieved.ids[0])) == "draft"
    j = judge_answer(a.answer, a.spans, a.retrieved.ids, ix, "difflib", ANCHOR, wb.trusted)
    assert j.verdict.verdict == "anchored"                         # grounded...
    assert j.outcome == "wrong source" and j.tone != "green"      # ...but not right
    assert "draft" in j.sentence and "difflib" in j.sentence
    assert j.sources[0][2] == "draft"


def test_on_the_right_document_three_outcomes_answered_wrong_answer_not_confirmed(wb):
    ix = wb.index()
    a = ask(ix, CUTOFF, 20, 3, True, {"current"})
    n = next(i for i, t in enumerate(a.spans, 1) if "n (default 3)" in t)     # the span also holds n's default 3

    def judged(answer):
        return judge_answer(answer, a.spans, a.retrieved.ids, ix, "difflib", ANCHOR, wb.trusted, key="0.6",
                            question=CUTOFF)
    right = judged(a.answer)                                   # the scripted "...cutoff=0.6): ... [S3]"
    assert right.outcome == "answered" and right.tone == "green" and right.key.right is True
    wrong = judged(f"The default cutoff is 3 [S{n}].")
    assert wrong.verdict.verdict == "anchored" and wrong.outcome == "wrong answer" and wrong.tone == "red"
    assert "it says 3 where the golden answer says 0.6" in wrong.sentence
    assert f"S{n} says: '{ANCHOR}'" in wrong.sentence                         # what the span says
    grey = judged(f"Close matches are returned [S{n}].")
    assert grey.outcome == "not confirmed" and grey.tone == "gray" and "'0.6'" in grey.sentence
    assert "may be right in other words" in grey.sentence


def test_without_a_key_the_anchor_is_the_key(wb):
    ix = wb.index()
    a = ask(ix, CUTOFF, 20, 3, True, {"current"})
    n = next(i for i, t in enumerate(a.spans, 1) if "0.6" in t)
    said = f"The default cutoff is 0.6 [S{n}]."
    assert judge_answer(said, a.spans, a.retrieved.ids, ix, "difflib", ANCHOR, wb.trusted).outcome == "not confirmed"
    assert judge_answer(said, a.spans, a.retrieved.ids, ix, "difflib", ANCHOR, wb.trusted,
                        key="0.6").outcome == "answered"


def test_without_a_golden_document_a_trusted_source_is_grounded_an_untrusted_one_is_not(wb):
    ix = wb.index()
    a = ask(ix, CUTOFF, 20, 3, True, None)
    assert judge_answer(a.answer, a.spans, a.retrieved.ids, ix, None, None, ("current",)).outcome == "wrong source"
    assert judge_answer(a.answer, a.spans, a.retrieved.ids, ix, None, None, ("current", "draft")).outcome == "grounded"


@pytest.mark.parametrize("answer,outcome", [("The default cutoff is 0.9 [S7].", "refused"),
                                            ("NOT IN THE CONTEXT", "abstained")])
def test_refused_and_abstained_keep_their_own_outcome(wb, answer, outcome):
    ix = wb.index()
    a = ask(ix, CUTOFF, 20, 3, True, None)
    j = judge_answer(answer, a.spans, a.retrieved.ids, ix, "difflib", ANCHOR)
    assert j.outcome == outcome and j.tone == TONES[outcome]


def test_only_answered_is_green():
    assert [o for o, t in TONES.items() if t == "green"] == ["answered"]


def test_the_article_verdict_is_kept_only_where_it_differs_and_the_strict_one_is_reused(wb, monkeypatch):
    ix = wb.index()
    a = ask(ix, CUTOFF, 20, 3, True, {"current"})
    same = judge_answer(a.answer, a.spans, a.retrieved.ids, ix, "difflib", ANCHOR, verdict=a.verdict)
    assert same.article is None and same.why_they_differ is None and same.verdict is a.verdict
    n = next(i for i, t in enumerate(a.spans, 1) if "0.6" in t)
    differs = judge_answer(f"The default cutoff is 0.60 [S{n}].", a.spans, a.retrieved.ids, ix, "difflib", ANCHOR)
    assert differs.article.verdict == "refused" and differs.verdict.verdict == "anchored"
    assert "not written the same way" in differs.why_they_differ


def test_the_anchor_note_names_untrusted_chunks_in_good_grammar():
    one = anchor_note(True, AnchorPlace(2, ((1, "draft"),)), 3)
    two = anchor_note(True, AnchorPlace(3, ((1, "draft"), (2, "outdated"))), 3)
    assert one[0] == "warning" and "S1 (draft) outranks it" in one[1]
    assert "S1 (draft) and S2 (outdated) outrank it" in two[1]
    assert anchor_note(False, AnchorPlace(None, ()), 3)[0] == "error"
    assert anchor_note(True, AnchorPlace(None, ((1, "draft"),)), 3)[0] == "error"
    assert anchor_note(True, AnchorPlace(1, ()), 3)[0] == "success"


def test_anchor_place_names_the_untrusted_chunks_above_the_anchor(wb):
    ix = wb.index()
    q = wb.questions.index(CUTOFF)
    a = ask(ix, CUTOFF, 20, 3, True, None)
    place = anchor_place(a.retrieved.ids, wb.holders(ix.chunker)[q], ix, wb.trusted)
    assert place.rank is not None and place.rank > 1
    assert (1, "draft") in place.outranked_by
    on = ask(ix, CUTOFF, 20, 3, True, {"current"})
    assert anchor_place(on.retrieved.ids, wb.holders(ix.chunker)[q], ix, wb.trusted).outranked_by == ()


def test_presets_are_built_from_the_spans_and_named_for_what_they_are(wb):
    ix = wb.index()
    a = ask(ix, CUTOFF, 20, 3, True, {"current"})
    got = {p.kind: p.answer for p in presets(CUTOFF, a.spans, ANCHOR)}
    assert list(got)[0] == "the anchor, cited" and list(got)[-1] == "abstention"
    verdicts = {kind: verify(answer, a.spans, mode="strict").verdict for kind, answer in got.items()}
    assert verdicts["the anchor, cited"] == "anchored" and ANCHOR.rstrip(".") in got["the anchor, cited"]
    assert verdicts["the anchor, no citation"] == "refused"
    assert verdicts["the anchor, a number changed"] == "refused"
    missing = f"the anchor, citing S{len(a.spans) + 1} (not handed over)"
    assert verdicts[missing] == "refused" and f"[S{len(a.spans) + 1}]" in got[missing]
    assert verdicts["abstention"] == "abstained"
    plain = {p.kind for p in presets(CUTOFF, a.spans)}              # no anchor: the generator's sentence is the base
    assert "the generator's sentence, cited" in plain and not any(k.startswith("the anchor") for k in plain)


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
    assert difference([1, 2, 3], [1, 2, 3], ix, ("current",), 3) == ((), "the same chunks.")
    assert difference([1, 2, 3], [3, 2, 1], ix, ("current",), 3) == ((), "same chunks, another order.")
    entered, text = difference([1, 2, 3], [1], ix, ("current",), 3)
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
