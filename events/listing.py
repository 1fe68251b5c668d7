"""Events of the Listing aggregate and of its slug streams.

A listing's public facts live in `profile` (a dict of the fields of SPEC §4.4
and §4.5); edits record the values before and after, so version history and
the staff's before/after review need nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from events.base import Event


@dataclass(frozen=True, kw_only=True)
class ListingCreated(Event):
    listing_id: int
    slug: str
    owner_ids: list[str]
    source: str  # "draft" | "staff" | "import" | "demo"
    draft_id: str | None
    profile: dict[str, Any]
    categories: list[str]  # first is primary
    socials: dict[str, str]
    faqs: list[dict[str, str]]
    founders: list[dict[str, Any]]
    story: dict[str, str]
    milestones: list[dict[str, Any]]
    not_found_on_website: list[str]
    evidence: dict[str, list[dict[str, str]]] | None = None  # field -> quotes from the site it was drafted from


@dataclass(frozen=True, kw_only=True)
class ListingEvidenceSet(Event):
    """The site quotes behind the listing's drafted values, after its draft changed them (field -> [{url, quote}]).

    A field whose value an owner or staff edited loses its evidence with the
    edit itself (the value no longer comes from the site); this event carries
    the evidence of the fields that still hold the drafted value.
    """

    evidence: dict[str, list[dict[str, str]]]


@dataclass(frozen=True, kw_only=True)
class ListingEdited(Event):
    """Changed keys of the profile and of `categories`, `socials`, `faqs`, `founders`, `not_found_on_website`."""

    changes: dict[str, Any]
    before: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class ListingStorySet(Event):
    story: dict[str, str]
    before: dict[str, str]


@dataclass(frozen=True, kw_only=True)
class ListingMilestoneAdded(Event):
    milestone_id: int
    date: str
    title: str
    description: str
    url: str


@dataclass(frozen=True, kw_only=True)
class ListingMilestoneDeleted(Event):
    milestone_id: int


@dataclass(frozen=True, kw_only=True)
class ListingUpdatePosted(Event):
    update_id: int
    title: str
    body: str


@dataclass(frozen=True, kw_only=True)
class ListingSectionsUnlocked(Event):
    sections: list[str]  # "story" | "milestones" | "media" | "extra_categories"
    reason: str


@dataclass(frozen=True, kw_only=True)
class ListingAlternativesApproved(Event):
    slugs: list[str]


@dataclass(frozen=True, kw_only=True)
class ListingOwnerAdded(Event):
    account_id: str


@dataclass(frozen=True, kw_only=True)
class ListingQueuedForFree(Event):
    """Free plan: queued for a launch week; goes on once the badge is found on the homepage."""

    week: str  # Monday, YYYY-MM-DD


@dataclass(frozen=True, kw_only=True)
class ListingBadgeFound(Event):
    checked_url: str


@dataclass(frozen=True, kw_only=True)
class ListingScheduled(Event):
    week: str
    plan: str  # "free" | "paid"


@dataclass(frozen=True, kw_only=True)
class ListingLaunched(Event):
    week: str
    plan: str


@dataclass(frozen=True, kw_only=True)
class ListingPublishedByStaff(Event):
    """Staff put a listing live directly (demo, done-for-you work)."""

    week: str
    plan: str


@dataclass(frozen=True, kw_only=True)
class ListingFeatured(Event):
    week: str


@dataclass(frozen=True, kw_only=True)
class ListingVerified(Event):
    method: str


@dataclass(frozen=True, kw_only=True)
class ListingVerificationWithdrawn(Event):
    """The listing is no longer marked verified: the claim that proved it was voided and no other stands."""

    reason: str


@dataclass(frozen=True, kw_only=True)
class ListingUnpublished(Event):
    reason: str


@dataclass(frozen=True, kw_only=True)
class ListingEditReverted(Event):
    """Staff put chosen fields of an owner's version back: a new version, never a rewrite.

    `version_id` is the reverted version (the log position of its event);
    `changes` and `before` are shaped as in `ListingEdited`, and may hold
    `story` (the whole story object) when a story version is reverted, or
    `milestones` (the whole list, by milestone id) when a milestone version is.
    """

    version_id: int
    fields: list[str]
    changes: dict[str, Any]
    before: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class ListingVersionAccepted(Event):
    """Staff reviewed an owner's version and let it stand."""

    version_id: int


@dataclass(frozen=True, kw_only=True)
class ListingUpdateRemoved(Event):
    """Staff removed a posted update (the version `version_id` that posted it), saying why.

    The update leaves every public read (the listing's page and API, the
    latest-updates page and feed) and, when its followers were not mailed yet,
    it is never mailed; the version that posted it counts as reviewed
    (`removed`). An update is text the owner wrote and may have been mailed
    already, so it is removed rather than put back. The listing's owners are
    mailed the reason in the same append (`commands/review.py`).
    """

    version_id: int
    update_id: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class ListingBadgeMissing(Event):
    """A badge check did not find our badge on the homepage (the listing stays where it is)."""

    checked_url: str
    reason: str  # "not_found" | "unreachable" | "timeout" | "blocked" | ...
    next_check_at: str | None  # ISO time of the next scheduled check, or None


@dataclass(frozen=True, kw_only=True)
class ListingBadgeLost(Event):
    """A scheduled free listing had no badge when its week began: back to `awaiting_badge`."""

    checked_url: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class SlugClaimed(Event):
    slug: str
    listing_id: int


@dataclass(frozen=True, kw_only=True)
class SlugReleased(Event):
    slug: str
    listing_id: int


@dataclass(frozen=True, kw_only=True)
class ListingOwnerRemoved(Event):
    """An owner left the listing: `reason` is "account_closed" when their account closed, else the staff's reason.

    The other owners keep it; a live listing left without owners stays public and can be claimed."""

    account_id: str
    reason: str
