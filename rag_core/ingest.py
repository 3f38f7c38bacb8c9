"""Bring your own data: read user files into `Document`s, and golden sets into `GoldenRow`s.

`read_files` takes (name, bytes) pairs, as a web upload gives them; `read_path` reads a folder, a
single file or a zip from disk. Both return an `IngestResult`: the documents that could be read, and
one plain-language sentence for every file that needed attention. A bad file never costs the others.

Formats, chosen by extension: .txt and .md (UTF-8; cp1252 or latin-1 as a reported fallback), .pdf
(the text layer, via pypdf), .jsonl (one {"id", "text", "status"} object a line) and .zip (members
read in memory, never written to disk, one level deep). `Limits` caps the size of one file, the total
read in one go and the number of files, and treats zip members that expand too much as zip bombs.

Golden sets are CSV files with the columns question, doc, anchor. `read_golden_csv` only parses them:
whether each anchor really appears in its document is checked by the golden-set validation.
`documents_to_jsonl` and `golden_to_csv` write both back out, in the formats the readers take.

Left out on purpose: OCR (an image-only PDF is reported and skipped), .docx, .html, .rtf and other
formats (convert them to text or PDF first), password-protected PDFs and zips, zips inside zips, and
any metadata beyond the status.
"""
from __future__ import annotations

import codecs
import os
import csv
import io
import json
import re
import zipfile
import zlib
from dataclasses import dataclass, fields
from pathlib import Path, PurePosixPath
from typing import Iterable, Iterator

from .corpus import Document
from .golden import GoldenRow

MB = 1_000_000
SUPPORTED = (".txt", ".md", ".pdf", ".jsonl", ".zip")
SUPPORTED_TEXT = ", ".join(SUPPORTED)
GOLDEN_COLUMNS = ("question", "doc", "anchor")
GOLDEN_HEADER = ",".join(GOLDEN_COLUMNS)

_FALLBACKS = (("cp1252", "cp1252 (Windows)"), ("latin-1", "latin-1"))   # tried in order when not UTF-8
_BINARY_SHARE = 0.30           # more unreadable characters than this and a "text" file is binary
_RATIO_FREE_BYTES = 1 * MB     # zip members up to this size skip the ratio check (repetitive text compresses well)
_DRIVE = re.compile(r"^[A-Za-z]:")


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
        names = {"OPENBOOK_MAX_FILE_MB": ("max_file_bytes", MB), "OPENBOOK_MAX_TOTAL_MB": ("max_total_bytes", MB),
                 "OPENBOOK_MAX_FILES": ("max_files", 1), "OPENBOOK_MAX_ZIP_RATIO": ("max_zip_ratio", 1)}
        values = {}
        for var, (field, unit) in names.items():
            if env.get(var):
                try:
                    number = float(env[var])
                except ValueError:
                    raise ValueError(f"{var}={env[var]!r} is not a number: set it to e.g. 20.") from None
                values[field] = number if field == "max_zip_ratio" else int(number * unit)
        return cls(**values)


@dataclass(frozen=True)
class IngestResult:
    documents: tuple[Document, ...]   # what could be read, in reading order, ids unique
    problems: tuple[str, ...]         # one sentence per file (or line) that needed attention


# ---------------------------------------------------------------- documents

def read_files(files: Iterable[tuple[str, bytes]], limits: Limits = Limits(),
               default_status: str = "current") -> IngestResult:
    """Read (name, bytes) pairs into documents; every skipped or altered file gets a problem sentence."""
    if not isinstance(default_status, str) or not default_status.strip():
        raise ValueError("default_status must be a non-empty label such as 'current'.")
    reader = _Reader(limits, default_status)
    for name, data in files:
        if reader.stopped:
            break
        reader.upload(str(name), bytes(data))
    if not reader.documents:
        if reader.saw_content:
            reader.note("None of the files gave a document: see the problems above.")
        else:
            reader.note(f"No documents were uploaded: choose one or more files ({SUPPORTED_TEXT}) with some text.")
    return IngestResult(tuple(reader.documents), tuple(reader.problems))


