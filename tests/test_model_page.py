"""The Model and Ask pages against a real local HTTP server speaking both protocols (no mocked client).

Each fault must give a readable message in the page and leave the app usable; answers that must be
refused (an invented number, a citation out of range, no citation) are refused with their reason.
"""
import re
import socket

import pytest
from streamlit.testing.v1 import AppTest

from fake_llm_server import MARKDOWN_BODY, MODELS, start_server, stop_server
from rag_core import Workbench
from rag_core.generation.llm import LLMConfig
from ui.widgets import plain
from apptest_helpers import APP, CUTOFF as QUESTION, run_golden, shown, snake


def outside_code(text: str) -> str:
    """Markdown source without its code spans (web addresses are shown as code: no link, no formatting)."""
    return re.sub(r"`[^`]*`", "", text)


@pytest.fixture(scope="module")
def server():
    srv, url = start_server()
    yield url
    stop_server(srv)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def page(path: str, cfg: LLMConfig | None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["llm_config"] = cfg
    at.run()
    at.switch_page(path).run()
    assert not at.exception
    return at


@pytest.mark.parametrize("protocol", ["ollama", "openai"])
def test_golden_set_through_a_model_gives_outcomes_and_metrics(server, protocol):
    at = run_golden(page("pages/model.py", LLMConfig(protocol, server, "echo-cite", timeout_s=10)))
    metrics = snake(at.dataframe[0].value)
    n = len(Workbench.bundled().golden_check.valid)
    assert list(metrics["filter"]) == ["no filter", "status = current"]
    assert list(metrics.questions) == [n, n]
    rates = metrics[["checker_accepted_rate", "refusal_rate", "abstention_rate"]].sum(axis=1)
    assert all(abs(r - 1) < 1e-9 for r in rates)            # every answer is exactly one of the three verdicts
    outcomes = metrics[["right_rate", "wrong_answer_rate", "wrong_source_rate", "not_confirmed_rate", "refusal_rate",
                        "abstention_rate"]].sum(axis=1)
    assert all(abs(r - 1) < 1e-9 for r in outcomes)         # and exactly one of the six golden outcomes
    assert (metrics.right_rate <= metrics.checker_accepted_rate).all()   # right: grounded, and the key stated
    shown = {m.label: m.value for m in at.metric}
    assert shown["Right answers"].endswith(f" of {n}") and "Grounded" not in shown   # the headline: right answers
    outcomes = at.dataframe[2].value                        # per-question table, no filter
    assert len(outcomes) == n and set(outcomes.columns) >= {"question", "outcome", "reason", "answer"}


def test_the_answer_is_the_second_column_of_the_per_question_table(server):
    """At 482 px the answer column was off screen: it comes right after the outcome, at a medium width, and one
    answer is shown whole below the table (the browser test test_e2e_model_page checks it is on screen)."""
    import json
    at = run_golden(page("pages/model.py", LLMConfig("ollama", server, "echo-cite", timeout_s=10)))
    table = at.dataframe[2]
    assert list(table.value.columns[:2]) == ["outcome", "answer"]
    widths = {k: v.get("width") for k, v in json.loads(table.proto.columns).items()}
    assert widths.get("answer") == "medium"
    first = table.value.iloc[0]
    assert at.selectbox(key="model_read_no filter").value == 0
    assert [c.value for c in at.code][:1] == [first.answer]


def test_invented_number_is_refused_with_the_reason(server):
    at = run_golden(page("pages/model.py", LLMConfig("ollama", server, "invented", timeout_s=10)))
    wb = Workbench.bundled()
    ix = wb.index()
    # "The default cutoff is 0.9 [S1]." passes only where S1 really says 0.9 (the draft note, without the filter)
    s1_says = [("0.9" in ix.texts[int(ids[0])]) for ids in wb.top_ids(ix.chunker, 3, None, True, 20)]
    metrics = snake(at.dataframe[0].value)
    assert metrics.refusal_rate.iloc[0] == 1 - sum(s1_says) / len(s1_says)
    assert metrics.refusal_rate.iloc[1] == 1.0
    per_question = at.dataframe[2].value
    refused = per_question[per_question.outcome == "refused"]
    assert len(refused) == s1_says.count(False) and refused.reason.str.contains("0.9").all()


@pytest.mark.parametrize("model, expected", [("out-of-range", "S9"), ("no-citation", "No citation")])
def test_bad_citations_are_refused(server, model, expected):
    at = run_golden(page("pages/model.py", LLMConfig("openai", server, model, timeout_s=10)))
    assert snake(at.dataframe[0].value).refusal_rate.iloc[0] == 1.0
    assert at.dataframe[2].value.reason.str.contains(expected).all()


def test_abstentions_are_counted(server):
    at = run_golden(page("pages/model.py", LLMConfig("ollama", server, "abstain", timeout_s=10)))
    assert list(snake(at.dataframe[0].value).abstention_rate) == [1.0, 1.0]


def test_second_run_with_the_same_settings_is_free(server):
    at = run_golden(page("pages/model.py", LLMConfig("ollama", server, "echo-cite", timeout_s=10)))
    first = snake(at.dataframe[0].value)
    at.session_state["llm_config"] = LLMConfig("ollama", "http://127.0.0.1:9", "echo-cite", timeout_s=1)
    at.session_state["model_runs"] = {(k[0], k[1], LLMConfig("ollama", "http://127.0.0.1:9", "echo-cite", timeout_s=1),
                                       *k[3:]): v for k, v in at.session_state["model_runs"].items()}
    run_golden(at)                                           # nothing listens there: only the cache can answer
    assert not at.error
    assert snake(at.dataframe[0].value).equals(first)


@pytest.mark.parametrize("model, url, words", [
    ("echo-cite", "refused", "Could not reach"),
    ("slow", None, "did not answer within"),
    ("error-500", None, "500"),
    ("missing-model", None, "missing-model"),
    ("malformed", None, "JSON"),
    ("cut", None, "cut off"),
])
@pytest.mark.parametrize("protocol", ["ollama", "openai"])
def test_faults_give_a_clear_message_and_the_app_stays_usable(server, protocol, model, url, words):
    base = f"http://127.0.0.1:{free_port()}" if url == "refused" else server
    at = run_golden(page("pages/model.py", LLMConfig(protocol, base, model, timeout_s=1)))
    assert at.error, "a fault must show an st.error"
    assert words.lower() in shown(at.error[0].value).lower()
    assert "Traceback" not in at.error[0].value
    at.switch_page("pages/ask.py").run()                    # still usable
    at.text_input(key="ask_question").set_value(QUESTION).run()
    assert not at.exception
    at.button(key="ask_model").click().run()
    assert not at.exception
    assert any(words.lower() in shown(e.value).lower() for e in at.error)


def test_ask_page_streams_and_verifies_the_model_answer(server):
    at = page("pages/ask.py", LLMConfig("ollama", server, "invented", timeout_s=10))
    at.text_input(key="ask_question").set_value(QUESTION).run()
    at.button(key="ask_model").click().run()
    assert not at.exception
    assert any(c.value == "The default cutoff is 0.9 [S1]." for c in at.code)
    assert any("0.9" in str(df.value.explanation.tolist()) for df in at.dataframe if "explanation" in df.value)


def test_api_key_never_reaches_the_page(server):
    cfg = LLMConfig("openai", server, "need-key", timeout_s=10, api_key="secret-key")
    at = run_golden(page("pages/model.py", cfg))
    assert not at.error
    rendered = " ".join(str(e.value) for e in at.main if hasattr(e, "value"))
    assert "secret-key" not in rendered
    assert "secret-key" not in "".join(str(v) for v in at.query_params.values())


def test_prompt_that_does_not_fit_is_warned(server):
    at = page("pages/ask.py", LLMConfig("ollama", server, "echo-cite", timeout_s=10, num_ctx=300))
    at.text_input(key="ask_question").set_value(QUESTION).run()
    assert any("may not fit" in w.value for w in at.warning)


# --- the connection form on the Model page (ui/model_form.py) ----------------------------------------

# any of them not escaped by plain(); '(', ')', '{', '}' and '#' inside a line need no escape once '[' and ']' are
MARKDOWN_SPECIALS = re.compile(r"(?<!\\)[\[\]*_`$:!<>|~]")


def form(server_url: str, model: str = "", protocol: str = "ollama", cfg: LLMConfig | None = None) -> AppTest:
    """The Model page with its form filled in (nothing submitted yet)."""
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["llm_config"] = cfg
    at.run()
    at.switch_page("pages/model.py").run()
    at.selectbox(key="llm_form_protocol").set_value(protocol)
    at.text_input(key="llm_form_url").set_value(server_url)
    at.text_input(key="llm_form_model").set_value(model)
    return at


def press(at: AppTest, button: str) -> AppTest:
    at.button(key=button).click().run()
    assert not at.exception
    return at


@pytest.mark.parametrize("protocol", ["ollama", "openai"])
def test_check_connection_lists_the_models(server, protocol):
    at = press(form(server, "echo-cite", protocol), "llm_form_check")
    assert any(s.value.startswith(f"Connected: the server lists {len(MODELS)} models") for s in at.success)
    assert [c.value for c in at.code] == ["\n".join(sorted(MODELS))]     # names as plain text
    assert not at.warning and not at.error
    assert at.session_state["llm_config"] is None                       # a check saves nothing


def test_check_connection_names_close_models(server):
    at = press(form(server, "qwen2.5"), "llm_form_check")
    assert len(at.warning) == 1
    assert at.warning[0].value == plain("This server has no model named 'qwen2.5'. Close names: qwen2.5:7b.")


def test_model_names_from_the_server_are_plain_text(server):
    at = press(form(server, "click"), "llm_form_check")
    assert "[click](http://x)" in at.code[0].value
    warning = at.warning[0].value
    assert "\\[click\\]" in warning and "`http://x)`" in warning           # the address as code: never a link
    assert not MARKDOWN_SPECIALS.search(outside_code(warning))


def test_server_error_body_is_plain_text(server):
    at = press(form(f"{server}/_mode/error-markdown"), "llm_form_check")
    message = at.error[0].value
    assert "HTTP 500" in message and plain(MARKDOWN_BODY[:40]) in message
    assert not MARKDOWN_SPECIALS.search(outside_code(message)), message


@pytest.mark.parametrize("url, words", [("http://[::1", "is not a valid address"), ("http://", "has no host name"),
                                        ("http://host:99999", "is not a valid address"),
                                        ("http://my host:1", "contains a space")])
def test_unusable_url_gives_a_readable_error(url, words):
    for button in ("llm_form_check", "llm_form_use"):
        at = press(form(url, "echo-cite"), button)
        assert len(at.error) == 1 and plain(words) in at.error[0].value
        assert at.session_state["llm_config"] is None


def test_check_connection_unreachable_and_faults(server):
    at = press(form(f"http://127.0.0.1:{free_port()}"), "llm_form_check")
    assert "Could not reach the model server" in at.error[0].value
    at = press(form(f"{server}/_mode/need-key"), "llm_form_check")
    assert plain("needs an API key and none is set") in at.error[0].value
    at.text_input(key="llm_form_api_key").set_value("secret-key")
    press(at, "llm_form_check")
    assert not at.error and at.code[0].value == "\n".join(sorted(MODELS))


def test_use_this_model_saves_the_settings(server):
    at = press(form(server, " echo-cite ", "openai"), "llm_form_use")
    assert not at.error
    assert at.session_state["llm_config"] == LLMConfig("openai", server, "echo-cite", 60.0)


def test_a_status_from_a_file_is_plain_text_in_the_download_labels(server):
    """A trusted status from a file, which the labels name: shown as text, never Markdown."""
    from rag_core import Document, GoldenRow
    from ui import datasets
    odd = "**bold** $x$"
    docs = [Document("a", "The default cutoff is 0.6 here.", odd), Document("b", "Other words here.", "zz-other")]
    ds = datasets.make_dataset("odd", docs, [GoldenRow("What is the default cutoff?", "a", "The default cutoff is 0.6")])
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["llm_config"] = LLMConfig("ollama", server, "echo-cite", timeout_s=10)
    at.session_state["dataset"] = ds
    at.session_state["trusted_by_dataset"] = {ds.key: [odd]}     # chosen: a corpus without 'current' trusts nothing
    at.run()
    at = run_golden(at.switch_page("pages/model.py").run())
    labels = [b.proto.label for b in at.get("download_button")]
    assert all(b.proto.ignore_rerun for b in at.get("download_button"))     # a download only fetches its file
    assert f"Download ({plain('status = ' + odd)}) CSV" in labels, labels
    assert not any(odd in label for label in labels)


def test_a_bad_model_setting_is_a_sentence_naming_the_variable_not_no_model(monkeypatch):
    """OPENBOOK_LLM_TIMEOUT=abc with a URL and a model used to read as 'No model is set up'."""
    monkeypatch.setenv("OPENBOOK_LLM_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("OPENBOOK_LLM_MODEL", "m")
    monkeypatch.setenv("OPENBOOK_LLM_TIMEOUT", "abc")
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page("pages/model.py").run()
    assert not at.exception
    said = re.sub(r"\\(.)", r"\1", " ".join(w.value for w in at.warning))       # shown as plain text: escapes off
    assert "OPENBOOK_LLM_TIMEOUT must be a number, got 'abc'" in said, said


def test_the_models_a_check_lists_are_offered_to_choose_from(server):
    """Check connection lists the server's models in a list; choosing one fills the Model field (it was text to
    retype), and Use this model takes it."""
    at = press(form(server, "qwen"), "llm_form_check")
    pick = at.selectbox(key="llm_form_pick")
    assert list(pick.options) == sorted(MODELS) and pick.value is None
    pick.set_value("qwen2.5:7b").run()
    assert not at.exception and at.text_input(key="llm_form_model").value == "qwen2.5:7b"
    assert not at.warning                                   # no "default value and Session State" warning
    press(at, "llm_form_use")
    assert at.session_state["llm_config"].model == "qwen2.5:7b"
    at.text_input(key="llm_form_url").set_value(server + "/other")     # another URL: its models are not known
    press(at, "llm_form_use")
    assert "llm_form_pick" not in [s.key for s in at.selectbox]


def test_an_answer_of_the_per_question_table_can_be_marked_and_is_kept(server, tmp_path, monkeypatch):
    """Issue 27: people's marks on the Model page, as on Ask: kept in the store with the answer's spans, read back
    at every run, and not in the CSV download (the spans are the mark's, not the table's)."""
    from rag_core.store import Store
    monkeypatch.setenv("OPENBOOK_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("OPENBOOK_STORE", raising=False)
    at = run_golden(page("pages/model.py", LLMConfig("ollama", server, "echo-cite", timeout_s=10)))
    table = at.dataframe[2].value
    assert "spans" not in table.columns
    at.selectbox(key="model_0_pick").select(QUESTION).run()
    assert not at.exception
    answer = table.set_index("question").answer[QUESTION]
    assert answer in [t.value for t in at.text]
    at.button(key="mark_model_0_wrong").click().run()
    assert "Your mark: **wrong**" in " ".join(c.value for c in at.caption)
    kept = Store(tmp_path / "openbook.sqlite3").labels.list("bundled")
    assert [(x.question, x.answer, x.label, x.source) for x in kept] == [(QUESTION, answer, "wrong", "model:echo-cite")]
    assert kept[0].spans and all(isinstance(s, str) and s for s in kept[0].spans)


def test_a_cancelled_run_leaves_its_answers_said_once(server):
    at = page("pages/model.py", LLMConfig("ollama", server, "echo-cite", timeout_s=10))
    at.session_state["model_progress"] = {"no filter": [{"question": "q *1*", "outcome": "answered", "reason": "r"}],
                                          "status = current": []}
    at.run()
    assert not at.exception
    n = len(Workbench.bundled().golden_check.valid)
    assert [w.value for w in at.warning if "cancelled" in w.value] == \
        [f"The run was cancelled after 1 of {2 * n} answers. Press Run to start again."]
    assert any(list(d.value.question) == ["q *1*"] for d in at.dataframe)      # the question as written
    at.run()
    assert not any("cancelled" in w.value for w in at.warning)                 # said once
