"""Keeping the objects a process lives with out of the garbage collector's way.

Python's full collection walks every object the collector tracks, and a
process of this service holds about 335,000 once its modules are imported and
its container is wired, nearly all of them there until it exits. A projection
catching up allocates enough (decoded events, listing states, statement
parameters) to run a full collection every few batches: before this, a third
of `listing_view`'s catch-up went to walking those objects again and again
(docs/performance.md, "Projections: catch-up and rebuild").
"""

from __future__ import annotations

import gc


def settle() -> None:
    """Collect once, then move every object alive now out of all future collections (`gc.freeze`).

    Called once per process, when its container is built (CLI commands, server
    workers). Frozen objects are still freed by reference counting; only a
    cycle among them is never collected, which for the modules and the wiring
    of a process does not happen before it exits.
    """
    gc.collect()
    gc.freeze()
