"""Catalogue reads: site info, the category tree, one category, interview questions, products."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from events.errors import NotFound
from projections.listing_cards import card
from projections.reads import ReadStore
from queries.cards import ListingCard
from queries.paging import SLUG_PATTERN, PageInfo, Paging, page_of

VIEW = "catalog_view"


# ---------------------------------------------------------------- inputs


class GetSiteInfo(BaseModel):
    """Site name, purpose, public URLs, live counts, and where the API docs, OpenAPI file and MCP server are."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class ListCategories(BaseModel):
    """The category tree with live listing counts."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    include_empty: bool = Field(True, description="Include categories with no live listing.")


class GetCategory(Paging):
    """A category with its parent, subcategories, FAQs and live listings (most voted first)."""

    slug: str = Field(pattern=SLUG_PATTERN, max_length=220, description="Category slug.")


class ListInterviewQuestions(BaseModel):
    """The founder interview questions."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class ListProducts(BaseModel):
    """Products with current prices in USD cents excluding VAT, and the weeks week-based products offer."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# ---------------------------------------------------------------- outputs (documentation and MCP output schemas)


class Links(BaseModel):
    website: str
    api: str
    api_docs: str
    openapi: str
    mcp: str


class SiteInfo(BaseModel):
    name: str
    purpose: str
    urls: dict[str, str]
    links: Links
    live_listings: int
    categories: int
    free_queue_weeks: dict[str, int]
    timezone: str


class CategoryNode(BaseModel):
    slug: str
    name: str
    description: str
    parent: str | None
    live_count: int
    total_live_count: int
    subcategories: list[CategoryNode]


class CategoryTree(BaseModel):
    items: list[CategoryNode]
    total: int


class CategoryRef(BaseModel):
    slug: str
    name: str
    live_count: int = 0


class Faq(BaseModel):
    question: str
    answer: str


class CategoryListings(PageInfo):
    items: list[ListingCard]


class CategoryDetail(BaseModel):
    slug: str
    name: str
    description: str
    faqs: list[Faq]
    attributes: list[str]
    parent: CategoryRef | None
    subcategories: list[CategoryRef]
    live_count: int
    total_live_count: int
    listings: CategoryListings = Field(description="A page of the live listings of the category and its "
                                                   "subcategories, most voted first.")


class InterviewQuestion(BaseModel):
    id: int
    question: str


class InterviewQuestionList(BaseModel):
    items: list[InterviewQuestion]


class Product(BaseModel):
    code: str
    name: str
    description: str
    price_cents: int
    currency: str
    needs_listing: bool
    options: dict[str, Any] | None
    weeks: list[str] | None


class ProductList(BaseModel):
    items: list[Product]


# ---------------------------------------------------------------- reads


def site_settings(reads: ReadStore) -> dict[str, Any]:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT doc FROM {t['site']} WHERE key='site'").fetchone()
    return dict(row[0]) if row else {}


def site_name(reads: ReadStore) -> str:
    """The site's name from its settings (what every page title ends with), cached until the catalog moves."""
    if VIEW not in reads.runtime.projections:
        return "launchdir"
    return reads.cached((VIEW,), ("site_name",), lambda: str(site_settings(reads).get("name", "launchdir")))


def get_site_info(reads: ReadStore, links: dict[str, str], timezone: str, live_listings: int | None = None) -> dict[str, Any]:
    def compute() -> dict[str, Any]:
        site = site_settings(reads)
        t = reads.tables(VIEW)
        with reads.pool.connection() as conn:
            (count,) = conn.execute(f"SELECT count(*) FROM {t['categories']}").fetchone()  # type: ignore[misc]
            (live,) = conn.execute(f"SELECT count(*) FROM {t['listings']} WHERE status = 'live'").fetchone()  # type: ignore[misc]
        return {
            "name": site.get("name", "launchdir"),
            "purpose": site.get("purpose", ""),
            "urls": site.get("urls", {}),
            "links": links,
            "live_listings": int(live) if live_listings is None else live_listings,
            "categories": int(count),
            "free_queue_weeks": {
                "min": int(site.get("free_queue_min_weeks", 6)),
                "max": int(site.get("free_queue_max_weeks", 8)),
            },
            "timezone": timezone,
        }

    return reads.cached((VIEW,), ("site", live_listings), compute)


def category_names(reads: ReadStore) -> dict[str, str]:
    """Category slug -> name, cached until the catalogue moves (the listing cards name their primary category)."""
    rows = reads.cached((VIEW,), ("category-rows",), lambda: _category_rows(reads))
    return {str(r["slug"]): str(r["name"]) for r in rows}


def _category_rows(reads: ReadStore) -> list[dict[str, Any]]:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(f"SELECT doc, live_count FROM {t['categories']} ORDER BY position, slug").fetchall()
    return [dict(doc) | {"live_count": int(n)} for doc, n in rows]


