"""The page list, in one place: the frame builds the menu from it, and tests open pages from it.

URL paths are the page files' names (pages/ask.py is /ask); the first page is the entry page, served at /.

Left out on purpose: drawing the frame (ui.frame) and any page content.
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import streamlit as st


class PageSpec(NamedTuple):
    script: str      # path relative to app.py; its stem is the URL path
    title: str
    icon: str
    settings: tuple = ()     # its own settings (ui.settings keys), in its link beside the sidebar's


PAGES = (
    PageSpec("pages/overview.py", "Overview", ":material/home:"),
    PageSpec("pages/tour.py", "The tour", ":material/slideshow:", ("tour_step",)),
    PageSpec("pages/corpus.py", "Corpus", ":material/library_books:", ("corpus_doc",)),
    PageSpec("pages/ask.py", "Ask", ":material/quiz:",
             ("ask_question", "ask_candidates", "ask_k", "ask_statuses", "ask_rerank")),
    PageSpec("pages/ablations.py", "Ablations", ":material/bar_chart:"),
    PageSpec("pages/compare.py", "Compare", ":material/compare_arrows:", ("compare_setups",)),
    PageSpec("pages/your_data.py", "Your data", ":material/upload_file:"),
    PageSpec("pages/studio.py", "Golden set studio", ":material/edit_note:"),
    PageSpec("pages/model.py", "Model", ":material/smart_toy:"),
    PageSpec("pages/judge.py", "Judge", ":material/gavel:"),
    PageSpec("pages/glossary.py", "Glossary", ":material/menu_book:"),
)


def pages() -> list:
    """The st.Page objects of the menu; the first is the entry page, served at / and, through a hidden twin, at its
    own name too (/overview), so that a link naming it is no "Page not found". Streamlit keys a page by its URL path,
    so the entry page takes the path "home" (never shown: it is served at /)."""
    entry = PAGES[0]
    return ([st.Page(entry.script, title=entry.title, icon=entry.icon, default=True, url_path="home")]
            + [st.Page(p.script, title=p.title, icon=p.icon) for p in PAGES[1:]]
            + [st.Page(entry.script, title=entry.title, icon=entry.icon, url_path=Path(entry.script).stem,
                       visibility="hidden")])


def settings_of(page) -> tuple:
    """The settings of a st.navigation page's own (PageSpec.settings): ('tour_step',) for the tour."""
    return next((p.settings for p in PAGES if Path(p.script).stem == url_path(page)), ())


def url_path(page) -> str:
    """The URL path of a st.navigation page, the entry page's too ('' at / is 'overview')."""
    return page.url_path or Path(PAGES[0].script).stem
