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
    name = "launchdir_bench_" + uuid.uuid4().hex[:10]
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server_process(database_url: str, extra_env: dict[str, str] | None = None) -> Iterator[str]:
    """`launchdir serve` in its own process (so client and server do not share a core)."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "LAUNCHDIR_PORT": str(port),
           "LAUNCHDIR_RATE_LIMITS": "off", "PYTHONPATH": str(ROOT), **(extra_env or {})}
    proc = subprocess.Popen([sys.executable, "-m", "launchdir.cli", "serve"], env=env, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(url + "/api/v1/_bare", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("server did not start: " + (proc.stderr.read() if proc.stderr else ""))
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


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
