"""Co-founder invites: at most MAX_INVITES per draft, each link works once and expires."""

from __future__ import annotations

import hmac
from datetime import datetime

from aggregates.base import Emitter, Meta
from events.base import Event
from events.draft import (
    DraftCofounderInvited,
    DraftInviteAccepted,
)
from events.errors import Conflict, FieldProblem, InvalidInput, NotFound
from aggregates.draft.state import MAX_INVITES, DraftState, Invite, require_draft


def decide_invite(
    state: DraftState, *, invite_id: str, email: str, token_hash: str, expires_at: datetime, meta: Meta
) -> list[Event]:
    """Invite a co-founder by email; at most MAX_INVITES per draft (and so per listing)."""
    require_draft(state)
    if state.status == "failed":
        raise Conflict("this draft failed; submit the site again before inviting co-founders")
    if len(state.invites) >= MAX_INVITES:
        raise InvalidInput(
            f"at most {MAX_INVITES} co-founder invites per listing",
            [FieldProblem("email", "max_items", f"This draft already has {MAX_INVITES} invites.")],
        )
    emit = Emitter(state, meta)
    emit(DraftCofounderInvited, invite_id=invite_id, email=email, token_hash=token_hash, expires_at=expires_at)
    return emit.events


def decide_accept_invite(
    state: DraftState, *, invite_id: str, token_hash: str, account_id: str, meta: Meta
) -> list[Event]:
    """The invited person (signed in) accepts: they become a co-owner. Each link works once."""
    if not check_accept(state.invites.get(invite_id), token_hash, account_id, meta):
        return []
    emit = Emitter(state, meta)
    emit(DraftInviteAccepted, invite_id=invite_id, account_id=account_id)
    return emit.events


def check_accept(invite: Invite | None, token_hash: str, account_id: str, meta: Meta) -> bool:
    """Whether `account_id` may accept `invite` with the link's token now (False: accepted by them already).

    404 for an unknown invite or a token that does not match (a stranger learns nothing), 409 once someone else
    accepted it, 400 once it expired. Shared by a draft's invites and a listing's (`aggregates.listing_invites`).
    """
    if invite is None or not hmac.compare_digest(invite.token_hash, token_hash):
        raise NotFound("no such invite")
    if invite.accepted_by == account_id:
        return False
    if invite.accepted_by is not None:
        raise Conflict("this invite was already accepted")
    if meta.at >= invite.expires_at:
        raise InvalidInput("this invite has expired", [FieldProblem("token", "expired", "Ask for a new invite.")])
    return True
