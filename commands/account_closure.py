"""Closing an account: the person, signed in, with the current password and the address typed again.

One append holds the whole move (docs/identity.md, "Closing an account"): every API key revoked
and `AccountClosed` on the account stream, the address released on its own stream (so it can
sign up again as a new account), each OAuth grant revoked, each draft the person submitted and
never saved as a listing discarded, the person removed from the owners of each listing, each
follow ended (`ListingUnfollowed`, as the person's own unfollow, so every follower count drops),
and an email to the address saying it is done. Either all of it is stored or none of it.

Which drafts, listings, grants, follows and orders to look at comes from the read tables
(`ClosureScope`, gathered by the caller): follows live in one small stream per person and
listing, and nothing on the write side lists a person's. Each is then loaded from the write side
and decided on there, so a listing whose owners changed meanwhile, or a follow ended meanwhile,
is decided on as it is now. Sessions are not events: the
caller ends them (`SessionStore.end_all`) once the append is stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from uuid import UUID, uuid4

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from aggregates import account, claim, community, mail, order, staff_roster
from aggregates import draft as draft_agg
from aggregates import listing as listing_agg
from aggregates.base import Meta
from aggregates.draft.discard import decide_discard
from aggregates.listing.leaving import decide_owner_leaves
from commands.account import PASSWORD_MAX, AccountLinks, load_account, other_staff
from commands.account_settings import current_password_matches, revoke_grants
from commands.site import Site, site_contact
from commands.store import EventStore, Loader
from events.account import ApiKeyRevoked
from events.base import Event
from events.errors import FieldProblem, InvalidInput, NotFound

REASON = "account_closed"


class CloseAccount(BaseModel):
    """Close your account: sign-in ends, your drafts go, your listings lose you as owner; orders are kept."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    account_id: UUID
    email: str = Field(max_length=account.EMAIL_MAX)  # typed again, so a closing is never one stray click
    password: SecretStr = Field(max_length=PASSWORD_MAX)


@dataclass(frozen=True)
class ClosureScope:
    """What the read tables say the account touches; each item is decided on from the write side."""

    draft_ids: tuple[UUID, ...] = ()  # drafts the person submitted
    listing_ids: tuple[int, ...] = ()  # listings the person owns
    verified_claims: dict[int, tuple[int, ...]] = field(default_factory=dict)  # listing id -> its verified claims
    grant_ids: tuple[UUID, ...] = ()  # OAuth grants of the person
    followed_ids: tuple[int, ...] = ()  # listings the person follows
    order_numbers: tuple[str, ...] = ()  # orders read as pending
    staff_ids: tuple[str, ...] = ()  # accounts read as staff (each checked on its own stream, with the roster's)


@dataclass(frozen=True)
class Closed:
    position: int
    key_ids: tuple[str, ...]  # the keys revoked now (the caller drops them from its caches)


def check_credentials(state: account.AccountState, cmd: CloseAccount) -> None:
    """Refuse a wrong password (`password`, rule `wrong`) or an address that is not the account's (`email`, `mismatch`)."""
    if not state.exists or state.closed_at is not None:
        raise NotFound("no such account")
    problems: list[FieldProblem] = []
    try:
        typed = account.normalise_email(cmd.email)
    except InvalidInput:
        typed = ""
    if typed != state.email:
        problems.append(FieldProblem("email", "mismatch", "Type the address of this account, as shown above."))
    if not current_password_matches(state, cmd.password.get_secret_value()):
        problems.append(FieldProblem("password", "wrong", "This is not your current password."))
    if problems:
        raise InvalidInput("the account was not closed: " + problems[0].message, problems)


def close_account(store: EventStore, cmd: CloseAccount, scope: ClosureScope, meta: Meta, links: AccountLinks) -> Closed:
    """Close the account in one append, or refuse with the reason (409: an order awaiting payment, the last staff)."""
    check_credentials(load_account(store, cmd.account_id), cmd)
    account_id, former_id = str(cmd.account_id), uuid4().hex

    def decision(load: Loader) -> list[Event]:
        me = load(cmd.account_id, account)
        pending = tuple(n for n in scope.order_numbers if load(order.order_stream(n), order).is_payable(meta.at))
        staff: list[Event] = []
        others = 0
        if me.is_staff:  # the last-staff rule, decided on the write side (`aggregates/staff_roster.py`)
            roster = load(staff_roster.STREAM, staff_roster.ROSTER)
            others = other_staff(load, roster, scope.staff_ids, account_id)
            staff = staff_roster.decide_change(roster, account_id, False, meta)
        events = account.decide_close_account(me, former_id, meta, staff_accounts=others + 1,
                                              awaiting_payment=pending) + staff
        claim = load(account.email_stream_id(me.email), account.EMAIL_CLAIM)
        if claim.account_id == account_id:
            events += account.decide_release_email(claim, me.email, account_id, meta)
        events += revoke_grants(load, scope.grant_ids, account_id, meta)
        for listing_id in scope.followed_ids:  # a follow ended meanwhile decides nothing
            follow = load(community.follow_stream(listing_id, account_id), community.TOGGLE)
            events += community.decide_follow(follow, listing_id, account_id, False, meta)
        for draft_id in scope.draft_ids:
            events += decide_discard(load(draft_id, draft_agg), account_id, REASON, meta)
        for listing_id in scope.listing_ids:
            state = load(listing_agg.listing_stream(listing_id), listing_agg)
            if account_id in state.owner_ids:
                leaving = decide_owner_leaves(state, account_id, REASON, meta)
                events += leaving + _unverified(load, state, leaving, scope.verified_claims.get(listing_id, ()), meta)
        msg = load(mail.message_id(f"account-closed:{account_id}"), mail)
        return events + mail.decide_queue(msg, me.email, *closed_notice(links, site_contact(load)), "account_closed",
                                          None, meta)

    appended = store.decide_across(decision)
    revoked = tuple(e.key_id for e in appended.events if isinstance(e, ApiKeyRevoked))
    return Closed(appended.position, revoked)


def _unverified(load: Loader, state: listing_agg.ListingState, leaving: list[Event],
                claim_ids: tuple[int, ...], meta: Meta) -> list[Event]:
    """The verified mark withdrawn when no verified claim of a remaining owner stands for the listing any more.

    The mark says someone who proved the domain owns the listing: the person leaving may have been that
    someone (the rule of staff voiding a claim, `aggregates/claim/void.py`). Each claim is read again here.
    """
    after = state
    for event in leaving:
        after = listing_agg.evolve(event, after)
    if not after.verified or not after.exists:
        return []
    claims = [load(claim.claim_stream(i), claim) for i in claim_ids]
    return claim.decide_mark_kept_or_withdrawn(after, claims, REASON, meta)


def closed_notice(links: AccountLinks, contact: str = "") -> tuple[str, str]:
    """The email that confirms a closing (to the address, which the account no longer holds); `contact` is the
    site's contact address (the mail comes from an address that takes no replies)."""
    return (
        f"Your {links.site} account was closed",
        links.signed(
            f"Hello,\n\nYour {links.site} account was closed just now, as you asked. You are signed out everywhere, "
            "your API keys and connected apps no longer work, your drafts were discarded and you follow no listing "
            "any more. Listings you owned with others stay with them; a live listing you owned alone stays in the "
            "directory without an owner, and can be claimed by whoever proves its domain. Your orders and receipts "
            "are kept, as the law requires for invoices.\n\n"
            f"This address is free again: you can sign up with it at any time as a new account: "
            f"{links.website}signup\n\n"
            f"If you did not do this, {Site(links.site, contact).reach()} at once."),
    )
