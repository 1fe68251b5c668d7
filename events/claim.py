"""Events of the Claim aggregate (someone proving they run a listed product) and of its key streams.

A claim is its own stream (`aggregates.claim.claim_stream(claim_id)`). Its
success is one append across streams: `ClaimVerified` here and
`ListingOwnerAdded` (and `ListingVerified`) on the listing, so the listing's
owner events need no reference back: the claim that made an owner is the
`ClaimVerified` of the same transaction (docs/claims.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from events.base import Event

METHODS = ("dns", "meta", "file", "email")
STATUSES = ("pending", "verified", "expired", "failed", "voided")
REASONS = ("record_not_found", "wrong_value", "unreachable", "timeout", "blocked", "expired", "too_many_attempts")
"""Why a claim is not verified: a check's outcome (the first five), or the claim's end (the last two)."""

DNS_LABEL = "_launchdir-challenge"  # the TXT record lives at `_launchdir-challenge.<registrable domain>`
META_NAME = "launchdir-verification"  # <meta name="launchdir-verification" content="TOKEN"> on the homepage
FILE_PATH = "/.well-known/launchdir-verification.txt"  # a text file at the website's origin holding the token


@dataclass(frozen=True, kw_only=True)
class ClaimStarted(Event):
    """A claim of a live listing by `account_id`, to be proven by `method` on the listing's registrable domain.

    `token` is what the claimant publishes (dns, meta, file): not a secret from
    them, it only proves control of the domain, so they can read it again in
    list_my_claims. For `email` the emailed link's secret is kept only as
    `token_hash` (SHA-256) and `token` is empty.
    """

    claim_id: int
    listing_id: int
    slug: str
    account_id: str
    method: str  # "dns" | "meta" | "file" | "email"
    domain: str  # registrable domain (public suffix aware) of the listing's website
    website_url: str  # the listing's website when the claim began: meta and file are checked at its origin
    token: str
    token_hash: str
    email: str  # the address the link went to (email method), else ""
    expires_at: datetime


@dataclass(frozen=True, kw_only=True)
class ClaimCheckFailed(Event):
    """One check (verify_claim) did not find the token; `reason` is a code from `aggregates.claim.REASONS`."""

    attempt: int
    reason: str
    detail: str


@dataclass(frozen=True, kw_only=True)
class ClaimAttemptsUsedUp(Event):
    """The claim failed its last allowed check: it is closed (`failed`); a new claim may start."""

    attempts: int


@dataclass(frozen=True, kw_only=True)
class ClaimVerified(Event):
    """Proven: the same append makes the claimant an owner of the listing and the listing verified."""

    claim_id: int
    listing_id: int
    account_id: str
    method: str


@dataclass(frozen=True, kw_only=True)
class ClaimExpired(Event):
    """A check or a link arrived after `expires_at`: the claim is closed (`expired`)."""


@dataclass(frozen=True, kw_only=True)
class ClaimKeyTaken(Event):
    """The key stream of (account, listing, method[, address]) now points at `claim_id`.

    Repeating a claim while it is pending answers the same claim; the key's
    stream version makes two racing requests agree on one.
    """

    claim_id: int


@dataclass(frozen=True, kw_only=True)
class ClaimVoided(Event):
    """Staff voided a verified claim, saying why: it no longer counts, and its claimant is no longer an owner.

    The same append removes the claimant from the listing's owners
    (`ListingOwnerRemoved`), withdraws the listing's verified mark when no
    other verified claim of a remaining owner stands (`ListingVerificationWithdrawn`),
    and mails the claimant and the remaining owners (docs/claims.md, "Voiding a claim").
    """

    claim_id: int
    listing_id: int
    account_id: str
    reason: str
