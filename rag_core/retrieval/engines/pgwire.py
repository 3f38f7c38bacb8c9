"""What goes over the wire to PostgreSQL: vectors in pgvector's binary format, query literals, readable errors.

    b"".join(copy_stream(ids, statuses, vectors))    # COPY ... FROM STDIN (FORMAT BINARY), header to trailer
    literal(q, 1024)           # '{3:0.5,17:-0.25}/1024' (1-based indices, values that read back bit for bit)
    parse_rows(blobs, "sparse", 1024)                 # the binary values of fetched rows -> Vectors
    readable(error, url)       # EngineError: what happened, what to do; no secret of the URL (text.mask_secrets)
    psycopg.connect(url, **passfile_settings(url))    # libpq never reads a password file it would refuse

pgvector's binary formats (big-endian): sparsevec = int32 dim, int32 nnz, int32 0, int32 indices[nnz] (0-based,
ascending), float4 values[nnz] (none zero); vector = int16 dim, int16 0, float4 values[dim].

Left out on purpose: pgvector's Python package (two small formats do not need it), halfvec and bit.
"""
from __future__ import annotations

import os
import re
import stat
import struct
from typing import Iterator

import numpy as np

from rag_core.retrieval.engines.base import EngineError
from rag_core.retrieval.engines.spaces import Query, Vectors
from rag_core.text.credentials import mask_secrets

COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)
COPY_TRAILER = struct.pack(">h", -1)
STILL_WORKS = "The in-process engine still works (engine memory)."


