"""The golden set studio (pages/studio.py, ui/studio.py, ui/studio_form.py): rows built from a document's sentences,
refused with the upload's reasons, every row's status at once, edit, delete, undo, kept in the store and used by
every page, the CSV reading back, suggestions accepted with their source. Expectations come from rag_core."""
from __future__ import annotations

import hashlib
from collections import namedtuple

from streamlit.testing.v1 import AppTest

from apptest_helpers import APP, assert_fine, set_chunker, shown
from rag_core.data.corpus import bundled_corpus
from rag_core.data.anchor_places import phrase_positions
from rag_core.data.golden import GOLDEN_FILES, GoldenRow, load_golden
from rag_core.data.golden_csv import read_golden_csv
from rag_core.data.golden_edit import add_row, delete_row, replace_row, words_span
from rag_core.store import Store
from ui import studio
from ui.studio_form import units

Suggestion = namedtuple("Suggestion", "question doc anchor answer why source")   # the shape rag_core's will have
DOCS = {d.id: d for d in bundled_corpus().documents}


def sentence_of(doc: str, text: str) -> int:
    """The position of the first sentence of `doc` holding `text`, as the studio lists them."""
    return next(i for i, s in enumerate(units(DOCS[doc].text)) if text in s)


def open_studio(query: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query or {})
    at.switch_page("pages/studio.py").run()
    assert_fine(at)
    return at


def by_label(widgets, label: str):
    return next(w for w in widgets if w.label == label)


def add(at: AppTest, doc: str, text: str, question: str, answer: str = "", words: tuple | None = None) -> AppTest:
    """Pick doc's sentence holding `text` (narrowed to `words` when given), type the question, Add."""
    at.selectbox(key="studio_doc").set_value(doc).run()
    by_label(at.selectbox, "Anchor sentence").set_value(sentence_of(doc, text)).run()
    if words is not None:
        by_label(at.select_slider, "Anchor: from word … to word …").set_value(words).run()
    at.text_input(key="studio_question").set_value(question)
    at.text_input(key="studio_answer").set_value(answer)
    at.button(key="studio_add").click().run()
    assert_fine(at)
    return at


def table(at: AppTest):
    return next(d.value for d in at.dataframe if "status" in d.value.columns)


def notes(at: AppTest) -> list[str]:
    return [shown(e.value) for e in at.error] + [shown(s.value) for s in at.success]


def test_three_rows_from_sentences_are_kept_used_and_leave_the_bundled_files_alone():
    files = {k: hashlib.sha256(p.read_bytes()).hexdigest() for k, p in GOLDEN_FILES.items()}
    at = open_studio()
    at.button(key="studio_empty").click().run()
    assert any("The set is empty" in i.value for i in at.info)
    add(at, "difflib", "Optional arg cutoff", "How close must two words be to be offered?", "0.6",
        words=(0, 4))
    add(at, "heapq", "Push item on the heap, then pop", "Push then pop the smallest in one call?")
    add(at, "bisect", "leftmost", "Where does the left search put an equal item?")
    rows = table(at)
    assert list(rows.status) == ["✓ valid"] * 3, rows
    assert rows.anchor[0] == "Optional arg cutoff (default 0.6)" and rows["answer key"][0] == "0.6"
    assert list(rows.source) == ["typed"] * 3
    key = at.query_params["data"][0] if isinstance(at.query_params["data"], list) else at.query_params["data"]
    assert key.startswith("user-")
    saved = Store.default().load_dataset(key)             # kept: a reload's link opens it
    assert [r.question for r in saved.golden] == list(rows.question)
    assert [d.id for d in saved.documents] == list(DOCS)
    # the bundled files and sets are as they were
    assert files == {k: hashlib.sha256(p.read_bytes()).hexdigest() for k, p in GOLDEN_FILES.items()}
    assert len(load_golden("article")) == 18
    # every page uses it: Overview counts 3 valid golden questions
    at.switch_page("pages/overview.py").run()
    assert_fine(at)
    assert any("3 valid golden questions" in c.value for c in at.caption), [c.value for c in at.caption]
    # a new session opening the link sees the same set
    again = open_studio({"data": key})
    assert list(table(again).question) == list(rows.question)


