"""Where Open Book keeps what outlives a process: saved datasets and runs, cached chunk vectors.

    data_dir()            -> Path("~/.cache/openbook") by default, created on first use
    OPENBOOK_DATA_DIR=/srv/openbook   a folder of your choice
    OPENBOOK_DATA_DIR=off             nothing is written to disk (everything stays in memory)

`switch_to_wal` is the one SQLite detail both files in it (the store's, the vector cache's) need when two
processes create them at once.

Left out on purpose: any clean-up policy. Deleting the folder is always safe: what is in it is
rebuilt (vectors) or lost on purpose (saved runs).
"""
from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

ENV = "OPENBOOK_DATA_DIR"
OFF = ("", "off", "none", "0", "false")
DEFAULT = Path("~/.cache/openbook")


def data_dir(env=None) -> Path | None:
    """The data folder (created if missing), or None when switched off. ValueError if it cannot be used."""
    env = os.environ if env is None else env
    raw = env.get(ENV)
    if raw is not None and raw.strip().lower() in OFF:
        return None
    path = Path(raw).expanduser() if raw is not None else DEFAULT.expanduser()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"The data folder {str(path)!r} ({ENV}) cannot be created: {e.strerror or e}. "
                         f"Set {ENV} to a writable folder, or to 'off' to keep nothing on disk.") from None
    return path


def switch_to_wal(con, seconds: float) -> None:
    """Switch a new SQLite file to WAL. SQLite answers 'database is locked' at once, without waiting, while another
    process creates the same file (a journal mode is changed only with the file to itself): wait as a writer does,
    up to `seconds`, then let the error through."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            con.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)
