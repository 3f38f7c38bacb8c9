"""Bring your own data: read user files into `Document`s.

`read_files` takes (name, bytes) pairs, as a web upload gives them; `read_path` reads a folder, a
single file or a zip from disk. Both return an `IngestResult`: the documents that could be read, and
one plain-language sentence for every file (or line) that needed attention, a kind of problem met
often grouped into one sentence (`problems`). A bad file never costs the others, and a bad line of a
.jsonl file costs that line only.

Formats, chosen by extension: .txt and .md (UTF-8; cp1252 or latin-1 as a reported fallback: `decode`),
.pdf (the text layer, via pypdf: `pdf`, within a budget of pages and seconds: `budget`), .jsonl (one {"id", "text", "status"} object a line: `jsonl`)
and .zip (members read in memory, never written to disk, one level deep: `zips`). `limits.Limits` caps
the size of one file, the total read in one go and the number of files, and treats zip members that
expand too much as zip bombs; `files` reads from disk (regular files only, bounded) and walks folders.
This module holds what is read, in which order, against which limits; every name above can still be
imported from here.

Golden sets (question,doc,anchor CSV files) are read by `golden_csv`; its functions can still be
imported from here.

Left out on purpose: OCR (an image-only PDF is reported and skipped), .docx, .html, .rtf and other
formats (convert them to text or PDF first), password-protected PDFs and zips, zips inside zips,
symbolic links inside zips, and any metadata beyond the status.
"""
from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from typing import Iterable, Iterator

from rag_core.data.budget import Budget
from rag_core.data.corpus import Document, label_problem
from rag_core.data.decode import decode_text
from rag_core.data.files import (SUPPORTED, SUPPORTED_TEXT, existing_path, extension, file_kind, folder_files,
                                 hidden, read_bounded, unsupported, usable_path)
from rag_core.data.jsonl import documents_to_jsonl, jsonl_row
from rag_core.data.limits import MB, Limits, size_text, too_big
from rag_core.data.pdf import pdf_text
from rag_core.data.problems import Problems
from rag_core.data.zips import member_problem, unsafe
from rag_core.text.messages import shorten

__all__ = ["MB", "SUPPORTED", "SUPPORTED_TEXT", "IngestResult", "Limits", "decode_text", "documents_to_jsonl",
           "read_bounded", "read_files", "read_path", "too_big", "usable_path"]

_SURROGATE = re.compile("[\ud800-\udfff]")   # only a JSON escape makes one: no file can store it as UTF-8
_MOVED = ("GOLDEN_COLUMNS", "GOLDEN_HEADER", "GoldenRow", "golden_to_csv", "read_golden_csv", "read_golden_path")


@dataclass(frozen=True)
class IngestResult:
    documents: tuple[Document, ...]   # what could be read, in reading order, ids unique
    problems: tuple[str, ...]         # a sentence per file (or line) that needed attention, a kind met often grouped
    all_problems: tuple[str, ...] = ()   # every sentence, one a problem (see problems.Problems.listing)


def read_files(files: Iterable[tuple[str, bytes]], limits: Limits = Limits(),
               default_status: str = "current", on_progress=None) -> IngestResult:
    """Read (name, bytes) pairs into documents; every skipped or altered file gets a problem sentence.

    on_progress(file, its pages read, pages read in all) is called at each file and a few times a second while a
    PDF is read (budget.Budget): a page shows its progress there, and may stop the reading by raising.
    """
    reader = _Reader(limits, default_status, on_progress)
    for name, data in _pairs(files):
        if reader.stopped:
            break
        reader.upload(name, data)
    return reader.result()


def read_path(path, limits: Limits = Limits(), default_status: str = "current", on_progress=None) -> IngestResult:
    """Read a folder (recursively, sorted, ids relative to it), a single file or a zip from disk.

    A file that cannot be opened (permissions, a broken disk) is reported and skipped like a bad upload.
    """
    root = existing_path(path)
    reader = _Reader(limits, default_status, on_progress)
    for name, file in ([(root.name, root)] if not root.is_dir() else folder_files(root)):
        if reader.stopped:
            break
        cap = limits.max_total_bytes if extension(name) == ".zip" else limits.max_file_bytes
        try:
            data = read_bounded(file, cap)
        except OSError as e:
            reader.saw_content = True
            reader.note(f"{shorten(name)} could not be read ({e.strerror or e}); skipped.", shorten(name))
            continue
        except ValueError:
            if file is root:
                raise
            reader.note(f"{shorten(name)} is {file_kind(file)}, not a regular file; skipped.", shorten(name))
            continue
        reader.upload(name, data)
    return reader.result()


