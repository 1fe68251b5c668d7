"""Orders: quote, checkout, billing details and payment on the checkout page, fulfilment, expiry, refund.

- `quote_order` prices the body against the catalogue (the admin's current
  prices) and the caller's listings and previews VAT; it stores nothing.
- `create_checkout` does the same and places a pending order whose prices and
  VAT are frozen; its number is short and random, and its checkout token is
  `<number>.<secret>`: the page finds the order by the number and compares the
  secret, so no lookup table can leak tokens.
- The checkout page sets billing details (VAT decided again), starts a
  payment, and the provider's confirmation records `OrderPaid` once.
- `fulfil_line` applies one paid line across streams in one append
  (`aggregates.order.fulfil`); the process manager (`workers/fulfilment.py`)
  calls it for every open line.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Protocol

from pydantic import ValidationError

from aggregates import awards, catalog, listing, order
from aggregates.base import Meta
from aggregates.listing import ListingState
from aggregates.order import OrderState, Quote, VatDecision, line_of
from aggregates.order import awards as won_awards
from aggregates.order.awards import WonAward
from aggregates.order.pricing import TROPHY, is_upgrade, refused
from aggregates.order.review import WrittenReview
from aggregates.weeks import week_of
from commands.listing import SiteTaken, refuse_taken_site
from commands.order_inputs import CreateCheckout, OrderBody, OrderItem
from commands.store import EventStore, Loader
from events.base import Event
from events.errors import FieldProblem, InvalidInput, NotFound
from events.week_names import week_name


class VatRegistry(Protocol):
    """Asks whether a VAT number is registered (VIES); raises `Unavailable` when the registry does not answer."""

    def is_registered(self, vat_number: str) -> bool: ...


@dataclass(frozen=True)
class PaymentSession:
    """Where the person pays (the provider's page) and the provider's reference of that attempt."""

    url: str
    reference: str


@dataclass(frozen=True)
class PaymentStatus:
    """What the provider says of one attempt: paid or not, how much, for which order."""

    paid: bool
    amount_cents: int
    reference: str
    number: str
    event_id: str = ""


class PaymentProvider(Protocol):
    """A payment provider (Stripe, `workers/adapters/stripe_api.py`); without one the checkout runs in test mode."""

    name: str

    def start(self, number: str, amount_cents: int, description: str, success_url: str,
              cancel_url: str) -> PaymentSession: ...

    def retrieve(self, reference: str) -> PaymentStatus: ...

    def webhook(self, payload: bytes, signature: str) -> PaymentStatus | None:
        """A signed provider event: the payment it confirms, or None for events we do not act on.

        Raises `InvalidInput` when the signature does not verify.
        """

    def refund(self, reference: str, amount_cents: int) -> str: ...


class Reviewer(Protocol):
    """Writes the `ai_review` product's review of a listing's profile (the model, or the rules when it fails)."""

    def review(self, state: ListingState) -> WrittenReview: ...


def new_number() -> str:
    """A short order number that says nothing about how many orders there are: 10 random characters, ~50 bits."""
    chars = "".join(secrets.choice(order.NUMBER_ALPHABET) for _ in range(10))
    return f"{chars[:5]}-{chars[5:]}"


@dataclass(frozen=True)
class OrderSettings:
    """What orders need from the deployment: the seller's country, the optional VIES registry, id makers."""

    seller_country: str = "IE"
    vies: VatRegistry | None = None  # None: numbers are checked for format and check digits only
    new_number: Callable[[], str] = new_number
    new_secret: Callable[[], str] = field(default=lambda: secrets.token_urlsafe(24))

    def vat(self, billing_country: str | None, vat_number: str | None) -> VatDecision:
        """The VAT decision, asking VIES first when it is configured and the number is an EU number to check."""
        first = order.decide_vat(self.seller_country, billing_country, vat_number)
        if self.vies is None or not first.vat_number:
            return first
        return order.decide_vat(self.seller_country, billing_country, vat_number,
                                registered=self.vies.is_registered(first.vat_number))


@dataclass(frozen=True)
class Placed:
    number: str
    token: str
    position: int


def checkout_url(website: str, token: str) -> str:
    return f"{website.rstrip('/')}/checkout/{token}"


def _listings(load: Callable[[Any, Any], Any], items: list[dict[str, Any]]) -> dict[int, ListingState]:
    ids = {int(i["listing_id"]) for i in items if i.get("listing_id") is not None}
    return {lid: load(listing.listing_stream(lid), listing) for lid in sorted(ids)}


def listing_awards(load: Callable[[Any, Any], Any], listing_id: int) -> list[WonAward]:
    """The Launch of the Week awards a listing won, oldest first: what a trophy can be made for.

    Read from the event store (the weeks the listing launched in, then those weeks' winners), as pricing reads
    every other fact, so the order form, the quote and the checkout agree.
    """
    launched = load(listing.listing_stream(listing_id), won_awards.LAUNCH_WEEKS)
    return won_awards.won(listing_id, [load(awards.week_stream(week), awards) for week in launched.weeks])


def _awards(load: Callable[[Any, Any], Any], items: list[dict[str, Any]],
            listings: Mapping[int, ListingState]) -> dict[int, list[WonAward]]:
    """The awards of each listing a trophy line names (read only for those)."""
    ids = {int(i["listing_id"]) for i in items if i.get("product") == TROPHY and i.get("listing_id") is not None}
    return {lid: listing_awards(load, lid) for lid in sorted(ids) if lid in listings and listings[lid].exists}


def quote_order(store: EventStore, cmd: OrderBody, account_id: str, today: date, cfg: OrderSettings,
                site_taken: SiteTaken | None = None) -> Quote:
    """Price the order and preview VAT from the current catalogue; nothing is stored. Refuses what create_checkout
    would (a saved listing whose site has a public listing), so a quote never promises an order that cannot be placed."""
    items = cmd.item_dicts()
    vat, vat_problems = _vat(cfg, cmd.billing_country, cmd.vat_number)
    state: catalog.CatalogState = store.load(catalog.CATALOG_ID, catalog)
    listings = _listings(store.load, items)
    for owned in listings.values():
        refuse_taken_site(owned, account_id, site_taken)
    return _priced(items, state, listings, account_id, today, vat, vat_problems, _awards(store.load, items, listings))


def _vat(cfg: OrderSettings, country: str | None, number: str | None) -> tuple[VatDecision, list[FieldProblem]]:
    """The VAT decision, or (when the number is refused) the decision without it and the number's problems,
    so that the same 400 also names what is wrong with the items."""
    try:
        return cfg.vat(country, number), []
    except InvalidInput as exc:
        return cfg.vat(country, None), exc.problems


def _priced(items: list[dict[str, Any]], prices: catalog.CatalogState, listings: dict[int, ListingState],
            account_id: str, today: date, vat: VatDecision, vat_problems: list[FieldProblem],
            won: Mapping[int, list[WonAward]]) -> Quote:
    """The items priced, or one 400 with every problem of the items and of the VAT number."""
    try:
        quote = order.price_items(items, prices, listings, account_id, today, vat, won)
    except InvalidInput as exc:
        raise refused(exc.problems + vat_problems) from None
    if vat_problems:
        raise refused(vat_problems)
    return quote


def input_problems(store: EventStore, raw: Mapping[str, Any], account_id: str, today: date, cfg: OrderSettings,
                   schema_fields: Collection[str]) -> list[FieldProblem]:
    """The pricing rules' problems with the parts of an order body that its schema accepted (`schema_fields` are the
    fields the schema refused), so one 400 names every mistake of the body, not the schema's first and the rules' next.

    An item is checked without the properties the schema refused; an item that is still malformed, a listing that
    is not the caller's (a 404 of its own) and a problem of a field the schema named already are left out.
    """
    raw_items = raw.get("items")
    if not isinstance(raw_items, list) or len(raw_items) > order.MAX_ITEMS:
        return []
    kept: list[dict[str, Any]] = []
    where: list[int] = []
    for i, item in enumerate(raw_items):
        refused_here = {f.split(".")[2] for f in schema_fields if f.startswith(f"items.{i}.") and f.count(".") >= 2}
        try:
            valid = OrderItem.model_validate({k: v for k, v in item.items() if k not in refused_here})
        except (ValidationError, AttributeError):
            continue
        kept.append(valid.model_dump())
        where.append(i)
    country, number = (_well_formed(raw, name, schema_fields) for name in ("billing_country", "vat_number"))
    vat, found = _vat(cfg, country, number)
    prices: catalog.CatalogState = store.load(catalog.CATALOG_ID, catalog)
    listings = _listings(store.load, kept)
    try:
        order.price_items(kept, prices, listings, account_id, today, vat, _awards(store.load, kept, listings))
    except InvalidInput as exc:
        found = [FieldProblem(_renumbered(p.field, where), p.rule, p.message) for p in exc.problems] + found
    except NotFound:
        pass
    return [p for p in found if not any(p.field == f or p.field.startswith(f + ".") for f in schema_fields)]


def _well_formed(raw: Mapping[str, Any], name: str, schema_fields: Collection[str]) -> str | None:
    value = raw.get(name)
    return value if isinstance(value, str) and name not in schema_fields else None


def _renumbered(field: str, where: list[int]) -> str:
    """`items.<j>.x` of the checked items -> `items.<i>.x` of the body."""
    parts = field.split(".")
    if len(parts) > 1 and parts[0] == "items" and parts[1].isdigit() and int(parts[1]) < len(where):
        parts[1] = str(where[int(parts[1])])
    return ".".join(parts)


STATE_RULES = frozenset({"already_launched", "not_in_free_queue", "not_live", "launched_recently",
                         "listing_unpublished", "not_launching", "before_launch", "no_award", "sections_unlocked"})
"""Pricing rules that depend on the listing's state, not on what is typed: the order form says them up front."""

WEEK_RULES = {"not_earlier": "is earlier", "before_launch": "is that week or later",
              "already_featured": "is one it is not featured in yet"}
"""Rules about the week chosen that the listing's state decides: a week they refuse is not offered on the form,
and a product none of whose weeks passes says why in these words."""

WITH_A_LAUNCH = frozenset({"not_launching"})
"""Refusals of a product alone that the same order can lift (featured with a launch): not said up front."""

SAID_UP_FRONT = (STATE_RULES | frozenset(WEEK_RULES)) - WITH_A_LAUNCH
"""The refusals the order form says before anything is chosen (a product disabled, a week left out)."""


@dataclass(frozen=True)
class Offers:
    """What the order form offers one listing as it is now, asked of the pricing rules themselves."""

    unavailable: dict[str, str]  # product code -> why it cannot be bought for the listing now
    weeks: dict[str, list[str]]  # product code -> the offered weeks it can take (products with a week window)
    awards: list[WonAward] = field(default_factory=list)  # what a trophy can be made for
    upgrade: bool = False  # the Launch bundle is an upgrade here (a free listing with its week): no second launch

    def unlocks_sections(self) -> str | None:
        """The cheapest product that would show this listing's story, milestones and media if bought now: a launch,
        else the Launch bundle (for a free listing that has its week, see docs/orders.md "Launch bundle"); None
        when none can (taken down, or unlocked already)."""
        return next((code for code in ("launch", "launch_bundle") if code not in self.unavailable), None)


def order_offers(store: EventStore, listing_id: int, account_id: str, today: date, cfg: OrderSettings) -> Offers:
    """The products a listing can take now and, for each with a week window, the weeks it can take.

    Each product is priced alone for the listing in every week it offers, and
    only the rules about the listing's state are kept (a rule about what is
    typed is never said up front), so the order form can disable "Launch" on
    a live listing and leave out the weeks a skip of the queue cannot move to,
    instead of refusing them after "See the quote". A product none of whose
    weeks passes is unavailable, with the reason in the rules' words. A
    product not bought for a listing is not on a listing's form. Refusals the
    same order can lift (featured with a launch) are left to the quote.
    """
    state: catalog.CatalogState = store.load(catalog.CATALOG_ID, catalog)
    listings = {listing_id: store.load(listing.listing_stream(listing_id), listing)}
    won = {listing_id: listing_awards(store.load, listing_id)}
    vat = cfg.vat(None, None)
    unavailable: dict[str, str] = {}
    weeks: dict[str, list[str]] = {}
    for code, product in state.products.items():
        if not product.needs_listing:
            continue
        tried: list[str | None] = list(order.offered_weeks(today, product.week_window)) if product.week_window else [None]
        open_weeks: list[str] = []
        refusals: list[FieldProblem] = []
        for week in tried:
            item: dict[str, Any] = {"product": code, "listing_id": listing_id} | ({"week": week} if week else {})
            try:
                order.price_items([item], state, listings, account_id, today, vat, won)
            except InvalidInput as exc:
                kept = [p for p in exc.problems if p.rule in SAID_UP_FRONT]
                if kept:
                    refusals.append(kept[0])
                    continue
            if week:
                open_weeks.append(week)
        if product.week_window:
            weeks[code] = open_weeks
        if refusals and len(refusals) == len(tried):
            unavailable[code] = _none_open(refusals[-1], [w for w in tried if w])
    return Offers(unavailable, weeks, won[listing_id], is_upgrade("launch_bundle", listings[listing_id]))


def _none_open(problem: FieldProblem, tried: list[str]) -> str:
    """Why a product cannot be bought now: the rule's own words, or for a week rule that no offered week passes."""
    if problem.rule not in WEEK_RULES or not tried:
        return problem.message
    lead = problem.message.split(":", 1)[0]
    span = f"{week_name(tried[0], plain=True)} to {week_name(tried[-1], plain=True)}"
    return f"{lead}, and none of the weeks it can take now ({span}) {WEEK_RULES[problem.rule]}"


def create_checkout(store: EventStore, cmd: CreateCheckout, account_id: str, meta: Meta, today: date,
                    cfg: OrderSettings, site_taken: SiteTaken | None = None) -> Placed:
    """Place a pending order with frozen prices and VAT; answers its number and checkout token.

    A saved listing in it whose site has gained a public listing since it was saved is refused before anyone
    pays (409, `refuse_taken_site`): a paid launch is no way around one listing per site.
    """
    items = cmd.item_dicts()
    for state in _listings(store.load, items).values():
        refuse_taken_site(state, account_id, site_taken)
    vat, vat_problems = _vat(cfg, cmd.billing_country, cmd.vat_number)
    number = cfg.new_number()
    token = f"{number}.{cfg.new_secret()}"

    def decision(load: Loader) -> list[Event]:
        prices: catalog.CatalogState = load(catalog.CATALOG_ID, catalog)
        listings = _listings(load, items)
        quote = _priced(items, prices, listings, account_id, today, vat, vat_problems, _awards(load, items, listings))
        fresh: OrderState = load(order.order_stream(number), order)
        return order.decide_place(fresh, number=number, account_id=account_id, quote=quote, token=token,
                                  expires_at=meta.at + order.TTL, meta=meta)

    return Placed(number, token, store.decide_across(decision).position)


def load(store: EventStore, number: str) -> OrderState:
    state: OrderState = store.load(order.order_stream(number), order)
    return state


def load_mine(store: EventStore, number: str, account_id: str) -> OrderState:
    state = load(store, number)
    order.require_mine(state, account_id)
    return state


def load_by_token(store: EventStore, token: str) -> OrderState:
    """The order a checkout token names, when its secret matches; 404 otherwise (the same for every miss)."""
    number, _, _secret = token.partition(".")
    if not number or len(number) > order.NUMBER_MAX:
        raise NotFound("no such checkout")
    state = load(store, number)
    if not state.exists or not hmac.compare_digest(state.token.encode(), token.encode()):
        raise NotFound("no such checkout")
    return state


def set_billing(store: EventStore, token: str, name: str, country: str, address: str, vat_number: str,
                meta: Meta, cfg: OrderSettings) -> int:
    """Billing details from the checkout page: VAT decided again from the country and number."""
    state = load_by_token(store, token)
    vat = cfg.vat(country or None, vat_number or None)
    return store.decide(state.id, order, lambda s: order.decide_billing(s, name=name, address=address, vat=vat,
                                                                        meta=meta)).position


def requote(store: EventStore, token: str, country: str, vat_number: str, cfg: OrderSettings) -> Quote:
    """The checkout page's live preview: VAT decided by the same code as `set_billing`, on the frozen prices.

    Nothing is stored; an invalid VAT number is the same 400 naming `vat_number`.
    """
    state = load_by_token(store, token)
    vat = cfg.vat(country or None, vat_number or None)
    return Quote(list(state.lines), state.subtotal_cents, vat, 0, state.subtotal_cents).with_vat(vat)


def require_payable_now(state: OrderState, at: datetime) -> None:
    """409 unless the order can be paid now (pending, not expired)."""
    order.require_payable(state, at)


def start_payment(store: EventStore, number: str, provider: str, reference: str, meta: Meta) -> int:
    return store.decide(order.order_stream(number), order,
                        lambda s: order.decide_payment_started(s, provider, reference, meta)).position


def confirm_payment(store: EventStore, number: str, *, provider: str, reference: str, amount_cents: int,
                    source: str, event_id: str, meta: Meta) -> int:
    """The provider says the order is paid: recorded once (a repeat is a no-op), with an invoice number."""
    state = load(store, number)
    if not state.exists:
        raise NotFound("no such order")
    if state.paid_at is not None:
        return store.position()
    invoice = f"{meta.at.year}-{store.ids.next('invoice'):06d}" if store.ids else f"{meta.at.year}-{number}"
    return store.decide(state.id, order, lambda s: order.decide_paid(
        s, provider=provider, reference=reference, amount_cents=amount_cents, source=source, event_id=event_id,
        invoice_number=invoice, meta=meta)).position


def write_review(store: EventStore, state: OrderState, index: int, reviewer: Reviewer | None) -> WrittenReview | None:
    """The review of an open `ai_review` line, written before its decision (which does no I/O); None otherwise."""
    if reviewer is None or index not in state.open_lines():
        return None
    line = line_of(state, index)
    if line["product"] != "ai_review" or line.get("listing_id") is None:
        return None
    owned: ListingState = store.load(listing.listing_stream(int(line["listing_id"])), listing)
    return reviewer.review(owned) if owned.exists else None


def fulfil_line(store: EventStore, number: str, index: int, meta: Meta, review: WrittenReview | None = None,
                website: str = "") -> int:
    """Apply one paid line and record it, in one append; nothing when it is recorded already (or not due yet).

    `review` is an `ai_review` line's text from `write_review` (None: the rule-based review); `website`, the
    site's address, gives its mail a link to the owner's page of the listing (none without).
    """
    stream = order.order_stream(number)
    current = week_of(meta.at.date())

    def decision(load_: Loader) -> list[Event]:
        state: OrderState = load_(stream, order)
        return order.decide_line(state, index, load_, current, meta, review, website)

    return store.decide_across(decision).position


def fulfil(store: EventStore, number: str, meta: Meta, reviewer: Reviewer | None = None, website: str = "") -> int:
    """Apply every open line of a paid order, one append per line (a crash between lines loses nothing)."""
    position = store.position()
    state = load(store, number)
    for index in state.open_lines():
        position = fulfil_line(store, number, index, meta, write_review(store, state, index, reviewer), website)
    return position


def expire(store: EventStore, number: str, meta: Meta) -> int:
    return store.decide(order.order_stream(number), order, lambda s: order.decide_expire(s, meta)).position


def refund(store: EventStore, number: str, reason: str, reference: str, meta: Meta) -> int:
    return store.decide(order.order_stream(number), order,
                        lambda s: order.decide_refund(s, reason, reference, meta)).position


def close_task(store: EventStore, number: str, index: int, meta: Meta) -> int:
    """Staff did a task line's work (`launchdir staff fulfil ORDER LINE`)."""
    return store.decide(order.order_stream(number), order,
                        lambda s: order.decide_task_closed(s, index, "done by staff", meta)).position
