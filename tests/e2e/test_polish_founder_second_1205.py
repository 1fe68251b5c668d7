"""The founder's pages after a user's second walk (2026-12-05), in Chromium at 390 and 1440 px.

- The Trophy cabinet is only for a listing that won a Launch of the Week award, and names the award (a menu of the
  listing's awards on the order form; the API refuses the rest).
- A free listing that is live can show its milestones and story: the pages say the Launch bundle does it (an
  upgrade, no second launch) and link to the order form with it ticked; paid, it unlocks the sections.
- The draft editor's categories are a menu and boxes of the directory's categories; the editor says a listing shows
  only its primary one until it has a paid launch or Extra categories, and which it does not show, with a link to
  the order form that ticks Extra categories and those categories.
- The listing's dashboard invites a co-owner: through the draft when the owner has one, else on the listing.
- On a phone the founder pages' navigation takes a few lines, every link kept.
- The draft editor says what "Update the listing" does; the invite page names the site as staff named it.
- A featured week the listing is featured in already is not sold again; refusals say statuses and weeks in words.

axe-core on every page; screenshots in LAUNCHDIR_SCREENSHOTS or /tmp/shots/founder2.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import unquote
from uuid import uuid4

import httpx
import pytest

from commands import awards as awards_cmd
from commands import catalog as catalog_cmd
from commands import listing as listing_cmd
from events.week_names import week_name
from tests.conftest import RunningServer
from tests.e2e import founder_support_listings as listings
from tests.e2e.founder_support_drafts import INVITE_LINK, mailed_link, mailing_server
from tests.e2e.submission_support import PASSWORD, Person, ik, person
from tests.e2e.test_orders_rest import SCOPES, STAFF
from tests.fixtures.drafting_sites import serve
from tests.integration.test_accounts_mail import LocalSmtp

API = "/api/v1"
SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS", "/tmp/shots/founder2"))
SITE_NAME = "Shipyard Demo"


def _monday(weeks: int) -> str:
    today = date.today()
    return (today - timedelta(days=today.weekday()) + timedelta(weeks=weeks)).isoformat()


@dataclass
class Owner:
    who: Person
    ids: dict[str, int]
    award_week: str


@pytest.fixture(scope="module")
def mailing(databases) -> Iterator[tuple[RunningServer, LocalSmtp]]:  # type: ignore[no-untyped-def]
    yield from mailing_server(databases)


@pytest.fixture(scope="module")
def site(mailing: tuple[RunningServer, LocalSmtp]) -> RunningServer:
    return mailing[0]


def _listing(site: RunningServer, who: Person, name: str) -> int:
    c: Any = site.container
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": name, "tagline": "Ship small things often",
                 "website_url": f"https://{name.lower().replace(' ', '-')}-{uuid4().hex[:8]}.example"},
        categories=["developer-tools"], owner_ids=[who.account_id]), STAFF)
    assert c.runtime.wait_for(["listing_view", "search_view"], created.position, timeout=5)
    return created.listing_id


def _live_free(site: RunningServer, who: Person, name: str, week: str) -> int:
    """A listing live on the free plan since `week` (as after its badge was found and its week began)."""
    c: Any = site.container
    listing_id = _listing(site, who, name)
    listing_cmd.staff_publish(c.store, listing_id, STAFF, week=week, plan="free")
    return listing_id


@pytest.fixture(scope="module")
def owner(site: RunningServer) -> Owner:
    c: Any = site.container
    who = person(site, SCOPES, password=PASSWORD)
    award_week = _monday(-10)  # older than the weeks the scheduler recomputes: the award stays as closed here
    ids = {"won": _live_free(site, who, "Trophyhall", award_week),
           "no_award": _live_free(site, who, "Plainly", _monday(-1)),
           "free_live": _live_free(site, who, "Freeway", _monday(-1)),
           "saved": _listing(site, who, "Notyet")}
    awards_cmd.close_week(c.store, awards_cmd.CloseLaunchWeek.model_validate(
        {"week": award_week, "standings": [{"listing_id": ids["won"], "votes": 4}]}), STAFF)
    catalog_cmd.change_site_settings(c.store, catalog_cmd.ChangeSiteSettings(changes={"name": SITE_NAME}), STAFF)
    assert c.runtime.wait_for(["listing_view", "search_view", "launches_view", "catalog_view"], c.store.position(), timeout=10)
    return Owner(who, ids, award_week)


@pytest.fixture(scope="module")
def page(chromium: Any, site: RunningServer, owner: Owner) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    listings.sign_in(page, site.url, owner.who.email, PASSWORD)
    yield page
    context.close()


def _at(page: Any, url: str, width: int = 1440) -> None:
    page.set_viewport_size({"width": width, "height": 844 if width < 800 else 900})
    page.goto(url)


def _looks_right(page: Any, name: str) -> None:
    """axe-core finds nothing serious, no sideways scroll on a phone; a screenshot at each width."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in listings.WIDTHS:
        page.set_viewport_size({"width": width, "height": 844 if width < 800 else 900})
        assert not page.evaluate("() => document.documentElement.scrollWidth > innerWidth"), (name, width)
        assert listings.axe_violations(page) == [], (name, width)
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1440, "height": 900})


