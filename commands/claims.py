"""Claims: prove you run a listed product (DNS record, meta tag, file or emailed link) and become its owner.

- `claim_listing` starts a claim of a live listing on its own stream, with a key
  stream per (account, listing, method[, address]) so a repeated claim answers
  the pending one. An email claim queues its link in the same append.
- `verify_claim` runs the check through the `ClaimChecks` port (DNS and the
  crawler's guarded fetch, wired in `launchdir/bootstrap.py`), then records the
  outcome: a failed check, or the verification move (`aggregates.claim.move`).
- `confirm_claim_link` is the website's side of an emailed link.
- `void_claim` is the staff's undoing of a verified claim (`aggregates.claim.void`).

The network check runs before the append and outside any transaction; the
decision is made again on fresh states afterwards, so a claim verified or
expired meanwhile is left as it is.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlencode
from uuid import UUID

from aggregates import account, claim, listing, mail
from aggregates.base import Meta
from aggregates.claim import ClaimState
from aggregates.listing import ListingState
from commands.claim_inputs import (
    ClaimListing,
    VerifyClaim,
    check_address,
    is_ip,
    listing_website,
    registrable_domain,
)
from commands.listing import listing_id_for_slug
from commands.site import Site, signed, site_of
from commands.store import Appended, EventStore, Loader
from events.base import Event
from events.errors import Conflict, NotFound

LINK_KIND = "claim_link"


@dataclass(frozen=True)
class CheckOutcome:
    """What one check found: `ok`, or a reason code of `events.claim.REASONS` and a sentence for people."""

    ok: bool
    reason: str = ""
    detail: str = ""


class ClaimChecks(Protocol):
    """Looks for a claim's token where its method says (the TXT record, the homepage's meta tag, the file)."""

    def check(self, method: str, domain: str, website_url: str, token: str) -> CheckOutcome: ...


@dataclass(frozen=True)
class Started:
    claim_id: int
    repeated: bool  # the same pending claim answered again
    position: int


@dataclass(frozen=True)
class Checked:
    claim_id: int
    position: int
    outcome: CheckOutcome | None  # None when nothing was checked (closed claim, email claim)


@dataclass(frozen=True)
class Confirmed:
    claim_id: int
    listing_id: int
    status: str
    position: int


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def claim_link(website: str, claim_id: int, secret: str) -> str:
    """Where an email claim's link points: the claim page of the website."""
    return f"{website.rstrip('/')}/claims/confirm?{urlencode({'claim': claim_id, 'token': secret})}"


def load(store: EventStore, claim_id: int) -> ClaimState:
    state: ClaimState = store.load(claim.claim_stream(claim_id), claim)
    return state


def load_mine(store: EventStore, claim_id: int, account_id: str) -> ClaimState:
    """The caller's claim; 404 for anyone else's or none."""
    state = load(store, claim_id)
    claim.require_mine(state, account_id)
    return state


def load_link(store: EventStore, claim_id: int, secret: str) -> ClaimState:
    """The claim an emailed link names, when its secret matches; 404 otherwise."""
    state = load(store, claim_id)
    claim.check_link(state, token_hash(secret))
    return state


def _claimable(state: ListingState, account_id: str) -> tuple[str, str]:
    """(website, registrable domain) of a live listing the caller does not own; 404 / 409 otherwise."""
    if not state.exists or state.status != "live":
        raise NotFound("no live listing with this slug")
    if account_id in state.owner_ids:
        raise Conflict("you own this listing already: there is nothing to claim")
    website = listing_website(state)
    domain = registrable_domain(website) if website else ""
    if not domain:
        raise Conflict("this listing has no website on a registrable domain to prove ownership with; "
                       "ask the site team")
    return website, domain


