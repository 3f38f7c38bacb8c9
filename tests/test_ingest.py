"""Bring-your-own-data ingestion: every input file is made here, in memory or under tmp_path.

Each bad input gets its own test, asserting the plain-language message AND that the valid file
uploaded next to it is still kept.
"""
import io
import json
import random
import stat
import struct
import zipfile
from pathlib import Path

import pytest

from pypdf import PdfWriter

from pdf_bytes import make_pdf

from rag_core.data.corpus import Corpus, Document
from rag_core.data.golden import GoldenRow
from rag_core.data.golden_csv import golden_to_csv, read_golden_csv, read_golden_path
from rag_core.data.ingest import IngestResult, Limits, documents_to_jsonl, read_files, read_path

GOOD = ("good.txt", b"A valid note that must survive its neighbours.")


# ---------------------------------------------------------------- helpers that make the inputs



def blank_pdf() -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(width=612, height=792)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def make_zip(members: dict, compression=zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def ids(result: IngestResult) -> list[str]:
    return [d.id for d in result.documents]


def problems_about(result: IngestResult, word: str) -> list[str]:
    return [p for p in result.problems if word in p]


def assert_good_kept(result: IngestResult, doc_id: str = "good.txt"):
    assert doc_id in ids(result), result.problems
    assert result.documents[ids(result).index(doc_id)].text == GOOD[1].decode()


# ---------------------------------------------------------------- happy paths

def test_txt_and_md_are_read_with_the_default_status():
    result = read_files([("a.txt", b"Plain text.\n"), ("README.MD", "# Title\n\nCaf\u00e9 ok.".encode())],
                        default_status="draft")
    assert result.problems == ()
    assert result.documents == (Document("a.txt", "Plain text.", "draft"),
                                Document("README.MD", "# Title\n\nCaf\u00e9 ok.", "draft"))
    Corpus(result.documents)   # what the rest of the workbench takes


def test_utf8_bom_is_stripped_silently():
    result = read_files([("bom.txt", "\ufeffhello".encode("utf-8"))])
    assert result.documents == (Document("bom.txt", "hello"),) and result.problems == ()


def test_pdf_with_text_joins_pages_with_a_blank_line():
    result = read_files([("paper.pdf", make_pdf("Hello page one", "Second page"))])
    assert result.problems == ()
    (doc,) = result.documents
    assert doc.id == "paper.pdf"
    assert "Hello page one" in doc.text and "Second page" in doc.text
    assert "\n\n" in doc.text


def test_jsonl_with_statuses():
    lines = [{"id": "n1", "text": "first", "status": "outdated"}, {"id": "n2", "text": "second"}]
    data = "\n".join(json.dumps(x) for x in lines) + "\n\n"
    result = read_files([("data.jsonl", data.encode())], default_status="current")
    assert result.problems == ()
    assert result.documents == (Document("n1", "first", "outdated"), Document("n2", "second", "current"))


def test_zip_of_mixed_files_uses_member_paths_and_ignores_junk():
    data = make_zip({"notes/a.txt": "alpha", "notes/b.md": "beta", "paper.pdf": make_pdf("Zipped PDF text"),
                     "rows.jsonl": json.dumps({"id": "r1", "text": "row one", "status": "draft"}),
                     "notes/": "", "__MACOSX/notes/._a.txt": "junk", ".DS_Store": "junk", "notes/.hidden.txt": "x"})
    result = read_files([("bundle.zip", data)])
    assert result.problems == ()
    assert ids(result) == ["notes/a.txt", "notes/b.md", "paper.pdf", "r1"]
    assert result.documents[3].status == "draft"
    assert "Zipped PDF text" in result.documents[2].text


def test_folder_via_read_path(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / ".git").mkdir()
    (tmp_path / "b.txt").write_text("bee")
    (tmp_path / "a.md").write_text("ay")
    (tmp_path / "sub" / "c.txt").write_text("sea")
    (tmp_path / ".git" / "config.txt").write_text("hidden")
    (tmp_path / "sub" / "pack.zip").write_bytes(make_zip({"in/z.txt": "zed"}))
    result = read_path(tmp_path, default_status="draft")
    assert result.problems == ()
    assert ids(result) == ["a.md", "b.txt", "sub/c.txt", "in/z.txt"]
    assert {d.status for d in result.documents} == {"draft"}


def test_single_file_and_zip_via_read_path(tmp_path):
    (tmp_path / "one.txt").write_text("just one")
    (tmp_path / "pack.zip").write_bytes(make_zip({"x.txt": "ex"}))
    assert read_path(tmp_path / "one.txt").documents == (Document("one.txt", "just one"),)
    assert ids(read_path(str(tmp_path / "pack.zip"))) == ["x.txt"]


def test_read_path_missing_says_how_to_fix(tmp_path):
    with pytest.raises(ValueError, match="Nothing found at .*check the spelling"):
        read_path(tmp_path / "nope")


def test_read_path_does_not_load_an_oversize_file_whole(tmp_path):
    (tmp_path / "big.txt").write_bytes(b"x" * 5000)
    (tmp_path / "good.txt").write_bytes(GOOD[1])
    result = read_path(tmp_path, Limits(max_file_bytes=1000))
    assert problems_about(result, "big.txt is over the 1 KB limit for one file")
    assert_good_kept(result)


# ---------------------------------------------------------------- bad inputs, one per test

@pytest.mark.parametrize("files", [[], [("empty.txt", b"")], [("a.txt", b""), ("b.pdf", b"")]])
def test_empty_upload(files):
    result = read_files(files)
    assert result.documents == ()
    assert any(p.startswith("No documents were uploaded") for p in result.problems)


def test_non_utf8_file_is_kept_with_cp1252_and_named():
    result = read_files([("notes/b.txt", "caf\u00e9 na\u00efve \u20ac5".encode("cp1252")), GOOD])
    assert result.documents[0] == Document("notes/b.txt", "caf\u00e9 na\u00efve \u20ac5")
    assert result.problems == ("notes/b.txt is not UTF-8; read it as cp1252 (Windows) instead — check accented letters.",)
    assert_good_kept(result)


def test_bytes_that_are_not_cp1252_fall_back_to_latin1():
    result = read_files([("odd.txt", b"abc \x81 d\xe9f"), GOOD])   # 0x81 is undefined in cp1252
    assert result.documents[0].text == "abc \x81 d\u00e9f"
    assert problems_about(result, "odd.txt is not UTF-8; read it as latin-1")
    assert_good_kept(result)


def test_image_only_pdf_is_skipped():
    result = read_files([("scan.pdf", blank_pdf()), GOOD])
    assert result.problems == ("scan.pdf has no extractable text (an image-only PDF?); skipped. OCR is not done here.",)
    assert ids(result) == ["good.txt"]


@pytest.mark.parametrize("data", [b"%PDF-1.4\nthis is not really a pdf\n", b"not a pdf at all", make_pdf("Hi")[:60]])
def test_corrupt_pdf_is_skipped(data):
    result = read_files([("broken.pdf", data), GOOD])
    (problem,) = result.problems
    assert problem.startswith("broken.pdf could not be read as a PDF (it looks damaged")
    assert ids(result) == ["good.txt"]


def test_password_protected_pdf_is_skipped():
    writer = PdfWriter(clone_from=io.BytesIO(make_pdf("Secret text")))
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="RC4-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    result = read_files([("locked.pdf", buffer.getvalue()), GOOD])
    assert result.problems == ("locked.pdf is password-protected; skipped. Save an unprotected copy and upload that.",)
    assert ids(result) == ["good.txt"]


@pytest.mark.parametrize("data", [bytes(range(256)) * 4, b"\x89PNG\r\n\x1a\n" + bytes([7, 8, 14, 15, 127]) * 50])
def test_binary_renamed_txt_is_skipped(data):
    result = read_files([("photo.txt", data), GOOD])
    (problem,) = result.problems
    assert problem.startswith("photo.txt looks like a binary file, not text")
    assert ids(result) == ["good.txt"]


def test_utf16_with_bom_is_text_not_binary():
    result = read_files([("win.txt", "\ufeffNotepad Unicode".encode("utf-16-le"))])
    assert result.documents == (Document("win.txt", "Notepad Unicode"),) and result.problems == ()


def test_unsupported_extension_lists_the_formats():
    result = read_files([("report.docx", b"PK..."), ("Makefile", b"all:"), GOOD])
    assert result.problems[0] == "report.docx: .docx files are not supported; skipped. Supported: .txt, .md, .pdf, .jsonl, .zip."
    assert result.problems[1].startswith("Makefile: files without an extension are not supported")
    assert_good_kept(result)


def test_whitespace_only_document_is_skipped():
    result = read_files([("blank.md", b"  \n\t \n"), GOOD])
    assert result.problems == ("blank.md has no text; skipped.",)
    assert_good_kept(result)


def test_zip_path_traversal_is_skipped_and_nothing_written(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    absolute_before = Path("/abs.txt").exists()
    data = make_zip({"../evil.txt": "evil", "/abs.txt": "abs", "C:/win.txt": "win", "a/../../up.txt": "up",
                     "good.txt": GOOD[1]})
    result = read_files([("upload.zip", data)])
    assert ids(result) == ["good.txt"]
    for name in ("../evil.txt", "/abs.txt", "C:/win.txt", "a/../../up.txt"):
        assert f"{name} (in upload.zip) has an unsafe path (it points outside the archive); skipped." in result.problems
    for folder in (work, tmp_path, tmp_path.parent, Path.cwd()):
        assert not (folder / "evil.txt").exists() and not (folder / "up.txt").exists()
    assert Path("/abs.txt").exists() == absolute_before
    assert list(work.iterdir()) == []


def test_zip_member_over_the_size_limit_is_skipped_before_reading():
    bomb = make_zip({"zeros.txt": b"\0" * 5_000_000, "good.txt": GOOD[1]})
    assert len(bomb) < 50_000
    result = read_files([("bomb.zip", bomb)], Limits(max_file_bytes=1_000_000))
    assert result.problems == ("zeros.txt (in bomb.zip) is over the 1 MB limit for one file; skipped. "
                               "Raise Limits(max_file_bytes=...) to read it.",)
    assert_good_kept(result)


def test_zip_member_with_a_huge_compression_ratio_is_a_bomb():
    bomb = make_zip({"repeat.txt": b"a" * 3_000_000, "good.txt": GOOD[1]})
    result = read_files([("bomb.zip", bomb)])   # default limits: 3 MB is under the size limit
    (problem,) = result.problems
    assert problem.startswith("repeat.txt (in bomb.zip) expands") and "looks like a zip bomb" in problem
    assert "max_zip_ratio limit of 100" in problem
    assert_good_kept(result)
    relaxed = read_files([("bomb.zip", bomb)], Limits(max_zip_ratio=10_000))
    assert "repeat.txt" in ids(relaxed)


def test_zip_member_whose_header_lies_about_its_size_is_not_read_past_it():
    data = bytearray(make_zip({"liar.txt": b"\0" * 5_000_000, "good.txt": GOOD[1]}))
    central = data.index(b"PK\x01\x02")                 # the first central-directory entry: liar.txt
    struct.pack_into("<I", data, central + 24, 10)      # claim 10 bytes uncompressed
    local = data.index(b"PK\x03\x04")
    struct.pack_into("<I", data, local + 22, 10)
    result = read_files([("liar.zip", bytes(data))])
    (problem,) = result.problems
    assert problem.startswith("liar.txt (in liar.zip) could not be unzipped")
    assert_good_kept(result)


def test_over_size_file_is_skipped():
    result = read_files([("big.txt", b"word " * 300), GOOD], Limits(max_file_bytes=1000))
    assert result.problems == ("big.txt is over the 1 KB limit for one file; skipped. "
                               "Raise Limits(max_file_bytes=...) to read it.",)
    assert_good_kept(result)


def test_over_max_files_stops_and_keeps_what_was_read():
    files = [GOOD] + [(f"f{i}.txt", b"text") for i in range(5)]
    result = read_files(files, Limits(max_files=3))
    assert ids(result) == ["good.txt", "f0.txt", "f1.txt"]
    assert result.problems == ("Stopped after 3 files (the max_files limit): f2.txt and the files after it were "
                               "not read. Raise Limits(max_files=...) to read more.",)


def test_over_max_total_bytes_stops_and_keeps_what_was_read():
    files = [GOOD, ("a.txt", b"a" * 400), ("b.txt", b"b" * 400), ("c.txt", b"c")]
    result = read_files(files, Limits(max_total_bytes=800))
    assert ids(result) == ["good.txt", "a.txt"]
    (problem,) = result.problems
    assert problem.startswith("Stopped at b.txt: it would take the total past the 800 bytes limit (max_total_bytes)")


def test_limits_must_be_positive():
    assert Limits() == Limits(20_000_000, 100_000_000, 2000, 100)
    for bad in ({"max_file_bytes": 0}, {"max_total_bytes": -1}, {"max_files": 1.5}, {"max_zip_ratio": 0}):
        with pytest.raises(ValueError, match="must be a positive"):
            Limits(**bad)


def test_limits_from_the_environment():
    env = {"OPENBOOK_MAX_FILE_MB": "0.5", "OPENBOOK_MAX_TOTAL_MB": "2", "OPENBOOK_MAX_FILES": "7",
           "OPENBOOK_MAX_ZIP_RATIO": "12.5"}
    assert Limits.from_env(env) == Limits(500_000, 2_000_000, 7, 12.5)
    assert Limits.from_env({"OPENBOOK_MAX_FILES": ""}) == Limits()


@pytest.mark.parametrize("value, message", [("lots", "is not a number: set it to a number of megabytes, e.g. 20"),
                                            ("inf", "must be a number above 0"), ("nan", "must be a number above 0"),
                                            ("-3", "must be a number above 0"), ("0", "must be a number above 0")])
def test_limits_from_a_bad_environment_name_the_variable(value, message):
    with pytest.raises(ValueError, match=f"OPENBOOK_MAX_FILE_MB='{value}' {message}"):
        Limits.from_env({"OPENBOOK_MAX_FILE_MB": value})


def test_duplicate_ids_are_renamed_and_reported():
    jsonl = json.dumps({"id": "a.txt", "text": "from jsonl"}).encode()
    result = read_files([("a.txt", b"first"), ("a.txt", b"second"), ("x.jsonl", jsonl)])
    assert ids(result) == ["a.txt", "a.txt (2)", "a.txt (3)"]
    assert [d.text for d in result.documents] == ["first", "second", "from jsonl"]
    assert result.problems == (
        "a.txt: the id 'a.txt' is already taken by an earlier document; kept it as 'a.txt (2)'.",
        "x.jsonl line 1: the id 'a.txt' is already taken by an earlier document; kept it as 'a.txt (3)'.")
    Corpus(result.documents)


def test_jsonl_bad_lines_are_reported_and_the_others_kept():
    lines = ['{"id": "ok1", "text": "one"}', "", '{"id": "bad", "text": ', '{"id": "nt"}', "[1, 2]",
             '{"text": "no id"}', '{"id": "s", "text": "bad status", "status": ""}', '{"id": "ok2", "text": "two"}']
    result = read_files([("data.jsonl", "\r\n".join(lines).encode()), GOOD])
    assert ids(result) == ["ok1", "s", "ok2", "good.txt"]
    assert result.problems[0].startswith("data.jsonl line 3: not valid JSON")
    assert result.problems[1:] == ("data.jsonl line 4: missing 'text'; skipped.",
                                   'data.jsonl line 5: not a JSON object (expected {"id": ..., "text": ...}); skipped.',
                                   "data.jsonl line 6: missing 'id'; skipped.",
                                   "data.jsonl line 7: 'status' must be a non-empty string; used 'current' instead.")


@pytest.mark.parametrize("line, problem", [
    ("[" * 5000 + "]" * 5000, "data.jsonl line 2: nested too deeply to read"),                  # RecursionError
    ('{"id": "n", "text": "x", "n": ' + "7" * 5000 + "}", "data.jsonl line 2: holds a number too long to read"),
    ('{"id": ' + "7" * 5000 + ', "text": "x"}', "data.jsonl line 2: holds a number too long to read"),
])
def test_jsonl_line_that_breaks_the_json_parser_costs_that_line_only(line, problem):
    data = "\n".join(['{"id": "ok1", "text": "one"}', line, '{"id": "ok2", "text": "two"}'])
    result = read_files([("data.jsonl", data.encode()), GOOD])
    assert ids(result) == ["ok1", "ok2", "good.txt"]
    (got,) = result.problems
    assert got.startswith(problem) and got.endswith("; skipped.")


def test_jsonl_lone_surrogates_are_replaced_and_reported():
    data = '{"id": "s\\ud800", "text": "bad \\udc00 char", "status": "dr\\ud83daft"}\n'.encode()
    result = read_files([("data.jsonl", data)])
    assert result.documents == (Document("s\ufffd", "bad \ufffd char", "dr\ufffdaft"),)
    assert result.problems == ("data.jsonl line 1: invalid characters (lone surrogates) were replaced with \ufffd.",)
    documents_to_jsonl(result.documents).encode("utf-8")       # the export, and any page showing it, can encode it


def test_jsonl_number_id_is_kept_as_text():
    result = read_files([("data.jsonl", b'{"id": 12, "text": "twelve"}')])
    assert result.documents == (Document("12", "twelve"),) and result.problems == ()


def test_nested_zip_and_corrupt_zip_are_reported():
    inner = make_zip({"deep.txt": "deep"})
    result = read_files([("outer.zip", make_zip({"inner.zip": inner, "good.txt": GOOD[1]})),
                         ("broken.zip", b"PK\x03\x04 not really")])
    assert_good_kept(result)
    assert problems_about(result, "inner.zip (in outer.zip) is a zip inside a zip")
    assert problems_about(result, "broken.zip is not a readable zip file")


def zip_with_symlink(link: str, target: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        info = zipfile.ZipInfo(link)
        info.external_attr = (stat.S_IFLNK | 0o777) << 16       # what `zip --symlinks` stores
        info.create_system = 3                                   # Unix
        zf.writestr(info, target)
        zf.writestr("good.txt", GOOD[1])
    return buffer.getvalue()


def test_zip_symlink_is_skipped_not_read_as_its_target():
    result = read_files([("links.zip", zip_with_symlink("passwd.txt", "/etc/passwd"))])
    assert result.problems == ("passwd.txt (in links.zip) is a symbolic link; skipped (links are not followed).",)
    assert ids(result) == ["good.txt"]


def test_folder_file_that_cannot_be_opened_costs_that_file_only(tmp_path):
    (tmp_path / "locked.txt").symlink_to(tmp_path / "gone.txt")     # a broken link: the OS refuses to open it
    (tmp_path / "good.txt").write_bytes(GOOD[1])
    result = read_path(tmp_path)
    assert result.problems == ("locked.txt could not be read (No such file or directory); skipped.",)
    assert_good_kept(result)


@pytest.mark.parametrize("files, message", [([("a.txt", "text, not bytes")], "a.txt: give its content as bytes"),
                                            (["a.txt"], "read_files takes (name, bytes) pairs"),
                                            ("a.txt", "read_files takes (name, bytes) pairs"),
                                            (None, "read_files takes (name, bytes) pairs")])
def test_read_files_called_wrongly_says_how_to_fix(files, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_files(files)


def mutations(data: bytes, rng: random.Random, n: int):
    """n damaged copies of data: bytes flipped, cut short, or a run of random bytes pasted in."""
    for _ in range(n):
        out = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            at = rng.randrange(len(out))
            out[at] = rng.randrange(256)
        if rng.random() < 0.3:
            out = out[:rng.randrange(1, len(out))]
        if rng.random() < 0.3:
            at = rng.randrange(len(out))
            out[at:at] = rng.randbytes(rng.randint(1, 64))
        yield bytes(out)


SEEDS = {".txt": "Plain text.\r\nWith CRLF and caf\u00e9.".encode(),
         ".md": b"\xef\xbb\xbf# Title\n\nBody.",
         ".jsonl": b'{"id": "a", "text": "one"}\n{"id": "b", "text": "two", "status": "draft"}\n',
         ".zip": make_zip({"a.txt": "alpha", "b.jsonl": '{"id": "b", "text": "beta"}', "c.md": "gamma " * 50}),
         ".pdf": make_pdf("Hello page one", "Second page")}


@pytest.mark.parametrize("kind", list(SEEDS))
def test_fuzz_damaged_files_cost_only_themselves(kind):
    rng = random.Random(f"open-book {kind}")
    files = [(f"f{i}{kind}", data) for i, data in enumerate(mutations(SEEDS[kind], rng, 40))]
    files += [(f"r{i}{kind}", rng.randbytes(rng.randint(1, 3000))) for i in range(20)]
    files += [(f"n{i}{kind}", b"\x00" * i + b"text") for i in range(3)]
    for name, data in files:
        result = read_files([(name, data), GOOD])
        assert_good_kept(result)
        assert all(isinstance(p, str) and p for p in result.problems)
        Corpus(result.documents)


def test_fuzz_golden_csv_never_raises():
    rng = random.Random("open-book golden")
    seed = golden_to_csv([GoldenRow('Has "quotes", commas?', "doc one", "line\nbreak"), GoldenRow("q", "d", "a")])
    inputs = list(mutations(seed.encode(), rng, 200)) + [rng.randbytes(rng.randint(1, 2000)) for _ in range(50)]
    inputs += [seed.replace("\n", "\r\n").encode(), b"\xff\xfe" + seed.encode("utf-16-le"), seed.encode() + b"\x00",
               b'question,doc,anchor\n"' + b"x" * 200_000 + b'",d,a\n']
    for data in inputs:
        rows, problems = read_golden_csv(data)
        assert all(isinstance(r, GoldenRow) for r in rows) and all(isinstance(p, str) for p in problems)


def test_documents_jsonl_round_trip():
    docs = (Document("a", "line one\nline two \u2028 \"quoted\" caf\u00e9", "draft"), Document("b/c.txt", "x", "current"))
    result = read_files([("export.jsonl", documents_to_jsonl(docs).encode())])
    assert result.documents == docs and result.problems == ()
    assert documents_to_jsonl(Corpus(docs)) == documents_to_jsonl(docs)


# ---------------------------------------------------------------- golden sets

def test_golden_csv_happy_path_with_quoted_commas_bom_and_crlf():
    data = ('\ufeff Question , DOC,Anchor\r\n'
            '"What does bisect do, exactly?",bisect,"insort, bisect_left"\r\n'
            'How to merge?,heapq,merge(\r\n').encode("utf-8")
    rows, problems = read_golden_csv(data)
    assert problems == []
    assert rows == [GoldenRow("What does bisect do, exactly?", "bisect", "insort, bisect_left"),
                    GoldenRow("How to merge?", "heapq", "merge(")]


def test_golden_csv_from_str_with_bom():
    rows, problems = read_golden_csv("\ufeffquestion,doc,anchor\nq,d,a\n")
    assert rows == [GoldenRow("q", "d", "a")] and problems == []


def test_golden_csv_missing_columns():
    rows, problems = read_golden_csv(b"question,document\nq,d\n", name="mine.csv")
    assert rows == []
    assert problems == ["mine.csv is missing the columns doc, anchor: its first line must be the header "
                        "'question,doc,anchor' (found 'question,document')."]


def test_golden_csv_semicolons_get_a_hint():
    rows, problems = read_golden_csv(b"question;doc;anchor\nq;d;a\n")
    assert rows == [] and "separated by semicolons" in problems[0]


def test_golden_csv_extra_columns_are_ignored_and_mentioned_once():
    rows, problems = read_golden_csv(b"id,question,doc,anchor,notes\n1,q1,d1,a1,n\n2,q2,d2,a2,n\n")
    assert rows == [GoldenRow("q1", "d1", "a1"), GoldenRow("q2", "d2", "a2")]
    assert problems == ["golden.csv: ignored the extra columns id, notes."]


def test_golden_csv_empty_field_is_reported_with_its_line():
    data = b'question,doc,anchor\r\nq1,d1,a1\r\n"multi\r\nline q",d2,\r\n\r\nq3,,a3\r\nq4,d4,a4\r\nq5,d5\r\n'
    rows, problems = read_golden_csv(data)
    assert rows == [GoldenRow("q1", "d1", "a1"), GoldenRow("q4", "d4", "a4")]
    assert problems == ["golden.csv line 3: empty anchor; row skipped.",
                        "golden.csv line 6: empty doc; row skipped.",
                        "golden.csv line 8: empty anchor; row skipped."]


def test_golden_csv_empty_and_header_only():
    assert read_golden_csv(b"")[1] == ["golden.csv is empty: its first line must be the header 'question,doc,anchor'."]
    rows, problems = read_golden_csv(b"question,doc,anchor\n")
    assert rows == [] and problems[0].startswith("golden.csv has a header but no rows")


def test_golden_csv_cp1252_is_read_and_reported():
    rows, problems = read_golden_csv("question,doc,anchor\ncaf\u00e9?,d,a\n".encode("cp1252"), name="g.csv")
    assert rows == [GoldenRow("caf\u00e9?", "d", "a")]
    assert problems == ["g.csv is not UTF-8; read it as cp1252 (Windows) instead — check accented letters."]


def test_golden_round_trip_and_path(tmp_path):
    rows = [GoldenRow('Has "quotes", commas?', "doc one", "line\nbreak"), GoldenRow("q", "d", "a")]
    text = golden_to_csv(rows)
    assert text.startswith("question,doc,anchor\n")
    assert read_golden_csv(text) == (rows, [])
    path = tmp_path / "set.csv"
    path.write_text(text, encoding="utf-8")
    assert read_golden_path(path) == (rows, [])
    with pytest.raises(ValueError, match="No golden-set file"):
        read_golden_path(tmp_path / "missing.csv")


def test_golden_csv_unclosed_quote_names_its_line_and_the_rows_after_it_are_kept():
    data = b'question,doc,anchor\nq1,d1,a1\n"unclosed question,d2,a2\nq3,d3,a3\nq4,d4,a4\n'
    rows, problems = read_golden_csv(data)
    assert rows == [GoldenRow("q1", "d1", "a1"), GoldenRow("q3", "d3", "a3"), GoldenRow("q4", "d4", "a4")]
    assert problems == ['golden.csv line 3: a quote (") opened on this line is never closed (the CSV reader ran on '
                        "to the end of the file); row skipped, reading resumed on line 4. Close the quote, and write "
                        'a quote inside a quoted field as two ("").']


def test_golden_csv_quote_closed_lines_later_with_text_after_it():
    data = b'question,doc,anchor\n"unclosed,d2,a2\nq3,d3,a3\n"q4" x,d4,a4\nq5,d5,a5\n'
    rows, problems = read_golden_csv(data)
    assert rows == [GoldenRow("q3", "d3", "a3"), GoldenRow("q4 x", "d4", "a4"), GoldenRow("q5", "d5", "a5")]
    (problem,) = problems
    assert problem.startswith('golden.csv line 2: a quote (") opened on this line is not closed on this line (the CSV '
                              "reader ran on to line 4 and stopped there); row skipped, reading resumed on line 3.")


def test_golden_csv_quote_that_swallows_rows_is_pointed_out():
    data = b'question,doc,anchor\n"q2,d2,a2\nq3,d3,a3\nq4",d4,a4\n'
    rows, problems = read_golden_csv(data)
    assert rows == [GoldenRow("q2,d2,a2\nq3,d3,a3\nq4", "d4", "a4")]
    assert problems == ["golden.csv line 2: this row runs on to line 4 inside quotes, over lines that look like rows "
                        "of their own; if a closing quote is missing on line 2, those rows were swallowed."]


def test_golden_csv_rereading_after_open_quotes_is_bounded(monkeypatch):
    from rag_core.data import golden_csv
    monkeypatch.setattr(golden_csv, "_REREAD", 0)         # only the fixed allowance of 100 lines read twice
    data = b'question,doc,anchor\n"q,d,a\n' + b"x,d,a\n" * 200
    rows, problems = read_golden_csv(data)
    assert rows == [] and problems[-1] == "golden.csv: stopped reading at line 3: too many quotes are left open. " \
                                          "Check the file's quotes."


@pytest.mark.parametrize("line", [b'"' + b"x" * 200_000 + b'",d,a', b'"q" x,' + b"x" * 200_000 + b",a"])
def test_golden_csv_field_over_the_csv_limit_costs_its_row(line):
    rows, problems = read_golden_csv(b"question,doc,anchor\n" + line + b"\nq2,d2,a2\n")
    assert rows == [GoldenRow("q2", "d2", "a2")]
    assert problems == ["golden.csv line 2: a field is over 131,072 characters; row skipped."]


@pytest.mark.parametrize("header, column", [("question,doc,anchor,doc", "doc"), ("Question,question,doc,anchor", "question")])
def test_golden_csv_duplicated_column_is_an_error(header, column):
    rows, problems = read_golden_csv(f"{header}\nq,d,a,x\n".encode(), name="g.csv")
    assert rows == []
    assert problems == [f"g.csv: the header names the column {column} twice: keep one, so that it is clear which "
                        f"holds the {column}."]


def test_golden_csv_over_the_file_limit_is_skipped():
    data = golden_to_csv([GoldenRow("q" * 100, "d", "a")] * 20).encode()
    rows, problems = read_golden_csv(data, "big.csv", Limits(max_file_bytes=1000))
    assert rows == []
    assert problems == ["big.csv is over the 1 KB limit for one file; skipped. Raise Limits(max_file_bytes=...) to read it."]


def test_golden_csv_with_nul_bytes_or_binary_is_refused_with_a_reason():
    rows, problems = read_golden_csv(b"question,doc,anchor\nq\x00,d,a\n")
    assert rows == [] and problems[0].startswith("golden.csv looks like a binary file, not text")


@pytest.mark.parametrize("data", [None, 42, ["question,doc,anchor"]])
def test_golden_csv_of_something_else_than_a_file_says_how_to_call_it(data):
    with pytest.raises(ValueError, match=r"read_golden_csv takes the file's bytes \(or its text\), not "):
        read_golden_csv(data)


def test_golden_functions_are_still_importable_from_ingest():
    from rag_core.data import golden_csv, ingest
    from rag_core.data.ingest import GOLDEN_HEADER, golden_to_csv as g, read_golden_csv as r, read_golden_path as p
    assert (GOLDEN_HEADER, g, r, p) == (golden_csv.GOLDEN_HEADER, golden_csv.golden_to_csv,
                                        golden_csv.read_golden_csv, golden_csv.read_golden_path)
    with pytest.raises(AttributeError):
        ingest.no_such_name


def test_ingest_does_not_import_streamlit():
    import subprocess
    import sys
    code = "import sys, rag_core.data.golden_csv, rag_core.data.ingest; assert 'streamlit' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[1])


# ---------------------------------------------------------------- issue 17: hard inputs

def test_many_bad_lines_of_one_kind_make_one_sentence_with_the_count_and_the_first_five():
    result = read_files([("data.jsonl", b"x\n" * 20_000 + b'{"id": "ok", "text": "kept"}\n'), GOOD])
    assert ids(result) == ["ok", "good.txt"]
    assert result.problems == ("data.jsonl line 1: not valid JSON (Expecting value); skipped. Same kind of problem "
                               "on 20,000 lines in all, the first 5: data.jsonl lines 1, 2, 3, 4, 5, …",)
    assert len(result.all_problems) == 20_000
    assert result.all_problems[-1] == "data.jsonl line 20000: not valid JSON (Expecting value); skipped."


def test_kinds_keep_their_order_and_a_kind_met_five_times_is_listed_in_full():
    lines = ["x"] * 6 + ['{"id": "a"}'] * 5 + ['{"id": "d", "text": "t"}'] * 3
    result = read_files([("data.jsonl", "\n".join(lines).encode())])
    grouped = result.problems[0]
    assert grouped.startswith("data.jsonl line 1: not valid JSON") and "on 6 lines in all" in grouped
    assert result.problems[1:6] == tuple(f"data.jsonl line {n}: missing 'text'; skipped." for n in range(7, 12))
    assert result.problems[6:] == ("data.jsonl line 13: the id 'd' is already taken by an earlier document; kept it "
                                   "as 'd (2)'.",
                                   "data.jsonl line 14: the id 'd' is already taken by an earlier document; kept it "
                                   "as 'd (3)'.")
    assert len(result.all_problems) == 6 + 5 + 2


def test_the_full_list_of_problems_is_capped_and_says_how_many_more():
    from rag_core.data.problems import MAX_LISTED, Problems
    p = Problems()
    for n in range(MAX_LISTED + 7):
        p.add(f"f line {n}: bad; skipped.", f"f line {n}", "lines")
    listing = p.listing()
    assert len(listing) == MAX_LISTED + 1
    assert listing[-1] == f"… and 7 more problems, not listed (the first {MAX_LISTED:,} are)."
    assert p.grouped() == (f"f line 0: bad; skipped. Same kind of problem on {MAX_LISTED + 7:,} lines in all, the "
                           "first 5: f lines 0, 1, 2, 3, 4, …",)


def test_many_files_of_one_kind_are_grouped_too():
    files = [(f"f{i}.docx", b"x") for i in range(8)] + [GOOD]
    result = read_files(files)
    assert_good_kept(result)
    (problem,) = result.problems
    assert problem.startswith("f0.docx: .docx files are not supported; skipped.")
    assert problem.endswith("Same kind of problem on 8 files in all, the first 5: f0.docx, f1.docx, f2.docx, f3.docx, "
                            "f4.docx, …")


def test_many_bad_golden_rows_of_one_kind_make_one_sentence():
    rows, problems = read_golden_csv(b"question,doc,anchor\n" + b"q,,\n" * 10_000 + b"q,d,a\n")
    assert rows == [GoldenRow("q", "d", "a")]
    assert problems == ["golden.csv line 2: empty doc, anchor; row skipped. Same kind of problem on 10,000 lines in "
                        "all, the first 5: golden.csv lines 2, 3, 4, 5, 6, …"]


@pytest.mark.parametrize("value, message", [
    ("0.0000001", "OPENBOOK_MAX_FILE_MB='0.0000001' is below the smallest allowed, 0.000001 (one byte): set it to a "
                  "number of megabytes, e.g. 20, or leave it unset for the default."),
    ("abc", "OPENBOOK_MAX_FILE_MB='abc' is not a number: set it to a number of megabytes, e.g. 20, or leave it unset "
            "for the default.")])
def test_limits_from_env_say_the_value_as_given_and_what_to_write(value, message):
    with pytest.raises(ValueError) as e:
        Limits.from_env({"OPENBOOK_MAX_FILE_MB": value})
    assert str(e.value) == message


def test_limits_from_env_under_one_file_says_the_smallest_allowed():
    with pytest.raises(ValueError, match=r"OPENBOOK_MAX_FILES='0.5' is below the smallest allowed, 1 \(one file\)"):
        Limits.from_env({"OPENBOOK_MAX_FILES": "0.5"})
    assert Limits.from_env({"OPENBOOK_MAX_FILE_MB": "0.000001"}).max_file_bytes == 1


@pytest.mark.parametrize("row, says", [
    ({"id": "a\u0000b", "text": "t"}, "the id 'a\\x00b' holds a control character ('\\x00' at position 2): remove it."),
    ({"id": "a", "text": "t", "status": "dr\u0000aft"}, "the status 'dr\\x00aft' holds a control character"),
    ({"id": "a", "text": "t", "status": "old\nnew"}, "the status 'old\\nnew' holds a control character"),
    ({"id": "a\u001b[2J", "text": "t"}, "the id 'a\\x1b[2J' holds a control character ('\\x1b' at position 2)"),
    ({"id": "a", "text": "t", "status": "a,b"}, "the status 'a,b' holds ',', which links and Compare's setups use to "
                                                "separate statuses: write it without | and , (e.g. 'a-b')."),
    ({"id": "a", "text": "t", "status": "x | y"}, "the status 'x | y' holds '|', which links"),
])
def test_jsonl_ids_and_statuses_that_break_links_or_postgres_cost_their_line_only(row, says):
    data = "\n".join([json.dumps(row), '{"id": "ok", "text": "kept", "status": "draft-2"}']).encode()
    result = read_files([("data.jsonl", data), GOOD])
    assert ids(result) == ["ok", "good.txt"]
    (problem,) = result.problems
    assert problem.startswith("data.jsonl line 1: skipped: " + says)


def test_zip_member_named_with_a_control_character_is_skipped_with_a_reason():
    result = read_files([("names.zip", make_zip({"bad\u0007name.txt": "text", "good.txt": GOOD[1]}))])
    assert_good_kept(result)
    (problem,) = result.problems
    assert problem.startswith("bad\u0007name.txt (in names.zip): skipped: the id 'bad\\x07name.txt' holds a control "
                              "character")


@pytest.mark.parametrize("doc_id, status, says", [("a\u0000", "current", "the id 'a\\x00' holds a control character"),
                                                   ("a", "x,y", "the status 'x,y' holds ','"),
                                                   ("a", "x\u0085", "the status 'x\\x85' holds a control character")])
def test_document_refuses_what_links_and_postgres_cannot_carry(doc_id, status, says):
    with pytest.raises(ValueError) as e:
        Document(doc_id, "some text", status)
    assert str(e.value).startswith(f"Document {doc_id!r}: {says}")


def test_default_status_with_a_separator_is_refused():
    with pytest.raises(ValueError, match="default_status: the status 'a|b' holds '|'"):
        read_files([GOOD], default_status="a|b")


# ---- files that are not files: devices, pipes, sockets. Each read runs in a child process with a 2 GB address
# space and a time limit, so that a regression fails the test instead of filling the machine's memory.

READ = """
import sys
from rag_core.data.golden_csv import read_golden_path
from rag_core.data.ingest import read_path
reader = {"docs": read_path, "golden": read_golden_path}[sys.argv[1]]
try:
    reader(sys.argv[2])
except ValueError as e:
    print(e)
else:
    print("read without an error")
"""


def read_in_child(kind: str, path) -> str:
    import subprocess
    import sys
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(["prlimit", "--as=2000000000", sys.executable, "-c", READ, kind, str(path)],
                          capture_output=True, text=True, timeout=60, cwd=root)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


@pytest.mark.parametrize("kind", ["docs", "golden"])
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/full"])
def test_a_device_is_refused_before_anything_is_read(kind, device):
    said = read_in_child(kind, device)
    assert said.startswith(f"'{device}' is a character device (such as /dev/zero or a terminal), not a ")
    assert said.endswith(("give the path of a folder, a file or a zip.",
                          "give the path of a CSV file with the header 'question,doc,anchor'."))


@pytest.mark.parametrize("kind", ["docs", "golden"])
def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path, kind):
    import os
    os.mkfifo(tmp_path / "pipe.csv")
    assert read_in_child(kind, tmp_path / "pipe.csv").startswith(f"'{tmp_path / 'pipe.csv'}' is a named pipe (FIFO)")


@pytest.mark.parametrize("kind", ["docs", "golden"])
def test_a_socket_and_a_link_to_a_device_are_refused(tmp_path, kind):
    import socket
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(tmp_path / "s.txt"))
        assert read_in_child(kind, tmp_path / "s.txt").startswith(f"'{tmp_path / 's.txt'}' is a socket")
    (tmp_path / "zero.txt").symlink_to("/dev/zero")
    assert "is a character device" in read_in_child(kind, tmp_path / "zero.txt")


def test_pipes_devices_and_links_to_them_in_a_folder_cost_that_entry_only(tmp_path):
    import os
    os.mkfifo(tmp_path / "pipe.txt")
    (tmp_path / "zero.txt").symlink_to("/dev/zero")
    (tmp_path / "good.txt").write_bytes(GOOD[1])
    said = read_in_child("docs", tmp_path)
    assert said == "read without an error"
    result = read_path(tmp_path)          # safe here: the child above showed it ends
    assert_good_kept(result)
    assert result.problems == ("pipe.txt is a named pipe (FIFO), not a regular file; skipped.",
                               "zero.txt is a character device (such as /dev/zero or a terminal), not a regular file; "
                               "skipped.")


def test_read_golden_path_reads_no_more_than_the_limit(tmp_path):
    big = tmp_path / "golden.csv"
    big.write_bytes(b"question,doc,anchor\n" + b"q,d,a\n" * 1000)
    rows, problems = read_golden_path(big, Limits(max_file_bytes=1000))
    assert rows == [] and problems == ["golden.csv is over the 1 KB limit for one file; skipped. "
                                       "Raise Limits(max_file_bytes=...) to read it."]


def test_read_golden_path_takes_the_limits_of_the_environment(tmp_path, monkeypatch):
    big = tmp_path / "golden.csv"
    big.write_bytes(b"question,doc,anchor\n" + b"q,d,a\n" * 1000)
    monkeypatch.setenv("OPENBOOK_MAX_FILE_MB", "0.001")
    assert read_golden_path(big)[1][0].startswith("golden.csv is over the 1 KB limit")


def test_golden_round_trip_keeps_a_carriage_return_inside_a_cell():
    rows = [GoldenRow("a\rb", "d", "c"), GoldenRow("q", "d", "a")]
    assert read_golden_csv(golden_to_csv(rows)) == (rows, [])


@pytest.mark.parametrize("path, says", [("", "No path given (an empty text): give the path of "),
                                        ("  ", "No path given (an empty text): give the path of "),
                                        ("~nosuchuser0/x", "'~nosuchuser0/x' is not a usable path (")])
@pytest.mark.parametrize("reader", [read_path, read_golden_path])
def test_an_empty_or_unusable_path_says_what_to_give(reader, path, says):
    with pytest.raises(ValueError) as e:
        reader(path)
    assert str(e.value).startswith(says)


def test_a_status_of_100000_characters_is_refused_with_its_length():
    from rag_core.data.corpus import label_problem
    assert "100,000 characters long" in label_problem("x" * 100_000, "status")
    assert label_problem("x" * 500, "id") is None and label_problem("draft", "status") is None
