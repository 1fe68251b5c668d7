"""The free plan (SPEC §3.3, §4.5 choose_free_listing): queue a saved listing for a launch week, record badge checks.

The owner chooses the plan; the week comes from the read side (the least
busy week of the site's window, `queries/free_plan.py`), so this command only
records it. Badge checks are made by a process manager
(`workers/badge_watch.py`) through the `BadgeChecks` port and recorded here,
one `store.decide` each, with what they mean for the status
(`aggregates/listing/badge.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from aggregates import listing
from aggregates.base import Meta
from aggregates.listing import ListingState
from aggregates.listing.badge import decide_badge_checked, decide_choose_free
from commands.listing import SiteTaken, decide_owned, load_owned, refuse_taken_site
from commands.my_listing_inputs import ListingId
from commands.store import Appended, EventStore
from events.base import Event
from events.errors import Conflict


class ChooseFreeListing(BaseModel):
    """Launch one of your saved listings for free: it is queued for a launch week 6-8 weeks out (a site setting).

    It goes on once our badge is on its homepage. The homepage is checked within
    seconds of this call, usually before the badge is there; put one of the
    returned embed snippets on it, then call check_my_badge to have it checked
    at once (otherwise it is checked again 15 minutes later, then after 1, 4 and
    12 hours, then daily). Found, the listing is scheduled for its week and goes
    live when that week begins. Only a saved listing (status `draft`) can choose
    the free plan.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    listing_id: ListingId


class CheckMyBadge(BaseModel):
    """Check your free listing's homepage for our badge now, and answer what was found.

    For a listing on the free plan that is awaiting its badge, scheduled or
    live (409 for any other). Call it after putting the badge on the homepage:
    found, an awaiting listing is scheduled for its week at once. The answer is
    the listing's status, the next step, the badges to paste and this check's
    result (`badge_check`: found or missing, and why).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    listing_id: ListingId


def check_my_badge(store: EventStore, listing_id: int, account_id: str, meta: Meta,
                   check_now: Callable[[int, Meta], int]) -> int:
    """The owner's badge check, now; the log position of what it recorded (404 for a stranger, 409 when nothing
    is checked: not a free listing awaiting its badge, scheduled or live)."""
    state = load_owned(store, listing_id, account_id)
    position = check_now(listing_id, meta)
    if not position:
        raise Conflict(f"nothing to check: only free listings awaiting their badge, scheduled or live are checked "
                       f"(this one is {state.status}, plan {state.plan or 'none'})")
    return position


@dataclass(frozen=True)
class BadgeOutcome:
    """What one look at a homepage found."""

    found: bool
    checked_url: str  # the page looked at, after redirects ("" when there was nothing to fetch)
    reason: str | None = None  # why not found: not_found | unreachable | timeout | blocked | not_html | no_website
    detail: str = ""  # the same in a sentence, for people (not stored)
    evidence: str | None = None  # the link or image that counted as our badge


class BadgeChecks(Protocol):
    """Looks for our badge for the listing `slug` on `website_url` (workers/badge_check.py); never raises for a site."""

    def check(self, website_url: str, slug: str) -> BadgeOutcome: ...


def choose_free_listing(store: EventStore, cmd: ChooseFreeListing, account_id: str, week: str, meta: Meta,
                        site_taken: SiteTaken | None = None) -> int:
    """Queue the caller's saved listing for the free `week`; returns the log position (404 for a stranger, 409 when
    not saved, or when its site has gained a public listing since it was saved: `refuse_taken_site`)."""
    def decision(state: ListingState) -> Sequence[Event]:
        refuse_taken_site(state, account_id, site_taken)
        return decide_choose_free(state, week, meta)

    appended = decide_owned(store, cmd.listing_id, account_id, decision)
    return appended.position


def load(store: EventStore, listing_id: int) -> ListingState:
    state: ListingState = store.load(listing.listing_stream(listing_id), listing)
    return state


def record_check(store: EventStore, listing_id: int, outcome: BadgeOutcome, current_week: str,
                 next_check_at: datetime | None, meta: Meta) -> Appended:
    """Record one badge check on the listing (nothing when it has nothing to check); returns what was appended."""
    nxt = next_check_at.isoformat() if next_check_at is not None else None

    def decision(state: ListingState) -> list[Event]:
        return decide_badge_checked(state, outcome.checked_url, outcome.found, outcome.reason, nxt, current_week, meta)

    return store.decide(listing.listing_stream(listing_id), listing, decision)
