"""Email claims through the website and the test SMTP server, and the staff's views of claims (page and CLI).

The emailed link opens a page that changes nothing (mail filters open links);
its CSRF-protected Confirm button verifies the claim once, with no sign-in.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import httpx
import pytest
from click.testing import CliRunner

from aggregates.base import Meta
from commands import account as account_cmd
from launchdir.cli import main
from tests.conftest import Databases
from tests.e2e.claims_support import ClaimWorld, claims_world, live_listing
from tests.e2e.submission_support import Person, ik, person

API = "/api/v1"
PASSWORD = "a good long password"
CSRF = re.compile(r'name="csrf_token" value="([0-9a-f]{64})"')
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


def test_the_emailed_link_verifies_on_confirm_once(world: ClaimWorld) -> None:
    claimant = person(world.server)
    listing_id, slug = live_listing(world, "https://www.web-claims.com/")
    claim_id = email_claim(world, claimant, slug, "founder@web-claims.com")
    link = mailed_link(world, "founder@web-claims.com")
    with browser(world) as web:
        page = web.get(link)
        assert page.status_code == 200 and "Confirm that you run" in page.text and "founder@web-claims.com" in page.text
        assert claim_status(world, claimant, claim_id) == "pending", "opening the link changes nothing"
        claim_field, token = re.search(r'name="claim" value="(\d+)"', page.text), re.search(r'name="token" value="([^"]+)"', page.text)
        assert claim_field is not None and token is not None
        form = {"claim": claim_field.group(1), "token": token.group(1)}
        assert web.post("/claims/confirm", data=form).status_code == 403, "the form needs its CSRF token"
        csrf = CSRF.search(page.text)
        assert csrf is not None
        done = web.post("/claims/confirm", data={**form, "csrf_token": csrf.group(1)})
        assert done.status_code == 200 and "Claim confirmed" in done.text
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
    with world.later(timedelta(days=8)), browser(world) as web:
        page = web.get(link)
        assert page.status_code == 409 and "expired" in page.text
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
