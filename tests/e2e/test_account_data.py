"""Download my data and close my account, over real HTTP and in Chromium, on a server of their own
(so "the last staff account" counts only the accounts made here)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx
import pytest

from aggregates.base import Meta
from commands import account as account_cmd
from commands import listing as listing_cmd
from commands import reviews as reviews_cmd
from commands import votes as votes_cmd
from events.errors import Conflict
from queries import mail as mail_q
from tests.conftest import Databases, RunningServer, free_port
from tests.conftest import test_settings as settings_for
from tests.e2e.founder_support_listings import axe_violations
from tests.e2e.test_web_accounts import PASSWORD, _browser, _csrf, _link, _post, _signed_in

STAFF = Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli", via="staff")
SHOTS = Path("/tmp/account-data-shots")


@pytest.fixture(scope="module")
def site(databases: Databases) -> Iterator[RunningServer]:
    from launchdir.bootstrap import bootstrap, ensure_catalog

    port = free_port()
    c = bootstrap(settings_for(databases.create(), port=port, rate_limits=False, crawl_allow_loopback=True))
    ensure_catalog(c)
    with RunningServer(c, port) as running:
        yield running
    c.close()


# ---------------------------------------------------------------- helpers


def _account_id(client: httpx.Client) -> str:
    return str(re.search(r'<code id="account-id">([^<]+)</code>', client.get("/account").text).group(1))  # type: ignore[union-attr]


def _key(client: httpx.Client, scopes: tuple[str, ...] = ("account:read", "listings:write", "orders:write")) -> str:
    page = client.get("/account")
    r = client.post("/account/keys", data={"csrf_token": _csrf(page), "name": "my laptop", "scopes": list(scopes)})
    assert r.status_code == 200, r.text[:300]
    return str(r.text.split('id="new-key-value"')[1].split('value="')[1].split('"')[0])


def _api(site: RunningServer, key: str) -> httpx.Client:
    return httpx.Client(base_url=f"{site.url}/api/v1", timeout=15, headers={"authorization": f"Bearer {key}"})


def _listing(site: RunningServer, owners: list[str], live: bool, name: str) -> tuple[int, str]:
    c = site.container
    made = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": name, "tagline": "A product of the test", "website_url": f"https://ld-{uuid4().hex[:8]}.com"},
        categories=["productivity"], owner_ids=owners), STAFF)
    position = listing_cmd.staff_publish(c.store, made.listing_id, STAFF) if live else c.store.position()
    assert c.runtime.wait_for(["listing_view", "search_view", "launches_view", "interview_view"], position, timeout=10)
    return made.listing_id, made.slug


def _vote(client: httpx.Client, slug: str) -> None:
    page = client.get(f"/listings/{slug}")
    r = client.post(f"/listings/{slug}/vote", data={"csrf_token": _csrf(page), "next": f"/listings/{slug}"})
    assert r.status_code in (200, 303), r.text[:300]


def _edit(api: httpx.Client, listing_id: int, tagline: str) -> None:
    r = api.patch(f"/me/listings/{listing_id}", json={"fields": {"tagline": tagline}},
                  headers={"idempotency-key": uuid4().hex})
    assert r.status_code == 200, r.text


def _draft(api: httpx.Client, url: str) -> str:
    r = api.post("/drafts", json={"url": url}, headers={"idempotency-key": uuid4().hex})
    assert r.status_code in (200, 201), r.text
    return str(r.json()["id"])


def _close(client: httpx.Client, email: str, password: str = PASSWORD) -> httpx.Response:
    page = client.get("/account/close")
    return client.post("/account/close", data={"csrf_token": _csrf(page), "email": email, "password": password})


def _owners(site: RunningServer, listing_id: int) -> list[str]:
    c = site.container
    with c.services.reads.pool.connection() as conn:
        row = conn.execute(f"SELECT state->'owner_ids', state->>'status' FROM "
                           f"{c.runtime.tables('listing_view')['profiles']} WHERE listing_id = %s", (listing_id,)).fetchone()
    return list(row[0]) + [row[1]]


def _vote_holders(site: RunningServer, listing_id: int) -> list[tuple[str, str]]:
    """(vote id, account) of the listing's votes as staff's vote review shows them."""
    c = site.container
    with c.services.reads.pool.connection() as conn:
        return [(str(r[0]), r[1]) for r in conn.execute(
            f"SELECT vote_id, account_id FROM {c.runtime.tables('vote_integrity_view')['votes']} "
            "WHERE listing_id = %s", (listing_id,))]


# ---------------------------------------------------------------- download


def test_the_download_holds_the_persons_data_and_nothing_of_a_co_owner(site: RunningServer) -> None:
    with _browser(site) as ada, _browser(site) as bob:
        ada_email, bob_email = _signed_in(site, ada), _signed_in(site, bob)
        ada_id, bob_id = _account_id(ada), _account_id(bob)
        ada_key, bob_key = _key(ada), _key(bob)
        shared, slug = _listing(site, [ada_id, bob_id], live=True, name=f"Shared {uuid4().hex[:6]}")
        with _api(site, ada_key) as ada_api, _api(site, bob_key) as bob_api:
            _edit(ada_api, shared, "Ada's own words")
            _edit(bob_api, shared, "Bob's private wording")
            draft = _draft(ada_api, f"{site.url}/")  # the site itself: a host that resolves here
            invited = ada_api.post(f"/drafts/{draft}/invites", json={"email": bob_email},
                                   headers={"idempotency-key": uuid4().hex})
            assert invited.status_code == 201, invited.text
        _vote(ada, slug)
        _vote(bob, slug)

        r = ada.get("/account/data/export")
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
        today = datetime.now(site.container.services.timezone).date().isoformat()
        assert r.headers["content-disposition"] == f'attachment; filename="launchdir-data-{today}.json"'
        assert r.headers["cache-control"] == "no-store"
        doc = json.loads(r.text)

    assert doc["account"]["email"] == ada_email and doc["account"]["email_verified"] is True
    assert doc["account"]["is_staff"] is False and doc["account"]["created_at"]
    [key] = doc["api_keys"]
    assert key["name"] == "my laptop" and "listings:write" in key["scopes"] and key["last_used_at"]
    assert ada_key not in r.text and ada_key.split("_")[2] not in r.text and "secret_hash" not in r.text
    assert doc["sessions"] and doc["sessions"][0]["this_browser"] is True and doc["sessions"][0]["ip"] == "127.0.0.1"
    assert [d["url"] for d in doc["drafts"]] == [f"{site.url}/"]
    assert [i["status"] for i in doc["drafts"][0]["invites"]] == ["pending"]  # whom to: not said, theirs
    [listing] = doc["listings"]
    assert listing["slug"] == slug and listing["co_owners"] == 1
    assert [e["changes"] for e in listing["my_edits"]] and all("Bob" not in json.dumps(e) for e in listing["my_edits"])
    assert any("Ada's own words" in json.dumps(e["changes"]) for e in listing["my_edits"])
    assert [v["slug"] for v in doc["votes"]] == [slug]
    assert {m["kind"] for m in doc["emails"]} >= {"verify_email"} and all("text" not in m for m in doc["emails"])
    # the co-owner is nowhere: not their address, account id, key or vote; the listing shows as it stands now
    # (what both owners see on its page), but the edits listed are Ada's alone
    for theirs in (bob_email, bob_id, bob_key.split("_")[1]):
        assert theirs not in r.text
    assert "Bob's private wording" not in json.dumps(listing["my_edits"]) and len(doc["votes"]) == 1


def test_the_download_needs_a_session(site: RunningServer) -> None:
    r = httpx.get(f"{site.url}/account/data/export", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/signin?next=/account/data"


# ---------------------------------------------------------------- closing


def test_closing_refuses_wrong_credentials_an_unpaid_order_and_the_last_staff(site: RunningServer) -> None:
    with _browser(site) as ada:
        email = _signed_in(site, ada)
        assert "Close my account" in ada.get("/account/close").text
        wrong = _close(ada, email, "not the password at all")
        assert wrong.status_code == 400 and 'id="password-error"' in wrong.text
        other = _close(ada, "someone-else@example.com")
        assert other.status_code == 400 and 'id="email-error"' in other.text

        account_cmd.grant_staff(site.container.store, email, STAFF)  # the only staff account of this site
        site.container.runtime.wait_for(["accounts_view"], site.container.store.position(), timeout=5)
        page = ada.get("/account/close")
        assert 'id="close-blocked"' in page.text and "last staff account" in page.text
        refused = _close(ada, email)
        assert refused.status_code == 409 and "last staff account" in refused.text
        with pytest.raises(Conflict, match="last staff account"):  # nor does it lose the role
            account_cmd.revoke_staff(site.container.store, email, STAFF)
        other = f"staff-{uuid4().hex[:8]}@example.com"
        account_cmd.register_account(site.container.store, account_cmd.RegisterAccount(
            account_id=uuid4(), email=other, password=PASSWORD, verified=True), STAFF, None)
        account_cmd.grant_staff(site.container.store, other, STAFF)
        account_cmd.revoke_staff(site.container.store, email, STAFF)  # another staff account now: it may go

        listing_id, _ = _listing(site, [_account_id(ada)], live=True, name=f"Paying {uuid4().hex[:6]}")
        with _api(site, _key(ada)) as api:
            r = api.post("/orders/checkout", json={"items": [{"product": "ai_review", "listing_id": listing_id}]},
                         headers={"idempotency-key": uuid4().hex})
            assert r.status_code == 201, r.text
            number = r.json()["number"]
        site.container.runtime.wait_for(["orders_view"], site.container.store.position(), timeout=5)
        assert number in ada.get("/account/close").text
        refused = _close(ada, email)
        assert refused.status_code == 409 and f"Order {number} is awaiting payment" in refused.text
        assert ada.get("/account").status_code == 200  # still open, still signed in
        for _ in range(4):  # with the first wrong one, five: the sign-in throttle locks the address
            assert _close(ada, email, "still not the password").status_code == 400
        locked = _close(ada, email)
        assert locked.status_code == 429 and "Too many failed attempts" in locked.text


def test_closing_an_account_ends_access_keeps_listings_and_frees_the_address(site: RunningServer) -> None:
    with _browser(site) as ada, _browser(site) as bob, _browser(site) as ada_elsewhere:
        email = _signed_in(site, ada)
        _post(ada_elsewhere, "/signin", "/signin", {"email": email, "password": PASSWORD})
        _signed_in(site, bob)
        ada_id, bob_id = _account_id(ada), _account_id(bob)
        key = _key(ada)
        shared, shared_slug = _listing(site, [ada_id, bob_id], live=True, name=f"Together {uuid4().hex[:6]}")
        alone, alone_slug = _listing(site, [ada_id], live=True, name=f"Solo {uuid4().hex[:6]}")
        saved, saved_slug = _listing(site, [ada_id], live=False, name=f"Unborn {uuid4().hex[:6]}")
        with _api(site, key) as api:
            _draft(api, f"{site.url}/about")
            assert api.get("/me").status_code == 200
        _vote(ada, alone_slug)
        bobs, bobs_slug = _listing(site, [bob_id], live=True, name=f"Bob's {uuid4().hex[:6]}")
        meta = Meta(at=datetime.now(timezone.utc), actor=f"account:{ada_id}", channel="web", via="session")
        _, position = reviews_cmd.write_review(site.container.store, bobs, ada_id, 5, "Ada liked it a great deal.", meta)
        site.container.runtime.wait_for(["reviews_view"], position, timeout=5)
        assert "A verified member" in bob.get(f"/listings/{bobs_slug}").text
        votes_before = httpx.get(f"{site.url}/api/v1/listings/{alone_slug}").json()["community"]["votes"]

        page = ada.get("/account/close").text
        assert "its other owners keep it" in page and "stays in the directory without an owner" in page
        assert "never published and you own it alone" in page and "law requires" in page

        done = _close(ada, email.upper())  # the address as typed, in any case
        assert done.status_code == 303 and done.headers["location"] == "/account/closed"
        assert "Your account is closed" in ada.get("/account/closed").text
        for browser in (ada, ada_elsewhere):  # every session ended
            assert browser.get("/account").status_code == 303

        # sign-in is refused with the words of a wrong password; the key is refused over REST
        again = _post(ada, "/signin", "/signin", {"email": email, "password": PASSWORD})
        assert again.status_code == 400 and "The email address or the password is not right." in again.text
        assert httpx.get(f"{site.url}/api/v1/me", headers={"authorization": f"Bearer {key}"}).status_code == 401

        # the co-owned listing keeps Bob; the live one owned alone stays public, without owners, and claimable
        assert _owners(site, shared) == [bob_id, "live"]
        assert _owners(site, alone) == ["live"]
        public = httpx.get(f"{site.url}/api/v1/listings/{alone_slug}")
        assert public.status_code == 200 and public.json()["community"]["votes"] == votes_before
        holders = _vote_holders(site, alone)
        assert holders and all(who.startswith("former:") for _, who in holders)
        # staff can still take the closed account's vote out of every count
        position = votes_cmd.void_votes(site.container.store, [holders[0][0]], "a ring of accounts", STAFF)[0].position
        site.container.runtime.wait_for(["listing_view", "search_view", "launches_view"], position, timeout=5)
        voided = httpx.get(f"{site.url}/api/v1/listings/{alone_slug}").json()["community"]["votes"]
        assert voided == votes_before - 1
        with _api(site, _key(bob)) as bob_api:
            claim = bob_api.post("/claims", json={"slug": alone_slug, "method": "dns"},
                                 headers={"idempotency-key": uuid4().hex})
            assert claim.status_code == 201, claim.text
            assert bob_api.get(f"/me/listings/{shared}").status_code == 200
        page = bob.get(f"/listings/{bobs_slug}").text  # the review stays, by no one in particular
        assert "Ada liked it a great deal." in page and "A former member" in page
        assert _owners(site, saved) == ["unpublished"]  # never public, owned alone: discarded
        assert httpx.get(f"{site.url}/api/v1/listings/{saved_slug}").status_code == 404

        # a reset request shows the usual page and sends nothing
        sent = _post(ada, "/reset", "/reset", {"email": email})
        assert sent.status_code == 200
        time.sleep(1.0)
        reads = site.container.services.reads
        assert not [m for m in mail_q.outbox(reads, to=email) if m["kind"] == "password_reset"]
        assert [m for m in mail_q.outbox(reads, to=email) if m["kind"] == "account_closed"]

        # the address signs up again, as a new account
        r = _post(ada, "/signup", "/signup", {"email": email, "password": PASSWORD})
        assert r.status_code == 200 and "Check your email" in r.text
        assert ada.get(_link(site, email, "verify_email").replace(site.url, "")).status_code == 200
        back = _post(ada, "/signin", "/signin", {"email": email, "password": PASSWORD, "next": "/account"})
        assert back.status_code == 303
        assert _account_id(ada) != ada_id
        assert json.loads(ada.get("/account/data/export").text)["listings"] == []


def _follow(client: httpx.Client, slug: str) -> None:
    page = client.get(f"/listings/{slug}")
    r = client.post(f"/listings/{slug}/follow", data={"csrf_token": _csrf(page), "next": f"/listings/{slug}"})
    assert r.status_code == 303, r.text[:300]


def _followers(site: RunningServer, slug: str, expected: int) -> tuple[int, int]:
    """The listing's followers as get_listing (REST) and its page say, once both say `expected` (or 10 s passed)."""
    deadline = time.monotonic() + 10
    while True:
        rest = httpx.get(f"{site.url}/api/v1/listings/{slug}").json()["community"]["followers"]
        page = re.search(r"<dt>Followers</dt><dd>(\d+)</dd>", httpx.get(f"{site.url}/listings/{slug}").text)
        shown = (int(rest), int(page.group(1)) if page else -1)
        if shown == (expected, expected) or time.monotonic() > deadline:
            return shown
        time.sleep(0.05)


