"""The one uvicorn configuration, used by `launchdir serve` and by the test servers alike.

Forwarded headers (`X-Forwarded-For`, `X-Forwarded-Proto`) decide the client
address that rate limits and sign-in throttles count against, so they are
believed only from the proxies named in `LAUNCHDIR_TRUSTED_PROXIES`. With none
named (the default) they are ignored and the socket's peer address counts,
even on loopback: uvicorn's own default would trust 127.0.0.1, letting anyone
who reaches the server through a local port forward pick any address.

An idle keep-alive connection stays open `LAUNCHDIR_KEEP_ALIVE_SECONDS` (75 s),
longer than its clients keep it: with uvicorn's 5 s, the same as httpx's idle
expiry, a client could send a request on a connection in the instant the server
closed it, and that request failed with the connection closed under it.
"""

from __future__ import annotations

import os
from typing import Any

import uvicorn
from uvicorn.supervisors import Multiprocess

from launchdir.settings import Settings

PROCESS_APP = "launchdir.process_app:create"  # what each worker process of `serve --workers N` imports and calls


def uvicorn_config(app: Any, settings: Settings, *, log_level: str = "info", workers: int = 1) -> uvicorn.Config:
    """How `app` is served on `settings.host:settings.port` (with `workers` > 1, `app` is the factory's import string)."""
    trusted = [p for p in settings.trusted_proxies if p]
    return uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        workers=workers,
        factory=workers > 1,
        log_level=log_level,
        access_log=False,
        lifespan="on",
        proxy_headers=bool(trusted),
        forwarded_allow_ips=",".join(trusted) if trusted else "",
        timeout_keep_alive=settings.keep_alive_seconds,
    )


def serve_processes(settings: Settings, workers: int) -> None:
    """Serve with `workers` processes sharing one listening socket, until SIGTERM or SIGINT.

    uvicorn's supervisor binds the port here and starts the worker processes
    (spawned, so each builds its own container from the environment: its own
    pools, runtime and caches); it restarts one that dies. Inside them, the
    projection leases (`projections/leases.py`) make exactly one process run
    each projection, and the others learn every move by `NOTIFY` and drop
    their cached answers. Host and port go to the workers through the
    environment, so their `base_url` is the one this process announced.
    """
    os.environ["LAUNCHDIR_HOST"] = settings.host
    os.environ["LAUNCHDIR_PORT"] = str(settings.port)
    config = uvicorn_config(PROCESS_APP, settings, workers=workers)
    Multiprocess(config, sockets=[config.bind_socket()]).run()
