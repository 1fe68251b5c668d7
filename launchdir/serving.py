"""The one uvicorn configuration, used by `launchdir serve` and by the test servers alike.

Forwarded headers (`X-Forwarded-For`, `X-Forwarded-Proto`) decide the client
address that rate limits and sign-in throttles count against, so they are
believed only from the proxies named in `LAUNCHDIR_TRUSTED_PROXIES`. With none
named (the default) they are ignored and the socket's peer address counts,
even on loopback: uvicorn's own default would trust 127.0.0.1, letting anyone
who reaches the server through a local port forward pick any address.
"""

from __future__ import annotations

from typing import Any

import uvicorn

from launchdir.settings import Settings


def uvicorn_config(app: Any, settings: Settings, *, log_level: str = "info") -> uvicorn.Config:
    """How `app` is served on `settings.host:settings.port`."""
    trusted = [p for p in settings.trusted_proxies if p]
    return uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level=log_level,
        access_log=False,
        lifespan="on",
        proxy_headers=bool(trusted),
        forwarded_allow_ips=",".join(trusted) if trusted else "",
    )
