"""The order operations (SPEC §4.7): quote_order, create_checkout, list_my_orders, get_order.

quote_order stores nothing and takes no Idempotency-Key; create_checkout
answers once `orders_view` shows the new order (read-your-writes), with the
`checkout_url` the client gives to the person, who pays on our page.
"""

from __future__ import annotations

from typing import Any

from aggregates.order import RATES_VALID_FROM
from api.ops.caller import EXISTS, account_of, naming, owns, wait_for
from api.registry import Operation
from api.services import Call, Services
from commands import orders as cmd
from commands.order_inputs import CreateCheckout, QuoteOrder
from events.errors import FieldProblem
from projections.runtime import BEHIND_RETRY, ReadModelBehind
from queries import orders as q
from queries.paging import Paging

VIEWS = ("orders_view",)
TAG = "orders"


def _quote(s: Services, i: QuoteOrder, c: Call) -> dict[str, Any]:
    quote = cmd.quote_order(s.store, i, account_of(c), c.at.astimezone(s.timezone).date(), s.orders,
                            s.site_taken)
    return q.quote_doc(quote.lines, quote.subtotal_cents, quote.vat.as_dict(), quote.vat_cents, quote.total_cents,
                       RATES_VALID_FROM)


def _checkout(s: Services, i: CreateCheckout, c: Call) -> dict[str, Any]:
    placed = cmd.create_checkout(s.store, i, account_of(c), c.meta(), c.at.astimezone(s.timezone).date(), s.orders,
                                 s.site_taken)
    wait_for(s, placed.position, VIEWS)
    doc = q.get_order(s.reads, account_of(c), placed.number, s.links, c.at)
    if doc["checkout_url"] is None:
        raise ReadModelBehind("saved, but the read model of orders does not show it yet; retry later", BEHIND_RETRY)
    return doc


def _more(s: Services, raw: dict[str, Any], c: Call, schema: list[FieldProblem]) -> list[FieldProblem]:
    """The pricing rules' problems with what the schema accepted: one 400 for every mistake of the body."""
    return cmd.input_problems(s.store, raw, account_of(c), c.at.astimezone(s.timezone).date(), s.orders,
                              {p.field for p in schema})


def _foreign_lines(s: Services, i: QuoteOrder, c: Call) -> list[FieldProblem]:
    """The lines whose `listing_id` is not one of the caller's: what an order's 404 is about."""
    return [FieldProblem(f"items.{n}.listing_id", EXISTS, f"listing {item.listing_id} is not one of yours "
                                                          "(see list_my_listings)")
            for n, item in enumerate(i.items) if item.listing_id is not None and not owns(s, c, item.listing_id)]


def _list(s: Services, i: q.ListMyOrders, c: Call) -> dict[str, Any]:
    return q.list_my_orders(s.reads, account_of(c), Paging(page=i.page, per_page=i.per_page), s.links, c.at)


def _get(s: Services, i: q.GetOrder, c: Call) -> dict[str, Any]:
    return q.get_order(s.reads, account_of(c), i.number, s.links, c.at)


def operations() -> list[Operation]:
    """The order rows of the operation table."""
    return [
        Operation("quote_order", "POST", "/orders/quote", QuoteOrder, q.Quote, naming(_foreign_lines, _quote),
                  scope="orders:write", tag=TAG, may_not_find=True, saves_nothing=True, more_problems=_more,
                  next_steps="Next: create_checkout with the same body to get the checkout link."),
        Operation("create_checkout", "POST", "/orders/checkout", CreateCheckout, q.Checkout,
                  naming(_foreign_lines, _checkout), scope="orders:write", idempotency_key=True, success_status=201,
                  tag=TAG, may_not_find=True, more_problems=_more),
        Operation("list_my_orders", "GET", "/orders", q.ListMyOrders, q.OrderPage, _list, scope="account:read",
                  tag=TAG),
        Operation("get_order", "GET", "/orders/{number}", q.GetOrder, q.Order, naming("number", _get),
                  scope="account:read", tag=TAG,
                  next_steps="While `pending`, `checkout_url` is where the person pays (until `expires_at`)."),
    ]
