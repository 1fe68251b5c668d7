"""Listing commands: create, edit, publish (free queue, paid, staff), unlock, feature, owners.

Creation claims the slug in its own stream and creates the listing in one
atomic append, so two listings can never share a slug. Every other command is
one `store.decide` on the listing stream.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from eventsourcing.persistence import IntegrityError
from pydantic import BaseModel, ConfigDict, Field

from aggregates import catalog, listing
from aggregates.base import Meta
from aggregates.listing import ListingState
from aggregates.weeks import week_of
from commands.store import Appended, EventStore
from events.base import Event
from events.errors import Conflict, FieldProblem, InvalidInput, NotFound
from events.listing import ListingMilestoneAdded, ListingUpdatePosted

MAX_SLUG_TRIES = 50


@dataclass(frozen=True)
class Created:
    listing_id: int
    slug: str
    position: int


class CreateListing(BaseModel):
    """Create a saved, unpublished listing (from a draft, by staff, or for the demo)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    profile: dict[str, Any]
    categories: list[str] = Field(min_length=1, max_length=4)
    owner_ids: list[str] = Field(default_factory=list)
    source: str = "staff"
    draft_id: str | None = None
    slug: str | None = None
    socials: dict[str, str] = Field(default_factory=dict)
    faqs: list[dict[str, str]] = Field(default_factory=list)
    founders: list[dict[str, Any]] = Field(default_factory=list)
    story: dict[str, str] = Field(default_factory=dict)
    milestones: list[dict[str, Any]] = Field(default_factory=list)
    not_found_on_website: list[str] = Field(default_factory=list)


def load(store: EventStore, listing_id: int) -> ListingState:
    state: ListingState = store.load(listing.listing_stream(listing_id), listing)
    return _existing(state, listing_id)


def _existing(state: ListingState, listing_id: int) -> ListingState:
    if not state.exists:
        raise NotFound(f"no listing {listing_id}")
    return state


def _decide(store: EventStore, listing_id: int, decision: Callable[[ListingState], Sequence[Event]]) -> Appended:
    """`store.decide` on an existing listing (NotFound when there is none)."""
    return store.decide(listing.listing_stream(listing_id), listing, lambda s: decision(_existing(s, listing_id)))


def load_owned(store: EventStore, listing_id: int, account_id: str) -> ListingState:
    """The listing when `account_id` owns it; NotFound (404) otherwise, whether or not it exists."""
    state: ListingState = store.load(listing.listing_stream(listing_id), listing)
    listing.require_owner(state, account_id)
    return state


def decide_owned(store: EventStore, listing_id: int, account_id: str,
                 decision: Callable[[ListingState], Sequence[Event]]) -> Appended:
    """`store.decide` on a listing the caller owns (NotFound for anyone else, checked on every attempt)."""
    def owned(state: ListingState) -> Sequence[Event]:
        listing.require_owner(state, account_id)
        return decision(state)

    return store.decide(listing.listing_stream(listing_id), listing, owned)


class SiteTaken(Protocol):
    """The public listing that already stands for a website's site, asked for `account_id` (None: none does)."""

    def __call__(self, website_url: str, account_id: str) -> Any: ...


def refuse_taken_site(state: ListingState, account_id: str, site_taken: SiteTaken | None) -> None:
    """A saved listing launching (free or paid): refused when a public listing of its site appeared meanwhile."""
    if state.status == "draft":
        refuse_taken_website(str(state.profile.get("website_url") or ""), account_id, site_taken, state.listing_id)


def refuse_taken_website(website_url: str, account_id: str, site_taken: SiteTaken | None, listing_id: int = 0) -> None:
    """A site with a public listing gets no second one (docs/submission.md, "One listing per site"): claim that
    one, or keep editing your own. Asked when a listing is made from a draft, and again when a saved one
    launches, since a public listing of its site may have appeared in between."""
    taken = site_taken(website_url, account_id) if site_taken is not None and website_url else None
    if taken is None or taken.listing_id == listing_id:
        return
    if taken.yours:
        raise Conflict(f"you already have a listing of this site, {taken.slug!r}: edit it (update_my_listing) "
                       "instead of listing the site again")
    raise Conflict(f"this site already has a listing, {taken.slug!r}, by someone else: if the site is yours, "
                   f"claim that listing (claim_listing, or 'Is this yours? Claim it' on its page) instead of listing "
                   "the site again")


def listing_id_for_slug(store: EventStore, slug: str) -> int | None:
    return store.load(listing.slug_stream(slug), listing.SLUG).listing_id


def check_categories(store: EventStore, categories: list[str]) -> None:
    known = store.load(catalog.CATALOG_ID, catalog).categories
    unknown = [c for c in categories if c not in known]
    if unknown:
        raise InvalidInput(
            f"unknown categories: {', '.join(unknown)}",
            [FieldProblem("fields.categories", "enum", "category slugs from list_categories")],
        )


