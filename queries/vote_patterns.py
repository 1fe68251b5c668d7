"""The rules of the vote integrity report, as pure functions over a week's votes (no database here).

The rules (docs/voting.md lists them for staff, `/about/votes` for everyone):

- **Shared network**: `CLUSTER_MIN` or more votes on one listing from the same
  network-prefix hash within `CLUSTER_WINDOW`. Whether they also share one
  user-agent hash is shown (`shared_agent`).
- **Shared browser**: `AGENT_MIN` or more votes on one listing with the same
  user-agent hash within `CLUSTER_WINDOW` (a user agent alone is common, so
  more votes are needed).
- **New accounts**: `CLUSTER_MIN` or more votes on one listing within
  `CLUSTER_WINDOW` from accounts that were fresh when they voted: created less
  than `NEW_ACCOUNT` before, or first seen on the site less than `FIRST_VIEW`
  before.
- **Unverified**: votes recorded from an account whose email was not verified
  (the website refuses them, so any such vote is worth a look).
- **Velocity**: an hour in which a listing received at least `VELOCITY_MIN`
  votes and at least `VELOCITY_FACTOR` times both its own baseline (its mean
  votes an hour over the rest of the week, from its first vote on, at least
  `BASELINE_HOURS` hours) and the week's baseline (the mean votes an hour of a
  voted listing this week).

A vote can appear under several findings. Votes cast without signals (before
signals were recorded, or by the demo) only count toward velocity.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

K = TypeVar("K", bound=Hashable)

CLUSTER_WINDOW = timedelta(hours=1)
CLUSTER_MIN = 3
AGENT_MIN = 5
NEW_ACCOUNT = timedelta(hours=24)
FIRST_VIEW = timedelta(minutes=10)
VELOCITY_MIN = 8
VELOCITY_FACTOR = 4.0
BASELINE_HOURS = 24


@dataclass(frozen=True)
class Vote:
    vote_id: str
    listing_id: int
    account_id: str
    cast_at: datetime
    voided: bool
    email_verified: bool | None = None
    account_age_s: int | None = None
    since_first_view_s: int | None = None
    network_hash: str = ""
    agent_hash: str = ""

    @property
    def fresh(self) -> bool:
        """The account was new, or new to the site, when it voted."""
        young = self.account_age_s is not None and self.account_age_s < NEW_ACCOUNT.total_seconds()
        new_here = self.since_first_view_s is not None and self.since_first_view_s < FIRST_VIEW.total_seconds()
        return young or new_here


@dataclass(frozen=True)
class Finding:
    kind: str  # "shared_network" | "shared_agent" | "new_accounts" | "unverified" | "velocity"
    listing_id: int
    votes: tuple[Vote, ...]
    facts: dict[str, Any]


def rules() -> dict[str, Any]:
    """The thresholds, as the report prints them."""
    return {"cluster_window_minutes": int(CLUSTER_WINDOW.total_seconds() // 60), "cluster_min_votes": CLUSTER_MIN,
            "shared_agent_min_votes": AGENT_MIN, "new_account_hours": int(NEW_ACCOUNT.total_seconds() // 3600),
            "first_view_minutes": int(FIRST_VIEW.total_seconds() // 60), "velocity_min_votes": VELOCITY_MIN,
            "velocity_factor": VELOCITY_FACTOR, "baseline_min_hours": BASELINE_HOURS}


def bursts(votes: list[Vote], minimum: int, window: timedelta = CLUSTER_WINDOW) -> list[list[Vote]]:
    """Groups of votes where at least `minimum` fall within `window` of each other; overlapping ones merged."""
    ordered = sorted(votes, key=lambda v: (v.cast_at, v.vote_id))
    flagged: set[int] = set()
    start = 0
    for end in range(len(ordered)):
        while ordered[end].cast_at - ordered[start].cast_at > window:
            start += 1
        if end - start + 1 >= minimum:
            flagged.update(range(start, end + 1))
    groups: list[list[Vote]] = []
    for i in sorted(flagged):
        if groups and i - 1 in flagged and ordered[i].cast_at - groups[-1][-1].cast_at <= window:
            groups[-1].append(ordered[i])
        else:
            groups.append([ordered[i]])
    return groups


def _grouped(votes: Iterable[Vote], key: Callable[[Vote], K | None]) -> dict[K, list[Vote]]:
    out: dict[K, list[Vote]] = defaultdict(list)
    for v in votes:
        k = key(v)
        if k is not None:
            out[k].append(v)
    return out


def clusters(votes: list[Vote]) -> list[Finding]:
    """Shared network, shared browser, new accounts and unverified findings (see the module docstring)."""
    found: list[Finding] = []
    by_network = _grouped(votes, lambda v: (v.listing_id, v.network_hash) if v.network_hash else None)
    for key, group in by_network.items():
        for burst in bursts(group, CLUSTER_MIN):
            agents = {v.agent_hash for v in burst}
            found.append(Finding("shared_network", burst[0].listing_id, tuple(burst),
                                 {"network": key[1][:12], "shared_agent": len(agents) == 1 and "" not in agents}))
    by_agent = _grouped(votes, lambda v: (v.listing_id, v.agent_hash) if v.agent_hash else None)
    for key, group in by_agent.items():
        for burst in bursts(group, AGENT_MIN):
            found.append(Finding("shared_agent", burst[0].listing_id, tuple(burst), {"agent": key[1][:12]}))
    fresh = _grouped((v for v in votes if v.fresh), lambda v: v.listing_id)
    for _, group in fresh.items():
        for burst in bursts(group, CLUSTER_MIN):
            found.append(Finding("new_accounts", burst[0].listing_id, tuple(burst), {}))
    unverified = _grouped((v for v in votes if v.email_verified is False), lambda v: v.listing_id)
    for listing_id, group in unverified.items():
        found.append(Finding("unverified", listing_id, tuple(sorted(group, key=lambda v: v.cast_at)), {}))
    return sorted(found, key=lambda f: (f.votes[0].cast_at, f.kind, f.listing_id))


def _hour(at: datetime) -> datetime:
    return at.replace(minute=0, second=0, microsecond=0)


def velocity(votes: list[Vote], until: datetime) -> list[Finding]:
    """Hours in which a listing's votes ran far above its own and the week's baseline."""
    by_listing = _grouped(votes, lambda v: v.listing_id)
    if not by_listing:
        return []
    spans: dict[int, float] = {}
    for listing_id, group in by_listing.items():
        first = _hour(min(v.cast_at for v in group))
        spans[listing_id] = max(float(BASELINE_HOURS), (until - first).total_seconds() / 3600)
    week_rate = len(votes) / sum(spans.values())
    found: list[Finding] = []
    for listing_id, group in by_listing.items():
        hours = _grouped(group, lambda v: _hour(v.cast_at))
        for hour, in_hour in hours.items():
            n = len(in_hour)
            own = (len(group) - n) / max(1.0, spans[listing_id] - 1)
            if n >= VELOCITY_MIN and n >= VELOCITY_FACTOR * own and n >= VELOCITY_FACTOR * week_rate:
                found.append(Finding("velocity", listing_id, tuple(sorted(in_hour, key=lambda v: v.cast_at)),
                                     {"hour": hour, "votes_in_hour": n, "own_baseline": round(own, 2),
                                      "week_baseline": round(week_rate, 2)}))
    return sorted(found, key=lambda f: (f.facts["hour"], f.listing_id))
