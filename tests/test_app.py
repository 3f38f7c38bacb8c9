"""The dashboard under streamlit's AppTest: every page renders, and its widgets, found by key, change what it shows.

Expected values are computed here from rag_core (the same library the pages call), never typed, so a
change of corpus or of the tables moves the expectations with it.

Page scripts come from ui.navigation, the one page list app.py uses. The pages live in pages/, which puts
a fresh Streamlit process in its old pages-folder mode; every page's first line (frame.ensure)
brings a run that did not start in app.py back inside the frame, so no test patches Streamlit.
"""
from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from rag_core import ChunkerConfig, Document, GoldenRow
from rag_core.evaluation import tables
from rag_core.generation.presets import presets
from apptest_helpers import (ALL_STATUSES, APP, ARTICLE, CUTOFF, PAGES, SCRIPTS, assert_fine, chunk_labels,
                             expected_answer, expected_labels, expected_outcome, html_bodies, markdowns, open_page,
                             set_chunker, shown, status_badges, verdict_badges)
from ui.widgets import readable
from rag_core.generation.verifier import verify

# ---------------------------------------------------------------- every page

@pytest.mark.parametrize("name", list(PAGES))
def test_every_page_renders_without_exception(name):
    at = open_page(name)
    assert PAGES[name][1] in at.title[0].value
    assert not at.error, [shown(e.value) for e in at.error]
    # the frame ran too: the shared sidebar settings are there on every page
    assert at.sidebar.number_input(key="size").value == 160


def test_switching_pages_keeps_the_sidebar_settings():
    at = open_page("overview")
    set_chunker(at, "fixed", 80, 16)
    for name in ("corpus", "ask", "ablations", "glossary", "corpus"):
        at.switch_page(PAGES[name][0]).run()
        assert_fine(at)
        assert at.sidebar.number_input(key="size").value == 80
        assert at.sidebar.number_input(key="overlap").value == 16


# ---------------------------------------------------------------- sidebar: corpus and overview

CHUNKERS = [("fixed", 160, 32), ("fixed", 80, 16), ("fixed", 400, 0), ("sentence", 4, 1), ("structure", 300, 0)]


@pytest.mark.parametrize("kind,size,overlap", CHUNKERS)
def test_sidebar_chunker_sets_the_corpus_chunk_count(wb, kind, size, overlap):
    at = set_chunker(open_page("corpus"), kind, size, overlap)
    assert_fine(at)
    cfg = ChunkerConfig(kind, size, overlap)
    caption = at.caption[0].value
    assert f"· {len(wb.index(cfg))} chunks with {cfg.label}" in caption, caption
    # the documents table counts the same chunks, document by document
    docs = at.dataframe[0].value
    assert int(docs["chunks"].sum()) == len(wb.index(cfg))


def overview_metrics(at: AppTest) -> dict:
    return {m.label: m.value for m in at.metric}


def expected_overview(wb, cfg) -> dict:
    f = tables.filter_effect(wb, cfg)
    off, on = f.iloc[0], f.iloc[1]
    n = len(wb.golden_check.valid)
    return {"Ceiling at k = 1 · no filter · no rerank": f"{off.recall_at_1:.3f}",
            "Ceiling at k = 3 · no filter · no rerank": f"{off.recall_at_3:.3f}",
            "Ceiling at k = 1 · filter on · no rerank": f"{on.recall_at_1:.3f}",
            "Ceiling at k = 3 · filter on · no rerank": f"{on.recall_at_3:.3f}",
            "Contradicted in the top 3 · no filter": f"{off.contradicted_top_3}/{n}",
            "Contradicted in the top 3 · filter on": f"{on.contradicted_top_3}/{n}"}


def test_sidebar_chunker_changes_the_overview_metrics(wb):
    small = ChunkerConfig("fixed", 40, 0)
    assert expected_overview(wb, ARTICLE) != expected_overview(wb, small), "pick settings that change the figures"
    at = open_page("overview")
    assert overview_metrics(at) == expected_overview(wb, ARTICLE)
    assert ARTICLE.label in at.caption[0].value
    set_chunker(at, "fixed", 40, 0)
    assert_fine(at)
    assert overview_metrics(at) == expected_overview(wb, small)
    assert small.label in at.caption[0].value


