"""The cyclic garbage collector paused while a long catch-up runs.

A catch-up allocates many objects that live for a batch (decoded events,
listing states, documents, statement parameters): enough to run hundreds of
young collections and several full ones, each walking what the batch still
holds. They find nothing: the objects a batch makes form no cycles, so
reference counting frees them all (no unreachable object after a catch-up of
the 10,000-listing bench history with the collector off). Collecting cost a
fifth of `listing_view`'s Python time in that catch-up (docs/performance.md).

Catch-ups may run in several threads (rebuilds two at a time): the collector
stays off until the last of them ends, and is switched back on only if it
was on when the first began.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_running = 0
_was_enabled = False


@contextmanager
def paused() -> Iterator[None]:
    """No cyclic collection inside the block (reference counting still frees everything it can)."""
    global _running, _was_enabled
    with _lock:
        if _running == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _running += 1
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0 and _was_enabled:
                gc.enable()
