"""Orders over real HTTP (REST and MCP's same registry): quote, checkout, the checkout page paid in test mode,
fulfilment of the lines on the listing, list_my_orders and get_order; strangers get 404, bad input 400."""

from __future__ import annotations

import re
import time
from datetime import datetime, timezone
from typing import Any
from uuid import uuid4

import httpx
import pytest

from aggregates.base import Meta
from commands import listing as listing_cmd
from queries.catalog import offered_weeks
from tests.conftest import RunningServer
from tests.e2e.submission_support import Person, ik, person

API = "/api/v1"
SCOPES = ("account:read", "listings:write", "orders:write")
STAFF = Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli", via="staff")


@pytest.fixture(scope="module")
def owner(live: RunningServer) -> Person:
    return person(live, SCOPES)


def new_listing(live: RunningServer, who: Person, name: str = "Invoicely") -> int:
    c: Any = live.container
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": name, "tagline": "Invoices that pay themselves",
                 "website_url": f"https://invoicely-{uuid4().hex[:8]}.example"},  # one listing per site: a site each
        categories=["developer-tools"], owner_ids=[who.account_id]), STAFF)
    assert c.runtime.wait_for(["listing_view", "search_view"], created.position, timeout=5)
    return created.listing_id


def problem(r: httpx.Response, status: int = 400) -> tuple[str | None, str | None]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/problem+json"
    errors = r.json().get("errors") or [{"field": None, "rule": None}]
    return errors[0]["field"], errors[0]["rule"]


def test_quote_prices_from_the_catalogue_with_every_vat_treatment(live: RunningServer, http: httpx.Client,
                                                                 owner: Person) -> None:
    lid = new_listing(live, owner)
    prices = {p["code"]: p["price_cents"] for p in http.get("/products").json()["items"]}
    body: dict[str, Any] = {"items": [{"product": "launch", "listing_id": lid}]}
    expected = {None: ("not_determined", 0), "DE": ("standard", 1900), "FR": ("standard", 2000),
                "IE": ("standard", 2300), "US": ("outside_scope", 0)}
    for country, (treatment, rate) in expected.items():
        r = http.post("/orders/quote", json={**body, **({"billing_country": country} if country else {})},
                      headers=owner.headers())
        assert r.status_code == 200, r.text
        q = r.json()
        assert q["subtotal_cents"] == prices["launch"]
        assert (q["vat"]["treatment"], q["vat"]["rate_bp"]) == (treatment, rate), country
        assert q["total_cents"] == q["subtotal_cents"] + q["vat"]["amount_cents"]
    r = http.post("/orders/quote", json={**body, "billing_country": "DE", "vat_number": "DE136695976"},
                  headers=owner.headers())
    assert r.json()["vat"]["treatment"] == "reverse_charge" and r.json()["vat"]["check"] == "format"
    r = http.post("/orders/quote", json={**body, "billing_country": "DE", "vat_number": "DE136695977"},
                  headers=owner.headers())
    assert problem(r) == ("vat_number", "check_digits")


