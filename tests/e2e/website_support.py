"""A launchdir server with the demo directory loaded, for the website tests (optionally mailing over SMTP)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.conftest import RunningServer, free_port
from tests.conftest import test_settings as settings_for

EXAMPLE_HOSTS = ("example.com",)  # demo logos and websites: never fetched by the browser in tests


@contextmanager
def demo_server(databases: Any, **overrides: object) -> Iterator[RunningServer]:
    from launchdir.bootstrap import bootstrap, ensure_catalog
    from launchdir.demo import load_demo

    port = free_port()
    c = bootstrap(settings_for(databases.create(), port=port, **overrides))
    ensure_catalog(c)
    load_demo(c)
    try:
        with RunningServer(c, port) as running:
            yield running
    finally:
        c.close()


def offline(context: Any) -> None:
    """Abort requests to the demo's example.com hosts (logos), so pages never wait on the outside world."""
    context.route("**/*", lambda route: route.abort() if any(h in route.request.url for h in EXAMPLE_HOSTS)
                  else route.continue_())