def read_path(path, limits: Limits = Limits(), default_status: str = "current") -> IngestResult:
    """Read a folder (recursively, sorted, ids relative to it), a single file or a zip from disk."""
    root = Path(path).expanduser()
    if not root.exists():
        raise ValueError(f"Nothing found at {str(path)!r}: check the spelling, or give an absolute path "
                         f"(a relative path starts from {Path.cwd()}).")
    if root.is_file():
        return read_files([(root.name, _read_capped(root, limits))], limits, default_status)
    return read_files(_folder_files(root, limits), limits, default_status)


def documents_to_jsonl(documents) -> str:
    """One {"id", "text", "status"} object a line: what `read_files` reads back from a .jsonl file."""
    documents = getattr(documents, "documents", documents)   # a Corpus works too
    return "".join(json.dumps({"id": d.id, "text": d.text, "status": d.status}, ensure_ascii=False) + "\n"
                   for d in documents)


class _Reader:
    """The state of one reading: documents and problems so far, and what counts against the limits."""

    def __init__(self, limits: Limits, default_status: str):
        self.limits, self.default_status = limits, default_status
        self.documents: list[Document] = []
        self.problems: list[str] = []
        self.ids: set[str] = set()
        self.total = 0              # uncompressed bytes read so far
        self.files = 0              # files read so far (zip members included, zips themselves not)
        self.stopped = False        # a limit on the whole reading was reached
        self.saw_content = False    # at least one file was not empty

    def note(self, sentence: str) -> None:
        self.problems.append(sentence)

    def upload(self, name: str, data: bytes) -> None:
        """One uploaded file: checked, then read (a zip opens into its members)."""
        kind = _extension(name)
        if kind not in SUPPORTED:
            self.note(_unsupported(name, kind))
            return
        if not data:
            self.note(f"{name} is empty; skipped.")
            return
        self.saw_content = True
        if kind == ".zip":
            if len(data) > self.limits.max_total_bytes:
                self.note(f"{name} is over the {_size(self.limits.max_total_bytes)} limit for everything read "
                          "at once; skipped. Raise Limits(max_total_bytes=...) to read it.")
            else:
                self.zip(name, data)
            return
        if len(data) > self.limits.max_file_bytes:
            self.note(_too_big(name, self.limits))
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
        except (zipfile.BadZipFile, zlib.error, OSError, ValueError, EOFError) as e:
            self.note(f"{name} is not a readable zip file ({e}); skipped.")
            return
        before = (len(self.documents), len(self.problems))
        with archive:
            for member in members:
                if self.stopped:
                    break
                self.member(archive, name, member)
        if (len(self.documents), len(self.problems)) == before:
            self.note(f"{name} has no files to read in it (only folders or hidden files); skipped.")

    def member(self, archive: zipfile.ZipFile, zip_name: str, member: zipfile.ZipInfo) -> None:
        """One zip member: path and size checked from the header BEFORE anything is decompressed."""
        path, limits = member.filename, self.limits
        label = f"{path} (in {zip_name})"
        if _unsafe(path):
            self.note(f"{label} has an unsafe path (it points outside the archive); skipped.")
            return
        if member.is_dir() or _hidden(path):
            return
        kind = _extension(path)
        if kind == ".zip":
            self.note(f"{label} is a zip inside a zip: zips are opened one level deep only; "
                      "unzip it and upload its files.")
            return
        if kind not in SUPPORTED:
            self.note(_unsupported(label, kind))
            return
        if member.flag_bits & 0x1:
            self.note(f"{label} is password-protected; skipped.")
            return
        if member.file_size == 0:
            self.note(f"{label} is empty; skipped.")
            return
        if member.file_size > limits.max_file_bytes:
            self.note(_too_big(label, limits))
            return
        if member.file_size > _RATIO_FREE_BYTES and member.file_size > limits.max_zip_ratio * max(member.compress_size, 1):
            self.note(f"{label} expands {member.file_size / max(member.compress_size, 1):.0f} times when "
                      f"unzipped (over the max_zip_ratio limit of {limits.max_zip_ratio:g}): it looks like a "
                      "zip bomb; skipped.")
            return
        if not self.admit(label, member.file_size):
            return
        try:
            with archive.open(member) as stream:
                data = stream.read(limits.max_file_bytes + 1)   # bounded: a lying header cannot blow memory
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError, NotImplementedError, RuntimeError, ValueError) as e:
            self.note(f"{label} could not be unzipped ({e}); skipped.")
            return
        self.total += len(data) - member.file_size
        if len(data) > limits.max_file_bytes:
            self.note(f"{label} is larger than its zip header says: " + _too_big(label, limits))
            return
        self.content(path, label, data)

    def content(self, doc_id: str, label: str, data: bytes) -> None:
        """Turn one file's bytes into document(s) according to its extension."""
        kind = _extension(doc_id)
        if kind == ".jsonl":
            self.jsonl(label, data)
            return
        text, problem = _pdf_text(data, label) if kind == ".pdf" else _decode(data, label)
        if problem:
            self.note(problem)
        if text is not None:
            self.add(doc_id, label, text, self.default_status)

    def jsonl(self, label: str, data: bytes) -> None:
        """One JSON object a line; a bad line is reported with its number and the others are kept."""
        text, problem = _decode(data, label)
        if problem:
            self.note(problem)
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
                self.note(f"{where}: {problem}")
            if row is not None:
                self.add(row[0], where, row[1], row[2])
        if not seen_any:
            self.note(f"{label} has no lines; skipped.")

    def add(self, doc_id: str, label: str, text: str, status: str) -> None:
        """Keep one document; a taken id is renamed 'id (2)', 'id (3)', ... and reported."""
        if not text.split():
            self.note(f"{label} has no text; skipped.")
            return
        new_id, n = doc_id, 2
        while new_id in self.ids:
            new_id, n = f"{doc_id} ({n})", n + 1
        if new_id != doc_id:
            self.note(f"{label}: the id {doc_id!r} is already taken by an earlier document; kept it as {new_id!r}.")
        self.ids.add(new_id)
        self.documents.append(Document(new_id, text.strip(), status))


