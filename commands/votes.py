"""Vote integrity commands: staff void and restore votes; the website records an account's first page view.

A vote is named by its stream id (`community.vote_stream`, one per person and
listing), which the staff report and `launchdir staff votes` show. Voiding or
restoring several votes is one decision per vote (each vote is its own
stream); the handler answers what changed so the caller can recompute the
awards of a closed week those votes belonged to.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from aggregates import votes
from aggregates.base import Meta
from commands.store import EventStore
from events.errors import FieldProblem, InvalidInput
from events.votes import VoteRestored, VoteVoided


@dataclass(frozen=True)
class VoteChange:
    """One vote staff voided or restored: which listing and when the vote was cast (its week)."""

    vote_id: str
    listing_id: int
    cast_at: datetime
    position: int


def parse_vote_ids(raw: list[str]) -> list[UUID]:
    """Vote ids as the report prints them; a bad one is a 400 naming the field."""
    out: list[UUID] = []
    for value in raw:
        try:
            out.append(UUID(value.strip()))
        except ValueError as exc:
            raise InvalidInput("not a vote id", [FieldProblem("vote", "format_uuid", "a vote id from the report")]) from exc
    if not out:
        raise InvalidInput("name at least one vote", [FieldProblem("vote", "required", "one or more vote ids")])
    return out


def _change(store: EventStore, vote_ids: list[str], reason: str, meta: Meta, void: bool) -> list[VoteChange]:
    changes: list[VoteChange] = []
    for stream in parse_vote_ids(vote_ids):
        decide = votes.decide_void if void else votes.decide_restore
        appended = store.decide(stream, votes.VOTE, lambda s: decide(s, reason, meta))  # noqa: B023 - used at once
        for event in appended.events:
            if isinstance(event, VoteVoided | VoteRestored):
                changes.append(VoteChange(str(stream), event.listing_id, event.cast_at, appended.position))
    return changes


def void_votes(store: EventStore, vote_ids: list[str], reason: str, meta: Meta) -> list[VoteChange]:
    """Take standing votes out of every count; votes already voided are left as they are."""
    return _change(store, vote_ids, reason, meta, void=True)


def restore_votes(store: EventStore, vote_ids: list[str], reason: str, meta: Meta) -> list[VoteChange]:
    """Count voided votes again at their original times; counted votes are left as they are."""
    return _change(store, vote_ids, reason, meta, void=False)


def first_view(store: EventStore, account_id: str) -> datetime | None:
    """When the account's first signed-in page view was recorded (None: not yet)."""
    return store.load(votes.first_view_stream(account_id), votes.FIRST_VIEW).at


def record_first_view(store: EventStore, account_id: str, meta: Meta) -> int:
    """Record the account's first signed-in page view; later views change nothing."""
    return store.decide(votes.first_view_stream(account_id), votes.FIRST_VIEW,
                        lambda s: votes.decide_first_view(s, account_id, meta)).position
