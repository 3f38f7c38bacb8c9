"""Golden sets as CSV files: read question,doc,anchor rows from an upload or a file, and write them back.

An optional fourth column, answer, holds the answer key (the words of the anchor that answer the question); an
empty or absent one means the anchor is the key. An optional column reply holds a yes/no question's golden reply
(yes or no; empty for other questions). An optional column accept holds the other wordings of the key a marker
accepts, separated by '|' ("no size limit | unbounded").

`read_golden_csv` only parses. Whether each question can be searched, each doc names a document and
each anchor appears in it is checked by `golden.check_golden` (or `golden.golden_problems`, before the
documents are used). A bad row costs that row only, and its problem names the file and the line.

The CSV is read strictly, one record at a time, so that a quote opened and never closed is reported
at the line where it opens and reading resumes on the next line, instead of the rest of the file
vanishing into one field. A question asked again (whitespace and case aside) is said with both lines: it is kept,
and `check_golden` counts it once. A kind of problem met on more than a few rows is one sentence with the count
and the first rows (`problems.Problems`). Text after a closing quote ('"a" b') is read as the lenient
reader does ('a b').

Left out on purpose: other separators (a semicolon file gets a hint), other column names, and
spreadsheet formats (save .xlsx as CSV). A cell starting with ' and then = + - @ (a spreadsheet-safe export of a
formula-like text) is read without the '.
"""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Iterable, Iterator

from rag_core.data.golden import GoldenRow
from rag_core.data.problems import Problems
from rag_core.data.decode import decode_text
from rag_core.data.files import read_bounded, usable_path
from rag_core.data.limits import Limits, too_big
from rag_core.text.messages import shorten
from rag_core.text.questions import question_key
from rag_core.text.spreadsheet import guard, unguard

GOLDEN_COLUMNS = ("question", "doc", "anchor")
GOLDEN_HEADER = ",".join(GOLDEN_COLUMNS)
OPTIONAL_COLUMNS = ("answer", "reply", "accept")  # the answer key (empty: the anchor is the key); a yes/no
#                                                   question's reply; other wordings accepted, '|' between them
SEPARATOR = "|"


def accepted_cell(accept) -> str:
    """The accept column's cell of a row's wordings: ("no size limit", "unbounded") -> "no size limit | unbounded"."""
    return f" {SEPARATOR} ".join(accept or ())


def accepted_from_cell(text: str) -> tuple:
    """The wordings of an accept cell, empty pieces dropped: "a | | b |" -> ("a", "b")."""
    return tuple(a.strip() for a in (text or "").split(SEPARATOR) if a.strip())

_PLACE = re.compile(r"^(.*? line \d+)(?=: )")   # 'golden.csv line 3: empty anchor; row skipped.' -> 'golden.csv line 3'
_REREAD = 4          # an unclosed quote makes the reader go back over lines: at most this many times the file


def read_golden_csv(data: bytes | str, name: str = "golden.csv",
                    limits: Limits = Limits()) -> tuple[list[GoldenRow], list[str]]:
    """(rows, problems) from a CSV with the header question,doc,anchor; bad rows reported and skipped."""
    problems: list[str] = []
    text = _text(data, name, limits, problems)
    records = _records(text or "", name)
    columns = _header(records, name, problems) if text is not None else None
    if columns is None:
        return [], _grouped(problems)
    rows, asked = [], {}                  # asked: question, whitespace collapsed and casefolded -> its first line
    for first, last, cells, problem in records:
        if problem:
            problems.append(problem)
        elif any(c.strip() for c in cells):
            row = _row(cells, columns, f"{name} line {first}", problems)
            rows += [row] if row else []
            same = question_key(row.question) if row else None
            if same in asked:
                problems.append(f"{name} line {first}: the same question as line {asked[same]}; it counts once.")
            elif row:
                asked[same] = first
            if last > first and _swallowed(cells):
                problems.append(f"{name} line {first}: this row runs on to line {last} inside quotes, over lines "
                                f"that look like rows of their own; if a closing quote is missing on line {first}, "
                                "those rows were swallowed.")
    if not rows and not any(p.startswith(f"{name} line ") for p in problems):
        problems.append(f"{name} has a header but no rows: add one question,doc,anchor line per question.")
    return rows, _grouped(problems)


