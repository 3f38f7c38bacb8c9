"""The tour: every step's sentence is a pure function of its figure (generated cases: none found, one, ties, an
empty golden set), every example is chosen by its rule on any data, and the page shows the library's values.

Expected values are computed from rag_core here, never typed.
"""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from rag_core import ChunkerConfig, Document, GoldenRow, Workbench
from rag_core.data.corpus import Corpus
from rag_core.evaluation import losses, tour, tour_sentences
from rag_core.evaluation.judgement import anchor_place

APP = str(Path(__file__).resolve().parent.parent / "app.py")
ARTICLE = ChunkerConfig("fixed", 160, 32)
SEEDS = range(12)


# ---------------------------------------------------------------- sentences on generated figures

@pytest.mark.parametrize("seed", SEEDS)
def test_ceiling_sentence_quotes_the_row_of_k(seed):
    rnd = random.Random(seed)
    n = rnd.randint(1, 40)
    found = sorted(rnd.randint(0, n) for _ in tour.CEILING_KS)
    fig = pd.DataFrame({"k": tour.CEILING_KS, "found": found, "questions": n, "recall": [f / n for f in found]})
    k = rnd.choice(tour.CEILING_KS)
    text = tour_sentences.ceiling_sentence(fig, k)
    assert f"At k = {k}," in text and f"for {found[k - 1]} of {n} golden" in text
    assert text.count(f"{found[k - 1] / n:.3f}") == 2


def test_ceiling_sentence_without_questions_or_with_an_unknown_k():
    empty = pd.DataFrame({"k": tour.CEILING_KS, "found": 0, "questions": 0, "recall": np.nan})
    assert tour_sentences.ceiling_sentence(empty, 3) == tour_sentences.NO_GOLDEN
    full = empty.assign(questions=2, found=1, recall=0.5)
    with pytest.raises(ValueError, match="choose k among 1, 2, 3, 4, 5"):
        tour_sentences.ceiling_sentence(full, 9)


@pytest.mark.parametrize("cut,questions,expected", [
    (0, 18, "no anchor is cut: each of the 18 is whole"), (1, 18, "1 of 18 anchors is cut"),
    (4, 5, "4 of 5 anchors are cut"), (0, 0, tour_sentences.NO_GOLDEN)])
def test_cut_sentence(cut, questions, expected):
    text = tour_sentences.cut_sentence(cut, questions, "fixed window 60, overlap 0", "Q?" if cut else None)
    assert expected in text
    assert ("\"Q?\"" in text) == bool(cut and questions)


def _draft_example(n_above):
    return {"question": "Q?", "anchor_rank": n_above + 1 if n_above < 3 else None,
            "outranked_by": [(i, "draft") for i in range(1, n_above + 1)], "outcome": "wrong source"}


@pytest.mark.parametrize("seed", SEEDS)
def test_draft_sentence_counts_and_names_the_first(seed):
    rnd = random.Random(seed)
    n = rnd.randint(1, 30)
    outranked, k, above = rnd.randint(0, n), rnd.randint(1, 5), rnd.randint(1, 3)
    text = tour_sentences.draft_sentence(outranked, n, k, "draft or outdated", _draft_example(above) if outranked else {})
    if not outranked:
        assert text == (f"In your documents no draft or outdated chunk outranks the anchor's chunk at k = {k}, in "
                        f"any of the {n} golden questions (filter off).")
    else:
        assert text.startswith(f"In {outranked} of {n} golden questions a draft or outdated chunk outranks")
        assert f"S{above} is draft" in text and "judged wrong source" in text
        assert ("the anchor is not in" in text) == (above >= 3)
    assert tour_sentences.draft_sentence(0, 0, k, "draft", {}) == tour_sentences.NO_GOLDEN


@pytest.mark.parametrize("off,on", [("wrong source", "not confirmed"), ("wrong source", "answered"),
                                    ("wrong source", "wrong answer"), ("answered", "answered")])