def _jsonl_row(line: str, default_status: str) -> tuple[tuple[str, str, str] | None, str | None]:
    """(id, text, status) from one jsonl line, and a problem sentence (without the line prefix) if any."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        return None, f"not valid JSON ({e.msg}); skipped."
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


def _decode(data: bytes, label: str) -> tuple[str | None, str | None]:
    """(text, problem): UTF-8 (BOM stripped), else cp1252 / latin-1 reported; text None if it looks binary."""
    text, problem = None, None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):   # Notepad's "Unicode"
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    if text is None:
        if b"\x00" in data:
            return None, f"{label} looks like a binary file, not text (it contains NUL bytes); skipped."
        text, problem = _decode_8bit(data, label)
    unreadable = sum(1 for c in text if not (c.isprintable() or c in "\t\n\r\f\v"))
    if unreadable > _BINARY_SHARE * len(text):
        return None, f"{label} looks like a binary file, not text (too many unreadable characters); skipped."
    return text, problem


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


def _folder_files(root: Path, limits: Limits) -> Iterator[tuple[str, bytes]]:
    """(path relative to root with forward slashes, bytes) for every non-hidden file, sorted, read lazily."""
    paths = [p for p in root.rglob("*") if p.is_file() and not _hidden(p.relative_to(root).as_posix())]
    for p in sorted(paths, key=lambda p: p.relative_to(root).as_posix()):
        yield p.relative_to(root).as_posix(), _read_capped(p, limits)


def _read_capped(path: Path, limits: Limits) -> bytes:
    """At most one byte over the file's limit: enough for `read_files` to see it is too big."""
    cap = limits.max_total_bytes if _extension(path.name) == ".zip" else limits.max_file_bytes
    with open(path, "rb") as f:
        return f.read(cap + 1)


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


