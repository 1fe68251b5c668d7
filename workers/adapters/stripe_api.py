"""Stripe, the payment provider: Checkout Sessions, their retrieval, signed webhooks and refunds (the `stripe` SDK).

The one module that talks to Stripe. It implements `commands.orders.PaymentProvider`:

- `start` creates a Checkout Session (mode `payment`, one line with the order's
  total in USD cents, VAT included; payment method types from the settings:
  `card` covers cards and wallets, `paypal` and `crypto` are Stripe Checkout's
  own methods) with the order number as `client_reference_id` and metadata;
- `retrieve` reads a session back (the fallback when the person returns
  before the webhook arrives);
- `webhook` verifies the `Stripe-Signature` header with the SDK's
  `stripe.Webhook.construct_event` and maps `checkout.session.completed` and
  `checkout.session.async_payment_succeeded` with `payment_status=paid` to a
  payment (other events are acknowledged and ignored);
- `refund` refunds the session's payment intent.

`api_base` points the SDK at another address (the local stand-in in tests).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import stripe

from commands.orders import PaymentSession, PaymentStatus
from events.errors import FieldProblem, InvalidInput, Unavailable

PAID_EVENTS = ("checkout.session.completed", "checkout.session.async_payment_succeeded")


@dataclass
class StripePayments:
    secret_key: str
    webhook_secret: str
    api_base: str | None = None
    payment_methods: list[str] = field(default_factory=lambda: ["card"])
    name: str = "stripe"

    def __post_init__(self) -> None:
        bases: Any = {"api": self.api_base} if self.api_base else None
        self._client = stripe.StripeClient(self.secret_key, base_addresses=bases, max_network_retries=2)

    def start(self, number: str, amount_cents: int, description: str, success_url: str,
              cancel_url: str) -> PaymentSession:
        try:
            params: Any = {
                "mode": "payment",
                "payment_method_types": list(self.payment_methods),
                "client_reference_id": number,
                "metadata": {"order_number": number},
                "line_items": [{"quantity": 1, "price_data": {
                    "currency": "usd", "unit_amount": amount_cents,
                    "product_data": {"name": description}}}],
                "success_url": success_url,
                "cancel_url": cancel_url,
            }
            session = self._client.v1.checkout.sessions.create(
                params=params, options={"idempotency_key": f"checkout-{number}-{amount_cents}"})
        except stripe.StripeError as exc:
            raise Unavailable(f"the payment provider did not answer: {exc.user_message or exc}") from exc
        return PaymentSession(url=str(session.url), reference=str(session.id))

    def retrieve(self, reference: str) -> PaymentStatus:
        try:
            session = self._client.v1.checkout.sessions.retrieve(reference)
        except stripe.StripeError as exc:
            raise Unavailable(f"the payment provider did not answer: {exc.user_message or exc}") from exc
        return _status(session, "")

    def webhook(self, payload: bytes, signature: str) -> PaymentStatus | None:
        try:
            event = stripe.Webhook.construct_event(payload, signature, self.webhook_secret)
        except (ValueError, stripe.SignatureVerificationError) as exc:
            raise InvalidInput("the webhook signature does not verify",
                               [FieldProblem("Stripe-Signature", "signature", str(exc)[:200])]) from exc
        if event.type not in PAID_EVENTS:
            return PaymentStatus(False, 0, "", "", str(event.id))
        return _status(event.data.object, str(event.id))

    def refund(self, reference: str, amount_cents: int) -> str:
        try:
            session = self._client.v1.checkout.sessions.retrieve(reference)
            refund = self._client.v1.refunds.create(params={
                "payment_intent": str(session.payment_intent), "amount": amount_cents})
        except stripe.StripeError as exc:
            raise Unavailable(f"the payment provider did not answer: {exc.user_message or exc}") from exc
        return str(refund.id)


def _status(obj: Any, event_id: str) -> PaymentStatus:
    session: dict[str, Any] = obj.to_dict() if hasattr(obj, "to_dict") else dict(obj)
    number = str(session.get("client_reference_id") or (session.get("metadata") or {}).get("order_number") or "")
    paid = session.get("payment_status") == "paid"
    return PaymentStatus(paid, int(session.get("amount_total") or 0), str(session.get("id") or ""), number, event_id)
