"""Buying from the browser: the order form of a listing, the quote with VAT, then the checkout page; `/my/orders`.

- `/my/listings/{id}/order`: the catalogue's products (list_products: price,
  the weeks each offers, options), with the fields a line needs: a week,
  extra categories, the billboard amount, options; the billing country and a
  VAT number for the VAT preview. "See the quote" runs quote_order's handler
  (nothing is stored); "Go to checkout" runs create_checkout's and sends the
  person to the existing checkout page `/checkout/{token}` to pay.
- `/my/orders` and `/my/orders/{number}`: status, totals with VAT, each line's
  fulfilment (or the site team's task), the checkout link while pending and the
  invoice once paid (list_my_orders, get_order; another person's order is the
  404 page).

The order body is the operations' own model (`OrderBody`'s subclasses), so the
checks are the API's, worded for people (`api/web_errors.py`); `items.2.week`
is shown next to that product's week. Each message is said once, by its field;
the summary above the form names the fields and links to them. A product the
listing cannot take now is a disabled box with the pricing rules' reason, and a
week product lists only the weeks the listing can take (`commands.orders.order_offers`);
the command still checks everything that is sent.
Money is shown in dollars: the billboard amount's messages and what a
billboard line did are said in dollars, where the API's words count cents.
Each line says what it is for as the checkout page does (`checkout/_line.html`).
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from pydantic import ValidationError
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from aggregates.listing import MAX_EXTRA_CATEGORIES
from aggregates.order import RATES_VALID_FROM
from api.identity import Identity
from api.sessions import WebSession
from api.web_checkout_quote import vat_note
from api.web_founder_pages import FounderPages, cents, money, nested_problems
from commands import orders as cmd
from commands.order_inputs import CreateCheckout, QuoteOrder
from events.errors import Conflict, InvalidInput, NotFound
from events.week_names import week_name
from queries import catalog as catalog_q
from queries.catalog import category_names
from queries import orders as q
from queries import updates as updates_q
from queries.paging import Paging

VIEWS = ["orders_view"]
EXTRA = "extra_categories"
MAX_CATEGORY_LINKS = 20  # `?category=` values a link may preselect (a draft holds at most 20 categories)
LAUNCH_WEEKS_SHOWN = 12  # a paid launch may be booked up to a year ahead (the API takes any of them)
FIELD_OF = {"week": "week", "amount_cents": "amount", "categories": "categories"}


class MyOrderPages(FounderPages):
    """The order form with its quote, and the person's orders."""

    def __init__(self, identity: Identity) -> None:
        super().__init__(identity)
        self.templates.env.filters["vat_note"] = vat_note  # the quote's VAT note, said as the checkout page says it

    def routes(self) -> list[BaseRoute]:
        page = self._page
        return [
            Route("/my/listings/{listing_id}/order", page(self.order_page), methods=["GET"]),
            Route("/my/listings/{listing_id}/order", page(self.order, form=True), methods=["POST"]),
            Route("/my/orders", page(self.list_page), methods=["GET"]),
            Route("/my/orders/{number}", page(self.order_detail), methods=["GET"]),
        ]

    # ------------------------------------------------------------ the order form

    def order_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        doc = self._my_listing(session, self._int_param(request, "listing_id"))
        if doc is None:
            return self._missing(request, session, "listing")
        chosen = request.query_params.getlist("product")
        values: dict[str, Any] = {"products": chosen}
        if "extra_categories" in chosen:  # from the draft editor: the categories the listing does not show yet
            values[f"categories-{EXTRA}"] = request.query_params.getlist("category")[:MAX_CATEGORY_LINKS]
        return self._form_page(request, session, doc, values)

    def order(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        doc = self._my_listing(session, self._int_param(request, "listing_id"))
        if doc is None:
            return self._missing(request, session, "listing")
        products = self._products()
        chosen = [str(p) for p in data.getlist("product")]
        values: dict[str, Any] = {k: str(v).strip() for k, v in data.items() if k != "product"}
        values["products"] = chosen
        for key in [k for k in values if k.startswith("categories-")]:  # ticked boxes: every value, in order
            values[key] = [str(v).strip() for v in data.getlist(key) if str(v).strip()]
        codes = [p["code"] for p in products if p["code"] in chosen] + [c for c in chosen if c not in
                                                                         {p["code"] for p in products}]
        items = [self._item(code, doc["listing_id"], values, products) for code in codes]
        body = {"items": items, "billing_country": values.get("billing_country") or None,
                "vat_number": values.get("vat_number") or None}
        checkout = data.get("action") == "checkout"
        try:
            if checkout:
                placed = cmd.create_checkout(self.s.store, CreateCheckout.model_validate(body), session.account_id,
                                             self._meta(session), self.s.today(), self.s.orders,
                                             self.s.site_taken)
            else:
                quote = cmd.quote_order(self.s.store, QuoteOrder.model_validate(body), session.account_id,
                                        self.s.today(), self.s.orders, self.s.site_taken)
        except (ValidationError, InvalidInput) as exc:
            errors = self._problems(exc, body, session, codes, products)
            return self._form_page(request, session, doc, values, errors, 400)
        except NotFound:
            return self._missing(request, session, "listing")
        except Conflict as exc:
            return self._form_page(request, session, doc, values, {"form": exc.detail}, 409)
        if checkout:
            self._wait(placed.position, VIEWS)
            return self._redirect(f"/checkout/{placed.token}")
        shown = q.quote_doc(quote.lines, quote.subtotal_cents, quote.vat.as_dict(), quote.vat_cents,
                            quote.total_cents, RATES_VALID_FROM)
        return self._form_page(request, session, doc, values, quote=shown)

    def _problems(self, exc: ValidationError | InvalidInput, body: dict[str, Any], session: WebSession,
                  codes: list[str], products: list[dict[str, Any]]) -> dict[str, str]:
        """Form field -> message for every mistake at once: the schema's and, with them, the pricing rules' problems
        with what the schema accepted (as the API answers them in one 400)."""
        found: list[ValidationError | InvalidInput] = [exc]
        if isinstance(exc, ValidationError):
            schema = {".".join(str(x) for x in err.get("loc") or ()) for err in exc.errors(include_url=False)}
            more = cmd.input_problems(self.s.store, body, session.account_id, self.s.today(), self.s.orders, schema)
            if more:
                found.append(InvalidInput("", more))
        errors: dict[str, str] = {}
        for each in found:
            shown = nested_problems(each, lambda path: _form_field(path, codes)) | _in_dollars(each, codes, products)
            errors = shown | errors  # the first message of a field stays
        return dict(sorted(errors.items(), key=lambda kv: _form_order(kv[0], products)))

    @staticmethod
    def _item(code: str, listing_id: int, values: dict[str, Any], products: list[dict[str, Any]]) -> dict[str, Any]:
        """One order line from the form: only the fields this product's form shows, as the API takes them."""
        product = next((p for p in products if p["code"] == code), None)
        item: dict[str, Any] = {"product": code}
        if product is None or product.get("needs_listing", True):  # a product not bought for a listing takes none
            item["listing_id"] = listing_id
        if values.get(f"week-{code}"):
            item["week"] = values[f"week-{code}"]
        if values.get(f"amount-{code}"):
            item["amount_cents"] = cents(values[f"amount-{code}"])
        if values.get(f"categories-{code}"):
            given = values[f"categories-{code}"]
            item["categories"] = given if isinstance(given, list) else [c.strip() for c in given.split(",") if c.strip()]
        if product and product.get("options"):
            item["options"] = {k: values[f"option-{code}-{k}"] for k in product["options"]
                               if values.get(f"option-{code}-{k}")}
        return item

    def _form_page(self, request: Request, session: WebSession, doc: dict[str, Any], values: dict[str, Any],
                   errors: dict[str, str] | None = None, status: int = 200,
                   quote: dict[str, Any] | None = None) -> Response:
        monday = self.s.today() - timedelta(days=self.s.today().weekday())
        launch_weeks = [(monday + timedelta(weeks=k)).isoformat() for k in range(1, LAUNCH_WEEKS_SHOWN + 1)]
        products = self._products()
        offers = cmd.order_offers(self.s.store, int(doc["listing_id"]), session.account_id, self.s.today(),
                                  self.s.orders)
        shown = _once(errors or {}, offers.unavailable, products)
        primary = (doc.get("categories") or {}).get("primary") or {}
        categories = [(slug, name) for slug, name in category_names(self.s.reads).items() if slug != primary.get("slug")]
        ctx = {"l": doc, "products": products, "values": values, "errors": shown, "quote": quote,
               "category_labels": dict(categories) | ({primary["slug"]: primary.get("name")} if primary else {}),
               "unavailable": offers.unavailable, "open_weeks": offers.weeks, "awards": offers.awards,
               "upgrade": offers.upgrade, "categories": categories, "max_extra": MAX_EXTRA_CATEGORIES,
               "launch_weeks": launch_weeks, "nav_here": "listings", "tab": "Buy", "error_labels": _labels(products)}
        return self._render(request, "founder/my/order_form.html", ctx, session, status)

    def _products(self) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = catalog_q.list_products(self.s.reads, self.s.today())["items"]
        return items

    # ------------------------------------------------------------ orders

    def list_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        found = q.list_my_orders(self.s.reads, session.account_id, Paging(page=1, per_page=100), self.s.links,
                                 self.s.clock())
        return self._render(request, "founder/my/orders.html", {"found": found, "nav_here": "orders"}, session)

    def order_detail(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        number = str(request.path_params["number"])
        try:
            if len(number) > 32:
                raise NotFound("no such order")
            order = q.get_order(self.s.reads, session.account_id, number, self.s.links, self.s.clock())
        except NotFound:
            return self._missing(request, session, "order")
        names = updates_q.listing_names(self.s.reads, {int(x["listing_id"]) for x in order["lines"] if x.get("listing_id")})
        categories = category_names(self.s.reads)
        details = {line["index"]: _detail(line, categories) for line in order["lines"]}
        return self._render(request, "founder/my/order.html",
                            {"o": order, "names": names, "details": details, "nav_here": "orders",
                             "category_names": categories}, session)


_WEEK_OF = re.compile(r"\bweek of (\d{4}-\d{2}-\d{2})\b")
_CATEGORIES_ADDED = "categories added: "


def _detail(line: dict[str, Any], categories: dict[str, str] | None = None) -> str | None:
    """What fulfilment did, for people: a billboard line's amount in dollars (the stored words count cents), weeks by
    their names ("the week of 14–20 Dec 2026", stored as its Monday) and added categories by their names."""
    amount = (line.get("result") or {}).get("amount_cents")
    if line["product"] == "billboard_min" and line.get("fulfilled") and isinstance(amount, int):
        return f"{money(amount)} added to the billboard (shown as paid)"
    detail: str | None = line.get("detail")
    if not detail:
        return detail
    if detail.startswith(_CATEGORIES_ADDED) and line.get("categories"):
        return _CATEGORIES_ADDED + ", ".join((categories or {}).get(c, c) for c in line["categories"])
    return _WEEK_OF.sub(lambda found: "week of " + week_name(found.group(1)), detail)


def _in_dollars(exc: ValidationError | InvalidInput, codes: list[str], products: list[dict[str, Any]]) -> dict[str, str]:
    """The billboard amount's messages in dollars, as the form asks for it (the API's words count cents)."""
    found: list[tuple[str, str, dict[str, Any]]]  # where, rule, the rule's figures
    if isinstance(exc, InvalidInput):
        found = [(p.field, p.rule, {}) for p in exc.problems]
    else:
        found = [(".".join(str(x) for x in err.get("loc") or ()), err["type"], dict(err.get("ctx") or {}))
                 for err in exc.errors(include_url=False)]
    prices = {str(p["code"]): int(p["price_cents"]) for p in products}
    out: dict[str, str] = {}
    for path, rule, ctx in found:
        field = _form_field(path, codes)
        if not path.endswith(".amount_cents") or rule == "not_allowed":
            continue
        if rule in ("minimum", "greater_than_equal"):
            out[field] = f"The billboard minimum is {money(prices.get(field.removeprefix('amount-'), 0))}."
        elif rule == "less_than_equal":
            out[field] = f"At most {money(int(ctx['le']))}."
        else:
            out[field] = "Enter an amount in dollars, e.g. 25 or 25.50."
    return out


def _once(errors: dict[str, str], unavailable: dict[str, str], products: list[dict[str, Any]]) -> dict[str, str]:
    """Each refusal once, where it belongs: a product the listing cannot take now shows none of its own fields, so
    every message about it becomes one on its box, worded as the box says it up front ("Not for this listing now")."""
    codes = [str(p["code"]) for p in products]
    out: dict[str, str] = {}
    for field, message in errors.items():
        code = _product_of(field, codes)
        if code is not None and code in unavailable:
            out[f"product-{code}"] = _sentence(unavailable[code])
        else:
            out[field] = message
    return dict(sorted(out.items(), key=lambda kv: _form_order(kv[0], products)))


def _sentence(reason: str) -> str:
    return reason[:1].upper() + reason[1:] + ("" if reason.endswith(".") else ".")


def _product_of(field: str, codes: list[str]) -> str | None:
    """The product a form field belongs to (`week-relaunch` -> relaunch), longest code first; None for the rest."""
    for code in sorted(codes, key=len, reverse=True):
        if field.endswith(f"-{code}") or f"-{code}-" in field:
            return code
    return None


def _form_order(field: str, products: list[dict[str, Any]]) -> int:
    """Where a field stands on the form, so the error summary reads in the form's order."""
    if field in ("form", "products"):
        return 0
    if field in ("billing_country", "vat_number"):
        return 1000 + (field == "vat_number")
    codes = [str(p["code"]) for p in products]
    for i, code in enumerate(codes):
        if field.endswith(f"-{code}") or f"-{code}-" in field:
            return 1 + i
    return 999


def _labels(products: list[dict[str, Any]]) -> dict[str, str]:
    """The order form's fields as it labels them, for the error summary."""
    labels = {"products": "What to buy", "billing_country": "Billing country", "vat_number": "EU VAT number"}
    for p in products:
        code, name = str(p["code"]), str(p["name"])
        labels |= {f"product-{code}": name, f"week-{code}": f"Week for {name}", f"categories-{code}": "Extra categories",
                   f"amount-{code}": "Amount in dollars"}
        labels |= {f"option-{code}-{key}": f"{str(key).capitalize()} for {name}" for key in p.get("options") or {}}
    return labels


def _form_field(path: str, codes: list[str]) -> str:
    """`items.2.week` -> `week-<code of item 2>`; `items.2` -> that product's box; the rest as they are."""
    parts = path.split(".")
    if parts[0] != "items":
        return path
    if len(parts) == 1 or not (parts[1].isascii() and parts[1].isdigit()) or int(parts[1]) >= len(codes):
        return "products"
    code = codes[int(parts[1])]
    if len(parts) == 2 or parts[2] in ("product", "listing_id"):
        return f"product-{code}"
    if parts[2] == "options" and len(parts) > 3:
        return f"option-{code}-{parts[3]}"
    return f"{FIELD_OF.get(parts[2], parts[2])}-{code}"


def my_order_routes(identity: Identity) -> list[BaseRoute]:
    return MyOrderPages(identity).routes()