def read_golden_path(path, limits: Limits | None = None) -> tuple[list[GoldenRow], list[str]]:
    """`read_golden_csv` on a regular file from disk (at most one byte over the limit is read).

    `limits` default to those of the environment (`Limits.from_env`), as for uploads; a device, a named pipe
    or a socket is refused with a ValueError before anything is read.
    """
    limits = Limits.from_env() if limits is None else limits
    p = usable_path(path, f"a CSV file with the header '{GOLDEN_HEADER}'")
    if p.is_dir() or not p.exists():
        raise ValueError(f"No golden-set file at {shorten(path, 200)!r}: give the path of a CSV file with the header "
                         f"'{GOLDEN_HEADER}' (a relative path starts from {Path.cwd()}).")
    try:
        data = read_bounded(p, limits.max_file_bytes, f"give the path of a CSV file with the header '{GOLDEN_HEADER}'")
    except OSError as e:
        raise ValueError(f"The golden-set file {shorten(path, 200)!r} cannot be read ({e.strerror or e}): "
                         "check its permissions.") from None
    return read_golden_csv(data, p.name, limits)


def golden_records(rows: Iterable[GoldenRow], answer_column: bool = False) -> tuple[tuple, list[tuple]]:
    """(columns, cells per row) as a CSV of them is written: question, doc, anchor, answer when a row has a key
    (or always, with `answer_column`: an empty cell is the anchor as key), reply and accept when a row has one.

    [GoldenRow("q?", "d", "a b", "b")] -> (("question", "doc", "anchor", "answer"), [("q?", "d", "a b", "b")])
    """
    rows = list(rows)
    replied = any(getattr(r, "reply", "") for r in rows)
    keyed = answer_column or replied or any(getattr(r, "answer", "") for r in rows)
    accepting = any(getattr(r, "accept", ()) for r in rows)
    columns = GOLDEN_COLUMNS + ("answer",) * keyed + ("reply",) * replied + ("accept",) * accepting
    return columns, [(r.question, r.doc, r.anchor) + ((getattr(r, "answer", "") or "",) if keyed else ()) +
                     ((getattr(r, "reply", "") or "",) if replied else ()) +
                     ((accepted_cell(getattr(r, "accept", ())),) if accepting else ()) for r in rows]


def golden_to_csv(rows: Iterable[GoldenRow], answer_column: bool = False) -> str:
    """The CSV `read_golden_csv` reads back: header question,doc,anchor (and answer when a row has a key, or always
    with `answer_column`), quoted where needed."""
    columns, records = golden_records(rows, answer_column)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    quoted = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_ALL)   # csv leaves a lone \r unquoted
    writer.writerow(columns)
    for cells in records:
        cells = [guard(c) for c in cells]            # a spreadsheet opens every cell as text (text.spreadsheet)
        (quoted if "\r" in "".join(cells) else writer).writerow(cells)
    return buffer.getvalue()


def _grouped(problems: list[str]) -> list[str]:
    """The problems with a kind met often grouped into one sentence (see `problems.Problems`)."""
    grouped = Problems()
    for p in problems:
        place = _PLACE.match(p)
        grouped.add(p, place.group(1) if place else "", "lines")
    return list(grouped.grouped())


def _text(data, name: str, limits: Limits, problems: list[str]) -> str | None:
    """The file's text (BOM removed), or None with a problem: too big, or not text."""
    if not isinstance(data, (bytes, bytearray, memoryview, str)):
        raise ValueError(f"read_golden_csv takes the file's bytes (or its text), not {type(data).__name__}: "
                         "e.g. Path('golden.csv').read_bytes().")
    if len(data) > limits.max_file_bytes:
        problems.append(too_big(name, limits))
        return None
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    text, problem = decode_text(bytes(data), name)
    problems += [problem] if problem else []
    return text


