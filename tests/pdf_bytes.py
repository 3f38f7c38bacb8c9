"""PDF files written by hand for the readers' tests: objects numbered from 1, with a correct cross-reference table.

Left out on purpose: compression, fonts beyond Helvetica, anything pypdf does not need to read a page's text.
"""


def pdf_of(objects: list[bytes]) -> bytes:
    """A PDF of these objects (object 1 the catalog), their offsets in the xref: [catalog, pages, ...] -> bytes."""
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    return out + f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()


def make_pdf(*pages: str) -> bytes:
    """A minimal valid PDF, one Helvetica text line per page, with a correct xref."""
    n = len(pages)
    page_ids = [4 + 2 * i for i in range(n)]
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in page_ids)}] /Count {n} >>".encode(),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    for page_id, text in zip(page_ids, pages):
        stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                       f"/Resources << /Font << /F1 3 0 R >> >> /Contents {page_id + 1} 0 R >>".encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    return pdf_of(objects)