@pytest.mark.parametrize("name", ["overview", "corpus", "ask"])
@pytest.mark.parametrize("size,overlap", [(160, 160), (10, 32)])
def test_overlap_not_smaller_than_size_is_an_error_not_an_exception(name, size, overlap):
    at = open_page(name, query={"ask_question": CUTOFF})
    at.sidebar.number_input(key="overlap").set_value(overlap)
    at.sidebar.number_input(key="size").set_value(size).run()
    assert_fine(at)
    errors = [shown(e.value) for e in at.error]
    assert len(errors) == 1 and "not valid" in errors[0], errors
    assert f"Overlap ({overlap})" in errors[0] and f"size ({size})" in errors[0], errors
    # and fixing it brings the page back
    at.sidebar.number_input(key="overlap").set_value(0).run()
    assert_fine(at)
    assert not any("not valid" in e.value for e in at.error), [shown(e.value) for e in at.error]


# ---------------------------------------------------------------- Ask

def test_every_golden_question_shows_its_ranked_chunks_and_verdict(wb):
    at = open_page("ask")
    assert any("pick a golden question" in i.value for i in at.info)
    ix = wb.index(ARTICLE)
    for q_pos, row in enumerate(wb.golden_check.valid):
        if q_pos % 2:                                   # typed in the box, or picked from the list
            at.text_input(key="ask_question").set_value(row.question).run()
        else:
            at.selectbox(key="ask_golden").set_value(row.question).run()
        assert_fine(at)
        assert at.text_input(key="ask_question").value == row.question
        a = expected_answer(wb, row.question)
        assert chunk_labels(at) == expected_labels(wb, row.question), row.question
        assert status_badges(at) == [ix.status(int(c)) for c in a.retrieved.ids]
        assert verdict_badges(at)[0] == expected_outcome(wb, a.answer, a, row)
        assert at.code[1].value == a.prompt and "[S1]" in a.prompt
        assert at.code[0].value == a.answer
        holders = wb.holders(ARTICLE)[q_pos]
        hit = next((i for i, c in enumerate(a.retrieved.ids, 1) if int(c) in holders), None)
        if hit:
            assert [shown(s.value) for s in at.success] == [f"The anchor of this golden question is in span S{hit}, and "
                                                     "no chunk of an untrusted status outranks it."]
        else:
            assert at.error, row.question


def test_rerank_toggle_changes_the_ranking(wb):
    q = next(r.question for r in wb.golden_check.valid
             if expected_labels(wb, r.question, rerank=True) != expected_labels(wb, r.question, rerank=False))
    at = open_page("ask", query={"ask_question": q})
    assert at.toggle(key="ask_rerank").value is True
    assert chunk_labels(at) == expected_labels(wb, q, rerank=True)
    at.toggle(key="ask_rerank").set_value(False).run()
    assert_fine(at)
    assert chunk_labels(at) == expected_labels(wb, q, rerank=False)
    assert "rerank off" in markdowns(at)
    assert at.query_params["ask_rerank"] == "0"


def test_turning_the_filter_off_lets_a_draft_or_outdated_chunk_into_the_top_3(wb):
    at = open_page("ask", query={"ask_question": CUTOFF})
    assert at.pills(key="ask_statuses").value == ["current"]
    assert status_badges(at) == ["current"] * 3
    at.pills(key="ask_statuses").set_value(ALL_STATUSES).run()
    assert_fine(at)
    assert chunk_labels(at) == expected_labels(wb, CUTOFF, allowed=ALL_STATUSES)
    assert set(status_badges(at)) & {"draft", "outdated"}, status_badges(at)
    # the comparison says what the other setting (the filter back on) would change
    assert any(v.startswith("- **filter on: current**") for v in markdowns(at)), markdowns(at)
    # the draft outranks the anchor: said in a warning, never a green box, and the answer is not green either
    assert not at.success and any(re.search(r"outranks? it", shown(w.value)) for w in at.warning)
    assert verdict_badges(at)[0] == "wrong source"


def test_no_allowed_status_says_so(wb):
    at = open_page("ask", query={"ask_question": CUTOFF})
    at.pills(key="ask_statuses").set_value([]).run()
    assert_fine(at)
    assert chunk_labels(at) == []
    assert any("status" in w.value.lower() for w in at.warning), [shown(w.value) for w in at.warning]


