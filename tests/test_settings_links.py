"""Links that name what the active dataset does not have (a document, a status) are said like any bad setting, and
statuses holding the characters links use to join them (',' and '|') come back whole."""
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from rag_core.data.corpus import Document
from rag_core.data.golden import GoldenRow
from ui import datasets, settings

ROOT = Path(__file__).resolve().parents[1]
ODD = ("a,b", "c|d", "-", "50%")         # statuses a link joins with ',' (and Compare with '|'), or reads as none


def page(name: str, query: dict, session: dict | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(query)
    for k, v in (session or {}).items():
        at.session_state[k] = v
    at.switch_page(f"pages/{name}.py").run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def warnings(at: AppTest) -> list:
    return [w.value.replace("\\", "") for w in at.main.warning]


def odd_dataset() -> datasets.Dataset:
    docs = [Document(f"doc{i}.md", f"Document {i} says the launch code is {7740 + i}.", s) for i, s in enumerate(ODD)]
    return datasets.make_dataset("odd statuses", docs, [GoldenRow("What is the launch code?", "doc0.md",
                                                              "the launch code is 7740")])


@pytest.mark.parametrize("values", [["a,b", "c|d"], ["-"], ["50%"], ["current", "draft"], []])
def test_statuses_round_trip_through_a_link(values):
    s = settings.SETTINGS["ask_statuses"]
    assert s.parse(s.dump(values)) == values


def test_a_link_written_before_escaping_reads_as_before():
    assert settings.SETTINGS["ask_statuses"].parse("current,draft") == ["current", "draft"]
    assert settings.SETTINGS["ask_statuses"].parse("-") == []


def test_statuses_holding_commas_or_bars_never_make_a_dataset():
    """Links escape , and | (above) for links written elsewhere; a dataset cannot hold such a status at all: a
    document refuses it with the fix (data.corpus.label_problem), so Compare and links never split one."""
    with pytest.raises(ValueError, match="write it without \\| and ,"):
        odd_dataset()


def test_a_document_the_dataset_does_not_have_is_said():
    at = page("corpus", {"corpus_doc": "gone.md"})
    assert ("The link's value 'gone.md' for 'corpus_doc' is not valid (this dataset has no document 'gone.md'); "
            "using the first document.") in warnings(at)
    assert at.selectbox(key="corpus_doc").value == at.selectbox(key="corpus_doc").options[0]
    assert not warnings(page("corpus", {"corpus_doc": "heapq"}))


@pytest.mark.parametrize("name", ["ask", "compare"])
def test_a_status_the_dataset_does_not_have_is_said(name):
    at = page(name, {"ask_statuses": "current,bogus"})
    assert ("The link's value 'current,bogus' for 'ask_statuses' is not valid (this dataset has no status 'bogus'); "
            "using 'current'.") in warnings(at)
    assert at.session_state["ask_statuses"] == ["current"]
    assert not warnings(page(name, {"ask_statuses": "current,draft"}))


def test_a_first_run_cut_short_by_a_menu_click_keeps_the_links_settings():
    """The first run noted its link (ui.first_link.keep) and was interrupted by a menu click before it read the
    settings; the page the click opens comes with an empty address. The link's settings still hold (the walk in
    test_e2e_state lost them 1 time in 20 on a busy machine: the sidebar came back as 160/32 and Hashing)."""
    link = {"retriever": "bm25", "size": "120", "overlap": "24", "trusted": "current"}
    at = page("ask", {}, {"_first_link": link})
    assert (at.session_state["retriever"], at.session_state["size"], at.session_state["overlap"]) == ("bm25", 120, 24)
    assert at.query_params["size"] == "120" and at.query_params["retriever"] == "bm25"    # the address again
    at.query_params.clear()                 # once followed, the first link is spent: the address alone counts
    at.session_state["size"] = 90
    at.run()
    assert at.session_state["size"] == 90


def test_a_first_link_is_read_once_and_not_over_a_later_address():
    link = {"size": "120"}
    at = page("ask", {"size": "140"}, {"_first_link": link})
    assert at.session_state["size"] == 140
