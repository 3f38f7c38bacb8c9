"""Texts that Markdown would turn into something else, and a reader of what `rag_core.text.markdown.plain` makes of them.

- `CASES`: one text per thing Streamlit 1.67's Markdown acts on (read in its frontend bundle,
  static/js/StreamlitMarkdown*.js: remark-gfm, remark-math, remark-directive, remark-emoji, its own plugins).
- `generated(n, seed)`: texts made of those pieces end to end, at random (a fixed seed).
- `shown(md)`: the text a reader sees in the Markdown that `plain` writes, read by the only grammar `plain` may
  write (backslash escapes, code spans, characters that start nothing); a ValueError for anything else.
- `rewritten(piece)`: what Streamlit's plugins would rewrite in a text node once parsed (their own regexes).

Left out on purpose: pytest (tests/test_plain_text.py and tests/test_e2e_markdown_escaper.py use this).
"""
from __future__ import annotations

import random
import re

CASES = [
    "a user@evil.example", "first.last+tag@mail.evil.example.", "@handle and name@", "&lt;ent&gt; &amp; &#64; &#x41;",
    "see http://127.0.0.1:9/x and www.evil.example, HTTPS://X.EXAMPLE/a|b.", "_www.evil.example", ":red[x] :blue-background[y]",
    "$x$ and $$y^2$$", "<b>b</b> <img src=x onerror=alert(1)> <!-- c -->", "**bold** *it* _it_ __b__ ~~struck~~ `code`",
    "[link](http://127.0.0.1:9/l) ![img](http://127.0.0.1:9/i.png) [ref]: http://127.0.0.1:9/r",
    ":smile: :+1: :100: :1234: 10:30:45", ":material/home: :material_home: :streamlit:", "a -> b <- c <-> d -- e >= f <= g ~= h",
    "# heading\n## two\nsetext\n===\nunder\n---", "- item\n+ item\n* item\n1. one\n2) two\n> quote", "| a | b |\n|---|---|\n| 1 | 2 |",
    "x[^1]\n\n[^1]: a footnote", "- [ ] task", "***\n---\n___", "a\\b \\* \\\\", "```\nfenced\n```\n~~~\nmore\n~~~",
    "    indented code", "line  \nbreak", "http://h/:material/x y", "10:30:45 :a:smile:", "x-> y", "`:smile:` ``a`b``",
]

_PIECES = ["user@evil.example", "@", "http://", "www.", ".", ":", "smile", "material/", "material_", "streamlit", "home",
           "->", "<-", "--", ">=", "~=", " ", " ", " ", "\n", "\t", "`", "``", "\\", "*", "_", "a", "b", "1", "10", "#", "-",
           "+", "=", "&lt;", "&", "#64;", ";", "$", "~", "|", "[", "]", "(", ")", "!", "<b>", "</b>", "é", "\u00a0", "100",
           "+1", "red[", "x", "1.", "^", ">", "<", "{", "}", "'", '"', ",", "?", "/", "%", "ß", "\u2028", "日本"]


def generated(n: int, seed: int) -> list[str]:
    """n texts of 1 to 40 pieces (addresses, codes, marks, spaces, letters...) end to end; the same for a seed."""
    rng = random.Random(seed)
    return ["".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 40))) for _ in range(n)]


_TOKEN = re.compile(r"(?P<fence>`+)(?P<code>.*?[^`].*?)(?<!`)(?P=fence)(?!`)|\\(?P<escaped>[!-/:-@\[-`{-~])|(?P<char>.)",
                    re.S)
_ACTS = re.compile(r"[\\`*\[\]<>&$|~:!]")
_LINE_MARK = re.compile(r"(?:^|[\r\n])\s*(?:[-+=#>]|\d+[.)])")     # \s: Streamlit strips the text


def shown(md: str, cell: bool = False) -> tuple[str, list[str]]:
    """(the text shown, the text nodes between code spans) of Markdown made by plain: escapes undone, code spans
    read (in a table cell, GitHub reads '\\|' in code as '|'); ValueError for a character that could start
    Markdown, or a line starting a block."""
    text, nodes, node = [], [], []
    for m in _TOKEN.finditer(md):
        if m["code"] is not None:
            code = m["code"]
            code = code[1:-1] if code[:1] == code[-1:] == " " and code.strip() else code
            code = code.replace("\\|", "|") if cell else code
            text.append(code)
            nodes.append("".join(node))
            node = []
            continue
        if m["char"] is not None and (_ACTS.match(m["char"]) or m["char"] == "_" and not _inside_word(md, m.start())):
            raise ValueError(f"unescaped {m['char']!r} at {m.start()} in {md!r}")
        c = m["escaped"] if m["escaped"] is not None else m["char"]
        text.append(c)
        node.append(c)
    nodes.append("".join(node))
    if _LINE_MARK.search(md) or ":material/" in md:
        raise ValueError(f"a block's mark at a line's start, or ':material/', in {md!r}")
    return "".join(text), nodes


def _inside_word(md: str, i: int) -> bool:
    return 0 < i < len(md) - 1 and md[i - 1].isalnum() and md[i + 1].isalnum()


# Streamlit's rewrites of a text node, as its bundle writes them (mdast-util-gfm-autolink-literal, remark-emoji with
# the names that have no letter, Streamlit's icons, logo and typographic symbols); the lookbehinds of the link rules
# are left out (a stricter check)
_REWRITES = [re.compile(r"(?i)https?://|www\."), re.compile(r"(?a)[-.\w+]+@[-\w]+(?:\.[-\w]+)+"),
             re.compile(r"(?a):(?:[+-]1|100|1234|[\w-]*[A-Za-z_][\w-]*):"),
             re.compile(r"(?:^|[\s\ufeff])(?:<->|->|<-|--|>=|<=|~=)(?:[\s\ufeff]|$)")]


def rewritten(node: str) -> list[str]:
    """What Streamlit would rewrite in this text node: [] when nothing."""
    return [m.group() for r in _REWRITES for m in r.finditer(node)]
