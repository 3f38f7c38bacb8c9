"""Bytes to text, for .txt, .md, .jsonl and .csv files: UTF-8 first, then a reported guess, and binary refused.

    decode_text(b"caf\\xe9", "a.txt") -> ("café", "a.txt is not UTF-8; read it as cp1252 (Windows) instead — ...")

Left out on purpose: guessing encodings from statistics (chardet): a wrong guess that is reported is better than a
silent one, and cp1252 covers what Windows editors write.
"""
from __future__ import annotations

import codecs

_FALLBACKS = (("cp1252", "cp1252 (Windows)"), ("latin-1", "latin-1"))   # tried in order when not UTF-8
_BINARY_SHARE = 0.30           # more unreadable characters than this and a "text" file is binary


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
