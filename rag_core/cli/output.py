"""What a command prints: the result on stdout, `note:` and `error:` lines on stderr, a progress line; and the
three standard streams when one of them was closed before the command started.

    note("a.txt is empty; skipped.")      # stderr: note: a.txt is empty; skipped.
    error(e)                              # stderr: error: <one line>; returns 2
    emit(text)                            # stdout: 0; reader gone (`| head -1`): 141; disk full: one line and 2

Everything printed passes through `visible`: a control character from the data (a document, an answer, a
server's message) is shown as its escape (`\\x1b`), so no text can move the cursor, recolour or retitle the
terminal; and every note and error through `rag_core.text.credentials.mask_secrets` (never a secret, told the arguments). A closed stream
(`>&-`, `<&-`, `2>&-`) is reopened on /dev/null at once, so that no file the command opens takes its place: a
closed stdout is one error line and 2, a closed stderr only silences notes and errors (the exit code still tells).

Left out on purpose: formatting results (the evaluation modules' to_markdown / to_json do).
"""
from __future__ import annotations

import io
import os
import re
import sys

from rag_core.text.credentials import mask_secrets

CLOSED: set[int] = set()      # the standard streams (0, 1, 2) that were closed when the command started

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")    # C0 but tab and newline, DEL, C1
_C1 = re.compile(r"[\x7f-\x9f]")                             # what json.dumps(ensure_ascii=False) leaves raw


def visible(text: str) -> str:
    """text with every control character but tab and newline written as its escape: "a\\x1b[2Jb" -> "a\\\\x1b[2Jb"."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


GIVEN: list[str] = []     # this command's arguments (set by main): their secrets are masked wherever they appear


def one_line(text: object) -> str:
    """What a note or an error shows: one line, no control character, no secret (of any URL in it, or of the
    command's arguments even where a library decoded or cut them)."""
    return " ".join(visible(mask_secrets(str(text), *GIVEN)).split())


def guard_streams() -> None:
    """Put /dev/null on every standard stream that is closed, and remember which were (CLOSED)."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            CLOSED.add(fd)
    for fd in sorted(CLOSED):
        null = os.open(os.devnull, os.O_RDWR)   # the lowest free descriptor: fd itself, as the lower ones are open
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
    if 1 in CLOSED and sys.stdout is None:
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), write_through=True)
    if 2 in CLOSED and sys.stderr is None:
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), write_through=True)


def _stderr(line: str) -> None:
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):     # stderr gone too: the exit code still tells
        pass


def note(problem: object) -> None:
    """A problem met while reading input, printed at once: before any error that follows from it."""
    _stderr(f"note: {one_line(problem)}")


def error(problem: object) -> int:
    """The one line of a failed command; returns its exit code, 2."""
    _stderr(f"error: {one_line(problem)}")
    return 2


def progress_line(done: int, total: int, what: str) -> None:
    """One line on stderr, rewritten in place: "Encoding 1,583 texts with all-MiniLM-L6-v2: 379 done, 9.5 a second,
    about 2 min 6 s left"."""
    try:
        print(f"\r{visible(what)}   ", end="\n" if done >= total else "", file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


def emit(text: str, json: bool = False) -> int:
    """Write the result to stdout: 0; a reader gone (`| head -1`) ends quietly with 141, as `cat` does
    (128 + SIGPIPE); any other failure (`> /dev/full`, `>&-`) is one line on stderr and 2. JSON keeps its
    escapes valid: a control character json.dumps leaves raw becomes \\u0085, text gets `visible`."""
    if 1 in CLOSED:
        return error("cannot write the report: standard output is closed.")
    text = _C1.sub(lambda m: f"\\u{ord(m.group()):04x}", text) if json else visible(text)
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        _drop_stdout()
        return 141
    except OSError as e:
        _drop_stdout()
        return error(f"cannot write the report: {e.strerror or e}.")
    return 0


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so that Python's last flush at exit cannot fail again (the Python docs' advice)."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):   # stdout is no real file (captured in tests): nothing will flush it
        pass


def on_terminate(signum, frame):
    """SIGTERM's handler for a command: unwinds like an error (a local Ray it started is stopped on the way)."""
    raise SystemExit(128 + signum)
