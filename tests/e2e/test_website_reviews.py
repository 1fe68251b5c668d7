"""Reviews on the website, end to end: a verified person writes and edits a review in Chromium (field errors first),
the listing page and get_listing's genuine-only rating follow; staff hide it with a reason and the rating goes back;
owners and unverified accounts are refused; axe-core finds nothing serious on a listing page with reviews."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import closing
from typing import Any
from uuid import uuid4

import httpx
import pytest

from aggregates.reviews import person_review_id
from commands import listing as listing_cmd
from tests.conftest import RunningServer
from tests.e2e.test_staff_review_web import CSRF, PASSWORD, account, now_meta, signed_in
from tests.e2e.test_website_pages import AXE
from tests.e2e.website_support import demo_server, offline

FIRST = "Set up in ten minutes; the invoices look professional and the reminders work."
SECOND = "After a month: exports are slow and support took three days to answer."


@pytest.fixture(scope="module")
def site(databases) -> Iterator[RunningServer]:  # type: ignore[no-untyped-def]
    with demo_server(databases) as running:
        yield running


def new_listing(server: RunningServer) -> tuple[int, str, str]:
    """A fresh live listing (no reviews yet) and its owner's email: (listing id, slug, owner email)."""
    c = server.container
    owner_id, owner_email = account(server, staff=False)
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": f"Reviewed {uuid4().hex[:6]}", "tagline": "Invoices for small teams",
                 "website_url": "https://reviewed.example"}, categories=["analytics"], owner_ids=[owner_id]), now_meta())
    position = listing_cmd.staff_publish(c.store, created.listing_id, now_meta())
    assert c.runtime.wait_for(["listing_view", "search_view", "updates_view", "launches_view"], position, timeout=10)
    return created.listing_id, created.slug, owner_email


def rating(server: RunningServer, slug: str) -> dict[str, Any]:
    return dict(httpx.get(f"{server.url}/api/v1/listings/{slug}").json()["community"]["rating"])


def sign_in(page: Any, server: RunningServer, email: str, next_path: str) -> None:
    page.goto(f"{server.url}/signin?next={next_path}")
    page.get_by_label("Email address").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(re.escape(next_path) + "$"))


def test_a_person_reviews_edits_and_staff_hide_it_in_chromium(site: RunningServer, chromium) -> None:  # type: ignore[no-untyped-def]
    listing_id, slug, _ = new_listing(site)
    person_id, person = account(site, staff=False)
    _, staff = account(site, staff=True)
    assert rating(site, slug) == {"average": None, "count": 0}
    context = chromium.new_context()
    offline(context)
    page = context.new_page()
    try:
        sign_in(page, site, person, f"/listings/{slug}")
        form = page.locator("form.review-form")
        form.get_by_label("Your review").fill("Too short")
        form.get_by_role("button", name="Publish your review").click()
        page.locator("#rating-error").get_by_text("Choose a rating from 1 to 5 stars.").wait_for()  # both fields say what is wrong
        page.locator("#text-error").get_by_text("Write at least 20 characters (you wrote 9).").wait_for()
        assert page.get_by_label("Your review").input_value() == "Too short"  # what was typed stays
        assert rating(site, slug) == {"average": None, "count": 0}  # nothing stored

        page.get_by_label("4 stars").check()
        page.get_by_label("Your review").fill(FIRST)
        page.get_by_role("button", name="Publish your review").click()
        page.wait_for_url(f"**/listings/{slug}?done=published#review-done")  # back at the form, with a notice
        reviews = page.locator("#reviews ol.reviews")
        assert reviews.locator("li").count() == 1 and FIRST in reviews.inner_text()
        assert "4.0 out of 5 from 1 genuine review" in page.locator("#reviews").inner_text()
        assert rating(site, slug) == {"average": 4.0, "count": 1}

        page.get_by_label("2 stars").check()  # the form now edits the same review
        page.get_by_label("Your review").fill(SECOND)
        page.get_by_role("button", name="Update your review").click()
        page.wait_for_url(f"**/listings/{slug}?done=updated#review-done")
        text = reviews.inner_text()
        assert reviews.locator("li").count() == 1 and SECOND in text and FIRST not in text and "edited" in text
        assert rating(site, slug) == {"average": 2.0, "count": 1}

        context.clear_cookies()  # the staff member signs in on the same browser
        sign_in(page, site, staff, "/staff/reviews")
        entry = page.locator(f"#review-{person_review_id(listing_id, person_id)}")
        entry.get_by_role("button", name=re.compile("^Hide the review")).click()
        page.get_by_text("Give a reason of 5 to 500 characters.").wait_for()
        assert rating(site, slug) == {"average": 2.0, "count": 1}
        entry.get_by_label("Reason").fill("Mentions a competitor's discount code")
        entry.get_by_role("button", name=re.compile("^Hide the review")).click()
        page.get_by_text("The review is hidden").wait_for()
        assert "Mentions a competitor's discount code" in entry.inner_text()
        assert rating(site, slug) == {"average": None, "count": 0}
        page.goto(f"{site.url}/listings/{slug}")
        assert SECOND not in page.locator("#reviews").inner_text()
    finally:
        context.close()


