"""Rendering helpers shared by the pages: status colours, marked-up text, the document viewer, verdicts.

Every user or corpus string that goes into HTML passes through html.escape first: a question such as
`<script>alert(1)</script>` is shown as those characters, never run. st.html also sanitizes. Into Markdown it goes
through `plain` (rag_core.text.markdown), the one escaper of the app and of its Markdown exports.

Left out on purpose: computation (rag_core) and caching (ui.cache).
"""
from __future__ import annotations

import html
import re

import pandas as pd
import streamlit as st

from rag_core.text.markdown import plain  # plain: user text in st.markdown, re-exported for the pages
from rag_core.text.tokens import cached_words

# statuses are metadata, not verdicts: their colours are none of the outcomes' (green, orange, red, grey), so
# a draft's badge never looks like an error and a current one never looks like a right answer
STATUS_COLOURS = {"current": "teal", "draft": "plum", "outdated": "brown"}
OTHER_COLOURS = ("slate", "olive", "gray")
CSS = {"teal": "#0f6e78", "plum": "#8a3f7a", "brown": "#7a5a2e", "slate": "#44546a", "olive": "#5f6b1f", "gray": "#555"}

RETRIEVER_NAMES = {"hashing": "Hashing (the article's)", "bm25": "BM25", "minilm": "MiniLM (trained encoder)",
                   "hybrid": "Hybrid (BM25 + MiniLM)"}
RERANKER_NAMES = {"lexical": "Lexical (the article's)", "dense": "MiniLM similarity (bi-encoder)"}

def problems(rows) -> str:
    """Excluded golden questions as a Markdown list: question — reason (both escaped)."""
    return "\n".join(f"- {plain(p.question)} — {plain(p.reason)}" for p in rows)


_WORDS = {"ovl": "overlap", "bi": "bi-encoder", "ms": "(ms)", "percent": "%", "rerank": "reranked"}


def readable(df):
    """The DataFrame with its column names in words: 'recall_at_1' -> 'recall@1', 'cut_with_20_percent' ->
    'cut with 20 %', 'min_ms' -> 'min (ms)', and 'recall' beside 'k' -> 'ceiling' (the article's word for that
    table). Downloads keep the original names (the CLI's JSON schema)."""
    def name(c: str) -> str:
        if c == "recall" and "k" in df.columns:
            return "ceiling"
        return " ".join(_WORDS.get(w, w) for w in str(c).split("_")).replace(" at ", "@")
    return df.rename(columns={c: name(c) for c in df.columns})


def colour(status: str, statuses=()) -> str:
    if status in STATUS_COLOURS:
        return STATUS_COLOURS[status]
    others = [s for s in statuses if s not in STATUS_COLOURS]
    return OTHER_COLOURS[others.index(status) % len(OTHER_COLOURS)] if status in others else "gray"


def status_label(status: str) -> str:
    """'● current': a dot that `styled` colours inside tables."""
    return f"● {status}"


def styled(df, status_of: dict, statuses=()):
    """The DataFrame with the cells of each column named in `status_of` coloured by the status given for its row
    (a pandas Styler). The colour comes from the whole status, as given, never read back from the cell's text: an
    untrusted 'current maybe' is not teal like 'current'.

        styled(table, {"status": ["current", "draft"]}, statuses)     # None in a list: that cell is not coloured
    """
    given = pd.DataFrame(status_of, index=df.index)

    def css(_):
        return given.map(lambda s: f"color: {CSS[colour(s, statuses)]}; font-weight: 600" if isinstance(s, str) else "")
    return df.style.apply(css, axis=None, subset=list(given.columns))


def badge(status: str, statuses=()) -> None:
    """A status as a coloured badge; drawn as escaped HTML, since a status comes from the user's files."""
    c = CSS[colour(status, statuses)]
    st.html(f'<span class="ob-status" style="color:{c};background:{c}1a;border-radius:6px;padding:1px 8px;'
            f'font-size:0.875rem">{html.escape(str(status))}</span>')


def warn(text: str) -> None:
    """st.warning of a text that may hold user, file, server or URL text: shown as plain text."""
    st.warning(plain(text))


