"""Pages that stay true and whole: widgets that keep their values, sensible strategy defaults, an excluded golden
row early in the file, a link to an upload that is gone, user text shown as text."""
from apptest_helpers import CUTOFF, assert_fine, markdowns, open_page, shown

from rag_core import Document, GoldenRow
from ui import datasets
from ui.widgets import plain


def test_ask_widgets_keep_their_values_after_an_invalid_sidebar_setting_is_fixed():
    at = open_page("ask", query={"ask_question": CUTOFF, "ask_k": "4", "ask_candidates": "30", "ask_rerank": "0"})
    at.sidebar.number_input(key="overlap").set_value(500).run()            # overlap >= size: invalid
    assert any("not valid" in shown(e.value) for e in at.error)
    at.sidebar.number_input(key="overlap").set_value(32).run()             # fixed
    assert_fine(at)
    assert not at.error, [e.value for e in at.error]
    assert at.text_input(key="ask_question").value == CUTOFF
    assert at.number_input(key="ask_k").value == 4 and at.number_input(key="ask_candidates").value == 30
    assert at.toggle(key="ask_rerank").value is False
    assert at.query_params["ask_k"] == ["4"] or at.query_params["ask_k"] == "4"
    at.number_input(key="ask_k").set_value(5).run()                        # the next change works
    assert_fine(at)
    assert not at.error, [e.value for e in at.error]
    assert len([m for m in markdowns(at) if m.startswith("**S") and m.endswith("**")]) == 5


def test_each_strategy_starts_from_its_own_size_and_overlap():
    at = open_page("corpus")
    for kind, (size, overlap) in [("sentence", (4, 1)), ("structure", (160, 0)), ("fixed", (160, 32))]:
        at.sidebar.selectbox(key="chunker").set_value(kind).run()
        assert_fine(at)
        assert (at.sidebar.number_input(key="size").value, at.sidebar.number_input(key="overlap").value) == (size, overlap)
        assert not at.error


def test_typing_your_own_question_clears_the_golden_pick():
    at = open_page("ask")
    at.selectbox(key="ask_golden").set_value(CUTOFF).run()
    assert at.text_input(key="ask_question").value == CUTOFF
    at.text_input(key="ask_question").set_value("heappush and heappop").run()
    assert_fine(at)
    assert at.selectbox(key="ask_golden").value is None


def _dataset_with_an_excluded_row_first():
    docs = [Document("alpha", "The default cutoff is 0.6 for alpha. Another sentence here about beta values.", "current"),
            Document("beta", "Beta keeps 42 items by default. It is a draft.", "draft")]
    golden = [GoldenRow("Which document is missing?", "nowhere", "not here"),
              GoldenRow("What is the default cutoff of alpha?", "alpha", "The default cutoff is 0.6"),
              GoldenRow("How many items does beta keep?", "beta", "Beta keeps 42 items")]
    return datasets.make_dataset("excluded first", docs, golden)


def test_corpus_page_with_an_excluded_golden_row_first_keeps_rows_aligned():
    at = open_page("corpus", session={"dataset": _dataset_with_an_excluded_row_first()})
    frame = at.dataframe[-1].value
    assert list(frame["question"])[0] == "Which document is missing?"
    assert list(frame["whole in a chunk"]) == ["", "yes", "yes"]
    assert list(frame["valid"]) == ["✗ excluded", "✓ valid", "✓ valid"]


def test_a_link_to_an_upload_that_is_gone_says_so():
    at = open_page("ask", query={"ask_question": CUTOFF, "data": "user-0123456789abcdef"})
    said = [shown(w.value) for w in at.warning]
    assert any("uploaded data, which is gone" in w for w in said), said


def test_a_link_to_the_user_phrased_golden_set_opens_it():
    at = open_page("overview", query={"data": "bundled-user"})
    assert_fine(at)
    assert not at.warning
    assert any("questions phrased as a user would" in shown(c.value) for c in at.sidebar.caption)


def test_markdown_in_a_link_value_is_shown_as_text():
    payload = "[Session expired, log in again](http://127.0.0.1:9/x)![x](http://127.0.0.1:9/i.png)"
    at = open_page("ask", query={"ask_question": CUTOFF, "size": payload})
    raw = [w.value for w in at.warning if "127.0.0.1:9" in shown(w.value)]
    assert raw, [w.value for w in at.warning]
    assert all("\\[Session expired, log in again\\](" in w for w in raw), raw      # brackets escaped: no link
    assert all("`http://127.0.0.1:9/x)![x](http://127.0.0.1:9/i.png)" in w for w in raw), raw   # the address: code


def test_statuses_from_a_file_are_plain_text_in_badges_and_filter():
    docs = [Document("a", "The default cutoff is 0.6 here.", "**bold**"), Document("b", "Other words here.", "current")]
    at = open_page("ask", query={"ask_question": "default cutoff", "ask_statuses": "**bold**,current"},
                   session={"dataset": datasets.make_dataset("odd statuses", docs, [])})
    badges = [h.proto.body for h in at.get("html") if h.proto.body.startswith("<span class=\"ob-status\"")]
    assert any(">**bold**</span>" in b for b in badges), badges          # the characters, as text


def test_a_link_to_a_kept_upload_opens_it_after_a_reload(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENBOOK_DATA_DIR", str(tmp_path))
    docs = [Document("alpha", "The default cutoff is 0.6 for alpha.", "current")]
    ds = datasets.make_dataset("kept notes", docs, [GoldenRow("What is the cutoff of alpha?", "alpha", "The default cutoff is 0.6")])
    from rag_core.store import Store
    assert Store.default().save_dataset(ds.name, ds.documents, ds.golden) == ds.key     # the same key as a link's
    at = open_page("overview", query={"data": ds.key})                                  # a new session: a reload
    assert not at.warning, [w.value for w in at.warning]
    assert any("kept notes" in shown(c.value) for c in at.sidebar.caption)


ODD = "$x$ **bold** [a](b)"        # a status as a file may write it: LaTeX, Markdown, a link


def odd_statuses():
    docs = [Document("a", "The default cutoff is 0.6 here.", ODD), Document("b", "Other words here.", "current")]
    return datasets.make_dataset("odd statuses", docs, [GoldenRow("What is the default cutoff?", "a", "The default cutoff is 0.6")])


def test_statuses_from_a_file_are_plain_text_in_the_compare_page_s_caption():
    at = open_page("compare", session={"dataset": odd_statuses()})
    said = [c.value for c in at.main.caption if "this dataset has" in c.value]
    assert said and all(plain(ODD) in c and ODD not in c for c in said), said