def _header(records: Iterator, name: str, problems: list[str]) -> dict[str, int] | None:
    """Column -> position, from the first non-empty record; None (and a problem) when it is not usable."""
    header = None
    for _, _, cells, problem in records:
        if problem:
            problems.append(problem)
        elif any(c.strip() for c in cells):
            header = cells
            break
    if header is None:
        problems.append(f"{name} is empty: its first line must be the header '{GOLDEN_HEADER}'.")
        return None
    columns = [c.strip().lower() for c in header]
    missing = [c for c in GOLDEN_COLUMNS if c not in columns]
    if missing:
        hint = " It looks separated by semicolons: save it as comma-separated." if ";" in ",".join(header) else ""
        problems.append(f"{name} is missing the column{'s' if len(missing) > 1 else ''} {', '.join(missing)}: "
                        f"its first line must be the header '{GOLDEN_HEADER}' (found '{','.join(header)}').{hint}")
        return None
    twice = [c for c in GOLDEN_COLUMNS + OPTIONAL_COLUMNS if columns.count(c) > 1]
    if twice:
        problems += [f"{name}: the header names the column {c} twice: keep one, so that it is clear which holds "
                     f"the {c}." for c in twice]
        return None
    known = GOLDEN_COLUMNS + OPTIONAL_COLUMNS
    extra = [h.strip() or "(unnamed)" for h, c in zip(header, columns) if c not in known]
    if extra:
        problems.append(f"{name}: ignored the extra column{'s' if len(extra) > 1 else ''} {', '.join(extra)}.")
    return {c: columns.index(c) for c in known if c in columns}


def _row(cells: list[str], columns: dict[str, int], where: str, problems: list[str]) -> GoldenRow | None:
    values = {c: unguard(cells[i].strip()) if i < len(cells) else "" for c, i in columns.items()}
    empty = [c for c in GOLDEN_COLUMNS if not values[c]]
    if empty:
        problems.append(f"{where}: empty {', '.join(empty)}; row skipped.")
        return None
    accept = accepted_from_cell(values.pop("accept", ""))
    return GoldenRow(**values, accept=accept)      # an empty answer: the anchor is the key


def _swallowed(cells: list[str]) -> bool:
    """Whether a field running over several lines holds a line that looks like a CSV row: 'q,doc,anchor'."""
    return any(line.count(",") >= 2 for cell in cells for line in cell.splitlines()[1:])


class _Lines:
    """The text's lines handed to csv.reader one at a time; `at` can be moved back to resume after a bad record."""

    def __init__(self, text: str):
        self.lines = io.StringIO(text, newline="").readlines()   # split at \n, \r\n and \r, as csv does
        self.at = 0                                              # index of the next line to hand out

    def __iter__(self):
        return self

    def __next__(self) -> str:
        if self.at >= len(self.lines):
            raise StopIteration
        self.at += 1
        return self.lines[self.at - 1]


def _records(text: str, name: str) -> Iterator[tuple[int, int, list[str], str]]:
    """(first line, last line, cells, problem) for each CSV record, lines counted from 1.

    A record the strict reader rejects comes with a problem and no cells; reading resumes on the
    line after the one where that record began.
    """
    src = _Lines(text)
    budget = _REREAD * len(src.lines) + 100                      # lines that may be read a second time
    while src.at < len(src.lines):
        start = src.at
        try:
            for cells in csv.reader(src, strict=True):
                yield start + 1, src.at, cells, ""
                start = src.at
            return
        except csv.Error as e:
            spanned = src.at - start > 1 or "unexpected end of data" in str(e)
            if not spanned and "expected after" in str(e):       # '"a" b': read it as the lenient reader does
                try:
                    cells = next(csv.reader([src.lines[start]]))
                except csv.Error as lenient:                     # what even that reader refuses is reported
                    e = lenient
                else:
                    yield start + 1, src.at, cells, ""
                    continue
            yield start + 1, src.at, [], _record_problem(e, name, start + 1, src, spanned)
            budget -= src.at - (start + 1)
            src.at = start + 1
            if budget < 0:
                yield start + 1, start + 1, [], (f"{name}: stopped reading at line {start + 2}: too many quotes are "
                                                 "left open. Check the file's quotes.")
                return


def _record_problem(e: csv.Error, name: str, line: int, src: _Lines, spanned: bool) -> str:
    if spanned:
        what = ("is never closed (the CSV reader ran on to the end of the file)" if "end of data" in str(e) else
                f"is not closed on this line (the CSV reader ran on to line {src.at} and stopped there)")
        return (f'{name} line {line}: a quote (") opened on this line {what}; row skipped, reading resumed on line '
                f'{line + 1}. Close the quote, and write a quote inside a quoted field as two ("").')
    if "field larger than field limit" in str(e):
        return f"{name} line {line}: a field is over {csv.field_size_limit():,} characters; row skipped."
    return f"{name} line {line}: the CSV cannot be parsed ({e}); row skipped."
