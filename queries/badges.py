"""Which badges a listing has earned, with embed code and SVG URLs in every style.

Styles, alt text and embed code are `queries/badge_styles.py`; the site draws and
serves the SVGs itself at `/badges/{slug}/{kind}.svg?shape=&mode=&size=`
(api/badge_routes.py, artwork in api/badge_styles.py).

Earned badges (docs/launches-and-rankings.md):

| kind | when |
|---|---|
| `listed` | any public listing (awaiting its badge, scheduled or live) |
| `upcoming` | awaiting its badge or scheduled; detail: the launch week, as "Week 49, 2026" (`events/week_names.py`) |
| `launched` | live; detail: the launch week |
| `featured` | featured in a week; detail: the latest featured week |
| `verified` | ownership verified |
| `award-1..3` | one per Launch of the Week award; detail: the week |
| `top-rated` | at least 3 approved reviews averaging 4.5 or more; detail: the average |

An `upcoming` badge already pasted on a homepage keeps working after the
launch: the SVG route then draws the `launched` badge.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from events.errors import NotFound
from projections.reads import ReadStore
from queries import badge_styles
from queries.catalog import site_settings
from queries.paging import SLUG_PATTERN
from events.week_names import week_number_name

VIEW = "launches_view"
PUBLIC_STATUSES = ("awaiting_badge", "scheduled", "live")
TOP_RATED_MIN_REVIEWS = 3
TOP_RATED_MIN_AVERAGE = 4.5


class GetBadges(BaseModel):
    """The badges a listing has earned, with ready-to-paste embed HTML and SVG URLs in every style."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    slug: str = Field(pattern=SLUG_PATTERN, max_length=220, description="Listing slug.")
    shape: Literal["standard", "outline", "pill", "banner", "square"] = Field("standard", description="Badge shape.")
    mode: Literal["light", "dark", "auto"] = Field("auto", description="Colours; `auto` follows the viewer's scheme.")
    size: Literal["s", "m", "l"] = Field("m", description="Size: s = 75 %, m = 100 %, l = 150 %.")


class BadgeStyle(BaseModel):
    shape: str
    mode: str
    size: str
    width: int
    height: int
    svg_url: str


class Badge(BaseModel):
    kind: str
    label: str
    detail: str | None
    alt: str
    link_url: str = Field(description="Where the badge links: the listing's page on this site.")
    svg_url: str = Field(description="The SVG in the requested style.")
    width: int
    height: int
    embed_html: str = Field(description="Ready-to-paste <a><img></a> snippet in the requested style.")
    styles: list[BadgeStyle] = Field(description="The SVG URL of every shape, mode and size.")


class BadgeListing(BaseModel):
    slug: str
    name: str
    status: str
    page_url: str


class BadgeRequestStyle(BaseModel):
    shape: str
    mode: str
    size: str


class BadgeSet(BaseModel):
    listing: BadgeListing
    site_name: str
    style: BadgeRequestStyle
    badges: list[Badge]


@dataclass(frozen=True)
class Earned:
    kind: str
    detail: str | None
    week: date | None = None  # awards: which week, so each award has its own URL


def _listing(reads: ReadStore, slug: str) -> tuple[Any, ...]:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(
            f"""SELECT id, slug, name, status, week, featured_weeks, verified, reviews, rating_sum
                FROM {t['listings']} WHERE slug = %s AND status = ANY(%s) ORDER BY id DESC LIMIT 1""",
            (slug, list(PUBLIC_STATUSES)),
        ).fetchone()
        if row is None:
            raise NotFound(f"no listing {slug!r}")
        awards = conn.execute(
            f"SELECT week, rank FROM {t['awards']} WHERE listing_id = %s ORDER BY rank, week DESC", (row[0],)
        ).fetchall()
    return row, awards


def earned(row: tuple[Any, ...], awards: list[tuple[date, int]]) -> list[Earned]:
    """The badges that apply, in the order the badge picker shows them."""
    _id, _slug, _name, status, week, featured_weeks, verified, reviews, rating_sum = row
    label = week_number_name(week) if week else None
    out = [Earned("listed", None)]
    if status == "live":
        out.append(Earned("launched", label))
    if featured_weeks:
        out.append(Earned("featured", week_number_name(date.fromisoformat(max(featured_weeks)))))
    if verified:
        out.append(Earned("verified", None))
    out.extend(Earned(f"award-{rank}", week_number_name(w), w) for w, rank in awards)
    if reviews >= TOP_RATED_MIN_REVIEWS and rating_sum / reviews >= TOP_RATED_MIN_AVERAGE:
        out.append(Earned("top-rated", f"{rating_sum / reviews:.1f}/5"))
    if status in ("awaiting_badge", "scheduled"):
        out.append(Earned("upcoming", label))
    return out


def svg_url(base_url: str, slug: str, e: Earned, shape: str, mode: str, size: str) -> str:
    url = f"{base_url}/badges/{slug}/{e.kind}.svg?shape={shape}&mode={mode}&size={size}"
    return url + (f"&week={e.week.isoformat()}" if e.week else "")


def page_url(base_url: str, slug: str) -> str:
    """The listing's page on the site: what every badge links to."""
    return f"{base_url}/listings/{slug}"


def site_name(reads: ReadStore) -> str:
    return str(site_settings(reads).get("name") or "launchdir")


def get_badges(reads: ReadStore, q: GetBadges, base_url: str) -> dict[str, Any]:
    base = base_url.rstrip("/")
    row, awards = _listing(reads, q.slug)
    site = site_name(reads)
    link = page_url(base, q.slug)
    width, height = badge_styles.badge_dimensions(q.shape, q.size)
    badges = []
    for e in earned(row, awards):
        alt = badge_styles.badge_alt_text(e.kind, site, e.detail)
        url = svg_url(base, q.slug, e, q.shape, q.mode, q.size)
        badges.append({
            "kind": e.kind, "label": badge_styles.BADGE_LABELS[e.kind], "detail": e.detail, "alt": alt,
            "link_url": link, "svg_url": url, "width": width, "height": height,
            "embed_html": badge_styles.embed_html(svg_url=url, link_url=link, alt=alt, width=width, height=height),
            "styles": [
                {"shape": shape, "mode": mode, "size": size, "width": w, "height": h,
                 "svg_url": svg_url(base, q.slug, e, shape, mode, size)}
                for shape in badge_styles.SHAPES for mode in badge_styles.MODES for size in badge_styles.SIZES
                for (w, h) in [badge_styles.badge_dimensions(shape, size)]
            ],
        })
    return {
        "listing": {"slug": row[1], "name": row[2], "status": row[3], "page_url": link},
        "site_name": site,
        "style": {"shape": q.shape, "mode": q.mode, "size": q.size},
        "badges": badges,
    }


@dataclass(frozen=True)
class BadgeToDraw:
    """One earned badge as the artwork needs it."""

    kind: str
    detail: str | None
    site_name: str


def earned_badge(reads: ReadStore, slug: str, kind: str, week: date | None) -> BadgeToDraw:
    """The earned badge of that kind; NotFound for an unknown or non-public listing or a badge not earned."""

    def compute() -> BadgeToDraw:
        row, awards = _listing(reads, slug)
        wanted = "launched" if kind == "upcoming" and row[3] == "live" else kind
        for e in earned(row, awards):
            if e.kind == wanted and (week is None or e.week is None or e.week == week):
                return BadgeToDraw(e.kind, e.detail, site_name(reads))
        raise NotFound(f"{slug!r} has no {kind!r} badge")

    return reads.cached((VIEW, "catalog_view"), ("badge", slug, kind, week), compute)
