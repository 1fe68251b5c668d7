"""The founder's pages after a user's walk (2026-12-05), in Chromium at 390 and 1440 px.

- The order form: a product the listing cannot take now cannot be ticked (a disabled box, the reason next to it and
  tied to it); a week product offers only the weeks the listing can take, and is unavailable when it has none; a
  refusal that still comes back (a post made elsewhere) is said once, by its product, and the summary names the
  fields without repeating their messages.
- The badge page says "keep it on your homepage" once after a check that found the badge.
- An invite link opened signed out leads through sign-in (or sign-up and the confirmation mail) with the reason
  "accept the invitation to co-own <name>" and back to the invite, which is then accepted.
- The listing editor names its fields as the draft editor does, and says in one line above the form where the name,
  stage, categories, tags and logo are changed (the listing's draft, or the site's contact address).

axe-core on every page; screenshots in LAUNCHDIR_SCREENSHOTS or /tmp/shots/founder.
"""

from __future__ import annotations

import html
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx
import pytest

from commands import catalog as catalog_cmd
from commands import listing as listing_cmd
from events.week_names import week_name
from tests.conftest import RunningServer
from tests.e2e import founder_support_listings as listings
from tests.e2e.founder_support_drafts import INVITE_LINK, VERIFY_LINK, address, mailed_link, mailing_server
from tests.e2e.submission_support import PASSWORD, Person, ik, person
from tests.e2e.test_free_plan import with_badge
from tests.e2e.test_orders_rest import SCOPES, STAFF
from tests.fixtures.drafting_sites import serve
from tests.integration.test_accounts_mail import LocalSmtp

API = "/api/v1"
SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS", "/tmp/shots/founder"))
CONTACT = "team@launchdir.example"
MAIN = re.compile(r"<main\b.*?</main>", re.S)
SHARED_FIELDS = ("tagline", "short_description", "description", "pricing_model", "pricing_summary", "country", "city",
                 "founded_year", "demo_video_url", "contact_email", "features", "usps", "keywords")
"""The fields both the draft editor and the listing editor edit."""


@dataclass
class Owner:
    who: Person
    draft_id: str  # the draft the listing `ids["draft"]` was saved from
    ids: dict[str, int]  # a listing in each state the order form treats apart
    weeks: dict[str, str]  # the week each queued or scheduled listing waits for


def _monday(weeks: int) -> str:
    today = date.today()
    return (today - timedelta(days=today.weekday()) + timedelta(weeks=weeks)).isoformat()


@pytest.fixture(scope="module")
def mailing(databases) -> Iterator[tuple[RunningServer, LocalSmtp]]:  # type: ignore[no-untyped-def]
    yield from mailing_server(databases)


@pytest.fixture(scope="module")
def site(mailing: tuple[RunningServer, LocalSmtp]) -> RunningServer:
    return mailing[0]


def _from_draft(site: RunningServer, who: Person, fixture_site: str) -> tuple[str, int]:
    """A fixture site submitted, drafted and saved as a listing: (the draft's id, the listing's id)."""
    with httpx.Client(base_url=site.url + API, timeout=20) as api, serve(fixture_site) as server:
        r = api.post("/drafts", json={"url": server.url("/")}, headers=who.headers(**ik()))
        assert r.status_code == 201, r.text
        draft_id = r.json()["id"]
        deadline = time.monotonic() + 60
        while (d := api.get(f"/drafts/{draft_id}", headers=who.headers()).json())["status"] not in ("ready", "failed"):
            assert time.monotonic() < deadline, d["status"]
            time.sleep(0.1)
        assert d["status"] == "ready", d
        if not d["fields"]["categories"]["value"]:
            r = api.patch(f"/drafts/{draft_id}", json={"fields": {"categories": ["productivity"]}},
                          headers=who.headers(**ik()))
            assert r.status_code == 200, r.text
        r = api.post(f"/drafts/{draft_id}/submit", headers=who.headers(**ik()))
        assert r.status_code == 200, r.text
        return draft_id, int(r.json()["listing_id"])


