"""/about, /pricing, /privacy and /terms: what the site is, what it sells, what it keeps and its rules.

The site document has always pointed at these two addresses (the catalogue's
`site.urls`); without them a reader following the links met a 404. /pricing
lists list_products as the catalogue prices them (staff's `set-price`
changes the page as it changes the API), next to the free plan's terms from get_site_info
(`free_queue_weeks`); /about says what the directory is, how a launch week
runs and where people, agents and founders go next. Nothing here is written
by hand that an operation already answers.

/privacy and /terms are the site's own words about this service as it is
built (docs/identity.md, docs/voting.md, docs/orders.md, docs/submission.md):
what it keeps and for how long, what closing an account removes and what the
append-only event log keeps, and the rules of accounts, votes, reviews,
listings and orders. The figures that code decides (how long a session lasts,
when failed sign-ins lock) are read from that code, so the page cannot drift
from it; the site's name and contact address come from its settings.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.sessions import ABSOLUTE, IDLE, SigninThrottle
from api.web_public import PublicSite
from queries import notices as notices_q

KEPT = {
    "session_days": ABSOLUTE.days, "idle_days": IDLE.days,
    "lock_minutes": int(SigninThrottle.LOCK.total_seconds() // 60),
    "window_minutes": int(SigninThrottle.WINDOW.total_seconds() // 60),
    "address_failures": SigninThrottle.LIMITS["email"], "ip_failures": SigninThrottle.LIMITS["ip"],
}
"""The privacy page's figures, from the code that decides them (`api/sessions.py`)."""


class AboutPages(PublicSite):
    def routes(self) -> list[BaseRoute]:
        return [
            Route("/about", self.page(self.about), methods=["GET"]),
            Route("/pricing", self.page(self.pricing), methods=["GET"]),
            Route("/privacy", self.page(self.privacy), methods=["GET"]),
            Route("/terms", self.page(self.terms), methods=["GET"]),
        ]

    async def about(self, request: Request) -> Response:
        return await self.show(request, "public/about.html", {
            "description": "What this directory is, how launch weeks and votes work, and how to list a product.",
        })

    async def pricing(self, request: Request) -> Response:
        products = await self.op(request, "list_products", {})
        contact = await run_in_threadpool(notices_q.contact_address, self.s.reads)  # where to ask about an order
        return await self.show(request, "public/pricing.html", {
            "products": products["items"], "contact": contact,
            "description": "Launch free from the queue with our badge on your homepage, or pay to launch when you choose.",
        })

    async def privacy(self, request: Request) -> Response:
        contact = await run_in_threadpool(notices_q.contact_address, self.s.reads)
        return await self.show(request, "public/privacy.html", {
            "contact": contact, "kept": KEPT | {"crawl_days": self.s.crawl_retention_days},
            "description": "What this site keeps about you, why, for how long, and what closing your account removes.",
        })

    async def terms(self, request: Request) -> Response:
        contact = await run_in_threadpool(notices_q.contact_address, self.s.reads)
        return await self.show(request, "public/terms.html", {
            "contact": contact,
            "description": "The rules for accounts, votes, reviews, listings, orders and the API on this site.",
        })
