"""The Compare page under AppTest (its captions' property tests live in test_captions.py).

Expected values come from rag_core.evaluation.compare on the same setups, never typed."""
from urllib.parse import parse_qs, urlparse

import pytest

from apptest_helpers import assert_fine, open_page, shown
from rag_core.evaluation.compare import compare_setups
from rag_core.evaluation.setup import Setup
from rag_core.retrieval.chunkers import ChunkerConfig

ARTICLE = ChunkerConfig("fixed", 160, 32)


@pytest.fixture(scope="module")
def page():
    return open_page("compare")


def expected(wb):
    return compare_setups(wb, [Setup("as in Ask", ARTICLE, 20, 3, frozenset({"current"}), True),
                        Setup("filter off", ARTICLE, 20, 3, None, True),
                        Setup("rerank off", ARTICLE, 20, 3, frozenset({"current"}), False)])


def test_the_leaderboard_is_the_comparison_of_the_three_starting_setups(page, wb):
    want = expected(wb).leaderboard
    board = page.dataframe[1].value
    assert list(board["setup"]) == list(want.setup)
    for k in (1, 3, 5):
        assert list(board[f"recall@{k}"]) == pytest.approx(list(want[f"recall_at_{k}"]))
    assert list(board["answered"]) == list(want.answered)
    spec = page.get("vega_lite_chart")[0].proto.spec
    assert '"errorbar"' in spec and "ci_low" in spec and "ci_high" in spec       # intervals drawn, not only listed


def test_the_pair_sentence_and_the_test_are_the_librarys(page, wb):
    p = expected(wb).pair("as in Ask", "filter off", 1)
    said = [shown(s.value) for s in page.success] + [shown(i.value) for i in page.info]
    assert p["sentence"] in said
    assert p["a_only"] == 10 and p["b_only"] == 0 and "unlikely to be chance" in p["sentence"]


def test_every_grid_cell_links_to_ask_with_its_setup_and_ask_agrees_on_the_rank(page, wb):
    grid = page.dataframe[-1].value
    c = expected(wb)
    assert list(grid.question) == c.questions
    for name in c.names:
        cells = list(grid[name])
        for i, cell in enumerate(cells):
            rank = c.results[name][i].first_rank
            assert cell.startswith(f"{rank if rank is not None else '—'} · {c.results[name][i].stage}")
    link = grid["open filter off"].iloc[0]
    query = {k: v[0] for k, v in parse_qs(urlparse(link).query).items()}
    assert urlparse(link).path == "ask" and query["ask_question"] == c.questions[0]
    assert query["ask_statuses"] == "current,draft,outdated" and query["ask_rerank"] == "1"
    ask = open_page("ask", query=query)
    labels = [m.value for m in ask.main.markdown if m.value == ":green[**✓ holds the anchor**]" or m.value == "no anchor"]
    first = next(i for i, v in enumerate(labels, 1) if v.startswith(":green"))
    assert first == c.results["filter off"][0].first_rank


