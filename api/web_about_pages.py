"""/about and /pricing: the pages get_site_info's `urls` name, read from the same operations as the API.

The site document has always pointed at these two addresses (the catalogue's
`site.urls`); without them a reader following the links met a 404. /pricing
lists list_products as the catalogue prices them (staff's `set-price`
changes the page as it changes the API), next to the free plan's terms from get_site_info
(`free_queue_weeks`); /about says what the directory is, how a launch week
runs and where people, agents and founders go next. Nothing here is written
by hand that an operation already answers.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.web_public import PublicSite
from queries import notices as notices_q


class AboutPages(PublicSite):
    def routes(self) -> list[BaseRoute]:
        return [
            Route("/about", self.page(self.about), methods=["GET"]),
            Route("/pricing", self.page(self.pricing), methods=["GET"]),
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