@pytest.mark.parametrize("filter_on", [True, False])
def test_filter_sentence_says_both_outcomes(off, on, filter_on):
    ex = {"question": "Q?", "doc": "difflib", "key": "0.6", "outcome_off": off, "outcome_on": on}
    text = tour_sentences.filter_sentence(10, 0, 18, "draft", ex, filter_on)
    assert "10" in text and "0" in text and "18" in text
    assert (f"stays {off}" in text) == (off == on and filter_on)
    assert ("neither states the golden answer '0.6' nor contradicts it" in text) == (on == "not confirmed")
    assert ("but it contradicts the golden answer '0.6'" in text) == (on == "wrong answer")
    assert ("and it states the golden answer '0.6'" in text) == (on == "answered")
    if not filter_on:
        assert text.startswith("The filter is off") and f"judged {off}" in text and f"judged {on}" in text


def test_filter_sentence_without_golden_still_counts_the_chunks():
    text = tour_sentences.filter_sentence(0, 0, 0, "draft", {"excluded": 10, "chunks": 114}, True)
    assert text.startswith("The filter keeps only the trusted statuses: 10 of 114 chunks") and tour_sentences.NO_GOLDEN in text


@pytest.mark.parametrize("seed", SEEDS)
def test_rerank_sentence_counts_every_move(seed):
    rnd = random.Random(seed)
    rows = []
    for q in range(rnd.randint(1, 25)):
        b = rnd.choice([float("inf")] + list(range(1, 21)))
        a = b if np.isinf(b) else rnd.randint(1, 20)
        rows.append({"rank_before": b, "rank_after": a,
                     "move": "not a candidate" if np.isinf(b) else "moved up" if a < b else "moved down" if a > b
                     else "unchanged"})
    fig = pd.DataFrame(rows)
    text = tour_sentences.rerank_sentence(fig, 20, 3)
    n = fig.move.value_counts()
    assert f"up in {n.get('moved up', 0)} of {len(fig)}" in text and f"down in {n.get('moved down', 0)}," in text
    assert f"in place in {n.get('unchanged', 0)}" in text
    assert (f"in {n.get('not a candidate', 0)} it is not among" in text) == ("not a candidate" in n)
    assert text.endswith(f"{int((fig.rank_before <= 3).sum())} without the reranker, "
                         f"{int((fig.rank_after <= 3).sum())} with it.")
    assert tour_sentences.rerank_sentence(pd.DataFrame(), 20, 3) == tour_sentences.NO_GOLDEN


@pytest.mark.parametrize("outcomes,refused,through", [
    (["refused", "answered", "refused", "abstained"], "refuses 2 (a and c)", "lets through b as answered"),
    (["answered", "not confirmed"], "refuses none", "lets through a as answered and b as not confirmed"),
    (["refused", "abstained"], "refuses 1 (a)", "lets none through"),
])
def test_checker_sentence(outcomes, refused, through):
    fig = pd.DataFrame({"kind": list("abcd")[:len(outcomes)], "outcome": outcomes})
    text = tour_sentences.checker_sentence(fig, "Q?")
    assert text.startswith(f"Of {len(outcomes)} answers tried for \"Q?\"") and refused in text and through in text
    assert tour_sentences.checker_sentence(fig.head(0), "Q?") == "There is no answer to try."


def test_trap3_sentence_compares_at_the_shown_precision():
    fig = pd.DataFrame({"retriever": ["hashing", "bm25", "minilm"], "article_questions": [1.0, 0.5558, 0.5],
                        "user_questions": [0.5556, 0.5556, 0.7]})
    assert tour_sentences.trap3_sentence(fig) == ("Asked as a user would, the ceiling at k = 3 falls for hashing (1.000 → 0.556); "
                                        "it rises for minilm (0.500 → 0.700); it stays for bm25 (0.556 → 0.556).")
    tie = fig.assign(article_questions=[0.5556, 0.55555, 0.7])
    assert tour_sentences.trap3_sentence(tie).endswith("stays for hashing (0.556 → 0.556), bm25 (0.556 → 0.556) and minilm "
                                             "(0.700 → 0.700).")
    assert "none fits these documents" in tour_sentences.trap3_sentence(fig.assign(user_questions=np.nan))
    assert tour_sentences.trap3_sentence(pd.DataFrame()) == tour_sentences.NO_GOLDEN