def test_a_status_the_dataset_lacks_is_said_with_its_row():
    at = open_page("compare")
    rows = at.session_state["compare_rows"].copy()
    rows.at[1, "statuses"] = ["current", "archived"]            # a cell kept from another dataset
    at.session_state["compare_rows"] = rows
    at.session_state["compare_editor"] = {"edited_rows": {}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert_fine(at)
    assert any("Row 2" in shown(e.value) and "archived" in e.value for e in at.error), [e.value for e in at.error]


def test_a_kept_comparison_appears_in_the_run_history(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENBOOK_DATA_DIR", str(tmp_path))          # a folder of its own: these runs only
    data_folder = tmp_path
    at = open_page("compare")
    at.button(key="compare_save").click().run()
    assert_fine(at)
    history = at.dataframe[-1].value
    assert sorted(history["name"]) == sorted(["as in Ask", "filter off", "rerank off"])
    assert (data_folder / "openbook.sqlite3").exists()
    ids = list(history["id"])[:2]
    at.multiselect(key="compare_runs_pick").set_value(ids).run()      # two kept runs side by side (was a NameError)
    assert_fine(at)
    assert any(c.value.startswith("Each pair of runs at k = ") for c in at.caption), [c.value for c in at.caption]


# ---------------------------------------------------------------- a setup answered by a model server

def test_a_setup_answered_by_a_model_server_runs_on_press_and_is_judged():
    from fake_llm_server import start_server, stop_server
    from rag_core.generation.llm import LLMConfig
    srv, url = start_server()
    try:
        at = open_page("compare", session={"llm_config": LLMConfig("ollama", url, "invented", timeout_s=10)})
        rows = at.session_state["compare_rows"].copy()
        rows.loc[0, "generator"] = "model"
        at.session_state["compare_rows"] = rows
        at.run()
        assert any("press Run" in shown(i.value) for i in at.info)           # a model run waits for the button
        at.button(key="compare_run").click().run()
        assert_fine(at)
        board = at.dataframe[1].value.set_index("setup")
        n = int(board.loc["as in Ask", "answered"] + board.loc["as in Ask", "wrong source"]
                + board.loc["as in Ask", "refused"] + board.loc["as in Ask", "abstained"])
        assert n == 18 and board.loc["as in Ask", "refused"] == 18          # 'invented' makes up a number: refused
        assert board.loc["filter off", "refused"] < 18                        # the scripted setups are not the model's
    finally:
        stop_server(srv)


def test_a_fourth_row_starts_from_the_first_and_empty_cells_take_its_values():
    """A new row of the editor arrives with empty cells (None, NaN): it is the first row's setup under its own name,
    never 'Unknown reranker nan', and the leaderboard stays."""
    at = open_page("compare")
    at.session_state["compare_editor"] = {"edited_rows": {}, "deleted_rows": [],
                                          "added_rows": [{"name": "four", "reranker": float("nan"), "size": None}]}
    at.run()
    assert_fine(at)
    assert not at.error, [e.value for e in at.error]
    board = at.dataframe[1].value
    assert list(board.setup)[-1] == "four" and len(board) == 4
    first, four = board.iloc[0], board.iloc[3]
    assert four["recall@1"] == first["recall@1"] and four["chunks"] == first["chunks"]


@pytest.mark.parametrize("name, size", [("a=b", 160), ("x" * 41, 160), ("bad:name", 160)])
def test_a_first_row_that_cannot_be_a_setup_is_a_sentence_not_a_crash(name, size):
    at = open_page("compare")
    rows = at.session_state["compare_rows"].astype({"size": object})
    rows.at[0, "name"], rows.at[0, "size"] = name, size
    at.session_state["compare_rows"] = rows
    at.run()
    assert_fine(at)
    assert any("Row 1" in shown(e.value) for e in at.error), [e.value for e in at.error]


def test_edited_setups_live_in_the_session_and_the_link():
    """Rename a row, go to Glossary and back: the edited setups stay (they used to return to the starting ones);
    the link names them, and a fresh session opened on it shows the same setups."""
    at = open_page("compare")
    at.session_state["compare_editor"] = {"edited_rows": {0: {"name": "mine", "k": 2}}, "added_rows": [],
                                          "deleted_rows": [2]}
    at.run()
    assert_fine(at)
    assert list(at.dataframe[1].value.setup) == ["mine", "filter off"]
    link = at.query_params["setups"]
    link = link[0] if isinstance(link, list) else link
    assert link.splitlines()[0].startswith("mine: ") and " k=2 " in link.splitlines()[0] and len(link.splitlines()) == 2
    at.switch_page("pages/glossary.py").run()
    at.switch_page("pages/compare.py").run()
    assert_fine(at)
    assert list(at.dataframe[1].value.setup) == ["mine", "filter off"]
    fresh = open_page("compare", query={"setups": link})
    assert list(fresh.dataframe[1].value.setup) == ["mine", "filter off"]
    timing = ["mean seconds"]                                        # measured anew, the rest computed
    assert fresh.dataframe[1].value.drop(columns=timing).equals(at.dataframe[1].value.drop(columns=timing))


def test_starting_setups_leave_the_link_bare_and_a_bad_link_is_said():
    at = open_page("compare")
    assert "setups" not in at.query_params
    bad = open_page("compare", query={"setups": "broken: k=abc"})
    assert any("setups cannot be read" in w.value for w in bad.warning), [w.value for w in bad.warning]
    assert list(bad.dataframe[1].value.setup) == ["as in Ask", "filter off", "rerank off"]


def test_the_setup_pickers_show_names_as_written():
    """A selectbox shows its options as text, not Markdown: a name is not escaped there ('a*b', never 'a\\*b')."""
    at = open_page("compare")
    rows = at.session_state["compare_rows"]
    rows.at[0, "name"] = "a*b_[c]"
    at.session_state["compare_rows"] = rows
    at.run()
    assert_fine(at)
    assert "a*b_[c]" in at.selectbox(key="compare_a").options, at.selectbox(key="compare_a").options


def test_an_answer_of_a_grid_cell_can_be_marked_and_is_kept_with_its_spans(tmp_path, monkeypatch, wb):
    """Issue 27: people's marks on Compare's grid, as on Ask and the Model page: a setup and a question picked, that
    setup's answer shown as text, marked, and kept in the store with the spans that setup handed the generator."""
    from rag_core.evaluation.losses import spans_of
    from rag_core.store import Store
    monkeypatch.setenv("OPENBOOK_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("OPENBOOK_STORE", raising=False)
    at = open_page("compare")
    at.selectbox(key="compare_mark_setup").select("filter off").run()
    assert_fine(at)
    want = expected(wb)
    question = want.questions[1]
    at.selectbox(key="compare_1_pick").select(question).run()
    answer = want.results["filter off"][1].answer
    assert answer in [t.value for t in at.text]
    result = want.results["filter off"][1]
    assert f"The rule's verdict: {result.outcome}." in " ".join(c.value for c in at.caption)
    at.button(key="mark_compare_1_right").click().run()
    assert_fine(at)
    assert "Your mark: **right**" in " ".join(c.value for c in at.caption)
    kept = Store(tmp_path / "openbook.sqlite3").labels.list("bundled")
    assert [(x.question, x.answer, x.label, x.source) for x in kept] == [(question, answer, "right", "compare:filter off")]
    assert list(kept[0].spans) == spans_of(wb, want.setups[1])[1]


def test_the_answer_picker_shows_questions_as_written():
    """A selectbox shows its options as plain text: escaping them for Markdown put backslashes on screen
    ("Is a\\*b ...") under the Model page's table and Compare's grid (attack pass)."""
    from streamlit.testing.v1 import AppTest

    def script():
        import pandas as pd
        from ui import marks
        marks.mark_a_row(pd.DataFrame({"question": ["Is a*b [x] <y> _z_?"], "answer": ["a"], "spans": [["a"]]}),
                         "test", key="t")
    at = AppTest.from_function(script).run()
    assert not at.exception
    assert at.selectbox(key="t_pick").options == ["Is a*b [x] <y> _z_?"]


@pytest.mark.parametrize("names, said", [(["same", "same", "other"], "Two setups are named 'same'"),
                                         (["alone"], "Keep two to four setups")])
def test_setups_that_cannot_run_together_are_said(names, said):
    at = open_page("compare")
    rows = at.session_state["compare_rows"].iloc[:len(names)].copy()
    rows["name"] = names
    at.session_state["compare_rows"] = rows.reset_index(drop=True)
    at.run()
    assert_fine(at)
    assert any(said in shown(e.value) for e in at.error), [e.value for e in at.error]
    assert not at.get("vega_lite_chart")                              # nothing runs