def info(text: str) -> None:
    """st.info of a text that may hold user, file, server or URL text: shown as plain text."""
    st.info(plain(text))


def success(text: str) -> None:
    """st.success of a text that may hold user, file, server or URL text: shown as plain text."""
    st.success(plain(text))


def error(text: str) -> None:
    """st.error of a text that may hold user, file, server or URL text: shown as plain text."""
    st.error(plain(text))


def download(where, label: str, data, file_name: str, mime: str, key: str, icon: str | None = None) -> None:
    """A download button in `where` (st, a column) that only fetches its file. Streamlit's default reruns the whole
    page on the click: every export recomputed the page, and a second download clicked during that rerun never
    came (CI). `data` may be a callable, run on the click."""
    where.download_button(label, data, file_name, mime, key=key, icon=icon, on_click="ignore")


def is_phone() -> bool:
    """True when the browser says it is a phone (its User-Agent), to collapse long blocks."""
    agent = (st.context.headers or {}).get("User-Agent", "")
    return any(m in agent for m in ("Mobi", "Android", "iPhone"))


def marked(text: str, terms: set) -> str:
    """HTML of `text` (escaped) with every token that holds a question term wrapped in <mark>."""
    out = []
    for piece in re.split(r"(\s+)", text):
        safe = html.escape(piece)
        if piece and not piece.isspace() and terms & set(cached_words(piece)):
            safe = f'<mark style="background:#ffe08a;padding:0 1px">{safe}</mark>'
        out.append(safe)
    return f'<div style="white-space:pre-wrap;overflow-wrap:anywhere;font-size:0.92rem;line-height:1.45">{"".join(out)}</div>'


def document_html(text: str, spans, anchors, cut) -> str:
    """The document with its chunks drawn: alternating backgrounds, overlaps darker, a label at each start.

    spans: [(start, end)] word spans of the chunks; anchors: [(first, last)] word ranges of golden anchors;
    cut: the subset of anchors that no chunk holds whole (drawn with a red dashed outline).
    """
    starts = {}
    for n, (s, _) in enumerate(spans, 1):
        starts.setdefault(s, n)
    in_chunks = {}
    for n, (s, e) in enumerate(spans):
        for t in range(s, e):
            in_chunks.setdefault(t, []).append(n)
    anchor_of = {t: (a, b) for a, b in anchors for t in range(a, b + 1)}
    out, t = [], 0
    for m in re.finditer(r"(\S+)(\s*)", text):
        word, gap = html.escape(m.group(1)), html.escape(m.group(2))
        if t in starts:
            out.append(f'<span style="font-size:0.7rem;color:#fff;background:#444;border-radius:3px;'
                       f'padding:0 4px;margin-right:2px">chunk {starts[t]}</span>')
        members = in_chunks.get(t, [])
        # chunk numbers start at 1: members hold 0-based positions, so position 0 is chunk 1, an odd chunk
        bg = "#f3d6a4" if len(members) > 1 else ("#dbe9f7" if members and members[0] % 2 == 1 else "#e4f3df")
        style = f"background:{bg}"
        if t in anchor_of:
            cut_here = anchor_of[t] in cut
            style += ";outline:2px " + ("dashed #b3261e" if cut_here else "solid #6b3fa0") + ";font-weight:600"
        title = (" title=\"golden anchor, CUT by a chunk boundary\"" if t in anchor_of and anchor_of[t] in cut
                 else " title=\"golden anchor\"" if t in anchor_of else "")
        out.append(f'<span style="{style}"{title}>{word}</span><span style="background:{bg}">{gap}</span>')
        t += 1
    legend = ('<div style="font-size:0.8rem;margin-bottom:6px">'
              '<span style="background:#e4f3df;padding:0 4px">odd chunk</span> '
              '<span style="background:#dbe9f7;padding:0 4px">even chunk</span> '
              '<span style="background:#f3d6a4;padding:0 4px">overlap (in two chunks)</span> '
              '<span style="outline:2px solid #6b3fa0;padding:0 4px;margin:0 6px">golden anchor</span> '
              '<span style="outline:2px dashed #b3261e;padding:0 4px;margin:0 6px">anchor cut by a boundary</span></div>')
    return (legend + '<div style="white-space:pre-wrap;overflow-wrap:anywhere;font-size:0.9rem;line-height:1.6;max-height:520px;'
            'overflow-y:auto;border:1px solid #ddd;border-radius:6px;padding:8px">' + "".join(out) + "</div>")


