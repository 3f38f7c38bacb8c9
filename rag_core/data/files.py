"""Files on disk and the names of files: which are read, and reading them without surprises.

`usable_path` and `existing_path` turn what a user typed into a path or a sentence saying what to give;
`read_bounded` reads at most one byte over a limit from a regular file, and refuses devices, named pipes and
sockets before reading anything (/dev/zero never ends, a FIFO waits for a writer); `folder_files` walks a folder.
`SUPPORTED` names the formats read, chosen by extension.

    read_bounded("/dev/zero", 10) -> ValueError("'/dev/zero' is a character device (...), not a regular file: ...")

Left out on purpose: following a folder's symbolic links to other folders, and any file locking.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath

from rag_core.text.messages import shorten

SUPPORTED = (".txt", ".md", ".pdf", ".jsonl", ".zip")
SUPPORTED_TEXT = ", ".join(SUPPORTED)
_CHUNK = 1_000_000     # bytes asked of the OS at a time


def usable_path(path, what: str = "a folder, a file or a zip") -> Path:
    """Path(path) with ~ expanded; a ValueError saying what to give for '', '~nobody/x' or not a path at all."""
    if isinstance(path, str) and not path.strip():
        raise ValueError(f"No path given (an empty text): give the path of {what}.")
    try:
        root = Path(path).expanduser()
        root.exists()                        # a NUL in the path raises here
    except (TypeError, RuntimeError, ValueError) as e:   # not a path at all; "~" without a home directory
        raise ValueError(f"{shorten(path, 200)!r} is not a usable path ({e}): give the path of {what}.") from None
    return root


def existing_path(path) -> Path:
    """The path, expanded, when a file or a folder is there; else a ValueError saying what to check."""
    root = usable_path(path)
    if not root.exists():
        raise ValueError(f"Nothing found at {shorten(path, 200)!r}: check the spelling, or give an absolute path "
                         f"(a relative path starts from {Path.cwd()}).")
    if not (root.is_file() or root.is_dir()):
        raise ValueError(f"{shorten(path, 200)!r} is {file_kind(root)}, not a file or a folder: give the path of a "
                         "folder, a file or a zip.")
    return root


def read_bounded(path, cap: int, fix: str = "give the path of a file saved on disk") -> bytes:
    """At most cap + 1 bytes of a regular file: enough to see it is over `cap`, never the whole of /dev/zero.

    Devices, named pipes (FIFOs) and sockets are refused with a ValueError before anything is read (a FIFO
    would wait for a writer, /dev/zero and /dev/urandom never end); an OSError (permissions) is passed on.
    """
    refused = f"{shorten(path, 200)!r} is {{}}, not a regular file: {fix}."
    if not stat.S_ISREG(os.stat(path).st_mode):           # sockets cannot even be opened: said before trying
        raise ValueError(refused.format(file_kind(path)))
    # non-blocking: a FIFO swapped in meanwhile opens without waiting, and a "file" that blocks (/proc/kmsg) says so
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise ValueError(refused.format(file_kind(path, mode)))
        chunks, left = [], cap + 1
        while left > 0:
            chunk = os.read(fd, min(left, _CHUNK))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def file_kind(path, mode: int | None = None) -> str:
    """'a character device (such as /dev/zero or a terminal)', 'a named pipe (FIFO)', ... from the file's mode."""
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


def folder_files(root: Path) -> list[tuple[str, Path]]:
    """(path relative to root with forward slashes, path) for every non-hidden entry but folders, sorted.

    Pipes, devices and broken links are listed too: reading them says what they are, instead of a silent skip.
    """
    found = ((p.relative_to(root).as_posix(), p) for p in root.rglob("*") if not p.is_dir())
    return sorted((name, p) for name, p in found if not hidden(name))


def extension(name: str) -> str:
    """'Notes/A.TXT' -> '.txt'; 'Makefile' -> ''."""
    return PurePosixPath(name.replace("\\", "/")).suffix.lower()


def hidden(path: str) -> bool:
    """'.git/x', 'a/.DS_Store', '__MACOSX/a.txt' -> True: files nobody meant to upload."""
    parts = path.replace("\\", "/").split("/")
    return parts[0] == "__MACOSX" or any(part.startswith(".") for part in parts)


def unsupported(label: str, kind: str) -> str:
    """'report.docx: .docx files are not supported; skipped. Supported: .txt, ...'."""
    what = f"{shorten(kind, 20)} files are" if kind else "files without an extension are"
    return f"{label}: {what} not supported; skipped. Supported: {SUPPORTED_TEXT}."