def _losses(counts: dict) -> pd.DataFrame:
    return pd.DataFrame({"stage": list(losses.STAGES), "questions": [counts.get(s, 0) for s in losses.STAGES]})


@pytest.mark.parametrize("seed", SEEDS)
def test_fix_first_names_the_stage_that_loses_the_most_and_every_tie(seed):
    rnd = random.Random(seed)
    counts = {s: rnd.choice([0, 0, 1, 2, 3]) for s in losses.STAGES}
    text = tour_sentences.fix_first_sentence(_losses(counts))
    n = sum(counts.values())
    lost = {s: c for s, c in counts.items() if s != "answered"}
    most = max(lost.values())
    worst = [s for s in losses.STAGES if s != "answered" and lost[s] == most]
    if not n:
        assert text == tour_sentences.NO_GOLDEN
    elif not most:
        assert text == f"No question is lost: all {n} are answered. Nothing to fix on this data."
    elif len(worst) == 1:
        assert text.startswith(f"The one thing to fix first: {worst[0]}, where {most} of {n} questions end.")
    else:
        assert text.startswith(f"Fix first one of ") and all(s in text for s in worst)
        assert f"they lose {most} of {n} questions each" in text


def test_fix_first_on_an_empty_golden_set():
    assert tour_sentences.fix_first_sentence(_losses({})) == tour_sentences.NO_GOLDEN
    assert tour_sentences.fix_first_sentence(pd.DataFrame()) == tour_sentences.NO_GOLDEN


# ---------------------------------------------------------------- the rules, on any data

def test_step_4_takes_the_first_question_an_untrusted_chunk_outranks(wb):
    s = tour.step(wb, 4, ARTICLE)
    kept = wb.top_ids(ARTICLE, 3, None, True, 20)
    holders, ix = wb.holders(ARTICLE), wb.index(ARTICLE)
    first = next(q for q in range(len(kept)) if holders[q] and anchor_place(kept[q], holders[q], ix).outranked_by)
    assert s.example["question"] == wb.questions[first]
    assert s.example["outcome"] == "wrong source"                 # the article's point, on the bundled corpus
    assert s.figure.status.iloc[0] in ("draft", "outdated") and s.figure.holds_anchor.any()


def test_step_5_filter_changes_the_outcome_and_says_which(wb):
    s = tour.step(wb, 5, ARTICLE)
    assert s.example["outcome_off"] == "wrong source" and s.example["outcome_on"] in ("answered", "not confirmed")
    assert s.example["outcome_on"] in s.sentence and "go from 10 to 0 of 18" in s.sentence


def test_step_3_takes_the_first_cut_anchor(wb):
    small = ChunkerConfig("fixed", 60, 0)
    s = tour.step(wb, 3, small)
    cut = [q for q, h in enumerate(wb.holders(small)) if not h]
    assert cut and s.example["question"] == wb.questions[cut[0]]
    assert f"{len(cut)} of {len(wb.questions)} anchor" in s.sentence


def _tiny(golden=True, notes=True) -> Workbench:
    docs = [Document("lib", "The parser reads a file. The default limit is 42 lines per call. Errors stop it."),
            Document("other", "A heap keeps the smallest item first. Pushing costs log n.")]
    if notes:
        docs.append(Document("note", "Draft: the default limit is 7 lines per call, says the parser note.", "draft"))
    rows = [GoldenRow("What is the default limit of lines per call?", "lib", "The default limit is 42 lines"),
            GoldenRow("Which item does a heap keep first?", "other", "A heap keeps the smallest item first")]
    return Workbench(Corpus(docs, name="tiny"), rows if golden else [])