def _listing(site: RunningServer, who: Person, name: str, website: str | None = None) -> int:
    c: Any = site.container
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": name, "tagline": "Ship small things often",
                 "website_url": website or f"https://{name.lower().replace(' ', '-')}-{uuid4().hex[:8]}.example"},
        categories=["developer-tools"], owner_ids=[who.account_id]), STAFF)
    assert c.runtime.wait_for(["listing_view", "search_view"], created.position, timeout=5)
    return created.listing_id


@pytest.fixture(scope="module")
def owner(site: RunningServer) -> Owner:
    c: Any = site.container
    who = person(site, SCOPES, password=PASSWORD)
    draft_id, saved = _from_draft(site, who, "devtool")
    weeks = {"scheduled": _monday(3), "queued_next_week": _monday(1), "queued_later": _monday(4)}
    ids = {"draft": saved} | {state: _listing(site, who, f"Quillmark {n}") for n, state in enumerate(weeks, start=1)}
    listing_cmd.schedule_paid(c.store, ids["scheduled"], weeks["scheduled"], STAFF)
    listing_cmd.queue_free(c.store, ids["queued_next_week"], weeks["queued_next_week"], STAFF)
    listing_cmd.queue_free(c.store, ids["queued_later"], weeks["queued_later"], STAFF)
    assert c.runtime.wait_for(["listing_view", "search_view", "launches_view"], c.store.position(), timeout=10)
    return Owner(who, draft_id, ids, weeks)


@pytest.fixture(scope="module")
def page(chromium: Any, site: RunningServer, owner: Owner) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    listings.sign_in(page, site.url, owner.who.email, PASSWORD)
    yield page
    context.close()


def _at(page: Any, url: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 844 if width < 800 else 900})
    page.goto(url)


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"]
    page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)


def _sideways(page: Any) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth > innerWidth"))


def _looks_right(page: Any, name: str) -> None:
    """axe-core finds nothing serious, no sideways scroll on a phone; a screenshot at each width."""
    for width in listings.WIDTHS:
        page.set_viewport_size({"width": width, "height": 844 if width < 800 else 900})
        assert not _sideways(page), (name, width)
        assert listings.axe_violations(page) == [], (name, width)
        _shot(page, name)
    page.set_viewport_size({"width": 1440, "height": 900})