def test_a_row_that_would_not_count_is_refused_with_the_uploads_reason():
    at = open_studio()
    before = len(table(at))
    add(at, "difflib", "Optional arg cutoff", "What is it?")              # only stopwords
    assert any("Not added: The question has no word" in n for n in notes(at)), notes(at)
    add(at, "difflib", "Optional arg cutoff", "Default cutoff, please?", "0.7", words=(0, 4))
    assert any("The answer key '0.7' is not in the anchor" in n for n in notes(at)), notes(at)
    add(at, "difflib", "Optional arg cutoff", "What is the default cutoff of get_close_matches?", words=(0, 4))
    assert any("The same question as row 1" in n for n in notes(at)), notes(at)
    assert len(table(at)) == before                                     # nothing was added
    assert at.query_params.get("data") in (None, "bundled", ["bundled"])


def test_statuses_show_a_cut_anchor_where_the_boundary_falls_and_a_document_gone():
    rows = [GoldenRow("Default cutoff of get_close_matches?", "difflib", "Optional arg cutoff (default 0.6)", "0.6"),
            GoldenRow("Where are the notes?", "gone.md", "notes about something")]
    from ui.datasets import make_dataset
    ds = make_dataset("two rows", tuple(DOCS.values()), rows)
    Store.default().save_dataset(ds.name, ds.documents, ds.golden)
    at = open_studio({"data": ds.key})
    assert list(table(at).status) == ["✓ valid", "✗ document gone"]
    assert "Unknown document 'gone.md'" in table(at).why[1]
    set_chunker(at, "fixed", 3, 0)                                        # words 0-2, 3-5, ...
    t = table(at)
    assert t.status[0] == "✂ anchor cut", t
    # the anchor's first word sits at a position of its own in difflib; the chunk holding it ends inside it
    first = int(phrase_positions(DOCS["difflib"].text.split(), rows[0].anchor.split())[0])
    inside = 3 - first % 3
    assert f"ends after word {inside} of the anchor's 5" in t.why[0], t.why[0]


def test_edit_delete_and_undo():
    at = open_studio()
    at.button(key="studio_empty").click().run()
    add(at, "heapq", "Push item on the heap, then pop", "Push then pop the smallest in one call?")
    add(at, "bisect", "leftmost", "Where does the left search put an equal item?")
    at.selectbox(key="studio_row").set_value(1).run()
    by_label(at.text_input, "Edited question").set_value("Where does bisect_left put an equal item?")
    at.button(key="studio_save").click().run()
    assert list(table(at).question) == ["Push then pop the smallest in one call?",
                                        "Where does bisect_left put an equal item?"]
    at.selectbox(key="studio_row").set_value(0).run()
    at.button(key="studio_delete").click().run()
    assert list(table(at).question) == ["Where does bisect_left put an equal item?"]
    assert at.button(key="studio_undo").label == "Undo: delete row 1"
    at.button(key="studio_undo").click().run()
    assert len(table(at)) == 2
    at.button(key="studio_undo").click().run()
    assert list(table(at).question)[1] == "Where does the left search put an equal item?"


def test_a_yes_no_rows_reply_is_added_edited_shown_and_written_to_the_csv():
    at = open_studio()
    at.button(key="studio_empty").click().run()
    at.selectbox(key="studio_reply").set_value("yes")
    add(at, "heapq", "Push item on the heap, then pop", "Is one call quicker than push then pop?")
    add(at, "bisect", "leftmost", "Where does the left search put an equal item?")
    assert list(table(at).reply) == ["yes", ""]
    assert at.selectbox(key="studio_reply").value == ""                    # cleared after Add, like the key
    at.selectbox(key="studio_row").set_value(0).run()
    by_label(at.selectbox, "Edited reply").set_value("no")
    at.button(key="studio_save").click().run()
    assert list(table(at).reply) == ["no", ""]
    rows = [GoldenRow(q, d, a, k, r) for q, d, a, k, r in table(at)[["question", "doc", "anchor", "answer key",
                                                                     "reply"]].itertuples(index=False)]
    data = studio.csv_bytes(rows)
    assert data.decode().splitlines()[0] == "question,doc,anchor,answer,reply"
    assert read_golden_csv(data, "g.csv") == (rows, [])


def test_the_csv_reads_back_with_the_answer_column_and_no_problem():
    rows = [GoldenRow("=HYPERLINK(\"x\") cutoff?", "difflib", "Optional arg cutoff (default 0.6)", "0.6"),
            GoldenRow("Push, then pop \"smallest\"?", "heapq", "Push item on the heap", "")]
    data = studio.csv_bytes(rows)
    assert data.decode().splitlines()[0] == "question,doc,anchor,answer"
    read, problems = read_golden_csv(data, "golden-set.csv")
    assert problems == [] and read == rows
    only_anchor = studio.csv_bytes(rows[1:])                               # no key at all: the column still there
    assert only_anchor.decode().splitlines()[0] == "question,doc,anchor,answer"
    assert read_golden_csv(only_anchor, "g.csv") == (rows[1:], [])


