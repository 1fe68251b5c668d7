"""Claiming a listing from the browser: from the public page's link to a verified claim, against a local website.

The claimant follows "Is this yours? Claim it", meets the API's field-level
message (the email method without an address), starts a meta-tag claim, checks
it before the tag is up and sees why it failed, puts the tag on the homepage,
checks again and owns the listing. A second person gets 404 on the claim.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Databases
from tests.e2e.claims_support import ClaimWorld, claims_world, live_listing
from tests.e2e.founder_support_listings import axe_violations, csrf_of, screenshots, sign_in, signed_in_client
from tests.e2e.submission_support import PASSWORD, person
from tests.e2e.test_free_plan import with_badge
from tests.fixtures.drafting_sites import serve


SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS") or tempfile.mkdtemp(prefix="founder-shots-"))


@pytest.fixture(scope="module")
def world(databases: Databases) -> Iterator[ClaimWorld]:
    yield from claims_world(databases)


def test_claim_a_listing_with_a_meta_tag_in_the_browser(world: ClaimWorld, chromium: Any) -> None:
    base = world.server.url
    who, other = person(world.server, password=PASSWORD), person(world.server, password=PASSWORD)
    with serve("devtool") as site:
        listing_id, slug = live_listing(world, site.url("/"))
        context = chromium.new_context()
        page = context.new_page()
        try:
            sign_in(page, base, who.email, PASSWORD)
            page.goto(f"{base}/listings/{slug}")
            page.get_by_role("link", name="Is this yours? Claim it").click()
            page.get_by_role("heading", name=re.compile("^Claim ")).wait_for()

            page.get_by_label("An email to an address at the domain").check()
            with page.expect_response(lambda r: r.url.endswith(f"/claim/{slug}")) as answer:
                page.get_by_role("button", name="Start the claim").click()
            assert answer.value.status == 400
            assert "address" in page.locator("#email-error").inner_text()

            page.get_by_label("A meta tag on the homepage").check()  # an address with another method: plain words
            page.locator("#email").fill("founder@example.com")
            page.get_by_role("button", name="Start the claim").click()
            only = "Leave the email address empty unless you prove it by email."
            assert page.locator("#email-error").inner_text().endswith(only)
            assert f"Email address: {only}" in page.get_by_role("alert").inner_text()
            assert "`" not in page.get_by_role("alert").inner_text()
            page.locator("#email").fill("")

            page.get_by_label("A meta tag on the homepage").check()
            page.get_by_role("button", name="Start the claim").click()
            notice = page.locator("p.notice[role=status]")  # the page's notice (the Copy button has a status of its own)
            notice.wait_for()
            claim_id = int(page.url.split("/my/claims/")[1].split("?")[0])
            name = page.get_by_role("link", name=re.compile("^Claimable ")).first.inner_text()
            assert page.get_by_role("heading", level=1).inner_text() == f"Your claim of {name}"  # not the slug
            assert page.title().startswith(f"Your claim of {name} · ")
            assert "Put the tag below on your homepage" in notice.inner_text()
            tag = page.get_by_label("The tag").input_value()
            assert tag.startswith("<meta ")
            assert axe_violations(page) == []

            page.get_by_role("button", name="Check now").click()
            page.locator("#claim-reason").wait_for()
            assert page.locator("#claim-status").inner_text().strip() == "Not verified yet"
            assert page.locator("#claim-reason").inner_text() != ""

            with_badge(site, tag)  # the founder puts the tag on the homepage
            page.get_by_role("button", name="Check now").click()
            page.locator("#claim-status").filter(has_text="Verified").wait_for()  # the page after the check
            assert page.locator("#claim-status").inner_text().strip() == "Verified"
            page.get_by_role("link", name="Go to the listing").click()
            page.locator("#listing-status").wait_for()
            assert page.locator("#listing-status").get_attribute("data-status") == "live"
            page.goto(f"{base}/my/claims")
            assert page.get_by_role("link", name=f"Claim {claim_id}").count() == 1
            shots = screenshots(page, f"{base}/my/claims/{claim_id}", SHOTS, "claim")
            shots += screenshots(page, f"{base}/claim/{slug}", SHOTS, "claim-form")
            assert all(p.stat().st_size > 0 for p in shots)
        finally:
            context.close()

    with closing(signed_in_client(base, other.email, PASSWORD)) as stranger:
        assert stranger.get(f"/my/claims/{claim_id}").status_code == 404
        token = csrf_of(stranger.get("/my/claims").text)  # the sign-out form's token
        assert stranger.post(f"/my/claims/{claim_id}/verify", data={"csrf_token": token}).status_code == 404
        assert stranger.get(f"/my/listings/{listing_id}").status_code == 404
        assert stranger.get("/claim/no-such-listing").status_code == 404
