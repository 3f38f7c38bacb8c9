"""A PDF's text layer, pages joined with blank lines, via pypdf; every failure is a sentence, never an exception.

Pages are read one at a time from the page tree (`pages`), within a `budget.Budget`: a PDF of 60,000 blank pages
gives its first max_pdf_pages pages and a sentence saying where it stopped and why, instead of 30 s spent before
its first page (pypdf's `reader.pages` builds the list of every page first) and minutes in all.
pypdf's own warnings ("invalid pdf header", "EOF marker not found") go to its logger, which gets a NullHandler: they
reach an application that configures logging, never stderr beside our one-line problem.

Left out on purpose: OCR (an image-only PDF is reported and skipped) and password-protected PDFs.
"""
from __future__ import annotations

import io
import logging
from typing import Iterator

from rag_core.data.budget import Budget
from rag_core.data.limits import Limits

logging.getLogger("pypdf").addHandler(logging.NullHandler())

_INHERITED = ("/Resources", "/MediaBox", "/CropBox", "/Rotate")   # what a page takes from its ancestors
_MAX_DEPTH = 100                                                  # page-tree levels followed (a loop stops here)


def pdf_text(data: bytes, label: str, budget: Budget | None = None) -> tuple[str | None, str | None]:
    """(text, problem): the PDF's text layer, pages joined with blank lines; text None when there is none.

    With the budget spent before the last page, the pages read are kept and the problem says where reading stopped.
    What the budget's on_progress raises is passed on (a page stops the reading so): it is called outside the
    `try` that turns pypdf's errors into a sentence.
    """
    try:
        from pypdf import PdfReader
    except ImportError:
        return None, f"{label}: reading PDFs needs the pypdf package (pip install pypdf); skipped."
    budget = budget or Budget(Limits())
    budget.start(label)
    pages, stopped = [], None
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            return None, f"{label} is password-protected; skipped. Save an unprotected copy and upload that."
        walk = _pages(reader)
        page = next(walk, None)
    except Exception as e:   # pypdf raises many kinds of error on damaged files; none may escape
        return None, _failure(label, e)
    while page is not None:
        stopped = budget.room()
        if stopped:
            break
        try:
            pages.append((page.extract_text() or "").strip())
            page = next(walk, None)
        except Exception as e:
            return None, _failure(label, e)
        budget.page()
    text = "\n\n".join(p for p in pages if p)
    if stopped:
        read = f"{len(pages):,} page{'s' if len(pages) != 1 else ''}"
        if not text.split():
            return None, f"{label}: no text in its first {read}, and reading stopped there ({stopped}); skipped."
        return text, (f"{label}: only its first {read} were read ({stopped}); their text is kept, the rest of the "
                      "file is not. Raise the limit (see the README's OPENBOOK_MAX_* settings) to read it all.")
    if not text.split():
        return None, f"{label} has no extractable text (an image-only PDF?); skipped. OCR is not done here."
    return text, None


def _failure(label: str, e: Exception) -> str:
    from pypdf import errors
    if isinstance(e, errors.DependencyError):   # e.g. AES encryption without the optional `cryptography` package
        return f"{label} cannot be read here ({e}); skipped. Save an unprotected copy and upload that."
    return f"{label} could not be read as a PDF (it looks damaged: {type(e).__name__}: {e}); skipped."


def _pages(reader) -> Iterator:
    """The pages in order, each made when it is reached, with what it inherits from the page tree (as pypdf does)."""
    from pypdf import PageObject
    from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, NameObject

    root = reader.trailer["/Root"].get_object()["/Pages"].get_object()
    stack = [(iter(_kids(root, ArrayObject)), _inherit({}, root), {id(root)})]   # (kids left, inherited, path)
    while stack:
        kids, inherited, path = stack[-1]
        kid = next(kids, None)
        if kid is None:
            stack.pop()
            continue
        node = kid.get_object()
        if not isinstance(node, DictionaryObject) or not node or id(node) in path:
            continue                      # damaged entries and loops are left out, as pypdf leaves them
        if "/Kids" in node and node.get("/Type") != "/Page":
            if len(stack) < _MAX_DEPTH:
                stack.append((iter(_kids(node, ArrayObject)), _inherit(inherited, node), path | {id(node)}))
            continue
        page = PageObject(reader, kid if isinstance(kid, IndirectObject) else None)
        page.update(node)
        for name, value in inherited.items():
            if name not in page:
                page[NameObject(name)] = value
        yield page


def _kids(node, array_type) -> list:
    kids = node.get("/Kids")
    kids = kids.get_object() if kids is not None else None
    return list(kids) if isinstance(kids, array_type) else []


def _inherit(inherited: dict, node) -> dict:
    return {**inherited, **{name: node[name] for name in _INHERITED if name in node}}