def _reason(page: Any, code: str) -> str:
    box = page.locator(f"#product-{code}")
    assert box.is_disabled(), code
    return str(page.locator(f"#{box.get_attribute('aria-describedby')}").inner_text())


def _quote(http: httpx.Client, who: Person, items: list[dict[str, Any]]) -> httpx.Response:
    return http.post(f"{API}/orders/quote", json={"items": items}, headers=who.headers())


def _problems(r: httpx.Response) -> list[tuple[str, str]]:
    assert r.status_code == 400, r.text
    return [(p["field"], p["rule"]) for p in r.json()["errors"]]


def _pay_on_the_checkout_page(page: Any) -> None:
    page.get_by_role("button", name="Go to checkout").click()
    page.wait_for_url(re.compile(r"/checkout/"))
    page.get_by_label("Name or company").fill("Ada Founder")
    page.get_by_label("Country", exact=True).select_option("US")
    page.get_by_role("button", name="Save billing details").click()
    page.locator("#pay").click()
    page.locator("#confirm").click()  # the test payment page (no payment provider configured)
    page.wait_for_url(re.compile(r"/checkout/[^/]+$"))


# ---------------------------------------------------------------- the trophy cabinet


def test_a_trophy_is_only_for_an_award_the_listing_won_and_names_it(site: RunningServer, owner: Owner,
                                                                    page: Any) -> None:
    _at(page, f"{site.url}/my/listings/{owner.ids['no_award']}/order")
    assert "has won none" in _reason(page, "trophy_cabinet")  # no box to tick, the reason next to it
    with httpx.Client(base_url=site.url, timeout=15) as http:
        r = _quote(http, owner.who, [{"product": "trophy_cabinet", "listing_id": owner.ids["no_award"]}])
        assert _problems(r) == [("items.0.listing_id", "no_award")]
        r = _quote(http, owner.who, [{"product": "trophy_cabinet", "listing_id": owner.ids["won"],
                                      "options": {"award": _monday(-2)}}])
        assert _problems(r) == [("items.0.options.award", "enum")]
        r = _quote(http, owner.who, [{"product": "trophy_cabinet", "listing_id": owner.ids["won"]}])
        assert _problems(r) == [("items.0.options.award", "required")]
        options = {p["code"]: p for p in http.get(f"{API}/products").json()["items"]}["trophy_cabinet"]["options"]
        assert "award" in options  # list_products declares the option (SPEC §4.7: options are an object)

    _at(page, f"{site.url}/my/listings/{owner.ids['won']}/order?product=trophy_cabinet")
    award = page.get_by_label("Award for Trophy cabinet")
    named = f"Launch of the Week #1, {week_name(owner.award_week)}"
    assert award.evaluate("e => e.selectedOptions[0].textContent") == named  # its one award, chosen already
    assert award.input_value() == owner.award_week
    page.get_by_role("button", name="See the quote").click()
    said = page.locator("#quote").inner_text()
    assert f"Launch of the Week award of {week_name(owner.award_week)}" in said.replace("\n", " ")
    _looks_right(page, "order-trophy-quote")
    page.get_by_role("button", name="Go to checkout").click()
    page.wait_for_url(re.compile(r"/checkout/"))
    assert f"Launch of the Week award of {week_name(owner.award_week)}" in page.locator("main").inner_text()


# ---------------------------------------------------------------- paid sections of a free live listing


