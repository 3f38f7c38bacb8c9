"""Zip members judged from their header alone, before anything is decompressed: unsafe paths, links, zips in zips,
unsupported kinds, passwords, sizes over the limit and zip bombs.

    member_problem(ZipInfo("../evil.txt"), "../evil.txt (in a.zip)", Limits())
        -> "../evil.txt (in a.zip) has an unsafe path (it points outside the archive); skipped."

Reading stays in memory (`ingest` reads at most one byte over the limit of each member, whatever the header says).

Left out on purpose: password-protected zips, zips inside zips and symbolic links (reported and skipped).
"""
from __future__ import annotations

import re
import stat
import zipfile

from rag_core.data.files import SUPPORTED, extension, unsupported
from rag_core.data.limits import MB, Limits, too_big

_RATIO_FREE_BYTES = 1 * MB     # zip members up to this size skip the ratio check (repetitive text compresses well)
_DRIVE = re.compile(r"^[A-Za-z]:")


def member_problem(member: zipfile.ZipInfo, label: str, limits: Limits) -> str | None:
    """Why a zip member is skipped, from its header alone, or None to read it."""
    kind = extension(member.filename)
    if unsafe(member.filename):
        return f"{label} has an unsafe path (it points outside the archive); skipped."
    if stat.S_ISLNK(member.external_attr >> 16):   # the Unix mode: its content is the link's target, not a file
        return f"{label} is a symbolic link; skipped (links are not followed)."
    if kind == ".zip":
        return f"{label} is a zip inside a zip: zips are opened one level deep only; unzip it and upload its files."
    if kind not in SUPPORTED:
        return unsupported(label, kind)
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


def unsafe(path: str) -> bool:
    """'../x', '/etc/x', 'C:/x', 'a/../../x' -> True: a path that points outside the archive."""
    path = path.replace("\\", "/")
    return path.startswith("/") or bool(_DRIVE.match(path)) or ".." in path.split("/")
