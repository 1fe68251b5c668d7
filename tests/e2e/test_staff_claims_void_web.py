"""Staff put claims right: void a verified claim (website and CLI) and remove an owner where no claim is involved.

Against the running server with a local DNS server and SMTP capture: the claimant stops owning the listing, the
owners from before the claim keep it, both sides are mailed, the events say it was staff and why; what cannot be
voided or removed is refused with the reason. The owner's notice of a new owner says how to reach staff.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx
import pytest
from click.testing import CliRunner

from aggregates import claim as claim_agg
from aggregates import listing
from aggregates.base import Meta
from commands import account as account_cmd
from commands import catalog as catalog_cmd
from events.claim import ClaimVoided
from events.listing import ListingOwnerRemoved, ListingVerificationWithdrawn
from launchdir.cli import main
from tests.conftest import Databases
from tests.e2e.claims_support import ClaimWorld, claims_world, live_listing
from tests.e2e.founder_support_listings import axe_violations, screenshots, sign_in, signed_in_client
from tests.e2e.submission_support import Person, ik, person

API = "/api/v1"
PASSWORD = "a good long password"
CSRF = re.compile(r'name="csrf_token" value="([0-9a-f]{64})"')
SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS") or tempfile.mkdtemp(prefix="void-shots-"))
CONTACT = "help@launchdir.example"
VIEWS = ["claims_view", "listing_view", "launches_view"]
STAFF = Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli", via="staff")


@pytest.fixture(scope="module")
def world(databases: Databases) -> Iterator[ClaimWorld]:
    yield from claims_world(databases)


def staffer(world: ClaimWorld) -> Person:
    who = person(world.server, password=PASSWORD)
    position = account_cmd.grant_staff(world.container.store, who.email, STAFF)
    assert world.container.runtime.wait_for(["accounts_view"], position, timeout=5)
    return who


def verified_claim(world: ClaimWorld, who: Person, slug: str) -> int:
    """A dns claim of `who`, proven through the local DNS server: its id."""
    url = world.server.url + API
    r = httpx.post(f"{url}/claims", json={"slug": slug, "method": "dns"}, headers=who.headers(**ik()), timeout=15)
    assert r.status_code == 201, r.text
    record = r.json()["instructions"]["dns"]
    world.dns.set_txt(record["name"], record["value"])
    done = httpx.post(f"{url}/claims/{r.json()['claim_id']}/verify", headers=who.headers(**ik()), timeout=15)
    assert done.status_code == 200 and done.json()["status"] == "verified", done.text
    return int(r.json()["claim_id"])


def owns(world: ClaimWorld, who: Person, listing_id: int) -> bool:
    r = httpx.get(f"{world.server.url}{API}/me/listings/{listing_id}", headers=who.headers(), timeout=15)
    assert r.status_code in (200, 404), r.text
    return r.status_code == 200


def public(world: ClaimWorld, slug: str) -> dict[str, Any]:
    return httpx.get(f"{world.server.url}{API}/listings/{slug}", timeout=15).json()  # type: ignore[no-any-return]


def card_in_search(world: ClaimWorld, domain: str) -> dict[str, Any]:
    """The listing's card as search shows it (the card carries the verified mark too)."""
    items = httpx.get(f"{world.server.url}{API}/listings", params={"domain": domain}, timeout=15).json()["items"]
    assert len(items) == 1, items
    return items[0]  # type: ignore[no-any-return]


def mail_to(world: ClaimWorld, address: str, subject_has: str) -> str:
    for message in world.smtp.wait_for(address, count=1):
        if subject_has in str(message["subject"]):
            return str(message.get_content())
    for message in world.smtp.wait_for(address, count=2):
        if subject_has in str(message["subject"]):
            return str(message.get_content())
    raise AssertionError(f"no mail to {address} about {subject_has!r}")


