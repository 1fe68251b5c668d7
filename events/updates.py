"""Events of the follower fan-out of listing updates ('what's new').

A listing update (`events.listing.ListingUpdatePosted`) is mailed to the
listing's followers by a process manager (`workers/updates.py`). Each update
has a tiny stream of its own (`aggregates/updates.py`) whose one event records
that its emails are in the outbox, in the same append as the last of them: the
marker that says "done", so a restart never mails an update again.
"""

from __future__ import annotations

from dataclasses import dataclass

from events.base import Event


@dataclass(frozen=True, kw_only=True)
class UpdateFollowersNotified(Event):
    """Every follower of the listing (with a confirmed address) has the update's email queued in the outbox."""

    listing_id: int
    update_id: int
    recipients: int  # emails queued for this update (0: nobody to tell)