def test_suggestions_accepted_one_or_all_with_their_source():
    good = [Suggestion("Which heap function pushes then pops?", "heapq", "Push item on the heap, then pop", "",
                       "a definition line", "structure"),
            Suggestion("Where does bisect_left insert?", "bisect", "insert just before the leftmost x already there",
                       "before the leftmost", "a sentence with 'leftmost'", "model:qwen")]
    bad = Suggestion("What is it?", "heapq", "Push item on the heap", "", "too vague", "model:qwen")
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["studio_suggested"] = good + [bad]
    at.switch_page("pages/studio.py").run()
    at.button(key="studio_empty").click().run()
    assert at.button(key="studio_suggestion_all").label == "Accept all (3)"
    at.button(key="studio_suggestion_1").click().run()
    assert list(table(at).source) == ["model:qwen"]
    assert at.button(key="studio_suggestion_all").label == "Accept all (2)"     # the accepted one is gone
    at.button(key="studio_suggestion_all").click().run()
    t = table(at)
    assert list(t.question) == [good[1].question, good[0].question]     # the second is there once; the bad refused
    assert list(t.source) == ["model:qwen", "structure"]
    assert any("1 suggestion not added" in n and "The question has no word" in n for n in notes(at)), notes(at)


def test_golden_edit_library():
    docs = tuple(DOCS.values())
    rows = add_row((), GoldenRow(" Default cutoff? ", "difflib", "Optional  arg\ncutoff (default 0.6)", "0.6"), docs)
    assert rows == (GoldenRow("Default cutoff?", "difflib", "Optional arg cutoff (default 0.6)", "0.6"),)
    assert replace_row(rows, 0, rows[0]._replace(answer="cutoff"), docs)[0].answer == "cutoff"
    assert delete_row(rows, 0) == ()
    assert words_span("a  b\nc d", 1, 2) == "b c"
    for bad in (lambda: delete_row(rows, 1), lambda: words_span("a b", 1, 2),
                lambda: replace_row(rows, 0, rows[0]._replace(doc="nowhere"), docs)):
        try:
            bad()
        except ValueError as e:
            assert str(e)
        else:
            raise AssertionError("accepted")


def test_your_data_shows_the_studios_set_as_the_active_dataset():
    at = open_studio()
    at.switch_page("pages/your_data.py").run()              # its radio holds the bundled corpus
    at.switch_page("pages/studio.py").run()
    add(at, "bisect", "leftmost", "Where does the left search put an equal item?")
    key = at.session_state["dataset"].key
    at.switch_page("pages/your_data.py").run()
    assert_fine(at)
    assert at.session_state["dataset"].key == key            # not switched back to the bundled corpus
    assert at.radio(key="data_choice").value == key


def test_what_is_wrong_with_a_row_is_said_below_the_table_as_plain_text():
    rows = [GoldenRow("Where is **bold** [x](http://e.vil)?", "*gone*.md", "notes about something")]
    from ui.datasets import make_dataset
    ds = make_dataset("gone", tuple(DOCS.values()), rows)
    Store.default().save_dataset(ds.name, ds.documents, ds.golden)
    at = open_studio({"data": ds.key})
    said = [w.value for w in at.warning if "Row 1" in w.value]
    assert len(said) == 1
    assert shown(said[0]) == "Row 1 (✗ document gone): Unknown document '*gone*.md': no document has that id."
    assert "\\*gone\\*" in said[0]                          # escaped: shown as typed, never as Markdown


def test_the_sentence_chunker_cuts_an_anchor_across_two_sentences_at_their_boundary():
    from rag_core import ChunkerConfig, Workbench
    from rag_core.evaluation.golden_status import row_statuses
    from rag_core.retrieval.chunkers import sentences
    said = sentences(DOCS["difflib"].text)
    i = next(i for i in range(len(said) - 1) if len(said[i].split()) > 3 and len(said[i + 1].split()) > 3
             and "cutoff" in said[i])
    anchor = " ".join(said[i].split()[-2:] + said[i + 1].split()[:2])
    wb = Workbench(bundled_corpus(), [GoldenRow("Which cutoff follows?", "difflib", anchor)])
    assert row_statuses(wb, ChunkerConfig("sentence", 2, 1))[0] == ("valid", "")     # every pair of sentences whole
    one = row_statuses(wb, ChunkerConfig("sentence", 1, 0))[0]
    assert one.state == "anchor cut" and "ends after word 2 of the anchor's 4" in one.detail, one