@pytest.mark.parametrize("k", [1, 2, 5])
def test_k_sets_the_number_of_spans(wb, k):
    at = open_page("ask", query={"ask_question": CUTOFF})
    at.number_input(key="ask_k").set_value(k).run()
    assert_fine(at)
    assert chunk_labels(at) == expected_labels(wb, CUTOFF, k=k)
    assert at.subheader[0].value == f"The {k} chunk(s) handed to the model"
    prompt = at.code[1].value
    assert re.findall(r"^\[S(\d+)\]", prompt, re.M) == [str(i) for i in range(1, k + 1)]   # one span per line start
    assert at.dataframe[1].value.shape[0] == k   # [0]: the verdict's sentences; then the flips, a row a span


def test_more_spans_than_candidates_is_an_error(wb):
    at = open_page("ask", query={"ask_question": CUTOFF})
    at.number_input(key="ask_candidates").set_value(2)
    at.number_input(key="ask_k").set_value(5).run()
    assert_fine(at)
    assert [shown(e.value) for e in at.error] and "candidates" in at.error[0].value


@pytest.mark.parametrize("question", ["what is the", "🤔", "a " * 15_000, "cutoff " * 4_300, "?!",
                                      "<script>alert(1)</script> cutoff", "   "],
                         ids=["stopwords", "emoji", "30000-chars-of-a", "30100-chars-of-words", "punctuation",
                              "script-tag", "blank"])
@pytest.mark.parametrize("via", ["box", "link"])
def test_odd_questions_give_a_readable_error_or_results(question, via):
    if via == "link":
        at = open_page("ask", query={"ask_question": question})
    else:
        at = open_page("ask")
        at.text_input(key="ask_question").set_value(question).run()
    assert_fine(at)
    messages = [shown(e.value) for e in at.error] + [i.value for i in at.info]
    if chunk_labels(at):
        assert at.subheader[0].value.endswith("chunk(s) handed to the model")
    else:
        assert messages, "neither results nor a message"
        assert all(len(m) > 20 and "Traceback" not in m for m in messages), messages


SCRIPT = "<script>alert(1)</script>"


def test_a_question_with_a_script_tag_is_never_html(wb):
    at = open_page("ask", query={"ask_question": f"{SCRIPT} cutoff"})
    assert chunk_labels(at)
    assert all("<script" not in body.lower() for body in html_bodies(at))
    # the question is shown as text: in the prompt (a code block), with its characters intact
    assert f"QUESTION: {SCRIPT} cutoff" in at.code[1].value


@pytest.fixture(scope="module")
def hostile_dataset():
    from ui import datasets
    docs = [Document("evil", f"The default cutoff is 0.6 {SCRIPT} and <img src=x onerror=alert(2)> here."),
            Document("note", "A draft note about the cutoff value being 0.9.", "draft")]
    return datasets.make_dataset("hostile", docs, [GoldenRow("What is the default cutoff?", "evil", "The default cutoff is 0.6")])


@pytest.mark.parametrize("name", ["ask", "corpus"])
def test_html_in_documents_is_escaped_in_every_html_element(hostile_dataset, name):
    at = open_page(name, query={"ask_question": f"{SCRIPT} cutoff", "ask_statuses": "current,draft"},
                   session={"dataset": hostile_dataset})
    bodies = html_bodies(at)
    assert bodies, "the page draws its text with st.html"
    assert all("<script" not in b.lower() and "<img" not in b.lower() for b in bodies), bodies
    assert any("&lt;script&gt;alert(1)&lt;/script&gt;" in b for b in bodies), bodies


def test_my_answer_with_an_invented_number_is_refused_naming_it(wb):
    at = open_page("ask", query={"ask_question": CUTOFF})
    mine = "The default cutoff is 0.9 [S1]."
    at.text_area(key="ask_answer").set_value(mine).run()
    assert_fine(at)
    v = verify(mine, expected_answer(wb, CUTOFF).spans)
    assert v.verdict == "refused" and "0.9" in v.reason
    assert verdict_badges(at)[-1] == "refused"
    assert any(v.reason in m for m in markdowns(at))