def test_closing_an_account_ends_its_follows(site: RunningServer) -> None:
    with _browser(site) as ada, _browser(site) as bob:
        email = _signed_in(site, ada)
        _signed_in(site, bob)
        _, slug = _listing(site, [_account_id(bob)], live=True, name=f"Followed {uuid4().hex[:6]}")
        _follow(ada, slug)
        _follow(bob, slug)
        assert _followers(site, slug, 2) == (2, 2)
        assert [f["slug"] for f in json.loads(ada.get("/account/data/export").text)["following"]] == [slug]

        assert _close(ada, email).status_code == 303
        assert _followers(site, slug, 1) == (1, 1)  # Bob's follow stays
        assert [f["slug"] for f in json.loads(bob.get("/account/data/export").text)["following"]] == [slug]


# ---------------------------------------------------------------- in Chromium


def test_the_pages_in_chromium_download_and_close(site: RunningServer, chromium: Any) -> None:
    with _browser(site) as client:
        email = _signed_in(site, client)
        _listing(site, [_account_id(client)], live=True, name=f"Browser {uuid4().hex[:6]}")
    SHOTS.mkdir(exist_ok=True)
    context = chromium.new_context(accept_downloads=True)
    page = context.new_page()
    try:
        page.goto(f"{site.url}/signin?next=/account")
        page.get_by_label("Email address").fill(email)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(f"{site.url}/account")
        page.get_by_role("link", name="Download your data").click()
        page.wait_for_url(f"{site.url}/account/data")
        assert axe_violations(page) == []
        with page.expect_download() as info:
            page.get_by_role("link", name="Download my data (JSON)").click()
        download = info.value
        assert re.fullmatch(r"launchdir-data-\d{4}-\d{2}-\d{2}\.json", download.suggested_filename)
        assert json.loads(Path(download.path()).read_text())["account"]["email"] == email
        for width in (390, 1440):
            page.set_viewport_size({"width": width, "height": 900})
            for path in ("/account/data", "/account/close"):
                page.goto(f"{site.url}{path}")
                page.screenshot(path=str(SHOTS / f"{path.rsplit('/', 1)[1]}-{width}.png"), full_page=True)
        page.goto(f"{site.url}/account/close")
        assert axe_violations(page) == []
        page.get_by_role("button", name="Close my account").click()
        assert "There is a problem" in page.content()
        assert axe_violations(page) == []  # with its errors
        page.get_by_label("Your email address, typed again").fill(email)
        page.get_by_label("Your current password").fill(PASSWORD)
        page.get_by_role("button", name="Close my account").click()
        page.wait_for_url(f"{site.url}/account/closed")
        assert page.get_by_role("heading", name="Your account is closed").is_visible()
        assert axe_violations(page) == []
    finally:
        context.close()
