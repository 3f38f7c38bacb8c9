"""Zips built to hurt a reader, for the reading tests and the browser tests that upload them: members named with
65,000 characters (`long_zip`), and PDFs of thousands of pages (`hostile_zip`, `long_pdf`). Generated, never shipped.

Left out on purpose: what a reader must make of them (the tests say it).
"""
import io
import zipfile

from pdf_bytes import make_pdf

LONG = "a" * 65_000         # a name no message may repeat whole


def long_zip() -> bytes:
    """A zip of a 65,000-character document name, an unsupported kind, a 5,000-character extension and one good
    file."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr(LONG + ".txt", "The bisect module keeps a list in order.")      # an id over the 1,000 limit
        z.writestr("b" * 65_000 + ".bin", b"\x00\x01")                              # an unsupported kind
        z.writestr("c" * 60_000 + "." + "d" * 5_000, b"text")                        # a 5,000-character extension
        z.writestr("ok.txt", "Heaps keep the smallest item first.")
    return out.getvalue()


def long_pdf(n: int) -> bytes:
    """A PDF of n pages, one line each: "Page i of the long report."."""
    return make_pdf(*(f"Page {i} of the long report." for i in range(1, n + 1)))


def hostile_zip(files: int, pages: int) -> bytes:
    """A zip of `files` copies of a `pages`-page PDF."""
    one = long_pdf(pages)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(files):
            zf.writestr(f"long{i}.pdf", one)
    return buffer.getvalue()