@pytest.mark.parametrize("statuses", [["current"], ALL_STATUSES])
def test_the_answers_to_try_are_built_from_the_spans_shown(wb, statuses):
    at = open_page("ask", query={"ask_question": CUTOFF, "ask_statuses": ",".join(statuses)})
    a = expected_answer(wb, CUTOFF, allowed=statuses)
    row = wb.golden_check.valid[0]
    ix = wb.index(ARTICLE)
    tries = presets(CUTOFF, a.spans, row.anchor, [ix.status(int(c)) for c in a.retrieved.ids])
    assert at.pills(key="ask_preset").options == [p.kind for p in tries]
    for p in tries:
        at.pills(key="ask_preset").set_value(p.kind).run()
        assert_fine(at)
        assert at.text_area(key="ask_answer").value == p.answer
        assert verdict_badges(at)[-1] == expected_outcome(wb, p.answer, a, row), p
    # a changed number is refused; the anchor cited is green; the generator's sentence "...cutoff=0.6): ..." states
    # the key 0.6 (green on difflib, wrong source on the draft)
    at.pills(key="ask_preset").set_value("the anchor, a number changed").run()
    assert verdict_badges(at)[-1] == "refused"
    at.pills(key="ask_preset").set_value("the anchor, cited").run()
    assert verdict_badges(at)[-1] == "answered"
    if "the generator's sentence, cited" in at.pills(key="ask_preset").options:
        at.pills(key="ask_preset").set_value("the generator's sentence, cited").run()
        assert verdict_badges(at)[-1] in ("answered", "wrong source")


def test_where_the_two_checkers_disagree_both_verdicts_are_shown(wb):
    at = open_page("ask", query={"ask_question": CUTOFF})
    a = expected_answer(wb, CUTOFF)
    n = next(i for i, t in enumerate(a.spans, 1) if "Optional arg cutoff (default 0.6)" in " ".join(t.split()))
    at.text_area(key="ask_answer").set_value(f"Optional arg cutoff (default 0.60) [S{n}].").run()   # 0.60 is 0.6
    assert_fine(at)
    assert verdict_badges(at)[-1] == "answered"
    said = [shown(i.value) for i in at.info]
    assert any("article's checker says 'refused'" in i and "the strict checker 'anchored'" in i for i in said), said


# ---------------------------------------------------------------- Ablations

@pytest.fixture(scope="module")
def ablations():
    return open_page("ablations")


def chart_data(el) -> pd.DataFrame:
    """The one dataset a chart draws (Streamlit ships it beside the spec, as Arrow)."""
    from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
    (ds,) = el.proto.datasets
    return convert_arrow_bytes_to_pandas_df(ds.data.data)


def numbers(df: pd.DataFrame) -> set:
    return {round(float(x), 9) for x in df.select_dtypes("number").to_numpy().ravel() if pd.notna(x)}


def test_ablations_has_a_chart_beside_every_table(ablations):
    charts = ablations.get("vega_lite_chart")
    assert len(charts) == 9                                     # 8 tables, then trap 3 per retriever
    assert len(ablations.dataframe) == 8 + 1 + 2                # + the verifier cases, table only; ours beside two
    for el in charts:
        spec = json.loads(el.proto.spec)
        assert "mark" in spec or "layer" in spec or "facet" in spec or "spec" in spec, spec


def test_the_articles_words_are_shown_as_the_articles_beside_ours(ablations, wb):
    """The six verifier cases: the article's 'anchored' for '0.9 [S2]' is a wrong source for us, '0.6 [S1]' is the one
    green answer; the pipeline's article labels come with our outcomes for the same answers."""
    ours = next(d.value for d in ablations.dataframe if "our outcome" in d.value.columns)
    by_answer = dict(zip(ours.answer, zip(ours["the article's verdict"], ours["our outcome"])))
    assert by_answer["The default cutoff is 0.9 [S2]."] == ("anchored", "wrong source")
    assert by_answer["The default cutoff is 0.6 [S1]."] == ("anchored", "answered")
    assert ours["what the article's word means"].str.startswith("the article's").all()
    judged = ablations.dataframe[8].value
    assert {"answered", "wrong answer", "not confirmed"} <= set(judged.columns)
    assert (judged.drop(columns="filter").sum(axis=1) == len(wb.golden_check.valid)).all()
    text = " ".join(m.value for m in ablations.markdown)
    assert "*anchored / right source*: the article's label" in text


def test_the_ceiling_chart_draws_the_ceiling_table(ablations, wb):
    data = chart_data(ablations.get("vega_lite_chart")[0])
    want = tables.ceiling(wb)
    assert data[["k", "recall"]].to_dict("records") == want[["k", "recall"]].to_dict("records")


TABLE_ORDER = ["ceiling", "strategies", "size_overlap", "cut_anchors", "filter", "rerank", "latency", "pipeline"]


