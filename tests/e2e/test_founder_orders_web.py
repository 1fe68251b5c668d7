"""Buying from the browser, and the staff's orders and prices pages, against a real server.

A founder opens the order form of a listing saved through the API, meets the
API's field-level messages on bad input, sees the quote with VAT (the same
figures quote_order answers over REST), goes to checkout, pays on the test
payment page and finds the order paid and the listing scheduled. A second
person gets 404 on the order. Staff reach every staff page from the
navigation, see the order, and set a price with the form. The quote, the
checkout and the order page say what each line is for, and money in dollars.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import httpx

from aggregates.base import Meta
from events.week_names import week_name
from api.web_founder_pages import money
from commands import account as account_cmd
from queries import mail as mail_q
from tests.conftest import RunningServer
from tests.e2e.founder_support_listings import (
    axe_violations,
    buy_launch,
    csrf_of,
    reload_until,
    screenshots,
    sign_in,
    signed_in_client,
)
from tests.e2e.submission_support import PASSWORD, person, saved_listing
from tests.e2e.test_orders_rest import new_listing

API = "/api/v1"
SCOPES = ("account:read", "listings:write", "orders:write")
SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS") or tempfile.mkdtemp(prefix="founder-shots-"))


def _founder_mails(live: RunningServer, address: str) -> list[dict[str, Any]]:
    """The founder's notice mails in the outbox, oldest first, once both notices are there (or 15 s)."""
    c: Any = live.container
    deadline = time.monotonic() + 15
    while True:
        c.runtime.wait_for(["mail_view"], c.store.position(), timeout=5)
        mails = [m for m in mail_q.outbox(c.services.reads, to=address) if m["kind"].startswith("notice_")]
        if len(mails) >= 2 or time.monotonic() > deadline:
            return mails[::-1]
        time.sleep(0.1)


def test_buy_a_launch_in_the_browser_and_see_the_listing_scheduled(live: RunningServer, http: httpx.Client,
                                                                   chromium: Any) -> None:
    base = live.url
    who, other = person(live, SCOPES, password=PASSWORD), person(live, password=PASSWORD)
    listing_id = saved_listing(http, who, "devtool")
    context = chromium.new_context()
    page = context.new_page()
    try:
        sign_in(page, base, who.email, PASSWORD)
        page.goto(f"{base}/my/listings/{listing_id}/order")
        # products the listing cannot take now say so before anything is chosen (a saved, unlaunched listing)
        said = page.locator("#product-skip_queue-not-now").inner_text()
        assert "Skip the queue moves a free listing" in said and "skip_queue" not in said  # the name people read
        assert "for listings that are live" in page.locator("#product-relaunch-not-now").inner_text()
        assert page.locator("#product-launch-not-now").count() == 0  # a launch is what it can take
        with page.expect_response(lambda r: r.url.endswith("/order")) as answer:
            page.get_by_role("button", name="See the quote").click()
        assert answer.value.status == 400 and page.locator("#products-error").is_visible()  # nothing chosen
        assert page.locator("#products-error").inner_text().endswith("Choose at least one product.")
        alert = page.get_by_role("alert")  # names the field and links to it; the message is said by the field only
        assert alert.get_by_role("link", name="What to buy").get_attribute("href") == "#products"
        assert "Choose at least one product." not in alert.inner_text()
        page.get_by_label(re.compile("^Billboard,")).check()
        page.get_by_label("Amount in dollars").fill("5")  # below the product's minimum
        page.get_by_role("button", name="See the quote").click()
        assert page.locator("#amount-billboard_min-error").is_visible()
        assert page.get_by_label("Amount in dollars").get_attribute("aria-invalid") == "true"
        page.get_by_label(re.compile("^Billboard,")).uncheck()

        week = str(page.locator("#week-launch option").nth(2).get_attribute("value"))
        page.get_by_label(re.compile("^Launch,")).check()
        page.get_by_label("Week for Launch", exact=True).select_option(week)
        page.get_by_label("Billing country").select_option("DE")
        page.get_by_role("button", name="See the quote").click()
        body = {"items": [{"product": "launch", "listing_id": listing_id, "week": week}], "billing_country": "DE"}
        api_quote = http.post("/orders/quote", json=body, headers=who.headers()).json()
        assert page.locator("#quote-vat").inner_text() == money(api_quote["vat"]["amount_cents"])
        assert page.locator("#quote-total").inner_text() == money(api_quote["total_cents"])
        assert api_quote["vat"]["amount_cents"] > 0
        assert axe_violations(page) == []  # the form with its quote

        number = buy_launch(page, base, listing_id, week)
        assert "Paid" in page.locator("#status").inner_text()
        page.goto(f"{base}/my/orders")
        page.get_by_role("link", name=number).click()
        reload_until(page, f"{base}/my/orders/{number}", "#order-status", ("Paid", "Delivered"))
        assert page.get_by_role("link", name=re.compile("^Invoice")).count() == 1
        reload_until(page, f"{base}/my/listings/{listing_id}", "#listing-status", (f"Scheduled for the week of {week_name(week)}",))
        assert week_name(week) in page.locator("#listing-week").inner_text()
        assert page.locator("#listing-plan").inner_text().strip() == "Paid"
        reload_until(page, f"{base}/my/orders/{number}", "#order-status", ("Delivered",))
        assert "done" in page.locator("#line-0 .fulfilment").inner_text()
        mails = _founder_mails(live, who.email)  # a receipt, then the launch week, by mail
        assert [m["kind"] for m in mails] == ["notice_paid", "notice_scheduled"]
        invoice = http.get(f"/orders/{number}", headers=who.headers()).json()["invoice_number"]
        assert f"Invoice {invoice}, and what each line has done: {base}/my/orders/{number}" in mails[0]["text"]
        assert mails[1]["subject"].endswith(f"in {week_name(week, 'long', plain=True)}")
        assert axe_violations(page) == []
        shots = screenshots(page, f"{base}/my/orders/{number}", SHOTS, "order")
        shots += screenshots(page, f"{base}/my/listings/{listing_id}/order", SHOTS, "order-form")
        assert all(p.stat().st_size > 0 for p in shots)
    finally:
        context.close()

    with closing(signed_in_client(base, other.email, PASSWORD)) as stranger:
        assert stranger.get(f"/my/orders/{number}").status_code == 404
        assert stranger.get("/my/orders/no-such-order").status_code == 404
        assert number not in stranger.get("/my/orders").text
        assert stranger.get("/staff/orders").status_code == 403
        assert stranger.get("/staff/prices").status_code == 403

    staff = person(live, password=PASSWORD)
    c: Any = live.container
    position = account_cmd.grant_staff(c.store, staff.email, Meta(at=datetime.now(timezone.utc), actor="staff:test",
                                                                  channel="cli"))
    assert c.runtime.wait_for(["accounts_view"], position, timeout=10)
    with closing(signed_in_client(base, staff.email, PASSWORD)) as desk:
        home = desk.get("/staff").text
        for link in ("/staff/review", "/staff/audit", "/staff/claims", "/staff/orders", "/staff/votes",
                     "/staff/prices", "/staff/outbox", "/staff/history"):
            assert f'"{link}"' in home, link
        assert number in desk.get("/staff/orders").text
        prices = desk.get("/staff/prices")
        bad = desk.post("/staff/prices", data={"csrf_token": csrf_of(prices.text), "code": "ai_review", "price": "lots"})
        assert bad.status_code == 400 and 'id="price-error"' in bad.text
        done = desk.post("/staff/prices", data={"csrf_token": csrf_of(prices.text), "code": "ai_review", "price": "17.50"})
        assert done.status_code == 303
        assert "$17.50" in desk.get("/staff/prices").text
        listed = http.get("/products").json()["items"]
        assert next(p["price_cents"] for p in listed if p["code"] == "ai_review") == 1750
        found = desk.get("/staff/history", params={"listing": "devtool"})
        assert found.status_code == 303 and found.headers["location"] == "/staff/listings/devtool/history"


