"""Trusted statuses on the pages: a dataset without 'current' trusts nothing until the user chooses (sidebar, Your
data), every page says so and keeps working, the choice lives in the session and the link; repeated golden questions
are listed on Your data with their lines."""
from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from apptest_helpers import APP, SCRIPTS, assert_fine, shown, verdict_badges
from rag_core import Document, GoldenRow
from ui import datasets
from ui.trust_form import WHERE

DRAFTS = (Document("alpha", "The default cutoff is 0.6 for alpha. Another sentence here about beta values.", "draft"),
          Document("beta", "Beta keeps 42 items by default. It is an outdated note.", "outdated"))
GOLDEN = [GoldenRow("What is the default cutoff of alpha?", "alpha", "The default cutoff is 0.6"),
          GoldenRow("How many items does beta keep?", "beta", "Beta keeps 42 items")]
NOTHING = "Nothing is trusted: no document has the status 'current', and no status is chosen as trusted yet."


def drafts_dataset():
    return datasets.make_dataset("drafts", DRAFTS, GOLDEN)


def open_at(page: str, query: dict | None = None, session: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params.update(query or {})
    for k, v in (session or {}).items():
        at.session_state[k] = v
    if page != "overview":
        at.switch_page(SCRIPTS[page])
    at.run()
    assert_fine(at)
    return at


def warnings(at: AppTest) -> list[str]:
    return [shown(w.value) for w in at.warning]


def query(at: AppTest, name: str):
    value = at.query_params.get(name)
    return value[0] if isinstance(value, list) else value


@pytest.mark.parametrize("page", ["overview", "corpus", "ask", "ablations", "compare", "tour", "your_data"])
def test_every_page_says_nothing_is_trusted_and_where_to_choose(page):
    """A drafts-only dataset used to trust its first status (draft) without a word."""
    q = {"ask_question": GOLDEN[0].question} if page == "ask" else {}
    at = open_at(page, q, {"dataset": drafts_dataset(), "data_uploaded": drafts_dataset()})
    said = [w for w in warnings(at) if w.startswith(NOTHING)]
    assert len(said) == 1 and "This dataset's statuses: draft, outdated." in said[0] and said[0].endswith(WHERE)
    assert at.sidebar.multiselect(key="trusted").value == []
    assert not at.error or page == "ask", [e.value for e in at.error]


def test_a_grounded_answer_from_a_draft_is_green_only_once_drafts_are_trusted():
    at = open_at("ask", {"ask_question": GOLDEN[0].question, "ask_statuses": "draft,outdated"},
                 {"dataset": drafts_dataset(), "data_uploaded": drafts_dataset()})
    assert verdict_badges(at)[0] == "wrong source"
    at.sidebar.multiselect(key="trusted").set_value(["draft"]).run()
    assert_fine(at)
    assert verdict_badges(at)[0] == "answered"
    assert not any(w.startswith("Nothing is trusted") for w in warnings(at))
    assert query(at, "trusted") == "draft"
    assert at.session_state["trusted_by_dataset"][drafts_dataset().key] == ["draft"]


def test_a_link_carries_the_trusted_statuses():
    at = open_at("overview", {"trusted": "draft"}, {"dataset": drafts_dataset(), "data_uploaded": drafts_dataset()})
    assert at.sidebar.multiselect(key="trusted").value == ["draft"]
    assert not any(w.startswith("Nothing is trusted") for w in warnings(at))


def test_a_link_s_status_the_dataset_lacks_is_said_and_left_out():
    at = open_at("overview", {"trusted": "bogus,draft"}, {"dataset": drafts_dataset(), "data_uploaded": drafts_dataset()})
    assert ("The link's value 'bogus,draft' for 'trusted' is not valid (this dataset has no status 'bogus'); "
            "trusting 'draft'.") in warnings(at)
    assert at.sidebar.multiselect(key="trusted").value == ["draft"]


def test_the_bundled_corpus_trusts_current_until_the_user_trusts_nothing():
    at = open_at("overview")
    assert at.sidebar.multiselect(key="trusted").value == ["current"]
    assert not any(w.startswith("Nothing is trusted") for w in warnings(at))
    assert query(at, "trusted") is None                          # nothing chosen: nothing in the link
    at.sidebar.multiselect(key="trusted").set_value([]).run()
    assert_fine(at)
    assert any(w.startswith("Nothing is trusted: no status is chosen as trusted.") for w in warnings(at))
    assert query(at, "trusted") == "-"


def upload(at: AppTest, key: str, name: str, body: bytes) -> AppTest:
    at.file_uploader(key=key).set_value([(name, body, "application/octet-stream")] if key == "data_files"
                                        else (name, body, "text/csv")).run()
    assert_fine(at)
    return at


def test_your_data_drafts_upload_then_choose_trust_there_and_duplicates_listed_with_their_lines():
    at = open_at("your_data")
    docs = "".join(json.dumps({"id": d.id, "text": d.text, "status": d.status}) + "\n" for d in DRAFTS).encode()
    upload(at, "data_files", "docs.jsonl", docs)
    golden = "question,doc,anchor\n" + "".join(f"{r.question},{r.doc},{r.anchor}\n" for r in GOLDEN + GOLDEN[:1])
    upload(at, "data_golden", "golden.csv", golden.encode())
    assert "golden.csv line 4: the same question as line 2; it counts once." in warnings(at)
    assert any("None of these documents has the status 'current'" in shown(i.value) for i in at.info)
    excluded = next(w for w in warnings(at) if w.startswith("1 golden question(s) would be excluded"))
    assert "The same question as row 1: it counts once." in excluded
    at.button(key="data_use").click().run()
    assert_fine(at)
    assert any(w.startswith(NOTHING) for w in warnings(at))
    assert at.multiselect(key="data_trusted").value == []
    at.multiselect(key="data_trusted").set_value(["draft", "outdated"]).run()
    assert_fine(at)
    assert not any(w.startswith("Nothing is trusted") for w in warnings(at))
    assert at.sidebar.multiselect(key="trusted").value == ["draft", "outdated"]
    assert query(at, "trusted") == "draft,outdated"
