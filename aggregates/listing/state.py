"""Listing states: the listing stream's state, the slug stream's, their stream ids, and the limits decisions keep."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from events.errors import Conflict, NotFound

SLUG_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{0,219}$")
STATUSES = ("draft", "awaiting_badge", "scheduled", "live", "unpublished")
PAID_SECTIONS = ("story", "milestones", "media", "extra_categories")
MAX_EXTRA_CATEGORIES = 3
PROFILE_FIELDS = frozenset({
    "name", "tagline", "short_description", "description", "stage", "pricing_model", "pricing_summary",
    "country", "city", "founded_year", "contact_email", "demo_video_url", "logo_url", "website_url",
    "tags", "features", "usps", "keywords", "headline", "summary", "seo_title", "seo_description", "media",
    "attributes",  # category facts compare_listings shows side by side, e.g. {"open_source": true}
})
EDITABLE = PROFILE_FIELDS | {"categories", "socials", "faqs", "founders", "not_found_on_website"}


def listing_stream(listing_id: int) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:listing:{listing_id}")


def slug_stream(slug: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:slug:{slug}")


def slugify(text: str) -> str:
    """A slug from a product name: ASCII, lower case, hyphens; never empty."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:200]
    return slug or "listing"


@dataclass(frozen=True)
class ListingState:
    id: UUID
    version: int = 0
    listing_id: int = 0
    slug: str = ""
    owner_ids: tuple[str, ...] = ()
    status: str = "draft"
    plan: str | None = None
    week: str | None = None
    profile: dict[str, Any] = field(default_factory=dict)
    categories: tuple[str, ...] = ()
    socials: dict[str, str] = field(default_factory=dict)
    faqs: tuple[dict[str, str], ...] = ()
    founders: tuple[dict[str, Any], ...] = ()
    story: dict[str, str] = field(default_factory=dict)
    milestones: dict[int, dict[str, Any]] = field(default_factory=dict)
    next_milestone_id: int = 1
    next_update_id: int = 1
    unlocked: frozenset[str] = frozenset()
    alternatives: tuple[str, ...] = ()
    verified: bool = False
    featured_weeks: tuple[str, ...] = ()
    not_found_on_website: tuple[str, ...] = ()
    reviews: dict[int, str] = field(default_factory=dict)  # staff review of owner versions: version id -> accepted | reverted | removed
    removed_updates: frozenset[int] = frozenset()  # update ids staff removed (ListingUpdateRemoved)
    evidence: dict[str, Any] = field(default_factory=dict)  # drafted field -> quotes from the site (ListingEvidenceSet)

    @property
    def exists(self) -> bool:
        return self.version > 0

    @property
    def is_paid(self) -> bool:
        return self.plan == "paid"


@dataclass(frozen=True)
class SlugState:
    id: UUID
    version: int = 0
    slug: str = ""
    listing_id: int | None = None


def initial(stream_id: UUID) -> ListingState:
    return ListingState(id=stream_id)


def initial_slug(stream_id: UUID) -> SlugState:
    return SlugState(id=stream_id)


def require_listing(state: ListingState) -> None:
    """Refuse a decision about a listing that was never created (shared by the editing and publishing deciders)."""
    if not state.exists:
        raise NotFound("no such listing")


def require_owner(state: ListingState, account_id: str) -> None:
    """Refuse a decision by someone who does not own the listing: 404, so a stranger learns nothing."""
    if not state.exists or account_id not in state.owner_ids:
        raise NotFound("no such listing among yours")


def require_open(state: ListingState) -> None:
    """Refuse an owner's change to a listing staff took down (409: the move makes no sense now)."""
    if state.status == "unpublished":
        raise Conflict("the listing was taken down; it cannot be changed")