def create_listing(store: EventStore, cmd: CreateListing, meta: Meta) -> Created:
    """Allocate an id, claim a free slug (name-based, suffixed -2, -3... when taken), create.

    The slug claim and the listing (with its extra categories unlocked and set,
    when there are any) are one append: a listing is never half made.
    """
    check_categories(store, cmd.categories)
    listing_id = store.ids.next("listing")
    base = cmd.slug or listing.slugify(str(cmd.profile.get("name", "")))
    for n in range(1, MAX_SLUG_TRIES + 1):
        slug = base if n == 1 else f"{base[:210]}-{n}"
        slug_state = store.load(listing.slug_stream(slug), listing.SLUG)
        if slug_state.listing_id is not None:
            if cmd.slug:
                raise Conflict(f"the slug {slug!r} is taken")
            continue
        state = listing.initial(listing.listing_stream(listing_id))
        events = listing.decide_claim_slug(slug_state, slug, listing_id, meta) + listing.decide_create_with_extras(
            state, listing_id=listing_id, slug=slug, owner_ids=cmd.owner_ids, source=cmd.source,
            draft_id=cmd.draft_id, profile=cmd.profile, categories=cmd.categories, socials=cmd.socials,
            faqs=cmd.faqs, founders=cmd.founders, story=cmd.story, milestones=cmd.milestones,
            not_found_on_website=cmd.not_found_on_website, meta=meta,
        )
        try:
            position = store.append(events)
        except IntegrityError:  # a racing claim of the same slug (or id): try the next slug
            continue
        return Created(listing_id, slug, position)
    raise Conflict("no free slug found for this name")


def create_listings_batch(store: EventStore, cmds: list[CreateListing], meta: Meta, publish_week: str | None = None,
                          plan: str = "free") -> list[Created]:
    """Create many listings in one append: the same events as create_listing (and staff_publish with `publish_week`).

    Slugs are name-based, unique within the batch, and suffixed (-2, -3...) when
    taken: a conflicting append finds which slugs are taken and tries again.
    Commands with extra categories go through create_listing one by one.
    """
    if not cmds:
        return []
    check_categories(store, sorted({c for cmd in cmds for c in cmd.categories}))
    if any(len(cmd.categories) > 1 for cmd in cmds):
        return _one_by_one(store, cmds, meta, publish_week, plan)
    ids = store.ids.next_many("listing", len(cmds))
    taken: set[str] = set()
    for _ in range(3):
        events, made = _batch_events(cmds, ids, taken, meta, publish_week, plan)
        try:
            position = store.append(events)
        except IntegrityError:  # slugs taken before this batch (or a racing claim)
            taken |= {slug for _, slug in made if listing_id_for_slug(store, slug) is not None}
            continue
        return [Created(listing_id, slug, position) for listing_id, slug in made]
    return _one_by_one(store, cmds, meta, publish_week, plan)


def _batch_events(cmds: list[CreateListing], ids: list[int], taken: set[str], meta: Meta, week: str | None,
                  plan: str) -> tuple[list[Any], list[tuple[int, str]]]:
    events: list[Any] = []
    made: list[tuple[int, str]] = []
    used = set(taken)
    for cmd, listing_id in zip(cmds, ids, strict=True):
        base = cmd.slug or listing.slugify(str(cmd.profile.get("name", "")))
        slug, n = base, 1
        while slug in used:
            n += 1
            slug = f"{base[:210]}-{n}"
        used.add(slug)
        state = listing.initial(listing.listing_stream(listing_id))
        created = listing.decide_create(
            state, listing_id=listing_id, slug=slug, owner_ids=cmd.owner_ids, source=cmd.source, draft_id=cmd.draft_id,
            profile=cmd.profile, categories=cmd.categories, socials=cmd.socials, faqs=cmd.faqs, founders=cmd.founders,
            story=cmd.story, milestones=cmd.milestones, not_found_on_website=cmd.not_found_on_website, meta=meta,
        )
        events += listing.decide_claim_slug(listing.initial_slug(listing.slug_stream(slug)), slug, listing_id, meta)
        events += created
        if week is not None:
            events += listing.decide_staff_publish(listing.evolve(created[0], state), week, plan, meta)
        made.append((listing_id, slug))
    return events, made


def _one_by_one(store: EventStore, cmds: list[CreateListing], meta: Meta, week: str | None, plan: str) -> list[Created]:
    out = []
    for cmd in cmds:
        created = create_listing(store, cmd, meta)
        if week is not None:
            created = Created(created.listing_id, created.slug, staff_publish(store, created.listing_id, meta, week, plan))
        out.append(created)
    return out


