"""Several mistakes, one answer: the order body (REST, MCP and the order form), the checkout's billing form and the
draft editor name every broken field at once, each next to its field, never the first one only.

A mistake the schema finds (a VAT number too long, an amount that is no number, a year that is no year) and
mistakes only the domain's rules can find (an unknown category, a week that is no launch week, an amount below
the billboard minimum, a VAT number whose check digits fail, a competitor URL on a private address) come back in
the same 400.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

from tests.conftest import RunningServer
from tests.e2e.founder_support_listings import WIDTHS, axe_violations, sign_in, wider_than_the_screen
from tests.e2e.submission_support import PASSWORD, Person, ik, person, saved_listing
from tests.e2e.test_my_listings_mcp import client
from tests.e2e.test_orders_rest import SCOPES, new_listing
from tests.fixtures.drafting_sites import serve

BAD_VAT = "DE136695977"  # the check digits fail


def fields_and_rules(r: httpx.Response | dict[str, Any]) -> set[tuple[str, str]]:
    body = r if isinstance(r, dict) else r.json()
    return {(e["field"], e["rule"]) for e in body["errors"]}


@pytest.fixture(scope="module")
def owner(live: RunningServer) -> Person:
    return person(live, SCOPES, password=PASSWORD)


def _order(lid: int) -> dict[str, Any]:
    """Three lines with a mistake each that only the pricing rules see."""
    return {"items": [
        {"product": "billboard_min", "listing_id": lid, "amount_cents": 5},  # below the minimum
        {"product": "extra_categories", "listing_id": lid, "categories": ["no-such-category"]},
        {"product": "launch", "listing_id": lid, "week": "2026-01-06"},  # a Tuesday, and past
    ], "billing_country": "DE"}


RULE_MISTAKES = {("items.0.amount_cents", "minimum"), ("items.1.categories", "enum"), ("items.2.week", "format_week")}


def test_quote_and_checkout_name_every_mistake_of_the_body_at_once(live: RunningServer, http: httpx.Client,
                                                                  owner: Person) -> None:
    lid = new_listing(live, owner, "Many Mistakes")
    body = _order(lid)
    r = http.post("/orders/quote", json=body | {"vat_number": BAD_VAT}, headers=owner.headers())
    assert r.status_code == 400 and r.headers["content-type"] == "application/problem+json"
    assert fields_and_rules(r) == RULE_MISTAKES | {("vat_number", "check_digits")}
    assert r.json()["detail"].startswith("invalid value for: ")
    # a mistake of the schema (a VAT number longer than 32) joins the rules' mistakes in the same 400
    r = http.post("/orders/quote", json=body | {"vat_number": "X" * 33}, headers=owner.headers())
    assert fields_and_rules(r) == RULE_MISTAKES | {("vat_number", "max_length")}
    # an item the schema refuses is checked without the refused property; the others as they are
    schema_and_rules = {**body, "items": [{**body["items"][0], "amount_cents": "lots"}, *body["items"][1:]]}
    r = http.post("/orders/quote", json=schema_and_rules, headers=owner.headers())
    assert fields_and_rules(r) == {("items.0.amount_cents", "type_integer"), ("items.1.categories", "enum"),
                                   ("items.2.week", "format_week")}
    before = http.get("/orders", headers=owner.headers()).json()["total"]
    r = http.post("/orders/checkout", json=body | {"vat_number": BAD_VAT}, headers=owner.headers(**ik()))
    assert r.status_code == 400 and fields_and_rules(r) == RULE_MISTAKES | {("vat_number", "check_digits")}
    r = http.post("/orders/checkout", json=schema_and_rules, headers=owner.headers(**ik()))
    assert r.status_code == 400 and ("items.1.categories", "enum") in fields_and_rules(r)
    assert http.get("/orders", headers=owner.headers()).json()["total"] == before  # nothing was placed


async def test_mcp_answers_the_same_problem_with_every_mistake(live: RunningServer, owner: Person) -> None:
    lid = new_listing(live, owner, "Agent Mistakes")
    body = _order(lid) | {"vat_number": "X" * 33}
    async with client(live, owner) as c:
        refused = await c.call_tool("quote_order", body)
    assert refused.is_error is True
    rest = httpx.post(f"{live.url}/api/v1/orders/quote", json=body, headers=owner.headers(), timeout=15).json()
    assert refused.structured_content == rest
    assert fields_and_rules(rest) == RULE_MISTAKES | {("vat_number", "max_length")}


def _ready_draft(http: httpx.Client, who: Person, site: str) -> str:
    with serve(site) as server:
        r = http.post("/drafts", json={"url": server.url("/")}, headers=who.headers(**ik()))
        assert r.status_code == 201, r.text
        draft_id = str(r.json()["id"])
        deadline = time.monotonic() + 60
        while (d := http.get(f"/drafts/{draft_id}", headers=who.headers()).json())["status"] not in ("ready", "failed"):
            assert time.monotonic() < deadline, d["status"]
            time.sleep(0.1)
    assert d["status"] == "ready", d
    return draft_id


def test_update_draft_names_the_schema_and_the_domain_mistakes_together(http: httpx.Client, owner: Person) -> None:
    draft_id = _ready_draft(http, owner, "devtool")
    before = http.get(f"/drafts/{draft_id}", headers=owner.headers()).json()
    edit = {"fields": {"founded_year": "19x9", "categories": ["No Such Category", "Developer Tools"]},
            "competitor_url": "http://192.168.1.1/"}
    r = http.patch(f"/drafts/{draft_id}", json=edit, headers=owner.headers(**ik()))
    assert r.status_code == 400, r.text
    assert fields_and_rules(r) == {("fields.founded_year", "pattern"), ("fields.categories.0", "enum"),
                                   ("competitor_url", "private_address")}
    # without the schema's mistake: the categories and the competitor URL still come back together
    r = http.patch(f"/drafts/{draft_id}", json={**edit, "fields": {"categories": ["No Such Category"],
                                                                    "tagline": "Kept?"}},
                   headers=owner.headers(**ik()))
    assert r.status_code == 400
    assert fields_and_rules(r) == {("fields.categories.0", "enum"), ("competitor_url", "private_address")}
    after = http.get(f"/drafts/{draft_id}", headers=owner.headers()).json()
    assert after["fields"]["tagline"] == before["fields"]["tagline"]  # a refused edit stores nothing


def test_the_order_form_shows_every_mistake_next_to_its_field(live: RunningServer, http: httpx.Client,
                                                             chromium: Any, owner: Person) -> None:
    listing_id = saved_listing(http, owner, "devtool")
    context = chromium.new_context()
    page = context.new_page()
    try:
        sign_in(page, live.url, owner.email, PASSWORD)
        page.goto(f"{live.url}/my/listings/{listing_id}/order")
        page.get_by_label(re.compile("^Billboard,")).check()
        page.get_by_label("Amount in dollars").fill("a lot")  # the schema's mistake
        page.get_by_label(re.compile("^Extra categories,")).check()
        extra = page.get_by_role("group", name=re.compile("^Extra categories \\("))  # the rules' mistake: 4 of 3
        for name in ("AI & Machine Learning", "Finance", "Design", "Analytics"):
            extra.get_by_label(name, exact=True).check()
        page.get_by_label("Billing country").select_option("DE")
        page.get_by_label("EU VAT number").fill(BAD_VAT)  # the VAT rules' mistake
        with page.expect_response(lambda r: r.url.endswith("/order")) as answer:
            page.get_by_role("button", name="See the quote").click()
        assert answer.value.status == 400
        for name in ("amount-billboard_min", "categories-extra_categories", "vat_number"):
            assert page.locator(f'[id="{name}-error"]').is_visible(), name
        for name in ("amount-billboard_min", "vat_number", "categories-extra_categories-finance"):
            assert page.locator(f'[id="{name}"]').get_attribute("aria-invalid") == "true", name
        assert page.locator('[id="categories-extra_categories"]').get_attribute("aria-describedby") == (
            "categories-extra_categories-error")  # the boxes' group: they are categories by name now
        assert "up to 3" in page.locator('[id="categories-extra_categories-error"]').inner_text().lower()
        assert "check digits" in page.locator('[id="vat_number-error"]').inner_text()
        summary = page.get_by_role("alert").inner_text()
        assert "Amount in dollars" in summary and "Extra categories" in summary and "EU VAT number" in summary
        assert axe_violations(page) == []
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=f"/tmp/order-form-errors-{width}.png", full_page=True)
            assert wider_than_the_screen(page) == []
    finally:
        context.close()


def test_the_draft_editor_shows_every_mistake_next_to_its_field(live: RunningServer, http: httpx.Client,
                                                               chromium: Any, owner: Person) -> None:
    draft_id = _ready_draft(http, owner, "devtool")
    context = chromium.new_context()
    page = context.new_page()
    try:
        sign_in(page, live.url, owner.email, PASSWORD, then=f"/drafts/{draft_id}")
        page.locator('[id="fields.founded_year"]').fill("19x9")  # the schema's mistake
        page.locator('[id="fields.categories"]').evaluate(  # the catalogue's: a menu now, so a page gone stale
            "(menu, name) => { menu.add(new Option(name, name)); menu.value = name; }", "No Such Category")
        page.locator('[id="fields.country"]').fill("Germany")  # the schema's again
        with page.expect_response(lambda r: r.url.endswith(f"/drafts/{draft_id}")) as answer:
            page.get_by_role("button", name="Save changes").click()
        assert answer.value.status == 400
        for name in ("fields.founded_year", "fields.categories", "fields.country"):
            assert page.locator(f'[id="{name}-error"]').is_visible(), name
        assert "No Such Category" in page.locator('[id="fields.categories-error"]').inner_text()
        assert axe_violations(page) == []
        page.screenshot(path="/tmp/draft-editor-errors-1280.png", full_page=False)
    finally:
        context.close()


def test_the_billing_form_names_the_vat_number_with_the_other_mistakes(live: RunningServer, http: httpx.Client,
                                                                      owner: Person) -> None:
    """Posted as a browser that does not check `required` itself: a missing name and a VAT number whose check
    digits fail are both said, each beside its field (the VAT number was said only once the name was given)."""
    lid = new_listing(live, owner, "Billing Mistakes")
    placed = http.post("/orders/checkout", json={"items": [{"product": "launch", "listing_id": lid}]},
                       headers=owner.headers(**ik()))
    assert placed.status_code == 201, placed.text
    url = placed.json()["checkout_url"]
    r = httpx.post(url + "/billing", data={"name": "", "country": "DE", "address": "", "vat_number": BAD_VAT},
                   timeout=15)
    assert r.status_code == 400
    assert 'id="name-error"' in r.text and 'id="vat_number-error"' in r.text
    assert "check digits" in r.text.split('id="vat_number-error"', 1)[1].split("</p>", 1)[0]
    r = httpx.post(url + "/billing", data={"name": "Ada", "country": "Germany", "address": "", "vat_number": BAD_VAT},
                   timeout=15)
    assert r.status_code == 400 and 'id="country-error"' in r.text  # no country to check the number against


def test_the_live_requote_names_both_of_its_fields(live: RunningServer, http: httpx.Client, owner: Person) -> None:
    lid = new_listing(live, owner, "Requote Mistakes")
    placed = http.post("/orders/checkout", json={"items": [{"product": "launch", "listing_id": lid}]},
                       headers=owner.headers(**ik()))
    r = httpx.post(placed.json()["checkout_url"] + "/quote", data={"country": "Germany", "vat_number": "X" * 33},
                   timeout=15)
    assert r.status_code == 400 and fields_and_rules(r) == {("country", "format"), ("vat_number", "max_length")}


def test_answer_interview_names_a_long_answer_and_an_unknown_question_together(http: httpx.Client,
                                                                               owner: Person) -> None:
    question = http.get("/interview-questions").json()["items"][0]["id"]
    body = {"answers": [{"question_id": question, "answer": "x" * 4001}, {"question_id": 999999, "answer": "Hi"},
                        {"question_id": question, "answer": "Twice"}]}
    r = http.put("/me/interview", json=body, headers=owner.headers(**ik()))
    assert r.status_code == 400
    assert fields_and_rules(r) == {("answers.0.answer", "max_length"), ("answers.1.question_id", "enum"),
                                   ("answers.2.question_id", "unique")}