@pytest.mark.parametrize("i,name", list(enumerate(TABLE_ORDER)))
def test_every_chart_draws_the_numbers_of_its_table(ablations, wb, i, name):
    shown = ablations.dataframe[i].value
    if name != "latency":                       # latency is measured anew on every run; the others are exact
        want = readable(tables.TABLES[name](wb))         # the page names columns in words
        pd.testing.assert_frame_equal(shown.reset_index(drop=True), want.reset_index(drop=True), check_dtype=False)
    drawn = numbers(chart_data(ablations.get("vega_lite_chart")[i]))
    assert drawn and drawn <= numbers(shown), f"{name}: values in the chart that its table lacks: {drawn - numbers(shown)}"


def test_tables_are_shown_with_their_measures_in_words(ablations, wb):
    shown = {tuple(d.value.columns) for d in ablations.dataframe}
    assert ("k", "ceiling") in shown                       # the ceiling table: recall beside k, the article's word
    assert ("size", "overlap", "chunks", "recall@1", "recall@3", "recall@5", "recall@50") in shown
    assert not any(c.startswith("rec_") or "_at_" in c for cols in shown for c in cols)


def f3(x) -> str:
    return f"{x:.3f}"


def test_the_verifier_cases_table_is_the_checkers_output(ablations):
    shown = ablations.dataframe[-2].value                      # the article's table; ours beside it comes last
    pd.testing.assert_frame_equal(shown.reset_index(drop=True), tables.verifier_cases().reset_index(drop=True))


@pytest.mark.parametrize("name", ["ablations", "your_data", "compare", "tour"])
def test_a_download_only_fetches_its_file(name):
    """Streamlit's default reruns the whole page on a download's click: every export recomputed the page, and in CI a
    second download clicked during that rerun never came (test_e2e_yours). A download button must not rerun."""
    at = AppTest.from_file(APP, default_timeout=60).switch_page(SCRIPTS[name]).run()
    assert_fine(at)
    buttons = at.get("download_button")
    assert buttons, f"{name}: no download button found"
    assert all(b.proto.ignore_rerun for b in buttons), [b.proto.label for b in buttons if not b.proto.ignore_rerun]


# ---------------------------------------------------------------- URL state

def test_a_link_opens_the_same_view(wb):
    link = {"ask_question": CUTOFF, "ask_k": "2", "ask_rerank": "0", "ask_statuses": "current,draft",
            "size": "80", "overlap": "16", "ask_candidates": "30"}
    at = open_page("ask", query=link)
    assert not at.warning, [shown(w.value) for w in at.warning]
    assert at.text_input(key="ask_question").value == CUTOFF
    assert at.number_input(key="ask_k").value == 2
    assert at.number_input(key="ask_candidates").value == 30
    assert at.toggle(key="ask_rerank").value is False
    assert at.pills(key="ask_statuses").value == ["current", "draft"]
    assert at.sidebar.number_input(key="size").value == 80
    assert chunk_labels(at) == expected_labels(wb, CUTOFF, k=2, rerank=False, allowed=("current", "draft"),
                                               chunker=ChunkerConfig("fixed", 80, 16), candidates=30)


def test_the_url_after_changes_reopens_the_same_view(wb):
    at = open_page("ask")
    at.selectbox(key="ask_golden").set_value(CUTOFF).run()
    at.number_input(key="ask_k").set_value(4).run()
    at.toggle(key="ask_rerank").set_value(False).run()
    at.pills(key="ask_statuses").set_value(ALL_STATUSES).run()
    set_chunker(at, "sentence", 5, 1)
    assert_fine(at)
    shown = chunk_labels(at)
    assert shown == expected_labels(wb, CUTOFF, k=4, rerank=False, allowed=ALL_STATUSES,
                                    chunker=ChunkerConfig("sentence", 5, 1))
    link = dict(at.query_params)
    assert link["ask_k"] == "4" and link["chunker"] == "sentence" and link["ask_question"] == CUTOFF
    again = open_page("ask", query=link)
    assert chunk_labels(again) == shown
    assert again.sidebar.selectbox(key="chunker").value == "sentence"


@pytest.mark.parametrize("key,bad,widget,fallback", [
    ("ask_k", "abc", "ask_k", 3), ("ask_candidates", "1.5", "ask_candidates", 20),
    ("ask_rerank", "maybe", "ask_rerank", True), ("chunker", "nope", "chunker", "fixed"), ("size", "big", "size", 160)])
