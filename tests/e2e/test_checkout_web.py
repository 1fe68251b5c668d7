"""The checkout page's live re-quote in Chromium: as the person types the billing country and VAT number, the
VAT and total follow (the page's JSON endpoint runs the same VAT code as quote_order); without JavaScript,
saving the billing details re-quotes on the server; a refused update says nothing was saved, which details the
totals are for, each message at its field, and offers no Pay; the header knows who is signed in and the test mode
note ends with payment; the endpoint's refusals over plain HTTP; axe on the page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.web_checkout import money
from tests.conftest import RunningServer
from tests.e2e.founder_support_listings import axe_violations, sign_in
from tests.e2e.submission_support import PASSWORD, Person, ik, person
from tests.e2e.test_orders_rest import SCOPES, new_listing, problem
from tests.e2e.website_support import offline

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = Path("/tmp/shots")
ITEMS = [{"product": "launch"}, {"product": "ai_review"}]


@pytest.fixture(scope="module")
def owner(live: RunningServer) -> Person:
    return person(live, SCOPES)


def _body(lid: int, **billing: str) -> dict[str, Any]:
    return {"items": [{**item, "listing_id": lid} for item in ITEMS], **billing}


def _checkout(live: RunningServer, http: httpx.Client, owner: Person, name: str) -> tuple[int, dict[str, Any]]:
    lid = new_listing(live, owner, name)
    r = http.post("/orders/checkout", json=_body(lid), headers=owner.headers(**ik()))
    assert r.status_code == 201, r.text
    return lid, r.json()


def _quoted(http: httpx.Client, owner: Person, lid: int, **billing: str) -> dict[str, Any]:
    """What quote_order answers for the same items and billing: the figures the page must show."""
    r = http.post("/orders/quote", json=_body(lid, **billing), headers=owner.headers())
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def _shows(page: Any, label: str, quote: dict[str, Any]) -> None:
    page.wait_for_function("([l, t]) => document.getElementById('vat-label').textContent.trim() === l && "
                           "document.getElementById('total').textContent.trim() === t",
                           arg=[label, money(quote["total_cents"])])
    assert page.locator("#vat").inner_text().strip() == money(quote["vat"]["amount_cents"])


def test_vat_and_total_follow_the_country_chosen_and_the_vat_number_typed(live: RunningServer, http: httpx.Client,
                                                                          owner: Person, chromium: Any) -> None:
    lid, order = _checkout(live, http, owner, "Live Quote")
    context = chromium.new_context()
    offline(context)
    page = context.new_page()
    try:
        page.goto(order["checkout_url"])
        assert page.locator("#vat-label").inner_text().strip() == "VAT decided once you enter your country"
        country, number = page.get_by_label("Country", exact=True), page.get_by_label("VAT number", exact=False)
        country.select_option("DE")
        _shows(page, "VAT 19 % (Germany)", _quoted(http, owner, lid, billing_country="DE"))
        country.select_option("FR")
        _shows(page, "VAT 20 % (France)", _quoted(http, owner, lid, billing_country="FR"))
        number.press_sequentially("FR40303265045")
        reverse = _quoted(http, owner, lid, billing_country="FR", vat_number="FR40303265045")
        _shows(page, "VAT reverse charge (0 %)", reverse)
        assert reverse["total_cents"] == reverse["subtotal_cents"]
        assert "Reverse charge" in page.locator("#vat-note").inner_text()
        number.fill("FR40303265046")  # a wrong check digit: the field's message, the last good figures stay
        page.wait_for_function("() => document.getElementById('requote-error').textContent"
                               ".includes('fails its check digits')")
        assert page.locator("#vat-label").inner_text().strip() == "VAT reverse charge (0 %)"
        number.fill("")
        country.select_option("US")
        page.wait_for_function("() => document.getElementById('requote-error').textContent === ''")
        _shows(page, "VAT outside the scope of EU VAT (0 %)", _quoted(http, owner, lid, billing_country="US"))
        live.container.runtime.catch_up("orders_view")
        stored = http.get(f"/orders/{order['number']}", headers=owner.headers()).json()
        assert stored["vat"]["treatment"] == "not_determined"  # typing stores nothing
        country.select_option("IE")
        _shows(page, "VAT 23 % (Ireland)", _quoted(http, owner, lid, billing_country="IE"))
        page.get_by_label("Name or company").fill("Ada Byrne")
        page.get_by_role("button", name="Save billing details").click()
        page.get_by_role("button", name=f"Pay {money(_quoted(http, owner, lid, billing_country='IE')['total_cents'])}"
                         ).wait_for()
        live.container.runtime.catch_up("orders_view")
        stored = http.get(f"/orders/{order['number']}", headers=owner.headers()).json()
        assert (stored["vat"]["treatment"], stored["vat"]["country"]) == ("standard", "IE")
        SHOTS.mkdir(parents=True, exist_ok=True)
        for width in (390, 1440):
            page.set_viewport_size({"width": width, "height": 1000})
            page.screenshot(path=str(SHOTS / f"checkout-{width}.png"), full_page=True)
            assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        context.close()


def test_the_checkout_names_the_listing_and_starts_from_the_country_of_the_order(live: RunningServer,
                                                                                 http: httpx.Client, owner: Person) -> None:
    lid = new_listing(live, owner, "Named Listing")
    r = http.post("/orders/checkout", json=_body(lid, billing_country="DE"), headers=owner.headers(**ik()))
    assert r.status_code == 201, r.text
    page = httpx.get(r.json()["checkout_url"]).text
    assert page.count("<td>Named Listing") == len(ITEMS) and f"listing {lid}" not in page  # each line names it
    assert '<option value="DE" selected>Germany</option>' in page  # chosen on the order form: not asked again
    assert 'id="vat-label">VAT 19 % (Germany)</th>' in page  # the VAT row says the country (no second note)
    site = http.get("/site").json()["name"]
    assert f"· checkout · {site}</title>" in page  # titled with the site's own name, as every page is


def test_without_javascript_saving_the_billing_details_re_quotes(live: RunningServer, http: httpx.Client,
                                                                owner: Person, chromium: Any) -> None:
    lid, order = _checkout(live, http, owner, "No Script")
    context = chromium.new_context(java_script_enabled=False)
    offline(context)
    page = context.new_page()
    try:
        page.goto(order["checkout_url"])
        page.get_by_label("Name or company").fill("Jean Martin")
        page.get_by_label("Country", exact=True).select_option("FR")
        assert page.locator("#vat-label").inner_text().strip() == "VAT decided once you enter your country"
        page.get_by_role("button", name="Save billing details").click()
        page.get_by_role("button", name="Update billing details").wait_for()
        quote = _quoted(http, owner, lid, billing_country="FR")
        assert page.locator("#vat-label").inner_text().strip() == "VAT 20 % (France)"
        assert page.locator("#total").inner_text().strip() == money(quote["total_cents"])
    finally:
        context.close()


def _update(page: Any, status: int) -> None:
    """Press the billing form's button and check the answer's status."""
    with page.expect_response(lambda r: r.url.endswith("/billing")) as answer:
        page.get_by_role("button", name=re.compile("billing details$")).click()
    assert answer.value.status == status


def test_a_refused_billing_update_says_nothing_was_saved_and_offers_no_pay(live: RunningServer, http: httpx.Client,
                                                                           owner: Person, chromium: Any) -> None:
    _lid, order = _checkout(live, http, owner, "Quokka Notes")
    context = chromium.new_context()
    offline(context)
    page = context.new_page()
    try:
        page.goto(order["checkout_url"])
        name, country = page.get_by_label("Name or company"), page.get_by_label("Country", exact=True)
        number = page.get_by_label("VAT number", exact=False)
        name.fill("Tallyfox Ltd")
        country.select_option("IE")
        _update(page, 303)
        pay = page.get_by_role("button", name=re.compile(r"^Pay \$"))
        pay.wait_for()
        saved_total = page.locator("#total").inner_text().strip()
        assert page.locator("#totals-for").inner_text() == "Totals for the saved billing details: Tallyfox Ltd, Ireland."
        name.fill("Changed Name GmbH")
        pay.wait_for(state="hidden")  # a change not saved yet: Pay waits for it
        assert "not saved yet" in page.locator("#pay-wait").inner_text()
        country.select_option("DE")
        number.fill("DE123456789")  # its check digits do not hold
        _update(page, 400)
        summary = page.get_by_role("alert")
        assert "Your billing details were not saved" in summary.inner_text()
        assert "still those of the saved billing details (Tallyfox Ltd, Ireland)" in summary.inner_text()
        message = page.locator("#vat_number-error")
        assert "The VAT number DE123456789 fails its check digits" in message.inner_text()
        assert number.get_attribute("aria-invalid") == "true"
        assert "vat_number-error" in str(number.get_attribute("aria-describedby")).split()
        assert page.locator("#vat-label").inner_text().strip() == "VAT 23 % (Ireland)"  # the saved figures, said so
        assert page.locator("#total").inner_text().strip() == saved_total
        assert "not for the form below" in page.locator("#totals-for").inner_text()
        assert page.locator("#pay").count() == 0 and "Pay is offered once" in page.locator("#pay-wait").inner_text()
        assert (name.input_value(), number.input_value()) == ("Changed Name GmbH", "DE123456789")  # to correct
        assert axe_violations(page) == []
        number.fill("DE1234")  # too short: a format error, told apart from the check digits
        _update(page, 400)
        assert "does not have the format of a VAT number of Germany" in page.locator("#vat_number-error").inner_text()
        name.fill("")
        page.locator("form[data-requote]").evaluate("f => f.noValidate = true")  # the server's own check too
        _update(page, 400)
        assert page.locator("#name-error").inner_text().endswith("Enter your name or your company's name.")
        assert name.get_attribute("aria-describedby") == "name-error"
        page.get_by_role("link", name="keep the saved details").click()
        pay.wait_for()
        assert (name.input_value(), country.input_value()) == ("Tallyfox Ltd", "IE")
        live.container.runtime.catch_up("orders_view")
        stored = http.get(f"/orders/{order['number']}", headers=owner.headers()).json()
        assert (stored["vat"]["country"], money(stored["total_cents"])) == ("IE", saved_total)
    finally:
        context.close()


def test_the_header_knows_who_is_signed_in_and_the_test_mode_note_ends_with_payment(
        live: RunningServer, http: httpx.Client, chromium: Any) -> None:
    who = person(live, SCOPES, password=PASSWORD)
    lid = new_listing(live, who, "Signed In")
    r = http.post("/orders/checkout", json=_body(lid), headers=who.headers(**ik()))
    assert r.status_code == 201, r.text
    url = r.json()["checkout_url"]
    path = url.removeprefix(live.url)
    assert f'href="/signin?next={path}">Sign in</a>' in httpx.get(url).text  # nobody signed in; it comes back here
    context = chromium.new_context()
    offline(context)
    page = context.new_page()
    try:
        sign_in(page, live.url, who.email, PASSWORD)
        page.goto(url)
        mine = page.get_by_role("navigation", name="Your account")
        assert mine.get_by_role("link", name="Account").count() == 1
        assert mine.get_by_role("link", name="Sign in").count() == 0
        assert page.get_by_role("note").filter(has_text="Test mode").count() == 1
        page.get_by_label("Name or company").fill("Ada Byrne")
        page.get_by_label("Country", exact=True).select_option("US")
        page.get_by_role("button", name="Save billing details").click()
        page.locator("#pay").click()
        page.locator("#confirm").click()  # the test payment page
        page.wait_for_url(re.compile(r"/checkout/[^/]+$"))
        assert "Paid" in page.locator("#status").inner_text()
        assert page.get_by_text("Test mode").count() == 0  # paid: no Pay button left to explain
        assert mine.get_by_role("link", name="Account").count() == 1
    finally:
        context.close()


def test_the_quote_endpoint_answers_problems_naming_the_field(live: RunningServer, http: httpx.Client,
                                                             owner: Person) -> None:
    _lid, order = _checkout(live, http, owner, "Endpoint")
    url = order["checkout_url"] + "/quote"
    ok = httpx.post(url, data={"country": "de", "vat_number": ""}, timeout=15)
    assert ok.status_code == 200 and ok.headers["cache-control"] == "no-store"
    assert ok.json()["vat"]["treatment"] == "standard" and ok.json()["shown"]["vat_label"] == "VAT 19 % (Germany)"
    assert problem(httpx.post(url, data={"country": "DE", "vat_number": "DE136695977"}, timeout=15)) == (
        "vat_number", "check_digits")
    assert problem(httpx.post(url, data={"country": "DE", "vat_number": "FR40303265045"}, timeout=15)) == (
        "vat_number", "country")
    assert problem(httpx.post(url, data={"country": "D1"}, timeout=15)) == ("country", "format")
    assert problem(httpx.post(url, data={"country": "DE", "vat_number": "X" * 33}, timeout=15)) == (
        "vat_number", "max_length")
    wrong = order["checkout_url"].rsplit(".", 1)[0] + ".not-the-secret/quote"
    assert problem(httpx.post(wrong, data={"country": "DE"}, timeout=15), 404) == (None, None)


def test_axe_finds_no_serious_or_critical_violations_on_the_checkout_page(live: RunningServer, http: httpx.Client,
                                                                          owner: Person, chromium: Any) -> None:
    if not AXE.exists():
        pytest.skip("axe-core is not installed: npm install --prefix tests/e2e/axe")
    _lid, order = _checkout(live, http, owner, "Accessible")
    for scheme in ("light", "dark"):
        context = chromium.new_context(color_scheme=scheme)
        offline(context)
        page = context.new_page()
        try:
            page.goto(order["checkout_url"])
            page.get_by_label("VAT number", exact=False).fill("DE1")
            page.get_by_label("Country", exact=True).select_option("DE")
            page.wait_for_function("() => document.getElementById('requote-error').textContent !== ''")
            page.evaluate(AXE.read_text())  # evaluated, not a <script> the page's own policy would refuse
            result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
            bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
                   if v["impact"] in ("serious", "critical")]
            assert bad == [], (scheme, bad)
        finally:
            context.close()
