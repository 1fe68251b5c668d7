"""/about/votes: how votes are kept honest, published for everyone (the method, never the data).

What each vote records and how it is protected, the rules the staff report
applies (read from `queries/vote_patterns.py`, so the page cannot drift from
the report), what makes staff void a vote, and how to appeal. Linked from the
footer of every page.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.web_public import PublicSite
from queries import vote_patterns


class VoteMethodPage(PublicSite):
    def routes(self) -> list[BaseRoute]:
        return [Route("/about/votes", self.page(self.method), methods=["GET"])]

    async def method(self, request: Request) -> Response:
        return await self.show(request, "public/about_votes.html", {
            "rules": vote_patterns.rules(),
            "description": "What each vote records, how it is protected, what gets a vote voided, and how to appeal.",
        })
