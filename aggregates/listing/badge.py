"""The free plan's decisions: choosing it, and what each check of the homepage for our badge means.

A free listing is queued for a week (`ListingQueuedForFree`, status
`awaiting_badge`) and moves on only when a check finds our badge on its
homepage. Every check is recorded, found (`ListingBadgeFound`) or not
(`ListingBadgeMissing`, with the reason and the next check's time), and what
it means for the status depends on where the listing stands:

| status | found | missing |
|---|---|---|
| `awaiting_badge` | `scheduled` for its week, or `live` at once when that week has begun | stays; checked again at `next_check_at` |
| `scheduled`, week begun (go-live) | `live` | `ListingBadgeLost`: back to `awaiting_badge`, live as soon as a later check finds it |
| `scheduled`, week ahead | recorded only | recorded only (the go-live check decides) |
| `live` | recorded only | recorded only: a launched listing stays live (docs/free-plan.md) |

Paid listings, saved (`draft`) and taken-down ones have nothing to check.
"""

from __future__ import annotations

from aggregates.base import Emitter, Meta, one
from aggregates.listing.publishing import decide_badge_found
from aggregates.listing.state import ListingState, require_listing, require_open
from events.base import Event
from events.errors import Conflict
from events.listing import (
    ListingBadgeFound,
    ListingBadgeLost,
    ListingBadgeMissing,
    ListingLaunched,
    ListingQueuedForFree,
)

CHECKED_STATUSES = ("awaiting_badge", "scheduled", "live")
_ALREADY = {
    "awaiting_badge": "the listing is already on the free plan for the week of {week}, waiting for our badge on its homepage",
    "scheduled": "the listing is already scheduled to launch in the week of {week}",
    "live": "the listing is already live (launched in the week of {week})",
}


def decide_choose_free(state: ListingState, week: str, meta: Meta) -> list[Event]:
    """Queue a saved listing for the free `week` (chosen on the read side from the site's window).

    Only a saved listing (`draft`) can choose the free plan: one queued,
    scheduled or live already has its plan and week (409 saying which), and a
    listing staff took down cannot be changed (409).
    """
    require_listing(state)
    require_open(state)
    if state.status != "draft":
        raise Conflict(_ALREADY.get(state.status, "the listing is {status}").format(week=state.week, status=state.status))
    return one(state, meta, ListingQueuedForFree, week=week)


def is_checked(state: ListingState) -> bool:
    """Whether a badge check means anything for this listing: a free listing queued, scheduled or live."""
    return state.exists and state.plan == "free" and state.status in CHECKED_STATUSES


def decide_badge_checked(state: ListingState, checked_url: str, found: bool, reason: str | None,
                         next_check_at: str | None, current_week: str, meta: Meta) -> list[Event]:
    """Record one check of the homepage and what it means for the listing's status (the table above).

    `reason` says why the badge was not found (`not_found`, `unreachable`,
    `timeout`, `blocked`, `not_html`, `no_website`); `next_check_at` is when
    the next check is due (ISO time, or None when none is planned). Nothing
    is recorded for a listing that has nothing to check.
    """
    require_listing(state)
    if not is_checked(state):
        return []
    due = state.status == "scheduled" and state.week is not None and state.week <= current_week
    if found:
        if state.status == "awaiting_badge":
            return decide_badge_found(state, checked_url, current_week, meta)
        emit = Emitter(state, meta)
        emit(ListingBadgeFound, checked_url=checked_url)
        if due:
            emit(ListingLaunched, week=state.week, plan="free")
        return emit.events
    emit = Emitter(state, meta)
    emit(ListingBadgeMissing, checked_url=checked_url, reason=reason or "not_found", next_check_at=next_check_at)
    if due:
        emit(ListingBadgeLost, checked_url=checked_url, reason=reason or "not_found")
    return emit.events