def test_quote_validates_every_rule_of_the_order_body(live: RunningServer, http: httpx.Client, owner: Person) -> None:
    lid = new_listing(live, owner, "Rules")
    stranger = person(live, SCOPES)
    h = owner.headers()
    cases: list[tuple[dict[str, Any], tuple[str, str]]] = [
        ({"items": []}, ("items", "min_items")),
        ({"items": [{"product": "ai_review", "listing_id": lid}] * 21}, ("items", "max_items")),
        ({"items": [{"product": "nope", "listing_id": lid}]}, ("items.0.product", "enum")),
        ({"items": [{"product": "launch"}]}, ("items.0.listing_id", "required")),
        ({"items": [{"product": "launch", "listing_id": 0}]}, ("items.0.listing_id", "minimum")),
        ({"items": [{"product": "skip_queue", "listing_id": lid, "week": "2020-01-06"}]}, ("items.0.week", "enum")),
        ({"items": [{"product": "billboard_min", "listing_id": lid, "amount_cents": 1}]},
         ("items.0.amount_cents", "minimum")),
        ({"items": [{"product": "extra_categories", "listing_id": lid, "categories": ["ai", "devops", "testing",
                                                                                    "apis-sdks"]}]},
         ("items.0.categories", "max_items")),
        ({"items": [{"product": "launch", "listing_id": lid, "options": {"x": 1}}]}, ("items.0.options",
                                                                                     "not_allowed")),
        ({"items": [{"product": "launch", "listing_id": lid}], "extra": 1}, ("extra", "unknown_field")),
        ({"items": [{"product": "launch", "listing_id": lid, "colour": "red"}]}, ("items.0.colour", "unknown_field")),
        ({"items": [{"product": "launch", "listing_id": lid}], "billing_country": "Germany"},
         ("billing_country", "max_length")),
        ({"items": [{"product": "skip_queue", "listing_id": lid,
                     "week": offered_weeks(datetime.now(timezone.utc).date(), [1, 5])[0]}]},
         ("items.0", "not_in_free_queue")),
    ]
    for body, expected in cases:
        assert problem(http.post("/orders/quote", json=body, headers=h)) == expected, body
    r = http.post("/orders/quote", json={"items": [{"product": "launch", "listing_id": lid}]},
                  headers=stranger.headers())
    assert r.status_code == 404, r.text
    assert http.post("/orders/quote", json={"items": [{"product": "launch", "listing_id": 99999}]},
                     headers=h).status_code == 404
    no_scope = person(live, ("account:read",))
    assert http.post("/orders/quote", json={"items": [{"product": "launch", "listing_id": lid}]},
                     headers=no_scope.headers()).status_code == 403


def wait_status(http: httpx.Client, who: Person, number: str, status: str, timeout: float = 15) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        doc = http.get(f"/orders/{number}", headers=who.headers()).json()
        if doc["status"] == status or time.monotonic() > deadline:
            return doc  # type: ignore[no-any-return]
        time.sleep(0.05)