def test_no_untrusted_chunk_the_step_says_so_and_still_draws():
    wb = _tiny(notes=False)
    s = tour.step(wb, 4, ChunkerConfig("fixed", 20, 4))
    assert s.sentence.startswith("In your documents no untrusted chunk outranks the anchor's chunk at k = 3")
    assert not s.figure.empty                          # the first question's chunks, still drawn


def test_one_untrusted_chunk_on_an_upload_is_found():
    wb = _tiny()
    s = tour.step(wb, 4, ChunkerConfig("fixed", 20, 4))
    assert s.sentence.startswith("In 1 of 2 golden questions a draft chunk outranks")
    assert s.example["question"] == "What is the default limit of lines per call?"


def test_without_a_golden_set_the_steps_that_need_one_say_so_and_the_others_run():
    wb = _tiny(golden=False)
    steps = tour.tour(wb, ChunkerConfig("fixed", 20, 4))
    for s in steps:
        assert (tour_sentences.NO_GOLDEN in s.sentence) == (s.number != 7), (s.number, s.sentence)
    assert steps[0].figure.documents.sum() == 3 and "3 documents" in steps[0].sentence
    assert steps[4].sentence.startswith("The filter keeps only the trusted statuses: 1 of")
    assert "refuses" in steps[6].sentence


def test_a_step_out_of_range_says_how_to_fix_the_call(wb):
    with pytest.raises(ValueError, match="from 1 to 9"):
        tour.step(wb, 10)


def test_the_presenter_download_holds_nine_steps_and_escapes_the_data():
    from ui import tour_view
    wb = _tiny()
    wb.corpus.documents[0]                                   # the data's own text goes in escaped
    steps = tour.tour(wb, ChunkerConfig("fixed", 20, 4))
    page = tour_view.presenter_html(steps, "<script>alert(1)</script>", "chunker <b>x</b>")
    assert page.count("<section id='step-") == 9 and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script" not in page and "<b>" not in page
    assert "http://" not in page and "https://" not in page and page.count("data:image/png;base64,") == 9


# ---------------------------------------------------------------- the page (AppTest)

def open_tour(query=None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query or {})
    at.switch_page("pages/tour.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def heading(at) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("### Step"))


def sentence(at) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("#### "))[5:]


def test_the_page_walks_nine_steps_with_the_library_s_sentences(wb):
    from ui.widgets import plain
    at = open_tour()
    for n in range(1, 10):
        assert heading(at) == f"### Step {n} of 9 · {tour.TITLES[n - 1]}"
        assert sentence(at) == plain(tour.step(wb, n, ARTICLE).sentence)
        assert at.query_params.get("step", "1") in ([str(n)], str(n))     # a fresh, bare link is left bare at step 1
        assert len(at.get("vega_lite_chart")) == 1
        if n < 9:
            at.button(key="tour_next").click().run()
    assert at.button(key="tour_next").disabled
    at.button(key="tour_back").click().run()
    assert heading(at).startswith("### Step 8 of 9")


def test_a_link_opens_its_step_and_the_control_changes_the_figure_in_place(wb):
    from ui.widgets import plain
    at = open_tour({"step": "5"})
    assert heading(at) == f"### Step 5 of 9 · {tour.TITLES[4]}"
    at.toggle(key="tour_filter").set_value(False).run()
    assert sentence(at) == plain(tour.step(wb, 5, ARTICLE, tour.Controls(filter=False)).sentence)
    at = open_tour({"step": "2"})
    at.select_slider(key="tour_k2").set_value(1).run()
    assert sentence(at) == plain(tour.step(wb, 2, ARTICLE, tour.Controls(k=1)).sentence)


def test_a_bad_step_in_the_link_falls_back_to_step_1_and_says_so():
    at = open_tour({"step": "12"})
    assert heading(at).startswith("### Step 1 of 9")
    assert any("'12' for 'step'" in w.value for w in at.warning)


