"""Bring your own data: read user files into `Document`s.

`read_files` takes (name, bytes) pairs, as a web upload gives them; `read_path` reads a folder, a
single file or a zip from disk. Both return an `IngestResult`: the documents that could be read, and
one plain-language sentence for every file (or line) that needed attention. A bad file never costs
the others, and a bad line of a .jsonl file costs that line only.

Formats, chosen by extension: .txt and .md (UTF-8; cp1252 or latin-1 as a reported fallback), .pdf
(the text layer, via pypdf), .jsonl (one {"id", "text", "status"} object a line) and .zip (members
read in memory, never written to disk, one level deep). `Limits` caps the size of one file, the total
read in one go and the number of files, and treats zip members that expand too much as zip bombs.
`documents_to_jsonl` writes documents back out in the .jsonl format.

Golden sets (question,doc,anchor CSV files) are read by `golden_csv`; its functions can still be
imported from here.

Left out on purpose: OCR (an image-only PDF is reported and skipped), .docx, .html, .rtf and other
formats (convert them to text or PDF first), password-protected PDFs and zips, zips inside zips,
symbolic links inside zips, and any metadata beyond the status.
"""
from __future__ import annotations

import codecs
import io
import json
import math
import os
import re
import stat
import zipfile
from dataclasses import dataclass, fields
from pathlib import Path, PurePosixPath
from typing import Iterable, Iterator

from rag_core.data.corpus import Document, label_problem
from rag_core.data.problems import Problems

MB = 1_000_000
SUPPORTED = (".txt", ".md", ".pdf", ".jsonl", ".zip")
SUPPORTED_TEXT = ", ".join(SUPPORTED)

_FALLBACKS = (("cp1252", "cp1252 (Windows)"), ("latin-1", "latin-1"))   # tried in order when not UTF-8
_BINARY_SHARE = 0.30           # more unreadable characters than this and a "text" file is binary
_RATIO_FREE_BYTES = 1 * MB     # zip members up to this size skip the ratio check (repetitive text compresses well)
_DRIVE = re.compile(r"^[A-Za-z]:")
_SURROGATE = re.compile("[\ud800-\udfff]")   # only a JSON escape makes one: no file can store it as UTF-8
_MOVED = ("GOLDEN_COLUMNS", "GOLDEN_HEADER", "GoldenRow", "golden_to_csv", "read_golden_csv", "read_golden_path")


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 20 * MB    # one file or zip member, uncompressed; a larger one is skipped
    max_total_bytes: int = 100 * MB  # all documents read in one go, uncompressed; reading stops there
    max_files: int = 2000            # files read in one go, zip members included; reading stops there
    max_zip_ratio: float = 100       # uncompressed/compressed size above which a zip member (over 1 MB) is a bomb

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            kinds = (int, float) if f.name == "max_zip_ratio" else (int,)
            if isinstance(value, bool) or not isinstance(value, kinds) or value <= 0:
                raise ValueError(f"Limits.{f.name} must be a positive {'number' if len(kinds) > 1 else 'whole number'}, "
                                 f"got {value!r}.")

    @classmethod
    def from_env(cls, env=None) -> "Limits":
        """Limits from OPENBOOK_MAX_FILE_MB, OPENBOOK_MAX_TOTAL_MB, OPENBOOK_MAX_FILES, OPENBOOK_MAX_ZIP_RATIO."""
        env = os.environ if env is None else env
        names = {"OPENBOOK_MAX_FILE_MB": ("max_file_bytes", MB, "megabytes", "20"),
                 "OPENBOOK_MAX_TOTAL_MB": ("max_total_bytes", MB, "megabytes", "100"),
                 "OPENBOOK_MAX_FILES": ("max_files", 1, "files", "2000"),
                 "OPENBOOK_MAX_ZIP_RATIO": ("max_zip_ratio", 1, "times", "100")}
        values = {}
        for var, (field, unit, what, example) in names.items():
            given = str(env.get(var) or "").strip()
            if not given:
                continue
            fix = f"set it to a number of {what}, e.g. {example}, or leave it unset for the default"
            try:
                number = float(given)
            except ValueError:
                raise ValueError(f"{var}={given!r} is not a number: {fix}.") from None
            if not (math.isfinite(number) and number > 0):   # int() of inf or nan would raise on its own
                raise ValueError(f"{var}={given!r} must be a number above 0: {fix}.")
            value = number if field == "max_zip_ratio" else int(number * unit)
            if value < 1 and field != "max_zip_ratio":        # 0.0000001 MB is less than one byte
                raise ValueError(f"{var}={given!r} is below the smallest allowed, {format(1 / unit, 'f').rstrip('0').rstrip('.')} ({'one byte' if unit > 1 else 'one file'}): {fix}.")
            values[field] = value
        return cls(**values)


