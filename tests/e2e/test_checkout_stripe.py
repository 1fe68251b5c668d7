"""Stripe through the real SDK against a local stand-in of the few endpoints used, with webhooks signed the way
Stripe signs them: checkout -> Stripe session -> signed webhook -> paid and fulfilled; bad signatures refused,
replays change nothing, and the return page confirms a payment when the webhook has not come."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest

from aggregates.base import Meta
from aggregates.order import order_stream
from commands import listing as listing_cmd
from events.order import OrderPaid
from tests.conftest import Databases, RunningServer, free_port
from tests.conftest import test_settings as settings_for
from tests.e2e.submission_support import Person, ik, person

SECRET = "whsec_test_standin"
STAFF = Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli")


class StandIn(BaseHTTPRequestHandler):
    """The Stripe endpoints the adapter uses: create and retrieve a Checkout Session, create a refund."""

    sessions: dict[str, dict[str, Any]] = {}

    def log_message(self, *args: Any) -> None:
        pass

    def _json(self, status: int, doc: dict[str, Any]) -> None:
        body = json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        form = parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
        if not self.headers.get("Authorization", "").startswith("Bearer sk_test_"):
            return self._json(401, {"error": {"message": "bad key", "type": "invalid_request_error"}})
        if self.path == "/v1/checkout/sessions":
            sid = f"cs_test_{len(self.sessions) + 1}"
            session = {"id": sid, "object": "checkout.session", "url": f"https://pay.example/{sid}",
                       "client_reference_id": form["client_reference_id"][0], "payment_status": "unpaid",
                       "amount_total": int(form["line_items[0][price_data][unit_amount]"][0]),
                       "payment_intent": f"pi_{sid}", "metadata": {"order_number": form["metadata[order_number]"][0]},
                       "payment_method_types": [form[f"payment_method_types[{i}]"][0] for i in range(20)
                                                if f"payment_method_types[{i}]" in form]}
            self.sessions[sid] = session
            return self._json(200, session)
        if self.path == "/v1/refunds":
            return self._json(200, {"id": "re_1", "object": "refund", "amount": int(form["amount"][0])})
        return self._json(404, {"error": {"message": "no such endpoint", "type": "invalid_request_error"}})

    def do_GET(self) -> None:  # noqa: N802
        sid = self.path.rsplit("/", 1)[-1]
        if sid in self.sessions:
            return self._json(200, self.sessions[sid])
        return self._json(404, {"error": {"message": "no such session", "type": "invalid_request_error"}})


def signed(payload: bytes, secret: str = SECRET, at: int | None = None) -> str:
    t = int(time.time()) if at is None else at
    mac = hmac.new(secret.encode(), f"{t}.".encode() + payload, hashlib.sha256).hexdigest()
    return f"t={t},v1={mac}"


@pytest.fixture(scope="module")
def stand_in() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), StandIn)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def live(databases: Databases, stand_in: str) -> Iterator[RunningServer]:
    from launchdir.bootstrap import bootstrap, ensure_catalog

    port = free_port()
    c = bootstrap(settings_for(databases.create(), port=port, rate_limits=False, stripe_secret_key="sk_test_standin",
                               stripe_webhook_secret=SECRET, stripe_api_base=stand_in,
                               payment_methods=["card", "paypal"]))
    ensure_catalog(c)
    with RunningServer(c, port) as running:
        yield running
    c.close()


def _checkout(live: RunningServer, who: Person) -> dict[str, Any]:
    c: Any = live.container
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": "Striped"}, categories=["developer-tools"], owner_ids=[who.account_id]), STAFF)
    r = httpx.post(live.url + "/api/v1/orders/checkout", headers=who.headers(**ik()), timeout=15, json={
        "items": [{"product": "launch", "listing_id": created.listing_id}], "billing_country": "DE"})
    assert r.status_code == 201, r.text
    order = r.json()
    with httpx.Client(timeout=15) as web:
        assert web.post(order["checkout_url"] + "/billing", data={"name": "Buyer", "country": "DE"}).status_code == 303
        r = web.post(order["checkout_url"] + "/pay")
    assert r.status_code == 303 and r.headers["location"].startswith("https://pay.example/cs_test_")
    order["session"] = r.headers["location"].rsplit("/", 1)[-1]
    return order


def _event(event_id: str, session: dict[str, Any]) -> bytes:
    return json.dumps({"id": event_id, "object": "event", "type": "checkout.session.completed",
                       "data": {"object": session}}).encode()


def _status(live: RunningServer, who: Person, number: str, want: str) -> dict[str, Any]:
    deadline = time.monotonic() + 15
    while True:
        doc: dict[str, Any] = httpx.get(f"{live.url}/api/v1/orders/{number}", headers=who.headers()).json()
        if doc["status"] == want or time.monotonic() > deadline:
            return doc
        time.sleep(0.05)


def test_signed_webhook_marks_the_order_paid_once_and_fulfils_it(live: RunningServer) -> None:
    who = person(live, ("account:read", "orders:write"))
    order = _checkout(live, who)
    session = {**StandIn.sessions[order["session"]], "payment_status": "paid"}
    assert session["amount_total"] == order["total_cents"] and session["payment_method_types"] == ["card", "paypal"]
    hook = live.url + "/webhooks/stripe"
    payload = _event("evt_1", session)
    assert httpx.post(hook, content=payload, headers={"Stripe-Signature": signed(payload, "whsec_wrong")}).status_code == 400
    old = signed(payload, at=int(time.time()) - 3600)
    assert httpx.post(hook, content=payload, headers={"Stripe-Signature": old}).status_code == 400
    assert _status(live, who, order["number"], "pending")["status"] == "pending"
    r = httpx.post(hook, content=payload, headers={"Stripe-Signature": signed(payload)})
    assert r.status_code == 200 and r.json()["outcome"] == "paid", r.text
    again = httpx.post(hook, content=payload, headers={"Stripe-Signature": signed(payload)})
    assert again.status_code == 200 and again.json()["outcome"] == "already_paid"
    doc = _status(live, who, order["number"], "fulfilled")
    assert doc["status"] == "fulfilled" and doc["lines"][0]["fulfilled"]
    events = [e for e in live.container.store.stream(order_stream(order["number"])) if isinstance(e, OrderPaid)]
    assert len(events) == 1 and events[0].event_id == "evt_1" and events[0].source == "webhook"


def test_the_return_page_confirms_a_paid_session_without_the_webhook(live: RunningServer) -> None:
    who = person(live, ("account:read", "orders:write"))
    order = _checkout(live, who)
    with httpx.Client(timeout=15) as web:
        assert web.get(order["checkout_url"] + "/return").status_code == 303
    assert _status(live, who, order["number"], "pending")["status"] == "pending"  # the session is not paid yet
    StandIn.sessions[order["session"]]["payment_status"] = "paid"
    with httpx.Client(timeout=15) as web:
        assert web.get(order["checkout_url"] + "/return").status_code == 303
    doc = _status(live, who, order["number"], "fulfilled")
    assert doc["status"] == "fulfilled"
