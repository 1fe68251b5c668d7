"""The reading pages: founders, the blog, search, comparison, the latest updates and how voting works.

The comparison's handler lives in `api/web_public_compare.py` (`ComparePage`); this module routes it.

Search shows "did you mean" when the query words were corrected: the page asks
the same `search_request` the operation uses for the corrected words, so the
suggestion is exactly what the results were searched for.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.web_public import PageProblem, address_sentence
from api.web_public_compare import ComparePage
from queries import listings as listings_q
from queries import updates as updates_q
from queries.paging import Paging

SORTS = [("relevance", "Relevance"), ("votes", "Most voted"), ("newest", "Newest"), ("trending", "Trending"),
         ("most_viewed", "Most viewed"), ("most_followed", "Most followed")]
SEARCH_FIELDS = ("q", "category", "stage", "country", "pricing_model", "domain", "status", "sort")


class ContentPages(ComparePage):
    def routes(self) -> list[BaseRoute]:
        p = self.page
        return [
            Route("/founders", p(self.founders), methods=["GET"]),
            Route("/founders/{slug}", p(self.founder), methods=["GET"]),
            Route("/blog", p(self.blog), methods=["GET"]),
            Route("/blog/{slug}", p(self.post), methods=["GET"]),
            Route("/search", p(self.search), methods=["GET"]),
            Route("/compare", p(self.compare), methods=["GET"]),
            Route("/updates", p(self.updates), methods=["GET"]),
            Route("/voting", p(self.voting), methods=["GET"]),
        ]

    async def founders(self, request: Request) -> Response:
        raw = {"q": request.query_params.get("q"), **self.paging(request, 24)}
        found = await self.op(request, "list_founders", raw)
        return await self.show(request, "public/founders.html", {
            "founders": found, "pager": self.pager(request, found), "fq": request.query_params.get("q", ""),
            "description": "The people behind the products in the directory.",
        })

    async def founder(self, request: Request) -> Response:
        f = await self.op(request, "get_founder", {"slug": request.path_params["slug"]})
        ld = {"@context": "https://schema.org", "@type": "Person", "name": f["name"],
              "url": f"{self.base}/founders/{f['slug']}", "sameAs": list((f.get("socials") or {}).values())}
        return await self.show(request, "public/founder.html", {
            "f": f, "jsonld": ld, "description": f.get("bio") or "", "og_image": f.get("avatar_url"), "og_type": "profile",
        })

    async def blog(self, request: Request) -> Response:
        posts = await self.op(request, "list_blog_posts", {"q": request.query_params.get("q"), **self.paging(request)})
        return await self.show(request, "public/blog.html", {
            "posts": posts, "pager": self.pager(request, posts), "alt_feed": "/feeds/blog.atom",
            "description": "News and guides from the directory.",
        })

    async def post(self, request: Request) -> Response:
        post = await self.op(request, "get_blog_post", {"slug": request.path_params["slug"]})
        ld = {"@context": "https://schema.org", "@type": "BlogPosting", "headline": post["title"],
              "datePublished": post.get("published_at"), "dateModified": post.get("updated_at"),
              "author": {"@type": "Organization", "name": post.get("author") or "launchdir"},
              "url": f"{self.base}/blog/{post['slug']}"}
        return await self.show(request, "public/post.html", {
            "post": post, "jsonld": ld, "description": post.get("summary") or "", "og_type": "article",
            "alt_feed": "/feeds/blog.atom",
        })

    async def search(self, request: Request) -> Response:
        params = {k: request.query_params.get(k) for k in SEARCH_FIELDS}
        raw = {**params, **self.paging(request)}
        categories = await self.op(request, "list_categories", {})
        try:
            results = await self.op(request, "search_listings", raw)
        except PageProblem as exc:  # bad input: said on the search page, with its form to try again
            if exc.status != 400:
                raise
            return await self.show(request, "public/search.html", {
                "results": {"items": [], "total": 0, "total_exact": True}, "cards": [], "listing_ids": [],
                "params": params, "pager": None, "sorts": SORTS, "suggestion": None, "search_q": params.get("q") or "",
                "categories": categories["items"], "robots": "noindex", "canonical": f"{self.base}/search",
                "search_errors": search_errors(exc)}, status=400)
        suggestion = await run_in_threadpool(self._did_you_mean, raw)
        cards = await self.with_ids(results["items"])
        return await self.show(request, "public/search.html", {
            "results": results, "cards": cards, "listing_ids": [int(c["id"]) for c in cards if c.get("id")], "params": params, "pager": self.pager(request, results), "sorts": SORTS,
            "suggestion": suggestion, "search_q": params.get("q") or "", "categories": categories["items"],
            "robots": "noindex", "canonical": f"{self.base}/search",
        })

    def _did_you_mean(self, raw: dict[str, Any]) -> str | None:
        """The corrected query when some word was replaced (None when every word was known)."""
        clean = {k: v for k, v in raw.items() if v not in (None, "")}
        if not clean.get("q"):
            return None
        try:
            q = listings_q.SearchListings.model_validate(clean)
        except ValidationError:
            return None
        req = listings_q.search_request(self.s.reads, q, self.s.today())
        if req.text and any(c.words and not c.known for c in req.corrections):
            corrected = req.corrected
            return corrected if corrected != req.text else None
        return None

    async def updates(self, request: Request) -> Response:
        try:
            paging = Paging.model_validate(self.paging(request))
        except ValidationError as exc:
            raise PageProblem(400, "page must be a whole number from 1 to 1000") from exc
        updates = await run_in_threadpool(updates_q.latest_updates, self.s.reads, paging)
        return await self.show(request, "public/updates.html", {
            "updates": updates, "pager": self.pager(request, updates), "alt_feed": "/feeds/updates.atom",
            "description": "The latest updates posted by the makers of listed products.",
        })

    async def voting(self, request: Request) -> Response:
        return await self.show(request, "public/voting.html", {
            "description": "Who can vote, what counts in rankings and awards, and how votes are kept honest.",
        })


SEARCH_WORDS = {
    "q": "Search words are at most 200 characters: shorten the search.",
    "page": "Results have at most 1,000 pages: choose a page from 1 to 1,000.",
    "per_page": "A page shows at most 100 listings.",
}


def search_errors(exc: PageProblem) -> list[str]:
    """The search page's words for a refused search: one sentence per field, the problem's own when unknown."""
    said = [address_sentence(e, SEARCH_WORDS) for e in exc.errors]
    return list(dict.fromkeys(said)) or [exc.detail]

