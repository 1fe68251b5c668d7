"""The staff's orders, tasks and prices pages: `/staff/orders` (read only) and `/staff/prices` (set a price).

`/staff/orders` lists the newest orders with their status and totals, and the
open tasks (lines the site team fulfils by hand), as `launchdir staff orders`
and `launchdir staff tasks` print them. Products are named as the catalogue
names them, each listing links to its staff history, and an order's number
links to its lines, shown under the list on the same page (what each line is
for, its price and how far its fulfilment is): there is no staff page of one
order. `/staff/prices` shows the catalogue's
products and sets a price with the same command as `launchdir staff set-price`
(`commands.catalog.set_price`), recorded as `staff:<email>`. Prices are typed
in dollars: ASCII digits with an optional .cents, at least the lowest price
(`aggregates.catalog.MIN_PRICE_CENTS`); anything else is a 400 with one plain
sentence. Setting the price a product already has records nothing and says so.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.identity import Identity
from api.sessions import WebSession
from api.web_founder_pages import FounderPages, nested_problems
from commands.catalog import SetProductPrice, price_from_dollars, set_price
from events.errors import Conflict, InvalidInput, NotFound
from queries import catalog as catalog_q
from queries import orders as orders_q
from queries.listings import named_by_id

VIEWS = ["catalog_view"]


class StaffOrderPages(FounderPages):
    """/staff/orders and /staff/prices, for staff accounts only."""

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/staff/orders", self._page(self.orders), methods=["GET"]),
            Route("/staff/prices", self._page(self.prices), methods=["GET"]),
            Route("/staff/prices", self._page(self.set_price, form=True), methods=["POST"]),
            Route("/staff/history", self._page(self.history), methods=["GET"]),
        ]

    def history(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        """The navigation's "history of a listing" form: to `/staff/listings/{slug}/history`."""
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        slug = (request.query_params.get("listing") or "").strip().lower()
        if not slug or len(slug) > 220 or not all(c.isascii() and (c.isalnum() or c == "-") for c in slug):
            return self._message(request, session, "Which listing?", "Give a listing's slug, e.g. acme-analytics.",
                                 400, [("/staff", "Staff")])
        return self._redirect(f"/staff/listings/{slug}/history")

    def orders(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        orders, tasks = orders_q.recent(self.s.reads, limit=100), orders_q.open_tasks(self.s.reads)
        ids = {int(line["listing_id"]) for o in orders for line in o["lines"] if line.get("listing_id") is not None}
        ids |= {int(t["listing_id"]) for t in tasks if t.get("listing_id") is not None}
        listings = named_by_id(self.s.reads, sorted(ids)) if ids else {}
        ctx = {"orders": orders, "tasks": tasks, "listings": listings, "staff_here": "orders",
               "names": {i: x["name"] for i, x in listings.items()}}
        return self._render(request, "staff/orders.html", ctx, session)

    def prices(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        return self._prices(request, session)

    def set_price(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        assert session is not None
        values = self._form(data, "code", "price")
        try:
            price = price_from_dollars(values["price"])  # ASCII digits and an optional .cents, within the rule
            command = SetProductPrice.model_validate({"code": values["code"], "price_cents": price})
            done = set_price(self.s.store, command, self._staff_meta(session))
        except (ValidationError, InvalidInput) as exc:
            errors = nested_problems(exc, lambda f: "price" if f == "price_cents" else f)
            return self._prices(request, session, values, errors, 400)
        except (NotFound, Conflict) as exc:
            return self._prices(request, session, values, {"code": exc.detail}, 409)
        if not done.events:
            return self._redirect(f"/staff/prices?done=unchanged&code={command.code}")
        self._wait(done.position, VIEWS)
        return self._redirect("/staff/prices?done=set")

    def _prices(self, request: Request, session: WebSession | None, values: dict[str, str] | None = None,
                errors: dict[str, str] | None = None, status: int = 200) -> Response:
        products: list[dict[str, Any]] = catalog_q.list_products(self.s.reads, self.s.today())["items"]
        done, code = request.query_params.get("done"), request.query_params.get("code", "")
        notice = "The price is set; new quotes and checkouts use it." if done == "set" else None
        if done == "unchanged" and any(p["code"] == code for p in products):
            notice = f"Nothing changed: {code} already had that price, so nothing was recorded."
        ctx = {"products": products, "values": values or {}, "errors": errors or {}, "notice": notice,
               "staff_here": "prices", "error_labels": {"code": "Product", "price": "New price"}}
        return self._render(request, "staff/prices.html", ctx, session, status)


def staff_order_routes(identity: Identity) -> list[BaseRoute]:
    return StaffOrderPages(identity).routes()