def _tree(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    nodes = {
        r["slug"]: {
            "slug": r["slug"], "name": r["name"], "description": r["description"], "parent": r["parent"],
            "live_count": r["live_count"], "total_live_count": r["live_count"], "subcategories": [],
        }
        for r in rows
    }
    roots: list[dict[str, Any]] = []
    for r in rows:
        node = nodes[r["slug"]]
        parent = nodes.get(r["parent"]) if r["parent"] else None
        (parent["subcategories"] if parent else roots).append(node)

    def total(node: dict[str, Any]) -> int:
        node["total_live_count"] = node["live_count"] + sum(total(c) for c in node["subcategories"])
        return int(node["total_live_count"])

    for root in roots:
        total(root)
    return roots


def _prune_empty(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    kept = []
    for node in nodes:
        if node["total_live_count"] > 0:
            kept.append(node | {"subcategories": _prune_empty(node["subcategories"])})
    return kept


def list_categories(reads: ReadStore, q: ListCategories) -> dict[str, Any]:
    def compute() -> dict[str, Any]:
        rows = _category_rows(reads)
        roots = _tree(rows)
        if not q.include_empty:
            roots = _prune_empty(roots)
        return {"items": roots, "total": _count(roots)}

    return reads.cached((VIEW,), ("categories", q.include_empty), compute)


def _count(nodes: list[dict[str, Any]]) -> int:
    return sum(1 + _count(n["subcategories"]) for n in nodes)


def get_category(reads: ReadStore, q: GetCategory, listings: list[dict[str, Any]] | None = None, listing_total: int = 0) -> dict[str, Any]:
    """The category page; its `listings` are the live listings of it and its subcategories, most voted first."""
    rows = reads.cached((VIEW,), ("category-rows",), lambda: _category_rows(reads))
    by_slug = {r["slug"]: r for r in rows}
    row = by_slug.get(q.slug)
    if row is None:
        raise NotFound(f"no category with slug {q.slug!r}")
    node = _find(_tree(rows), q.slug)
    parent = by_slug.get(row["parent"]) if row["parent"] else None
    if listings is None:
        listings, listing_total = category_listings(reads, _slugs_below(node), q, by_slug)
    return {
        "slug": row["slug"],
        "name": row["name"],
        "description": row["description"],
        "faqs": row["faqs"],
        "attributes": row["attributes"],
        "parent": {"slug": parent["slug"], "name": parent["name"], "live_count": parent["live_count"]} if parent else None,
        "subcategories": [
            {"slug": c["slug"], "name": c["name"], "live_count": c["total_live_count"]} for c in node["subcategories"]
        ],
        "live_count": row["live_count"],
        "total_live_count": node["total_live_count"],
        "listings": page_of(listings or [], Paging(page=q.page, per_page=q.per_page), listing_total),
    }


def _find(nodes: list[dict[str, Any]], slug: str) -> dict[str, Any]:
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if node["slug"] == slug:
            return node
        stack.extend(node["subcategories"])
    raise NotFound(f"no category with slug {slug!r}")


def category_listings(reads: ReadStore, slugs: list[str], paging: Paging, by_slug: dict[str, dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """Live listings in any of `slugs` (primary or extra category), most voted first; a page and the total.

    Ties: more votes first, then launched earlier, then the lower listing id.
    """
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"SELECT l.slug, l.src, l.status, l.week, l.categories, l.votes, count(*) OVER (), l.listing_id, "
            f"coalesce(v.verified, false) FROM {t['listings']} l "
            f"LEFT JOIN {reads.tables('launches_view')['listings']} v ON v.id = l.listing_id "
            "WHERE l.status = 'live' AND l.categories && %s "
            "ORDER BY l.votes DESC, l.launched_at, l.listing_id LIMIT %s OFFSET %s",
            (slugs, paging.per_page, paging.offset),
        ).fetchall()
        if rows:
            total = int(rows[0][6])
        else:
            (total,) = conn.execute(  # type: ignore[misc]
                f"SELECT count(*) FROM {t['listings']} WHERE status = 'live' AND categories && %s", (slugs,)
            ).fetchone()
    items = []
    for slug, src, status, week, cats, votes, _, listing_id, verified in rows:
        primary = cats[0] if cats else None
        category = {"slug": primary, "name": by_slug.get(primary, {}).get("name", primary)} if primary else None
        items.append(card(slug, src, src.get("socials"), status, week, category)
                     | {"votes": int(votes), "id": int(listing_id), "categories": list(cats), "verified": bool(verified)})
    return items, int(total)


def _slugs_below(node: dict[str, Any]) -> list[str]:
    out: list[str] = []
    stack = [node]
    while stack:
        n = stack.pop()
        out.append(n["slug"])
        stack.extend(n["subcategories"])
    return out


def category_and_descendants(reads: ReadStore, slug: str) -> list[str]:
    """The slug and every subcategory below it (search filters include subcategories)."""
    rows = reads.cached((VIEW,), ("category-rows",), lambda: _category_rows(reads))
    return _slugs_below(_find(_tree(rows), slug))


def list_interview_questions(reads: ReadStore) -> dict[str, Any]:
    def compute() -> dict[str, Any]:
        t = reads.tables(VIEW)
        with reads.pool.connection() as conn:
            rows = conn.execute(f"SELECT doc FROM {t['questions']} ORDER BY position, id").fetchall()
        return {"items": [r[0] for r in rows]}

    return reads.cached((VIEW,), ("questions",), compute)


def list_products(reads: ReadStore, today: date) -> dict[str, Any]:
    def compute() -> dict[str, Any]:
        t = reads.tables(VIEW)
        with reads.pool.connection() as conn:
            rows = conn.execute(f"SELECT doc FROM {t['products']} ORDER BY position, code").fetchall()
        items = []
        for (doc,) in rows:
            window = doc.get("week_window")
            item = {k: v for k, v in doc.items() if k != "week_window"}
            item["weeks"] = offered_weeks(today, window) if window else None
            items.append(item)
        return {"items": items}

    return reads.cached((VIEW,), ("products", today), compute)


def monday_of(day: date) -> date:
    return day - timedelta(days=day.weekday())


def offered_weeks(today: date, window: list[int]) -> list[str]:
    """Launch-week Mondays from `window[0]` to `window[1]` weeks after this week's Monday."""
    start = monday_of(today)
    return [(start + timedelta(weeks=k)).isoformat() for k in range(window[0], window[1] + 1)]
