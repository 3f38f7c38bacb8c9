"""A large corpus of real, varied text found on this machine, for scale tests and benchmarks.

    docs = real_documents(min_words=2_000_000)     # Documents, deterministic for a given machine
    Corpus(tuple(docs), name="machine text")

Three sources, read in a fixed order (sorted paths), without importing anything:
    docs   the documentation text files that Debian packages install under /usr/share/doc (README, NEWS,
           changelogs, copyright files; .gz read as text); byte-identical files are kept once
    code   the docstrings of the installed Python modules (the standard library and site-packages), read
           from their sources as their triple-quoted strings (nearly all docstrings; parsing every file
           with `ast` costs 20 times more): a module's, in order, make one document
    man    the English manual pages under /usr/share/man/man[1-8], troff requests and escapes stripped
Each document gets a status from its path's hash: 80 % "current", 10 % "draft", 10 % "outdated", so that
a status filter has something to leave out. A document is cut at 20,000 words (a few changelogs are huge).

Left out on purpose: HTML and binary files, languages other than what these files hold, any download.
"""
from __future__ import annotations

import gzip
import hashlib
import inspect
import re
import sys
import sysconfig
from pathlib import Path
from typing import Iterator

from rag_core.data.corpus import Document

DOC_ROOT = Path("/usr/share/doc")
DEBIAN_PYTHON = Path("/usr/lib/python3/dist-packages")
MAN_ROOT = Path("/usr/share/man")
TEXT_SUFFIXES = {".txt", ".md", ".rst", ".gz", ""}
MAX_WORDS = 20_000
TRIPLE = re.compile(r'(?s)[rRuU]?("""|\'\'\')(.*?)\1')


def _status(key: str) -> str:
    h = hashlib.sha256(key.encode()).digest()[0]
    return "current" if h < 205 else ("draft" if h < 230 else "outdated")


def _cut(text: str) -> str:
    w = text.split(None, MAX_WORDS)
    return text if len(w) <= MAX_WORDS else " ".join(w[:MAX_WORDS])


def doc_files() -> Iterator[tuple[str, str]]:
    """(id, text) of each distinct text file under /usr/share/doc, in path order."""
    seen = set()
    for path in sorted(DOC_ROOT.rglob("*")) if DOC_ROOT.is_dir() else ():
        if not path.is_file() or path.is_symlink() or path.suffix not in TEXT_SUFFIXES:
            continue
        try:
            raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        except (OSError, EOFError, gzip.BadGzipFile):
            continue
        digest = hashlib.sha256(raw).digest()
        if digest in seen or b"\0" in raw[:4096]:
            continue
        seen.add(digest)
        text = raw.decode("utf-8", "replace")
        if len(text.split()) >= 20:
            yield str(path.relative_to(DOC_ROOT)), _cut(text)


def module_docstrings() -> Iterator[tuple[str, str]]:
    """(id, text) of each Python source file with docstrings: stdlib, site-packages, then Debian's Python
    packages, in path order; a text already given (the same module installed twice) is kept once."""
    roots = [Path(sysconfig.get_paths()["stdlib"]), Path(sysconfig.get_paths()["purelib"]), DEBIAN_PYTHON]
    seen = set()
    for root in roots:
        for path in sorted(root.rglob("*.py")) if root.is_dir() else ():
            if "test" in path.parts or "tests" in path.parts:
                continue
            try:
                source = path.read_text("utf-8", "replace")
            except OSError:
                continue
            text = "\n\n".join(inspect.cleandoc(m.group(2)) for m in TRIPLE.finditer(source))
            digest = hashlib.sha256(text.encode("utf-8", "replace")).digest()
            if len(text.split()) >= 20 and digest not in seen:
                seen.add(digest)
                yield f"py:{path.relative_to(root.parent)}", _cut(text)


_TROFF_ESCAPE = re.compile(r"\\(f[BIRP]|f\(..|\(..|\*.|s[-+]?\d|[-&e|^%0 ,/c])")


def man_pages() -> Iterator[tuple[str, str]]:
    """(id, text) of each English manual page, troff requests kept as their words ('.SH NAME' -> 'NAME')."""
    for path in sorted(MAN_ROOT.glob("man[1-8]/*.gz")) if MAN_ROOT.is_dir() else ():
        if path.is_symlink():
            continue
        try:
            raw = gzip.decompress(path.read_bytes()).decode("utf-8", "replace")
        except (OSError, EOFError, gzip.BadGzipFile):
            continue
        lines = []
        for line in raw.splitlines():
            if line.startswith(('.\\"', "'\\\"", '.so ')):
                continue                                     # comments, includes
            if line.startswith((".", "'")):
                line = (line.split(None, 1) + [""])[1]
            lines.append(_TROFF_ESCAPE.sub(lambda m: "-" if m.group(1) == "-" else " ", line).replace('"', ""))
        text = "\n".join(lines)
        if len(text.split()) >= 20:
            yield f"man:{path.parent.name}/{path.name[:-3]}", _cut(text)


SOURCES = {"docs": doc_files, "code": module_docstrings, "man": man_pages}


def real_documents(min_words: int, sources=("docs", "code", "man")) -> list[Document]:
    """Documents from the sources, alternating between them, until they hold at least min_words words
    (or the machine has no more). Deterministic for a given machine."""
    streams = [iter(SOURCES[s]()) for s in sources]
    docs, words = [], 0
    while streams and words < min_words:
        for s in list(streams):
            item = next(s, None)
            if item is None:
                streams.remove(s)
                continue
            doc_id, text = item
            docs.append(Document(doc_id, text, _status(doc_id)))
            words += len(text.split())
    return docs


if __name__ == "__main__":
    d = real_documents(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
    print(len(d), "documents,", sum(len(x.text.split()) for x in d), "words")


def cut_questions(documents, index, n: int, seed: int = 0) -> list[str]:
    """n questions of 2-6 consecutive words cut from random documents (numpy seed), each one `index` can search
    (a piece of only stopwords or symbols is no question): the same sequence for a given seed and corpus."""
    import numpy as np
    rng, out = np.random.default_rng(seed), []
    while len(out) < n:
        toks = documents[rng.integers(len(documents))].text.split()
        at, m = int(rng.integers(max(1, len(toks) - 6))), int(rng.integers(2, 7))
        q = " ".join(toks[at:at + m])
        try:
            index.search(q, 1)
            out.append(q)
        except ValueError:
            continue
    return out
