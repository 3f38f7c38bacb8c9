"""How much one reading may take in: `Limits` on one file, on everything read at once, on the number of files, on a
zip member's expansion, and on the PDF pages and seconds spent (per file and in all), set in code or from
OPENBOOK_MAX_* environment variables. `budget.Budget` counts pages and seconds against them while reading.

    Limits.from_env({"OPENBOOK_MAX_FILE_MB": "5"}).max_file_bytes -> 5_000_000

A bad setting is a ValueError naming the variable, the value as given and what to write instead.

Left out on purpose: per-format limits beyond PDF pages (the text formats are linear in their bytes).
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, fields

MB = 1_000_000
_ENV = {"OPENBOOK_MAX_FILE_MB": ("max_file_bytes", MB, "megabytes", "20"),   # variable -> field, unit, what, e.g.
        "OPENBOOK_MAX_TOTAL_MB": ("max_total_bytes", MB, "megabytes", "100"),
        "OPENBOOK_MAX_FILES": ("max_files", 1, "files", "2000"),
        "OPENBOOK_MAX_ZIP_RATIO": ("max_zip_ratio", 1, "times", "100"),
        "OPENBOOK_MAX_PDF_PAGES": ("max_pdf_pages", 1, "pages", "2000"),
        "OPENBOOK_MAX_PAGES": ("max_pages", 1, "pages", "20000"),
        "OPENBOOK_MAX_FILE_SECONDS": ("max_file_seconds", 1, "seconds", "60"),
        "OPENBOOK_MAX_SECONDS": ("max_seconds", 1, "seconds", "180")}
_NUMBERS = ("max_zip_ratio", "max_file_seconds", "max_seconds")   # fields that take any number, not a whole one


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 20 * MB    # one file or zip member, uncompressed; a larger one is skipped
    max_total_bytes: int = 100 * MB  # all documents read in one go, uncompressed; reading stops there
    max_files: int = 2000            # files read in one go, zip members included; reading stops there
    max_zip_ratio: float = 100       # uncompressed/compressed size above which a zip member (over 1 MB) is a bomb
    max_pdf_pages: int = 2000        # pages read of one PDF (about 1 s of blank pages); its first pages are kept
    max_pages: int = 20_000          # PDF pages read in one go; reading stops after the file that reaches it
    max_file_seconds: float = 60     # seconds spent reading one PDF's pages; its pages read so far are kept
    max_seconds: float = 180         # seconds spent on one reading; it stops after the file that reaches it

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            kinds = (int, float) if f.name in _NUMBERS else (int,)
            if isinstance(value, bool) or not isinstance(value, kinds) or value <= 0:
                raise ValueError(f"Limits.{f.name} must be a positive {'number' if len(kinds) > 1 else 'whole number'}, "
                                 f"got {value!r}.")

    @classmethod
    def from_env(cls, env=None) -> "Limits":
        """Limits from OPENBOOK_MAX_FILE_MB, _TOTAL_MB, _FILES, _ZIP_RATIO, _PDF_PAGES, _PAGES, _FILE_SECONDS, _SECONDS.

        'abc' -> "OPENBOOK_MAX_FILE_MB='abc' is not a number: set it to a number of megabytes, e.g. 20, ...";
        '0.0000001' (less than one byte) -> "... is below the smallest allowed, 0.000001 (one byte): ...".
        """
        env = os.environ if env is None else env
        values = {}
        for var, (field, unit, what, example) in _ENV.items():
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
            value = number if field in _NUMBERS else int(number * unit)
            if field not in _NUMBERS and value < 1:         # 0.0000001 MB is less than one byte
                smallest = format(1 / unit, "f").rstrip("0").rstrip(".")
                raise ValueError(f"{var}={given!r} is below the smallest allowed, {smallest} "
                                 f"({'one byte' if unit > 1 else 'one ' + what.rstrip('s')}): {fix}.")
            values[field] = value
        return cls(**values)


def too_big(label: str, limits: Limits) -> str:
    """'big.txt is over the 20 MB limit for one file; skipped. Raise Limits(max_file_bytes=...) to read it.'"""
    return (f"{label} is over the {size_text(limits.max_file_bytes)} limit for one file; skipped. "
            "Raise Limits(max_file_bytes=...) to read it.")


def size_text(n: float) -> str:
    """20_000_000 -> '20 MB'; 1000 -> '1 KB'; 800 -> '800 bytes'."""
    if n >= MB:
        return f"{n / MB:g} MB"
    return f"{n / 1000:g} KB" if n >= 1000 else f"{n:g} bytes"
