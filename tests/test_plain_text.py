"""rag_core.text.markdown.plain, the one escaper of user text for Markdown: what it writes reads back as the text, nothing in
it starts Markdown, and nothing is left that Streamlit's plugins rewrite after parsing (links from addresses and
e-mails, emoji and icon codes, arrows). Over the hand-made cases of tests/plain_cases.py and 3,000 generated texts
(fixed seeds), alone and inside the app (AppTest: a warning, a caption, the sidebar's dataset name). The real
browser's rendering: tests/test_e2e_markdown_escaper.py.
"""
from __future__ import annotations

import time

import pytest
from streamlit.testing.v1 import AppTest

from apptest_helpers import APP
from plain_cases import CASES, generated, rewritten, shown
from rag_core.evaluation import report
from rag_core.text.markdown import plain
from ui import widgets


def check(text: str, md: str, cell: bool = False, spaced: bool = False) -> None:
    """md reads back as text (spaced: up to white space, which Streamlit dedents and Markdown collapses) and
    leaves nothing for Streamlit's plugins to rewrite."""
    back, nodes = shown(md, cell)
    back, text = (t.replace("\u00a0", " ").expandtabs(4) for t in (back, text))   # an indent: no-break spaces
    assert back.split() == text.split() if spaced else back == text, (text, md)
    assert not [r for n in nodes for r in rewritten(n)], (text, md, nodes)


@pytest.mark.parametrize("text", CASES)
def test_each_markdown_construct_is_shown_as_written(text):
    check(text, plain(text))
    check(" ".join(text.splitlines()), plain(text, one_line=True), cell=True)


@pytest.mark.parametrize("seed", range(3))
def test_generated_texts_read_back_as_written(seed):
    for text in generated(1000, seed):
        check(text, plain(text))
        check(" ".join(text.splitlines()), plain(text, one_line=True), cell=True)


def test_what_is_rewritten_after_parsing_goes_in_code():
    assert plain("a user@evil.example") == "a `user@evil.example`"
    assert plain("&lt;ent&gt;") == "\\&lt;ent\\&gt;"
    assert plain(":smile: :material_home: :streamlit: a -> b") == "`:smile:` `:material_home:` `:streamlit:` a `->` b"
    assert plain(":material/home:") == "\\:material\\/home\\:"              # Streamlit rewrites ':material/' in the source
    assert plain("http://h/:material/x") == "`http://h/:material`\\/`x`"    # ...even inside code
    assert plain("at 10:30:45") == "at 10\\:30\\:45"                         # no emoji is named 30: no code
    assert plain("a@b.c->= y") == "`a@b.c->=` y"                             # touching runs: one span, never ``


def test_the_app_and_the_exports_share_the_escaper():
    assert widgets.plain is plain
    assert not hasattr(report, "inert")


@pytest.mark.parametrize("n", [200_000])
def test_hostile_texts_take_linear_time(n):
    for text in ["a" * n, ":" + "a" * n, "http://" + "." * n, "x@" * (n // 2), ":a" * (n // 2), "\n-" * (n // 2)]:
        started = time.process_time()
        md = plain(text)
        assert time.process_time() - started < 5, text[:10]       # about 0.3 s; quadratic would be minutes
        assert shown(md)[0] == text


def _warnings_app(texts):
    import streamlit as st
    from rag_core.text.markdown import plain
    for t in texts:
        st.warning(plain(t))
        st.caption(plain(t))


def test_in_the_app_a_warning_and_a_caption_read_back_as_written():
    texts = CASES + generated(300, seed=7)
    at = AppTest.from_function(_warnings_app, args=(texts,), default_timeout=60).run()
    assert not at.exception
    assert len(at.warning) == len(at.caption) == len(texts)
    for text, w, c in zip(texts, at.warning, at.caption):
        check(text, w.value, spaced=True)
        check(text, c.value, spaced=True)


def test_a_link_to_the_tour_with_an_email_and_an_entity_warns_in_plain_text():
    value = "a user@evil.example &lt;ent&gt; :red[x] $x$ <b>b</b> http://127.0.0.1:9/x"
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["step"] = value
    at.switch_page("pages/tour.py").run()
    warned = [w.value for w in at.warning if "for 'step' is not valid" in shown(w.value)[0]]
    assert warned and f"'{value}'" in shown(warned[0])[0], [w.value for w in at.warning]
    check(shown(warned[0])[0], warned[0])


def test_an_indent_is_never_a_code_block():
    """Four spaces or a tab at a line's start (after a blank line, or the text's start) would make CommonMark draw an
    indented code block: the indent is drawn as as many no-break spaces instead (found by an attack pass)."""
    for text in ("x\n\n    code", "\tcode", "  \tcode", "a\n\n        deep"):
        md = plain(text)
        assert not any(line.startswith(("    ", "\t")) or line.lstrip(" ").startswith("\t") for line in md.splitlines()), md
        check(text, md)
    assert plain("a  b") == "a  b" and plain("   three") == "   three"         # fewer than four: nothing to do
