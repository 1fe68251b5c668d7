"""The owner's view of their listings (SPEC §4.5 list_my_listings, get_my_listing).

Read from `listing_view`'s private state, which every listing has in any
status, so an owner sees a saved or queued listing exactly as get_listing will
show it once live, plus what only owners see: status, plan, launch week, the
paid sections and whether they show publicly, the story and milestones even
while locked, the contact address and the SEO texts. A listing someone else
owns answers 404, the same as one that does not exist.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from events.errors import NotFound
from projections import listing_docs as docs
from projections.listing_cards import PUBLIC_STATUSES, UPCOMING_STATUSES
from projections.reads import ReadStore
from queries import badge_checks
from queries import badges as badges_q
from queries import orders as orders_q
from queries.badge_checks import BadgeCheck
from queries.listings import ListingProfile, Milestone, absolute_links
from queries.paging import PageInfo, Paging, page_of

VIEW = "listing_view"
COUNTERS = ("votes", "followers", "views", "rating_avg", "rating_count")
PAGE_STATUSES = (*PUBLIC_STATUSES, *UPCOMING_STATUSES)  # the site's page of the listing answers (profile or upcoming)
BADGE_STATUSES = badges_q.PUBLIC_STATUSES  # get_badges answers
NEXT_STEPS = {
    "draft": "Saved, not published. Launch for free with choose_free_listing (queued weeks out, live once our badge "
             "is on your homepage) or buy the `launch` product with create_checkout.",
    "awaiting_badge": "Queued for a free launch week: put our badge on your homepage; it is checked automatically.",
    "scheduled": "Scheduled: it goes live when its launch week starts.",
    "live": "Live: people can find it and vote for it.",
    "unpublished": "Taken down by the site team, who emailed the owners why; contact us to publish it again.",
}


class ListMyListings(Paging):
    """Every listing you own, in any status, newest first."""


class GetMyListing(BaseModel):
    """One of your listings: status, plan, launch week, unlocked paid sections and all its public data."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    listing_id: int = Field(ge=1, le=2_147_483_647, description="Listing id (from submit_draft or list_my_listings).")


class MyListingSummary(BaseModel):
    listing_id: int
    slug: str
    name: str
    status: str = Field(description="`draft` (saved), `awaiting_badge`, `scheduled`, `live` or `unpublished`.")
    plan: str | None = Field(description="`free`, `paid`, or null while not chosen.")
    launch_week: str | None
    unlocked_sections: list[str]
    public_url: str | None = Field(description="The public page, once live.")


class MyListingPage(PageInfo):
    items: list[MyListingSummary]


class Seo(BaseModel):
    title: str | None
    description: str | None


class MyListingLinks(BaseModel):
    """Only addresses that answer now: a saved listing has no public page or badges yet, so those are null."""

    website: str | None = Field(description="The product's own website.")
    listing: str | None = Field(description=(
        "The listing's page on the site while it answers: the profile once live, a page announcing the launch while "
        "the listing is queued or scheduled; null for a saved listing not yet published and after a take-down."))
    badges: str | None = Field(description="get_badges of the listing while it answers (queued, scheduled or live); "
                                           "null otherwise.")
    manage: str = Field(description="The owners' own page of the listing on the site (signed in); it always answers.")


class MyListing(ListingProfile):
    """get_listing's profile plus what only the owners see."""

    links: MyListingLinks  # type: ignore[assignment]  # the public links only while they answer

    plan: str | None
    unlocked_sections: list[str] = Field(description="Paid sections that show publicly (paid plan or unlocked).")
    public: bool = Field(description="True while public reads show the listing (status `live`).")
    public_url: str | None
    contact_email: str | None
    pricing_model: str | None
    pricing_summary: str | None
    seo: Seo
    story: dict[str, str] | None = Field(None, description="The founder story, shown to you even while locked.")
    milestones: list[Milestone] | None = Field(None, description="Milestones, shown to you even while locked.")
    next_step: str
    created_at: str | None
    badge_check: BadgeCheck | None = Field(
        None, description="The last check of our badge on your homepage (free plan), or null before the first.")
    profile_review: orders_q.ProfileReview | None = Field(
        None, description="The latest profile review bought with the `ai_review` product (also emailed to the "
                          "owners), or null.")


