"""A document's outline as golden questions see it: its headings and its prose paragraphs, code left out.

    blocks("What is X?\\n----------\\n\\nX is a thing. It ...")
        -> [Block("heading", 1, ("What is X?",)), Block("paragraph", 4, ("X is a thing. It ...",))]

Headings: reST titles (a line with an underline of one repeated punctuation character, three or more, such as
`====`, `----`, `~~~`, optionally an overline) and Markdown's (`#` to `######`, and the setext `===`/`---` that
reST's rule covers). A paragraph is a run of non-blank lines that are not code; its lines keep their indentation.
Code is never a block: fenced blocks (``` and ~~~; in a file that is not Markdown, not a ~~~ right under a line of
text, which is a reST title's underline), doctest blocks (a paragraph that starts with `>>>`, its output to the
next blank line, as reST and docstrings write them), reST literal blocks (the indented lines after a `::`), directives
and comments (`.. name::`, `.. _target:`, `..`) with their indented bodies, and in Markdown files (`markdown=True`)
indented code blocks (four spaces after a blank line, outside a list).

`sentences` cuts a paragraph's text at each sentence end ('.', '!' or '?' followed by a space and no lowercase
letter: "e.g. this" does not end one).

Left out on purpose: HTML, tables (a paragraph that is a table's border or row is not prose: `prose`), reST's
quoted literal blocks, and lazy Markdown continuation lines inside block quotes. A heading is found at the
start of a line only (Markdown allows three spaces).
"""
from __future__ import annotations

import re
from typing import NamedTuple

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_ADORNMENT = re.compile(r"^([=\-~^\"'`#*+:._])\1{2,}[ \t]*$")       # ==== ---- ~~~~ ^^^^ ...
_DIRECTIVE = re.compile(r"^[ \t]*\.\.(?:[ \t]|$)")                     # .. note::  .. _label:  .. a comment
_DOCTEST = re.compile(r"^[ \t]*>>>(?:[ \t]|$)")                           # >>> print(x), its output to a blank line
BULLET = re.compile(r"^[ \t]*(?:[-*+\u2022]|\(?\d{1,3}[.)]|#\.)[ \t]+")   # - x, * x, 1. x, 2) x, (3) x, #. x
_NOT_PROSE = re.compile(r"^[ \t]*(?:[|+<]|:[\w -]+:(?:[ \t]|$))")       # table, HTML, reST field ':param x:'
PASSAGE_MIN_WORDS = 12     # a shorter paragraph is too thin to ask a model about (a caption, a one-line note)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[^\sa-z])")


class Block(NamedTuple):
    kind: str       # "heading" or "paragraph"
    line: int       # 1-based line of the document where it starts (a heading: its title's line)
    lines: tuple    # a heading: (its title,); a paragraph: its lines, indentation kept, line ends removed


def is_markdown(doc_id: str) -> bool:
    """Whether a document is read as Markdown, by its name: "notes.md" -> True, "faq.rst.txt" -> False."""
    return doc_id.lower().endswith((".md", ".markdown"))


def indent(line: str) -> int:
    """Columns of leading space, a tab counting as one: "   x" -> 3."""
    return len(line) - len(line.lstrip(" \t"))


def _fence_end(lines: list[str], i: int, fence: str) -> int:
    """The line after the fence that closes the one opened at line i (or the end of the text)."""
    for j in range(i + 1, len(lines)):
        m = _FENCE.match(lines[j])
        if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not lines[j][m.end():].strip():
            return j + 1
    return len(lines)


def _indented_end(lines: list[str], i: int, than: int) -> int:
    """The first line from i that is neither blank nor indented more than `than` columns."""
    while i < len(lines) and (not lines[i].strip() or indent(lines[i]) > than):
        i += 1
    return i