def test_a_free_live_listing_is_told_the_bundle_shows_its_sections_and_can_buy_it(site: RunningServer, owner: Owner,
                                                                                 page: Any) -> None:
    listing_id = owner.ids["free_live"]
    for tab, what in (("story", "the story"), ("milestones", "milestones")):
        _at(page, f"{site.url}/my/listings/{listing_id}/{tab}", 390)
        said = page.locator("#shown-publicly").inner_text()
        assert f"only its owners see {what}" in said and "without a second launch" in said, said
        assert week_name(_monday(-1)).replace("\u00a0", " ") in said.replace("\u00a0", " ")
        link = page.locator("#unlock-link")
        assert link.inner_text() == "Buy the Launch bundle"
        _looks_right(page, f"my-{tab}-free-live")
    _at(page, f"{site.url}/my/listings/{listing_id}")
    assert "Launch bundle" in page.locator("#unlock-sections").inner_text()
    _looks_right(page, "dashboard-free-live")

    _at(page, f"{site.url}/my/listings/{listing_id}/milestones")
    page.locator("#unlock-link").click()
    page.wait_for_url(re.compile(r"/order\?product=launch_bundle"))
    bundle = page.locator("#product-launch_bundle")
    assert bundle.is_enabled() and bundle.is_checked()
    assert "no second launch" in page.locator("#upgrade-note").inner_text()
    week = _monday(2)
    page.get_by_label("Featured week for Launch bundle").select_option(week)
    page.get_by_role("button", name="See the quote").click()
    page.locator("#quote-total").wait_for()
    _looks_right(page, "order-bundle-upgrade")
    _pay_on_the_checkout_page(page)

    got = listings.reload_until(page, f"{site.url}/my/listings/{listing_id}/milestones", "#shown-publicly",
                                ("Milestones show on the public page.",))
    assert got.startswith("Milestones show on the public page.")
    with httpx.Client(base_url=site.url, timeout=15) as http:
        mine = http.get(f"{API}/me/listings/{listing_id}", headers=owner.who.headers()).json()
    assert (mine["status"], mine["plan"], mine["launch_week"]) == ("live", "free", _monday(-1))  # no second launch
    assert {"story", "milestones", "media"} <= set(mine["unlocked_sections"])

    # the week it is featured in now is not sold again; the API refuses it too
    deadline = time.monotonic() + 15
    while True:
        _at(page, f"{site.url}/my/listings/{listing_id}/order")
        weeks = [v for v in page.locator("#week-featured option").evaluate_all("os => os.map(o => o.value)") if v]
        if week not in weeks or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert week not in weeks and _monday(3) in weeks
    assert "already" in _reason(page, "launch_bundle")  # its sections show already: no second bundle
    with httpx.Client(base_url=site.url, timeout=15) as http:
        r = _quote(http, owner.who, [{"product": "featured", "listing_id": listing_id, "week": week}])
        assert _problems(r) == [("items.0.week", "already_featured")]


def test_refusals_say_the_status_in_words(site: RunningServer, owner: Owner, page: Any) -> None:
    _at(page, f"{site.url}/my/listings/{owner.ids['saved']}/order")
    said = _reason(page, "skip_queue")
    assert "this listing is saved but not launched or queued yet" in said and "is draft" not in said
    _at(page, f"{site.url}/my/listings/{owner.ids['no_award']}/order")
    said = _reason(page, "relaunch")
    assert f"launched in the week of {week_name(_monday(-1), plain=True)}" in said and _monday(-1) not in said


# ---------------------------------------------------------------- the draft editor's categories


def _from_draft(site: RunningServer, who: Person) -> tuple[str, int]:
    """The devtool fixture site submitted, drafted (primary category Productivity) and saved as a listing."""
    with httpx.Client(base_url=site.url + API, timeout=20) as api, serve("devtool") as server:
        r = api.post("/drafts", json={"url": server.url("/")}, headers=who.headers(**ik()))
        assert r.status_code == 201, r.text
        draft_id = r.json()["id"]
        deadline = time.monotonic() + 60
        while (d := api.get(f"/drafts/{draft_id}", headers=who.headers()).json())["status"] not in ("ready", "failed"):
            assert time.monotonic() < deadline, d["status"]
            time.sleep(0.1)
        assert d["status"] == "ready", d
        r = api.patch(f"/drafts/{draft_id}", json={"fields": {"categories": ["productivity"]}},
                      headers=who.headers(**ik()))
        assert r.status_code == 200, r.text
        r = api.post(f"/drafts/{draft_id}/submit", headers=who.headers(**ik()))
        assert r.status_code == 200, r.text
        return draft_id, int(r.json()["listing_id"])


