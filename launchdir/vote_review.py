"""Staff voiding and restoring votes, with what follows: the views catch up and closed weeks' awards follow.

Rankings, boards and listing counts follow from the projections as soon as
they have the `VoteVoided` / `VoteRestored` events. Awards are events of their
own, so when a changed vote belongs to a launch week that is closed already,
that week's awards are derived again from the fresh standings the way the
scheduler does (`workers.scheduler.close_week`, `LaunchWeekAwardsRecomputed`).
Both the CLI (`launchdir staff votes`) and `/staff/votes` use `VoteReview`,
which the composition root builds (the website gets it as a port).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from aggregates.base import Meta
from commands import awards as awards_cmd
from commands import votes as votes_cmd
from commands.store import EventStore
from projections.reads import ReadStore
from projections.runtime import ProjectionRuntime
from queries.vote_integrity import launch_weeks
from workers.scheduler import close_week

VIEWS = ["launches_view", "listing_view", "search_view", "catalog_view", "vote_integrity_view"]


@dataclass
class Reviewed:
    """What one void or restore did: the votes changed and the closed weeks whose awards were recomputed."""

    changed: list[votes_cmd.VoteChange] = field(default_factory=list)
    recomputed: list[str] = field(default_factory=list)


class VoteReview:
    def __init__(self, store: EventStore, reads: ReadStore, runtime: ProjectionRuntime) -> None:
        self.store, self.reads, self.runtime = store, reads, runtime

    def void(self, vote_ids: list[str], reason: str, meta: Meta) -> Reviewed:
        return self._follow(votes_cmd.void_votes(self.store, vote_ids, reason, meta), meta)

    def restore(self, vote_ids: list[str], reason: str, meta: Meta) -> Reviewed:
        return self._follow(votes_cmd.restore_votes(self.store, vote_ids, reason, meta), meta)

    def _follow(self, changed: list[votes_cmd.VoteChange], meta: Meta) -> Reviewed:
        done = Reviewed(changed)
        if not changed:
            return done
        for view in VIEWS:
            self.runtime.catch_up(view)
        for week in launch_weeks(self.reads, [ch.listing_id for ch in changed]):
            if awards_cmd.is_closed(self.store, week.isoformat()) and \
                    close_week(self.store, self.reads, self.runtime, week, meta) == "recomputed":
                done.recomputed.append(week.isoformat())
        if done.recomputed:
            self.runtime.catch_up("launches_view")
        return done
