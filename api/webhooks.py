"""`POST /webhooks/stripe`: the payment provider's signed events confirm payments.

The signature is checked by the provider adapter (the SDK's
`Webhook.construct_event`, which also refuses events older than five minutes);
a bad one is a 400. A payment is recorded once per order: a replayed or
repeated event (the same id, or another event for an order already paid)
changes nothing and is answered 200, so the provider stops retrying. Events
we do not act on are acknowledged.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from aggregates.base import Meta
from api.services import Services
from commands import orders as cmd
from events.errors import Conflict, InvalidInput, NotFound

MAX_BYTES = 512 * 1024


def webhook_routes(s: Services, provider: cmd.PaymentProvider, on_paid: Callable[[], None] = lambda: None,
                   path: str = "/webhooks/stripe") -> list[BaseRoute]:
    def confirm(status: cmd.PaymentStatus) -> str:
        state = cmd.load(s.store, status.number)
        if not state.exists:
            return "unknown_order"
        if state.paid_at is not None:
            return "already_paid"
        meta = Meta(at=s.clock(), actor=f"{provider.name}:webhook", channel="system", via=provider.name)
        cmd.confirm_payment(s.store, status.number, provider=provider.name, reference=status.reference,
                            amount_cents=status.amount_cents, source="webhook", event_id=status.event_id, meta=meta)
        on_paid()
        return "paid"

    async def receive(request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_BYTES:
            return JSONResponse({"error": "too large"}, status_code=413)
        try:
            status = provider.webhook(body, request.headers.get("stripe-signature", ""))
        except InvalidInput as exc:
            return JSONResponse({"error": exc.detail}, status_code=400)
        if status is None or not status.paid or not status.number:
            return JSONResponse({"received": True, "outcome": "ignored"})
        try:
            outcome = await run_in_threadpool(confirm, status)
        except (Conflict, NotFound) as exc:
            outcome = f"refused: {exc.detail}"
        return JSONResponse({"received": True, "outcome": outcome})

    return [Route(path, receive, methods=["POST"])]
