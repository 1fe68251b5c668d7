"""Tidying after an account closed before closing ended its follows and withdrew the verified marks it held.

Closing an account now does both in its one append (`commands/account_closure.py`). Accounts
closed before that still count as followers of the listings they followed, and a listing
whose only verified claim was theirs may still show the verified mark although that person
left its owners. `launchdir staff tidy-closed-accounts` runs this once per closed account:
the same decisions as closing makes, with the same reason (`account_closed`), so a tidied
account reads in the history as if closing had done it. Each follow and each listing is
loaded from the write side and decided on as it is now, so running it twice, or after a
newer closing already did the work, records nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from uuid import UUID

from aggregates import account, claim, community
from aggregates import listing as listing_agg
from aggregates.base import Meta
from commands.account_closure import REASON
from commands.store import EventStore, Loader
from events.base import Event
from events.community import ListingUnfollowed
from events.errors import Conflict


@dataclass(frozen=True)
class Leftovers:
    """What the read tables say a closed account still touches; each item is decided on from the write side."""

    account_id: UUID
    followed_ids: tuple[int, ...] = ()  # listings the account ever followed (from the log): each decided as it is now
    verified_claims: dict[int, tuple[int, ...]] = field(default_factory=dict)  # listing id -> its verified claims


@dataclass(frozen=True)
class Tidied:
    position: int
    follows_ended: tuple[int, ...]  # listing ids
    marks_withdrawn: tuple[int, ...]  # listing ids

    @property
    def changed(self) -> bool:
        return bool(self.follows_ended or self.marks_withdrawn)


def tidy_closed_account(store: EventStore, left: Leftovers, meta: Meta) -> Tidied:
    """End the closed account's follows and withdraw the marks no remaining owner's verified claim speaks for.

    Refuses (409) an account that is not closed: closing it is the person's own act, with their password.
    """
    account_id = str(left.account_id)
    withdrawn: list[int] = []  # filled by the attempt that is stored (a conflict runs the decision again)

    def decision(load: Loader) -> list[Event]:
        withdrawn.clear()
        if load(left.account_id, account).closed_at is None:
            raise Conflict(f"account {account_id} is not closed")
        events: list[Event] = []
        for listing_id in left.followed_ids:  # a follow ended meanwhile decides nothing
            follow = load(community.follow_stream(listing_id, account_id), community.TOGGLE)
            events += community.decide_follow(follow, listing_id, account_id, False, meta)
        for listing_id, claim_ids in sorted(left.verified_claims.items()):
            state = load(listing_agg.listing_stream(listing_id), listing_agg)
            if state.exists and state.verified and account_id not in state.owner_ids:
                claims = [load(claim.claim_stream(i), claim) for i in claim_ids]
                mark = claim.decide_mark_kept_or_withdrawn(state, claims, REASON, meta)
                withdrawn.extend([listing_id] if mark else [])
                events += mark
        return events

    appended = store.decide_across(decision)
    return Tidied(
        appended.position,
        tuple(e.listing_id for e in appended.events if isinstance(e, ListingUnfollowed)),
        tuple(withdrawn),
    )
