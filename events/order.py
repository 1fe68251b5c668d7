"""Events of the Order aggregate: a checkout with frozen prices, its payment, fulfilment, expiry and refund.

An order is its own stream (`aggregates.order.order_stream(number)`), named by
its short, non-sequential `number`. Amounts are integer USD cents; a VAT rate
is held in basis points (`rate_bp`, 1900 = 19 %), so nothing here is a float.
Fulfilment of a line is appended in the same transaction as the change it
makes elsewhere (the listing, the billboard, the outbox), so a line is either
applied and recorded, or neither (docs/orders.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from events.base import Event

STATUSES = ("pending", "paid", "fulfilled", "expired", "refunded")
TREATMENTS = ("standard", "reverse_charge", "outside_scope", "not_determined")


@dataclass(frozen=True, kw_only=True)
class OrderPlaced(Event):
    """create_checkout: a pending order with its lines, prices and VAT frozen at this moment.

    `lines` are the priced lines (`index`, `product`, `name`, `listing_id`,
    `week`, `amount_cents`, `categories`, `options`, `unit_cents`, `net_cents`);
    `vat` is the VAT decision (`rate_bp`, `country`, `treatment`, `check`,
    `vat_number`, `note`). `token` is the checkout page's credential; it stops
    working at `expires_at` or once the order is no longer pending.
    """

    number: str
    account_id: str
    lines: list[dict[str, Any]]
    subtotal_cents: int
    vat: dict[str, Any]
    vat_cents: int
    total_cents: int
    currency: str
    token: str
    expires_at: datetime


@dataclass(frozen=True, kw_only=True)
class OrderBillingSet(Event):
    """The person entered billing details on the checkout page; VAT and total were decided again from them."""

    name: str
    country: str
    address: str
    vat_number: str
    vat: dict[str, Any]
    vat_cents: int
    total_cents: int


@dataclass(frozen=True, kw_only=True)
class OrderPaymentStarted(Event):
    """A payment attempt began with `provider` (`test`, `stripe`); `reference` is its session id."""

    provider: str
    reference: str


@dataclass(frozen=True, kw_only=True)
class OrderPaid(Event):
    """The provider confirmed the payment of `amount_cents`: fulfilment starts, an invoice number is given.

    `source` says what confirmed it: `test` (the test payment page), `webhook`
    (a signed provider event, its id in `event_id`) or `return` (the session
    retrieved when the person came back).
    """

    provider: str
    reference: str
    amount_cents: int
    source: str
    event_id: str
    invoice_number: str


@dataclass(frozen=True, kw_only=True)
class OrderLineFulfilled(Event):
    """Line `line` was applied; `detail` says what it did (for people), `result` holds what it made."""

    line: int
    detail: str
    result: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class OrderLineNotFulfilled(Event):
    """Line `line` could not be applied (`reason` code and a sentence); staff decide (refund or by hand)."""

    line: int
    reason: str
    detail: str


@dataclass(frozen=True, kw_only=True)
class OrderStaffTaskOpened(Event):
    """Line `line` is work people do (done_for_you, a trophy): it waits in `launchdir staff tasks`."""

    line: int
    task: str


@dataclass(frozen=True, kw_only=True)
class OrderExpired(Event):
    """A pending order was not paid in time: its checkout link stops working."""


@dataclass(frozen=True, kw_only=True)
class OrderRefunded(Event):
    """Staff refunded the order (`amount_cents`); `reference` is the provider's refund id ("" for test)."""

    amount_cents: int
    reason: str
    reference: str
