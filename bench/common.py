"""Shared bench helpers: a throw-away database, a server process, and a small keep-alive load generator.

The load generator speaks HTTP/1.1 over raw asyncio streams so the client costs
far less than the server; every figure is measured on loopback only, bounded
in time and request count.
"""

from __future__ import annotations

import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg

ADMIN_URL = os.environ.get("BENCH_DATABASE_ADMIN_URL", "host=127.0.0.1 port=5432 user=postgres dbname=postgres connect_timeout=3")
ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def scratch_database(keep: bool = False) -> Iterator[str]:
    """A fresh database on the local PostgreSQL (or an embedded one), dropped afterwards unless `keep`."""
    try:
        with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
            conn.execute("SELECT 1")
        admin = ADMIN_URL
    except psycopg.Error:
        sys.path.insert(0, str(ROOT))
        from launchdir.database import start_embedded

        admin = start_embedded(Path(tempfile.mkdtemp(prefix="launchdir-bench-")))
    name = os.environ.get("BENCH_DATABASE_PREFIX", "launchdir_bench_") + uuid.uuid4().hex[:10]
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    params = psycopg.conninfo.conninfo_to_dict(admin)
    params["dbname"] = name
    try:
        yield psycopg.conninfo.make_conninfo(**params)
    finally:
        if not keep:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def copied_database(source: str) -> Iterator[str]:
    """A scratch copy of database `source` (CREATE DATABASE ... TEMPLATE), dropped afterwards.

    A kept history is copied for every run, so each run starts from the same
    log with every projection at position 0, and no run alters the original.
    No session may be connected to `source` while it is copied.
    """
    params = psycopg.conninfo.conninfo_to_dict(source)
    original = str(params["dbname"])
    name = f"{original[:40]}_copy_{uuid.uuid4().hex[:6]}"
    with psycopg.connect(source, autocommit=True) as conn:
        conn.execute("SELECT 1")
    params_admin = dict(params, dbname="postgres")
    admin = psycopg.conninfo.make_conninfo(**params_admin)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{original}"')
    try:
        yield psycopg.conninfo.make_conninfo(**dict(params, dbname=name))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server_process(database_url: str, extra_env: dict[str, str] | None = None, root: Path = ROOT,
                   pids: list[int] | None = None, workers: int = 1) -> Iterator[str]:
    """`launchdir serve` of the checkout at `root` in its own process (so client and server do not share a core).

    `pids`, when given, receives the server's process id (its memory is read from /proc).
    `workers` > 1 serves with `--workers N`: that process supervises, its children serve.
    """
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "LAUNCHDIR_PORT": str(port),
           "LAUNCHDIR_RATE_LIMITS": "off", "PYTHONPATH": str(root), **(extra_env or {})}
    command = [sys.executable, "-m", "launchdir.cli", "serve"] + (["--workers", str(workers)] if workers > 1 else [])
    proc = subprocess.Popen(command, env=env, cwd=root,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    if pids is not None:
        pids.append(proc.pid)
    try:
        deadline = time.monotonic() + 180  # a start on a busy shared machine (catch-up of a large history) is slow
        while True:
            try:
                if httpx.get(url + "/api/v1/_bare", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.terminate()  # before reading its stderr: a running server never closes it
                proc.wait(timeout=30)
                raise RuntimeError("server did not start: " + (proc.stderr.read() if proc.stderr else ""))
            time.sleep(0.2)
        yield url
    finally:
        stop(proc)


def stop(proc: subprocess.Popen[Any]) -> None:
    """SIGTERM (a clean stop), then SIGKILL after 15 s, and reap it."""
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextmanager
def projector_process(database_url: str, root: Path = ROOT, pids: list[int] | None = None) -> Iterator[None]:
    """`launchdir projector` of the checkout at `root`: the projections in a process of their own.

    For servers started with `LAUNCHDIR_PROJECTORS=external`, so no request
    waits on a web process's interpreter lock while the projections run.
    """
    env = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(root)}
    proc = subprocess.Popen([sys.executable, "-m", "launchdir.cli", "projector"], env=env, cwd=root,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if pids is not None:
        pids.append(proc.pid)
    try:
        yield
    finally:
        stop(proc)


@dataclass
class LoadResult:
    path: str
    requests: int
    errors: int
    seconds: float
    latencies_ms: list[float]

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def pct(self, p: float) -> float:
        if not self.latencies_ms:
            return float("nan")
        data = sorted(self.latencies_ms)
        return data[min(len(data) - 1, int(round(p / 100 * (len(data) - 1))))]

    def line(self) -> str:
        return (f"{self.path:<42} {self.rps:>9.0f} req/s   p50 {self.pct(50):6.2f} ms   p95 {self.pct(95):6.2f} ms   "
                f"p99 {self.pct(99):6.2f} ms   n={self.requests} errors={self.errors}")


async def _connection(host: str, port: int, request: Callable[[int], bytes], stop_at: float, max_requests: int,
                      latencies: list[float], counter: list[int]) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        while time.perf_counter() < stop_at and counter[0] < max_requests:
            counter[0] += 1
            payload = request(counter[0])
            started = time.perf_counter()
            writer.write(payload)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head[9:12])
            length = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:].strip())
            if length:
                await reader.readexactly(length)
            latencies.append((time.perf_counter() - started) * 1000)
            if status >= 400:
                counter[1] += 1
    finally:
        writer.close()


