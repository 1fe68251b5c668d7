"""Co-founder invites: an emailed link that makes its (signed-in) opener a co-owner of a draft and its listing.

The link carries a random 256-bit secret; only its SHA-256 is stored in the
draft's events. The invite and its email (the outbox, `aggregates/mail.py`) are
appended together, so an invite exists if and only if its email is queued.

A listing without a draft of its owner's (a claimed one) invites on its own
invites stream (`aggregates/listing_invites.py`) by the same rules:
`invite_to_listing`, `accept_listing_invite`; its link names the listing
instead of a draft.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated
from urllib.parse import urlencode
from uuid import UUID

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from aggregates import draft as d
from aggregates import listing, listing_invites, mail
from aggregates.base import Meta
from commands.draft import InviteCofounder, load_owned
from commands.draft_inputs import EMAIL_PATTERN
from commands.site import signed, site_of
from commands.store import EventStore, Loader
from events.base import Event
from events.errors import NotFound


@dataclass(frozen=True)
class Invited:
    draft_id: UUID
    invite_id: str
    email: str
    link: str
    position: int


@dataclass(frozen=True)
class Accepted:
    draft_id: UUID
    listing_id: int | None
    position: int


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def invite_link(website: str, draft_id: UUID, invite_id: str, token: str) -> str:
    """Where the emailed link points: the invite page of the website."""
    query = urlencode({"draft": str(draft_id), "invite": invite_id, "token": token})
    return f"{website.rstrip('/')}/invites/accept?{query}"


def invite_cofounder(
    store: EventStore, cmd: InviteCofounder, account_id: str, meta: Meta, *, website: str,
    new_token: Callable[[], str] = lambda: secrets.token_urlsafe(32),
    new_invite_id: Callable[[], str] = lambda: uuid.uuid4().hex[:16],
) -> Invited:
    """Record the invite and queue its email in one append (at most 10 invites per draft)."""
    email = cmd.email.strip().lower()
    token, invite_id = new_token(), new_invite_id()
    link = invite_link(website, cmd.id, invite_id, token)

    def decision(load: Loader) -> list[Event]:
        state = load_owned(store, cmd.id, account_id)
        events = d.decide_invite(state, invite_id=invite_id, email=email, token_hash=token_hash(token),
                                 expires_at=meta.at + d.INVITE_TTL, meta=meta)
        msg = load(mail.message_id(f"draft-invite:{cmd.id}:{invite_id}"), mail)
        subject, text = _message(state, link, site_of(load).name)
        return events + mail.decide_queue(msg, email, subject, text, "cofounder_invite", None, meta)

    return Invited(cmd.id, invite_id, email, link, store.decide_across(decision).position)


def accept_invite(
    store: EventStore, draft_id: UUID, invite_id: str, token: str, account_id: str, meta: Meta
) -> Accepted:
    """The signed-in opener of the link becomes a co-owner of the draft and, if there is one, its listing.

    Both in one append: a co-owner of the draft is a co-owner of its listing.
    """
    stream = d.draft_stream(draft_id)

    def decision(load: Loader) -> list[Event]:
        state: d.DraftState = load(stream, d)
        if not state.exists:
            raise NotFound(f"no draft {draft_id}")
        events = d.decide_accept_invite(state, invite_id=invite_id, token_hash=token_hash(token),
                                        account_id=account_id, meta=meta)
        if state.listing_id is None:
            return events
        owned = load(listing.listing_stream(state.listing_id), listing)
        return events + listing.decide_add_owner(owned, account_id, meta)

    appended = store.decide_across(decision)
    listing_id: int | None = appended.states[stream].listing_id
    return Accepted(draft_id, listing_id, appended.position)


_WHY = "You get this email because an owner of the product entered this address to invite you."


def _message(state: d.DraftState, link: str, site: str) -> tuple[str, str]:
    product = " ".join(str(state.value("name") or state.site).split())[:120]
    subject = f"You are invited to co-own {product} on {site}"[: mail.SUBJECT_MAX]
    text = (
        f"Hello,\n\nYou have been invited to co-own the {site} profile of {product} ({state.url}).\n\n"
        f"Sign in (or create an account) and open this link to accept:\n\n{link}\n\n"
        f"The link works once and expires in {d.INVITE_TTL.days} days. "
        "If you do not know what this is about, ignore this email."
    )
    return subject, signed(text, site, _WHY)


# ---------------------------------------------------------------- a listing's own invites


_EMAIL = re.compile(EMAIL_PATTERN)


def _email(value: str) -> str:
    if not _EMAIL.fullmatch(value):
        raise ValueError("must be an email address like name@example.com")
    return value


class InviteListingCoOwner(BaseModel):
    """Invite a co-owner by email to a listing that has no draft of yours to invite from (at most 10 invites)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    listing_id: int = Field(ge=1, le=2_147_483_647)
    email: Annotated[str, AfterValidator(_email)] = Field(min_length=3, max_length=254)