def code_lines(lines: list[str], markdown: bool = False) -> list[bool]:
    """For each line, whether it is code (or a directive): never read as a heading or prose.

    ["Use::", "", "    x?", "Back"] -> [False, False, True, False]
    """
    code, i, para_indent, in_list, after_blank = [False] * len(lines), 0, 0, False, True
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if fence and not markdown and not after_blank and _ADORNMENT.match(line):   # reST: a title's ~~~~ underline
            fence = None
        if fence or _DIRECTIVE.match(line):
            end = _fence_end(lines, i, fence.group(1)) if fence else _indented_end(lines, i + 1, indent(line))
        elif after_blank and _DOCTEST.match(line):
            end = next((j for j in range(i + 1, len(lines)) if not lines[j].strip()), len(lines))
        elif markdown and after_blank and indent(line) >= 4 and line.strip() and not in_list:
            end = _indented_end(lines, i, 3)
        else:
            end = None
        if end is not None:
            code[i:end] = [True] * (end - i)
            i, after_blank = end, True
            continue
        if not line.strip():
            i, after_blank = i + 1, True
            continue
        if after_blank:
            para_indent = indent(line)
            if indent(line) < 4:
                in_list = bool(BULLET.match(line)) or (in_list and indent(line) > 0)
        after_blank = False
        i += 1
        if line.rstrip().endswith("::"):                                   # reST: a literal block follows
            j = i
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j > i and j < len(lines) and indent(lines[j]) > para_indent:
                end = _indented_end(lines, j, para_indent)
                while end > j and not lines[end - 1].strip():
                    end -= 1
                code[j:end] = [True] * (end - j)
                i, after_blank = end, True
    return code


def _title(lines: list[str], code: list[bool], i: int) -> int:
    """How many lines the heading starting at line i takes (its overline, title, underline), or 0 for none."""
    line = lines[i]
    if code[i] or not line.strip():
        return 0
    if _ATX.match(line):
        return 1
    over = bool(_ADORNMENT.match(line))
    t = i + 1 if over else i                                         # the title's line
    if t + 1 >= len(lines) or code[t] or code[t + 1] or indent(lines[t]) > 3 or _ADORNMENT.match(lines[t]):
        return 0
    under = _ADORNMENT.match(lines[t + 1])
    if not under or not lines[t].strip() or (over and lines[i].strip() != lines[t + 1].strip()):
        return 0
    if not over and i > 0 and lines[i - 1].strip() and not code[i - 1]:   # a title starts a paragraph
        return 0
    return t + 2 - i


def blocks(text: str, markdown: bool = False) -> list[Block]:
    """The headings and paragraphs of a text, in order, code left out (see the module's docstring)."""
    lines = text.splitlines()
    code = code_lines(lines, markdown)
    found, para, start, i = [], [], 0, 0
    while i < len(lines):
        size = _title(lines, code, i)
        if size or code[i] or not lines[i].strip():
            if para:
                found.append(Block("paragraph", start + 1, tuple(para)))
                para = []
        if size:
            atx = _ATX.match(lines[i])
            title_at = i if atx or size == 2 else i + 1
            title = atx.group(1) if atx else lines[title_at].strip()
            found.append(Block("heading", title_at + 1, (title.strip(),)))
            i += size
            continue
        if not code[i] and lines[i].strip():
            start = i if not para else start
            para.append(lines[i])
        i += 1
    if para:
        found.append(Block("paragraph", start + 1, tuple(para)))
    return found


def prose(block: Block) -> str:
    """A paragraph's text on one line, a list item's marker left out; "" for a heading, a table, HTML or a field.

    Block("paragraph", 3, ("* First item", "  goes on.")) -> "First item goes on."
    """
    if block.kind != "paragraph" or _NOT_PROSE.match(block.lines[0]) or _ADORNMENT.match(block.lines[0]):
        return ""
    return " ".join(BULLET.sub("", block.lines[0]).split() + [w for line in block.lines[1:] for w in line.split()])


def sentences(text: str) -> list[str]:
    """A one-line text cut into sentences, each ending at '.', '!' or '?' before a space and no lowercase letter.

    "It is. So it goes." -> ["It is.", "So it goes."];  "Use e.g. this one. Next" -> ["Use e.g. this one.", "Next"]
    """
    return [s for s in _SENTENCE_END.split(" ".join(text.split())) if s]


def passages(text: str, markdown: bool = False, limit: int = 3, min_words: int = PASSAGE_MIN_WORDS,
             max_words: int = 150) -> list[str]:
    """The first `limit` prose paragraphs of a text with at least `min_words` words, each cut after its last
    sentence that ends within `max_words` words (a first sentence longer than that is kept whole): what a model is
    asked to write questions for. Each is literal in the text, whitespace aside (a list item, whose marker `prose`
    leaves out, is skipped).

    "Title\\n=====\\n\\nShort.\\n\\nOne two three four. Five six." , min_words=4 -> ["One two three four. Five six."]
    """
    found = []
    for block in blocks(text, markdown):
        said = prose(block)
        if len(said.split()) < min_words or said != " ".join(" ".join(block.lines).split()):
            continue
        kept = []
        for s in sentences(said):
            if kept and len(" ".join(kept + [s]).split()) > max_words:
                break
            kept.append(s)
        found.append(" ".join(kept))
        if len(found) == limit:
            break
    return found