# ---------------------------------------------------------------- suggestions filled by the studio's buttons

FAQ = ("# Refunds\n\n## How long does a refund take?\n\nA refund reaches your card within five working days. Banks "
       "may add two more.\n\n## Can I change my **delivery** address?\n\nYes, until the parcel leaves the warehouse. "
       "Write to the support desk.\n\n## Where is the code?\n\n```\nx = 1\n```\n")


def open_upload(name: str, documents, golden=()) -> AppTest:
    """The studio opened on the link of an upload kept in the store."""
    from ui.datasets import make_dataset
    ds = make_dataset(name, tuple(documents), tuple(golden))
    Store.default().save_dataset(ds.name, ds.documents, ds.golden)
    return open_studio({"data": ds.key})


def test_the_headings_button_offers_the_question_headings_as_plain_text_with_their_source():
    from rag_core.data.corpus import Document
    at = open_upload("faq", [Document("*faq*.md", FAQ)])
    at.button(key="studio_suggest_structure").click().run()
    assert_fine(at)
    offered = at.session_state["studio_suggested"]
    assert [(s.question, s.anchor) for s in offered] == [
        ("How long does a refund take?", "A refund reaches your card within five working days."),
        ("Can I change my delivery address?", "Yes, until the parcel leaves the warehouse.")]
    assert any("2 suggestions found" in shown(s.value) for s in at.success), [s.value for s in at.success]
    texts = [t.value for t in at.text]
    assert "How long does a refund take?\nanchor: A refund reaches your card within five working days." in texts
    said = [c.value for c in at.caption if "a heading that asks a question (line 3)" in c.value]
    assert said == ["\\*faq\\*.md · a heading that asks a question (line 3) · structure"]     # escaped: not italics


def test_no_question_heading_says_none_found_and_why():
    from rag_core.data.corpus import Document
    at = open_upload("notes", [Document("notes.md", "# Notes\n\nPlain notes. Nothing here asks anything.\n")])
    at.button(key="studio_suggest_structure").click().run()
    assert_fine(at)
    assert at.session_state["studio_suggested"] == []
    assert any(shown(i.value).startswith("None found in these documents. Suggestions come from headings that ask "
                                         "a question") for i in at.info), [i.value for i in at.info]
    assert "studio_suggestion_all" not in [b.key for b in at.button]


def test_accepting_a_suggestion_adds_a_valid_row_with_its_source_and_undo_takes_it_back():
    from rag_core.data.corpus import Document
    at = open_upload("faq", [Document("faq.md", FAQ)])
    at.button(key="studio_suggest_structure").click().run()
    at.button(key="studio_suggestion_1").click().run()
    assert_fine(at)
    t = table(at)
    assert list(zip(t.status, t.question, t.anchor, t.source)) == [
        ("✓ valid", "Can I change my delivery address?", "Yes, until the parcel leaves the warehouse.", "structure")]
    key = at.session_state["dataset"].key
    assert [r.question for r in Store.default().load_dataset(key).golden] == ["Can I change my delivery address?"]
    assert at.button(key="studio_suggestion_all").label == "Accept all (1)"        # the accepted one is gone
    assert at.button(key="studio_undo").label == "Undo: accept suggestion 2"
    at.button(key="studio_undo").click().run()
    assert any("The set is empty" in i.value for i in at.info)
    assert at.button(key="studio_suggestion_all").label == "Accept all (2)"        # offered again


# ---------------------------------------------------------------- the model route, against tests/fake_llm_server.py

POLICY = ("Refund policy\n=============\n\nA refund reaches your card within five working days of the return. Banks "
          "may take two more days to show it.\n\nA parcel can be redirected until it leaves the warehouse, by "
          "writing to the support desk with the order number.\n")
# the model's reply, the same for every passage (fake server mode fixed:TEXT): its first anchor is in the first
# passage only, its second is in no passage (the model wrote it)
REPLY = ("Q: how many days until my money is back?\nA: A refund reaches your card within five working days of the "
         "return.\nK: five working days\nQ: can I get cash instead?\nA: Refunds are paid in cash at the desk.\n")


def test_the_model_button_is_off_without_a_model_server_and_says_where_to_connect_one():
    at = open_studio()
    assert at.button(key="studio_suggest_model").disabled
    assert any(c.value.startswith("No model server is connected: set one up on the Model page") for c in at.caption)


