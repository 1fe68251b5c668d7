"""choose_free_listing (SPEC §3.3, §4.5): queue a saved listing for a free launch week, answer with the badge to paste;
check_my_badge: the owner's "check my homepage now", the same check the badge watch makes on its schedule.

The week is the least busy of the site's window (`queries/free_plan.py`); the
command records it. The first badge check is not made inside the request:
`badge_checks_view` marks the listing due the moment it applies the event, and
the badge watch (`workers/badge_watch.py`, woken by that view moving) checks
the homepage within seconds. The answer waits, bounded, until the listing,
launch and badge-check views show the write (read-your-writes).
"""

from __future__ import annotations

from typing import Any

from api.ops.caller import account_of, naming, wait_for
from api.registry import Operation
from api.services import Call, Services
from commands import free_plan as cmd
from events.errors import Unavailable
from queries import free_plan as q

VIEWS = ("listing_view", "search_view", "launches_view", "badge_checks_view")


def _choose(s: Services, i: cmd.ChooseFreeListing, c: Call) -> dict[str, Any]:
    week = q.free_week(s.reads, s.today())
    position = cmd.choose_free_listing(s.store, i, account_of(c), week, c.meta(), s.site_taken)
    wait_for(s, position, VIEWS)
    return q.chosen(s.reads, i.listing_id, s.links["website"])


def _check(s: Services, i: cmd.CheckMyBadge, c: Call) -> dict[str, Any]:
    if s.badge_checks is None:
        raise Unavailable("badge checks are not available in this process")
    position = cmd.check_my_badge(s.store, i.listing_id, account_of(c), c.meta(), s.badge_checks)
    wait_for(s, position, VIEWS)
    return q.chosen(s.reads, i.listing_id, s.links["website"])


def operations() -> list[Operation]:
    """The free plan's row of the operation table."""
    return [
        Operation("choose_free_listing", "POST", "/me/listings/{listing_id}/free", cmd.ChooseFreeListing,
                  q.FreeListingChosen, naming("listing_id", _choose), scope="listings:write", idempotency_key=True, tag="my listings"),
        Operation("check_my_badge", "POST", "/me/listings/{listing_id}/badge-check", cmd.CheckMyBadge,
                  q.FreeListingChosen, naming("listing_id", _check), scope="listings:write", tag="my listings"),
    ]