@dataclass(frozen=True)
class IngestResult:
    documents: tuple[Document, ...]   # what could be read, in reading order, ids unique
    problems: tuple[str, ...]         # a sentence per file (or line) that needed attention, a kind met often grouped
    all_problems: tuple[str, ...] = ()   # every sentence, one a problem (see problems.Problems.listing)


# ---------------------------------------------------------------- documents

def read_files(files: Iterable[tuple[str, bytes]], limits: Limits = Limits(),
               default_status: str = "current") -> IngestResult:
    """Read (name, bytes) pairs into documents; every skipped or altered file gets a problem sentence."""
    reader = _Reader(limits, default_status)
    for name, data in _pairs(files):
        if reader.stopped:
            break
        reader.upload(name, data)
    return reader.result()


def read_path(path, limits: Limits = Limits(), default_status: str = "current") -> IngestResult:
    """Read a folder (recursively, sorted, ids relative to it), a single file or a zip from disk.

    A file that cannot be opened (permissions, a broken disk) is reported and skipped like a bad upload.
    """
    root = _existing(path)
    reader = _Reader(limits, default_status)
    for name, file in ([(root.name, root)] if not root.is_dir() else _folder_files(root)):
        if reader.stopped:
            break
        cap = limits.max_total_bytes if _extension(name) == ".zip" else limits.max_file_bytes
        try:
            data = read_bounded(file, cap)
        except OSError as e:
            reader.saw_content = True
            reader.note(f"{name} could not be read ({e.strerror or e}); skipped.", name)
            continue
        except ValueError:
            if file is root:
                raise
            reader.note(f"{name} is {_file_kind(file)}, not a regular file; skipped.", name)
            continue
        reader.upload(name, data)
    return reader.result()


def read_bounded(path, cap: int, fix: str = "give the path of a file saved on disk") -> bytes:
    """At most cap + 1 bytes of a regular file: enough to see it is over `cap`, never the whole of /dev/zero.

    Devices, named pipes (FIFOs) and sockets are refused with a ValueError before anything is read (a FIFO
    would wait for a writer, /dev/zero and /dev/urandom never end); an OSError (permissions) is passed on.
    """
    refused = f"{str(path)!r} is {{}}, not a regular file: {fix}."
    if not stat.S_ISREG(os.stat(path).st_mode):           # sockets cannot even be opened: said before trying
        raise ValueError(refused.format(_file_kind(path)))
    # non-blocking: a FIFO swapped in meanwhile opens without waiting, and a "file" that blocks (/proc/kmsg) says so
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise ValueError(refused.format(_file_kind(path, mode)))
        chunks, left = [], cap + 1
        while left > 0:
            chunk = os.read(fd, min(left, MB))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def documents_to_jsonl(documents) -> str:
    """One {"id", "text", "status"} object a line: what `read_files` reads back from a .jsonl file."""
    documents = getattr(documents, "documents", documents)   # a Corpus works too
    return "".join(json.dumps({"id": d.id, "text": d.text, "status": d.status}, ensure_ascii=False) + "\n"
                   for d in documents)


def decode_text(data: bytes, label: str) -> tuple[str | None, str | None]:
    """(text, problem): UTF-8 (BOM stripped), else cp1252 / latin-1 reported; text None if it looks binary.

    b"caf\\xe9" -> ("café", "... is not UTF-8; read it as cp1252 (Windows) instead — check accented letters.")
    """
    text, problem = None, None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):   # Notepad's "Unicode"
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    if text is None:
        if b"\x00" in data:
            return None, (f"{label} looks like a binary file, not text (it contains NUL bytes); skipped. "
                          "If it is UTF-16 text, save it as UTF-8.")
        text, problem = _decode_8bit(data, label)
    unreadable = sum(1 for c in text if not (c.isprintable() or c in "\t\n\r\f\v"))
    if unreadable > _BINARY_SHARE * len(text):
        return None, f"{label} looks like a binary file, not text (too many unreadable characters); skipped."
    return text, problem


def too_big(label: str, limits: Limits) -> str:
    return (f"{label} is over the {_size(limits.max_file_bytes)} limit for one file; skipped. "
            "Raise Limits(max_file_bytes=...) to read it.")


