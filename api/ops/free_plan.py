"""choose_free_listing (SPEC §3.3, §4.5): queue a saved listing for a free launch week, answer with the badge to paste.

The week is the least busy of the site's window (`queries/free_plan.py`); the
command records it. The first badge check is not made inside the request:
`badge_checks_view` marks the listing due the moment it applies the event, and
the badge watch (`workers/badge_watch.py`, woken by that view moving) checks
the homepage within seconds. The answer waits, bounded, until the listing,
launch and badge-check views show the write (read-your-writes).
"""

from __future__ import annotations

from typing import Any

from api.ops.caller import account_of, wait_for
from api.registry import Operation
from api.services import Call, Services
from commands import free_plan as cmd
from queries import free_plan as q

VIEWS = ("listing_view", "launches_view", "badge_checks_view")


def _choose(s: Services, i: cmd.ChooseFreeListing, c: Call) -> dict[str, Any]:
    week = q.free_week(s.reads, s.today())
    position = cmd.choose_free_listing(s.store, i, account_of(c), week, c.meta())
    wait_for(s, position, VIEWS)
    return q.chosen(s.reads, i.listing_id, s.links["website"])


def operations() -> list[Operation]:
    """The free plan's row of the operation table."""
    return [
        Operation("choose_free_listing", "POST", "/me/listings/{listing_id}/free", cmd.ChooseFreeListing,
                  q.FreeListingChosen, _choose, scope="listings:write", idempotency_key=True, tag="my listings"),
    ]
