"""An httpx transport that vets the address at the moment it connects.

Checking a URL and then letting the HTTP client resolve the host again leaves
a window for DNS rebinding: the name can resolve to a public address for the
check and to 127.0.0.1 for the connection.  This transport closes that
window: its network backend resolves the host itself, runs the address guard
on every resolved address, and opens the TCP connection to one of exactly
those vetted addresses.  TLS still verifies the certificate against (and
sends SNI for) the original host name, because the HTTP layer starts TLS on
the returned stream with the URL's host.
"""

from __future__ import annotations

import typing

import httpcore
import httpx

from .address_guard import Resolver, check_host


class GuardedNetworkBackend(httpcore.NetworkBackend):
    """Connects only to addresses that pass the address guard."""

    def __init__(self, *, allow_loopback: bool, resolver: Resolver | None) -> None:
        self._inner = httpcore.SyncBackend()
        self._allow_loopback = allow_loopback
        self._resolver = resolver

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: typing.Iterable[typing.Any] | None = None,
    ) -> httpcore.NetworkStream:
        """Resolve and vet ``host``, then connect to the first vetted address that answers."""
        addresses = check_host(host, allow_loopback=self._allow_loopback, resolver=self._resolver)
        last_error: Exception | None = None
        for address in addresses:
            try:
                return self._inner.connect_tcp(
                    str(address), port, timeout=timeout, local_address=local_address, socket_options=socket_options
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                last_error = exc
        raise last_error or httpcore.ConnectError(f"no address to connect to for {host}")

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: typing.Iterable[typing.Any] | None = None,
    ) -> httpcore.NetworkStream:
        """Unix sockets are local resources and never allowed."""
        raise httpcore.ConnectError("unix sockets are not allowed")

    def sleep(self, seconds: float) -> None:
        """Delegate to the standard backend."""
        self._inner.sleep(seconds)


class GuardedTransport(httpx.HTTPTransport):
    """HTTP/1.1 transport without proxies whose connections go through the guard.

    httpx has no public hook for the network backend, so the connection pool
    built by the base class is replaced by one using :class:`GuardedNetworkBackend`.
    """

    def __init__(self, *, allow_loopback: bool = False, resolver: Resolver | None = None) -> None:
        super().__init__(trust_env=False, retries=0)
        self._pool = httpcore.ConnectionPool(
            ssl_context=httpx.create_ssl_context(trust_env=False),
            max_connections=10,
            max_keepalive_connections=5,
            keepalive_expiry=5.0,
            http1=True,
            http2=False,
            retries=0,
            network_backend=GuardedNetworkBackend(allow_loopback=allow_loopback, resolver=resolver),
        )
