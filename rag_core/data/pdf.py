"""A PDF's text layer, pages joined with blank lines, via pypdf; every failure is a sentence, never an exception.

pypdf's own warnings ("invalid pdf header", "EOF marker not found") go to its logger, which gets a NullHandler: they
reach an application that configures logging, never stderr beside our one-line problem.

Left out on purpose: OCR (an image-only PDF is reported and skipped) and password-protected PDFs.
"""
from __future__ import annotations

import io
import logging

logging.getLogger("pypdf").addHandler(logging.NullHandler())


def pdf_text(data: bytes, label: str) -> tuple[str | None, str | None]:
    """(text, problem): the PDF's text layer, pages joined with blank lines; text None when there is none."""
    try:
        from pypdf import PdfReader, errors
    except ImportError:
        return None, f"{label}: reading PDFs needs the pypdf package (pip install pypdf); skipped."
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            return None, f"{label} is password-protected; skipped. Save an unprotected copy and upload that."
        pages = [(page.extract_text() or "").strip() for page in reader.pages]
    except errors.DependencyError as e:   # e.g. AES encryption without the optional `cryptography` package
        return None, f"{label} cannot be read here ({e}); skipped. Save an unprotected copy and upload that."
    except Exception as e:   # pypdf raises many kinds of error on damaged files; none may escape
        return None, f"{label} could not be read as a PDF (it looks damaged: {type(e).__name__}: {e}); skipped."
    text = "\n\n".join(p for p in pages if p)
    if not text.split():
        return None, f"{label} has no extractable text (an image-only PDF?); skipped. OCR is not done here."
    return text, None
