"""A private PostgreSQL server for tests and benchmarks: initdb in a temporary folder, loopback only.

    with PostgresServer() as pg:
        url = pg.new_database()          # postgresql://postgres@127.0.0.1:PORT/store_1

Debian's `postgresql` package provides the binaries (scripts/ensure_postgres.sh installs it).
The server listens on 127.0.0.1 and a socket in its own folder, trusts local connections, runs
as the `postgres` user when started by root (PostgreSQL refuses to run as root), and is stopped
by the pid this object started. Locale C.UTF-8: byte-order text comparison, as SQLite's.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server binaries on this machine (install Debian's postgresql package)."""


def server_binaries() -> Path:
    """The newest installed PostgreSQL `bin` folder holding initdb and postgres."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb and shutil.which("postgres"):
        return Path(initdb).parent
    raise PostgresUnavailable(
        "PostgreSQL server binaries not found: run scripts/ensure_postgres.sh (Debian package postgresql)"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One PostgreSQL cluster in a temporary folder, started on enter and stopped on exit."""

    def __init__(self, *, fsync: bool = False) -> None:
        self.bin = server_binaries()
        self.fsync = fsync  # off for tests: durability across an OS crash is not what they test
        self.port = 0
        self.folder: Path | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self._databases = 0

    def __enter__(self) -> PostgresServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """The maintenance database's URL (create stores with `new_database`)."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="blogs-pg-"))
        data = self.folder / "data"
        user = self._user()
        if user:
            os.chown(self.folder, user.pw_uid, user.pw_gid)
        initdb = [str(self.bin / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust"]
        subprocess.run(
            [*initdb, "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"],
            check=True,
            capture_output=True,
            **self._run_as(),  # type: ignore[call-overload]
        )
        self.port = _free_port()
        self._launch()

    @staticmethod
    def _user() -> pwd.struct_passwd | None:
        return pwd.getpwnam("postgres") if os.geteuid() == 0 else None

    def _run_as(self) -> dict[str, Any]:
        user = self._user()
        return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []} if user else {}

    def restart(self) -> None:
        """Stop the server (fast shutdown: every session is ended) and start it again on the same data
        and port, as an administrator's `pg_ctl restart -m fast` does."""
        assert self.process is not None and self.folder is not None
        os.kill(self.process.pid, signal.SIGINT)
        self.process.wait(timeout=60)
        self._launch()

    def _launch(self) -> None:
        assert self.folder is not None
        data = self.folder / "data"
        run_as = self._run_as()
        settings = {
            "listen_addresses": "127.0.0.1",
            "port": str(self.port),
            "unix_socket_directories": str(self.folder),
            "fsync": "on" if self.fsync else "off",
            "synchronous_commit": "on" if self.fsync else "off",
            "full_page_writes": "on" if self.fsync else "off",
            "max_connections": "200",
        }
        args = [str(self.bin / "postgres"), "-D", str(data)]
        for key, value in settings.items():
            args += ["-c", f"{key}={value}"]
        log = open(self.folder / "server.log", "ab")  # noqa: SIM115 -- kept open while the server runs
        self.process = subprocess.Popen(args, stdout=log, stderr=log, **run_as)  # type: ignore[call-overload]
        log.close()
        self._wait_ready()

    def _wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"PostgreSQL exited at start: {self.log_tail()}")
            try:
                with psycopg.connect(self.url, connect_timeout=2):
                    return
            except psycopg.OperationalError as exc:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"PostgreSQL not ready in {timeout:.0f}s: {self.log_tail()}") from exc
                time.sleep(0.1)

    def log_tail(self, lines: int = 20) -> str:
        if self.folder is None or not (self.folder / "server.log").exists():
            return ""
        return "\n".join((self.folder / "server.log").read_text(errors="replace").splitlines()[-lines:])

    def new_database(self, name: str | None = None) -> str:
        """Create an empty database and return its URL."""
        self._databases += 1
        name = name or f"store_{self._databases}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0 ENCODING UTF8')
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        """Fast shutdown (SIGINT) of the server this object started, then remove its folder."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.process = None
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
