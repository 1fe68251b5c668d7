"""The order process manager: applies the lines of paid orders, and expires pending orders that were not paid.

It follows the log through `orders_view` (paid orders with open lines), woken
when that projection moves and every few seconds. Each line is one append of
its effect and its `OrderLineFulfilled` (`commands.orders.fulfil_line`), and
the decision skips lines the order stream already records, so the manager is
idempotent and a crash between two lines (or two managers at once) applies
each line exactly once: the next run picks up where the order's stream says it
was. Pending orders past `expires_at` get `OrderExpired`.

An `ai_review` line's review is written by the `reviewer` (the model with the
rules behind it, `workers/profile_review.py`) before its decision; a
`relaunch` line stays open until its week begins. `website`, the site's
address, gives the review's mail its link to the owner's page of the listing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from aggregates.base import Meta
from aggregates.weeks import week_of
from commands import orders as orders_cmd
from commands.store import EventStore
from events.errors import DomainError
from projections.periodic import ViewLoop
from projections.reads import ReadStore
from queries import orders as orders_q

log = logging.getLogger(__name__)
ACTOR = "system:fulfilment"


class Fulfilment(ViewLoop):
    """`run_once` for tests and the CLI; `start` runs it on a thread of the server."""

    def __init__(self, store: EventStore, reads: ReadStore, clock: Callable[[], datetime],
                 poll_seconds: float = 5.0, reviewer: orders_cmd.Reviewer | None = None, website: str = "") -> None:
        self.store = store
        self.reviewer = reviewer
        self.website = website
        self.reads = reads
        self.clock = clock
        super().__init__("order-fulfilment", orders_q.VIEW, poll_seconds)

    def meta(self) -> Meta:
        return Meta(at=self.clock(), actor=ACTOR, channel="system")

    def run_once(self) -> int:
        """Apply every open line of every paid order, expire due pending orders; return how many lines were applied."""
        applied = 0
        for number in orders_q.with_open_lines(self.reads, week_of(self.clock().date())):
            state = orders_cmd.load(self.store, number)
            for index in state.open_lines():
                try:
                    review = orders_cmd.write_review(self.store, state, index, self.reviewer)
                    before = self.store.position()
                    if orders_cmd.fulfil_line(self.store, number, index, self.meta(), review, self.website) != before:
                        applied += 1
                except DomainError as exc:  # a store refusal (Unavailable): the next run tries again
                    log.warning("order %s line %d not applied yet: %s", number, index, exc.detail)
        for number in orders_q.due_to_expire(self.reads, self.clock()):
            orders_cmd.expire(self.store, number, self.meta())
        return applied
