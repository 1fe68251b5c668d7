"""A throwaway PostgreSQL primary and a streaming standby of it, made with the Debian PostgreSQL tools.

`initdb` makes the primary (wal_level=replica, replication trusted from
127.0.0.1), `pg_basebackup -R` copies it into a standby that streams from it,
each started with `pg_ctl` on a free 127.0.0.1 port with its socket in the
temporary directory. initdb refuses to run as root, so as root every tool runs
as the `postgres` user (`runuser`), which then owns the directory.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg

from tests.conftest import free_port

BIN = Path(os.environ.get("LAUNCHDIR_PG_BIN", "/usr/lib/postgresql/15/bin"))
TOOLS = ("initdb", "pg_ctl", "pg_basebackup", "postgres")


def missing_tools() -> str | None:
    """Why a streaming pair cannot be made here, or None when it can."""
    absent = [t for t in TOOLS if not (BIN / t).is_file()]
    if absent:
        return f"the PostgreSQL server tools are not installed ({', '.join(absent)} not in {BIN})"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root without a postgres user to run initdb as"
        if shutil.which("runuser") is None:
            return "running as root without runuser to run initdb as the postgres user"
    return None


@dataclass
class Pair:
    """Conninfo strings of a database on the primary and of the same database on its standby."""

    primary: str
    standby: str
    standby_log: Path  # every statement the standby runs, each line led by its client's application name

    def statements(self, application: str) -> list[str]:
        """The statements the standby ran for clients named `application`, with their parameters."""
        lines = self.standby_log.read_text(errors="replace").splitlines()
        return [line for line in lines if line.startswith(application + " ")]


def _run(*args: str) -> None:
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    done = subprocess.run([*prefix, *args], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed: {done.stdout}{done.stderr}")


def _conf(port: int, sockets: Path) -> str:
    return (f"\nport = {port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{sockets}'\n"
            "wal_level = replica\nmax_wal_senders = 4\nhot_standby = on\nfsync = off\n"
            "shared_buffers = 32MB\nmax_connections = 100\n")


def _append(path: Path, text: str) -> None:
    with path.open("a") as f:
        f.write(text)


def _until_connects(url: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with psycopg.connect(url, connect_timeout=2) as conn:
                conn.execute("SELECT 1")
            return
        except psycopg.Error:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@contextmanager
def streaming_pair(dbname: str, log_statements: bool = True) -> Iterator[Pair]:
    """A primary and its hot standby, both running, with database `dbname` on both; removed at the end.

    `log_statements`: the standby logs every statement (`Pair.statements`); off for benchmarks."""
    root = Path(tempfile.mkdtemp(prefix="launchdir-replica-"))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    primary, standby = root / "primary", root / "standby"
    p_port, s_port = free_port(), free_port()
    started: list[Path] = []
    try:
        _run(str(BIN / "initdb"), "-D", str(primary), "-U", "postgres", "--auth=trust", "-E", "UTF8",
             "--locale=C.UTF-8")
        _append(primary / "postgresql.conf", _conf(p_port, root))
        _append(primary / "pg_hba.conf", "\nhost replication all 127.0.0.1/32 trust\n")
        _run(str(BIN / "pg_ctl"), "-D", str(primary), "-l", str(root / "primary.log"), "-w", "start")
        started.append(primary)
        p_url = f"host=127.0.0.1 port={p_port} user=postgres"
        _until_connects(p_url + " dbname=postgres")
        with psycopg.connect(p_url + " dbname=postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{dbname}"')
        _run(str(BIN / "pg_basebackup"), "-h", "127.0.0.1", "-p", str(p_port), "-U", "postgres", "-D", str(standby),
             "-R", "-X", "stream", "-c", "fast")
        _append(standby / "postgresql.conf",  # the copy has the primary's settings: its own port, and a log of reads
                f"\nport = {s_port}\nlog_statement = '{'all' if log_statements else 'none'}'\n"
                "log_line_prefix = '%a '\n")
        _run(str(BIN / "pg_ctl"), "-D", str(standby), "-l", str(root / "standby.log"), "-w", "start")
        started.append(standby)
        s_url = f"host=127.0.0.1 port={s_port} user=postgres dbname={dbname}"
        _until_connects(s_url)
        yield Pair(primary=f"{p_url} dbname={dbname}", standby=s_url, standby_log=root / "standby.log")
    finally:
        for data in reversed(started):
            try:
                _run(str(BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
            except (RuntimeError, subprocess.TimeoutExpired):
                pass
        shutil.rmtree(root, ignore_errors=True)