def __getattr__(name: str):
    """The golden-set CSV functions moved to `golden_csv`; `from rag_core.data.ingest import read_golden_csv` still works.

    Resolved on first use: `golden_csv` is a reader beside this one, not part of it.
    """
    if name in _MOVED:
        from . import golden_csv
        return getattr(golden_csv, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _pairs(files) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) from what was given to `read_files`, or a ValueError saying how to call it."""
    if isinstance(files, (str, bytes)) or not hasattr(files, "__iter__"):
        files = [files]
    for item in files:
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise ValueError(f"read_files takes (name, bytes) pairs, e.g. [('notes.txt', b'Some text.')]; "
                             f"got {item!r:.60}. To read from disk, use read_path(folder_or_file).")
        name, data = item
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise ValueError(f"{name}: give its content as bytes (e.g. Path(...).read_bytes(), or text.encode()), "
                             f"not {type(data).__name__}.")
        yield str(name), bytes(data)


class _Reader:
    """The state of one reading: documents and problems so far, and what counts against the limits."""

    def __init__(self, limits: Limits, default_status: str, on_progress=None):
        if not isinstance(default_status, str) or not default_status.strip():
            raise ValueError("default_status must be a non-empty label such as 'current'.")
        if label_problem(default_status):
            raise ValueError(f"default_status: {label_problem(default_status)}")
        self.limits, self.default_status = limits, default_status
        self.budget = Budget(limits, on_progress)   # PDF pages and seconds spent, in all and on the file read
        self.documents: list[Document] = []
        self.problems = Problems()
        self.ids: set[str] = set()
        self.total = 0              # uncompressed bytes read so far
        self.files = 0              # files read so far (zip members included, zips themselves not)
        self.stopped = False        # a limit on the whole reading was reached
        self.saw_content = False    # at least one file was not empty

    def note(self, sentence: str, place: str = "", unit: str = "files", kind: str | None = None) -> None:
        """One problem; `place` is what the sentence starts with, so that problems of one kind group by it."""
        self.problems.add(sentence, place, unit, kind)

    def result(self) -> IngestResult:
        if not self.documents:
            if self.saw_content:
                self.note("None of the files gave a document: see the problems above.")
            else:
                self.note(f"No documents were uploaded: choose one or more files ({SUPPORTED_TEXT}) with some text.")
        return IngestResult(tuple(self.documents), self.problems.grouped(), self.problems.listing())

    def upload(self, name: str, data: bytes) -> None:
        """One uploaded file: checked, then read (a zip opens into its members)."""
        kind, label = extension(name), shorten(name)       # label: the name as messages show it, cut when long
        if kind not in SUPPORTED:
            self.note(unsupported(label, kind), label)
            return
        if not data:
            self.note(f"{label} is empty; skipped.", label)
            return
        self.saw_content = True
        if kind == ".zip":
            if len(data) > self.limits.max_total_bytes:
                self.note(f"{label} is over the {size_text(self.limits.max_total_bytes)} limit for everything read "
                          "at once; skipped. Raise Limits(max_total_bytes=...) to read it.", label)
            else:
                self.zip(label, data)
            return
        if len(data) > self.limits.max_file_bytes:
            self.note(too_big(label, self.limits), label)
            return
        if self.admit(label, len(data)):
            self.content(name, label, data)

    def admit(self, label: str, size: int) -> bool:
        """Count one file against max_files and max_total_bytes; stop the reading when one is reached."""
        if self.files >= self.limits.max_files:
            self.stop(f"Stopped after {self.files} files (the max_files limit): {label} and the files after it "
                      "were not read. Raise Limits(max_files=...) to read more.")
            return False
        if self.total + size > self.limits.max_total_bytes:
            self.stop(f"Stopped at {label}: it would take the total past the {size_text(self.limits.max_total_bytes)} "
                      "limit (max_total_bytes), so it and the files after it were not read. "
                      "Raise Limits(max_total_bytes=...) to read more.")
            return False
        self.files += 1
        self.total += size
        return True

    def stop(self, sentence: str) -> None:
        self.stopped = True
        self.note(sentence)

    def zip(self, name: str, data: bytes) -> None:
        """Read a zip's members in memory, with the same rules as uploaded files; `name` as messages show it."""
        try:
            archive = zipfile.ZipFile(io.BytesIO(data))
            members = archive.infolist()
        except Exception as e:   # a damaged archive fails in many ways (struct, zlib, names); none may escape
            self.note(f"{name} is not a readable zip file ({e}); skipped.", name)
            return
        before = (len(self.documents), len(self.problems))
        with archive:
            for member in members:
                if self.stopped:
                    break
                self.member(archive, name, member)
        if (len(self.documents), len(self.problems)) == before:
            self.note(f"{name} has no files to read in it (only folders or hidden files); skipped.", name)

    def member(self, archive: zipfile.ZipFile, zip_name: str, member: zipfile.ZipInfo) -> None:
        """One zip member: path, kind and size checked from the header BEFORE anything is decompressed."""
        path, limits = member.filename, self.limits
        label = f"{shorten(path)} (in {zip_name})"
        if not unsafe(path) and (member.is_dir() or hidden(path)):
            return
        problem = member_problem(member, label, limits)
        if problem:
            self.note(problem, label)
            return
        if not self.admit(label, member.file_size):
            return
        try:
            with archive.open(member) as stream:
                data = stream.read(limits.max_file_bytes + 1)   # bounded: a lying header cannot blow memory
        except Exception as e:   # zlib, bz2, lzma, CRC, encryption, a truncated archive: none may escape
            self.note(f"{label} could not be unzipped ({e}); skipped.", label)
            return
        self.total += len(data) - member.file_size
        if len(data) > limits.max_file_bytes:
            self.note(f"{label} is larger than its zip header says: " + too_big(label, limits), label)
            return
        self.content(path, label, data)

    def content(self, doc_id: str, label: str, data: bytes) -> None:
        """Turn one file's bytes into document(s) according to its extension; stop the reading after it when
        the budget of pages or seconds for everything read at once is spent."""
        kind = extension(doc_id)
        self.budget.start(label)
        if kind == ".jsonl":
            self.jsonl(label, data)
        else:
            text, problem = pdf_text(data, label, self.budget) if kind == ".pdf" else decode_text(data, label)
            if problem:
                self.note(problem, label)
            if text is not None:
                self.add(doc_id, label, text, self.default_status)
        spent = self.budget.left()
        if spent:
            self.stop(f"Stopped after {label}: {spent} was reached, so any files after it were not read. "
                      "Raise the limit (see the README's OPENBOOK_MAX_* settings) to read more.")

    def jsonl(self, label: str, data: bytes) -> None:
        """One JSON object a line; a bad line is reported with its number and the others are kept."""
        text, problem = decode_text(data, label)
        if problem:
            self.note(problem, label)
        if text is None:
            return
        seen_any = False
        for number, line in enumerate(text.split("\n"), 1):   # not splitlines: JSON strings may hold U+2028
            if not line.strip():
                continue
            seen_any = True
            row, problem = jsonl_row(line, self.default_status)
            where = f"{label} line {number}"
            if problem:
                self.note(f"{where}: {problem}", where, "lines")
            if row is not None:
                self.add(row[0], where, row[1], row[2], "lines")
        if not seen_any:
            self.note(f"{label} has no lines; skipped.", label)

    def add(self, doc_id: str, label: str, text: str, status: str, unit: str = "files") -> None:
        """Keep one document; a taken id is renamed 'id (2)', 'id (3)', ... and reported."""
        if not text.split():
            self.note(f"{label} has no text; skipped.", label, unit)
            return
        clean = [_SURROGATE.sub("\ufffd", s) for s in (doc_id, text, status)]
        if clean != [doc_id, text, status]:   # no page could show them, no export could encode them
            self.note(f"{label}: invalid characters (lone surrogates) were replaced with \ufffd.", label, unit)
            doc_id, text, status = clean
        refused = label_problem(doc_id, "id") or label_problem(status, "status")
        if refused:
            self.note(f"{label}: skipped: {refused}", label, unit, kind=refused.split(" ", 2)[1])
            return
        new_id, n = doc_id, 2
        while new_id in self.ids:
            new_id, n = f"{doc_id} ({n})", n + 1
        if new_id != doc_id:
            self.note(f"{label}: the id {shorten(doc_id)!r} is already taken by an earlier document; kept it as {shorten(new_id)!r}.",
                      label, unit, kind="id taken")
        self.ids.add(new_id)
        self.documents.append(Document(new_id, text.strip(), status))
