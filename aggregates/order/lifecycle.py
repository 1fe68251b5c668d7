"""One order's decisions: placed, billing details, payment started and confirmed, lines, expiry, refund.

Statuses: `pending` (placed, waiting for the person to pay on the checkout
page), `paid` (confirmed by the provider; fulfilment is applying the lines),
`fulfilled` (every line applied, or handed to staff and closed), `expired`
(not paid within `TTL`), `refunded` (staff gave the money back). A payment
confirmed twice (webhook and return, or a replayed webhook) is recorded once.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from aggregates.base import Emitter, Meta, one
from aggregates.order.pricing import Quote
from aggregates.order.state import OrderState, line_of
from aggregates.order.vat import VatDecision, vat_cents
from events.base import Event
from events.errors import Conflict, FieldProblem, InvalidInput
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


def decide_place(state: OrderState, *, number: str, account_id: str, quote: Quote, token: str,
                 expires_at: datetime, meta: Meta) -> list[Event]:
    """create_checkout: a new pending order with the quote's lines, prices and VAT frozen."""
    if state.exists:
        raise Conflict(f"order number {number} is taken; try again")
    return one(state, meta, OrderPlaced, number=number, account_id=account_id, lines=quote.lines,
               subtotal_cents=quote.subtotal_cents, vat=quote.vat.as_dict(), vat_cents=quote.vat_cents,
               total_cents=quote.total_cents, currency="usd", token=token, expires_at=expires_at)


def require_payable(state: OrderState, at: datetime) -> None:
    if state.status != "pending":
        raise Conflict(f"the order is {state.status}")
    if state.is_due_to_expire(at):
        raise Conflict("the checkout link has expired; create a new checkout")


def decide_billing(state: OrderState, *, name: str, address: str, vat: VatDecision, meta: Meta) -> list[Event]:
    """The checkout page's billing details: VAT decided again from them (prices stay frozen)."""
    require_payable(state, meta.at)
    if vat.treatment == "not_determined":
        raise InvalidInput("choose the billing country", [FieldProblem("country", "required", "Two letters.")])
    amount = vat_cents(state.subtotal_cents, vat.rate_bp)
    billing = {"name": name, "country": vat.country, "address": address, "vat_number": vat.vat_number}
    if billing == state.billing and vat.as_dict() == state.vat:
        return []
    return one(state, meta, OrderBillingSet, name=name, country=vat.country, address=address,
               vat_number=vat.vat_number, vat=vat.as_dict(), vat_cents=amount,
               total_cents=state.subtotal_cents + amount)


def decide_payment_started(state: OrderState, provider: str, reference: str, meta: Meta) -> list[Event]:
    require_payable(state, meta.at)
    if not state.billing:
        raise InvalidInput("billing details first", [FieldProblem("country", "required", "Enter billing details.")])
    return one(state, meta, OrderPaymentStarted, provider=provider, reference=reference)


def decide_paid(state: OrderState, *, provider: str, reference: str, amount_cents: int, source: str,
                event_id: str, invoice_number: str, meta: Meta) -> list[Event]:
    """The provider confirmed payment: recorded once; money taken after expiry is still recorded (then refunded by staff)."""
    if not state.exists:
        raise Conflict("no such order")
    if state.paid_at is not None:
        return []
    if state.status not in ("pending", "expired"):
        raise Conflict(f"the order is {state.status}")
    if amount_cents != state.total_cents:
        raise Conflict(f"paid {amount_cents} cents for an order of {state.total_cents}")
    return one(state, meta, OrderPaid, provider=provider, reference=reference, amount_cents=amount_cents,
               source=source, event_id=event_id, invoice_number=invoice_number)


def decide_expire(state: OrderState, meta: Meta) -> list[Event]:
    if not state.is_due_to_expire(meta.at):
        return []
    return one(state, meta, OrderExpired)


def decide_refund(state: OrderState, reason: str, reference: str, meta: Meta) -> list[Event]:
    """Staff refund the whole order; what is undone and what is not is docs/orders.md's "Refunds"."""
    if state.status == "refunded":
        return []
    if not state.is_paid:
        raise Conflict(f"the order is {state.status}: there is nothing to refund")
    return one(state, meta, OrderRefunded, amount_cents=state.total_cents, reason=reason, reference=reference)


def line_events(state: OrderState, emit: Emitter, index: int, outcome: dict[str, Any]) -> None:
    """Record one line's outcome (`fulfilled`, `not_fulfilled` or `task`) on an emitter of the order stream."""
    line_of(state, index)
    kind = outcome["kind"]
    if kind == "fulfilled":
        emit(OrderLineFulfilled, line=index, detail=outcome["detail"], result=outcome.get("result") or {})
    elif kind == "task":
        emit(OrderStaffTaskOpened, line=index, task=outcome["detail"])
    else:
        emit(OrderLineNotFulfilled, line=index, reason=outcome["reason"], detail=outcome["detail"])


def decide_task_closed(state: OrderState, index: int, detail: str, meta: Meta) -> list[Event]:
    """Staff did the work of a task line (`launchdir staff fulfil ORDER LINE`)."""
    line_of(state, index)
    if index in state.fulfilled:
        return []
    if index not in state.tasks:
        raise Conflict(f"line {index} of order {state.number} is not a staff task")
    return one(state, meta, OrderLineFulfilled, line=index, detail=detail, result={"by": meta.actor})