def test_staff_void_a_wrong_claim_in_the_browser(world: ClaimWorld, chromium: Any) -> None:
    c = world.container
    catalog_cmd.change_site_settings(c.store, catalog_cmd.ChangeSiteSettings(changes={"contact_email": CONTACT}), STAFF)
    owner, claimant, staff = person(world.server), person(world.server), staffer(world)
    domain = f"void-{uuid4().hex[:8]}.com"
    listing_id, slug = live_listing(world, f"https://www.{domain}/", owners=[owner.account_id])
    claim_id = verified_claim(world, claimant, slug)
    assert owns(world, claimant, listing_id) and public(world, slug)["verified"] is True
    assert card_in_search(world, domain)["verified"] is True

    notice = mail_to(world, owner.email, "Another owner was added")
    assert "reply to this email" not in notice
    assert "This address does not take replies" in notice and f"write to {CONTACT} and name claim {claim_id}" in notice
    assert "staff can void the claim" in notice

    base = world.server.url
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    try:
        sign_in(page, base, staff.email, PASSWORD, then="/staff/claims?status=verified")
        page.locator(f"details.void-claim summary:has-text('Void claim {claim_id}')").click()
        assert axe_violations(page) == []
        screenshots(page, f"{base}/staff/claims?status=verified", SHOTS, "staff-claims-void")
        page.set_viewport_size({"width": 390, "height": 900})
        page.goto(f"{base}/staff/claims?status=verified")
        page.locator(f"details.void-claim summary:has-text('Void claim {claim_id}')").click()  # open, on a phone
        page.screenshot(path=str(SHOTS / "staff-claims-void-open-390.png"), full_page=True)
        page.set_viewport_size({"width": 1440, "height": 900})
        page.goto(f"{base}/staff/claims?status=verified")
        page.locator(f"details.void-claim summary:has-text('Void claim {claim_id}')").click()
        page.locator(f"#void-reason-{claim_id}").fill("The TXT record was left by the domain's previous owner.")
        page.locator(f'form[action="/staff/claims/{claim_id}/void"] button').click()
        page.get_by_role("status").filter(has_text=f"Claim {claim_id} is voided").wait_for()
        assert axe_violations(page) == []
    finally:
        context.close()

    assert not owns(world, claimant, listing_id) and owns(world, owner, listing_id)
    assert public(world, slug)["verified"] is False  # no other claim speaks for the listing
    assert card_in_search(world, domain)["verified"] is False
    mine = httpx.get(f"{base}{API}/claims", headers=claimant.headers(), timeout=15).json()["items"]
    voided = next(i for i in mine if i["claim_id"] == claim_id)
    assert (voided["status"], voided["reason"]) == ("voided", "voided")
    assert voided["reason_detail"] == "The TXT record was left by the domain's previous owner."
    told = mail_to(world, claimant.email, "was voided")
    assert "You are no longer an owner" in told and "previous owner" in told and CONTACT in told
    kept = mail_to(world, owner.email, "A claim of")
    assert "your access is unchanged" in kept and "no longer an owner of the listing" in kept

    [event] = [e for e in c.store.stream(claim_agg.claim_stream(claim_id)) if isinstance(e, ClaimVoided)]
    assert (event.actor, event.channel, event.account_id) == (f"staff:{staff.email}", "web", claimant.account_id)
    on_listing = c.store.stream(listing.listing_stream(listing_id))
    removed = [e for e in on_listing if isinstance(e, ListingOwnerRemoved)]
    assert [(e.account_id, e.actor) for e in removed] == [(claimant.account_id, f"staff:{staff.email}")]
    assert removed[0].reason.startswith(f"claim {claim_id} voided: The TXT record")
    assert any(isinstance(e, ListingVerificationWithdrawn) for e in on_listing)

    with closing(signed_in_client(base, staff.email, PASSWORD)) as web:
        token = CSRF.search(web.get("/staff/claims").text).group(1)  # type: ignore[union-attr]
        before = len(c.store.stream(listing.listing_stream(listing_id)))
        again = web.post(f"/staff/claims/{claim_id}/void", data={"csrf_token": token, "reason": "Once more"})
        assert again.status_code == 409 and f"Claim {claim_id} was voided already" in again.text
        pending = httpx.post(f"{base}{API}/claims", json={"slug": slug, "method": "meta"},
                             headers=claimant.headers(**ik()), timeout=15).json()["claim_id"]
        refused = web.post(f"/staff/claims/{pending}/void", data={"csrf_token": token, "reason": "Not proven"})
        assert refused.status_code == 409 and "is pending, not verified" in refused.text
        short = web.post(f"/staff/claims/{pending}/void", data={"csrf_token": token, "reason": "x"})
        assert short.status_code == 409  # a pending claim is refused before its reason is read
        assert web.post(f"/staff/claims/{claim_id}/void", data={"reason": "No token"}).status_code == 403
        assert web.post("/staff/claims/999999/void", data={"csrf_token": token, "reason": "Nothing"}).status_code == 404
        assert len(c.store.stream(listing.listing_stream(listing_id))) == before  # nothing recorded


