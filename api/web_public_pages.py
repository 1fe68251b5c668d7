"""The directory's pages: home, a listing's profile, launch weeks, categories, leaderboards and awards.

Each handler reads one or a few public operations through `PublicSite.op`
(the API's own documents) and renders a template under `templates/public/`.
Cards carry listing ids where the operation gives them, so a signed-in
person's vote and follow buttons show as pressed (`queries/community.py`).
"""

from __future__ import annotations

import asyncio
import logging
import re
from datetime import timezone
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from api.csrf import Csrf
from events.week_names import monday_of_week, week_name
from api.web_page_cache import STALE_SECONDS, CachedPage, Key, PageCache, never_busy
from api.web_public import PageProblem, PublicSite
from api.web_review_section import review_section
from queries import launches as launches_q
from queries import updates as updates_q
from queries.paging import Paging

BOARDS = [("community-weekly", "This week"), ("community-all-time", "All time"), ("domain-rating", "Domain Rating"),
          ("revenue", "Revenue"), ("billboard", "Billboard (paid)")]
WEEK_WORDS = ("this", "last", "next")
ISO_WEEK = re.compile(r"^\d{4}-[Ww]\d{2}$")  # a week's ISO code, 2026-W49
log = logging.getLogger(__name__)


def ids_of(*groups: list[dict[str, Any]]) -> list[int]:
    """Listing ids of cards (`{"listing": {...}}` items or bare listing cards) that carry one."""
    out: list[int] = []
    for group in groups:
        for item in group:
            card = item.get("listing", item)
            if isinstance(card, dict) and card.get("id"):
                out.append(int(card["id"]))
    return out


# What a listing page shows: the profile and alternatives, badges, reviews and card ids, the site's facts.
LISTING_PAGE_READS = ("listing_view", "catalog_view", "launches_view", "reviews_view", "updates_view")
# What a launch week's board shows: its launches, scheduled listings and awards, the site's facts and categories.
WEEK_PAGE_READS = ("launches_view", "catalog_view")
# What the home page shows: this and last week, today's, trending and upcoming launches, categories, the site's facts
# and the latest updates.
HOME_PAGE_READS = ("launches_view", "catalog_view", "updates_view")
Render = Callable[[Request], Awaitable[tuple[Response, int | None]]]


# A launches section's meta description: what the list is and in which order.
SECTION_WORDS = {
    "recent": "The newest live listings, most recent launch first.",
    "today": "Listings launched today, most voted first.",
    "this-week": "This week's launches, most voted first.",
    "trending": "Launches ranked by recent votes, the newest weighing most.",
    "most-voted": "Launches with the most votes of all time.",
    "most-viewed": "Launches whose pages are read most.",
    "most-followed": "Launches with the most followers.",
    "upcoming": "Listings scheduled to launch in the coming weeks, soonest first.",
}


def week_description(week: dict[str, Any]) -> str:
    """A week's meta description: its launches ranked by votes, or, before it begins, how many are scheduled."""
    span = week_name(week["week"], "long")
    if week.get("state") == "future":
        n = len(week.get("scheduled") or ())
        return f"{n} launch{'es' if n != 1 else ''} scheduled for {span}; the ranking starts with the week."
    n = len(week["launches"])
    return f"{n} launch{'es' if n != 1 else ''} in {span}, ranked by votes."


