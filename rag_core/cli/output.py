"""What a command prints: the result on stdout, `note:` and `error:` lines on stderr, a progress line.

    note("a.txt is empty; skipped.")      # stderr: note: a.txt is empty; skipped.
    emit(text)                            # stdout: 0; reader gone (`| head -1`): 141; disk full: one line and 2

Left out on purpose: formatting results (the evaluation modules' to_markdown / to_json do).
"""
from __future__ import annotations

import os
import sys


def note(problem: str) -> None:
    """A problem met while reading input, printed at once: before any error that follows from it."""
    print(f"note: {problem}", file=sys.stderr)


def progress_line(done: int, total: int, what: str) -> None:
    """One line on stderr, rewritten in place: "Encoding chunks with all-MiniLM-L6-v2: 1,204 left"."""
    print(f"\r{what}   ", end="\n" if done >= total else "", file=sys.stderr, flush=True)


def emit(text: str) -> int:
    """Write the result to stdout: 0; a reader gone (`| head -1`) ends quietly with 141, as `cat` does
    (128 + SIGPIPE); any other failure (`> /dev/full`) is one line on stderr and 2."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        _drop_stdout()
        return 141
    except OSError as e:
        _drop_stdout()
        print(f"error: cannot write the report: {e.strerror or e}.", file=sys.stderr)
        return 2
    return 0


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so that Python's last flush at exit cannot fail again (the Python docs' advice)."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):   # stdout is no real file (captured in tests): nothing will flush it
        pass