def test_a_short_reason_is_refused_next_to_the_claim_and_strangers_cannot_void(world: ClaimWorld) -> None:
    claimant, staff, stranger = person(world.server), staffer(world), person(world.server, password=PASSWORD)
    listing_id, slug = live_listing(world, f"https://{uuid4().hex[:8]}-short.com/")
    claim_id = verified_claim(world, claimant, slug)
    base = world.server.url
    with closing(signed_in_client(base, staff.email, PASSWORD)) as web:
        token = CSRF.search(web.get("/staff/claims").text).group(1)  # type: ignore[union-attr]
        short = web.post(f"/staff/claims/{claim_id}/void", data={"csrf_token": token, "reason": " x "})
        assert short.status_code == 400 and "Give a reason of 3 to 500 characters" in short.text
        assert f'id="void-error-{claim_id}"' in short.text
    with closing(signed_in_client(base, stranger.email, PASSWORD)) as web:
        token = CSRF.search(web.get("/account").text).group(1)  # type: ignore[union-attr]
        assert web.post(f"/staff/claims/{claim_id}/void",
                        data={"csrf_token": token, "reason": "I say so"}).status_code == 403
    assert owns(world, claimant, listing_id)


def test_the_cli_voids_a_claim_and_keeps_the_mark_another_claim_earns(world: ClaimWorld) -> None:
    c = world.container
    first, second = person(world.server), person(world.server)
    listing_id, slug = live_listing(world, f"https://www.{uuid4().hex[:8]}-cli.org/")
    one, two = verified_claim(world, first, slug), verified_claim(world, second, slug)
    runner = CliRunner()
    done = runner.invoke(main, ["staff", "void-claim", str(one), "--reason", "Record of a previous owner",
                                "--actor", "ops"], obj=c)
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith(f"claim {one} voided: {slug}")
    assert c.runtime.wait_for(VIEWS, c.store.position(), timeout=10)
    assert not owns(world, first, listing_id) and owns(world, second, listing_id)
    assert public(world, slug)["verified"] is True  # the second claim still speaks for the listing
    [event] = [e for e in c.store.stream(claim_agg.claim_stream(one)) if isinstance(e, ClaimVoided)]
    assert (event.actor, event.channel, event.reason) == ("staff:ops", "cli", "Record of a previous owner")

    again = runner.invoke(main, ["staff", "void-claim", str(one), "--reason", "Again"], obj=c)
    assert again.exit_code == 1 and f"claim {one} was voided already" in again.output
    assert runner.invoke(main, ["staff", "void-claim", "999999", "--reason", "None"], obj=c).exit_code == 1
    listed = runner.invoke(main, ["staff", "claims", "--status", "voided"], obj=c)
    assert listed.exit_code == 0 and any(line.split()[0] == str(one) for line in listed.stdout.splitlines()[1:])

    by_claim = runner.invoke(main, ["staff", "remove-owner", slug, second.email, "--reason", "Wrong person"], obj=c)
    assert by_claim.exit_code == 1 and f"this owner came by claim {two}: void that claim instead" in by_claim.output
    assert owns(world, second, listing_id)