def copy_stream(ids: np.ndarray, statuses: list[str], v: Vectors, block: int = 1 << 20) -> Iterator[bytes]:
    """Binary COPY data for rows (chunk_id int4, status text, embedding), about `block` bytes at a time."""
    yield COPY_HEADER
    status_field = {s: struct.pack(">i", len(b)) + b for s in set(statuses) for b in [s.encode()]}
    row_head = struct.Struct(">hii")                                   # 3 fields, then the int4 id (length 4)
    out, size = [], 0
    if v.kind == "sparse":
        cols, vals = v.cols.astype(">i4").tobytes(), v.vals.astype(">f4").tobytes()
        vec_head = struct.Struct(">iiii")                              # field length, dim, nnz, unused
        bounds = (v.ptr * 4).tolist()
        for r, (i, s) in enumerate(zip(ids.tolist(), statuses)):
            a, b = bounds[r], bounds[r + 1]
            out += (row_head.pack(3, 4, i), status_field[s], vec_head.pack(12 + 2 * (b - a), v.dim, (b - a) // 4, 0),
                    cols[a:b], vals[a:b])
            size += 40 + 2 * (b - a)
            if size >= block:
                yield b"".join(out)
                out, size = [], 0
    else:
        vals = v.vals.astype(">f4").tobytes()
        width = 4 * v.dim
        vec_head = struct.pack(">ihh", 4 + width, v.dim, 0)
        for r, (i, s) in enumerate(zip(ids.tolist(), statuses)):
            out += (row_head.pack(3, 4, i), status_field[s], vec_head, vals[r * width:(r + 1) * width])
            size += 30 + width
            if size >= block:
                yield b"".join(out)
                out, size = [], 0
    out.append(COPY_TRAILER)
    yield b"".join(out)


def literal(q: Query, dim: int) -> str:
    """A question's vector as pgvector text. Each value (a float32 number, or a whole count) is written as its
    float64 repr, which strtof reads back as the same float32:
    Query([1, 3], [0.5, -0.25]), dim 4 -> '{2:0.5,4:-0.25}/4';  Query(None, [0, 0.5]) -> '[0.0,0.5]'."""
    if q.cols is not None:
        return "{" + ",".join(f"{i + 1}:{v!r}" for i, v in zip(q.cols.tolist(), q.vals.tolist())) + f"}}/{dim}"
    return "[" + ",".join(map(repr, q.vals.astype(np.float64).tolist())) + "]"


def parse_rows(blobs: list[bytes], kind: str, dim: int) -> Vectors:
    """Fetched binary values (sparsevec or vector) -> Vectors, in the order given."""
    if kind == "sparse":
        nnz = [struct.unpack_from(">i", b, 4)[0] for b in blobs]
        cols = [np.frombuffer(b, ">i4", n, 12) for b, n in zip(blobs, nnz)]
        vals = [np.frombuffer(b, ">f4", n, 12 + 4 * n) for b, n in zip(blobs, nnz)]
        ptr = np.zeros(len(blobs) + 1, dtype=np.int64)
        np.cumsum(nnz, out=ptr[1:])
        cat = (lambda xs, t: np.concatenate(xs).astype(t) if xs else np.zeros(0, t))
        return Vectors("sparse", dim, ptr, cat(cols, np.int32), cat(vals, np.float32))
    rows = np.array([np.frombuffer(b, ">f4", dim, 4) for b in blobs], dtype=np.float32).reshape(len(blobs), dim)
    return Vectors("dense", dim, np.arange(len(blobs) + 1, dtype=np.int64), np.zeros(0, np.int32), rows)


# ---- a password file libpq would refuse ----------------------------------------------------------
# libpq ignores a password file that others may read (or that is not a plain file), and says so itself on stderr
# ("WARNING: password file ... has group or world access"), next to our message: we find that file first, tell libpq
# to read none (a path that cannot exist, which it skips in silence) and say what to do in our own message.

def refused_passfile(url: str) -> tuple[str, str] | None:
    """(path, why) of the password file libpq would look in for `url` and refuse, or None (a password given, no
    such file, a file only its owner may read, or Windows, where libpq checks no permissions)."""
    from psycopg.conninfo import conninfo_to_dict
    try:
        params = conninfo_to_dict(url)
    except Exception:                       # a malformed URL: connecting says so
        return None
    if os.name == "nt" or params.get("password") or os.environ.get("PGPASSWORD"):
        return None
    path = str(params.get("passfile") or os.environ.get("PGPASSFILE") or os.path.expanduser("~/.pgpass"))
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if not stat.S_ISREG(mode):
        return path, "it is not a plain file"
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        return path, f"others may read it (mode {stat.S_IMODE(mode):o}): chmod 600 {path}"
    return None


def passfile_settings(url: str) -> dict:
    """Connection settings that keep libpq from reading (and warning about) a password file it would refuse."""
    return {"passfile": os.path.join(os.devnull, "not-read")} if refused_passfile(url) else {}


# ---- errors a person can act on -------------------------------------------------------------------

_KINDS = [   # (pattern in the driver's message, what to say); the first that matches wins
    (r"password authentication failed for user \"([^\"]*)\"",
     "rejected the password of user '{0}': check the user and password in the database URL."),
    (r"no password supplied|password is required",
     "asks for a password: put it in the database URL (postgresql://user:password@host/database)."),
    (r"role \"([^\"]*)\" does not exist", "has no user '{0}': fix the user in the database URL."),
    (r"database \"([^\"]*)\" does not exist",
     "has no database '{0}': create it (createdb {0}) or fix the database name in the URL."),
    (r"starting up|shutting down|in recovery mode|not yet accepting connections",
     "is starting up or shutting down: try again in a moment."),
    (r"could not translate host name|Name or service not known|failed to resolve host",
     "has a host name that does not resolve: fix the host in the database URL."),
    (r"timeout expired|timed out", "did not answer in time: is the host right and the server running?"),
    (r"Connection refused|No such file or directory|Is the server running|could not connect",
     "cannot be reached (nothing answers at that address): is the server running, and is the URL right?"),
    (r"server closed the connection|terminating connection|connection is lost|consuming input failed|"
     r"connection is closed|SSL SYSCALL|EOF detected|connection is bad",
     "dropped the connection, and reconnecting did not help: is the server running?"),
    (r"invalid (dsn|connection option|URI|integer value)|missing \"=\"|bad value for|end of string reached|"
     r"unterminated quoted string",
     "cannot be used: the database URL is malformed. Write it as postgresql://user:password@host:5432/database."),
]


def readable(e: BaseException, url: str) -> EngineError:
    """An EngineError from a driver error: the server as a masked URL, what happened, what to do."""
    raw = " ".join(str(e).split()) or type(e).__name__
    where = f"PostgreSQL at {mask_secrets(url, url)}"
    refused = refused_passfile(url)
    unread = f"(The password file {refused[0]} was not read: {refused[1]}.) " if refused else ""
    for pattern, say in _KINDS:
        m = re.search(pattern, raw, flags=re.I)
        if m:
            return EngineError(mask_secrets(f"{where} {say.format(*m.groups())} {unread}{STILL_WORKS}", url))
    return EngineError(mask_secrets(f"{where} failed: {raw[:400]}. {STILL_WORKS}", url))