def test_step_3_control_sets_the_sidebar_chunker(wb):
    at = open_tour({"step": "3"})
    at.select_slider(key="tour_size").set_value(60).run()
    at.toggle(key="tour_overlap").set_value(False).run()
    assert (at.session_state["size"], at.session_state["overlap"]) == (60, 0)
    assert sentence(at).startswith("With fixed window 60, overlap 0, 1 of 18 anchors is cut")


def test_an_upload_with_a_golden_set_takes_the_tour():
    from ui import datasets
    wb = _tiny()
    ds = datasets.make_dataset("tiny", wb.corpus.documents, wb.golden_check.rows)
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"step": "4", "size": "20", "overlap": "4"})
    at.session_state["dataset"] = ds
    at.switch_page("pages/tour.py").run()
    assert not at.exception, [e.message for e in at.exception]
    assert sentence(at).startswith("In 1 of 2 golden questions a draft chunk outranks")


def chart_numbers(at) -> set:
    """The numbers of the one dataset the page's chart draws (Streamlit ships it beside the spec, as Arrow)."""
    from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
    (el,) = at.get("vega_lite_chart")
    (ds,) = el.proto.datasets
    df = convert_arrow_bytes_to_pandas_df(ds.data.data)
    return {round(float(x), 9) for x in df.select_dtypes("number").to_numpy().ravel() if pd.notna(x)}


# the figure's column each step's chart must draw, value for value (step 7 draws words only)
DRAWN = {1: "documents", 2: "recall", 3: "cut_without_ovl", 4: "similarity", 5: "contradicted_top_3",
         6: "rank_before", 8: "user_questions", 9: "questions"}


def test_every_chart_draws_the_library_s_figure(wb):
    at = open_tour()
    for n in range(1, 10):
        if n in DRAWN:
            fig = tour.step(wb, n, ARTICLE).figure
            values = fig[DRAWN[n]] if n != 9 else fig[fig.questions > 0].questions
            want = {round(float(x), 9) for x in values if np.isfinite(x)}
            assert want and want <= chart_numbers(at), (n, want, chart_numbers(at))
        if n < 9:
            at.button(key="tour_next").click().run()


def test_step_9_control_sets_the_setup_s_k(wb):
    at = open_tour({"step": "9"})
    at.select_slider(key="tour_k9").set_value(1).run()
    assert sentence(at) == tour_plain(tour.step(wb, 9, ARTICLE, tour.Controls(k=1)).sentence)
    assert "k=1" in at.code[0].value


def tour_plain(text: str) -> str:
    from ui.widgets import plain
    return plain(text)


def _strong_bars(at) -> list:
    """The (size, overlap) of step 3's bars drawn at full opacity, read from the chart the page sent."""
    import pyarrow as pa
    frames = [pa.ipc.open_stream(d.data.data).read_pandas() for d in at.get("vega_lite_chart")[0].proto.datasets]
    bars = next(f for f in frames if "now" in f)
    return sorted((int(r.size), r.overlap) for r in bars.itertuples() if r.now)


@pytest.mark.parametrize("overlap_on,strong", [(True, "20 % overlap"), (False, "no overlap")])
def test_step_3_draws_strong_the_bar_of_the_sidebar_s_overlap(overlap_on, strong):
    at = open_tour({"step": "3"})
    at.select_slider(key="tour_size").set_value(60).run()
    at.toggle(key="tour_overlap").set_value(overlap_on).run()
    assert at.session_state["overlap"] == (12 if overlap_on else 0)
    assert _strong_bars(at) == [(60, strong)]


def test_only_a_trained_retriever_makes_the_tour_encode_first():
    assert not tour.Controls().needs_encoder and not tour.Controls(retrievers=("bm25",)).needs_encoder
    assert tour.Controls(retrievers=("hashing", "minilm")).needs_encoder and tour.Controls(retrievers=("hybrid",)).needs_encoder
