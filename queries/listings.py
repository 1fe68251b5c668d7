"""Public listing reads: search, the full profile, alternatives, and side-by-side comparison.

Only `live` listings are public: get_listing, get_alternatives and
compare_listings answer 404 for any other status. Search shows summaries of
live listings, or of upcoming ones with `status=upcoming` (docs/directory.md).
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from events.errors import NotFound
from projections import listing_docs
from projections.listing_cards import domain_of, key_of
from projections.reads import ReadStore
from queries.cards import CategoryName, ListingCard, listing_view_extras
from queries.catalog import category_and_descendants, monday_of
from queries.paging import SLUG_PATTERN, PageInfo, Paging, page_of
from queries.search import SearchBackend, SearchRequest, tokens_of
from queries.search_words import correct

VIEW = "listing_view"
COUNTRY_PATTERN = r"^[A-Za-z]{2}$"
Sort = Literal["relevance", "newest", "votes", "trending", "most_viewed", "most_followed"]


# ---------------------------------------------------------------- inputs


class SearchListings(Paging):
    """Search listings: full text over name, tagline, description and keywords, typo tolerant, with filters and sorts."""

    q: str | None = Field(None, max_length=200, description="Words to search for; typos are corrected.")
    category: str | None = Field(None, pattern=SLUG_PATTERN, max_length=220,
                                 description="Category slug; its subcategories are included.")
    stage: str | None = Field(None, pattern=SLUG_PATTERN, max_length=220, description="Stage slug, e.g. `beta`.")
    country: str | None = Field(None, pattern=COUNTRY_PATTERN, description="ISO 3166 two-letter country code.")
    pricing_model: str | None = Field(None, max_length=40, description="Pricing model, e.g. `freemium`.")
    domain: str | None = Field(None, max_length=253, description="The website's host, with or without `www.`.")
    status: Literal["live", "upcoming"] = Field("live", description=(
        "`live` (published) or `upcoming`: scheduled for a coming launch week, or queued for one and awaiting its "
        "badge. An upcoming listing's profile is public from its launch: get_listing answers 404 until then."))
    sort: Sort = Field("relevance", description="Order of the results; `trending` uses time-decayed votes.")


class GetListing(BaseModel):
    """The full public profile of a live listing."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    slug: str = Field(pattern=SLUG_PATTERN, max_length=220, description="Listing slug.")


class GetAlternatives(Paging):
    """Alternatives to a live listing: owner-approved ones first, then other live listings of its primary category."""

    slug: str = Field(pattern=SLUG_PATTERN, max_length=220, description="Listing slug.")


class CompareListings(BaseModel):
    """Two live listings side by side by the attributes of their categories."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    a: str = Field(pattern=SLUG_PATTERN, max_length=220, description="Slug of the first listing.")
    b: str = Field(pattern=SLUG_PATTERN, max_length=220, description="Slug of the second listing.")


# ---------------------------------------------------------------- outputs (documentation and MCP output schemas)


class ListingSearchPage(PageInfo):
    items: list[ListingCard]
    total_exact: bool = Field(description="False when more than 1,000 listings match: `total` is then an estimate "
                                          "and `has_more` says whether another page exists.")


class Alternative(ListingCard):
    approved: bool = Field(description="True when the listing's owner approved it as an alternative.")


class AlternativesPage(PageInfo):
    items: list[Alternative]


class Pricing(BaseModel):
    model: str | None
    summary: str | None


class ListingCategories(BaseModel):
    primary: CategoryName | None
    extra: list[CategoryName]


class Founder(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    title: str | None
    bio: str | None
    founder_slug: str | None = Field(None, description="The founder's profile, `GET /founders/{founder_slug}`, "
                                     "when this entry links to one.")


class ListingFaq(BaseModel):
    question: str
    answer: str


class ListingUpdate(BaseModel):
    update_id: int
    title: str
    body: str
    posted_at: str


class Rating(BaseModel):
    average: float | None = Field(description="Mean of approved (genuine) reviews, 1..5; null without any.")
    count: int


class Community(BaseModel):
    votes: int
    followers: int
    views: int
    rating: Rating


class DomainRatingPoint(BaseModel):
    measured_on: str
    value: int


class DomainRating(BaseModel):
    value: int
    measured_on: str
    source: str
    previous: int | None
    change: int | None = Field(description="Change since the previous snapshot.")
    change_30d: int | None
    change_90d: int | None
    trend: Literal["up", "down", "flat"] | None
    history: list[DomainRatingPoint]


class Revenue(BaseModel):
    amount_cents: int
    period: str
    source: str
    label: str = Field(description="`verified` or `self-reported`.")
    verified: bool


class Billboard(BaseModel):
    total_cents: int
    paid: bool = Field(description="Always true: billboard money is paid placement, never a community signal.")
    label: str


class ListingLinks(BaseModel):
    website: str | None
    listing: str
    badges: str


class Milestone(BaseModel):
    milestone_id: int
    date: str
    title: str
    description: str
    url: str


class MediaItem(BaseModel):
    url: str
    kind: str | None
    caption: str | None


class EvidenceQuote(BaseModel):
    url: str = Field(description="The page of the product's own website the quote was found on.")
    quote: str


class ListingProfile(BaseModel):
    """The full public profile; `story`, `milestones` and `media` appear only when unlocked."""

    listing_id: int
    slug: str
    name: str
    url: str | None
    tagline: str | None
    short_description: str | None
    description: str | None
    stage: str | None
    country: str | None
    city: str | None
    demo_video_url: str | None
    logo_url: str | None
    headline: str | None
    summary: str | None
    tags: list[str]
    features: list[str]
    usps: list[str]
    keywords: list[str]
    founded_year: int | None
    pricing: Pricing
    categories: ListingCategories
    founders: list[Founder]
    faqs: list[ListingFaq]
    socials: dict[str, str]
    attributes: dict[str, str]
    status: str
    launch_week: str | None
    launched_at: str | None
    verified: bool
    featured: bool
    featured_weeks: list[str]
    latest_updates: list[ListingUpdate]
    community: Community
    domain_rating: DomainRating | None
    revenue: Revenue | None
    billboard: Billboard
    links: ListingLinks
    not_found_on_website: list[str]
    evidence: dict[str, list[EvidenceQuote]] = Field(
        default_factory=dict, description="Profile field (e.g. `description`, `pricing_summary`) or drafted item (`faqs.<i>`, "
                                          "`founders.<i>` by position, `socials.<platform>`) -> the quotes from the product's own "
                                          "website its drafted value came from; what a person wrote has none.")
    story: dict[str, str] | None = None
    milestones: list[Milestone] | None = None
    media: list[MediaItem] | None = None


class ComparisonRow(BaseModel):
    attribute: str
    a: str | None
    b: str | None


class Comparison(BaseModel):
    a: ListingCard
    b: ListingCard
    attributes: list[str]
    rows: list[ComparisonRow] = Field(description="One row per attribute; null where the listing lacks the fact.")


# ---------------------------------------------------------------- reads


def live_document(reads: ReadStore, slug: str) -> dict[str, Any] | None:
    """The stored document of a live listing (links still relative), or None."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT doc FROM {t['profiles']} WHERE slug = %s AND status = 'live'", (slug,)).fetchone()
    return row[0] if row else None


