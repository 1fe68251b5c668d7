"""Browser fixture shared by the website tests: Debian's Chromium driven by Playwright."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

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
