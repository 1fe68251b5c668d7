"""The claim -> listing move: a verified claim makes its claimant an owner of a verified listing, in one append.

`ClaimVerified` on the claim stream, `ListingOwnerAdded` and `ListingVerified`
on the listing stream, and an email to each existing owner in the outbox are
decided here together; the handler appends them with `decide_across`, so a
claim is verified if and only if its claimant owns the listing and the owners
have been told (docs/architecture.md, "Moves between aggregates").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from aggregates import listing, mail
from aggregates.base import Meta
from aggregates.claim.decide import decide_verified
from aggregates.claim.state import ClaimState
from aggregates.listing import ListingState
from events.base import Event
from events.errors import Conflict

NOTICE_KIND = "claim_owner_notice"


@dataclass(frozen=True)
class Notice:
    """An email to one existing owner: their outbox stream state and the message."""

    mailbox: mail.EmailState
    account_id: str
    to: str
    subject: str
    text: str


def decide_verification(
    claim: ClaimState, owned: ListingState, listing_domain: str, notices: Sequence[Notice], meta: Meta,
) -> list[Event]:
    """Verify the claim; the claimant becomes an owner, the listing verified; existing owners keep their access.

    Refused (409) when the listing was taken down or its website moved to
    another domain since the claim began: what was proven no longer speaks for it.
    """
    verified = decide_verified(claim, meta)
    listing.require_listing(owned)
    listing.require_open(owned)
    if listing_domain != claim.domain:
        raise Conflict(f"the listing's website is no longer on {claim.domain}; start a new claim")
    added = listing.decide_add_owner(owned, claim.account_id, meta)
    after = owned
    for event in added:  # so the verification is numbered after the new owner
        after = listing.evolve(event, after)
    badge = listing.decide_verify(after, claim.method, meta)
    mails = [e for n in notices
             for e in mail.decide_queue(n.mailbox, n.to, n.subject, n.text, NOTICE_KIND, n.account_id, meta)]
    return [*verified, *added, *badge, *mails]
