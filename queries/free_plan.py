"""The free plan's reads: which week a listing is queued for, and what choose_free_listing answers.

The week rule (docs/free-plan.md): the candidates are the Mondays
`free_queue_min_weeks` to `free_queue_max_weeks` weeks after the current week
(site settings, the site's timezone); the chosen one is the week with the
fewest listings already queued or scheduled for it (`awaiting_badge` or
`scheduled`, free or paid), the earliest on a tie. So listings spread over the
window instead of piling up on its first week.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from pydantic import BaseModel, Field

from events.errors import NotFound
from projections.reads import ReadStore
from queries.badge_checks import BadgeCheck, last_check
from queries.badges import GetBadges, get_badges
from queries.catalog import site_settings
from queries.weeks import monday_of

VIEW = "listing_view"
QUEUED = ("awaiting_badge", "scheduled")
NEXT = {
    "awaiting_badge": "Queued for the week of {week}. Put one of the badges below on your homepage ({website}), "
                      "then ask for a check (check_my_badge, or Check my badge now on the listing's Badge page); "
                      "otherwise it is checked 15 minutes after the last check, then after 1, 4 and 12 hours, then "
                      "daily. Once it is found the listing is scheduled for that week and goes live when the week "
                      "begins. Keep the badge up: it is checked again then.",
    "scheduled": "Our badge was found: the listing is scheduled for the week of {week} and goes live when it begins. "
                 "Keep the badge on your homepage; it is checked again then.",
    "live": "Our badge was found and the listing's week has begun: it is live.",
}


class FreeBadge(BaseModel):
    kind: str
    label: str
    alt: str
    link_url: str = Field(description="Where the badge links: the listing's page on this site (the link that counts).")
    svg_url: str = Field(description="The badge image; any badge image of this listing counts too.")
    embed_html: str = Field(description="Ready-to-paste <a><img></a> snippet for the homepage.")


class FreeListingChosen(BaseModel):
    listing_id: int
    slug: str
    status: str = Field(description="`awaiting_badge` until our badge is found on the homepage, then `scheduled`.")
    plan: str = Field(description="`free`.")
    week: str = Field(description="The launch week: its Monday, YYYY-MM-DD.")
    website_url: str | None = Field(description="The homepage that must show the badge.")
    next_step: str = Field(description="What happens next, in a sentence or three.")
    badge_link_url: str = Field(description="The listing's page on this site: a link to it on the homepage counts.")
    badges: list[FreeBadge] = Field(description="Embed code to paste on the homepage (more styles: get_badges).")
    badge_check: BadgeCheck | None = Field(description="The last check of the homepage, or null while none was made.")


def window(reads: ReadStore) -> tuple[int, int]:
    """The free queue's window in weeks after the current one (site settings, 6..8 by default)."""
    site = site_settings(reads)
    return int(site.get("free_queue_min_weeks", 6)), int(site.get("free_queue_max_weeks", 8))


def free_week(reads: ReadStore, today: date) -> str:
    """The launch week for a listing choosing the free plan `today` (the rule in this module's docstring)."""
    lo, hi = window(reads)
    this = monday_of(today)
    weeks = [(this + timedelta(weeks=k)).isoformat() for k in range(lo, hi + 1)]
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"SELECT week, count(*) FROM {t['listings']} WHERE status = ANY(%s) AND week = ANY(%s) GROUP BY week",
            (list(QUEUED), weeks),
        ).fetchall()
    counts = {str(w): int(n) for w, n in rows}
    return min(weeks, key=lambda w: (counts.get(w, 0), w))


def chosen(reads: ReadStore, listing_id: int, base_url: str) -> dict[str, Any]:
    """choose_free_listing's answer: the listing's plan, week and status, the badge to paste, the last check."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT slug, status, state->>'plan', state->>'week', state->'profile'->>'website_url' "
                           f"FROM {t['profiles']} WHERE listing_id = %s", (listing_id,)).fetchone()
    if row is None:
        raise NotFound("no such listing among yours")
    slug, status, plan, week, website = row
    badges = get_badges(reads, GetBadges(slug=slug, shape="standard", mode="auto", size="m"), base_url)
    return {
        "listing_id": listing_id, "slug": slug, "status": status, "plan": plan or "free", "week": week,
        "website_url": website,
        "next_step": NEXT.get(status, "The listing is {status}.").format(week=week, website=website or "", status=status),
        "badge_link_url": badges["listing"]["page_url"],
        "badges": [{k: b[k] for k in ("kind", "label", "alt", "link_url", "svg_url", "embed_html")}
                   for b in badges["badges"] if b["kind"] in ("upcoming", "listed", "launched")],
        "badge_check": last_check(reads, listing_id),
    }
