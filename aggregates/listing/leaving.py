"""An owner leaves a listing (their account closes): the decisions of the listing stream for that move.

A listing that is live stays live whoever leaves it: the other owners keep it, and one left without
owners can be claimed by whoever proves its domain (docs/claims.md). A listing that was never
public (saved, queued for a week or scheduled) and loses its only owner is taken out of the
directory's way: it is unpublished, as staff take a listing down, with the reason saying why.
A listing staff took down stays down; only the owner goes.
"""

from __future__ import annotations

from aggregates.base import Emitter, Meta
from aggregates.listing.state import ListingState, require_owner
from events.base import Event
from events.listing import ListingOwnerRemoved, ListingUnpublished

NEVER_PUBLIC = ("draft", "awaiting_badge", "scheduled")
DISCARDED = "Its only owner closed their account before it was published."


def decide_owner_leaves(state: ListingState, account_id: str, reason: str, meta: Meta) -> list[Event]:
    """Remove `account_id` from the owners; a never-public listing it owned alone is unpublished too."""
    require_owner(state, account_id)
    emit = Emitter(state, meta)
    emit(ListingOwnerRemoved, account_id=account_id, reason=reason)
    if len(state.owner_ids) == 1 and state.status in NEVER_PUBLIC:
        emit(ListingUnpublished, reason=DISCARDED)
    return emit.events


def outcome(state: ListingState, account_id: str) -> str:
    """What closing the account does to this listing: `discarded`, `orphaned` (live, claimable), `left`."""
    if len(state.owner_ids) > 1 and account_id in state.owner_ids:
        return "left"
    return "discarded" if state.status in NEVER_PUBLIC else "orphaned" if state.status == "live" else "left"