class DirectoryPages(PublicSite):
    def __init__(self, *args: Any, busy: Callable[[], bool] = never_busy, stale_seconds: float = STALE_SECONDS,
                 **kwargs: Any) -> None:
        """`busy` and `stale_seconds`: when a signed-out page may be a little old (`api/web_page_cache.py`)."""
        super().__init__(*args, **kwargs)
        self.signed_out = PageCache(self.s.runtime, LISTING_PAGE_READS, busy, stale_seconds)
        self.signed_out_weeks = PageCache(self.s.runtime, WEEK_PAGE_READS, busy, stale_seconds)
        self.signed_out_home = PageCache(self.s.runtime, HOME_PAGE_READS, busy, stale_seconds)
        self._refreshes: set[asyncio.Task[None]] = set()

    def routes(self) -> list[BaseRoute]:
        p = self.page
        return [
            Route("/", p(self.home), methods=["GET"]),
            Route("/listings/{slug}", p(self.listing), methods=["GET"]),
            Route("/launches", p(self.launches_index), methods=["GET"]),
            Route("/launches/{week}", p(self.week), methods=["GET"]),
            Route("/categories", p(self.categories), methods=["GET"]),
            Route("/categories/{slug}", p(self.category), methods=["GET"]),
            Route("/leaderboards", p(self.boards_index), methods=["GET"]),
            Route("/leaderboards/{board}", p(self.board), methods=["GET"]),
            Route("/awards", p(self.awards), methods=["GET"]),
        ]

    async def home(self, request: Request) -> Response:
        """The home page; a signed-out visitor's is kept like a listing page, and per hour: trending is of the hour."""
        hour = self.s.now().astimezone(timezone.utc).strftime("%Y-%m-%dT%H")  # the hour list_launches' trending is of
        return await self.kept(request, self.signed_out_home, self._home, period=hour)

    async def _home(self, request: Request) -> tuple[Response, int | None]:
        week = await self.op(request, "get_launch_week", {"week": "this"})
        today = await self.op(request, "list_launches", {"section": "today", "per_page": 10})
        trending = await self.op(request, "list_launches", {"section": "trending", "per_page": 6})
        upcoming = await self.op(request, "list_launches", {"section": "upcoming", "per_page": 6})
        last = await self.op(request, "get_launch_week", {"week": "last"})
        categories = await self.op(request, "list_categories", {})
        updates = await run_in_threadpool(updates_q.latest_updates, self.s.reads, Paging(page=1, per_page=5))
        featured = await run_in_threadpool(launches_q.featured_now, self.s.reads, self.s.now())
        ld = self.item_list(f"Launches of {week_name(week['week'], 'long')}", [x["listing"] for x in week["launches"]])
        page = await self.show(request, "public/home.html", {
            "week": week, "today": today["items"], "trending": trending["items"], "upcoming": upcoming["items"],
            "featured": featured, "last_awards": last.get("awards", []), "categories": categories["items"],
            "updates": updates["items"], "jsonld": ld,
            "listing_ids": ids_of(week["launches"], today["items"], trending["items"], featured),
        })
        return page, None

    async def listing(self, request: Request) -> Response:
        """A listing's profile; a signed-out visitor's is rendered once per move of what it shows (`api.web_page_cache`)."""
        return await self.kept(request, self.signed_out, self._listing)

    async def kept(self, request: Request, cache: PageCache, render: Render, period: str = "") -> Response:
        """The page `render` builds; for a signed-out visitor, the one `cache` keeps while it is valid.

        Kept per address and day; `period` narrows that for a page that changes more often by the clock
        alone (the home page's trending, by the hour).
        """
        if self.id.sessions.lookup(request.cookies.get(self.session_cookie)) is not None:
            return (await render(request))[0]
        key = (request.url.path, request.url.query + (f"#{period}" if period else ""), self.s.today())
        hit = cache.get(key)
        if hit is not None:
            if cache.claim_refresh(key):
                self._refresh(request, cache, key, render)  # its render counts this visit's view, as get_listing does
            elif hit.listing_id is not None:
                self.s.views.hit(hit.listing_id)  # counted as get_listing counts a cached answer
            response = Response(hit.body, headers=dict(hit.headers))
            if not request.cookies.get(self.id.csrf.cookie_name):
                self._browser_cookie(response, Csrf.new_browser_value())
            return response
        return await self._render_kept(request, cache, key, render)

    async def _render_kept(self, request: Request, cache: PageCache, key: Key, render: Render) -> Response:
        taken = cache.take()
        response, listing_id = await render(request)
        if response.status_code == 200 and isinstance(response.body, bytes):
            headers = tuple((k, v) for k, v in response.headers.items() if k not in ("set-cookie", "content-length"))
            cache.put(key, taken, CachedPage(response.body, headers, listing_id))
        return response

    def _refresh(self, request: Request, cache: PageCache, key: Key, render: Render) -> None:
        """Render a kept page again in the background while the visitor gets the kept copy (`claim_refresh`)."""
        async def refresh() -> None:
            try:
                await self._render_kept(request, cache, key, render)
            except PageProblem:  # gone meanwhile (taken off, ...): the kept page ages out, the next visit shows why
                pass
            except Exception:  # a failed refresh leaves the kept page to age out; the next visit renders it
                log.exception("refreshing the kept page %s failed", key[0])
            finally:
                cache.release(key)
                self._refreshes.discard(task)

        task = asyncio.get_running_loop().create_task(refresh())
        self._refreshes.add(task)  # the loop holds tasks weakly

    async def _listing(self, request: Request) -> tuple[Response, int | None]:
        """The page and the listing it shows."""
        slug = request.path_params["slug"]
        try:
            doc = await self.op(request, "get_listing", {"slug": slug})
        except PageProblem as exc:
            upcoming = await run_in_threadpool(launches_q.upcoming_card, self.s.reads, slug) if exc.status == 404 else None
            if upcoming is None:
                raise
            return await self.show(request, "public/upcoming.html", {
                "l": upcoming, "description": upcoming.get("tagline") or "", "og_image": upcoming.get("logo_url")}), None
        alternatives = await self.op(request, "get_alternatives", {"slug": slug, "per_page": 6})
        others = await self.with_ids(alternatives["items"])
        badges = await self.op(request, "get_badges", {"slug": slug})
        rating = doc["community"]["rating"]
        ld: dict[str, Any] = {
            "@context": "https://schema.org", "@type": "SoftwareApplication", "name": doc["name"],
            "description": doc.get("short_description") or doc.get("tagline") or "",
            "url": f"{self.base}/listings/{slug}",
            "applicationCategory": (doc["categories"]["primary"] or {}).get("name") or "BusinessApplication",
            "operatingSystem": "Web",
        }
        if doc.get("url"):
            ld["sameAs"] = doc["url"]
        if doc.get("logo_url"):
            ld["image"] = doc["logo_url"]
        if rating["count"] and rating["average"] is not None:
            ld["aggregateRating"] = {"@type": "AggregateRating", "ratingValue": rating["average"],
                                     "ratingCount": rating["count"], "bestRating": 5, "worstRating": 1}
        session = self.id.sessions.lookup(request.cookies.get(self.session_cookie))
        page = request.query_params.get("page") or "1"
        section = await run_in_threadpool(review_section, self.s.reads, int(doc["listing_id"]),
                                          session.account_id if session else None, int(page) if (page.isascii() and page.isdigit()) and len(page) < 5 else 1)
        response = await self.show(request, "public/listing.html", {
            **section, "review_pager": self.pager(request, section["reviews"]),
            "l": doc, "alternatives": others, "badges": badges["badges"], "jsonld": ld,
            "listing_ids": [doc["listing_id"], *ids_of(others)], "og_type": "product",
            "description": doc.get("short_description") or doc.get("tagline") or "",
            "og_image": doc.get("logo_url"),
        })
        return response, int(doc["listing_id"])

    async def launches_index(self, request: Request) -> Response:
        section = request.query_params.get("section") or "recent"
        feed = await self.op(request, "list_launches", {"section": section, **self.paging(request)})
        return await self.show(request, "public/launches.html", {
            "feed": feed, "section": section, "pager": self.pager(request, feed),
            "listing_ids": ids_of(feed["items"]), "alt_feed": "/feeds/launches.atom",
            "description": SECTION_WORDS.get(section, ""),
            "jsonld": self.item_list(f"Launches: {section}", [x["listing"] for x in feed["items"]], feed),
        })

    async def week(self, request: Request) -> Response:
        """A launch week's board; a signed-out visitor's is kept like a listing page (`kept`). A week named by its ISO
        code (`/launches/2026-W49`, the API's `label`, "Week 49, 2026" on the pages) moves to its Monday's address."""
        named = str(request.path_params["week"])
        if ISO_WEEK.match(named) and (monday := monday_of_week(named.upper())) is not None:
            return RedirectResponse(f"/launches/{monday.isoformat()}", 301)
        return await self.kept(request, self.signed_out_weeks, self._week)

    async def _week(self, request: Request) -> tuple[Response, int | None]:
        week = await self.op(request, "get_launch_week", {"week": request.path_params["week"]})
        cards = [x["listing"] for x in week["launches"]]
        page = await self.show(request, "public/week.html", {
            "week": week, "jsonld": self.item_list(f"Launches of {week_name(week['week'], 'long')}", cards),
            "listing_ids": ids_of(week["launches"]), "canonical": f"{self.base}/launches/{week['week']}",
            "description": week_description(week),
            "alt_feed": "/feeds/launches.atom",
        })
        return page, None

    async def categories(self, request: Request) -> Response:
        tree = await self.op(request, "list_categories", {"include_empty": "true"})
        return await self.show(request, "public/categories.html", {"categories": tree["items"]})

    async def category(self, request: Request) -> Response:
        cat = await self.op(request, "get_category", {"slug": request.path_params["slug"], **self.paging(request)})
        cards = await self.with_ids(cat["listings"]["items"])
        slugs = (cat["slug"], *(s["slug"] for s in cat.get("subcategories") or []))
        featured = [] if cat["listings"].get("page", 1) != 1 else await run_in_threadpool(
            launches_q.featured_now, self.s.reads, self.s.now(), 6, slugs)  # a paid placement: first page only
        return await self.show(request, "public/category.html", {
            "c": cat, "cards": cards, "pager": self.pager(request, cat["listings"]), "featured": featured,
            "description": cat.get("description") or "", "listing_ids": ids_of(cards, featured),
            "jsonld": self.item_list(cat["name"], cat["listings"]["items"], cat["listings"]),
        })

    async def boards_index(self, request: Request) -> Response:
        return self._redirect("/leaderboards/community-weekly")

    async def board(self, request: Request) -> Response:
        raw = {"board": request.path_params["board"], "week": request.query_params.get("week"), **self.paging(request)}
        board = await self.op(request, "get_leaderboard", raw)
        return await self.show(request, "public/board.html", {
            "b": board, "boards": BOARDS, "pager": self.pager(request, board),
            "jsonld": self.item_list(board["title"], [x["listing"] for x in board["items"]], board),
            "listing_ids": ids_of(board["items"]), "description": board.get("description") or "",
        })

    async def awards(self, request: Request) -> Response:
        awards = await self.op(request, "list_awards", self.paging(request, 30))
        weeks: dict[str, dict[str, Any]] = {}
        for a in awards["items"]:
            weeks.setdefault(a["week"], {"week": a["week"], "items": []})["items"].append(a)
        return await self.show(request, "public/awards.html", {
            "weeks": list(weeks.values()), "pager": self.pager(request, awards), "listing_ids": ids_of(awards["items"]),
            "description": "Launch of the Week awards: the three most voted launches of every closed week.",
        })


def directory_pages(site: PublicSite) -> DirectoryPages:
    """Built from an existing PublicSite's parts, so every page module shares one executor and limiter."""
    return DirectoryPages(site.id, site.ex, site.limiter)  # its own kept pages, never stale


__all__ = ["DirectoryPages", "PageProblem", "WEEK_WORDS", "directory_pages", "ids_of"]