def __getattr__(name: str):
    """The golden-set CSV functions moved to `golden_csv`; `from rag_core.data.ingest import read_golden_csv` still works.

    Resolved on first use, because `golden_csv` itself reads its files with `decode_text` from here.
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


def usable_path(path, what: str = "a folder, a file or a zip") -> Path:
    """Path(path) with ~ expanded; a ValueError saying what to give for '', '~nobody/x' or a NUL inside."""
    if isinstance(path, str) and not path.strip():
        raise ValueError(f"No path given (an empty text): give the path of {what}.")
    try:
        root = Path(path).expanduser()
        root.exists()                        # a NUL in the path raises here
    except (TypeError, RuntimeError, ValueError) as e:   # not a path at all; "~" without a home directory
        raise ValueError(f"{path!r:.80} is not a usable path ({e}): give the path of {what}.") from None
    return root


def _existing(path) -> Path:
    """The path, expanded, when a file or a folder is there; else a ValueError saying what to check."""
    root = usable_path(path)
    if not root.exists():
        raise ValueError(f"Nothing found at {str(path)!r}: check the spelling, or give an absolute path "
                         f"(a relative path starts from {Path.cwd()}).")
    if not (root.is_file() or root.is_dir()):
        raise ValueError(f"{str(path)!r} is {_file_kind(root)}, not a file or a folder: give the path of a "
                         "folder, a file or a zip.")
    return root


def _file_kind(path, mode: int | None = None) -> str:
    """'a character device (such as /dev/zero)', 'a named pipe (FIFO)', ... from the file's mode."""
    if mode is None:
        try:
            mode = os.stat(path).st_mode
        except OSError:
            return "unreadable"
    for test, kind in ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a folder"),
                       (stat.S_ISCHR, "a character device (such as /dev/zero or a terminal)"),
                       (stat.S_ISBLK, "a block device (a disk)"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "a special file"


class _Reader:
    """The state of one reading: documents and problems so far, and what counts against the limits."""

    def __init__(self, limits: Limits, default_status: str):
        if not isinstance(default_status, str) or not default_status.strip():
            raise ValueError("default_status must be a non-empty label such as 'current'.")
        if label_problem(default_status):
            raise ValueError(f"default_status: {label_problem(default_status)}")
        self.limits, self.default_status = limits, default_status
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
        kind = _extension(name)
        if kind not in SUPPORTED:
            self.note(_unsupported(name, kind), name)
            return
        if not data:
            self.note(f"{name} is empty; skipped.", name)
            return
        self.saw_content = True
        if kind == ".zip":
            if len(data) > self.limits.max_total_bytes:
                self.note(f"{name} is over the {_size(self.limits.max_total_bytes)} limit for everything read "
                          "at once; skipped. Raise Limits(max_total_bytes=...) to read it.", name)
            else:
                self.zip(name, data)
            return
        if len(data) > self.limits.max_file_bytes:
            self.note(too_big(name, self.limits), name)
            return
        if self.admit(name, len(data)):
            self.content(name, name, data)

    def admit(self, label: str, size: int) -> bool:
        """Count one file against max_files and max_total_bytes; stop the reading when one is reached."""
        if self.files >= self.limits.max_files:
            self.stop(f"Stopped after {self.files} files (the max_files limit): {label} and the files after it "
                      "were not read. Raise Limits(max_files=...) to read more.")
            return False
        if self.total + size > self.limits.max_total_bytes:
            self.stop(f"Stopped at {label}: it would take the total past the {_size(self.limits.max_total_bytes)} "
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
        """Read a zip's members in memory, with the same rules as uploaded files."""
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
        label = f"{path} (in {zip_name})"
        if not _unsafe(path) and (member.is_dir() or _hidden(path)):
            return
        problem = _member_problem(member, label, limits)
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
        """Turn one file's bytes into document(s) according to its extension."""
        kind = _extension(doc_id)
        if kind == ".jsonl":
            self.jsonl(label, data)
            return
        text, problem = _pdf_text(data, label) if kind == ".pdf" else decode_text(data, label)
        if problem:
            self.note(problem, label)
        if text is not None:
            self.add(doc_id, label, text, self.default_status)

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
            row, problem = _jsonl_row(line, self.default_status)
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
            self.note(f"{label}: the id {doc_id!r} is already taken by an earlier document; kept it as {new_id!r}.",
                      label, unit, kind="id taken")
        self.ids.add(new_id)
        self.documents.append(Document(new_id, text.strip(), status))


def _member_problem(member: zipfile.ZipInfo, label: str, limits: Limits) -> str | None:
    """Why a zip member is skipped, from its header alone, or None to read it."""
    kind = _extension(member.filename)
    if _unsafe(member.filename):
        return f"{label} has an unsafe path (it points outside the archive); skipped."
    if stat.S_ISLNK(member.external_attr >> 16):   # the Unix mode: its content is the link's target, not a file
        return f"{label} is a symbolic link; skipped (links are not followed)."
    if kind == ".zip":
        return f"{label} is a zip inside a zip: zips are opened one level deep only; unzip it and upload its files."
    if kind not in SUPPORTED:
        return _unsupported(label, kind)
    if member.flag_bits & 0x1:
        return f"{label} is password-protected; skipped."
    if member.file_size == 0:
        return f"{label} is empty; skipped."
    if member.file_size > limits.max_file_bytes:
        return too_big(label, limits)
    ratio = member.file_size / max(member.compress_size, 1)
    if member.file_size > _RATIO_FREE_BYTES and ratio > limits.max_zip_ratio:
        return (f"{label} expands {ratio:.0f} times when unzipped (over the max_zip_ratio limit of "
                f"{limits.max_zip_ratio:g}): it looks like a zip bomb; skipped.")
    return None


def _jsonl_row(line: str, default_status: str) -> tuple[tuple[str, str, str] | None, str | None]:
    """(id, text, status) from one jsonl line, and a problem sentence (without the line prefix) if any."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        return None, f"not valid JSON ({e.msg}); skipped."
    except RecursionError:
        return None, "nested too deeply to read (thousands of brackets); skipped."
    except ValueError as e:   # e.g. an integer of more than 4,300 digits (Python's limit for reading one)
        return None, f"holds a number too long to read ({e}); skipped."
    if not isinstance(obj, dict):
        return None, 'not a JSON object (expected {"id": ..., "text": ...}); skipped.'
    for key in ("id", "text"):
        if key not in obj:
            return None, f"missing {key!r}; skipped."
    doc_id, text = obj["id"], obj["text"]
    if isinstance(doc_id, bool) or not isinstance(doc_id, (str, int)) or not str(doc_id).strip():
        return None, "'id' must be a non-empty string; skipped."
    if not isinstance(text, str):
        return None, "'text' must be a string; skipped."
    status = obj.get("status", default_status)
    if not isinstance(status, str) or not status.strip():
        return (str(doc_id).strip(), text, default_status), \
            f"'status' must be a non-empty string; used {default_status!r} instead."
    return (str(doc_id).strip(), text, status.strip()), None


def _decode_8bit(data: bytes, label: str) -> tuple[str, str | None]:
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError:
        pass
    for codec, description in _FALLBACKS:
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        return text, f"{label} is not UTF-8; read it as {description} instead — check accented letters."
    raise AssertionError("latin-1 decodes any bytes")


def _pdf_text(data: bytes, label: str) -> tuple[str | None, str | None]:
    """(text, problem): the PDF's text layer, pages joined with blank lines."""
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


def _folder_files(root: Path) -> list[tuple[str, Path]]:
    """(path relative to root with forward slashes, path) for every non-hidden entry but folders, sorted.

    Pipes, devices and broken links are listed too: reading them says what they are, instead of a silent skip.
    """
    found = ((p.relative_to(root).as_posix(), p) for p in root.rglob("*") if not p.is_dir())
    return sorted((name, p) for name, p in found if not _hidden(name))


def _extension(name: str) -> str:
    return PurePosixPath(name.replace("\\", "/")).suffix.lower()


def _unsafe(path: str) -> bool:
    path = path.replace("\\", "/")
    return path.startswith("/") or bool(_DRIVE.match(path)) or ".." in path.split("/")


def _hidden(path: str) -> bool:
    parts = path.replace("\\", "/").split("/")
    return parts[0] == "__MACOSX" or any(part.startswith(".") for part in parts)


def _unsupported(label: str, kind: str) -> str:
    what = f"{kind} files are" if kind else "files without an extension are"
    return f"{label}: {what} not supported; skipped. Supported: {SUPPORTED_TEXT}."


def _size(n: float) -> str:
    if n >= MB:
        return f"{n / MB:g} MB"
    return f"{n / 1000:g} KB" if n >= 1000 else f"{n:g} bytes"