@dataclass(frozen=True)
class ListingInvited:
    listing_id: int
    invite_id: str
    email: str
    link: str
    position: int


def listing_invite_link(website: str, listing_id: int, invite_id: str, token: str) -> str:
    """Where a listing invite's emailed link points: the same invite page, naming the listing."""
    query = urlencode({"listing": str(listing_id), "invite": invite_id, "token": token})
    return f"{website.rstrip('/')}/invites/accept?{query}"


def load_listing_invites(store: EventStore, listing_id: int) -> listing_invites.ListingInvitesState:
    state: listing_invites.ListingInvitesState = store.load(listing_invites.invites_stream(listing_id), listing_invites)
    return state


def invite_to_listing(
    store: EventStore, cmd: InviteListingCoOwner, account_id: str, meta: Meta, *, website: str,
    new_token: Callable[[], str] = lambda: secrets.token_urlsafe(32),
    new_invite_id: Callable[[], str] = lambda: uuid.uuid4().hex[:16],
) -> ListingInvited:
    """An owner invites a co-owner of the listing: the invite and its email in one append (404 for non-owners)."""
    listing_id, address = cmd.listing_id, cmd.email.strip().lower()
    token, invite_id = new_token(), new_invite_id()
    link = listing_invite_link(website, listing_id, invite_id, token)

    def decision(load: Loader) -> list[Event]:
        owned: listing.ListingState = load(listing.listing_stream(listing_id), listing)
        state = load(listing_invites.invites_stream(listing_id), listing_invites)
        events = listing_invites.decide_invite(state, owned, account_id, invite_id=invite_id, email=address,
                                               token_hash=token_hash(token), expires_at=meta.at + d.INVITE_TTL,
                                               meta=meta)
        msg = load(mail.message_id(f"listing-invite:{listing_id}:{invite_id}"), mail)
        subject, text = _listing_message(owned, link, site_of(load).name)
        return events + mail.decide_queue(msg, address, subject, text, "cofounder_invite", None, meta)

    return ListingInvited(listing_id, invite_id, address, link, store.decide_across(decision).position)


def accept_listing_invite(store: EventStore, listing_id: int, invite_id: str, token: str, account_id: str,
                          meta: Meta) -> int:
    """The signed-in opener of the link becomes a co-owner of the listing, in the same append as the acceptance."""
    stream = listing_invites.invites_stream(listing_id)

    def decision(load: Loader) -> list[Event]:
        state = load(stream, listing_invites)
        events = listing_invites.decide_accept(state, invite_id=invite_id, token_hash=token_hash(token),
                                               account_id=account_id, meta=meta)
        if not events:
            return []
        owned = load(listing.listing_stream(listing_id), listing)
        return events + listing.decide_add_owner(owned, account_id, meta)

    return store.decide_across(decision).position


def _listing_message(owned: listing.ListingState, link: str, site: str) -> tuple[str, str]:
    product = " ".join(str(owned.profile.get("name") or owned.slug).split())[:120]
    website = str(owned.profile.get("website_url") or "")
    subject = f"You are invited to co-own {product} on {site}"[: mail.SUBJECT_MAX]
    text = (
        f"Hello,\n\nYou have been invited to co-own the {site} listing of {product}"
        f"{f' ({website})' if website else ''}.\n\n"
        f"Sign in (or create an account) and open this link to accept:\n\n{link}\n\n"
        f"The link works once and expires in {d.INVITE_TTL.days} days. "
        "If you do not know what this is about, ignore this email."
    )
    return subject, signed(text, site, _WHY)