def claim_listing(
    store: EventStore, cmd: ClaimListing, account_id: str, meta: Meta, *, website: str,
    new_token: Callable[[], str] = lambda: secrets.token_urlsafe(24),
    new_secret: Callable[[], str] = lambda: secrets.token_urlsafe(32),
) -> Started:
    """Start a claim (or answer the pending one of the same account, listing, method and address)."""
    listing_id = listing_id_for_slug(store, cmd.slug)
    if listing_id is None:
        raise NotFound("no live listing with this slug")
    email = cmd.address()
    key_id = claim.key_stream(account_id, listing_id, cmd.method, email)
    claim_id = store.ids.next("claim")  # gaps (a repeated claim, a refusal) are harmless
    token = "" if cmd.method == "email" else new_token()
    secret = new_secret() if cmd.method == "email" else ""

    def decision(load_: Loader) -> list[Event]:
        owned: ListingState = load_(listing.listing_stream(listing_id), listing)
        site, domain = _claimable(owned, account_id)
        if cmd.method == "dns" and is_ip(domain):
            raise Conflict("this listing's website is an IP address, which has no DNS records: use meta or file")
        if cmd.method == "email":
            check_address(email, domain)
        key = load_(key_id, claim.KEY)
        if key.claim_id is not None and load_(claim.claim_stream(key.claim_id), claim).is_open(meta.at):
            return []
        fresh: ClaimState = load_(claim.claim_stream(claim_id), claim)
        events = claim.decide_start(
            fresh, key, claim_id=claim_id, listing_id=listing_id, slug=cmd.slug, account_id=account_id,
            method=cmd.method, domain=domain, website_url=site, token=token,
            token_hash=token_hash(secret) if secret else "", email=email, expires_at=meta.at + claim.TTL, meta=meta,
        )
        if secret:
            box = load_(mail.message_id(f"claim-link:{claim_id}"), mail)
            subject, text = _link_message(owned, domain, claim_link(website, claim_id, secret), site_of(load_).name)
            events += mail.decide_queue(box, email, subject, text, LINK_KIND, account_id, meta)
        return events

    appended = store.decide_across(decision)
    if appended.events:
        return Started(claim_id, False, appended.position)
    pending = appended.states[key_id].claim_id
    assert pending is not None
    return Started(pending, True, appended.position)


def verify_claim(store: EventStore, cmd: VerifyClaim, account_id: str, meta: Meta, checks: ClaimChecks) -> Checked:
    """Check a pending dns, meta or file claim now and record what was found.

    A closed claim (verified, expired) and an email claim are answered as they
    are; a claim that used its checks is a 409; an expired one is closed now.
    """
    state = load_mine(store, cmd.claim_id, account_id)
    if state.status == "failed":
        raise Conflict(claim.USED_UP)
    if state.is_due_to_expire(meta.at):
        expired = store.decide(state.id, claim, lambda s: claim.decide_expire(s, meta))
        return Checked(cmd.claim_id, expired.position, None)
    if state.status != "pending" or state.method == "email":
        return Checked(cmd.claim_id, store.position(), None)
    owned: ListingState = store.load(listing.listing_stream(state.listing_id), listing)
    if registrable_domain(listing_website(owned)) != state.domain:
        raise Conflict(f"the listing's website is no longer on {state.domain}; start a new claim")
    outcome = checks.check(state.method, state.domain, state.website_url, state.token)

    def decision(load_: Loader) -> list[Event]:
        fresh: ClaimState = load_(state.id, claim)
        if fresh.is_due_to_expire(meta.at):
            return claim.decide_expire(fresh, meta)
        if fresh.status != "pending":
            return []
        if outcome.ok:
            return _verification(load_, fresh, meta)
        return claim.decide_check_failed(fresh, outcome.reason, outcome.detail, meta)

    return Checked(cmd.claim_id, store.decide_across(decision).position, outcome)


def confirm_claim_link(store: EventStore, claim_id: int, secret: str, meta: Meta) -> Confirmed:
    """The emailed link was opened and confirmed: verify the claim (once; an expired link closes the claim)."""
    stream = claim.claim_stream(claim_id)

    def decision(load_: Loader) -> list[Event]:
        state: ClaimState = load_(stream, claim)
        claim.check_link(state, token_hash(secret))
        if state.is_due_to_expire(meta.at):
            return claim.decide_expire(state, meta)
        if state.status != "pending":
            return []
        return _verification(load_, state, meta)

    appended = store.decide_across(decision)
    after: ClaimState = appended.states[stream]
    for event in appended.events:
        if event.originator_id == stream:
            after = claim.evolve(event, after)
    return Confirmed(claim_id, after.listing_id, after.status, appended.position)


def _verification(load_: Loader, state: ClaimState, meta: Meta) -> list[Event]:
    """The verification move on fresh states: the claim, the listing, and a notice to each existing owner."""
    owned: ListingState = load_(listing.listing_stream(state.listing_id), listing)
    notices = []
    for owner in owned.owner_ids:
        if owner == state.account_id:
            continue
        person: account.AccountState = load_(UUID(owner), account)
        if not person.exists or not person.email:
            continue
        box = load_(mail.message_id(f"claim-owner-notice:{state.claim_id}:{owner}"), mail)
        subject, text = _owner_notice(owned, state, site_of(load_))
        notices.append(claim.Notice(box, owner, person.email, subject, text))
    domain = registrable_domain(listing_website(owned))
    return claim.decide_verification(state, owned, domain, notices, meta)


def product_name(state: ListingState) -> str:
    return " ".join(str(state.profile.get("name") or state.slug).split())[:120]


