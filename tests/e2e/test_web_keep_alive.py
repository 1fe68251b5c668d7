"""Idle keep-alive connections: the client, not the server, gives them up.

With uvicorn's default (5 s, the same as httpx's idle expiry) a client could send
a request on an idle connection in the instant the server closed it, and the
request failed with `ReadError` or `RemoteProtocolError` (docs/performance.md,
"Voting burst"). The server now keeps an idle connection `LAUNCHDIR_KEEP_ALIVE_SECONDS`.
"""

from __future__ import annotations

import http.client
import time
from urllib.parse import urlsplit

from launchdir.serving import uvicorn_config
from launchdir.settings import KEEP_ALIVE_SECONDS, Settings
from tests.conftest import RunningServer

HTTPX_IDLE_EXPIRY = 5.0  # httpx's default keepalive_expiry, and uvicorn's own default timeout_keep_alive


def test_the_served_keep_alive_outlasts_the_clients_and_proxies_in_front() -> None:
    assert Settings().keep_alive_seconds == KEEP_ALIVE_SECONDS > 60  # nginx and load balancers: 60 s idle
    assert uvicorn_config(object(), Settings()).timeout_keep_alive == KEEP_ALIVE_SECONDS
    assert Settings.from_env({"LAUNCHDIR_KEEP_ALIVE_SECONDS": "120"}).keep_alive_seconds == 120
    assert uvicorn_config(object(), Settings(keep_alive_seconds=120)).timeout_keep_alive == 120


def test_a_connection_idle_past_the_clients_expiry_still_answers(server: RunningServer) -> None:
    url = urlsplit(server.url)
    conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=10)
    try:
        conn.request("GET", "/api/v1/_bare")
        first = conn.getresponse()
        first.read()
        sock = conn.sock
        time.sleep(HTTPX_IDLE_EXPIRY + 0.5)  # idle longer than the server used to keep it
        conn.request("GET", "/api/v1/_bare")  # on the same socket: http.client does not reconnect an open one
        second = conn.getresponse()
        second.read()
        assert (first.status, second.status) == (200, 200)
        assert conn.sock is sock
    finally:
        conn.close()
