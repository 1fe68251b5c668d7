"""Sign-in and sign-up bring people back to what they were doing: a signed-out vote leads through sign-up, the
emailed confirmation (real SMTP) and sign-in back to the vote button, in Chromium at 390 px; `next` never leaves
the site; a vote sent without script lands on its button (`#vote-<slug>`), not at the page's top."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote
from uuid import uuid4

import httpx
import pytest

from tests.conftest import RunningServer
from tests.e2e.founder_support_listings import WIDTHS, axe_violations
from tests.e2e.test_web_accounts import PASSWORD, _csrf, _link
from tests.e2e.website_support import demo_server, offline
from tests.integration.test_accounts_mail import LocalSmtp

SHOTS = Path("/tmp/signinshots")
PHONE = {"width": 390, "height": 844}
VERIFY_LINK = re.compile(r"(http://\S+/verify\?token=\S+)")
HIDDEN_NEXT = re.compile(r'<input type="hidden" name="next" value="([^"]*)">')
AWAY = ["//evil.example", "https://evil.example", "/\\evil", "/\\/evil.example", "http:evil.example", "evil.example"]


@pytest.fixture(scope="module")
def mailing_site(databases) -> Iterator[tuple[RunningServer, LocalSmtp]]:  # type: ignore[no-untyped-def]
    with LocalSmtp() as smtp, demo_server(databases, smtp_url=smtp.url) as running:
        yield running, smtp


def _address(tag: str) -> str:
    return f"{tag}-{uuid4().hex[:10]}@example.com"


def _a_live_listing(server: RunningServer, last: bool = False) -> tuple[str, str]:
    """(slug, name) of a listing of this week's launches: the first, or the last (far down the week's page)."""
    launches = httpx.get(server.url + "/api/v1/launches/weeks/this").json()["launches"]
    listing = launches[-1 if last else 0]["listing"]
    return listing["slug"], listing["name"]


def _votes(server: RunningServer, slug: str) -> int:
    return int(httpx.get(f"{server.url}/api/v1/listings/{slug}").json()["community"]["votes"])


def _look(page: Any, name: str) -> None:
    """axe finds nothing serious at 390 and 1440 px, and a screenshot of each width to look at; then a phone again."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": PHONE["height"]})
        assert axe_violations(page) == [], (page.url, width)
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size(PHONE)


def _in_view(page: Any, selector: str) -> bool:
    return bool(page.locator(selector).evaluate(
        "e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"))


def test_a_signed_out_vote_comes_back_through_sign_up_and_confirmation_in_chromium(mailing_site, chromium) -> None:  # type: ignore[no-untyped-def]
    server, smtp = mailing_site
    slug, name = _a_live_listing(server)
    before = _votes(server, slug)
    address = _address("returning")
    context = chromium.new_context(viewport=PHONE)
    offline(context)
    page = context.new_page()
    try:
        page.goto(f"{server.url}/listings/{slug}")
        page.get_by_role("link", name=re.compile(f"^Sign in to vote for {re.escape(name)},")).click()
        page.wait_for_url(re.compile(r"/signin\?next="))
        page.get_by_text(f"Sign in to vote for {name}.").wait_for()  # the reason, said before the form
        _look(page, "signin-reason")

        create = page.get_by_role("main").get_by_role("link", name="Create an account")
        for link in create.all():  # the account menu's and the one under the form: both keep the way back
            assert quote(f"#vote-{slug}", safe="") in str(link.get_attribute("href"))
        create.last.click()
        page.get_by_role("heading", name="Create an account").wait_for()
        page.get_by_text(f"Create an account to vote for {name}.").wait_for()
        _look(page, "signup-reason")
        page.get_by_label("Email address").fill(address)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Create account").click()
        page.get_by_role("heading", name="Check your email").wait_for()
        page.get_by_text(f"sign in to vote for {name}", exact=False).wait_for()
        _look(page, "signup-sent")

        [message] = smtp.wait_for(address)
        link = VERIFY_LINK.search(message.get_content()).group(1)  # type: ignore[union-attr]
        page.goto(link)
        page.get_by_role("heading", name="Email address confirmed").wait_for()
        assert page.get_by_label("Email address").input_value() == address  # the address comes filled in
        page.get_by_text(f"Sign in to vote for {name}.").wait_for()
        _look(page, "verified-signin")

        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(re.compile(re.escape(f"/listings/{slug}#vote-{slug}") + "$"))  # back where the vote was
        vote = page.get_by_role("button", name=re.compile(f"^Vote for {re.escape(name)},"))
        assert _in_view(page, f"#vote-{slug}")
        vote.click()
        voted = re.compile(f"^Remove your vote for {re.escape(name)}, {before + 1} votes?$")
        page.get_by_role("button", name=voted).wait_for()
        assert _votes(server, slug) == before + 1
        _look(page, "voted")
    finally:
        context.close()


def test_next_never_leads_off_the_site(mailing_site) -> None:  # type: ignore[no-untyped-def]
    server, _ = mailing_site
    with httpx.Client(base_url=server.url, timeout=15, follow_redirects=False) as client:
        for away in AWAY:
            page = client.get("/signin", params={"next": away})
            assert HIDDEN_NEXT.findall(page.text) == ["/account"], away
            assert "evil" not in page.text, away
        address = _address("away")  # signs up asking to come back to another site: the link forgets it
        r = client.post("/signup", data={"csrf_token": _csrf(client.get("/signup")), "email": address,
                                         "password": PASSWORD, "next": AWAY[0]})
        assert r.status_code == 200 and "evil" not in r.text
        confirmed = client.get(_link(server, address, "verify_email").replace(server.url, ""))
        assert confirmed.status_code == 200 and HIDDEN_NEXT.findall(confirmed.text) == ["/account"]
        for away in AWAY:
            r = client.post("/signin", data={"csrf_token": _csrf(client.get("/signin")), "email": address,
                                             "password": PASSWORD, "next": away})
            assert r.status_code == 303 and r.headers["location"] == "/account", away
        here = "/launches/this?page=1#vote-x"  # a path of the site, its query and fragment kept
        r = client.post("/signin", data={"csrf_token": _csrf(client.get("/signin")), "email": address,
                                         "password": PASSWORD, "next": here})
        assert r.status_code == 303 and r.headers["location"] == here


