"""Staff void a verified claim: the claim -> listing move undone, in one append.

`ClaimVoided` on the claim stream; on the listing stream `ListingOwnerRemoved`
for the claimant (when still an owner) and `ListingVerificationWithdrawn` when
no other verified claim of a remaining owner speaks for the listing; an email
to the claimant and one to each remaining owner. A claim never removed anyone
(owners are only added by claims, docs/claims.md), so nobody has to be put
back: the owners from before the claim kept their access all along.
"""

from __future__ import annotations

from collections.abc import Sequence

from aggregates import listing, mail
from aggregates.base import Meta, one
from aggregates.claim.move import Notice
from aggregates.claim.state import ClaimState
from aggregates.listing import ListingState
from events.base import Event
from events.claim import ClaimVoided
from events.errors import Conflict, NotFound

VOID_KIND = "claim_voided_notice"


def decide_void(state: ClaimState, reason: str, meta: Meta) -> list[Event]:
    """Void a verified claim with the staff's reason; any other claim is a 409 that says why."""
    if not state.exists:
        raise NotFound("no such claim")
    if state.status == "voided":
        raise Conflict(f"claim {state.claim_id} was voided already")
    if state.status != "verified":
        raise Conflict(f"claim {state.claim_id} is {state.status}, not verified: only a verified claim can be voided")
    why = listing.staff_reason(reason)
    return one(state, meta, ClaimVoided, claim_id=state.claim_id, listing_id=state.listing_id,
               account_id=state.account_id, reason=why)


def decide_voiding(claim: ClaimState, owned: ListingState, reason: str, others: Sequence[ClaimState],
                   notices: Sequence[Notice], meta: Meta) -> list[Event]:
    """Void the claim and undo what it did to the listing; `others` are the listing's other claims staff know of.

    The listing keeps its verified mark while another verified claim's
    claimant is still an owner; otherwise the mark is withdrawn.
    """
    voided = decide_void(claim, reason, meta)
    listing.require_listing(owned)
    why = listing.staff_reason(reason)
    removed = (listing.decide_remove_owner(owned, claim.account_id, f"claim {claim.claim_id} voided: {why}", meta)
               if claim.account_id in owned.owner_ids else [])
    after = owned
    for event in removed:
        after = listing.evolve(event, after)
    withdrawn = decide_mark_kept_or_withdrawn(after, [o for o in others if o.claim_id != claim.claim_id],
                                              f"claim {claim.claim_id} voided", meta)
    mails = [e for n in notices
             for e in mail.decide_queue(n.mailbox, n.to, n.subject, n.text, VOID_KIND, n.account_id, meta)]
    return [*voided, *removed, *withdrawn, *mails]


def decide_mark_kept_or_withdrawn(after: ListingState, claims: Sequence[ClaimState], reason: str,
                                  meta: Meta) -> list[Event]:
    """The listing's verified mark withdrawn unless a verified claim of one of its owners (as `after` has them)
    still speaks for it: the rule after a claim is voided and after an owner leaves by closing the account."""
    standing = any(c.status == "verified" and c.listing_id == after.listing_id and c.account_id in after.owner_ids
                   for c in claims)
    return [] if standing else listing.decide_withdraw_verification(after, reason, meta)
