"""Staff review commands: accept an owner's version, revert chosen fields of a version, or remove a posted update.

The caller (the staff CLI, the staff pages) reads the version from the history
query (`queries/history.py`) and hands over its `VersionRef`; the command reads
the version's own event from the listing stream, checks it is that version,
takes the values from before it, and decides on the listing stream
(`aggregates/listing/review.py`). Only staff reach these commands: the doors
check the role before calling.

Removing an update tells the listing's owners, in the same append as the
removal (as `commands/owners.py` tells a removed owner): one email to each
owner with a confirmed address, saying which update (its title and the day
it was posted), the staff's reason and whom to write to. Each email's dedupe
key names the listing, the update and the owner, and a removal is recorded
once (a second one decides nothing), so retries, a second server process or
staff pressing the button twice never mail anyone twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timezone

from aggregates import listing, mail
from aggregates.base import Meta
from aggregates.listing import ListingState
from aggregates.listing import review
from commands.claims import mailable_account, product_name
from commands.site import Site, site_of
from commands.store import EventStore, Loader
from events.base import Event
from events.errors import Conflict, NotFound
from events.listing import ListingCreated, ListingEditReverted, ListingUpdatePosted, ListingUpdateRemoved
from events.mail import EmailQueued

REMOVED_KIND = "update_removed_notice"  # the owners' email of a removed update (the outbox's `kind`)


@dataclass(frozen=True)
class VersionRef:
    """One version as the history query shows it: its id (log position), listing, stream version and kind."""

    version_id: int
    listing_id: int
    stream_version: int
    kind: str


@dataclass(frozen=True)
class Reviewed:
    """What a review stored: the position to wait for, and the fields put back (empty when nothing moved)."""

    position: int
    fields: tuple[str, ...] = ()
    recorded: bool = True  # False when the decision recorded nothing (accepted already, or nothing to put back)
    mailed: int = 0  # owners mailed about it (a removed update)


def accept(store: EventStore, version: VersionRef, meta: Meta) -> Reviewed:
    """Let an owner's version stand (409 for a version that needs no review or whose fields were put back)."""
    event, _ = _version_event(store, version)
    if isinstance(event, ListingCreated):  # creation is never reviewed (docs/history-and-review.md)
        raise Conflict(f"version {version.version_id} created the listing: creation needs no review")
    if not review.needs_review(event.actor):
        raise Conflict(f"version {version.version_id} was made by {event.actor}: it needs no review")
    appended = store.decide(listing.listing_stream(version.listing_id), listing,
                            lambda s: review.decide_accept_version(s, version.version_id, meta))
    return Reviewed(appended.position, recorded=bool(appended.events))


def revert(store: EventStore, version: VersionRef, fields: Sequence[str], meta: Meta) -> Reviewed:
    """Put the chosen fields of a version (all of them when none are named) back to their values before it."""
    event, prior = _version_event(store, version)
    befores = review.before_values(event, prior)
    appended = store.decide(listing.listing_stream(version.listing_id), listing,
                            lambda s: review.decide_revert(s, version.version_id, list(fields), befores, meta))
    put_back = tuple(k for e in appended.events if isinstance(e, ListingEditReverted) for k in e.changes)
    return Reviewed(appended.position, put_back, recorded=bool(appended.events))


def remove_update(store: EventStore, version: VersionRef, reason: str, meta: Meta, website: str = "") -> Reviewed:
    """Take the update a version posted off the site, saying why, and mail its owners (409 for a version that posted
    no update). `website`: the site's address, for the mail's link to the owners' page of the listing (none without).

    Nothing is recorded and nobody is mailed when the update was removed already (`recorded` False).
    """
    posted, _ = _version_event(store, version)
    if not isinstance(posted, ListingUpdatePosted):
        raise Conflict(f"version {version.version_id} posted no update: only an update can be removed")
    update = posted  # the narrowed type, for the decision below

    def decision(load_: Loader) -> list[Event]:
        state: ListingState = load_(listing.listing_stream(version.listing_id), listing)
        removal = review.decide_remove_update(state, version.version_id, update.update_id, reason, meta)
        told = [m for e in removal if isinstance(e, ListingUpdateRemoved)  # removed now: the owners are told too
                for m in _owner_mails(load_, state, update, e.reason, meta, website)]
        return [*told, *removal]  # the removal last: the position returned is its version's id, as for a revert

    appended = store.decide_across(decision)
    mailed = sum(isinstance(e, EmailQueued) for e in appended.events)
    return Reviewed(appended.position, recorded=bool(appended.events), mailed=mailed)


def _owner_mails(load_: Loader, state: ListingState, update: ListingUpdatePosted, why: str,
                 meta: Meta, website: str = "") -> list[Event]:
    """One email to each owner with a confirmed address (closed accounts and unconfirmed addresses are left out)."""
    page = f"{website.rstrip('/')}/my/listings/{state.listing_id}" if website else ""
    subject, text = removal_email(product_name(state), update, why, site_of(load_), page)
    events: list[Event] = []
    for account_id in dict.fromkeys(state.owner_ids):
        person = mailable_account(load_, account_id)
        if person is None or not person.email_verified or person.closed_at is not None:
            continue
        box = load_(mail.message_id(f"update-removed:{state.listing_id}:{update.update_id}:{account_id}"), mail)
        events += mail.decide_queue(box, person.email, subject, text, REMOVED_KIND, account_id, meta)
    return events


def removal_email(product: str, update: ListingUpdatePosted, why: str, site: Site, page: str = "") -> tuple[str, str]:
    """The subject and plain text the owners of `product` get when staff removed its `update`, saying `why`; `page`,
    when given, is the owners' page of the listing, where a new update is posted."""
    day = update.timestamp.astimezone(timezone.utc).date()  # the day the listing's page shows under the update
    posted = f"{day.day} {day:%B %Y}"
    title = " ".join(update.title.split())
    subject = f"An update of {product} was removed from {site.name}"[: mail.SUBJECT_MAX]
    text = (f"Hello,\n\nThe {site.name} team removed an update of {product} from its listing: \"{title}\", "
            f"posted on {posted}. The reason given: {why}\n\n"
            f"It no longer shows on the listing's page, among its latest updates or in the updates feed, and "
            f"followers who had not been mailed it yet will not be. The rest of the listing is unchanged, and you "
            f"can post a new update at any time{': ' + page if page else ''}.\n\n"
            f"This address does not take replies. If you think this is a mistake, {site.reach()} and name {product} "
            f"and the update's title.")
    return subject, site.signed(text, f"You get this email because you own {product} on {site.name}.")


def _version_event(store: EventStore, version: VersionRef) -> tuple[Event, ListingState]:
    """The version's event and the listing's state just before it (NotFound when the stream disagrees)."""
    stream = listing.listing_stream(version.listing_id)
    state: ListingState = listing.initial(stream)
    for event in store.stream(stream):
        if event.originator_version == version.stream_version:
            if review.KINDS.get(type(event)) != version.kind:
                break
            return event, state
        state = listing.evolve(event, state)
    raise NotFound(f"no version {version.version_id} of listing {version.listing_id}")
