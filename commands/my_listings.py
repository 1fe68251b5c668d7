"""The owner's listing commands (SPEC §4.5): edit, post an update, add or delete a milestone, set the story.

Each is one `store.decide` on the listing stream through `decide_owned`, so
ownership is checked on the state the decision is made on: a stranger gets the
same 404 as for a listing that does not exist. A listing staff took down
refuses every owner change with a 409 (`require_open`). The events record
who, when and through what (`Meta.via`), which is all version history needs.
"""

from __future__ import annotations

from dataclasses import dataclass

from aggregates import listing
from aggregates.base import Meta
from aggregates.listing import ListingState
from commands.listing import decide_owned
from commands.my_listing_inputs import AddMilestone, DeleteMilestone, PostListingUpdate, SetFounderStory, UpdateMyListing
from commands.store import EventStore
from events.base import Event
from events.listing import ListingMilestoneAdded, ListingUpdatePosted


@dataclass(frozen=True)
class Written:
    """What an owner's write stored: the log position to wait for, and the new part's id when it made one."""

    position: int
    changed: tuple[str, ...] = ()
    new_id: int | None = None


def update_my_listing(store: EventStore, cmd: UpdateMyListing, account_id: str, meta: Meta) -> Written:
    """Apply the changed fields at once; unchanged values are dropped, so an empty edit records nothing."""
    changes = cmd.changes()

    def decision(state: ListingState) -> list[Event]:
        listing.require_open(state)
        return listing.decide_edit(state, changes, meta) if changes else []

    appended = decide_owned(store, cmd.listing_id, account_id, decision)
    changed = tuple(sorted(k for e in appended.events for k in getattr(e, "changes", {})))
    return Written(appended.position, changed)


def post_listing_update(store: EventStore, cmd: PostListingUpdate, account_id: str, meta: Meta) -> Written:
    def decision(state: ListingState) -> list[Event]:
        listing.require_open(state)
        return listing.decide_post_update(state, cmd.title.strip(), cmd.body.strip(), meta)

    appended = decide_owned(store, cmd.listing_id, account_id, decision)
    posted = appended.events[0]
    assert isinstance(posted, ListingUpdatePosted)
    return Written(appended.position, new_id=posted.update_id)


def add_milestone(store: EventStore, cmd: AddMilestone, account_id: str, meta: Meta) -> Written:
    milestone = {"date": cmd.date, "title": cmd.title.strip(), "description": (cmd.description or "").strip(),
                 "url": (cmd.url or "").strip()}

    def decision(state: ListingState) -> list[Event]:
        listing.require_open(state)
        return listing.decide_add_milestone(state, milestone, meta)

    appended = decide_owned(store, cmd.listing_id, account_id, decision)
    added = appended.events[0]
    assert isinstance(added, ListingMilestoneAdded)
    return Written(appended.position, new_id=added.milestone_id)


def delete_milestone(store: EventStore, cmd: DeleteMilestone, account_id: str, meta: Meta) -> Written:
    def decision(state: ListingState) -> list[Event]:
        listing.require_open(state)
        return listing.decide_delete_milestone(state, cmd.milestone_id, meta)

    return Written(decide_owned(store, cmd.listing_id, account_id, decision).position)


def set_founder_story(store: EventStore, cmd: SetFounderStory, account_id: str, meta: Meta) -> Written:
    story = cmd.sections()

    def decision(state: ListingState) -> list[Event]:
        listing.require_open(state)
        return listing.decide_set_story(state, story, meta)

    return Written(decide_owned(store, cmd.listing_id, account_id, decision).position)
