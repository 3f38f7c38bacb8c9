"""Golden questions suggested from documents (rag_core.data.suggest): every row offered is valid and literal, every
question heading with prose below it is offered once, code is never read; a model's suggestion whose anchor is not
in its passage is refused with its reason; `python -m rag_core golden suggest` prints a CSV the upload reads back."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rag_core.__main__ import main
from rag_core.data.corpus import Document
from rag_core.data.golden import golden_problems
from rag_core.data.golden_csv import read_golden_csv
from rag_core.data.ingest import read_path
from rag_core.data.suggest import NOT_IN_PASSAGE, Refusal, Suggestion, from_model, from_structure, parse_reply
from rag_core.text.questions import question_key
from rag_core.text.tokens import normalize

WORDS = ("widget", "cache", "parser", "timeout", "Python", "zero", "returns", "value", "sorted", "list", "retry",
         "socket", "the", "a", "of", "default", "0.6", "3.10", "os.path")
TITLES = ("How do I reset the widget?", "Why is the cache empty?", "Can the parser read 3.10?",
          "What is the default timeout?", "Does retry sort the list?", "Where is os.path kept?")
CODE_QUESTION = "Is codeword zz here?"        # only ever inside code: never a suggestion


def sentence():
    return st.lists(st.sampled_from(WORDS), min_size=2, max_size=7).map(lambda w: " ".join(["Widget", *w]) + ".")


def paragraph():
    """Prose: one to three sentences, wrapped over lines of a few words (no indentation)."""
    def wrap(text):
        w = text.split()
        return "\n".join(" ".join(w[i:i + 5]) for i in range(0, len(w), 5))
    return st.lists(sentence(), min_size=1, max_size=3).map(" ".join).map(wrap).map(lambda t: ("prose", t))


def a_list():
    return st.tuples(sentence(), sentence(), sentence()).map(
        lambda s: ("prose", f"- {s[0]}\n\n  - {s[1]}\n  - {s[2]}\n"))


def code(markdown: bool):
    body = f"{CODE_QUESTION}\n{'-' * len(CODE_QUESTION)}\n\nx = y?\n# {CODE_QUESTION}\n"
    doctest = ("code", f">>> print(x)\n{CODE_QUESTION}\n   x = y? is printed\n")   # its output: a 'term' and more
    if markdown:
        return st.sampled_from([("code", f"```\n{body}```"), ("code", f"~~~~\n{body}~~~~"), doctest])
    indented = "\n".join(f"    {line}" if line else "" for line in body.splitlines())
    return st.sampled_from([("code", f"::\n\n{indented}"), ("code", f".. code-block:: python\n\n{indented}"),
                            doctest])


def heading(title: str, style: int, markdown: bool) -> str:
    if markdown:
        return f"## {title}" if style % 2 else f"{title}\n{'=' * len(title)}"
    char = "=-~^"[style % 4]
    return f"{char * len(title)}\n{title}\n{char * len(title)}" if style == 4 else f"{title}\n{char * len(title)}"


@st.composite
def documents(draw):
    """Two to four documents (reST .txt or Markdown .md) of sections: a title (a question or not, often repeated),
    then prose, nested lists, code with question lines in it, or nothing. Returns (documents, sections)."""
    docs, sections = [], []
    for n in range(draw(st.integers(2, 4))):
        markdown = draw(st.booleans())
        parts = []
        for _ in range(draw(st.integers(1, 5))):
            title = draw(st.sampled_from(TITLES + ("Overview", "Installing widgets")))
            body = draw(st.lists(st.one_of(paragraph(), a_list(), code(markdown)), max_size=3))
            sections.append((title, [kind for kind, _ in body]))
            parts.append("\n\n".join([heading(title, draw(st.integers(0, 4)), markdown)] + [t for _, t in body]))
        docs.append(Document(f"doc{n}.{'md' if markdown else 'txt'}", "\n\n".join(parts) + "\n"))
    return docs, sections


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_every_row_is_valid_and_literal_and_every_question_heading_with_prose_is_offered(drawn):
    docs, sections = drawn
    got = from_structure(docs)
    assert golden_problems([s.row for s in got], docs) == ()              # valid, and no question twice
    texts = {d.id: normalize(d.text) for d in docs}
    for s in got:
        assert normalize(s.anchor) in texts[s.doc] and s.source == "structure" and s.answer == ""
        assert "codeword" not in s.question and "codeword" not in s.anchor and "x = y" not in s.anchor
        assert s.why.startswith("a heading that asks a question (line ")
    with_prose = {question_key(t) for t, kinds in sections if t.endswith("?") and "prose" in kinds}
    assert {question_key(s.question) for s in got} == with_prose


def test_the_heading_kinds_and_where_each_comes_from():
    rst = Document("faq.txt", "=====\nFAQ\n=====\n\nWhat is the cutoff?\n-------------------\n\nThe cutoff is 0.6 by "
                              "default. It can change.\n\nEmpty section?\n~~~~~~~~~~~~~~\n\nNext?\n^^^^^\n\n::\n\n"
                              "    Only code?\n    ----------\n\nAfter the code, prose.\n")
    md = Document("guide.md", "# Guide\n\n## How do I retry?\n\n```\n## Not me?\n```\n\n* Call retry() twice.\n\n"
                              "**Is the cache shared?**\n\nNo, each worker has its own cache.\n\n"
                              "Q: Can I stop it?\nA: Yes, press stop\nto end it.\n\nsocket\n: A pipe to a server.\n")
    got = from_structure([rst, md])
    assert [(s.question, s.doc, s.anchor, s.why) for s in got] == [
        ("What is the cutoff?", "faq.txt", "The cutoff is 0.6 by default.", "a heading that asks a question (line 5)"),
        ("Next?", "faq.txt", "After the code, prose.", "a heading that asks a question (line 13)"),
        ("How do I retry?", "guide.md", "Call retry() twice.", "a heading that asks a question (line 3)"),
        ("Is the cache shared?", "guide.md", "No, each worker has its own cache.",
         "a line in bold that asks a question (line 11)"),
        ("Can I stop it?", "guide.md", "Yes, press stop to end it.", "a Q:/A: pair (line 15)"),
        ("What is socket?", "guide.md", "A pipe to a server.", "a term of a definition list (line 19)")]


def test_a_rest_definition_list_not_a_table_nor_a_wrapped_item_and_a_short_anchor_grows_to_the_next_sentence():
    doc = Document("terms.txt", "Glossary\n========\n\nsequence\n   An iterable with an index. See also list.\n\n"
                                "* not a term\n  but a list item\n\nIs it fast?\n-----------\n\nYes.\n\nIt is fast "
                                "enough.\n\nIs it old?\n----------\n\nYes. It is from 1991.\n\nAppearance\n   | "
                                ":func:`shape` | x |\n\n(3) To align the end of a structure to the requirement of a\n"
                                "    type, end the format.\n\n`pip <https://pip.pypa.io>`_\n   The installer of "
                                "packages.\n")
    got = {s.question: s.anchor for s in from_structure([doc])}
    assert got == {"What is sequence?": "An iterable with an index.", "Is it fast?": "Yes. It is fast enough.",
                   "Is it old?": "Yes. It is from 1991.", "What is pip?": "The installer of packages."}


def test_documents_must_be_documents():
    with pytest.raises(ValueError, match="Document objects"):
        from_structure(["just a text"])


PASSAGE = "The cutoff is 0.6 by default. Matches below it are dropped. Raise it to keep fewer matches."
DOCS = [Document("difflib.txt", "Intro.\n\n" + PASSAGE + "\n"), Document("other.txt", "Nothing here.")]


def test_a_model_suggestion_whose_anchor_is_not_in_the_passage_is_refused_and_counted():
    prompts = []

    def ask(prompt):
        prompts.append(prompt)
        return ('Q: how picky is the fuzzy match out of the box?\nA: "The cutoff is 0.6 by default."\nK: 0.6\n'
                "Q: what happens to weak matches?\nA: Weak matches are removed.\n"        # not in the passage
                "Q: how do I get fewer results?\nA: Raise it to keep fewer matches.\nK: lower it\n")   # key not in it
    ask.model = "tiny-model"
    got, refused = from_model(DOCS, [("difflib.txt", PASSAGE)], ask, n_per_passage=3)
    assert refused == [Refusal("what happens to weak matches?", "difflib.txt", "Weak matches are removed.",
                               NOT_IN_PASSAGE)]
    assert got == [Suggestion("how picky is the fuzzy match out of the box?", "difflib.txt",
                              "The cutoff is 0.6 by default.", "0.6",
                              "written by tiny-model for a passage of difflib.txt, its anchor copied from the passage",
                              "model: tiny-model"),
                   Suggestion("how do I get fewer results?", "difflib.txt", "Raise it to keep fewer matches.", "",
                              "written by tiny-model for a passage of difflib.txt, its anchor copied from the passage; "
                              "its answer key was not in the anchor and was left out", "model: tiny-model")]
    assert len(prompts) == 1 and PASSAGE in prompts[0] and "everyday words" in prompts[0]
    assert golden_problems([s.row for s in got], DOCS) == ()


def test_a_model_question_asked_twice_or_beyond_n_counts_once():
    reply = "1. Q: what is the default?\n   A: The cutoff is 0.6\n2. Q: What is the default?\n   A: The cutoff is 0.6\n"
    got, refused = from_model(DOCS, [("difflib.txt", PASSAGE)], lambda p: reply, n_per_passage=2, name="m")
    assert [s.question for s in got] == ["what is the default?"] and len(refused) == 1
    assert refused[0].reason.startswith("The same question as suggestion 1: it counts once.")
    got, refused = from_model(DOCS, [("difflib.txt", PASSAGE)], lambda p: reply)
    assert len(got) == 1 and refused == [] and got[0].source == "model: model"


def test_a_model_anchor_glued_to_a_longer_word_or_empty_is_refused():
    reply = "Q: what is the cutoff?\nA: 0\nQ: and the matches?\nA:\nQ: no anchor at all?\n"
    got, refused = from_model(DOCS, [("difflib.txt", PASSAGE)], lambda p: reply, n_per_passage=3)
    assert got == [] and [r.reason.split(":")[0] for r in refused] == [
        "The anchor '0' is 1 character long", "The anchor is empty", "The anchor is empty"]


@pytest.mark.parametrize("call, message", [
    (lambda: from_model(DOCS, [("nope.txt", "x")], lambda p: ""), "not among the documents"),
    (lambda: from_model(DOCS, [("difflib.txt", PASSAGE)], lambda p: None), "as text"),
    (lambda: from_model(DOCS, [("difflib.txt", PASSAGE)], lambda p: "", n_per_passage=0), "n_per_passage"),
])
def test_bad_calls_say_how_to_fix_them(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_parse_reply_reads_numbered_bold_and_keyless_items():
    assert parse_reply("Sure!\n**Q:** Why?\n**A:** Because.\nQ: Then?\nAnchor: So.\nKey:\n") == [
        {"Q": "Why?", "A": "Because."}, {"Q": "Then?", "A": "So.", "K": ""}]


def faq_folder(tmp_path):
    (tmp_path / "faq.txt").write_text("Why is the cache empty?\n=======================\n\nThe cache starts empty, "
                                      "on purpose.\n\nHow long is the timeout?\n------------------------\n\n"
                                      "The timeout is 30 seconds.\n")
    (tmp_path / "guide.md").write_text('# "Quoted", with commas?\n\nIt reads "quotes", commas and more.\n')
    (tmp_path / "broken.pdf").write_bytes(b"not a pdf")
    return tmp_path


def test_the_cli_prints_a_golden_csv_the_upload_reads_back_with_no_problem(tmp_path, capsys):
    folder = faq_folder(tmp_path)
    assert main(["golden", "suggest", "--docs", str(folder)]) == 0
    out = capsys.readouterr()
    assert out.out.splitlines()[0] == "question,doc,anchor,answer"
    assert out.err.startswith("note: broken.pdf") and "error" not in out.err
    rows, problems = read_golden_csv(out.out.encode())
    assert problems == [] and len(rows) == 3
    assert golden_problems(rows, read_path(folder).documents) == ()
    assert [r.question for r in rows] == ["Why is the cache empty?", "How long is the timeout?",
                                          '"Quoted", with commas?']


def test_the_cli_json_says_why_and_where(tmp_path, capsys):
    assert main(["golden", "suggest", "--docs", str(faq_folder(tmp_path)), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["documents"] == 2 and len(doc["suggestions"]) == 3
    assert doc["suggestions"][1] == {"question": "How long is the timeout?", "doc": "faq.txt",
                                     "anchor": "The timeout is 30 seconds.", "answer": "",
                                     "why": "a heading that asks a question (line 6)", "source": "structure"}


def test_no_suggestion_is_the_header_and_a_note(tmp_path, capsys):
    (tmp_path / "a.md").write_text("# Notes\n\nNothing is asked here.\n")
    assert main(["golden", "suggest", "--docs", str(tmp_path)]) == 0
    out = capsys.readouterr()
    assert out.out == "question,doc,anchor,answer\n" and out.err.startswith("note: no suggestion")


@pytest.mark.parametrize("args", [["golden"], ["golden", "suggest"], ["golden", "propose", "--docs", "x"],
                                  ["golden", "suggest", "--docs", "/no/such/folder"],
                                  ["golden", "suggest", "--docs", " "],
                                  ["golden", "suggest", "--docs", ".", "--format", "xml"],
                                  ["golden", "suggest", "--docs", "EMPTY"]])
def test_bad_input_is_one_error_line_and_exit_2(args, tmp_path, capsys):
    (tmp_path / "empty.txt").write_text("")
    args = [str(tmp_path) if a == "EMPTY" else a for a in args]
    assert main(args) == 2
    out = capsys.readouterr()
    assert out.out == "" and [ln for ln in out.err.splitlines() if ln.startswith("error:")] == \
        [out.err.splitlines()[-1]]


def test_passages_are_the_first_literal_prose_paragraphs_cut_at_a_sentence_end():
    from rag_core.data.outline import passages
    text = ("Title\n=====\n\nToo short here.\n\n- a list item of many words, one two three four five six\n\n"
            "::\n\n    code code code code code code code code code code code code\n\n"
            "One two three four five. Six seven eight nine ten. Eleven twelve.\n\nAnother paragraph of words here "
            "and there, long enough to count.\n")
    assert passages(text, min_words=6) == ["One two three four five. Six seven eight nine ten. Eleven twelve.",
                                           "Another paragraph of words here and there, long enough to count."]
    assert passages(text, min_words=6, limit=1, max_words=10) == ["One two three four five. Six seven eight nine ten."]
    assert passages(text, min_words=6, max_words=3)[0] == "One two three four five."     # a first sentence whole
    normalized = " ".join(text.split())
    assert all(p in normalized for p in passages(text, min_words=1))


# ---- the attack pass's cases ---------------------------------------------------------------------------------

def test_a_document_of_many_question_headings_gives_its_first_ones():
    """100,000 question headings took minutes (each suggestion was checked against the whole document with a fresh
    encoding of it); the first MAX_SUGGESTIONS are read, each valid."""
    from rag_core.data.suggest import MAX_SUGGESTIONS
    text = "".join(f"## Question {i}?\n\nAnswer number {i} is here.\n\n" for i in range(MAX_SUGGESTIONS + 500))
    got = from_structure([Document("a.md", text)])
    assert len(got) == MAX_SUGGESTIONS and got[0].question == "Question 0?" and got[-1].anchor.startswith(
        f"Answer number {MAX_SUGGESTIONS - 1} ")


def test_hostile_markup_and_blank_runs_are_read_in_linear_time():
    """':a' repeated 50,000 times in a heading, and a million spaces inside a reply line, were quadratic."""
    assert from_structure([Document("a.md", "## " + ":a" * 50_000 + "?\n\nThe answer is here.\n")]) is not None
    got = parse_reply("Q: x" + " " * 1_000_000 + "y\nA: Because.   ")
    assert got[0]["Q"].endswith(" y") and got[0]["A"] == "Because."


@pytest.mark.parametrize("call", [lambda: from_structure(None), lambda: from_structure(3), lambda: from_structure("a"),
                                  lambda: parse_reply(None),
                                  lambda: from_model([Document("a.md", "x")], None, lambda p: ""),
                                  lambda: from_model([Document("a.md", "x")], ["a.md"], lambda p: "")])
def test_wrong_arguments_are_a_value_error_that_says_what_to_pass(call):
    with pytest.raises(ValueError, match="Document|text|pairs"):
        call()
