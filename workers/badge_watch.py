"""The free plan's process manager: check homepages for our badge when due, and at go-live.

`BadgeWatch` follows `badge_checks_view` (its to-do list, built from the
listing events): every `poll_seconds`, and at once whenever that view moves
(a listing just chose the free plan), it checks the homepages whose next
check is due, a few at a time, and records each check on the listing's stream
(`commands/free_plan.record_check`). The time of the next check travels in the
recorded event, so after a crash or a restart the view says exactly what is
due; nothing is kept only in memory.

`go_live` is the launch scheduler's launcher (`workers/scheduler.py`): when a
week begins, free listings scheduled for it are checked once more and go live
only with the badge found; without it they go back to `awaiting_badge` (and
live as soon as a later check finds it). Paid listings launch as before.

With several processes (`launchdir serve --workers N`, several machines), the
due checks run in one process at a time: `run_once` first takes the
`badge-watch` lease (`projections/leases.py`, a session advisory lock), so two
processes never fetch the same homepage and record the same check twice; when
the holder dies, the next poll of another process takes the lease over.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from aggregates.base import Meta
from aggregates.listing import ListingState
from aggregates.listing.badge import is_checked
from aggregates.weeks import week_of
from commands import free_plan as free_cmd
from commands import listing as listing_cmd
from commands.free_plan import BadgeChecks, BadgeOutcome
from commands.store import EventStore
from projections.badge_checks_view import BACKOFF, backoff_after, follow_up_after
from projections.leases import Leases
from projections.periodic import ViewLoop
from projections.reads import ReadStore
from projections.runtime import ProjectionRuntime
from queries import badge_checks as badge_q

log = logging.getLogger(__name__)
ACTOR = "system:badge-check"
VIEW = badge_q.VIEW
SNOOZE = timedelta(minutes=10)  # a due row whose check recorded nothing (the view behind the log) waits this long
LEASE = "badge-watch"  # the lease name: one process at a time runs the due checks


@dataclass
class Checked:
    """One check: what it found, what it recorded, and where the listing stands now."""

    listing_id: int
    slug: str
    status_before: str
    status: str
    outcome: BadgeOutcome | None  # None: the listing has nothing to check (not on the free plan, saved, taken down)
    recorded: list[str] = field(default_factory=list)  # event class names
    next_check_at: datetime | None = None
    position: int = 0


class BadgeWatch(ViewLoop):
    """Runs due badge checks (`run_once`, or a thread with `start`), one on demand (`check`), and the go-live checks."""

    def __init__(self, store: EventStore, reads: ReadStore, runtime: ProjectionRuntime, checker: BadgeChecks,
                 now: Callable[[], datetime], poll_seconds: float = 15.0, workers: int = 4,
                 lease: Leases | None = None) -> None:
        """`lease`: taken before each round of due checks; None runs them unconditionally (one process, tests)."""
        self.store = store
        self.reads = reads
        self.runtime = runtime
        self.checker = checker
        self.now = now  # the current time in the site's timezone (launch weeks follow it)
        self.workers = workers
        super().__init__("badge-watch", VIEW, poll_seconds)
        self._lock = threading.Lock()
        self._busy: set[int] = set()
        self._snoozed: dict[int, datetime] = {}
        self._lease = lease

    # ------------------------------------------------------------ the loop

    def run_once(self) -> list[Checked]:
        """Check every listing whose check is due now (a few at a time); wait until the view shows the results.

        Nothing, when another process holds the lease (it runs the due checks).
        """
        if self._lease is not None and LEASE not in self._lease.take():
            return []
        now = self.now()
        with self._lock:
            self._snoozed = {k: v for k, v in self._snoozed.items() if v > now}
            ids = [i for i in badge_q.due(self.reads, now) if i not in self._busy and i not in self._snoozed]
        done = self._each(ids, self.check)
        for c in done:
            if not c.recorded:
                with self._lock:
                    self._snoozed[c.listing_id] = now + SNOOZE
        self._settle(done)
        return done

    def check(self, listing_id: int, at: datetime | None = None, by: Meta | None = None) -> Checked:
        """Check one listing's homepage now and record what it means; `by`: who asked (`launchdir staff check-badge`)."""
        with self._lock:
            self._busy.add(listing_id)
        try:
            return self._check(listing_id, at or (by.at if by else None), by)
        finally:
            with self._lock:
                self._busy.discard(listing_id)

    def _check(self, listing_id: int, at: datetime | None, by: Meta | None) -> Checked:
        state = free_cmd.load(self.store, listing_id)
        if not is_checked(state):
            return Checked(listing_id, state.slug, state.status, state.status, None)
        outcome = self.checker.check(str(state.profile.get("website_url") or ""), state.slug)
        when = at or self.now()
        current = week_of(when.date())
        nxt = self._next_check(state, outcome, when, current)
        meta = Meta(at=when, actor=by.actor if by else ACTOR, channel=by.channel if by else "system",
                    via=by.via if by else "")
        appended = free_cmd.record_check(self.store, listing_id, outcome, current, nxt, meta)
        recorded = [type(e).__name__ for e in appended.events]
        status = _status_after(state.status, recorded)
        log.info("badge check of %s (%s): %s%s -> %s", state.slug, outcome.checked_url,
                 "found" if outcome.found else "missing", f" ({outcome.reason})" if outcome.reason else "", status)
        return Checked(listing_id, state.slug, state.status, status, outcome, recorded,
                       nxt if "ListingBadgeMissing" in recorded else None, appended.position)

    def _next_check(self, state: ListingState, outcome: BadgeOutcome, at: datetime, current: str) -> datetime | None:
        """When to look again after a miss (the schedule of docs/free-plan.md); found, the view plans the follow-ups."""
        if outcome.found:
            return None
        if state.status == "awaiting_badge":
            row = badge_q.check_row(self.reads, state.listing_id)
            return at + backoff_after((int(row["attempts"]) if row else 0) + 1)
        if state.status == "scheduled":  # at go-live it goes back to awaiting_badge: start the backoff again
            return at + BACKOFF[0] if state.week is not None and state.week <= current else None
        row = badge_q.check_row(self.reads, state.listing_id)  # live: the weekly follow-ups
        launched = row["launched_at"] if row else None
        return follow_up_after(launched, at) if launched is not None else None

    # ------------------------------------------------------------ go-live

    def go_live(self, listing_ids: list[int], meta: Meta) -> list[int]:
        """The scheduler's launcher: free listings go live only with the badge found; the others launch as due."""
        free: list[int] = []
        others: list[int] = []
        for listing_id in listing_ids:
            state = free_cmd.load(self.store, listing_id)
            (free if state.plan == "free" and state.status == "scheduled" else others).append(listing_id)
        launched = []
        for listing_id in others:
            try:
                listing_cmd.launch_if_due(self.store, listing_id, meta)
                launched.append(listing_id)
            except Exception:
                log.exception("scheduler: launching listing %s failed; next tick retries", listing_id)
        done = self._each(free, lambda listing_id: self.check(listing_id, meta.at))
        self._settle(done)
        return launched + [c.listing_id for c in done if "ListingLaunched" in c.recorded]

    # ------------------------------------------------------------ plumbing

    def _each(self, ids: list[int], check: Callable[[int], Checked]) -> list[Checked]:
        """Run `check` on each id, a few at a time; a failing one is logged and tried again when next due."""
        if not ids:
            return []

        def safe(listing_id: int) -> Checked | None:
            try:
                return check(listing_id)
            except Exception:  # noqa: BLE001 - the database or a bug: the row stays due, the next round retries
                log.exception("badge check of listing %s failed; it stays due", listing_id)
                return None

        with ThreadPoolExecutor(max_workers=min(self.workers, len(ids)), thread_name_prefix="badge-check") as pool:
            return [c for c in pool.map(safe, ids) if c is not None]

    def _settle(self, done: list[Checked]) -> None:
        """Bring the view up to these checks, so the next round does not check them again (as the scheduler does)."""
        if any(c.recorded for c in done) and VIEW in self.runtime.projections:
            self.runtime.catch_up(VIEW)

    def stop(self) -> None:
        super().stop()
        if self._lease is not None:
            self._lease.close()  # another process takes the due checks over at its next poll


def _status_after(before: str, recorded: list[str]) -> str:
    if "ListingLaunched" in recorded:
        return "live"
    if "ListingScheduled" in recorded:
        return "scheduled"
    if "ListingBadgeLost" in recorded:
        return "awaiting_badge"
    return before
