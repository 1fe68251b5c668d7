"""The listing-invites decider: co-owner invites of a listing that has no draft of its owner's to invite from.

A listing saved from a draft invites through the draft (`aggregates/draft/invites.py`), so the invited person
co-owns both. A listing without one (claimed, or made by staff) still needs a way to add a co-owner: its invites
live on a small stream of their own per listing (`invites_stream`), with the same rules as a draft's (at most
`MAX_INVITES` per listing, a link that works once, for `INVITE_TTL`, checked by `check_accept`). Accepting is one
append of `ListingInviteAccepted` here and `ListingOwnerAdded` on the listing (`commands/invites.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import singledispatch
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from aggregates.base import Emitter, Meta
from aggregates.draft.invites import check_accept
from aggregates.draft.state import MAX_INVITES, Invite
from aggregates.listing import ListingState, require_owner
from events.base import Event
from events.errors import Conflict, FieldProblem, InvalidInput
from events.listing_invites import ListingCofounderInvited, ListingInviteAccepted


def invites_stream(listing_id: int) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:listing-invites:{listing_id}")


@dataclass(frozen=True)
class ListingInvitesState:
    id: UUID
    version: int = 0
    listing_id: int = 0
    invites: dict[str, Invite] = field(default_factory=dict)


def initial(stream_id: UUID) -> ListingInvitesState:
    return ListingInvitesState(id=stream_id)


def decide_invite(state: ListingInvitesState, owned: ListingState, account_id: str, *, invite_id: str, email: str,
                  token_hash: str, expires_at: datetime, meta: Meta) -> list[Event]:
    """An owner invites a co-owner by email (404 for anyone else; at most MAX_INVITES per listing)."""
    require_owner(owned, account_id)
    if owned.status == "unpublished":
        raise Conflict("the listing was taken down; it cannot take new co-owners until it is back")
    if len(state.invites) >= MAX_INVITES:
        raise InvalidInput(f"at most {MAX_INVITES} co-owner invites per listing",
                           [FieldProblem("email", "max_items", f"This listing already has {MAX_INVITES} invites.")])
    emit = Emitter(state, meta)
    emit(ListingCofounderInvited, listing_id=owned.listing_id, invite_id=invite_id, email=email,
         token_hash=token_hash, expires_at=expires_at)
    return emit.events


def decide_accept(state: ListingInvitesState, *, invite_id: str, token_hash: str, account_id: str,
                  meta: Meta) -> list[Event]:
    """The invited person (signed in) accepts: nothing when they did already. Each link works once."""
    if not check_accept(state.invites.get(invite_id), token_hash, account_id, meta):
        return []
    emit = Emitter(state, meta)
    emit(ListingInviteAccepted, invite_id=invite_id, account_id=account_id)
    return emit.events


@singledispatch
def evolve(event: Event, state: Any) -> Any:
    return replace(state, version=event.originator_version)


@evolve.register
def _(e: ListingCofounderInvited, s: ListingInvitesState) -> ListingInvitesState:
    invite = Invite(e.invite_id, e.email, e.token_hash, e.timestamp, e.expires_at)
    return replace(s, version=e.originator_version, listing_id=e.listing_id, invites={**s.invites, e.invite_id: invite})


@evolve.register
def _(e: ListingInviteAccepted, s: ListingInvitesState) -> ListingInvitesState:
    invite = replace(s.invites[e.invite_id], accepted_by=e.account_id)
    return replace(s, version=e.originator_version, invites={**s.invites, e.invite_id: invite})