def _for_cells(page: Any, table: str) -> dict[str, str]:
    """Product -> its "For" cell, read from a table whose header has Product and For columns."""
    heads = [h.strip() for h in page.locator(f"{table} thead th").all_inner_texts()]
    product, purpose = heads.index("Product"), heads.index("For")
    rows = page.locator(f"{table} tbody tr")
    return {rows.nth(i).locator("td").nth(product).inner_text().strip():
            rows.nth(i).locator("td").nth(purpose).inner_text().strip() for i in range(rows.count())}


def test_each_line_says_what_it_is_for_and_money_is_in_dollars(live: RunningServer, http: httpx.Client,
                                                               chromium: Any) -> None:
    base = live.url
    who = person(live, SCOPES, password=PASSWORD)
    listing_id = new_listing(live, who, "Quokka Notes")
    minimum = next(p["price_cents"] for p in http.get("/products").json()["items"] if p["code"] == "billboard_min")
    context = chromium.new_context()
    page = context.new_page()
    try:
        sign_in(page, base, who.email, PASSWORD)
        page.goto(f"{base}/my/listings/{listing_id}/order")
        page.get_by_label(re.compile("^Launch,")).check()
        page.get_by_label(re.compile("^Billboard,")).check()
        page.get_by_label("Amount in dollars").fill("0.05")
        page.get_by_role("button", name="See the quote").click()
        assert page.locator("#amount-billboard_min-error").inner_text().endswith(
            f"The billboard minimum is {money(minimum)}.")  # not the API's cents
        page.get_by_label("Amount in dollars").fill("0")
        page.get_by_role("button", name="See the quote").click()
        assert page.locator("#amount-billboard_min-error").inner_text().endswith(
            f"The billboard minimum is {money(minimum)}.")
        amount = minimum + 250
        page.get_by_label("Amount in dollars").fill(f"{amount / 100:.2f}")
        page.get_by_role("button", name="See the quote").click()
        wanted = {"Launch": "Quokka Notes, live at once", "Billboard": f"Quokka Notes, {money(amount)} on the billboard"}
        assert _for_cells(page, "#quote table") == wanted
        page.get_by_role("button", name="Go to checkout").click()
        page.wait_for_url(re.compile(r"/checkout/"))
        number = str(page.url.rsplit("/", 1)[-1].split(".")[0])
        assert _for_cells(page, "main table") == wanted
        page.get_by_label("Name or company").fill("Ada Founder")
        page.get_by_label("Country", exact=True).select_option("US")
        page.get_by_role("button", name="Save billing details").click()
        page.locator("#pay").click()
        page.locator("#confirm").click()
        page.wait_for_url(re.compile(r"/checkout/[^/]+$"))
        reload_until(page, f"{base}/my/orders/{number}", "#order-status", ("Delivered",))
        assert _for_cells(page, "main table") == wanted
        assert page.get_by_role("link", name="Quokka Notes").count() == 2  # to the listing's own page
        billboard = page.locator("tbody tr").filter(has_text="Billboard").locator(".fulfilment").inner_text()
        assert f"{money(amount)} added to the billboard" in billboard
        assert "cents" not in page.locator("main").inner_text()
    finally:
        context.close()
