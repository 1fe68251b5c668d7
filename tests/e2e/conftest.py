"""Fixtures shared by the end-to-end tests: a running server per module, its API client, and Debian's
Chromium driven by Playwright for the website tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import Databases, RunningServer
from tests.e2e.submission_support import live_server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """A headless Chromium for one test module; skips when the browser cannot start on this machine."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed")
    manager = sync_playwright().start()
    try:
        browser = manager.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    except Exception as exc:  # noqa: BLE001 - any launch failure means no browser on this machine
        manager.stop()
        pytest.skip(f"chromium cannot be launched: {exc}")
    yield browser
    browser.close()
    manager.stop()


@pytest.fixture(scope="module")
def live(databases: Databases) -> Iterator[RunningServer]:
    """launchdir for one test module (crawling of 127.0.0.1 allowed, rate limits off); a module
    that needs other settings defines its own ``live``."""
    yield from live_server(databases)


@pytest.fixture(scope="module")
def http(live: RunningServer) -> Iterator[httpx.Client]:
    """A client of that server's REST API."""
    with httpx.Client(base_url=live.url + "/api/v1", timeout=15) as client:
        yield client