def load(url: str, path: str | Callable[[int], str], *, connections: int = 8, seconds: float = 5.0,
         max_requests: int = 200_000, headers: dict[str, str] | None = None) -> LoadResult:
    """Drive `path` with `connections` keep-alive connections for `seconds` (or `max_requests`).

    `path` may be a function of the request's number, so every request can ask something new.
    """
    host, port = url.split("//", 1)[1].split(":")
    extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    fixed = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n{extra}\r\n".encode() if isinstance(path, str) else b""

    def request(n: int) -> bytes:
        if fixed:
            return fixed
        assert callable(path)
        return f"GET {path(n)} HTTP/1.1\r\nHost: {host}:{port}\r\n{extra}\r\n".encode()

    latencies: list[float] = []
    counter = [0, 0]

    async def run() -> float:
        started = time.perf_counter()
        stop_at = started + seconds
        await asyncio.gather(*[_connection(host, int(port), request, stop_at, max_requests, latencies, counter)
                               for _ in range(connections)])
        return time.perf_counter() - started

    elapsed = asyncio.run(run())
    label = path if isinstance(path, str) else "(a new path per request)"
    return LoadResult(label, len(latencies), counter[1], elapsed, latencies)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


# ---------------------------------------------------------------- a server process one can watch (soak)


@dataclass
class ServerProcess:
    """A running `launchdir serve`: its URL, its process id (memory and CPU are read from /proc) and its log."""

    url: str
    pid: int
    log: Path

    def rss_bytes(self) -> int:
        """Resident memory of the server process now (VmRSS of /proc/<pid>/status)."""
        return process_rss(self.pid)

    def cpu_seconds(self) -> float:
        """User plus system CPU time the server process has used so far."""
        return process_cpu_seconds(self.pid)

    def log_tail(self, lines: int = 20) -> str:
        text = self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


def process_rss(pid: int) -> int:
    """Resident set size of a process in bytes, from /proc/<pid>/status (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii", errors="replace").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def children(pid: int) -> list[int]:
    """Process ids whose parent is `pid` (the worker processes of a `serve --workers N`), from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text(encoding="ascii", errors="replace")
            except OSError:
                continue  # ended while we looked
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def process_cpu_seconds(pid: int) -> float:
    """utime + stime of a process in seconds, from /proc/<pid>/stat (Linux)."""
    stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    fields = stat[stat.rindex(")") + 2:].split()  # the command name may hold spaces; fields after it are fixed
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def database_cpu_seconds(database_url: str) -> float:
    """CPU seconds (utime + stime) of the PostgreSQL processes connected to `database_url`'s database, from /proc.

    The bench's PostgreSQL runs on this machine. A backend that ends between two readings is not counted, so read
    this around a load whose connections stay open (a server's pool).
    """
    name = psycopg.conninfo.conninfo_to_dict(database_url)["dbname"]
    with psycopg.connect(database_url, autocommit=True) as conn:
        found = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                             (name,)).fetchall()
    total = 0.0
    for (pid,) in found:
        try:
            total += process_cpu_seconds(int(pid))
        except OSError:
            pass  # ended while we looked
    return total


@dataclass
class CpuSplit:
    """Where the CPU of a load went: the server's processes, its PostgreSQL backends, this client."""

    server: float
    database: float
    client: float

    @classmethod
    def read(cls, server_pid: int, database_url: str) -> CpuSplit:
        server = sum(process_cpu_seconds(p) for p in [server_pid, *children(server_pid)])
        return cls(server, database_cpu_seconds(database_url), time.process_time())

    def per_request(self, after: CpuSplit, requests: int) -> CpuSplit:
        """`after - self` divided by the requests, in ms."""
        n = max(requests, 1) / 1000
        return CpuSplit((after.server - self.server) / n, (after.database - self.database) / n,
                        (after.client - self.client) / n)

    def line(self) -> str:
        return f"server {self.server:.2f} ms, PostgreSQL {self.database:.2f} ms, client {self.client:.2f} ms"