def test_owners_unverified_accounts_and_forms_without_the_token_are_refused(site: RunningServer) -> None:
    listing_id, slug, owner = new_listing(site)
    with closing(signed_in(site, owner)) as client:
        listing_page = client.get(f"/listings/{slug}")
        assert "owners cannot review their own listing" in listing_page.text and 'class="review-form' not in listing_page.text
        token = CSRF.search(listing_page.text).group(1)  # type: ignore[union-attr]
        refused = client.post(f"/listings/{slug}/review", data={"csrf_token": token, "rating": "5", "text": FIRST})
        assert refused.status_code == 409 and "cannot review their own listing" in refused.text
        no_token = client.post(f"/listings/{slug}/review", data={"rating": "5", "text": FIRST})
        assert no_token.status_code == 403
    c = site.container
    from commands import account as account_cmd

    email = f"unverified-{uuid4().hex[:8]}@example.com"
    registered = account_cmd.register_account(c.store, account_cmd.RegisterAccount(
        account_id=uuid4(), email=email, password=PASSWORD, verified=False), now_meta(), c.identity.links)
    assert c.runtime.wait_for(["accounts_view"], registered.position, timeout=10)
    with closing(signed_in(site, email)) as client:
        token = CSRF.search(client.get(f"/listings/{slug}").text).group(1)  # type: ignore[union-attr]
        refused = client.post(f"/listings/{slug}/review", data={"csrf_token": token, "rating": "5", "text": FIRST})
        assert refused.status_code == 403 and "verified email" in refused.text
    with httpx.Client(base_url=site.url, timeout=10, follow_redirects=False) as anonymous:
        assert anonymous.get(f"/listings/{slug}/review").headers["location"].startswith("/signin")
        assert anonymous.get("/staff/reviews").status_code == 403
    assert rating(site, slug) == {"average": None, "count": 0}


def test_axe_on_a_listing_page_with_reviews_and_the_form(site: RunningServer, chromium) -> None:  # type: ignore[no-untyped-def]
    if not AXE.exists():
        pytest.skip("axe-core is not installed: npm install --prefix tests/e2e/axe")
    _, slug, _ = new_listing(site)
    for _ in range(2):
        _, email = account(site, staff=False)
        with closing(signed_in(site, email)) as client:
            token = CSRF.search(client.get(f"/listings/{slug}").text).group(1)  # type: ignore[union-attr]
            sent = client.post(f"/listings/{slug}/review", data={"csrf_token": token, "rating": "5", "text": FIRST})
            assert sent.status_code == 303
    for scheme in ("light", "dark"):
        context = chromium.new_context(color_scheme=scheme)
        offline(context)
        page = context.new_page()
        try:
            sign_in(page, site, email, f"/listings/{slug}")
            assert page.locator("#reviews li.review").count() == 2
            page.evaluate(AXE.read_text())  # evaluated, not a <script> the page's own policy would refuse
            result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
            bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
                   if v["impact"] in ("serious", "critical")]
            assert bad == [], (scheme, bad)
        finally:
            context.close()