@pytest.fixture(scope="module")
def drafted(site: RunningServer, owner: Owner) -> tuple[str, int]:
    return _from_draft(site, owner.who)


def test_the_draft_editor_offers_real_categories_and_says_which_the_listing_shows(
        site: RunningServer, owner: Owner, drafted: tuple[str, int], page: Any) -> None:
    draft_id, listing_id = drafted
    _at(page, f"{site.url}/drafts/{draft_id}")
    primary = page.get_by_label("Primary category")
    assert primary.evaluate("e => e.tagName") == "SELECT" and primary.input_value() == "productivity"
    hint = page.locator('[id="fields.categories-hint"]').inner_text()
    assert "shows only this one until it has a paid launch or the Extra categories product" in hint
    assert primary.get_attribute("aria-describedby") == "fields.categories-hint"
    more = page.get_by_role("group", name="More categories")
    more.get_by_label("AI & Machine Learning", exact=True).check()  # names shown, slugs sent
    more.get_by_label("Finance", exact=True).check()
    page.get_by_role("button", name="Save changes").first.click()
    page.get_by_role("status").filter(has_text="saved").wait_for()
    with httpx.Client(base_url=site.url + API, timeout=15) as api:
        cats = api.get(f"/drafts/{draft_id}", headers=owner.who.headers()).json()["fields"]["categories"]["value"]
    assert cats == ["productivity", "ai", "finance"]

    said = page.locator("#listing-categories").inner_text()
    assert said.startswith("Your listing shows Productivity, its primary category: AI & Machine Learning, Finance are "
                           "not shown"), said
    link = page.locator("#listing-categories a")
    assert unquote(str(link.get_attribute("href"))) == (
        f"/my/listings/{listing_id}/order?product=extra_categories&category=ai&category=finance"
        "#product-extra_categories-box")
    hint = page.locator("#update-hint").inner_text()  # what "Update the listing" does, tied to the button
    assert "copies your changes to the listing" in hint
    assert page.get_by_role("button", name="Update the listing").get_attribute("aria-describedby") == "update-hint"
    assert "copies what you changed to the listing" in page.locator("#listing-sync").inner_text()
    page.locator("#listing").scroll_into_view_if_needed()
    _looks_right(page, "draft-categories")

    link.click()
    page.wait_for_url(re.compile(r"/order\?product=extra_categories"))
    assert page.locator("#product-extra_categories").is_checked()
    boxes = page.get_by_role("group", name=re.compile(r"^Extra categories"))
    assert boxes.get_by_label("AI & Machine Learning", exact=True).is_checked()
    assert boxes.get_by_label("Finance", exact=True).is_checked()
    assert boxes.get_by_label("Productivity", exact=True).count() == 0  # the primary is not an extra
    page.get_by_role("button", name="See the quote").click()
    assert "AI & Machine Learning, Finance" in page.locator("#quote").inner_text()  # by name, as chosen
    _looks_right(page, "order-extra-categories")


# ---------------------------------------------------------------- invite a co-owner from the dashboard


def test_the_dashboard_invites_a_co_owner_of_a_listing_without_a_draft(
        mailing: tuple[RunningServer, LocalSmtp], owner: Owner, page: Any, chromium: Any) -> None:
    site, smtp = mailing
    listing_id = owner.ids["no_award"]
    cofounder = person(site, SCOPES, password=PASSWORD)
    _at(page, f"{site.url}/my/listings/{listing_id}")
    page.get_by_label("Co-owner's email address").fill("not an address")
    page.get_by_role("button", name="Invite a co-owner").click()
    assert page.locator("#email-error").is_visible()
    page.get_by_label("Co-owner's email address").fill(cofounder.email)
    page.get_by_role("button", name="Invite a co-owner").click()
    page.get_by_role("status").filter(has_text="The invite is on its way").wait_for()
    assert cofounder.email in page.locator("#co-owners").inner_text()
    assert "not accepted yet" in page.locator("#co-owners").inner_text()
    _looks_right(page, "dashboard-invited")

    link = mailed_link(smtp, cofounder.email, INVITE_LINK)
    assert f"listing={listing_id}" in link
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    other = context.new_page()
    try:
        listings.sign_in(other, site.url, cofounder.email, PASSWORD)
        other.goto(link)
        other.get_by_role("heading", name="Become a co-owner of Plainly").wait_for()
        said = other.get_by_role("main").inner_text()
        assert f"co-own the {SITE_NAME} listing of Plainly" in said and "launchdir" not in said
        _looks_right(other, "invite-listing")
        other.get_by_role("button", name="Accept the invite").click()
        other.get_by_role("heading", name="Invite accepted").wait_for()
        other.get_by_role("link", name="Open the listing").click()
        other.get_by_role("heading", name="Plainly").wait_for()
    finally:
        context.close()
    with httpx.Client(base_url=site.url, timeout=15) as http:
        assert http.get(f"{API}/me/listings/{listing_id}", headers=cofounder.headers()).status_code == 200
    _at(page, f"{site.url}/my/listings/{listing_id}")
    assert "accepted" in page.locator("#co-owners").inner_text()


