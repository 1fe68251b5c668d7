"""The application of one worker process of `launchdir serve --workers N` (uvicorn imports and calls `create`).

A worker process is spawned, not forked: nothing of the supervisor's
container (pools, threads, listeners) is shared. Each worker wires its own
container from the same environment; its projection runner takes the leases
no other process holds (`projections/leases.py`), so each projection runs in
exactly one worker and moves to another within a second when that one dies.
The container is closed when the worker exits (pools, runner, listener).
"""

from __future__ import annotations

import atexit
from typing import Any

from launchdir import heap
from launchdir.bootstrap import bootstrap, web_app
from launchdir.settings import Settings


def create() -> Any:
    """Build this worker's container and its ASGI app."""
    c = bootstrap(Settings.from_env())
    heap.settle()  # what the process lives with, out of the collector's way
    atexit.register(c.close)
    return web_app(c)
