"""HTTP/1.1 over raw sockets for the bench's load: keep-alive connections that cost the client little.

The vote burst shares the machine's cores with the server and PostgreSQL, so
every millisecond of CPU its client spends on a vote is one the server cannot
use. A full client (cookie jars, connection pools, header models) spent about
2.5 ms of CPU per vote; these helpers write each request as bytes and read the
answer's head and `Content-Length` body, nothing more. Loopback only.
"""

from __future__ import annotations

import asyncio
import socket
import time
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit


class Closed(Exception):
    """The server closed the connection before a whole answer arrived (the request may not have been handled)."""


def _length(head: bytes) -> int:
    """The body's length from the head (every answer the bench reads has one; a chunked one is refused)."""
    for line in head.split(b"\r\n"):
        if line[:15].lower() == b"content-length:":
            return int(line[15:].strip())
        if line.lower().startswith(b"transfer-encoding:"):
            raise ValueError("a chunked answer: this reader expects a Content-Length")
    return 0


def cookie_header(cookies: dict[str, str]) -> str:
    return "; ".join(f"{name}={value}" for name, value in cookies.items())


def form_post(host: str, path: str, form: dict[str, str], cookie: str, accept: str = "application/json") -> bytes:
    body = urlencode(form).encode()
    return (f"POST {path} HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\nAccept: {accept}\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body


@dataclass
class AsyncConnections:
    """Keep-alive connections to one server, kept per owner (a person's browser has its own)."""

    url: str
    idle: dict[int, list[tuple[asyncio.StreamReader, asyncio.StreamWriter, float]]] = field(default_factory=dict)

    @property
    def host(self) -> str:
        return urlsplit(self.url).netloc

    async def send(self, owner: int, request: bytes) -> tuple[int, bytes, float]:
        """Send `request` on an idle connection of `owner` (or a new one): (status, body, idle seconds before).

        Raises `Closed` when the server closed the connection under the request.
        """
        parts = urlsplit(self.url)
        pool = self.idle.setdefault(owner, [])
        if pool:
            reader, writer, since = pool.pop()
            idle = time.perf_counter() - since
        else:
            reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
            idle = 0.0
        try:
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = _length(head)
            body = await reader.readexactly(length) if length else b""
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError) as exc:
            writer.close()
            raise Closed(type(exc).__name__) from exc
        pool.append((reader, writer, time.perf_counter()))
        return int(head[9:12]), body, idle

    def close(self) -> None:
        for pool in self.idle.values():
            for _, writer, _ in pool:
                writer.close()
        self.idle.clear()


class BlockingConnection:
    """One keep-alive connection read from a thread of its own (the board's reader)."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.host = parts.netloc
        self.sock = socket.create_connection((parts.hostname, parts.port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""

    def get(self, path: str) -> tuple[int, bytes]:
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\n\r\n".encode())
        while b"\r\n\r\n" not in self.buffer:
            self._more()
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        length = _length(head)
        while len(self.buffer) < length:
            self._more()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return int(head[9:12]), body

    def _more(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise Closed("end of stream")
        self.buffer += chunk

    def close(self) -> None:
        self.sock.close()