def test_the_sign_in_page_says_what_the_person_was_doing(mailing_site) -> None:  # type: ignore[no-untyped-def]
    server, _ = mailing_site
    slug, name = _a_live_listing(server)
    with httpx.Client(base_url=server.url, timeout=15, follow_redirects=False) as client:
        said = {}
        for start in ("/submit", f"/listings/{slug}/review"):  # signed out, these pages send the visitor to sign in
            r = client.get(start)
            assert r.status_code == 303 and r.headers["location"].startswith("/signin?next="), start
            said[start] = client.get(r.headers["location"]).text
        assert "Sign in to submit your product." in said["/submit"]
        assert f"Sign in to review {name}." in said[f"/listings/{slug}/review"]
        follow = re.search(r'id="follow-[^"]+" href="([^"]+)"', client.get(f"/listings/{slug}").text)
        assert follow is not None and f"Sign in to follow {name}." in client.get(follow.group(1)).text
        unknown = client.get("/signin", params={"next": "/#vote-no-such-listing"}).text  # no listing: no name made up
        assert "Sign in to vote." in unknown
        assert '<p class="lead">' not in client.get("/signin", params={"next": "/account"}).text


def test_confirming_while_signed_in_and_signing_up_again_keep_the_way_back(mailing_site) -> None:  # type: ignore[no-untyped-def]
    server, _ = mailing_site
    slug, name = _a_live_listing(server)
    back = f"/listings/{slug}#vote-{slug}"
    address = _address("signed-in")
    with httpx.Client(base_url=server.url, timeout=15, follow_redirects=False) as client:
        r = client.post("/signup", data={"csrf_token": _csrf(client.get("/signup")), "email": address,
                                         "password": PASSWORD, "next": back})
        link = _link(server, address, "verify_email").replace(server.url, "")
        r = client.post("/signin", data={"csrf_token": _csrf(client.get("/signin")), "email": address,
                                         "password": PASSWORD, "next": "/account"})
        assert r.status_code == 303
        confirmed = client.get(link)  # signed in already (before confirming): a link straight back
        assert confirmed.status_code == 200 and "Email address confirmed" in confirmed.text
        assert f'href="{back}">Continue to vote for {name}</a>' in confirmed.text
        again = client.get(link)  # opened again (or first by a mail scanner): still leads back
        assert again.status_code == 200 and f'href="{back}"' in again.text
        client.post("/signup", data={"csrf_token": _csrf(client.get("/signup")), "email": address,
                                     "password": PASSWORD, "next": back})
        notice = _link(server, address, "signup_existing")  # the address has an account: its sign-in link leads back
        assert notice.endswith("/signin?next=" + quote(back, safe="/"))


def test_a_vote_without_script_lands_on_its_button(mailing_site, chromium) -> None:  # type: ignore[no-untyped-def]
    server, _ = mailing_site
    slug, name = _a_live_listing(server, last=True)  # the week's last card: far below the top on a phone
    address = _address("no-script")
    with httpx.Client(base_url=server.url, timeout=15, follow_redirects=False) as client:
        client.post("/signup", data={"csrf_token": _csrf(client.get("/signup")), "email": address,
                                     "password": PASSWORD})
        assert client.get(_link(server, address, "verify_email").replace(server.url, "")).status_code == 200
    context = chromium.new_context(viewport=PHONE, java_script_enabled=False)
    offline(context)
    page = context.new_page()
    try:
        page.goto(f"{server.url}/signin?next=/launches/this")
        page.get_by_label("Email address").fill(address)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(re.compile(r"/launches/this$"))
        before = _votes(server, slug)
        page.get_by_role("button", name=re.compile(f"^Vote for {re.escape(name)},")).click()
        page.wait_for_url(re.compile(re.escape(f"/launches/this#vote-{slug}") + "$"))
        assert page.locator(f"#vote-{slug}").count() == 1  # the anchor exists, once
        assert _in_view(page, f"#vote-{slug}")  # the page opens at the button, not at its top
        assert page.evaluate("scrollY") > 0
        assert _votes(server, slug) == before + 1
        page.screenshot(path=str(SHOTS / "no-script-week-390.png"))

        page.goto(f"{server.url}/listings/{slug}")
        page.get_by_role("button", name=re.compile(f"^Remove your vote for {re.escape(name)},")).click()
        page.wait_for_url(re.compile(re.escape(f"/listings/{slug}#vote-{slug}") + "$"))
        page.get_by_role("button", name=re.compile(f"^Vote for {re.escape(name)},")).wait_for()
        assert _in_view(page, f"#vote-{slug}") and _votes(server, slug) == before

        for path in ("/", "/launches/this", f"/listings/{slug}"):  # a listing on two lists of a page: one anchor
            page.goto(server.url + path)
            anchors = page.evaluate("[...document.querySelectorAll('[id^=vote-]')].map(e => e.id)")
            assert anchors and len(anchors) == len(set(anchors)), path
    finally:
        context.close()