def judgement(j) -> None:
    """A judgement (rag_core.evaluation.judgement.judge_answer) as drawn everywhere: the outcome as a badge in its
    colour (green only for an answer that states its golden answer key), its sentence, the article's verdict when it
    differs and why, and the check of every sentence. It computes nothing."""
    st.badge(j.outcome, color=j.tone)          # above its sentence: beside it, a narrow column cut it ("answ…")
    st.markdown(plain(j.sentence))
    if j.article is not None:
        st.info(plain(f"The article's checker says '{j.article.verdict}' here, the strict checker "
                      f"'{j.verdict.verdict}': {j.why_they_differ or j.article.reason}"))
    if j.verdict.sentences:
        st.dataframe(pd.DataFrame([{"sentence": s.sentence, "cites": ", ".join(f"S{n}" for n in s.cited) or "—",
                                    "check": "✓ in the cited span" if s.ok else "✗ not supported",
                                    "explanation": s.explanation} for s in j.verdict.sentences]),
                     hide_index=True, width="stretch")


def golden_table(wb, chunker=None) -> None:
    """The golden set, one row per question in file order: valid or excluded with the reason, and (with a
    chunker) whether a chunk holds its anchor whole. The excluded rows are listed above it."""
    g = wb.golden_check.frame()
    if g.empty:
        st.info("This dataset has no golden questions: add a CSV of question,doc,anchor on the Your data page.")
        return
    st.caption(f"{int(g.valid.sum())} valid, {int((~g.valid).sum())} excluded from every metric. A question is "
               "valid when its anchor appears literally in its document (whitespace collapsed).")
    if wb.golden_check.problems:
        st.warning(f"{wb.golden_check.n_excluded} golden question(s) excluded from every metric:\n\n"
                   + problems(wb.golden_check.problems))
    if chunker is not None:
        g["whole in a chunk"] = [{True: "yes", False: "no: cut by a boundary", None: ""}[h]
                                 for h in wb.whole_in_a_chunk(chunker)]
    st.dataframe(g.assign(valid=g.valid.map({True: "✓ valid", False: "✗ excluded"})), hide_index=True,
                 width="stretch", column_config={"reason": st.column_config.TextColumn("why excluded")})


def stop_without_questions(wb, what: str) -> None:
    """st.info and st.stop when the dataset has no valid golden question; `what` is what cannot be shown."""
    if not wb.golden_check.valid:
        st.info(f"This dataset has no valid golden question, so {what}. Add a golden set on the Your data page, "
                "or switch back to the bundled corpus.")
        st.stop()


def secret_input(label: str, key: str, *, placeholder: str, help: str, forget: str, forget_key: str,
                 changed) -> None:
    """A password field for a secret (a database URL, a Ray address): what is typed goes to st.session_state[key]
    on Enter and the field is emptied, so the browser never gets it back (not even behind the show-password eye);
    a button forgets it. changed() after either. The field's own key is f"_{key}_field"."""
    field = f"_{key}_field"

    def keep() -> None:
        typed = st.session_state[field].strip()
        if typed:
            st.session_state[key] = typed
            st.session_state[field] = ""
            changed()

    def drop() -> None:
        st.session_state.pop(key, None)
        changed()

    st.text_input(label, key=field, type="password", on_change=keep, placeholder=placeholder, help=help)
    if st.session_state.get(key):
        st.button(forget, key=forget_key, on_click=drop)


def failing(problem: str | None, meanwhile: str, retry, key: str) -> bool:
    """A sidebar service that cannot be used: its problem (plain text) and what happens until it is fixed, with a
    "Try again" button calling retry. False, and nothing drawn, when there is no problem."""
    if not problem:
        return False
    st.error(plain(f"{problem} Until it is fixed, {meanwhile}."))
    st.button("Try again", on_click=retry, key=key)
    return True