@contextmanager
def watched_server(database_url: str, extra_env: dict[str, str] | None = None) -> Iterator[ServerProcess]:
    """Like `server_process`, but yields the process too, and logs to a file.

    A long run must never block on a full stderr pipe, so the server's output
    goes to a temporary file, whose tail is shown when start-up fails.
    """
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "LAUNCHDIR_PORT": str(port),
           "LAUNCHDIR_RATE_LIMITS": "off", "PYTHONPATH": str(ROOT), **(extra_env or {})}
    log = Path(tempfile.mkstemp(prefix="launchdir-bench-server-", suffix=".log")[1])
    with log.open("w", encoding="utf-8") as out:
        proc = subprocess.Popen([sys.executable, "-m", "launchdir.cli", "serve"], env=env, cwd=ROOT,
                                stdout=out, stderr=subprocess.STDOUT, text=True)
    server = ServerProcess(f"http://127.0.0.1:{port}", proc.pid, log)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(server.url + "/api/v1/_bare", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("server did not start:\n" + server.log_tail())
            time.sleep(0.2)
        yield server
    finally:
        stop(proc)
        log.unlink(missing_ok=True)


def machine_cpu_times() -> tuple[float, float]:
    """(busy, total) CPU time of the whole machine in seconds, from /proc/stat: how loaded the box is."""
    values = [int(v) for v in Path("/proc/stat").read_text(encoding="ascii").splitlines()[0].split()[1:9]]
    tick = os.sysconf("SC_CLK_TCK")
    idle = values[3] + values[4]  # idle + iowait
    return (sum(values) - idle) / tick, sum(values) / tick


# ---------------------------------------------------------------- a light keep-alive client for mixed requests


@dataclass
class Reply:
    """One HTTP answer as the raw client read it (header names in lower case)."""

    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class KeepAlivePool:
    """HTTP/1.1 keep-alive connections to one loopback server over raw asyncio streams.

    Any method, headers and body, at most `size` connections; a request waits
    for a free one. Much cheaper per request than a full client library, so on
    a small machine the load generator leaves the cores to the server.
    Connections idle longer than `max_idle` seconds are closed rather than
    reused (servers close idle keep-alive connections, uvicorn after 5 s), and a
    reused connection the server closed before answering is retried once on a
    new one, as HTTP clients do.
    """

    def __init__(self, url: str, size: int = 64, timeout: float = 30.0, max_idle: float = 3.0):
        host, port = url.split("//", 1)[1].split("/", 1)[0].split(":")
        self.host, self.port, self.timeout, self.max_idle = host, int(port), timeout, max_idle
        self._slots = asyncio.Semaphore(size)
        self._idle: list[tuple[float, asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: bytes | None = None) -> Reply:
        async with self._slots:
            reused = self._reusable()
            try:
                return await self._on(reused or await asyncio.open_connection(self.host, self.port),
                                      method, path, headers or {}, body)
            except (asyncio.IncompleteReadError, ConnectionResetError, BrokenPipeError) as exc:
                if reused is None or (isinstance(exc, asyncio.IncompleteReadError) and exc.partial):
                    raise
            fresh = await asyncio.open_connection(self.host, self.port)
            return await self._on(fresh, method, path, headers or {}, body)

    def _reusable(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        while self._idle:
            since, reader, writer = self._idle.pop()
            if time.monotonic() - since < self.max_idle:
                return reader, writer
            writer.close()
        return None

    async def _on(self, conn: tuple[asyncio.StreamReader, asyncio.StreamWriter], method: str, path: str,
                  headers: dict[str, str], body: bytes | None) -> Reply:
        try:
            reply, reusable = await asyncio.wait_for(self._exchange(conn, method, path, headers, body), self.timeout)
        except BaseException:
            conn[1].close()
            raise
        if reusable:
            self._idle.append((time.monotonic(), *conn))
        else:
            conn[1].close()
        return reply

    async def _exchange(self, conn: tuple[asyncio.StreamReader, asyncio.StreamWriter], method: str, path: str,
                        headers: dict[str, str], body: bytes | None) -> tuple[Reply, bool]:
        reader, writer = conn
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
        head += "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        if body is not None:
            head += f"Content-Length: {len(body)}\r\n"
        writer.write(head.encode("latin-1") + b"\r\n" + (body or b""))
        raw = await reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        got = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
        reusable = got.get("connection", "").lower() != "close"
        if got.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                chunks.append(await reader.readexactly(size))
                await reader.readexactly(2)
            while await reader.readuntil(b"\r\n") != b"\r\n":  # trailer fields, if any
                pass
            data = b"".join(chunks)
        elif "content-length" in got:
            data = await reader.readexactly(int(got["content-length"]))
        elif status in (204, 304) or 100 <= status < 200 or method == "HEAD":
            data = b""
        else:  # no length: the body ends with the connection
            data, reusable = await reader.read(), False
        return Reply(status, got, data), reusable

    async def close(self) -> None:
        while self._idle:
            self._idle.pop()[2].close()


def account_with_key(c: Any, meta: Any, prefix: str, scopes: list[str]) -> tuple[str, str]:
    """A verified account made through the commands and an API key of it: (account id, key)."""
    from commands import account as account_cmd
    from commands import apikeys as apikeys_cmd

    account = account_cmd.register_account(c.store, account_cmd.RegisterAccount(
        account_id=uuid.uuid4(), email=f"{prefix}-{uuid.uuid4().hex[:8]}@example.com", password=None, verified=True),
        meta, None).account_id
    assert account is not None
    key = apikeys_cmd.create_api_key(c.store, apikeys_cmd.CreateApiKey(
        account_id=uuid.UUID(account), name="bench", scopes=scopes), meta, c.services.timezone).key  # type: ignore[arg-type]
    return account, key
