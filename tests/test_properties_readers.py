"""Properties of the readers of user files (data.ingest and the modules it reads with, data.golden_csv): any bytes
under any supported name give documents or problems, never an exception.

    read_files   .txt, .md, .jsonl and .zip: a document has an id of its own, a status and some text; a file that
                 gives nothing is said in a problem
    zips         real archives of generated members, then cut short or with bytes changed
    golden CSV   rows with a question, a doc and an anchor, or problems that name the file
"""
import io
import warnings
import zipfile

from hypothesis import given, strategies as st

from rag_core.data.corpus import Document
from rag_core.data.golden_csv import read_golden_csv
from rag_core.data.ingest import Limits, read_files

SMALL = Limits(max_file_bytes=4000, max_total_bytes=12000, max_files=6)   # the limits are reached too

# pieces of text files, JSON lines and CSV rows, and bytes no text file holds
PIECES = (b"", b" ", b"\n", b"\r\n", b"\r", b"\t", b"\x00", b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf", b"\xe9",
          b"\xc3\xa9", b"\xed\xa0\x80", b"\x80", b"\x9d", "\u2028".encode(), b"text", b"The cutoff is 0.6.",
          b"{", b"}", b"[", b"]", b'"', b"\\", b"\\u", b"\\ud800", b"\\udc00", b":", b",", b'"id"', b'"text"',
          b'"status"', b'"a"', b"null", b"true", b"1", b"1e999", b"9" * 5000, b"[" * 3000, b"draft", b"current",
          b"question,doc,anchor", b"doc", b"anchor", b"'=1+1", b";", b'""', b"|", b"-", b"all",
          b'{"id": "a", "text": "t"}', b'{"id": 1, "text": "t", "status": "draft"}', b'{"id": "a|b", "text": "t"}')
NAMES = ("a.txt", "b.md", "c.jsonl", "d.zip", "E.TXT", "f.pdf", "g.csv", "", ".hidden.txt", "dir/h.md", "../up.txt",
         "a" * 300 + ".txt", "\u202e.txt", "nul\x00.txt")


def data_bytes(max_size: int = 30):
    joined = st.lists(st.one_of(st.sampled_from(PIECES), st.binary(max_size=4)), max_size=max_size).map(b"".join)
    return st.one_of(joined, st.binary(max_size=200))


def assert_documents_or_problems(result) -> None:
    assert result.documents or result.problems
    assert all(isinstance(p, str) and p for p in result.problems + result.all_problems)
    ids = [d.id for d in result.documents]
    assert len(ids) == len(set(ids))
    for d in result.documents:
        assert isinstance(d, Document) and d.text.strip() and d.id.strip() and d.status.strip()


@given(st.lists(st.tuples(st.sampled_from(NAMES[:7]), data_bytes()), min_size=1, max_size=4))
def test_any_bytes_give_documents_or_problems(files):
    assert_documents_or_problems(read_files(files))
    assert_documents_or_problems(read_files(files, SMALL))


@given(st.lists(st.tuples(st.sampled_from(NAMES), data_bytes(8)), max_size=5),
       st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]),
       st.one_of(st.none(), st.integers(0, 400)), st.lists(st.tuples(st.integers(0, 400), st.integers(0, 255)),
                                                             max_size=3))
def test_any_zip_gives_documents_or_problems(members, method, cut, changes):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as z, warnings.catch_warnings():
        warnings.simplefilter("ignore")                          # zipfile's "Duplicate name": written on purpose
        for name, content in members:
            z.writestr(zipfile.ZipInfo(name or "noname"), content)
    data = bytearray(buffer.getvalue())
    for at, value in changes:                                    # damaged ...
        if at < len(data):
            data[at] = value
    data = bytes(data if cut is None else data[:cut])            # ... or cut short
    assert_documents_or_problems(read_files([("d.zip", data)]))
    assert_documents_or_problems(read_files([("d.zip", data)], SMALL))


@given(data_bytes(40))
def test_any_csv_gives_rows_or_problems(data):
    for source in (data, data.decode("utf-8", "replace")):
        rows, problems = read_golden_csv(source, "g.csv")
        assert rows or problems
        assert all(r.question.strip() and r.doc.strip() and r.anchor.strip() for r in rows)
        assert all(isinstance(p, str) and p for p in problems)