def live_listing_id(reads: ReadStore, slug: str) -> int | None:
    """The id of the live listing at `slug`, or None: a vote needs only that, not the parsed document."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT listing_id FROM {t['profiles']} WHERE slug = %s AND status = 'live'",
                           (slug,)).fetchone()
    return int(row[0]) if row else None


def names_by_id(reads: ReadStore, listing_ids: list[int]) -> dict[int, str]:
    """Listing id -> name, in any status (pages that hold only an id and a slug, such as a claim, name the listing)."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(f"SELECT listing_id, card->>'name' FROM {t['listings']} WHERE listing_id = ANY(%s)",
                            (sorted(set(listing_ids)),)).fetchall()
    return {int(r[0]): str(r[1]) for r in rows if r[1]}


def named_by_id(reads: ReadStore, listing_ids: list[int]) -> dict[int, dict[str, str]]:
    """Listing id -> its `name` and `slug`, in any status (the staff's orders link each listing to its history)."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(f"SELECT listing_id, slug, card->>'name' FROM {t['listings']} WHERE listing_id = ANY(%s)",
                            (sorted(set(listing_ids)),)).fetchall()
    return {int(r[0]): {"slug": str(r[1]), "name": str(r[2] or r[1])} for r in rows}


def standing(reads: ReadStore, slug: str) -> dict[str, Any] | None:
    """Where the listing at `slug` stands, in any status (staff pages): id, status, launch week and plan; or None."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT listing_id, status, week, plan FROM {t['listings']} WHERE slug = %s",
                           (slug,)).fetchone()
    return {"listing_id": int(row[0]), "status": str(row[1]), "week": row[2], "plan": row[3]} if row else None


def live_community(reads: ReadStore, slug: str) -> dict[str, Any] | None:
    """The `community` part of a live listing's document (votes, followers, ...), or None when it is not live.

    The vote's answer needs only these counts: reading the part, not the whole
    document, spares parsing the document on every vote.
    """
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(
            f"SELECT coalesce(doc->'community', '{{}}'::jsonb) FROM {t['profiles']} WHERE slug = %s AND status = 'live'",
            (slug,)).fetchone()
    return row[0] if row else None


def get_listing(reads: ReadStore, q: GetListing, links: dict[str, str]) -> dict[str, Any]:
    """The profile of a live listing, from the in-process cache while the view has not moved."""

    def compute() -> dict[str, Any] | None:
        doc = live_document(reads, q.slug)
        return None if doc is None else absolute_links(doc, links)

    doc = reads.cached((VIEW,), ("listing", q.slug), compute)
    if doc is None:
        raise NotFound(f"no live listing with slug {q.slug!r}")
    return doc


def absolute_links(doc: dict[str, Any], links: dict[str, str]) -> dict[str, Any]:
    site = links.get("website", "/").rstrip("/")
    api = links.get("api", site + "/api/v1")
    slug = doc["slug"]
    return doc | {"links": doc["links"] | {"listing": f"{site}/listings/{slug}", "badges": f"{api}/listings/{slug}/badges"}}