def test_checkout_test_payment_and_fulfilment_end_to_end(live: RunningServer, http: httpx.Client,
                                                        owner: Person) -> None:
    lid = new_listing(live, owner, "Paid Product")
    week = offered_weeks(datetime.now(timezone.utc).date(), [0, 8])[0]
    body = {"items": [{"product": "launch", "listing_id": lid}, {"product": "featured", "listing_id": lid,
                                                                 "week": week},
                      {"product": "extra_categories", "listing_id": lid, "categories": ["ai"]},
                      {"product": "billboard_min", "listing_id": lid, "amount_cents": 2500},
                      {"product": "ai_review", "listing_id": lid}, {"product": "done_for_you", "listing_id": lid}],
            "billing_country": "FR"}
    key = ik()
    r = http.post("/orders/checkout", json=body, headers=owner.headers(**key))
    assert r.status_code == 201, r.text
    order = r.json()
    again = http.post("/orders/checkout", json=body, headers=owner.headers(**key))
    assert again.status_code == 201 and again.json()["number"] == order["number"]  # the same key replays
    number = order["number"]
    assert order["status"] == "pending" and len(number) <= 32 and order["checkout_url"].startswith(live.url)
    assert order["vat"]["treatment"] == "standard" and order["vat"]["rate_bp"] == 2000
    assert [line["fulfilled"] for line in order["lines"]] == [False] * 6
    listed = http.get("/orders", headers=owner.headers()).json()
    assert listed["items"][0]["number"] == number
    stranger = person(live, SCOPES)
    assert http.get(f"/orders/{number}", headers=stranger.headers()).status_code == 404
    assert http.get("/orders/NOPE-NOPE", headers=owner.headers()).status_code == 404
    assert problem(http.get("/orders/" + "X" * 33, headers=owner.headers()))[1] == "max_length"

    with httpx.Client(timeout=15, follow_redirects=False) as web:
        page = web.get(order["checkout_url"])
        assert page.status_code == 200 and "Test mode" in page.text and number in page.text
        base = order["checkout_url"]
        r = web.post(base + "/billing", data={"name": "Acme SAS", "country": "FR", "address": "Paris",
                                              "vat_number": "FR40303265045"})
        assert r.status_code == 303
        page = web.get(base)
        assert "reverse charge" in page.text
        r = web.post(base + "/pay")
        assert r.status_code == 303 and r.headers["location"].endswith("/test-pay")
        assert "no money moves" in web.get(r.headers["location"]).text
        assert web.post(base + "/test-pay").status_code == 303
        assert "Paid" in web.get(base).text
        assert web.get(base.rsplit("/", 1)[0] + "/nope.nope").status_code == 404

    doc = wait_status(http, owner, number, "paid")
    assert doc["status"] in ("paid", "fulfilled") and doc["total_cents"] == doc["subtotal_cents"]  # reverse charge
    assert doc["checkout_url"] is None and doc["invoice_url"]
    deadline = time.monotonic() + 15
    while not all(line["fulfilled"] or line["task"] for line in doc["lines"]) and time.monotonic() < deadline:
        time.sleep(0.05)
        doc = http.get(f"/orders/{number}", headers=owner.headers()).json()
    lines = {line["product"]: line for line in doc["lines"]}
    assert all(lines[p]["fulfilled"] for p in ("launch", "featured", "extra_categories", "billboard_min", "ai_review"))
    assert lines["done_for_you"]["task"] and not lines["done_for_you"]["fulfilled"]
    assert "Review of Paid Product" in lines["ai_review"]["result"]["review"]
    mine = http.get(f"/me/listings/{lid}", headers=owner.headers()).json()
    deadline = time.monotonic() + 15
    while "ai" not in str(mine["categories"]) and time.monotonic() < deadline:  # listing_view may trail orders_view
        time.sleep(0.05)
        mine = http.get(f"/me/listings/{lid}", headers=owner.headers()).json()
    assert mine["status"] == "live" and mine["plan"] == "paid"
    assert {"story", "milestones", "media"} <= set(mine["unlocked_sections"])
    assert "ai" in str(mine["categories"])
    review = mine["profile_review"]  # get_my_listing shows the review: its text, when and how it was made
    assert review["text"] == lines["ai_review"]["result"]["review"] and review["order_number"] == number
    assert review["made_by"] == "rules" and review["written_at"] == lines["ai_review"]["fulfilled_at"]
    pdf = httpx.get(doc["invoice_url"], timeout=15)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF") and pdf.headers["content-type"] == "application/pdf"
    assert re.fullmatch(r"\d{4}-\d{6}", doc["invoice_number"])


def test_a_quote_a_checkout_and_the_order_agree_on_currency_and_vat_rates(live: RunningServer, http: httpx.Client,
                                                                          owner: Person) -> None:
    lid = new_listing(live, owner, "Agreeing")
    body = {"items": [{"product": "launch", "listing_id": lid}], "billing_country": "DE"}
    quote = http.post("/orders/quote", json=body, headers=owner.headers()).json()
    placed = http.post("/orders/checkout", json=body, headers=owner.headers(**ik()))
    assert placed.status_code == 201, placed.text
    order = http.get(f"/orders/{placed.json()['number']}", headers=owner.headers()).json()
    currencies = {p["currency"] for p in http.get("/products").json()["items"]}
    assert quote["currency"] == placed.json()["currency"] == order["currency"] == "USD" and currencies == {"USD"}
    assert quote["vat"]["rates_valid_from"] == placed.json()["vat"]["rates_valid_from"] \
        == order["vat"]["rates_valid_from"] is not None  # the rates table the order was taxed by
