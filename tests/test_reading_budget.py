"""Reading within a budget of PDF pages and seconds, per file and per upload: a hostile zip of long PDFs costs
a bounded time, the file that ran out is named, the pages read before are kept (and said to be partial), and a
caller that raises from on_progress stops the reading with nothing half-made returned.

The hostile inputs are generated (tests/hostile_zips.py, make_pdf: one text line a page; pypdf's blank pages),
never shipped.
"""
import io
import itertools

import pytest
from pypdf import PdfReader, PdfWriter

from rag_core.data.budget import Budget
from rag_core.data.ingest import Limits, read_files
from rag_core.data.pdf import pdf_text
from hostile_zips import hostile_zip, long_pdf
from pdf_bytes import pdf_of


def test_a_zip_of_long_pdfs_is_read_within_its_budget_and_says_where_it_stopped():
    limits = Limits(max_pdf_pages=150, max_pages=600)
    got = read_files([("hostile.zip", hostile_zip(10, 1000))], limits)
    assert [d.id for d in got.documents] == ["long0.pdf", "long1.pdf", "long2.pdf", "long3.pdf"]
    for doc in got.documents:                                 # the first 150 pages of each, in order, and no more
        assert doc.text.startswith("Page 1 of") and doc.text.endswith("Page 150 of the long report.")
        assert "Page 151 " not in doc.text
    cut = [p for p in got.all_problems if "only its first 150 pages were read" in p]
    assert [p.split(":")[0] for p in cut] == [f"long{i}.pdf (in hostile.zip)" for i in range(4)]
    assert all("max_pdf_pages limit of 150 pages for one file" in p and "text is kept" in p for p in cut)
    assert got.all_problems[-1].startswith("Stopped after long3.pdf (in hostile.zip): the max_pages limit of 600 PDF "
                                           "pages for everything read at once was reached")


def test_a_pdf_of_exactly_the_budget_is_whole():
    text, problem = pdf_text(long_pdf(3), "three.pdf", Budget(Limits(max_pdf_pages=3)))
    assert problem is None and text.count("Page ") == 3


def test_blank_pages_past_the_budget_are_skipped_with_the_reason():
    writer = PdfWriter()
    for _ in range(300):
        writer.add_blank_page(72, 72)
    buffer = io.BytesIO()
    writer.write(buffer)
    got = read_files([("blank.pdf", buffer.getvalue()), ("after.txt", b"Still read.")], Limits(max_pdf_pages=40))
    assert [d.id for d in got.documents] == ["after.txt"]
    assert got.problems[0] == ("blank.pdf: no text in its first 40 pages, and reading stopped there (the max_pdf_pages "
                               "limit of 40 pages for one file); skipped.")


def test_seconds_per_file_count_on_the_budgets_clock():
    ticks = itertools.count()                                  # one second a look at the clock: no real waiting
    text, problem = pdf_text(long_pdf(100), "slow.pdf", Budget(Limits(max_file_seconds=10), clock=lambda: next(ticks)))
    assert 0 < text.count("Page ") < 10
    assert "slow.pdf: only its first" in problem and "the max_file_seconds limit of 10 s for one file" in problem


def test_seconds_per_upload_stop_the_reading_after_the_file_that_spent_them():
    got = read_files([("a.txt", b"First."), ("b.txt", b"Second.")], Limits(max_seconds=1e-9))
    assert [d.id for d in got.documents] == ["a.txt"]
    assert got.problems[-1].startswith("Stopped after a.txt: the max_seconds limit of 1e-09 s for everything read at "
                                       "once was reached, so any files after it were not read.")


def nested_pdf() -> bytes:
    """Two /Pages nodes under the root, each holding the font resources its pages inherit (none on the pages)."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [4 0 R 5 0 R] /Count 3 /MediaBox [0 0 612 792] >>",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
               b"<< /Type /Pages /Parent 2 0 R /Kids [6 0 R 7 0 R] /Count 2 /Resources << /Font << /F1 3 0 R >> >> >>",
               b"<< /Type /Pages /Parent 2 0 R /Kids [8 0 R] /Count 1 /Resources << /Font << /F1 3 0 R >> >> >>"]
    for number, (parent, text) in enumerate([(4, "Alpha one."), (4, "Beta two."), (5, "Gamma three.")]):
        objects.append(f"<< /Type /Page /Parent {parent} 0 R /Contents {9 + number} 0 R >>".encode())
    for text in ("Alpha one.", "Beta two.", "Gamma three."):
        stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    return pdf_of(objects)


def test_pages_read_one_at_a_time_inherit_from_the_page_tree_as_pypdfs_do():
    data = nested_pdf()
    theirs = "\n\n".join(p.extract_text().strip() for p in PdfReader(io.BytesIO(data)).pages)
    text, problem = pdf_text(data, "nested.pdf")
    assert problem is None and text == theirs == "Alpha one.\n\nBeta two.\n\nGamma three."


class Cancelled(Exception):
    pass


def test_what_on_progress_raises_stops_the_reading_and_nothing_is_returned():
    seen = []

    def cancel_at_the_second_file(label, pages, in_all):
        seen.append((label, in_all))
        if label.startswith("long1.pdf"):
            raise Cancelled

    with pytest.raises(Cancelled):
        read_files([("hostile.zip", hostile_zip(3, 50))], on_progress=cancel_at_the_second_file)
    assert seen[0] == ("long0.pdf (in hostile.zip)", 0) and seen[-1] == ("long1.pdf (in hostile.zip)", 50)


def test_budgets_from_the_environment():
    limits = Limits.from_env({"OPENBOOK_MAX_PDF_PAGES": "50", "OPENBOOK_MAX_PAGES": "400",
                              "OPENBOOK_MAX_FILE_SECONDS": "2.5", "OPENBOOK_MAX_SECONDS": "30"})
    assert (limits.max_pdf_pages, limits.max_pages, limits.max_file_seconds, limits.max_seconds) == (50, 400, 2.5, 30)
    assert Limits() == Limits(max_pdf_pages=2000, max_pages=20_000, max_file_seconds=60, max_seconds=180)
    with pytest.raises(ValueError, match=r"OPENBOOK_MAX_PDF_PAGES='0.5' is below the smallest allowed, 1 \(one page\)"):
        Limits.from_env({"OPENBOOK_MAX_PDF_PAGES": "0.5"})
    with pytest.raises(ValueError, match=r"OPENBOOK_MAX_SECONDS='soon' is not a number: set it to a number of seconds"):
        Limits.from_env({"OPENBOOK_MAX_SECONDS": "soon"})
