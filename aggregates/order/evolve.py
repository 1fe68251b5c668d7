"""How an order stream folds its events into a state."""

from __future__ import annotations

from dataclasses import replace
from functools import singledispatch
from typing import Any

from aggregates.order.state import OrderState
from events.base import Event
from events.order import (
    OrderBillingSet,
    OrderExpired,
    OrderLineFulfilled,
    OrderLineNotFulfilled,
    OrderPaid,
    OrderPaymentStarted,
    OrderPlaced,
    OrderRefunded,
    OrderStaffTaskOpened,
)


@singledispatch
def evolve(event: Event, state: Any) -> Any:
    return replace(state, version=event.originator_version)


@evolve.register
def _(e: OrderPlaced, s: OrderState) -> OrderState:
    return replace(
        s, version=e.originator_version, number=e.number, account_id=e.account_id, status="pending",
        lines=tuple(e.lines), subtotal_cents=e.subtotal_cents, vat=dict(e.vat), vat_cents=e.vat_cents,
        total_cents=e.total_cents, token=e.token, placed_at=e.timestamp, expires_at=e.expires_at,
    )


@evolve.register
def _(e: OrderBillingSet, s: OrderState) -> OrderState:
    billing = {"name": e.name, "country": e.country, "address": e.address, "vat_number": e.vat_number}
    return replace(s, version=e.originator_version, billing=billing, vat=dict(e.vat), vat_cents=e.vat_cents,
                   total_cents=e.total_cents)


@evolve.register
def _(e: OrderPaymentStarted, s: OrderState) -> OrderState:
    return replace(s, version=e.originator_version, provider=e.provider, reference=e.reference)


@evolve.register
def _(e: OrderPaid, s: OrderState) -> OrderState:
    return _settle(replace(s, version=e.originator_version, status="paid", provider=e.provider,
                           reference=e.reference, paid_at=e.timestamp, invoice_number=e.invoice_number))


@evolve.register
def _(e: OrderLineFulfilled, s: OrderState) -> OrderState:
    tasks = {k: v for k, v in s.tasks.items() if k != e.line}
    return _settle(replace(s, version=e.originator_version, fulfilled={**s.fulfilled, e.line: e.timestamp},
                           tasks=tasks))


@evolve.register
def _(e: OrderLineNotFulfilled, s: OrderState) -> OrderState:
    return replace(s, version=e.originator_version, not_fulfilled={**s.not_fulfilled, e.line: e.reason})


@evolve.register
def _(e: OrderStaffTaskOpened, s: OrderState) -> OrderState:
    return replace(s, version=e.originator_version, tasks={**s.tasks, e.line: e.task})


@evolve.register
def _(e: OrderExpired, s: OrderState) -> OrderState:
    return replace(s, version=e.originator_version, status="expired")


@evolve.register
def _(e: OrderRefunded, s: OrderState) -> OrderState:
    return replace(s, version=e.originator_version, status="refunded", refunded_cents=e.amount_cents)


def _settle(s: OrderState) -> OrderState:
    """A paid order whose every line is applied is `fulfilled`."""
    if s.status == "paid" and s.lines and all(int(line["index"]) in s.fulfilled for line in s.lines):
        return replace(s, status="fulfilled")
    return s
