"""Staff remove one owner from a listing, saying why, where no claim is involved (a verified claim is voided instead).

The listing decider refuses someone who is not an owner and the last owner
of a listing with an open order (`aggregates.listing.owners`); the open
orders come from the read side (the caller passes their numbers). The removed
account is mailed the reason in the same append, with a link to the listing's
public page when it is live (they no longer own it: the owner's pages are not
theirs now) and, when it is not, whom to write to about it.
"""

from __future__ import annotations

from collections.abc import Sequence

from aggregates import claim, listing, mail
from aggregates.base import Meta
from aggregates.claim import ClaimState
from aggregates.listing import ListingState
from commands.claims import mailable_account, product_name
from commands.site import Site, site_of
from commands.store import Appended, EventStore, Loader
from events.base import Event
from events.errors import Conflict, NotFound

NOTICE_KIND = "owner_removed_notice"


def remove_owner(store: EventStore, listing_id: int, account_id: str, reason: str, meta: Meta,
                 open_orders: Sequence[str] = (), claim_ids: Sequence[int] = (), website: str = "") -> Appended:
    """Take `account_id` off the listing's owners and mail them why (one append).

    `claim_ids` are the listing's verified claims as the read side knows them:
    an owner who came by one of them is refused (409): void that claim instead,
    so the claim and the ownership never disagree. `website`: the site's
    address, for the mail's link to the listing's public page (none without).
    """
    stream = listing.listing_stream(listing_id)

    def decision(load_: Loader) -> list[Event]:
        owned: ListingState = load_(stream, listing)
        if not owned.exists:
            raise NotFound(f"no listing {listing_id}")
        for claim_id in claim_ids:
            c: ClaimState = load_(claim.claim_stream(claim_id), claim)
            if c.status == "verified" and c.account_id == account_id and c.listing_id == listing_id:
                raise Conflict(f"this owner came by claim {claim_id}: void that claim instead (it says why to both sides)")
        events = listing.decide_remove_owner(owned, account_id, reason, meta, open_orders)
        person = mailable_account(load_, account_id)
        if person is not None:
            box = load_(mail.message_id(f"owner-removed:{listing_id}:{account_id}:{owned.version + 1}"), mail)
            page = f"{website.rstrip('/')}/listings/{owned.slug}" if website else ""
            subject, text = _notice(owned, listing.staff_reason(reason), site_of(load_), page)
            events += mail.decide_queue(box, person.email, subject, text, NOTICE_KIND, account_id, meta)
        return events

    return store.decide_across(decision)


UPCOMING = ("awaiting_badge", "scheduled")
"""Statuses whose public address shows the listing's "launching soon" page (the site's upcoming card)."""


def _notice(state: ListingState, why: str, site: Site, page: str = "") -> tuple[str, str]:
    """The removed owner's mail; `page` is the listing's public address (linked while it shows the listing:
    live, or queued and scheduled, as launching soon)."""
    product = product_name(state)
    subject = f"You are no longer an owner of {product} on {site.name}"[: mail.SUBJECT_MAX]
    if state.status == "live":
        where = f"Its public page, where you can still see it: {page}\n\n" if page else ""
    elif state.status in UPCOMING:
        where = f"Its page, where it shows as launching soon until its launch week: {page}\n\n" if page else ""
    else:
        where = f"{product} is not public on {site.name} at the moment, so this email has no link to it.\n\n"
    text = (f"Hello,\n\nThe {site.name} team removed your account from the owners of {product}. The reason given: {why}\n\n"
            f"{where}This address does not take replies. If you think this is a mistake, or have a question about "
            f"{product}, {site.reach()} and name it.")
    return subject, site.signed(text, f"You get this email because you were an owner of {product} on {site.name}.")
