"""Waiting for a server to show something, for the end-to-end tests that run several processes."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx


def until(check: Callable[[], Any], timeout: float, what: str) -> Any:
    """Poll `check` until it returns something truthy, for at most `timeout` seconds (a refused or broken
    connection counts as not yet)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            found = check()
        except httpx.HTTPError:
            found = None
        if found:
            return found
        assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
        time.sleep(0.05)
