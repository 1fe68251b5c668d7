"""The founder's pages after a third walk (2026-12-04), in Chromium at 390 and 1440 px.

- A draft that could not be drafted says what to do about its reason (robots.txt: the crawler's token to allow).
- The draft's sidebar says once that a missing field was not found on the site.
- The draft editor's hints give the lengths a listing takes (tagline 200, short description 300), not the draft's.
- The listing's dashboard lists its recent versions by the fields they changed; the diffs are on the history page.
- Versions say who, how and their review in words ("on the website; the site team may review it").
- The plan, the unlocked sections and the badge check's result are words ("Free", "Not found on your homepage").
- The checkout's billing form shows the page's own messages next to its fields (no browser bubble).
- A paid checkout tells its owner where to go next (the listing and the order).
- The order page names weeks ("the week of 14–20 Dec 2026"), not their Mondays.
- The invite's notice stands in the Co-owners section, where the page comes back to.
- A refused claim is said in the form's words, the DNS method's refusal at the methods.

axe-core on every page; screenshots in LAUNCHDIR_SCREENSHOTS or /tmp/shots/founder.
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
from uuid import uuid4

import httpx
import pytest

from api.web_draft_view import ROBOTS_TOKEN
from commands import listing as listing_cmd
from events.week_names import week_name
from tests.conftest import RunningServer
from tests.e2e import founder_support_listings as listings
from tests.e2e.submission_support import PASSWORD, Person, ik, person, saved_listing
from tests.e2e.test_orders_rest import SCOPES, STAFF
from tests.fixtures.drafting_sites import serve
from workers.adapters.websites.settings import DEFAULT_USER_AGENT

SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS", "/tmp/shots/founder"))


@dataclass
class Founder:
    who: Person
    free: int  # saved, then launched for free (its website gone: the badge check misses)
    paid: int  # saved, then bought a launch


def _monday(weeks: int) -> str:
    today = date.today()
    return (today - timedelta(days=today.weekday()) + timedelta(weeks=weeks)).isoformat()


@pytest.fixture(scope="module")
def founder(live: RunningServer, http: httpx.Client) -> Founder:
    who = person(live, SCOPES, password=PASSWORD)
    return Founder(who, saved_listing(http, who, "devtool"), saved_listing(http, who, "studio"))


@pytest.fixture(scope="module")
def page(chromium: Any, live: RunningServer, founder: Founder) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    listings.sign_in(page, live.url, founder.who.email, PASSWORD)
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


def _draft(http: httpx.Client, who: Person, site: str) -> str:
    """A draft of a fixture site, once it is ready or failed (its id)."""
    with serve(site) as server:
        r = http.post("/drafts", json={"url": server.url("/")}, headers=who.headers(**ik()))
        assert r.status_code == 201, r.text
        draft_id = str(r.json()["id"])
        deadline = time.monotonic() + 60
        while http.get(f"/drafts/{draft_id}", headers=who.headers()).json()["status"] not in ("ready", "failed"):
            assert time.monotonic() < deadline
            time.sleep(0.1)
    return draft_id


# ---------------------------------------------------------------- drafts


def test_a_draft_refused_by_robots_says_how_to_let_the_crawler_in(live: RunningServer, http: httpx.Client,
                                                                  founder: Founder, page: Any) -> None:
    assert DEFAULT_USER_AGENT.startswith(ROBOTS_TOKEN + "/")  # the page names the token robots.txt is matched on
    draft_id = _draft(http, founder.who, "closed")  # its robots.txt disallows everything
    _at(page, f"{live.url}/drafts/{draft_id}", 390)
    said = page.locator("#failure-next").inner_text()
    assert f"User-agent: {ROBOTS_TOKEN}" in said and "submit the site again" in said, said
    assert "Reason code: robots_forbidden" in page.locator(".failure").inner_text()
    _looks_right(page, "draft-failed-robots")


def test_the_draft_says_once_that_a_missing_field_was_not_found(live: RunningServer, http: httpx.Client,
                                                                founder: Founder, page: Any) -> None:
    draft_id = _draft(http, founder.who, "devtool")  # the site states no tags and no keywords
    _at(page, f"{live.url}/drafts/{draft_id}")
    side = page.locator("section[aria-labelledby=complete-title]")
    items = [t.strip() for t in side.locator("ul.missing li").all_inner_texts()]
    assert "Tags (not found on your site)" in items, items
    text = side.inner_text()
    assert text.count("Tags") == 1 and text.count("Keywords") == 1, text  # not listed a second time below
    _looks_right(page, "draft-sidebar")


def test_one_page_of_drafts_has_no_pager(live: RunningServer, http: httpx.Client, founder: Founder, page: Any) -> None:
    """"Page 1 of 1" tells nothing: the pager shows only when there is another page to go to."""
    _draft(http, founder.who, "devtool")
    _at(page, f"{live.url}/drafts", 390)
    assert page.locator("main li").count() >= 1  # a draft is listed
    assert page.locator("nav.pager").count() == 0
    assert "Page 1 of" not in page.locator("main").inner_text()


def test_the_draft_editor_hints_give_the_lengths_a_listing_takes(live: RunningServer, http: httpx.Client,
                                                                 founder: Founder, page: Any) -> None:
    draft_id = _draft(http, founder.who, "devtool")
    _at(page, f"{live.url}/drafts/{draft_id}")
    assert "up to 200 characters" in page.locator("#fields\\.tagline-hint").inner_text()
    assert "Up to 300 characters" in page.locator("#fields\\.short_description-hint").inner_text()
    # the listing editor's pricing summary says its limit too, as the draft editor now does
    _at(page, f"{live.url}/my/listings/{founder.paid}/edit")
    assert page.get_by_text("up to 300 characters").count() >= 2


# ---------------------------------------------------------------- the listing's dashboard and history


def test_the_dashboard_lists_recent_versions_by_the_fields_they_changed(live: RunningServer, founder: Founder,
                                                                        page: Any) -> None:
    _at(page, f"{live.url}/my/listings/{founder.free}", 390)
    recent = page.locator("section[aria-labelledby=recent-title]")
    assert recent.locator("table.diff").count() == 0  # the first version's every field took screens on a phone
    first = recent.locator(".recent-versions li").last
    assert "Changed: Name, Tagline" in first.inner_text()
    link = first.get_by_role("link", name=re.compile("Before and after"))
    href = str(link.get_attribute("href"))
    assert re.fullmatch(rf"/my/listings/{founder.free}/history#version-\d+", href), href
    box = page.get_by_role("heading", name="Public profile").bounding_box()
    assert box is not None and box["y"] < 3000, box  # the profile and updates boxes are no longer screens below
    _looks_right(page, "dashboard-recent")
    link.click()
    page.wait_for_url(re.compile(r"/history#version-"))
    assert page.locator(href[href.index("#"):] + " table.diff").count() == 1


def test_versions_say_how_they_were_made_and_their_review_in_words(live: RunningServer, founder: Founder,
                                                                   page: Any) -> None:
    listings.edit_field(page, live.url, founder.free, "City", "Hamburg")
    _at(page, f"{live.url}/my/listings/{founder.free}/history")
    bylines = page.locator("article.version .meta").all_inner_texts()
    assert any("on the website; the site team may review it." in b for b in bylines), bylines
    assert any("through the API; no review needed." in b for b in bylines), bylines  # saved as a listing over REST
    assert page.get_by_role("heading", name=re.compile(r"Version \d+: profile edited")).count() == 1
    assert "through web" not in page.locator("main").inner_text()
    _looks_right(page, "history-words")


def test_plan_sections_and_the_badge_check_are_in_words(live: RunningServer, founder: Founder, page: Any) -> None:
    listings.launch_free(page, live.url, founder.free)
    assert listings.check_badge_now(page, live.url, founder.free) == "missing"  # the fixture site is gone
    assert page.locator("#badge-result").inner_text() == "Not found on your homepage"
    reason = page.locator("#badge-reason").inner_text()
    assert reason.startswith("The homepage could not be fetched") and reason.endswith("."), reason
    _looks_right(page, "badge-missing")
    _at(page, f"{live.url}/my/listings/{founder.free}")
    assert page.locator("#listing-plan").inner_text().strip() == "Free"
    assert "Last badge check: Not found on your homepage: the homepage could not be fetched" in \
        page.locator("#last-badge-check").inner_text()
    _at(page, f"{live.url}/my/listings")
    assert "Free" in page.locator("main table").inner_text()


# ---------------------------------------------------------------- order, checkout, paid


def test_the_checkout_form_shows_its_own_messages_next_to_its_fields(live: RunningServer, founder: Founder,
                                                                      page: Any) -> None:
    _at(page, f"{live.url}/my/listings/{founder.paid}/order?product=launch")
    page.get_by_label("Week for Launch", exact=True).select_option(_monday(2))
    page.get_by_role("button", name="See the quote").click()
    page.get_by_role("button", name="Go to checkout").click()
    page.wait_for_url(re.compile(r"/checkout/"))
    page.get_by_role("button", name="Save billing details").click()  # nothing typed
    page.locator("#name-error").wait_for()
    assert "Enter your name" in page.locator("#name-error").inner_text()
    assert page.locator("#name").get_attribute("aria-invalid") == "true"
    _looks_right(page, "checkout-refused")


def test_a_paid_checkout_says_where_to_go_next(live: RunningServer, founder: Founder, page: Any) -> None:
    number = listings.buy_launch(page, live.url, founder.paid, _monday(2))
    checkout = page.url
    page.locator("#next").wait_for()
    links = {a.inner_text(): a.get_attribute("href") for a in page.locator("#next a").all()}
    assert links == {"Inkpot": f"/my/listings/{founder.paid}",  # the studio fixture's product
                     "the order in your orders": f"/my/orders/{number}"}, links
    _looks_right(page, "checkout-paid")
    with httpx.Client(timeout=15) as anyone:  # the link opened by someone else: no pages of the owner offered
        assert 'id="next"' not in anyone.get(checkout).text

    # the order's page names the launch week, not its Monday (once fulfilment ran)
    deadline = time.monotonic() + 20
    while True:
        _at(page, f"{live.url}/my/orders/{number}")
        said = page.locator("td.fulfilment").first.inner_text()
        if said.startswith("done") or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert f"scheduled for the week of {week_name(_monday(2))}" in said, said
    assert _monday(2) not in said
    _looks_right(page, "order-week-names")
    _at(page, f"{live.url}/my/listings/{founder.paid}")
    assert page.locator("#listing-plan").inner_text().strip() == "Paid"
    assert page.locator("#listing-unlocked").inner_text().strip() == "The founder story, milestones and media"
    assert page.locator("#launch-mail").inner_text().endswith("when it has its launch week and when it goes live.")


# ---------------------------------------------------------------- co-owners and claims


def test_the_invite_notice_stands_in_the_co_owners_section(live: RunningServer, founder: Founder, page: Any) -> None:
    _at(page, f"{live.url}/my/listings/{founder.free}", 390)
    page.get_by_label("Co-owner's email address").fill(f"co-{uuid4().hex[:8]}@example.com")
    page.get_by_role("button", name="Invite a co-owner").click()
    page.wait_for_url(re.compile(r"done=invited#co-owners$"))
    notice = page.locator("#co-owners [role=status]")
    assert "The invite is on its way" in notice.inner_text()
    assert notice.is_visible() and notice.bounding_box()["y"] < page.evaluate("scrollY + innerHeight")  # in view
    assert page.locator("main > [role=status], main > .notice").count() == 0  # not also at the top
    _looks_right(page, "dashboard-invited")


def test_a_refused_claim_is_said_in_the_forms_words(live: RunningServer, founder: Founder, page: Any) -> None:
    c: Any = live.container
    owner = person(live)
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": "Numbered", "tagline": "Runs on an address", "website_url": "http://127.0.0.1:9/"},
        categories=["developer-tools"], owner_ids=[owner.account_id]), STAFF)
    listing_cmd.staff_publish(c.store, created.listing_id, STAFF, plan="free")
    assert c.runtime.wait_for(["listing_view", "search_view"], c.store.position(), timeout=10)
    _at(page, f"{live.url}/claim/numbered")
    page.get_by_label("A DNS TXT record").check()
    page.get_by_role("button", name="Start the claim").click()
    said = page.locator("#method-error").inner_text()
    assert "choose the meta tag on the homepage or the file on the website instead" in said, said
    assert "use meta or file" not in page.locator("main").inner_text()
    assert page.get_by_label("A DNS TXT record").is_checked()  # what was chosen is kept
    _looks_right(page, "claim-refused")
