"""Staff review commands: accept an owner's version, revert chosen fields of a version, or remove a posted update.

The caller (the staff CLI, the staff pages) reads the version from the history
query (`queries/history.py`) and hands over its `VersionRef`; the command reads
the version's own event from the listing stream, checks it is that version,
takes the values from before it, and decides on the listing stream
(`aggregates/listing/review.py`). Only staff reach these commands: the doors
check the role before calling.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from aggregates import listing
from aggregates.base import Meta
from aggregates.listing import ListingState
from aggregates.listing import review
from commands.store import EventStore
from events.base import Event
from events.errors import Conflict, NotFound
from events.listing import ListingCreated, ListingEditReverted, ListingUpdatePosted


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


def remove_update(store: EventStore, version: VersionRef, reason: str, meta: Meta) -> Reviewed:
    """Take the update a version posted off the site, saying why (409 for a version that posted no update).

    Nothing is recorded when the update was removed already (`recorded` False).
    """
    event, _ = _version_event(store, version)
    if not isinstance(event, ListingUpdatePosted):
        raise Conflict(f"version {version.version_id} posted no update: only an update can be removed")
    appended = store.decide(listing.listing_stream(version.listing_id), listing,
                            lambda s: review.decide_remove_update(s, version.version_id, event.update_id, reason, meta))
    return Reviewed(appended.position, recorded=bool(appended.events))


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
