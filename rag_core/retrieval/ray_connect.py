"""Connecting to Ray: the address checked (host:port, no password), a head that answers proved within CONNECT_S
before Ray is imported, Ray imported with its usage statistics off, its session files' folder, its noise muted.

    parse_address("10.0.0.5:6379")     # ("10.0.0.5", 6379); ValueError saying how to write it otherwise
    probe("10.0.0.5:6379")             # ValueError in one sentence unless Ray's gRPC answers there
    import_ray()                       # the ray module, or ValueError with how to install it

Left out on purpose: what runs on the cluster (retrieval.ray_encoder: the encoder's actors; evaluation.sweep) and
one session per server (retrieval.ray_sessions).
"""
from __future__ import annotations

import contextlib
import os
import re
import socket
import tempfile
from pathlib import Path

from rag_core.text.credentials import mask_secrets

ADDRESS_ENV = "OPENBOOK_RAY_ADDRESS"
INSTALL = "pip install -r requirements-ray.txt (or `make cluster`)"
CONNECT_S = 5.0                      # to reach an address and hear Ray's gRPC greet us
_H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"   # + empty SETTINGS


def import_ray():
    """The ray module, with its usage statistics off; ValueError saying how to install it when missing."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    try:
        import ray
    except ImportError:
        raise ValueError(f"Ray is not installed in this environment: {INSTALL}.") from None
    return ray


def parse_address(address: str) -> tuple[str, int]:
    """(host, port) of "host:port" (an IPv6 host in brackets); ValueError saying how to give it. Nothing before an
    "@" is ever repeated: a Ray head takes no user or password, and whatever was typed there may be one."""
    text = address.strip()
    if "@" in text:
        example = re.split(r"[/?#;&\s]", text.rpartition("@")[2])[0][:60]       # host:port, never a query
        raise ValueError(f"A Ray address takes no user or password (a Ray head asks for none; it checks a token): "
                         f"give host:port, e.g. {example or '10.0.0.5:6379'}.")
    host, _, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    ok = (host and "://" not in text and port.isascii() and port.isdigit() and len(port) <= 5
          and 0 < int(port) < 65536 and len(host) <= 253 and host.isprintable() and " " not in host)
    try:
        ok = ok and bool(host.encode("idna"))
    except UnicodeError:
        ok = False
    if not ok:
        shown = text[:60] + ("…" if len(text) > 60 else "")
        raise ValueError(mask_secrets(f"The Ray address {shown!r} is not host:port: give e.g. 10.0.0.5:6379, the head "
                                      "node's GCS port (a port from 1 to 65535; Ray Client's ray:// addresses are not "
                                      "supported).", text))
    return host, int(port)


def probe(address: str, timeout: float = CONNECT_S) -> None:
    """ValueError in one sentence unless a gRPC server (as Ray's head is) answers at host:port within `timeout`."""
    host, port = parse_address(address)
    address = address.strip()
    hint = "start one with `ray start --head` (or `make cluster`) or check the address"
    try:
        s = socket.create_connection((host, port), timeout=timeout)
    except OSError as e:
        raise ValueError(f"No Ray cluster answers at {address} ({e.strerror or e or 'timed out'} within "
                         f"{timeout:g} s): {hint}.") from None
    with s:
        try:
            s.settimeout(timeout)
            s.sendall(_H2_PREFACE)
            head = s.recv(9)
        except OSError:
            head = b""
    if len(head) < 4 or head[3] != 0x4:          # an HTTP/2 server's first frame is SETTINGS (type 4)
        raise ValueError(f"What answers at {address} is not a Ray cluster (no gRPC greeting within {timeout:g} s): "
                         f"{hint}.")


def has_token() -> bool:
    """Whether this machine has a Ray cluster token (RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token)."""
    return bool(os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH")
                or (Path.home() / ".ray" / "auth_token").is_file())


@contextlib.contextmanager
def quiet_stderr():
    """File descriptor 2 sent to /dev/null for a while: Ray's C++ client writes a line a second while it retries."""
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def log_dir() -> str:
    """Where a local Ray keeps its session files: the data folder's "ray", or the temporary folder when the data
    folder is off or its path is too long for Ray's Unix sockets (about 107 bytes with the session's names)."""
    from rag_core.datadir import data_dir
    try:
        folder = data_dir()
    except ValueError:
        folder = None
    if folder is not None and len(str(folder / "ray")) <= 48:
        return str(folder / "ray")
    return str(Path(tempfile.gettempdir()) / "openbook-ray")