def _too_big(label: str, limits: Limits) -> str:
    return (f"{label} is over the {_size(limits.max_file_bytes)} limit for one file; skipped. "
            "Raise Limits(max_file_bytes=...) to read it.")


def _size(n: float) -> str:
    if n >= MB:
        return f"{n / MB:g} MB"
    return f"{n / 1000:g} KB" if n >= 1000 else f"{n:g} bytes"


# ---------------------------------------------------------------- golden sets

def read_golden_csv(data: bytes | str, name: str = "golden.csv") -> tuple[list[GoldenRow], list[str]]:
    """(rows, problems) from a CSV with the header question,doc,anchor; bad rows reported and skipped."""
    problems: list[str] = []
    if isinstance(data, str):
        text = data.removeprefix("\ufeff")
    else:
        text, problem = _decode(bytes(data), name)
        if problem:
            problems.append(problem)
        if text is None:
            return [], problems
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        rows = _golden_rows(reader, name, problems)
    except csv.Error as e:
        problems.append(f"{name} line {reader.line_num}: the CSV cannot be parsed ({e}); stopped reading there.")
        return [], problems
    return rows, problems


def _golden_rows(reader, name: str, problems: list[str]) -> list[GoldenRow]:
    header = next((cells for cells in reader if any(c.strip() for c in cells)), None)
    if header is None:
        problems.append(f"{name} is empty: its first line must be the header '{GOLDEN_HEADER}'.")
        return []
    columns = [c.strip().lower() for c in header]
    missing = [c for c in GOLDEN_COLUMNS if c not in columns]
    if missing:
        hint = " It looks separated by semicolons: save it as comma-separated." if ";" in ",".join(header) else ""
        problems.append(f"{name} is missing the column{'s' if len(missing) > 1 else ''} {', '.join(missing)}: "
                        f"its first line must be the header '{GOLDEN_HEADER}' (found '{','.join(header)}').{hint}")
        return []
    extra = [h.strip() or "(unnamed)" for h, c in zip(header, columns) if c not in GOLDEN_COLUMNS]
    if extra:
        problems.append(f"{name}: ignored the extra column{'s' if len(extra) > 1 else ''} {', '.join(extra)}.")
    where = {c: columns.index(c) for c in GOLDEN_COLUMNS}
    rows, last_line = [], reader.line_num
    for cells in reader:
        line, last_line = last_line + 1, reader.line_num   # a quoted field may span lines: report the first
        if not any(c.strip() for c in cells):
            continue
        values = {c: cells[i].strip() if i < len(cells) else "" for c, i in where.items()}
        empty = [c for c in GOLDEN_COLUMNS if not values[c]]
        if empty:
            problems.append(f"{name} line {line}: empty {', '.join(empty)}; row skipped.")
            continue
        rows.append(GoldenRow(**values))
    if not rows and not any(p.startswith(f"{name} line ") for p in problems):
        problems.append(f"{name} has a header but no rows: add one question,doc,anchor line per question.")
    return rows


def read_golden_path(path) -> tuple[list[GoldenRow], list[str]]:
    """`read_golden_csv` on a file from disk."""
    p = Path(path).expanduser()
    if not p.is_file():
        raise ValueError(f"No golden-set file at {str(path)!r}: give the path of a CSV file with the header "
                         f"'{GOLDEN_HEADER}' (a relative path starts from {Path.cwd()}).")
    return read_golden_csv(p.read_bytes(), p.name)


def golden_to_csv(rows: Iterable[GoldenRow]) -> str:
    """The CSV `read_golden_csv` reads back: header question,doc,anchor, quoted where needed."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(GOLDEN_COLUMNS)
    for r in rows:
        writer.writerow((r.question, r.doc, r.anchor))
    return buffer.getvalue()