def _link_message(state: ListingState, domain: str, link: str, site: str) -> tuple[str, str]:
    product = product_name(state)
    subject = f"Confirm that you run {product} on {site}"[: mail.SUBJECT_MAX]
    text = (
        f"Hello,\n\nSomeone asked to become an owner of the {site} listing of {product}, proving it by "
        f"this address at {domain}.\n\nIf that was you or a colleague, open this link and press Confirm:\n\n"
        f"{link}\n\nThe link works once and expires in {claim.TTL.days} days. "
        "If you did not expect this email, ignore it: nothing changes."
    )
    return subject, signed(text, site, f"You get this email because someone entered this address to claim "
                                       f"{product} on {site}.")


def reach_staff(site: Site, claim_id: int) -> str:
    """How to reach the site team about a claim: this mail's sender takes no replies."""
    return f"This address does not take replies. To reach the {site.name} team, {site.reach()} and name claim {claim_id}."


def _how(c: ClaimState) -> str:
    return {"dns": "a DNS record", "meta": "a tag on the homepage", "file": "a file on the website",
            "email": "an email to an address"}.get(c.method, c.method)


def _owner_notice(state: ListingState, c: ClaimState, site: Site) -> tuple[str, str]:
    product = product_name(state)
    subject = f"Another owner was added to {product} on {site.name}"[: mail.SUBJECT_MAX]
    text = (
        f"Hello,\n\nAn account proved that it runs {product} with {_how(c)} at {c.domain} (claim {c.claim_id}) "
        f"and is now an owner of its {site.name} listing too. You keep your access.\n\n"
        f"If this claim is wrong (for example a DNS record or a file left behind by a previous owner of the "
        f"domain), tell the {site.name} team: staff can void the claim, which takes that account off the owners.\n\n"
        f"{reach_staff(site, c.claim_id)}"
    )
    return subject, site.signed(text, f"You get this email because you own {product} on {site.name}.")


# ---------------------------------------------------------------- staff: voiding a claim


def void_claim(store: EventStore, claim_id: int, reason: str, meta: Meta, other_claims: Sequence[int] = ()) -> Appended:
    """Staff void a verified claim: the claimant stops owning the listing, both sides are mailed (one append).

    `other_claims` are the listing's other verified claims as the read side
    knows them; each is read again here, and the listing keeps its verified
    mark only while one of them still stands for a remaining owner.
    """
    stream = claim.claim_stream(claim_id)

    def decision(load_: Loader) -> list[Event]:
        state: ClaimState = load_(stream, claim)
        claim.decide_void(state, reason, meta)  # refuse before reading anything else
        owned: ListingState = load_(listing.listing_stream(state.listing_id), listing)
        others = [load_(claim.claim_stream(i), claim) for i in other_claims if i != claim_id]
        why = listing.staff_reason(reason)
        site = site_of(load_)
        notices = []
        for who in dict.fromkeys([state.account_id, *owned.owner_ids]):
            person = mailable_account(load_, who)
            if person is None:
                continue
            box = load_(mail.message_id(f"claim-voided:{claim_id}:{who}"), mail)
            subject, text = _void_notice(owned, state, why, site, claimant=who == state.account_id)
            notices.append(claim.Notice(box, who, person.email, subject, text))
        return claim.decide_voiding(state, owned, reason, others, notices, meta)

    return store.decide_across(decision)


def mailable_account(load_: Loader, account_id: str) -> account.AccountState | None:
    """The account with a mail address, or None (no such account, no address, an id that is no account's)."""
    try:
        person: account.AccountState = load_(UUID(account_id), account)
    except ValueError:
        return None
    return person if person.exists and person.email else None


def _void_notice(state: ListingState, c: ClaimState, why: str, site: Site, *, claimant: bool) -> tuple[str, str]:
    product = product_name(state)
    if claimant:
        subject = f"Your claim of {product} on {site.name} was voided"[: mail.SUBJECT_MAX]
        body = (f"The {site.name} team voided your claim {c.claim_id} of {product} (proven with {_how(c)} at {c.domain}). "
                f"The reason given: {why}\n\nYou are no longer an owner of its listing.")
    else:
        subject = f"A claim of {product} on {site.name} was voided"[: mail.SUBJECT_MAX]
        body = (f"The {site.name} team voided claim {c.claim_id} of {product} (proven with {_how(c)} at {c.domain}). "
                f"The reason given: {why}\n\nThe account that made the claim is no longer an owner of the listing; "
                "your access is unchanged.")
    why = (f"You get this email because you claimed {product} on {site.name}." if claimant
           else f"You get this email because you own {product} on {site.name}.")
    return subject, site.signed(f"Hello,\n\n{body}\n\n{reach_staff(site, c.claim_id)}", why)