def test_the_model_writes_suggestions_and_an_anchor_not_in_its_passage_is_refused_with_why():
    from fake_llm_server import start_server, stop_server
    from rag_core.data.corpus import Document
    from rag_core.data.suggest import NOT_IN_PASSAGE
    from rag_core.generation.llm import LLMConfig
    srv, url = start_server()
    try:
        cfg = LLMConfig("ollama", url, "fixed:" + REPLY, timeout_s=10)
        from ui.datasets import make_dataset
        ds = make_dataset("policy", (Document("policy.txt", POLICY), Document("other.txt", "Nothing here.")), ())
        Store.default().save_dataset(ds.name, ds.documents, ds.golden)
        at = AppTest.from_file(APP, default_timeout=60)
        at.query_params["data"] = ds.key
        at.session_state["llm_config"] = cfg
        at.switch_page("pages/studio.py").run()
        assert not at.button(key="studio_suggest_model").disabled
        at.selectbox(key="studio_model_doc").set_value("policy.txt")
        at.number_input(key="studio_model_passages").set_value(2)
        at.number_input(key="studio_model_questions").set_value(2).run()
        at.button(key="studio_suggest_model").click().run()
        assert_fine(at)
        offered = at.session_state["studio_suggested"]
        assert [(s.question, s.anchor, s.answer) for s in offered] == [
            ("how many days until my money is back?", "A refund reaches your card within five working days of the "
             "return.", "five working days")]
        refused = at.session_state["studio_refused"]
        # passage 1: the invented anchor; passage 2: the first anchor too (in the document, not in that passage),
        # the second again
        assert [(r.question, r.reason) for r in refused] == [
            ("can I get cash instead?", NOT_IN_PASSAGE), ("how many days until my money is back?", NOT_IN_PASSAGE),
            ("can I get cash instead?", NOT_IN_PASSAGE)]
        assert any("1 suggestion written by" in shown(s.value) and "3 refused" in shown(s.value)
                   for s in at.success), [s.value for s in at.success]
        shown_texts = [t.value for t in at.text]
        assert [t for t in shown_texts if "why refused" in t] == [
            f"{r.question}\npolicy.txt · anchor: {r.anchor}\nwhy refused: {NOT_IN_PASSAGE}" for r in refused]
        offered_texts = [t for t in shown_texts if "why refused" not in t]
        assert not any("Refunds are paid in cash" in t for t in offered_texts)      # never offered
        at.button(key="studio_suggestion_0").click().run()
        t = table(at)
        assert list(zip(t.status, t.question, t["answer key"])) == [
            ("✓ valid", "how many days until my money is back?", "five working days")]
        assert t.source[0] == "model: " + cfg.model
    finally:
        stop_server(srv)


def test_a_document_without_a_paragraph_to_ask_about_is_said_before_any_request():
    from rag_core.data.corpus import Document
    from rag_core.generation.llm import LLMConfig
    at = AppTest.from_file(APP, default_timeout=60)
    from ui.datasets import make_dataset
    ds = make_dataset("short", (Document("short.md", "# Short\n\nToo short to ask about.\n"),), ())
    Store.default().save_dataset(ds.name, ds.documents, ds.golden)
    at.query_params["data"] = ds.key
    at.session_state["llm_config"] = LLMConfig("ollama", "http://127.0.0.1:9", "any-model", timeout_s=1)
    at.switch_page("pages/studio.py").run()
    at.button(key="studio_suggest_model").click().run()
    assert_fine(at)
    assert any(shown(i.value) == "short.md has no paragraph of prose of 12 words or more to ask the model about: "
               "choose another document." for i in at.info), [i.value for i in at.info]


def test_a_model_server_that_fails_is_said_and_leaves_the_suggestions():
    from fake_llm_server import start_server, stop_server
    from rag_core.generation.llm import LLMConfig
    srv, url = start_server()
    try:
        at = AppTest.from_file(APP, default_timeout=60)
        at.session_state["llm_config"] = LLMConfig("ollama", url, "error-500", timeout_s=10)
        at.switch_page("pages/studio.py").run()
        at.button(key="studio_suggest_structure").click().run()
        before = at.session_state["studio_suggested"]
        at.button(key="studio_suggest_model").click().run()
        assert_fine(at)
        assert any(shown(e.value).startswith("The model could not be asked, no suggestion changed:") for e in at.error)
        assert at.session_state["studio_suggested"] == before
    finally:
        stop_server(srv)