def test_a_malformed_link_value_falls_back_with_a_warning(key, bad, widget, fallback):
    at = open_page("ask", query={"ask_question": CUTOFF, key: bad})
    warnings = [shown(w.value) for w in at.warning]
    assert any(repr(bad) in w and repr(key) in w for w in warnings), warnings
    got = {"ask_k": lambda: at.number_input(key="ask_k").value,
           "ask_candidates": lambda: at.number_input(key="ask_candidates").value,
           "ask_rerank": lambda: at.toggle(key="ask_rerank").value,
           "chunker": lambda: at.sidebar.selectbox(key="chunker").value,
           "size": lambda: at.sidebar.number_input(key="size").value}[widget]()
    assert got == fallback
    assert chunk_labels(at), "the page still answers, with the default"


@pytest.mark.parametrize("key,value", [("ask_k", "999"), ("size", "5000"), ("ask_candidates", "9999"), ("ask_k", "0")])
def test_an_out_of_range_link_value_falls_back_with_a_warning(key, value):
    at = open_page("ask", query={"ask_question": CUTOFF, key: value})
    warnings = [shown(w.value) for w in at.warning]
    assert any(repr(key) in w for w in warnings), f"no warning for {key}={value}; shown: {warnings}"


def test_a_fresh_process_runs_pages_with_the_frame():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["ask_question"] = CUTOFF
    at.switch_page(PAGES["ask"][0]).run()
    assert_fine(at)
    keys = {w.key for w in at.sidebar.number_input}
    assert {"size", "overlap"} <= keys, "the sidebar has no chunker settings: app.py did not run"
    at.switch_page(PAGES["corpus"][0]).run()      # and on the next run too
    assert_fine(at)
    assert at.sidebar.number_input(key="size").value == 160


# ---------------------------------------------------------------- Ask: state that holds (issue 28)

def test_your_answer_is_cleared_when_the_question_changes():
    """An answer and its verdict belong to their question: a new question starts with an empty box."""
    at = open_page("ask", query={"ask_question": CUTOFF})
    at.text_area(key="ask_answer").set_value("The default cutoff is 0.6 [S1].").run()
    assert any("golden answer" in m.value or "answer" in m.value for m in at.markdown)
    assert at.text_area(key="ask_answer").value
    at.text_input(key="ask_question").set_value("What does math.comb return when k > n?").run()
    assert_fine(at)
    assert at.text_area(key="ask_answer").value == ""


def test_the_example_says_what_it_switched_and_offers_the_way_back():
    at = open_page("ask")
    at.button(key="ask_example").click().run()
    assert_fine(at)
    assert (at.session_state["retriever"], at.session_state["reranker"]) == ("minilm", "dense")
    note = [i.value for i in at.info if "The example set the retriever" in i.value]
    assert note and "they were" in note[0] and "for every page" in note[0], [i.value for i in at.info]
    at.button(key="ask_example_undo").click().run()
    assert_fine(at)
    assert (at.session_state["retriever"], at.session_state["reranker"]) == ("hashing", "lexical")
    assert not [i.value for i in at.info if "The example set the retriever" in i.value]


def test_the_verdict_comes_before_the_prompt_which_is_folded():
    at = open_page("ask", query={"ask_question": CUTOFF})
    heads = [h.value for h in at.subheader]
    assert heads.index("The scripted generator's answer, checked") == 1        # right after the chunks
    prompt = next(e for e in at.expander if e.label.startswith("The prompt handed to the model"))
    assert not prompt.proto.expanded


def test_sections_whose_vectors_are_ready_are_drawn_before_one_encoding_of_the_rest(monkeypatch):
    import contextlib
    from ui import active
    said = []
    monkeypatch.setattr(active, "ready", lambda jobs: jobs != ["needs vectors"])
    monkeypatch.setattr(active, "prepare_all", lambda jobs: said.append(("encode", tuple(jobs))))
    sections = {n: (["needs vectors"] if n in "bd" else [], lambda n=n: said.append(n)) for n in "abcd"}
    active.draw_ready_first(sections, contextlib.nullcontext())
    assert said == ["a", "c", ("encode", ("needs vectors", "needs vectors")), "b", "d"]
    said.clear()
    active.draw_ready_first({n: ([], lambda n=n: said.append(n)) for n in "xy"}, contextlib.nullcontext())
    assert said == ["x", "y"]                                        # nothing to encode: no bar
