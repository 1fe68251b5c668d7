"""Documents for machines: sitemap.xml, robots.txt, llms.txt, and Atom and JSON feeds.

Feeds: launches (the newest live launches), the blog and listing updates, each
as Atom 1.0 (`/feeds/<name>.atom`) and JSON Feed 1.1 (`/feeds/<name>.json`),
built from the same operations and reads as the pages (50 newest entries).
The XML is written by hand with escaping: the documents are small and fixed.

The sitemap lists the home page, section pages, every category, live listing
(up to `MAX_URLS`), founder, blog post and the launch weeks of the last 12
weeks. It is rebuilt at most every `SITEMAP_SECONDS`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from api.problems import problem
from api.web_public import PageProblem, PublicSite
from queries import updates as updates_q
from queries.paging import Paging

FEED_SIZE = 50
MAX_URLS = 50_000  # the sitemap protocol's limit for one file
SITEMAP_SECONDS = 300.0
WEEKS_IN_SITEMAP = 12
STATIC_PATHS = ["/", "/launches", "/categories", "/leaderboards/community-weekly",
                "/leaderboards/community-all-time", "/leaderboards/billboard", "/leaderboards/domain-rating",
                "/leaderboards/revenue", "/awards", "/founders", "/blog", "/updates", "/voting",
                "/about/votes", "/about", "/pricing", "/privacy", "/terms"]
Entry = dict[str, Any]  # id, title, url, updated, summary, author


def atom(title: str, self_url: str, site_url: str, entries: list[Entry], author: str = "launchdir") -> str:
    updated = max((e["updated"] for e in entries), default=_iso(datetime.now(timezone.utc)))
    out = ['<?xml version="1.0" encoding="utf-8"?>', '<feed xmlns="http://www.w3.org/2005/Atom">',
           f"<title>{escape(title)}</title>", f"<id>{escape(self_url)}</id>", f"<updated>{escape(updated)}</updated>",
           f"<link rel=\"self\" href={quoteattr(self_url)}/>", f"<link rel=\"alternate\" href={quoteattr(site_url)}/>",
           f"<author><name>{escape(author)}</name></author>"]  # the site's own name, as its pages say it
    for e in entries:
        out += ["<entry>", f"<title>{escape(e['title'])}</title>", f"<id>{escape(e['id'])}</id>",
                f"<link rel=\"alternate\" href={quoteattr(e['url'])}/>", f"<updated>{escape(e['updated'])}</updated>"]
        if e.get("author"):
            out.append(f"<author><name>{escape(e['author'])}</name></author>")
        if e.get("summary"):
            out.append(f"<summary>{escape(e['summary'])}</summary>")
        out.append("</entry>")
    out.append("</feed>")
    return "\n".join(out) + "\n"


def json_feed(title: str, self_url: str, site_url: str, entries: list[Entry]) -> dict[str, Any]:
    return {"version": "https://jsonfeed.org/version/1.1", "title": title, "home_page_url": site_url,
            "feed_url": self_url,
            "items": [{"id": e["id"], "url": e["url"], "title": e["title"], "content_text": e.get("summary") or e["title"],
                       "date_published": e["updated"], **({"authors": [{"name": e["author"]}]} if e.get("author") else {})}
                      for e in entries]}


def _iso(value: Any) -> str:
    if isinstance(value, datetime):
        return value.astimezone(timezone.utc).isoformat()
    return str(value or "")


# The signed-in founder's pages: nothing there is for search engines (the sign-in page or a 404 answers them).
PRIVATE_PAGES = ("/submit", "/drafts", "/my/", "/claim/", "/invites/", "/verify")


class FeedPages(PublicSite):
    _sitemap: tuple[float, str] | None = None

    def routes(self) -> list[BaseRoute]:
        p = self.page
        return [
            Route("/robots.txt", p(self.robots), methods=["GET"]),
            Route("/llms.txt", p(self.llms), methods=["GET"]),
            Route("/sitemap.xml", p(self.sitemap), methods=["GET"]),
            Route("/feeds/{name}.atom", p(self.feed_atom), methods=["GET"]),
            Route("/feeds/{name}.json", p(self.feed_json), methods=["GET"]),
        ]

    # ------------------------------------------------------------ feeds

    async def _entries(self, request: Request, name: str) -> tuple[str, str, list[Entry]]:
        base = self.base
        if name == "launches":
            feed = await self.op(request, "list_launches", {"section": "recent", "per_page": FEED_SIZE})
            entries = [{"id": f"{base}/listings/{x['listing']['slug']}", "title": x["listing"]["name"],
                        "url": f"{base}/listings/{x['listing']['slug']}", "updated": _iso(x["metric"]["value"]),
                        "summary": x["listing"].get("tagline") or ""} for x in feed["items"]]
            return "Launches", f"{base}/launches", entries
        if name == "blog":
            posts = await self.op(request, "list_blog_posts", {"per_page": FEED_SIZE})
            entries = [{"id": f"{base}/blog/{p['slug']}", "title": p["title"], "url": f"{base}/blog/{p['slug']}",
                        "updated": _iso(p.get("published_at")), "summary": p.get("summary") or "",
                        "author": p.get("author")} for p in posts["items"]]
            return "Blog", f"{base}/blog", entries
        if name == "updates":
            page = await run_in_threadpool(updates_q.latest_updates, self.s.reads, Paging(page=1, per_page=FEED_SIZE))
            entries = [{"id": f"{base}/listings/{u['listing_slug']}#update-{u['update_id']}",
                        "title": f"{u['listing_name']}: {u['title']}", "url": f"{base}/listings/{u['listing_slug']}",
                        "updated": _iso(u["posted_at"]), "summary": u["body"][:500]} for u in page["items"]]
            return "Listing updates", f"{base}/updates", entries
        raise PageProblem(404, "no such feed")

    async def feed_atom(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in FEEDS:
            return _no_such_feed(name)
        title, home, entries = await self._entries(request, name)
        site = await self.site(request)
        body = atom(f"{site['name']}: {title}", f"{self.base}/feeds/{name}.atom", home, entries, author=site["name"])
        return Response(body, media_type="application/atom+xml", headers={"cache-control": "public, max-age=300"})

    async def feed_json(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in FEEDS:
            return _no_such_feed(name)
        title, home, entries = await self._entries(request, name)
        site = await self.site(request)
        body = json.dumps(json_feed(f"{site['name']}: {title}", f"{self.base}/feeds/{name}.json", home, entries))
        return Response(body, media_type="application/feed+json", headers={"cache-control": "public, max-age=300"})

    # ------------------------------------------------------------ crawlers and agents

    async def robots(self, request: Request) -> Response:
        # Disallow lines before "Allow: /": parsers that take the first matching rule then agree with longest-match ones.
        lines = ["User-agent: *", "Disallow: /account", "Disallow: /staff", "Disallow: /signin",
                 "Disallow: /signup", "Disallow: /reset", "Disallow: /oauth/", "Disallow: /checkout/",
                 "Disallow: /search", *(f"Disallow: {path}" for path in PRIVATE_PAGES), "Allow: /", "",
                 f"Sitemap: {self.base}/sitemap.xml"]
        return PlainTextResponse("\n".join(lines) + "\n", headers={"cache-control": "public, max-age=3600"})

    async def llms(self, request: Request) -> Response:
        site = await self.site(request)
        links = site["links"]
        text = f"""# {site['name']}

