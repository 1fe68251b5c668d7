"""The in-process scheduler: launch weeks open and close on time.

`launchdir serve` starts one `Scheduler` thread. Every `interval` seconds (60
by default) it runs `tick()`, which

1. launches the scheduled listings whose launch week has begun
   (`commands.listing.launch_if_due`; free ones only with our badge on their
   homepage, checked again then: the `launch` given, `BadgeWatch.go_live`), and
2. closes every past week that has not been closed: the previous week, and
   any week of the last `CATCH_UP_WEEKS` with live launches (missed during
   downtime), granting Launch of the Week #1..#3 from community votes
   (`commands.awards.close_week`), and
3. recomputes the awards of the closed weeks among the last `CATCH_UP_WEEKS`
   whose standings changed after they closed (launches or votes of the week
   that arrived late: `launchdir serve` closed last week before `launchdir
   demo` filled it, a listing published into a past week, a back-dated
   import), so awards always follow the week's votes
   (`commands.awards.recompute_week`). Older weeks are closed, or
   recomputed, by staff (`launchdir staff close-week WEEK`).

The loop also wakes half a second after Monday 00:00 in the site's timezone
(`until_week_starts`), so a week's scheduled listings go live then, not up to
an interval later, and its predecessor closes at the same tick. Every step is idempotent, so a tick may run in
several processes at once or be repeated; `tick(now)` can be called directly
(tests, `launchdir staff tick`). Before reading vote standings it brings
`launches_view` up to the log head itself, so it never ranks from a lagging
projection.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Literal

from aggregates.base import Meta
from commands import awards as awards_cmd
from commands import listing as listing_cmd
from commands.store import EventStore
from projections.periodic import Periodic
from projections.reads import ReadStore
from projections.runtime import ProjectionRuntime
from queries import launches as launches_q
from queries.awards import week_standings
from queries.weeks import monday_of

log = logging.getLogger(__name__)
VIEW = "launches_view"
DEFAULT_INTERVAL = 60.0
CATCH_UP_WEEKS = 8
WEEK_START_MARGIN = 0.5  # seconds after Monday 00:00: the tick then sees the new week


Outcome = Literal["closed", "recomputed"]
Launcher = Callable[[list[int], Meta], list[int]]
"""Launches the due listings given (as of `meta.at`); returns those that went live (`BadgeWatch.go_live`)."""


@dataclass
class TickResult:
    launched: list[int] = field(default_factory=list)
    closed: list[str] = field(default_factory=list)
    recomputed: list[str] = field(default_factory=list)


def close_week(store: EventStore, reads: ReadStore, runtime: ProjectionRuntime, week: date, meta: Meta) -> Outcome | None:
    """Close `week` from fresh community standings, or recompute its awards when it is closed already.

    Returns "closed", "recomputed" (a closed week's winners changed with launches or votes
    that arrived after it closed), or None when nothing changed.
    """
    runtime.catch_up(VIEW)
    standings = [awards_cmd.StandingIn(**s) for s in week_standings(reads, week)]
    cmd = awards_cmd.CloseLaunchWeek(week=week.isoformat(), standings=standings)
    if awards_cmd.is_closed(store, cmd.week):
        return "recomputed" if awards_cmd.recompute_week(store, cmd, meta) else None
    awards_cmd.close_week(store, cmd, meta)
    return "closed"


class Scheduler:
    """Runs `tick` now and then every `interval` seconds on a daemon thread."""

    def __init__(self, store: EventStore, reads: ReadStore, runtime: ProjectionRuntime,
                 now: Callable[[], datetime], interval: float = DEFAULT_INTERVAL, launch: Launcher | None = None) -> None:
        self.store = store
        self.launch = launch or self.launch_each  # free listings: re-check the badge first (launchdir/bootstrap.py)
        self.reads = reads
        self.runtime = runtime
        self.now = now  # the current time in the site's timezone
        self.interval = interval
        self._loop = Periodic("launch-scheduler", interval, self.tick, at_start=True, until_due=self.until_week_starts)
        self._lock = threading.Lock()

    def tick(self, now: datetime | None = None) -> TickResult:
        """Launch what is due and close what has ended, as of `now` (default: the clock)."""
        with self._lock:
            at = now.astimezone(self.now().tzinfo) if now else self.now()  # days and weeks in the site's timezone
            meta = Meta(at=at, actor="system", channel="system")
            current = monday_of(at.date())
            result = TickResult()
            self.runtime.catch_up(VIEW)
            result.launched = self.launch(launches_q.due_launches(self.reads, current), meta)
            self.runtime.catch_up(VIEW)
            since = current - timedelta(weeks=CATCH_UP_WEEKS)
            weeks = {w for w in launches_q.unclosed_weeks(self.reads, current) if w >= since}
            weeks.add(current - timedelta(weeks=1))
            recent = (since + timedelta(weeks=k) for k in range(CATCH_UP_WEEKS))
            weeks.update(w for w in recent if awards_cmd.is_closed(self.store, w.isoformat()))
            for week in sorted(weeks):
                try:
                    outcome = close_week(self.store, self.reads, self.runtime, week, meta)
                except Exception:
                    log.exception("scheduler: closing week %s failed; next tick retries", week)
                    continue
                if outcome == "closed":
                    result.closed.append(week.isoformat())
                elif outcome == "recomputed":
                    result.recomputed.append(week.isoformat())
            if result.launched or result.closed or result.recomputed:
                log.info("scheduler: launched %s, closed %s, awards recomputed %s",
                         result.launched, result.closed, result.recomputed)
            return result

    def until_week_starts(self) -> float:
        """Seconds until the next Monday 00:00 in the site's timezone (plus a small margin), so launches are on time."""
        at = self.now()
        start = datetime.combine(monday_of(at.date()) + timedelta(weeks=1), datetime.min.time(), tzinfo=at.tzinfo)
        return (start - at).total_seconds() + WEEK_START_MARGIN

    def launch_each(self, listing_ids: list[int], meta: Meta) -> list[int]:
        """Launch each due listing (`commands.listing.launch_if_due`); a failure is logged and retried next tick."""
        launched = []
        for listing_id in listing_ids:
            try:
                listing_cmd.launch_if_due(self.store, listing_id, meta)
                launched.append(listing_id)
            except Exception:
                log.exception("scheduler: launching listing %s failed; next tick retries", listing_id)
        return launched

    def start(self) -> None:
        self._loop.start()

    def stop(self) -> None:
        self._loop.stop()
