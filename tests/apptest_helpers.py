"""Helpers shared by the AppTest files: open a page as a new session, read what it shows, and what it should show
computed from rag_core (never typed). Plain functions and constants, no tests.

Left out on purpose: fixtures (tests/conftest.py) and the browser (tests/browser.py, tests/e2e_helpers.py).
"""
from __future__ import annotations

import html
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from rag_core import ChunkerConfig
from rag_core.evaluation.judgement import judge_answer
from rag_core.evaluation.vocabulary import OUTCOMES
from rag_core.evaluation.pipeline import ask
from ui import navigation

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
SCRIPTS = {Path(p.script).stem: p.script for p in navigation.PAGES}     # name -> path relative to app.py
PAGES = {name: (SCRIPTS[name], title) for name, title in  # name -> (script, text in its title)
         [("overview", "Open Book"), ("corpus", "Corpus"), ("ask", "Ask"), ("ablations", "Ablations"),
          ("compare", "Compare setups"), ("glossary", "Glossary")]}
ARTICLE = ChunkerConfig("fixed", 160, 32)
CUTOFF = "What is the default cutoff of get_close_matches?"
ALL_STATUSES = ["current", "draft", "outdated"]
CHUNK_LABEL = re.compile(r"^(?:`|\*\*)(\S+?)(?:`|\*\*) · chunk (\d+)$")   # `doc` or **doc** (escaped)
STATUS_BADGE = re.compile(r'^<span class="ob-status" style="[^"]*">(.*)</span>$')
VERDICT_BADGE = re.compile(r"^:\w+-badge\[(" + "|".join(OUTCOMES) + r")\]$")


def open_page(name: str, query: dict | None = None, session: dict | None = None) -> AppTest:
    """A new session opened on a page's URL (query = the link's parameters)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query or {})
    for k, v in (session or {}).items():
        at.session_state[k] = v
    if name != "overview":
        at.switch_page(PAGES[name][0])
    at.run()
    assert_fine(at)
    return at


def assert_fine(at: AppTest) -> None:
    assert not at.exception, [e.message + "\n" + "\n".join(e.stack_trace) for e in at.exception]


def shown(text: str) -> str:
    """Markdown source as the reader sees it: backslash escapes (of user or server text made plain) removed."""
    return re.sub(r"\\(.)", r"\1", str(text))


def snake(df):
    """A table as shown (column names in words) with the library's names back: 'answer rate' -> 'answer_rate'."""
    return df.rename(columns=lambda c: str(c).replace(" ", "_"))


def run_golden(at: AppTest) -> AppTest:
    """The Model page's Run: the golden set through the model in use."""
    at.button(key="model_run").click().run()
    assert not at.exception
    return at


def markdowns(at: AppTest) -> list[str]:
    return [shown(m.value) for m in at.main.markdown]


def chunk_labels(at: AppTest) -> list[str]:
    """'difflib · chunk 53' for each span row, S1 first."""
    return [f"{unescape(m[1])} · chunk {m[2]}" for v in markdowns(at) if (m := CHUNK_LABEL.match(v))]


def unescape(md: str) -> str:
    """Markdown text without its backslash escapes: 'note\\-difflib' -> 'note-difflib'."""
    return re.sub(r"\\(.)", r"\1", md)


def status_badges(at: AppTest) -> list[str]:
    """The status badges of the span rows (escaped HTML spans), S1 first."""
    return [html.unescape(m[1]) for b in html_bodies(at) if (m := STATUS_BADGE.match(b))]


def verdict_badges(at: AppTest) -> list[str]:
    return [m[1] for v in markdowns(at) if (m := VERDICT_BADGE.match(v))]


def html_bodies(at: AppTest) -> list[str]:
    """The bodies of the page's st.html elements, but for the frame's own two scripts (ui.history, ui.phone_menu)."""
    from ui import history, phone_menu
    return [h.proto.body for h in at.get("html") if h.proto.body not in (history._SCRIPT, phone_menu._SCRIPT)]


def expected_answer(wb, question, k=3, rerank=True, allowed=("current",), chunker=ARTICLE, candidates=20):
    return ask(wb.index(chunker), question, candidates, k, rerank, set(allowed))


def expected_labels(wb, question, chunker=ARTICLE, **kw) -> list[str]:
    ix = wb.index(chunker)
    return [f"{ix.doc_id(int(c))} · chunk {ix.chunk_number(int(c))}"
            for c in expected_answer(wb, question, chunker=chunker, **kw).retrieved.ids]


def expected_outcome(wb, answer, a, row=None, chunker=ARTICLE) -> str:
    """What the page's badge must say for an answer on the spans of `a` (row: the golden row, if any)."""
    return judge_answer(answer, a.spans, a.retrieved.ids, wb.index(chunker), row.doc if row else None,
                        row.anchor if row else None, wb.trusted, key=row.key if row else None,
                        question=row.question if row else None).outcome


def set_chunker(at: AppTest, kind: str, size: int, overlap: int) -> AppTest:
    if at.sidebar.selectbox(key="chunker").value != kind:      # a new strategy resets size and overlap first
        at.sidebar.selectbox(key="chunker").set_value(kind).run()
    at.sidebar.number_input(key="size").set_value(size)
    if kind != "structure":
        at.sidebar.number_input(key="overlap").set_value(overlap)
    return at.run()


def open_any(name: str, query: dict, session: dict | None = None) -> AppTest:
    """A new session on any page of the list (test_app.open_page knows the pages it tests)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    for k, v in (session or {}).items():
        at.session_state[k] = v
    at.switch_page(SCRIPTS[name])
    at.run()
    assert_fine(at)
    return at


STORED = re.compile(r"stored index|Indexes stored in PostgreSQL|rebuilds what it needs")
TIMED = re.compile(r"\d+(\.\d+)? ?(ms|s)\b|\(ms\)|seconds?")     # timings differ from run to run, whatever the engine


def screen(at) -> dict:
    """What a page shows in its main area, timings and the database's own panel (Your data) left out: texts,
    metrics and tables."""
    texts = [t for t in markdowns(at) + [c.value for c in at.main.caption] + [h.value for h in at.main.subheader]
             if not TIMED.search(t) and not STORED.search(t)]
    frames = [d.value.drop(columns=["engine"], errors="ignore")                  # a setup names its engine,
              .replace(r"engine=[\w-]+", "engine=", regex=True)                    # and so do its links
              for d in at.main.dataframe if not any(TIMED.search(str(c)) for c in d.value.columns)
              and "MB" not in d.value.columns]
    return {"texts": texts, "metrics": [(m.label, m.value) for m in at.main.metric], "frames": frames}
