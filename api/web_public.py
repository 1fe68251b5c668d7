"""The public website's shared plumbing: reading through the executor, rendering, SEO facts, error pages.

Every public page reads the same operations the REST API and MCP answer
(`get_listing`, `get_launch_week`, ...), called on an `Executor` built over
the same services and registry: the same validation, the same handlers, the
same cached documents (the read store's document cache and a response cache
keyed as the API's). There is no second read path; the website only renders.

Page reads are counted once per page against a per-address limiter (the
API's anonymous quota), not once per operation a page uses, so a page that
shows five sections costs a visitor one request.

Errors: an operation's 404 renders the HTML not-found page (with a search
box); a 400 renders the problem's message; anything else a short error page.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlencode, urlsplit

import nh3
from markdown_it import MarkdownIt
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from api.executor import Executor
from api.field_labels import attribute_label, field_label, value_label
from api.identity import Identity
from api.ratelimit import LocalRateLimiter, OverLimit
from api.web_errors import PATTERNS
from api.web_pages import WebPages, text_problems
from events.draft_fields import PRICING_MODELS, STAGES
from events.week_names import week_name
from queries import accounts as accounts_q
from queries import community as community_q
from queries import launches as launches_q

Handler = Callable[[Request], Awaitable[Response]]
MARKDOWN = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
ALLOWED_TAGS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "a", "em", "strong", "code", "pre",
                "blockquote", "hr", "br", "table", "thead", "tbody", "tr", "th", "td", "img"}


class PageProblem(Exception):
    """An operation answered a problem: the page shows it with the same status."""

    def __init__(self, status: int, detail: str, errors: list[dict[str, Any]] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.errors = errors or []  # the problem's field errors ({field, rule, message}), for pages that show them


ADDRESS_WORDS = {
    "page": "Pages are numbered from 1 to 1,000.",
    "per_page": "A page shows from 1 to 100 entries.",
    "slug": "There is no page at this address.",
    "board": "There is no such leaderboard: see the list of leaderboards.",
}
"""What a refused part of a page's address means, in words (the API's own wording names patterns)."""

MISSING: dict[str, tuple[str, str, tuple[str, str]]] = {
    "listings": ("Listing not found", "No listing is public at this address: it may have been renamed or taken down, "
                 "or not have launched yet. Search for it by name:", ("/search", "Browse all listings")),
    "categories": ("Category not found", "No category has this address.", ("/categories", "All categories")),
    "founders": ("Founder not found", "No founder profile has this address.", ("/founders", "All founders")),
    "blog": ("Post not found", "No published post has this address.", ("/blog", "All posts")),
    "leaderboards": ("Leaderboard not found", "No leaderboard has this address.", ("/leaderboards", "All leaderboards")),
    "launches": ("Launch week not found", "No launch week starts then.", ("/launches/this", "This week's launches")),
}
"""A page of one thing whose address finds none (`/categories/<slug>`, ...): its 404's title, words and the page listing
its kind."""

_CHOICES = re.compile(r"'([^']*)'")


def address_sentence(error: dict[str, Any], known: dict[str, str] = ADDRESS_WORDS) -> str:
    """One refused part of an address in words: `known` by field, else by its rule, never a pattern or a type.

    A week's pattern says which words it takes (a launch week has `next`, a
    leaderboard's does not); a choice lists what the address may say there; a
    pattern the forms know (two letters, a slug) is said as they say it.
    """
    field, rule, message = str(error.get("field") or ""), str(error.get("rule") or ""), str(error.get("message") or "")
    if field in known:
        return known[field]
    if field == "week":
        words = [w for w in ("this", "next", "last") if w in message]
        return f"A week is {', '.join(words[:-1])} or {words[-1]}, or a date like 2026-11-30." if words \
            else "A week is a date like 2026-11-30."
    if rule == "enum":
        choices = _CHOICES.findall(message)
        return f"The {field} is one of {', '.join(choices[:-1])} or {choices[-1]}." if len(choices) > 1 \
            else f"This {field} is not one the site has."
    pattern = message.split("pattern ", 1)[1].strip("'") if "pattern " in message else ""
    if pattern in PATTERNS:
        return f"The {field}: {PATTERNS[pattern][0].lower()}{PATTERNS[pattern][1:]}"
    return f"The {field} in this address is not one the site takes."


def page_problem_words(exc: PageProblem) -> str:
    """A GET page's 400 in words: the parts of the address that were refused, else the problem's detail."""
    said = [address_sentence(e) for e in exc.errors]
    return " ".join(dict.fromkeys(said)) or exc.detail


def render_markdown(text: str, under_title: bool = False) -> Markup:
    """Markdown to HTML, then sanitised: only plain formatting tags and http(s)/mailto links survive.

    `under_title`: the text sits under the page's own `<h1>` (a blog post's title), so the page keeps one:
    a level-1 heading the text opens with (the title written again) is left out, and the other headings
    move together so that the highest of them is an `<h2>` (the outline skips no level).
    """
    tokens = MARKDOWN.parse(text or "")
    if under_title:
        if len(tokens) >= 3 and tokens[0].type == "heading_open" and tokens[0].tag == "h1":
            tokens = tokens[3:]  # heading_open, its inline text, heading_close
        headings = [t for t in tokens if t.type in ("heading_open", "heading_close")]
        shift = 2 - min((int(t.tag[1]) for t in headings), default=2)
        for token in headings:
            token.tag = f"h{min(int(token.tag[1]) + shift, 6)}"
    html = MARKDOWN.renderer.render(tokens, MARKDOWN.options, {})
    clean = nh3.clean(html, tags=ALLOWED_TAGS, url_schemes={"http", "https", "mailto"},
                      attributes={"a": {"href", "title"}, "img": {"src", "alt", "title"}}, link_rel="nofollow noopener")
    return Markup(clean)  # noqa: S704 - sanitised by nh3 just above


def trend_svg(points: list[dict[str, Any]], label: str = "Domain Rating") -> Markup:
    """A small inline SVG line of `points` ({measured_on, value}, oldest first); empty under two points."""
    if len(points) < 2:
        return Markup("")
    values = [int(p["value"]) for p in points]
    w, h, pad = 160.0, 40.0, 3.0
    lo, hi = min(values), max(values)
    span = max(hi - lo, 1)
    step = (w - 2 * pad) / (len(values) - 1)
    coords = [(pad + i * step, h - pad - (v - lo) * (h - 2 * pad) / span) for i, v in enumerate(values)]
    path = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
    last_x, last_y = coords[-1]
    title = f"{label} from {values[0]} ({points[0]['measured_on']}) to {values[-1]} ({points[-1]['measured_on']})"
    return Markup(
        f'<svg class="trend" viewBox="0 0 {w:.0f} {h:.0f}" role="img" aria-label="{Markup.escape(title)}">'
        f'<title>{Markup.escape(title)}</title>'
        f'<polyline fill="none" stroke="currentColor" stroke-width="2" points="{path}"/>'
        f'<circle cx="{last_x:.1f}" cy="{last_y:.1f}" r="3" fill="currentColor"/></svg>'
    )


def page_name(url: str) -> str:
    """A page address as people read it: host and path, no scheme, no `www.`, no trailing slash (`acme.com/pricing`)."""
    parts = urlsplit(url or "")
    host = parts.netloc.removeprefix("www.")
    path = parts.path.rstrip("/")
    return (host + path) if host else (url or "")


def paragraphs(text: str | None) -> list[str]:
    """A long text's paragraphs: each line that is not blank (a profile's description keeps the site's paragraphs)."""
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


