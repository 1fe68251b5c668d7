"""The vote stream with its integrity facts: cast (with signals), withdraw, void and restore; first page views.

A vote stream (`community.vote_stream`, one per person and listing) holds at
most one standing vote. Casting records `VoteCast` and, from the website, the
`VoteSignalsRecorded` computed here from what the door measured (the decider
turns times into durations, so it needs no clock). Staff may void a standing
vote (it stops counting everywhere) and restore it (it counts again at its
original time), each with a reason; both are recorded with who and when on
the event. A voided vote stays standing for its voter: voting again changes
nothing, withdrawing it removes it (`VoidedVoteWithdrawn`, nothing to
uncount), and a later new vote is a new vote.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from functools import singledispatch
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from aggregates.base import Emitter, Meta, StreamKind
from events.base import Event
from events.community import VoteCast, VoteWithdrawn
from events.errors import Conflict, FieldProblem, InvalidInput
from events.votes import AccountFirstPageViewed, VoidedVoteWithdrawn, VoteRestored, VoteSignalsRecorded, VoteVoided

REASON_MAX = 500


def first_view_stream(account_id: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:first-view:{account_id}")


@dataclass(frozen=True)
class Observed:
    """What the website measured at a vote, before it becomes signals (hashes already keyed, never raw)."""

    account_created_at: datetime
    email_verified: bool
    network_hash: str
    agent_hash: str
    first_view_at: datetime | None


@dataclass(frozen=True)
class VoteState:
    id: UUID
    version: int = 0
    on: bool = False
    voided: bool = False
    listing_id: int = 0
    account_id: str = ""
    cast_at: datetime | None = None


@dataclass(frozen=True)
class FirstViewState:
    id: UUID
    version: int = 0
    at: datetime | None = None


def _seconds(later: datetime, earlier: datetime) -> int:
    return max(0, int((later - earlier).total_seconds()))


def decide_cast(state: VoteState, listing_id: int, account_id: str, listing_live: bool, observed: Observed | None,
                meta: Meta) -> list[Event]:
    """One standing vote per person and listing on live listings; with the door's observations, its signals too."""
    if not listing_live:
        raise Conflict("only live listings take votes")
    if state.on:
        return []
    emit = Emitter(state, meta)
    emit(VoteCast, listing_id=listing_id, account_id=account_id)
    if observed is not None:
        since = _seconds(meta.at, observed.first_view_at) if observed.first_view_at else None
        emit(VoteSignalsRecorded, listing_id=listing_id, account_id=account_id,
             account_age_seconds=_seconds(meta.at, observed.account_created_at), email_verified=observed.email_verified,
             network_hash=observed.network_hash, agent_hash=observed.agent_hash, since_first_view_seconds=since)
    return emit.events


def decide_withdraw(state: VoteState, listing_id: int, account_id: str, meta: Meta) -> list[Event]:
    if not state.on:
        return []
    emit = Emitter(state, meta)
    emit(VoidedVoteWithdrawn if state.voided else VoteWithdrawn, listing_id=listing_id, account_id=account_id)
    return emit.events


def _reason(reason: str) -> str:
    text = reason.strip()
    if not text:
        raise InvalidInput("say why", [FieldProblem("reason", "required", "a reason")])
    if len(text) > REASON_MAX:
        raise InvalidInput("the reason is too long", [FieldProblem("reason", "max_length", str(REASON_MAX))])
    return text


def decide_void(state: VoteState, reason: str, meta: Meta) -> list[Event]:
    """Take a standing vote out of the counts; voiding a voided vote again changes nothing."""
    why = _reason(reason)
    if not state.on or state.cast_at is None:
        raise Conflict("there is no standing vote to void")
    if state.voided:
        return []
    emit = Emitter(state, meta)
    emit(VoteVoided, listing_id=state.listing_id, account_id=state.account_id, cast_at=state.cast_at, reason=why)
    return emit.events


def decide_restore(state: VoteState, reason: str, meta: Meta) -> list[Event]:
    """Count a voided vote again at its own time; restoring a counted vote changes nothing."""
    why = _reason(reason)
    if not state.on or state.cast_at is None:
        raise Conflict("there is no standing vote to restore")
    if not state.voided:
        return []
    emit = Emitter(state, meta)
    emit(VoteRestored, listing_id=state.listing_id, account_id=state.account_id, cast_at=state.cast_at, reason=why)
    return emit.events


def decide_first_view(state: FirstViewState, account_id: str, meta: Meta) -> list[Event]:
    """Only the first signed-in page view is recorded."""
    if state.version:
        return []
    emit = Emitter(state, meta)
    emit(AccountFirstPageViewed, account_id=account_id)
    return emit.events


@singledispatch
def evolve(event: Event, state: Any) -> Any:
    return replace(state, version=event.originator_version)


@evolve.register
def _(e: VoteCast, s: VoteState) -> VoteState:
    return replace(s, version=e.originator_version, on=True, voided=False, listing_id=e.listing_id,
                   account_id=e.account_id, cast_at=e.timestamp)


@evolve.register(VoteWithdrawn)
@evolve.register(VoidedVoteWithdrawn)
def _(e: Event, s: VoteState) -> VoteState:
    return replace(s, version=e.originator_version, on=False, voided=False, cast_at=None)


@evolve.register
def _(e: VoteVoided, s: VoteState) -> VoteState:
    return replace(s, version=e.originator_version, voided=True)


@evolve.register
def _(e: VoteRestored, s: VoteState) -> VoteState:
    return replace(s, version=e.originator_version, voided=False)


@evolve.register
def _(e: AccountFirstPageViewed, s: FirstViewState) -> FirstViewState:
    return replace(s, version=e.originator_version, at=e.timestamp)


VOTE: StreamKind[VoteState] = StreamKind(lambda stream: VoteState(id=stream), evolve)
"""Vote streams (`community.vote_stream`) read with their integrity facts."""

FIRST_VIEW: StreamKind[FirstViewState] = StreamKind(lambda stream: FirstViewState(id=stream), evolve)
"""First-page-view streams (`first_view_stream`): one per account."""
