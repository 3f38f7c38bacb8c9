"""`plain`: user text made Markdown that shows it as written, in Streamlit and in the Markdown exports; the one
escaper of the pages and the exports.

Left out on purpose: HTML (the pages never write user text as HTML) and any Markdown other than Streamlit 1.67's and
GitHub's.
"""
from __future__ import annotations

import re

# Streamlit's Markdown (1.67: remark-gfm, remark-math, remark-directive, remark-emoji, KaTeX and its own plugins) acts
# on two kinds of things. What the parser reads (emphasis, links, images, HTML, entities, $math$, :red[...]
# directives, headings, lists, tables, footnotes) is undone by a backslash before its special character. But some
# plugins rewrite the TEXT once parsed, where the escapes are gone: an address or an e-mail becomes a link, :smile:
# an emoji, :material_x: and :streamlit: images, " -> " an arrow; and ":material/" is rewritten in the source. Those
# runs go in code spans, which no plugin rewrites (GitHub, for the Markdown exports, links the same runs).
_ACTIVE = re.compile(
    r"(?P<address>(?i:(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*+://|https?://|www\.)\S*+)"   # an address
    r"|(?<![-.+\w])[-.+\w]++@[-.\w]*+|@[-.\w]++"                          # an e-mail address, or half of one
    r"|(?a::(?=[0-9+-]*+[A-Za-z_])[\w+-]++:|:(?:[+-]1|100|1234):)")      # an emoji or icon code (10:30:45 is none)
_ARROW = re.compile(r"(?<![^\s\ufeff])(?:<->|->|<-|--|>=|<=|~=)(?![^\s\ufeff])")     # Streamlit's arrows, ≥, ≈...
_SPECIAL = re.compile(r"(?P<char>[\\`*\[\]<>&$|~:!]|(?<![^\W_])_|_(?![^\W_])|(?<=:material)/)"   # '_' but in a word
                      r"|(?<=[\r\n])(?P<lead>\s*+)(?P<mark>[-+=#]|[0-9]++[.)])")   # a block's mark at a line's start (after
                                                                       # any space: st.markdown strips the text)

_INDENT = re.compile(r"^(?: {4,}|[ ]{0,3}\t)[ \t]*", re.M)      # a line indented as code (CommonMark)


def plain(text, *, one_line: bool = False) -> str:
    """Markdown that shows `text` as the characters it holds, in Streamlit and in the Markdown exports: every
    special character escaped, and what a plugin would rewrite after parsing (addresses, e-mails, :codes:, arrows)
    as code. one_line: line breaks as spaces, and '|' escaped in code too, for a table cell or a heading.

        plain("a*b [x](y) &lt;")            -> "a\\*b \\[x\\](y) \\&lt;"
        plain("mail ann@x.org, see x.org")  -> "mail `ann@x.org`, see x.org"
        plain(":red[x] $y$ -> :smile:")     -> "\\:red\\[x\\] \\$y\\$ `->` `:smile:`"
    """
    text = str(text)
    if one_line:
        text = " ".join(text.splitlines())
    text = _INDENT.sub(lambda m: "\u00a0" * len(m.group().expandtabs(4)), text)  # no indented code block: the
                                                                                 # indent as no-break spaces
    runs = []                                        # [start, end] of each code span, touching runs as one
    for start, end in _code_runs(text):
        if runs and runs[-1][1] == start:
            runs[-1][1] = end
        else:
            runs.append([start, end])
    out, at = [], 0
    for start, end in runs:
        out += [_escape(text[at:start], at == 0 or text[at - 1] in "\r\n"), _code(text[start:end], one_line)]
        at = end
    return "".join(out + [_escape(text[at:], at == 0 or text[at - 1] in "\r\n")])


def _code_runs(text: str):
    """(start, end) of each run that goes in a code span, in order: the active runs, then the arrows left between
    them (each piece of text between two code spans is a text of its own to the plugins: its ends count as spaces)."""
    at = 0
    for m in [*_ACTIVE.finditer(text), None]:
        start = m.start() if m else len(text)
        yield from ((at + a.start(), at + a.end()) for a in _ARROW.finditer(text[at:start]))
        if m:
            at = m.end() - (len(m["address"]) - len(m["address"].rstrip(".,:;!?")) if m["address"] else 0)
            yield start, at                                      # an address without the full stop after it


def _escape(text: str, line_start: bool) -> str:
    def one(m):
        if m["char"]:
            return "\\" + m["char"]
        mark = m["mark"]
        return m["lead"] + (mark[:-1] + "\\" + mark[-1] if mark[-1] in ".)" else "\\" + mark)
    return _SPECIAL.sub(one, ("\n" if line_start else "\0") + text)[1:]     # "\0": not a line's start, not a letter


def _code(run: str, one_line: bool) -> str:
    """run as code spans: a fence longer than any backtick run in it; the '/' of ':material/' escaped between two
    spans (Streamlit rewrites it even in code)."""
    def span(s: str) -> str:
        s = s.replace("|", "\\|") if one_line else s
        fence = "`" * (max(map(len, re.findall(r"`+", s)), default=0) + 1)
        pad = " " if s[:1] == "`" or s[-1:] == "`" else ""
        return f"{fence}{pad}{s}{pad}{fence}" if s else ""
    parts = run.split(":material/")
    return "\\/".join(span(p) for p in [p + ":material" for p in parts[:-1]] + parts[-1:])