def money(cents: int | None, currency: str = "USD") -> str:
    if cents is None:
        return ""
    symbol = "$" if currency.upper() == "USD" else currency.upper() + " "
    return f"{symbol}{cents / 100:,.0f}" if cents % 100 == 0 else f"{symbol}{cents / 100:,.2f}"


def json_ld(data: dict[str, Any]) -> Markup:
    """JSON-LD for a <script> element: `<`, `>` and `&` escaped so no text can close the element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)  # noqa: S704 - escaped above


# What Trending is ranked by, in the words of its score (queries/launches.py, TRENDING_SQL): each standing vote of the
# window counts, and weighs half as much for every half-life since it was cast.
TRENDING_WORDS = (f"Ranked by recent votes: each vote of the last {launches_q.TRENDING_WINDOW_DAYS} days counts, and "
                  f"weighs half as much every {launches_q.HALF_LIFE_HOURS} hours, so the newest weigh most.")


def weighted_votes(score: float | None) -> str:
    """A trending score as its figure of weighted votes ("50.5 weighted votes"), the order Trending ranks by."""
    return f"{score or 0:.1f} weighted votes"


class PublicSite(WebPages):
    """Base of the public page modules: `op` reads an operation, `show` renders a page with the site's facts."""

    def __init__(self, identity: Identity, executor: Executor, limiter: LocalRateLimiter | None) -> None:
        super().__init__(identity)
        self.ex = executor
        self.limiter = limiter
        self.base = identity.base_url.rstrip("/")
        env = self.templates.env
        env.filters.update(markdown=render_markdown, trend=trend_svg, money=money, ld=json_ld, page_name=page_name,
                           paragraphs=paragraphs, field_label=field_label, attribute_label=attribute_label,
                           value_label=value_label)
        env.globals.update(pricing_models=PRICING_MODELS, stages=STAGES)  # the search filters' menus
        env.filters["weighted_votes"] = weighted_votes
        env.globals["trending_words"] = TRENDING_WORDS

    # ------------------------------------------------------------ reading

    async def op(self, request: Request, operation_id: str, raw: dict[str, Any]) -> dict[str, Any]:
        """The operation's document, as the API would answer it; PageProblem for a problem."""
        operation = self.ex.registry.get(operation_id)
        assert operation is not None, operation_id
        clean = {k: v for k, v in raw.items() if v not in (None, "")}
        outcome = await self.ex.execute(operation, clean, channel="web", ip=self._ip(request))
        if outcome.is_problem:
            body = outcome.payload
            raise PageProblem(outcome.status, str(body.get("detail") or body.get("title") or "error"),
                              [e for e in body.get("errors") or [] if isinstance(e, dict)])
        payload: dict[str, Any] = outcome.payload
        return payload

    def page(self, handler: Handler) -> Handler:
        """A GET page: the text rule on the query, the page limiter, then problems shown as HTML pages."""
        async def endpoint(request: Request) -> Response:
            if errors := text_problems(request.query_params):
                return await self.error(request, 400, "This cannot be shown", " ".join(errors.values()))
            slug = request.path_params.get("slug")
            if isinstance(slug, str) and slug != slug.lower():  # a slug typed or linked in capitals: its page
                lower = request.url.path.replace(slug, slug.lower())
                return RedirectResponse(lower + (f"?{request.url.query}" if request.url.query else ""), 301)
            if self.limiter is not None:
                try:
                    self.limiter.hit(None, self._ip(request))
                except OverLimit as exc:
                    response = await self.error(request, 429, "Too many requests", exc.detail)
                    response.headers["retry-after"] = str(exc.retry_after)
                    return response
            try:
                return await handler(request)
            except PageProblem as exc:
                if exc.status == 404:
                    return await self.not_found(request)
                title = "This cannot be shown" if exc.status == 400 else "Something went wrong"
                return await self.error(request, exc.status, title, page_problem_words(exc))

        endpoint.__name__ = handler.__name__
        return endpoint

    # ------------------------------------------------------------ rendering

    async def show(self, request: Request, template: str, ctx: dict[str, Any], status: int = 200) -> Response:
        pager = ctx.get("pager")
        if pager and pager.get("past_end") and status == 200:  # an empty page after the last: not a page of its own
            return await self.error(request, 404, "No such page", f"This list ends at page {pager['pages']}: "
                                    f"there is nothing on page {pager['page']}.")
        site = await self.site(request)
        names = await self.category_names(request)
        return await run_in_threadpool(self._show, request, template, {"site": site, "category_names": names, **ctx},
                                       status)

    async def category_names(self, request: Request) -> dict[str, str]:
        """Category slug -> name (some cards name their category by slug only), from list_categories' cached tree."""
        tree = await self.op(request, "list_categories", {})
        names: dict[str, str] = {}
        stack = list(tree["items"])
        while stack:
            node = stack.pop()
            names[str(node["slug"])] = str(node["name"])
            stack.extend(node.get("subcategories") or [])
        return names

    async def site(self, request: Request) -> dict[str, Any]:
        return await self.op(request, "get_site_info", {})

    def _show(self, request: Request, template: str, ctx: dict[str, Any], status: int) -> Response:
        session = self.id.sessions.lookup(request.cookies.get(self.session_cookie))
        account = accounts_q.account(self.s.reads, session.account_id) if session else None
        ids = [int(i) for i in ctx.get("listing_ids", []) if i]
        mine = community_q.my_marks(self.s.reads, account["account_id"], ids) if account and ids else {}
        path = request.url.path
        canonical = ctx.get("canonical") or self.base + path + canonical_query(request)
        context = {"canonical": canonical, "voted": mine.get("voted", set()), "following": mine.get("following", set()),
                   "here": path + (("?" + request.url.query) if request.url.query else ""), **ctx}
        response = self._render(request, template, context, session, status)
        response.headers["referrer-policy"] = "strict-origin-when-cross-origin"
        return response

    async def not_found(self, request: Request) -> Response:
        """The HTML 404 page, with a search box and the main sections; the address of one missing thing (a listing,
        a category, a week, ...) is told in that thing's words, with a link to where its kind is listed."""
        path = request.url.path
        q = request.query_params.get("q", "") if path == "/search" else ""
        parts = path.strip("/").split("/")
        missing = MISSING.get(parts[0]) if len(parts) == 2 and parts[1] else None
        if missing is None:
            return await self.error(request, 404, "Page not found", "There is no page at this address.", q=q)
        title, text, back = missing
        if parts[0] == "listings":
            q = parts[1].replace("-", " ")  # the address's words, ready to search for
        elif parts[0] == "launches" and (first := await run_in_threadpool(launches_q.first_week, self.s.reads)):
            text = (f"No launch week has this address: the calendar runs from {week_name(first, 'long')} to a year from "
                    "this week.")
            back = (f"/launches/{first.isoformat()}", "The first launch week")
        return await self.error(request, 404, title, text, q=q, back=back)

    async def error(self, request: Request, status: int, title: str, text: str, q: str = "",
                    back: tuple[str, str] | None = None) -> Response:
        ctx = {"title": title, "text": text, "status": status, "q": q, "robots": "noindex", "elsewhere": back}
        try:
            return await self.show(request, "public/error.html", ctx, status)
        except PageProblem:  # the site facts themselves failed: a page without them
            return await run_in_threadpool(self._show, request, "public/error.html", {"site": {}, **ctx}, status)

    # ------------------------------------------------------------ small helpers

    @staticmethod
    def pager(request: Request, info: dict[str, Any]) -> dict[str, Any]:
        """Previous and next page links keeping the other query parameters."""
        page, per_page, total = int(info.get("page", 1)), int(info.get("per_page", 20)), int(info.get("total", 0))
        params = dict(request.query_params)

        def at(n: int) -> str:
            return request.url.path + "?" + urlencode({**params, "page": str(n)})

        pages = max(1, math.ceil(total / per_page)) if per_page else 1
        return {"page": page, "pages": pages, "total": total, "past_end": page > 1 and not info.get("items"),
                "prev": at(page - 1) if page > 1 else None,
                "next": at(page + 1) if info.get("has_more") else None}

    @staticmethod
    def paging(request: Request, per_page: int = 20) -> dict[str, Any]:
        return {"page": request.query_params.get("page") or 1, "per_page": per_page}

    async def with_ids(self, cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Cards with their listing id, so they get vote buttons (every listing card of the API carries `id`; a card
        without one, such as one kept in a page cache from before, is completed by its slug)."""
        if all(c.get("id") for c in cards):
            return cards
        ids = await run_in_threadpool(community_q.ids_by_slug, self.s.reads, [str(c.get("slug")) for c in cards])
        return [{**c, "id": ids[c["slug"]]} if c.get("slug") in ids and not c.get("id") else c for c in cards]

    def item_list(self, name: str, cards: list[dict[str, Any]], page: dict[str, Any] | None = None) -> dict[str, Any]:
        """Schema.org ItemList of listing cards (their public pages, in order), numbered from the first card of
        `page` (a paged answer: page 2 of 20 a page starts at 21, as the ranks shown do)."""
        first = (int(page.get("page") or 1) - 1) * int(page.get("per_page") or 0) + 1 if page else 1
        return {"@context": "https://schema.org", "@type": "ItemList", "name": name,
                "itemListElement": [{"@type": "ListItem", "position": first + i, "name": c.get("name"),
                                     "url": f"{self.base}/listings/{c.get('slug')}"} for i, c in enumerate(cards)]}


# The query parameters that make a different page, kept in its canonical address (docs/website.md, "For machines").
# Filters (a founder's name, a country) narrow a list and point at the whole one; page 1 is the page without `page`.
CANONICAL_PARAMS = ("section", "week", "a", "b", "page")


def canonical_query(request: Request) -> str:
    """`?section=…&page=2` of a page whose content those parameters choose; empty for one they do not."""
    kept = [(name, value) for name in CANONICAL_PARAMS
            if (value := request.query_params.get(name)) and not (name == "page" and value == "1")]
    return "?" + urlencode(kept) if kept else ""
