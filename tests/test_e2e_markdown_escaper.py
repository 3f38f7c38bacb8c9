"""rag_core.text.markdown.plain in the real browser: what Streamlit 1.67's Markdown draws of it is the text, character for
character (white space collapsed), and nothing else: only paragraphs, code and line breaks; no link, image,
formula, emoji, icon, colour, emphasis, heading, list or table. Over the hand-made cases of tests/plain_cases.py
(an e-mail, an entity, a URL, :red[x], $x$, <b>, ...) and 150 generated texts, in a warning, a caption and a
paragraph (tests/plain_app.py); and the Tour's warning about a link's bad step, holding an e-mail. And a name
cut in a note: a zip member named with 65,000 characters is a short warning on the Your data page.
"""
from __future__ import annotations

from urllib.parse import quote

import pytest

from browser import MAIN, ROOT, SLOW_MS, StreamlitServer, page_path, upload, wait_idle, wait_loaded
from plain_cases import CASES, generated
from hostile_zips import long_zip
from playwright.sync_api import expect

TEXTS = CASES + generated(150, seed=11)          # as tests/plain_app.py draws them

_DRAWN = """(n) => Array.from({length: n}, (_, i) =>
    Array.from(document.querySelectorAll(`.st-key-case_${i} :is([data-testid="stMarkdownContainer"], [data-testid="stCaptionContainer"])`), el => ({
        text: el.textContent,
        tags: [...new Set(Array.from(el.querySelectorAll('*'), e => e.tagName.toLowerCase()))],
        emoji: !!el.querySelector('[role="img"], img, svg'),
    })))"""


@pytest.fixture(scope="module")
def escaper_app(monkeypatch_module):
    monkeypatch_module.setenv("PYTHONPATH", f"{ROOT}:{ROOT / 'tests'}")
    with StreamlitServer(app=ROOT / "tests" / "plain_app.py") as srv:
        yield srv


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as mp:
        yield mp


def test_every_text_is_drawn_as_its_characters_and_nothing_else(new_page, escaper_app):
    page = new_page(1280, 1000)
    page.goto(escaper_app.url)
    last = page.locator(f'.st-key-case_{len(TEXTS) - 1} :is([data-testid="stMarkdownContainer"], '
                        '[data-testid="stCaptionContainer"])')
    expect(last).to_have_count(3, timeout=SLOW_MS)
    wait_idle(page)
    wait_loaded(page)                    # the emoji plugin is loaded on demand: a skeleton until then
    drawn = page.evaluate(_DRAWN, len(TEXTS))
    wrong = []
    for text, shown in zip(TEXTS, drawn):
        assert len(shown) == 3, (text, shown)
        for s in shown:
            if s["text"].split() != text.split() or set(s["tags"]) - {"p", "code", "pre", "br"} or s["emoji"]:
                wrong.append((text, s))
    assert not wrong, f"{len(wrong)} of {3 * len(TEXTS)} drawn otherwise, the first: {wrong[:3]}"


def test_a_link_to_the_tour_with_an_email_warns_in_plain_text(page, server):
    value = "a user@evil.example &lt;ent&gt; :red[x] $x$ <b>b</b>"
    page.goto(server.url + page_path("The tour") + "?step=" + quote(value, safe=""))
    warning = page.locator(MAIN).locator('[data-testid="stAlertContentWarning"]').filter(has_text="for 'step' is not valid")
    expect(warning).to_contain_text(f"'{value}'", timeout=SLOW_MS)
    expect(warning.locator("a, b, .katex, span[style]")).to_have_count(0)


def test_a_65000_character_member_name_is_a_short_note_on_your_data(page, server):
    page.goto(server.url + page_path("Your data"))
    expect(page.locator(MAIN)).to_contain_text("Active dataset: Bundled corpus", timeout=SLOW_MS)
    wait_idle(page)
    upload(page, "Documents", [{"name": "long.zip", "mimeType": "application/zip", "buffer": long_zip()}])
    expect(page.locator(MAIN)).to_contain_text("1 document(s) read", timeout=SLOW_MS)
    notes = page.locator(MAIN).locator('[data-testid="stAlertContentWarning"]').filter(has_text="(in long.zip)")
    expect(notes).to_have_count(3, timeout=SLOW_MS)
    texts = notes.all_text_contents()
    assert all(len(t) < 300 and "a" * 100 not in t for t in texts), [len(t) for t in texts]
    assert any("(65,004 characters)" in t for t in texts), texts