def test_the_dashboard_invites_through_the_listings_draft(mailing: tuple[RunningServer, LocalSmtp], owner: Owner,
                                                          drafted: tuple[str, int], page: Any) -> None:
    site, smtp = mailing
    draft_id, listing_id = drafted
    invited = f"cofounder-{uuid4().hex[:8]}@example.com"
    _at(page, f"{site.url}/my/listings/{listing_id}")
    assert page.locator("#co-owners a", has_text="its draft").get_attribute("href") == f"/drafts/{draft_id}"
    page.get_by_label("Co-owner's email address").fill(invited)
    page.get_by_role("button", name="Invite a co-owner").click()
    page.get_by_role("status").filter(has_text="The invite is on its way").wait_for()
    with httpx.Client(base_url=site.url + API, timeout=15) as api:
        doc = api.get(f"/drafts/{draft_id}", headers=owner.who.headers()).json()
    assert invited in [i["email"] for i in doc["invites"]]  # the draft's own invite: both are co-owned
    link = mailed_link(smtp, invited, INVITE_LINK)
    assert f"draft={draft_id}" in link
    cofounder = person(site, SCOPES, password=PASSWORD)
    client = listings.signed_in_client(site.url, cofounder.email, PASSWORD)
    try:
        shown = client.get(link.replace(site.url, "")).text
    finally:
        client.close()
    assert f"co-own the {SITE_NAME} profile of" in " ".join(shown.split()) and "launchdir profile" not in shown


# ---------------------------------------------------------------- the navigation on a phone


def test_a_phone_shows_the_heading_after_a_few_lines_of_navigation(site: RunningServer, owner: Owner,
                                                                   page: Any) -> None:
    listing_id = owner.ids["free_live"]
    for path, tabbed in ((f"/my/listings/{listing_id}", True), (f"/my/listings/{listing_id}/milestones", True),
                         ("/my/orders", False)):
        _at(page, site.url + path, 390)
        top = page.locator("h1").bounding_box()["y"]
        assert top < 400, (path, top)  # about 520 px before
        work = page.get_by_role("navigation", name="Your work")
        hrefs = work.get_by_role("link").evaluate_all("ls => ls.map(l => l.getAttribute('href'))")
        assert hrefs == ["/submit", "/drafts", "/my/listings", "/my/orders", "/my/claims", "/my/interview"]
        boxes = work.get_by_role("link").evaluate_all(
            "ls => ls.map(l => l.getBoundingClientRect()).map(r => [r.top, r.right])")
        assert all(right <= 390 for _top, right in boxes)  # every link in view: nothing scrolls sideways
        assert len({round(top) for top, _right in boxes}) <= 2
        account = page.get_by_role("navigation", name="Account")
        assert account.get_by_role("link", name="Your account").is_visible()
        assert account.get_by_role("button", name="Sign out").is_visible()
        if tabbed:
            tabs = page.get_by_role("navigation", name="This listing").get_by_role("link")
            boxes = tabs.evaluate_all("ls => ls.map(l => l.getBoundingClientRect()).map(r => [r.top, r.right])")
            assert len(boxes) >= 8 and all(right <= 390 for _top, right in boxes)  # every tab in view
            assert len({round(top) for top, _right in boxes}) <= 2  # on two rows at most
            assert page.locator(".crumbs").is_hidden()  # its links are the founder links and the Overview tab
        assert page.evaluate("() => [...document.querySelectorAll('main *')].every(e => e.scrollWidth <= e.clientWidth"
                             " + 1 || !['auto', 'scroll'].includes(getComputedStyle(e).overflowX))")  # no box either
        _looks_right(page, "phone-nav" + path.replace("/", "-"))