> {site['purpose']}

{site['live_listings']} live listings in {site['categories']} categories. Read everything without signing in;
writing (submitting a listing, editing your listings, claims, orders) needs a credential.

## For agents

- REST API: {links['api']} (documentation: {links['api_docs']})
- OpenAPI 3.1 document: {links['openapi']}
- MCP server: {links['mcp']} (Streamable HTTP, stateless: clients POST JSON-RPC to this address; it has no
  page to open in a browser): the same operations as tools

## Signing in

- API keys: create one on {self.base}/account (sign up at {self.base}/signup), send it as `Authorization: Bearer <key>`.
- OAuth 2.1 with PKCE and dynamic client registration: discovery at
  {self.base}/.well-known/oauth-authorization-server and {self.base}/.well-known/oauth-protected-resource
  (MCP clients find it from the 401 challenge).
- Votes, reviews and follows come only from people on the website; there is no operation for them.

## Pages

- Launches this week: {self.base}/launches/this
- Categories: {self.base}/categories
- Leaderboards: {self.base}/leaderboards/community-weekly
- Search: {self.base}/search?q=words
- Feeds: {self.base}/feeds/launches.atom, {self.base}/feeds/blog.atom, {self.base}/feeds/updates.atom
  (JSON Feed: the same paths ending in .json)
- Sitemap: {self.base}/sitemap.xml
"""
        return PlainTextResponse(text, media_type="text/markdown; charset=utf-8",
                                 headers={"cache-control": "public, max-age=3600"})

    async def sitemap(self, request: Request) -> Response:
        now = time.monotonic()
        cached = self._sitemap  # per site: each server (and its base URL) keeps its own
        if cached is None or now - cached[0] > SITEMAP_SECONDS:
            cached = (now, await self._build_sitemap(request))
            self._sitemap = cached
        return Response(cached[1], media_type="application/xml", headers={"cache-control": "public, max-age=300"})

    async def _build_sitemap(self, request: Request) -> str:
        urls: list[str] = [self.base + p for p in STATIC_PATHS]

        async def every(operation: str, raw: dict[str, Any], url: Callable[[dict[str, Any]], str]) -> None:
            page = 1
            while len(urls) < MAX_URLS and page <= 1000:
                doc = await self.op(request, operation, {**raw, "page": page, "per_page": 100})
                urls.extend(url(item) for item in doc["items"])
                if not doc.get("has_more"):
                    return
                page += 1

        tree = await self.op(request, "list_categories", {})
        stack = list(tree["items"])
        while stack:
            c = stack.pop(0)
            urls.append(f"{self.base}/categories/{c['slug']}")
            stack.extend(c.get("subcategories") or [])
        week = await self.op(request, "get_launch_week", {"week": "this"})
        for _ in range(WEEKS_IN_SITEMAP):
            urls.append(f"{self.base}/launches/{week['week']}")
            if not week.get("previous_week"):
                break
            try:
                week = await self.op(request, "get_launch_week", {"week": week["previous_week"]})
            except PageProblem:
                break
        await every("list_founders", {}, lambda f: f"{self.base}/founders/{f['slug']}")
        await every("list_blog_posts", {}, lambda p: f"{self.base}/blog/{p['slug']}")
        await every("search_listings", {"sort": "newest"}, lambda x: f"{self.base}/listings/{x['slug']}")
        body = "\n".join(f"<url><loc>{escape(u)}</loc></url>" for u in dict.fromkeys(urls[:MAX_URLS]))
        return ('<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{body}\n</urlset>\n')


FEEDS = ("launches", "blog", "updates")


def _no_such_feed(name: str) -> Response:
    """An unknown feed is a machine's address: an RFC 9457 problem, not the website's HTML page (docs/website.md)."""
    body = problem(404, "not-found", "Not found", f"there is no feed {name!r}; the feeds are {', '.join(FEEDS)}")
    return Response(json.dumps(body), status_code=404, media_type="application/problem+json")
