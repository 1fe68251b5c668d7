"""Events of a listing's co-owner invites: the invites of a listing that has no draft of its owner's to invite from.

A listing saved from a draft invites through its draft (`events.draft.DraftCofounderInvited`: the invited
person co-owns both). A listing without one (a claimed listing, one made by staff) keeps its invites on a stream
of its own, so an owner can still invite a co-owner (docs/submission.md, "Co-owners of a listing").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from events.base import Event


@dataclass(frozen=True, kw_only=True)
class ListingCofounderInvited(Event):
    listing_id: int
    invite_id: str
    email: str
    token_hash: str  # sha256 hex of the secret in the emailed link
    expires_at: datetime


@dataclass(frozen=True, kw_only=True)
class ListingInviteAccepted(Event):
    invite_id: str
    account_id: str