def test_staff_remove_an_owner_but_not_the_last_one_of_a_listing_with_an_open_order(world: ClaimWorld) -> None:
    c = world.container
    base = world.server.url
    catalog_cmd.change_site_settings(c.store, catalog_cmd.ChangeSiteSettings(changes={"contact_email": CONTACT}), STAFF)
    buyer = person(world.server, scopes=("account:read", "listings:write", "orders:write"))
    partner, staff = person(world.server), staffer(world)
    listing_id, slug = live_listing(world, f"https://{uuid4().hex[:8]}-owners.net/", owners=[buyer.account_id])
    order = httpx.post(f"{base}{API}/orders/checkout", json={"items": [{"product": "ai_review", "listing_id": listing_id}]},
                       headers=buyer.headers(**ik()), timeout=15)
    assert order.status_code == 201, order.text
    assert c.runtime.wait_for(["orders_view"], c.store.position(), timeout=10)
    runner = CliRunner()
    last = runner.invoke(main, ["staff", "remove-owner", slug, buyer.email, "--reason", "Asked to leave"], obj=c)
    assert last.exit_code == 1 and "last owner" in last.output and order.json()["number"] in last.output
    assert owns(world, buyer, listing_id)

    with_partner = live_listing(world, f"https://{uuid4().hex[:8]}-pair.net/",
                                owners=[buyer.account_id, partner.account_id])
    pair_id, pair_slug = with_partner
    with closing(signed_in_client(base, staff.email, PASSWORD)) as web:
        history = web.get(f"/staff/listings/{pair_slug}/history").text
        assert buyer.email in history and partner.email in history and "Remove this owner" in history
        token = CSRF.search(history).group(1)  # type: ignore[union-attr]
        removed = web.post(f"/staff/listings/{pair_slug}/owners/remove",
                           data={"csrf_token": token, "account_id": partner.account_id, "reason": "Left the company"})
        assert removed.status_code == 303 and removed.headers["location"].endswith("notice=owner-removed")
        page = web.get(removed.headers["location"]).text
        assert "The owner was removed from the listing" in page and partner.email not in page.split("Owners")[1]
        twice = web.post(f"/staff/listings/{pair_slug}/owners/remove",
                         data={"csrf_token": token, "account_id": partner.account_id, "reason": "Left the company"})
        assert twice.status_code == 409 and "not an owner of the listing" in twice.text
    assert not owns(world, partner, pair_id) and owns(world, buyer, pair_id)
    told = mail_to(world, partner.email, "no longer an owner")
    assert "The reason given: Left the company" in told and CONTACT in told
    public_page = f"{c.services.links['website']}listings/{pair_slug}"
    assert f"Its public page, where you can still see it: {public_page}\r\n" in told  # the page staff used
    assert httpx.get(public_page, timeout=15).status_code == 200
    event = [e for e in c.store.stream(listing.listing_stream(pair_id)) if isinstance(e, ListingOwnerRemoved)][-1]
    assert (event.account_id, event.reason, event.actor) == (partner.account_id, "Left the company",
                                                             f"staff:{staff.email}")
    last_of_pair = runner.invoke(main, ["staff", "remove-owner", pair_slug, buyer.email, "--reason", "Spam account"],
                                 obj=c)
    assert last_of_pair.exit_code == 0, last_of_pair.output  # no open order for this listing
    told = mail_to(world, buyer.email, "no longer an owner")
    assert f"Its public page, where you can still see it: {public_page}\r\n" in told  # the command line's too
    assert c.runtime.wait_for(VIEWS, c.store.position(), timeout=10)
    assert not owns(world, buyer, pair_id)


def test_closing_the_claimants_account_withdraws_the_verified_mark(world: ClaimWorld) -> None:
    """The mark says an owner proved the domain: when the only such owner closes the account, the mark goes
    (as when staff void the claim); a listing whose other verified owner stays keeps it."""
    owner, claimant, second = person(world.server), person(world.server, password=PASSWORD), person(world.server)
    domain = f"close-{uuid4().hex[:8]}.com"
    listing_id, slug = live_listing(world, f"https://www.{domain}/", owners=[owner.account_id])
    verified_claim(world, claimant, slug)
    assert public(world, slug)["verified"] is True

    kept_domain = f"kept-{uuid4().hex[:8]}.com"
    _, kept_slug = live_listing(world, f"https://www.{kept_domain}/", owners=[owner.account_id])
    verified_claim(world, claimant, kept_slug)
    verified_claim(world, second, kept_slug)

    client = signed_in_client(world.server.url, claimant.email, PASSWORD)
    page = client.get("/account/close")
    found = CSRF.search(page.text)
    assert found is not None, page.text[:300]
    r = client.post("/account/close", data={"csrf_token": found.group(1), "email": claimant.email,
                                            "password": PASSWORD})
    assert r.status_code == 303 and r.headers["location"] == "/account/closed", r.text[:300]

    assert public(world, slug)["verified"] is False and card_in_search(world, domain)["verified"] is False
    assert public(world, kept_slug)["verified"] is True  # the second claimant still owns it and proved the domain
    events = world.container.store.stream(listing.listing_stream(listing_id))
    withdrawn = [e for e in events if isinstance(e, ListingVerificationWithdrawn)]
    assert [e.reason for e in withdrawn] == ["account_closed"]
    left = [e for e in events if isinstance(e, ListingOwnerRemoved)]
    assert [(e.account_id, e.reason) for e in left] == [(claimant.account_id, "account_closed")]
