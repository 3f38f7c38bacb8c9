"""Rendering helpers shared by the pages: status colours, marked-up text, the document viewer, the glossary.

Every user or corpus string that goes into HTML passes through html.escape first: a question such as
`<script>alert(1)</script>` is shown as those characters, never run. st.html also sanitizes.

Left out on purpose: computation (rag_core) and caching (ui.state).
"""
from __future__ import annotations

import html
import re

import streamlit as st

from rag_core.text import cached_words

STATUS_COLOURS = {"current": "green", "draft": "orange", "outdated": "red"}
OTHER_COLOURS = ("blue", "violet", "gray")
CSS = {"green": "#1b7f3b", "orange": "#b85c00", "red": "#b3261e", "blue": "#1f5fbf", "violet": "#6b3fa0", "gray": "#555"}

GLOSSARY = {
    "Chunk": "A piece of a document, cut by the chunker. The index stores chunks, not whole documents.",
    "Span": "A chunk handed to the model inside the prompt, numbered [S1], [S2], … so answers can cite it.",
    "Anchor": "The literal sentence of a document that contains a golden question's answer. A chunk counts as "
              "right only if it contains the whole anchor.",
    "Ceiling": "The share of golden questions whose anchor is inside the chunks handed to the model. "
               "No prompt and no bigger model can score above it.",
    "Filter": "A rule on the documents' status (current, draft, outdated) applied before ranking: excluded "
              "chunks never compete for a place.",
    "Rerank": "A second pass that re-reads each (question, chunk) pair and reorders the candidates. It can "
              "only move up what the candidates already contain.",
    "Verdict": "The citation checker's decision on an answer: anchored (every number and technical name is in "
               "the cited span), refused, or abstained (the answer says the spans do not contain it).",
}


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")


def plain(text: str) -> str:
    """User or corpus text made inert for st.markdown: every Markdown/Streamlit special character escaped.

    "a*b [x](y)" -> "a\\*b \\[x\\]\\(y\\)"
    """
    return _MD_SPECIAL.sub(r"\\\1", str(text))


def problems(rows) -> str:
    """Excluded golden questions as a Markdown list: question — reason (both escaped)."""
    return "\n".join(f"- {plain(p.question)} — {plain(p.reason)}" for p in rows)


def colour(status: str, statuses=()) -> str:
    if status in STATUS_COLOURS:
        return STATUS_COLOURS[status]
    others = [s for s in statuses if s not in STATUS_COLOURS]
    return OTHER_COLOURS[others.index(status) % len(OTHER_COLOURS)] if status in others else "gray"


def status_label(status: str) -> str:
    """'● current': a dot that `styled` colours inside tables."""
    return f"● {status}"


def styled(df, columns, statuses=()):
    """The DataFrame with every '● status …' cell of `columns` coloured by its status (a pandas Styler)."""
    def css(v):
        if isinstance(v, str) and v.startswith("● ") and len(v.split()) > 1:
            return f"color: {CSS[colour(v.split()[1], statuses)]}; font-weight: 600"
        return ""
    return df.style.map(css, subset=[c for c in columns if c in df.columns])


def badge(status: str, statuses=()) -> None:
    st.badge(status, color=colour(status, statuses))


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
        bg = "#f3d6a4" if len(members) > 1 else ("#dbe9f7" if members and members[0] % 2 == 0 else "#e4f3df")
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


def glossary_popover() -> None:
    with st.popover("Glossary", icon=":material/menu_book:", width="stretch"):
        for term, meaning in GLOSSARY.items():
            st.markdown(f"**{term}** — {meaning}")


def verdict_badge(verdict: str) -> None:
    colours = {"anchored": "green", "refused": "red", "abstained": "gray"}
    st.badge(verdict, color=colours.get(verdict, "gray"))