def search_request(reads: ReadStore, q: SearchListings, today: date) -> SearchRequest:
    """Normalise filters and correct the query words against the vocabulary."""
    categories: tuple[str, ...] | None = None
    if q.category:
        try:
            categories = tuple(category_and_descendants(reads, q.category))
        except NotFound:
            categories = ()  # an unknown category matches nothing (search has no 404)
    tokens = tokens_of(q.q)
    return SearchRequest(
        text=" ".join(tokens) or None,
        corrections=correct(reads, tokens),
        categories=categories,
        stage=key_of(q.stage),
        country=q.country.upper() if q.country else None,
        pricing=key_of(q.pricing_model) if q.pricing_model else None,
        domain=domain_of(q.domain) if q.domain and q.domain.strip() else None,
        status=q.status,
        this_week=monday_of(today).isoformat(),
        sort=q.sort,
        limit=q.per_page,
        offset=q.offset,
    )


def search_listings(reads: ReadStore, backend: SearchBackend, q: SearchListings, today: date) -> dict[str, Any]:
    page = backend.search(search_request(reads, q, today))
    return {**page_of(page.items, q, page.total), "total_exact": page.exact, "has_more": page.has_more}


def get_alternatives(reads: ReadStore, q: GetAlternatives) -> dict[str, Any]:
    """Owner-approved live alternatives first (in the owner's order), then the primary category's, most voted first."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(
            f"SELECT p.state->'alternatives', l.primary_category FROM {t['profiles']} p "
            f"JOIN {t['listings']} l USING (listing_id) WHERE p.slug = %s AND p.status = 'live'",
            (q.slug,),
        ).fetchone()
        if row is None:
            raise NotFound(f"no live listing with slug {q.slug!r}")
        wanted = [s for s in dict.fromkeys(row[0] or []) if s != q.slug]
        primary = row[1]
        found: dict[str, dict[str, Any]] = dict(conn.execute(
            f"SELECT l.slug, l.card || {listing_view_extras()} FROM {t['listings']} l "
            "WHERE l.slug = ANY(%s) AND l.status = 'live'",
            (wanted,),
        ).fetchall()) if wanted else {}
        approved = [found[s] | {"approved": True} for s in wanted if s in found]
        exclude = [q.slug, *found]
        take = approved[q.offset:q.offset + q.per_page]
        others_offset = max(0, q.offset - len(approved))
        others = conn.execute(
            f"""SELECT l.card || {listing_view_extras()} || jsonb_build_object('approved', false), count(*) OVER ()
                FROM {t['listings']} l
                WHERE l.status = 'live' AND l.primary_category = %s AND l.slug <> ALL(%s)
                ORDER BY l.votes DESC, l.launched_at, l.listing_id LIMIT %s OFFSET %s""",
            (primary, exclude, q.per_page - len(take), others_offset),
        ).fetchall() if q.per_page > len(take) else []
        if others:
            others_total = int(others[0][1])
        else:
            (others_total,) = conn.execute(  # type: ignore[misc]
                f"SELECT count(*) FROM {t['listings']} WHERE status = 'live' AND primary_category = %s AND slug <> ALL(%s)",
                (primary, exclude),
            ).fetchone()
    return page_of([*take, *(r[0] for r in others)], q, len(approved) + int(others_total))


def compare_listings(reads: ReadStore, q: CompareListings) -> dict[str, Any]:
    """Rows for the union of both primary categories' attributes (first listing's order first)."""
    a, b = live_document(reads, q.a), live_document(reads, q.b)
    missing = [s for s, d in ((q.a, a), (q.b, b)) if d is None]
    if missing:
        raise NotFound(f"no live listing with slug {missing[0]!r}")
    assert a is not None and b is not None
    primaries = [d["categories"]["primary"]["slug"] for d in (a, b) if d["categories"]["primary"]]
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        attrs: dict[str, list[str]] = dict(conn.execute(
            f"SELECT slug, attributes FROM {t['categories']} WHERE slug = ANY(%s)", (primaries,)
        ).fetchall())
    attributes = list(dict.fromkeys(x for slug in primaries for x in attrs.get(slug, [])))
    return {
        "a": _summary(a),
        "b": _summary(b),
        "attributes": attributes,
        "rows": [
            {"attribute": x, "a": listing_docs.attribute_value(a, x), "b": listing_docs.attribute_value(b, x)}
            for x in attributes
        ],
    }


def _summary(doc: dict[str, Any]) -> dict[str, Any]:
    """The listing card of a full profile (queries/cards.py)."""
    cats = doc["categories"]
    return {
        "id": doc["listing_id"], "slug": doc["slug"], "name": doc["name"], "url": doc["url"],
        "votes": doc["community"]["votes"], "tagline": doc["tagline"], "logo_url": doc["logo_url"],
        "status": doc["status"], "launch_week": doc["launch_week"], "category": cats["primary"],
        "categories": [c["slug"] for c in ([cats["primary"]] if cats["primary"] else []) + cats["extra"]],
        "verified": bool(doc["verified"]),
    }