def _text_of_main(page_html: str) -> str:
    """The words of the page's main part as read (tags dropped, spaces folded)."""
    found = MAIN.search(page_html)
    assert found is not None
    text = re.sub(r"<(style|script)\b.*?</\1>", " ", found.group(0), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def _box(page: Any, label: str) -> Any:
    return page.get_by_label(re.compile(f"^{re.escape(label)},"))


def _reason(page: Any, code: str) -> str:
    """The reason a product's box is disabled: the text its aria-describedby names."""
    box = page.locator(f"#product-{code}")
    assert box.is_disabled(), code
    described = str(box.get_attribute("aria-describedby"))
    return str(page.locator(f"#{described}").inner_text())


def _weeks(page: Any, code: str) -> list[str]:
    return [str(v) for v in page.locator(f"#week-{code} option").evaluate_all("os => os.map(o => o.value)") if v]


# ---------------------------------------------------------------- the order form


def test_products_the_listing_cannot_take_cannot_be_ticked_and_say_why(site: RunningServer, owner: Owner,
                                                                     page: Any) -> None:
    _at(page, f"{site.url}/my/listings/{owner.ids['draft']}/order", 1440)
    said = _reason(page, "relaunch")  # a saved listing: no relaunch, no skip of a queue it is not in
    assert said.startswith("Not for this listing now: ") and "for listings that are live" in said
    assert "free listing that waits for its launch week" in _reason(page, "skip_queue")
    for name in ("Launch", "Featured placement", "Billboard"):  # what it can take stays free to tick
        assert _box(page, name).is_enabled(), name
    assert page.locator("#week-relaunch").count() == 0  # an unavailable product has no fields to fill
    _looks_right(page, "order-form-saved-listing")

    _at(page, f"{site.url}/my/listings/{owner.ids['scheduled']}/order", 1440)
    assert "already scheduled" in _reason(page, "launch") and "already scheduled" in _reason(page, "launch_bundle")
    featured = _weeks(page, "featured")  # only the weeks it will be live in
    assert featured and featured[0] == owner.weeks["scheduled"] and all(w >= owner.weeks["scheduled"] for w in featured)

    _at(page, f"{site.url}/my/listings/{owner.ids['queued_later']}/order", 1440)
    assert _box(page, "Skip the queue").is_enabled()
    assert _weeks(page, "skip_queue") == [_monday(k) for k in range(1, 4)]  # earlier than its week only

    _at(page, f"{site.url}/my/listings/{owner.ids['queued_next_week']}/order", 1440)
    said = _reason(page, "skip_queue")  # no offered week is earlier than next week's
    queued = week_name(owner.weeks["queued_next_week"], plain=True)  # weeks in words (second round)
    assert f"queued for the week of {queued}" in said and "none of the weeks it can take now" in said
    _looks_right(page, "order-form-queued-next-week")


def test_a_refusal_is_said_once_by_its_field(site: RunningServer, owner: Owner, page: Any) -> None:
    listing_id = owner.ids["draft"]
    _at(page, f"{site.url}/my/listings/{listing_id}/order", 1440)
    _box(page, "Featured placement").check()  # without its week
    page.get_by_role("button", name="See the quote").click()
    error = page.locator("#week-featured-error")
    assert error.inner_text().endswith("Choose a week.")
    assert page.locator("main").inner_text().count("Choose a week.") == 1
    summary = page.get_by_role("alert")
    link = summary.get_by_role("link", name="Week for Featured placement", exact=True)
    assert link.get_attribute("href") == "#week-featured" and "Choose a week" not in summary.inner_text()
    assert page.get_by_label("Week for Featured placement").get_attribute("aria-describedby") == "week-featured-error"
    _looks_right(page, "order-form-refused")

    # a post the form would not make (a product ticked elsewhere): refused by the command, said once, by its box
    client = listings.signed_in_client(site.url, owner.who.email, PASSWORD)
    form = client.get(f"/my/listings/{listing_id}/order").text
    r = client.post(f"/my/listings/{listing_id}/order", data={
        "csrf_token": listings.csrf_of(form), "product": ["relaunch", "skip_queue"], "week-relaunch": "",
        "action": "quote"})
    assert r.status_code == 400
    text = _text_of_main(r.text)
    assert text.count("Relaunch is for listings that are live") == 1, text  # then the listing's status, in words
    assert text.count("moves a free listing that waits for its launch week") == 1, text
    assert "Choose a week." not in text  # the week of a product it cannot take is not asked for
    assert 'href="#product-relaunch-not-now">Relaunch</a>' in r.text
    assert re.search(r'<p class="error" id="product-relaunch-not-now">', r.text)


# ---------------------------------------------------------------- the badge page


def test_the_badge_page_says_keep_it_on_your_homepage_once(site: RunningServer, owner: Owner, page: Any) -> None:
    with serve("devtool") as homepage:
        listing_id = _listing(site, owner.who, "Pennyweight", website=homepage.url("/"))
        embed = listings.launch_free(page, site.url, listing_id)
        assert listings.check_badge_now(page, site.url, listing_id) == "missing"
        said = page.locator("main").inner_text()
        assert said.count("badge's code") == 1, said  # what to paste is said once, below the notice
        with_badge(homepage, embed)
        assert listings.check_badge_now(page, site.url, listing_id) == "found"
        said = page.locator("main").inner_text()
        assert page.locator("#badge-notice").get_attribute("data-kind") == "found"
        assert said.lower().count("keep it") == 1, said
        assert said.count("Your badge is on your homepage") == 1, said
        _looks_right(page, "badge-found")
        page.goto(f"{site.url}/my/listings/{listing_id}/badge")  # a later visit: the standing line says it
        assert page.locator("#badge-next").inner_text().startswith("Your badge is on your homepage")


# ---------------------------------------------------------------- an invite opened signed out


def test_an_invite_opened_signed_out_comes_back_through_sign_up_and_is_accepted(
        mailing: tuple[RunningServer, LocalSmtp], owner: Owner, chromium: Any) -> None:
    site, smtp = mailing
    invited = address("cofounder")
    with httpx.Client(base_url=site.url + API, timeout=20) as api:
        r = api.post(f"/drafts/{owner.draft_id}/invites", json={"email": invited}, headers=owner.who.headers(**ik()))
        assert r.status_code == 201, r.text
        name = api.get(f"/drafts/{owner.draft_id}", headers=owner.who.headers()).json()["fields"]["name"]["value"]
    link = mailed_link(smtp, invited, INVITE_LINK)
    reason = f"accept the invitation to co-own {name}"
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(link)  # signed out
        page.wait_for_url(re.compile(r"/signin\?next=%2Finvites%2Faccept"))
        page.get_by_text(f"Sign in to {reason}.").wait_for()
        _looks_right(page, "invite-signin")
        page.get_by_role("main").get_by_role("link", name="Create an account").last.click()
        page.get_by_text(f"Create an account to {reason}.").wait_for()
        page.get_by_label("Email address").fill(invited)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Create account").click()
        page.get_by_role("heading", name="Check your email").wait_for()
        page.get_by_text(f"sign in to {reason}", exact=False).wait_for()
        page.goto(mailed_link(smtp, invited, VERIFY_LINK))
        page.get_by_role("heading", name="Email address confirmed").wait_for()
        page.get_by_text(f"Sign in to {reason}.").wait_for()
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(re.compile(r"/invites/accept\?"))  # back on the invite
        page.get_by_role("heading", name=f"Become a co-owner of {name}").wait_for()
        page.get_by_role("button", name="Accept the invite").click()
        page.get_by_role("heading", name="Invite accepted").wait_for()
    finally:
        context.close()
    with httpx.Client(base_url=site.url, timeout=15, follow_redirects=False) as browser:
        forged = "/invites/accept?" + link.split("?", 1)[1].replace("token=", "token=x")  # a link that does not work
        said = browser.get("/signin", params={"next": forged}).text
        assert "Sign in to accept your invite." in said and str(name) not in said  # names nothing private


# ---------------------------------------------------------------- the listing editor


def _label_texts(page: Any, names: list[str]) -> dict[str, str]:
    return {n: " ".join(str(page.locator(f'label[for="{n}"]').first.inner_text()).split()) for n in names}


def test_the_listing_editor_names_fields_as_the_draft_editor_and_says_what_it_cannot_change(
        site: RunningServer, owner: Owner, page: Any) -> None:
    page.goto(f"{site.url}/drafts/{owner.draft_id}")
    drafted = _label_texts(page, [f"fields.{n}" for n in SHARED_FIELDS])
    draft_hints = {n: str(page.locator(f'[id="fields.{n}-hint"]').inner_text()) for n in
                   ("country", "founded_year", "demo_video_url", "pricing_model")}
    _at(page, f"{site.url}/my/listings/{owner.ids['draft']}/edit", 1440)
    edited = _label_texts(page, list(SHARED_FIELDS))
    assert {n: edited[n] for n in SHARED_FIELDS} == {n: drafted[f"fields.{n}"] for n in SHARED_FIELDS}
    assert {n: str(page.locator(f"#{n}-hint").inner_text()) for n in draft_hints} == draft_hints
    assert page.get_by_label("Pricing model").evaluate("e => e.tagName") == "SELECT"  # a menu in both
    assert page.get_by_label("Country", exact=True).get_attribute("aria-describedby") == "country-hint"
    line = page.locator("#not-here")
    assert line.inner_text().startswith("The name, stage, categories, tags and logo are not changed here: change them")
    assert line.get_by_role("link").get_attribute("href") == f"/drafts/{owner.draft_id}"
    _looks_right(page, "listing-editor")

    # no draft of the owner's: the site's contact address, when it has one
    c: Any = site.container
    catalog_cmd.change_site_settings(c.store, catalog_cmd.ChangeSiteSettings(changes={"contact_email": CONTACT}), STAFF)
    assert c.runtime.wait_for(["catalog_view"], c.store.position(), timeout=5)
    page.goto(f"{site.url}/my/listings/{owner.ids['scheduled']}/edit")
    line = page.locator("#not-here")
    assert "write to the site team at" in line.inner_text()
    assert line.get_by_role("link").get_attribute("href") == f"mailto:{CONTACT}"
    page.get_by_label("Country", exact=True).fill("Germany")  # a refusal names the field as labelled
    page.get_by_role("button", name="Preview").click()
    assert "Country" in page.get_by_role("alert").get_by_role("link").first.inner_text()
