"""Email claims through the website and the test SMTP server, and the staff's views of claims (page and CLI).

The emailed link opens a page that changes nothing (mail filters open links);
its CSRF-protected Confirm button verifies the claim once, with no sign-in,
and answers with a redirect to the result (post/redirect/get). The pages name
the listing, not its slug.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import closing
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from aggregates.base import Meta
from commands import account as account_cmd
from launchdir.cli import main
from tests.conftest import Databases
from tests.e2e.claims_support import ClaimWorld, claims_world, live_listing
from tests.e2e.founder_support_listings import axe_violations, screenshots, sign_in, signed_in_client
from tests.e2e.submission_support import Person, ik, person

API = "/api/v1"
PASSWORD = "a good long password"
CSRF = re.compile(r'name="csrf_token" value="([0-9a-f]{64})"')
SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS") or tempfile.mkdtemp(prefix="claims-shots-"))
LINK = re.compile(r"(http://\S+/claims/confirm\?claim=(\d+)&token=\S+)")


@pytest.fixture(scope="module")
def world(databases: Databases) -> Iterator[ClaimWorld]:
    yield from claims_world(databases)


def browser(world: ClaimWorld) -> httpx.Client:
    return httpx.Client(base_url=world.server.url, timeout=15, follow_redirects=False)


def email_claim(world: ClaimWorld, who: Person, slug: str, address: str) -> int:
    r = httpx.post(world.server.url + API + "/claims", json={"slug": slug, "method": "email", "email": address},
                   headers=who.headers(**ik()), timeout=15)
    assert r.status_code == 201, r.text
    return int(r.json()["claim_id"])


def mailed_link(world: ClaimWorld, address: str) -> str:
    [message] = world.smtp.wait_for(address)
    found = LINK.search(message.get_content())
    assert found is not None, message.get_content()
    return found.group(1).replace(world.server.url, "")


def claim_status(world: ClaimWorld, who: Person, claim_id: int) -> str:
    items = httpx.get(world.server.url + API + "/claims", headers=who.headers(), timeout=15).json()["items"]
    return str(next(i["status"] for i in items if i["claim_id"] == claim_id))


def listing_name(world: ClaimWorld, slug: str) -> str:
    return str(httpx.get(f"{world.server.url}{API}/listings/{slug}", timeout=15).json()["name"])


def test_the_emailed_link_verifies_on_confirm_once(world: ClaimWorld) -> None:
    claimant = person(world.server, password=PASSWORD)
    listing_id, slug = live_listing(world, "https://www.web-claims.com/")
    name = listing_name(world, slug)
    claim_id = email_claim(world, claimant, slug, "founder@web-claims.com")
    link = mailed_link(world, "founder@web-claims.com")
    with closing(signed_in_client(world.server.url, claimant.email, PASSWORD)) as mine:
        started = mine.get(f"/my/claims/{claim_id}", params={"done": "started"}).text
        assert f"<h1>Your claim of {name}</h1>" in started and f'href="/listings/{slug}"' in started
        assert "Open the link we emailed" in started and "Publish what it asks for" not in started
        assert "An email to an address at the domain" in started  # the method in words, not `email`
        assert f'<a href="/listings/{slug}">{name}</a>' in mine.get("/my/claims").text
    with browser(world) as web:
        page = web.get(link)
        assert page.status_code == 200 and f"Confirm that you run {name}</h1>" in page.text
        assert "founder@web-claims.com" in page.text
        assert claim_status(world, claimant, claim_id) == "pending", "opening the link changes nothing"
        claim_field, token = re.search(r'name="claim" value="(\d+)"', page.text), re.search(r'name="token" value="([^"]+)"', page.text)
        assert claim_field is not None and token is not None
        form = {"claim": claim_field.group(1), "token": token.group(1)}
        assert web.post("/claims/confirm", data=form).status_code == 403, "the form needs its CSRF token"
        csrf = CSRF.search(page.text)
        assert csrf is not None
        done = web.post("/claims/confirm", data={**form, "csrf_token": csrf.group(1)})
        assert done.status_code == 303 and done.headers["location"].startswith("/claims/confirmed?claim=")
        for _ in range(2):  # the result page, and a reload of it: nothing is posted again
            result = web.get(done.headers["location"])
            assert result.status_code == 200 and "Claim confirmed" in result.text and f"owner of {name}," in result.text
        again = web.get(link)
        assert again.status_code == 200 and "Already confirmed" in again.text
        assert web.get(link[:-3] + "xyz").status_code == 404
    assert claim_status(world, claimant, claim_id) == "verified"
    r = httpx.patch(f"{world.server.url}{API}/me/listings/{listing_id}", json={"fields": {"city": "Lisbon"}},
                    headers=claimant.headers(**ik()), timeout=15)
    assert r.status_code == 200 and r.json()["city"] == "Lisbon"


def test_an_expired_link_does_not_verify(world: ClaimWorld) -> None:
    claimant = person(world.server)
    _, slug = live_listing(world, "https://web-claims-late.com/")
    claim_id = email_claim(world, claimant, slug, "ops@web-claims-late.com")
    link = mailed_link(world, "ops@web-claims-late.com")
    with browser(world) as web:
        form = web.get(link).text  # opened in time, confirmed too late
        fields = {k: re.search(rf'name="{k}" value="([^"]+)"', form).group(1)  # type: ignore[union-attr]
                  for k in ("claim", "token", "csrf_token")}
        with world.later(timedelta(days=8)):
            page = web.get(link)
            assert page.status_code == 409 and "expired" in page.text
            late = web.post("/claims/confirm", data=fields)
            assert late.status_code == 303
            result = web.get(late.headers["location"])
            assert result.status_code == 409 and "expired before it was confirmed" in result.text
            assert claim_status(world, claimant, claim_id) == "expired"


def test_staff_see_claims_on_the_website_and_in_the_cli(world: ClaimWorld) -> None:
    claimant = person(world.server)
    _, slug = live_listing(world, "https://staff-view-claims.com/")
    r = httpx.post(world.server.url + API + "/claims", json={"slug": slug, "method": "dns"},
                   headers=claimant.headers(**ik()), timeout=15)
    assert r.status_code == 201
    claim_id = r.json()["claim_id"]
    staffer = person(world.server, password=PASSWORD)
    with browser(world) as anonymous:
        assert anonymous.get("/staff/claims").status_code == 403
    with browser(world) as web:
        form = web.get("/signin")
        csrf = CSRF.search(form.text)
        assert csrf is not None
        signed = web.post("/signin", data={"email": staffer.email, "password": PASSWORD, "csrf_token": csrf.group(1)})
        assert signed.status_code == 303
        assert web.get("/staff/claims").status_code == 403
        position = account_cmd.grant_staff(world.container.store, staffer.email,
                                           Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli"))
        assert world.container.runtime.wait_for(["accounts_view"], position, timeout=5)
        page = web.get("/staff/claims", params={"status": "pending"})
        assert page.status_code == 200 and slug in page.text and claimant.email in page.text
        assert slug not in web.get("/staff/claims", params={"status": "verified"}).text
        assert web.get("/staff/claims", params={"status": "nonsense"}).status_code == 400

    runner = CliRunner()
    listed = runner.invoke(main, ["staff", "claims", "--status", "pending", "--json"], obj=world.container)
    assert listed.exit_code == 0, listed.output
    rows = json.loads(listed.stdout)
    mine = next(row for row in rows if row["claim_id"] == claim_id)
    assert (mine["slug"], mine["method"], mine["status"], mine["account_email"]) == (slug, "dns", "pending",
                                                                                     claimant.email)
    table = runner.invoke(main, ["staff", "claims"], obj=world.container)
    assert table.exit_code == 0 and table.stdout.splitlines()[0].split()[:3] == ["CLAIM", "STARTED", "LISTING"]
    assert any(line.split()[0] == str(claim_id) and slug in line for line in table.stdout.splitlines()[1:])
    assert runner.invoke(main, ["staff", "claims", "--status", "bogus"], obj=world.container).exit_code == 2


def test_an_email_claim_in_the_browser_reads_as_an_email_claim(world: ClaimWorld, chromium: Any) -> None:
    """The claim's page says to open the emailed link; the link's page and its result name the listing; axe and
    screenshots at 390 and 1440 px."""
    claimant = person(world.server, password=PASSWORD)
    _, slug = live_listing(world, "https://browser-claims.com/")
    name = listing_name(world, slug)
    claim_id = email_claim(world, claimant, slug, "team@browser-claims.com")
    link = world.server.url + mailed_link(world, "team@browser-claims.com")
    base = world.server.url
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    try:
        sign_in(page, base, claimant.email, PASSWORD, then="/my/claims")
        page.get_by_role("link", name=name).wait_for()
        page.goto(f"{base}/my/claims/{claim_id}?done=started")
        assert "Open the link we emailed" in page.get_by_role("status").inner_text()
        assert axe_violations(page) == []
        screenshots(page, f"{base}/my/claims/{claim_id}?done=started", SHOTS, "claim-email")

        page.goto(link)  # the emailed link, as the mailbox's owner opens it
        page.get_by_role("heading", name=f"Confirm that you run {name}").wait_for()
        assert axe_violations(page) == []
        screenshots(page, link, SHOTS, "claim-confirm")
        page.get_by_role("button", name="Confirm").click()
        page.get_by_role("heading", name="Claim confirmed").wait_for()
        assert "/claims/confirmed?" in page.url  # a reload asks for the result, it does not post again
        page.reload()
        assert f"owner of {name}" in page.get_by_role("status").inner_text()
        assert axe_violations(page) == []
        screenshots(page, page.url, SHOTS, "claim-confirmed")
    finally:
        context.close()
