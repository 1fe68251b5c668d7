"""Which listing events move a listing's status, and to what: shared by projections that only need to know "live?".

`listing_view` keeps the whole state; the small projections of updates
(`updates_view`) and interviews (`interview_view`) follow just the status,
from the same events `aggregates/listing/evolve.py` folds.
"""

from __future__ import annotations

from typing import Any

from events.listing import (
    ListingBadgeLost,
    ListingLaunched,
    ListingPublishedByStaff,
    ListingQueuedForFree,
    ListingScheduled,
    ListingUnpublished,
)

LIVE = "live"
STATUS_AFTER: dict[type[Any], str] = {
    ListingQueuedForFree: "awaiting_badge",
    ListingBadgeLost: "awaiting_badge",
    ListingScheduled: "scheduled",
    ListingLaunched: LIVE,
    ListingPublishedByStaff: LIVE,
    ListingUnpublished: "unpublished",
}
STATUS_EVENTS = tuple(STATUS_AFTER)


def status_after(event: Any) -> str:
    """The listing's status once `event` (one of STATUS_EVENTS) is applied."""
    return STATUS_AFTER[type(event)]
