"""A launchdir server with the demo directory loaded, for the website tests (optionally mailing over SMTP)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.conftest import RunningServer, free_port
from tests.conftest import test_settings as settings_for

SHOTS = os.environ.get("SHOTS_DIR")  # a folder to keep each page's screenshots in while working on them
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


def at_both_widths(page: Any, url: str, name: str) -> None:
    """The page at 390 x 844 and 1440 x 900: no sideways scroll at either; axe-core clean at the last (screenshots
    of both in `SHOTS_DIR` when it is set)."""
    from tests.e2e import founder_support_listings as listings

    for width, height in ((390, 844), (1440, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(url)
        assert not page.evaluate("() => document.documentElement.scrollWidth > innerWidth"), \
            (url, width, listings.wider_than_the_screen(page)[:5])
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/{name}-{width}.png", full_page=True)
    assert listings.axe_violations(page) == [], url