def edit_listing(store: EventStore, listing_id: int, changes: dict[str, Any], meta: Meta) -> int:
    if "categories" in changes and changes["categories"]:
        check_categories(store, list(changes["categories"]))
    return _decide(store, listing_id, lambda s: listing.decide_edit(s, changes, meta)).position


def set_story(store: EventStore, listing_id: int, story: dict[str, str], meta: Meta) -> int:
    return _decide(store, listing_id, lambda s: listing.decide_set_story(s, story, meta)).position


def add_milestone(store: EventStore, listing_id: int, milestone: dict[str, Any], meta: Meta) -> tuple[int, int]:
    """Returns (milestone_id, position)."""
    appended = _decide(store, listing_id, lambda s: listing.decide_add_milestone(s, milestone, meta))
    added = appended.events[0]
    assert isinstance(added, ListingMilestoneAdded)
    return added.milestone_id, appended.position


def delete_milestone(store: EventStore, listing_id: int, milestone_id: int, meta: Meta) -> int:
    return _decide(store, listing_id, lambda s: listing.decide_delete_milestone(s, milestone_id, meta)).position


def post_update(store: EventStore, listing_id: int, title: str, body: str, meta: Meta) -> tuple[int, int]:
    """Returns (update_id, position)."""
    appended = _decide(store, listing_id, lambda s: listing.decide_post_update(s, title, body, meta))
    posted = appended.events[0]
    assert isinstance(posted, ListingUpdatePosted)
    return posted.update_id, appended.position


def unlock(store: EventStore, listing_id: int, sections: list[str], reason: str, meta: Meta) -> int:
    return _decide(store, listing_id, lambda s: listing.decide_unlock(s, sections, reason, meta)).position


def approve_alternatives(store: EventStore, listing_id: int, slugs: list[str], meta: Meta) -> int:
    return _decide(store, listing_id, lambda s: listing.decide_approve_alternatives(s, slugs, meta)).position


def add_owner(store: EventStore, listing_id: int, account_id: str, meta: Meta) -> int:
    return _decide(store, listing_id, lambda s: listing.decide_add_owner(s, account_id, meta)).position


def verify(store: EventStore, listing_id: int, method: str, meta: Meta) -> int:
    return _decide(store, listing_id, lambda s: listing.decide_verify(s, method, meta)).position


def queue_free(store: EventStore, listing_id: int, week: str, meta: Meta) -> int:
    return _decide(store, listing_id, lambda s: listing.decide_queue_free(s, week, meta)).position


def badge_found(store: EventStore, listing_id: int, checked_url: str, meta: Meta) -> int:
    current = week_of(meta.at.date())
    return _decide(store, listing_id, lambda s: listing.decide_badge_found(s, checked_url, current, meta)).position


def schedule_paid(store: EventStore, listing_id: int, week: str | None, meta: Meta) -> int:
    current = week_of(meta.at.date())
    chosen = week or current
    return _decide(store, listing_id, lambda s: listing.decide_schedule_paid(s, chosen, current, meta)).position


def launch_if_due(store: EventStore, listing_id: int, meta: Meta) -> int:
    current = week_of(meta.at.date())
    return _decide(store, listing_id, lambda s: listing.decide_launch_if_due(s, current, meta)).position


def staff_publish(store: EventStore, listing_id: int, meta: Meta, week: str | None = None,
                  plan: str | None = None) -> int:
    """Staff put a listing live in `week` (default: the current week), recorded with who and when; the plan
    stays the listing's own unless one is given (putting a paid listing back does not make it free)."""
    return publish_by_staff(store, listing_id, meta, week, plan).position


def publish_by_staff(store: EventStore, listing_id: int, meta: Meta, week: str | None = None,
                     plan: str | None = None) -> Appended:
    """`staff_publish`, answering what was appended: no events when the listing is live already."""
    chosen = week or week_of(meta.at.date())
    return _decide(store, listing_id, lambda s: listing.decide_staff_publish(s, chosen, plan or s.plan or "free", meta))


def put_back(store: EventStore, listing_id: int, meta: Meta) -> int:
    """Staff put a taken-down listing back: live, or scheduled when its launch week is still ahead."""
    return _decide(store, listing_id, lambda s: listing.decide_put_back(s, week_of(meta.at.date()), meta)).position


def feature(store: EventStore, listing_id: int, week: str, meta: Meta) -> int:
    return _decide(store, listing_id, lambda s: listing.decide_feature(s, week, meta)).position


def unpublish(store: EventStore, listing_id: int, reason: str, meta: Meta) -> int:
    return take_down(store, listing_id, reason, meta).position


def take_down(store: EventStore, listing_id: int, reason: str, meta: Meta) -> Appended:
    """Staff take a listing down; no events when it is down already (the caller says nothing changed)."""
    return _decide(store, listing_id, lambda s: listing.decide_unpublish(s, reason, meta))