def list_my_listings(reads: ReadStore, account_id: str, paging: Paging, links: dict[str, str]) -> dict[str, Any]:
    t = reads.tables(VIEW)
    owner = _owner_filter(account_id)
    with reads.pool.connection() as conn:
        total = conn.execute(f"SELECT count(*) FROM {t['profiles']} WHERE state->'owner_ids' @> %s::jsonb",
                             (owner,)).fetchone()
        rows = conn.execute(
            f"SELECT state FROM {t['profiles']} WHERE state->'owner_ids' @> %s::jsonb "
            "ORDER BY listing_id DESC LIMIT %s OFFSET %s",
            (owner, paging.per_page, paging.offset),
        ).fetchall()
    items = [_summary(row[0], links) for row in rows]
    return page_of(items, paging, int(total[0]) if total else 0)


def get_my_listing(reads: ReadStore, account_id: str, listing_id: int, links: dict[str, str]) -> dict[str, Any]:
    t = reads.tables(VIEW)
    cols = ", ".join(f"l.{c}" for c in COUNTERS)
    with reads.pool.connection() as conn:
        row = conn.execute(
            f"SELECT p.state, {cols} FROM {t['profiles']} p JOIN {t['listings']} l USING (listing_id) "
            "WHERE p.listing_id = %s AND p.state->'owner_ids' @> %s::jsonb",
            (listing_id, _owner_filter(account_id)),
        ).fetchone()
        if row is None:
            raise NotFound("no such listing among yours")
        names: dict[str, str] = dict(conn.execute(f"SELECT slug, name FROM {t['categories']}").fetchall())
    state = row[0]
    counters = dict(zip(COUNTERS, row[1:], strict=True))
    check = badge_checks.last_check(reads, listing_id) if badge_checks.VIEW in reads.runtime.projections else None
    review = orders_q.latest_review(reads, listing_id) if orders_q.VIEW in reads.runtime.projections else None
    return owner_document(state, counters, names, links) | {"badge_check": check, "profile_review": review}


def owner_document(state: dict[str, Any], counters: dict[str, Any], names: dict[str, str],
                   links: dict[str, str]) -> dict[str, Any]:
    """The owner's document: the public one as it is (or will be, once live) plus the owner-only facts."""
    doc = absolute_links(docs.public_doc(state, counters, names), links)
    p = state["profile"]
    status = str(state["status"])
    public = status in PUBLIC_STATUSES
    site = links.get("website", "/").rstrip("/")
    return doc | {
        "links": {
            "website": doc["links"]["website"],
            "listing": doc["links"]["listing"] if status in PAGE_STATUSES else None,
            "badges": doc["links"]["badges"] if status in BADGE_STATUSES else None,
            "manage": f"{site}/my/listings/{state['listing_id']}",
        },
        "plan": state.get("plan"),
        "unlocked_sections": sorted(docs.unlocked_sections(state)),
        "public": public,
        "public_url": doc["links"]["listing"] if public else None,
        "contact_email": _text(p.get("contact_email")),
        "pricing_model": _text(p.get("pricing_model")),
        "pricing_summary": _text(p.get("pricing_summary")),
        "seo": {"title": _text(p.get("seo_title")), "description": _text(p.get("seo_description"))},
        "story": {str(k): str(v) for k, v in (state.get("story") or {}).items() if v},
        "milestones": [docs.milestone_doc(m) for m in state.get("milestones") or []],
        "next_step": NEXT_STEPS.get(status, ""),
        "created_at": state.get("created_at"),
    }


def _summary(state: dict[str, Any], links: dict[str, str]) -> dict[str, Any]:
    site = links.get("website", "/").rstrip("/")
    public = state["status"] in PUBLIC_STATUSES
    return {
        "listing_id": state["listing_id"],
        "slug": state["slug"],
        "name": str(state["profile"].get("name") or ""),
        "status": state["status"],
        "plan": state.get("plan"),
        "launch_week": state.get("week"),
        "unlocked_sections": sorted(docs.unlocked_sections(state)),
        "public_url": f"{site}/listings/{state['slug']}" if public else None,
    }


def _owner_filter(account_id: str) -> str:
    """The jsonb containment operand `["<account id>"]` (served by the GIN index on owner_ids)."""
    return json.dumps([account_id])


def _text(value: Any) -> str | None:
    return str(value) if value not in (None, "") else None
