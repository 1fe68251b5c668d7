"""The visitor's and voter's pages after the polish of 2026-12-04, in Chromium with the demo directory.

A listing not live yet says when voting opens instead of a "▲ 0" that cannot move, and the Upcoming feed ranks
nothing; a missing listing, category, founder, post, board or week is named on its 404 with a link to where its kind
is listed; a week's ISO code in an address moves to its Monday's; dates read "4 Dec 2026"; a refused review says what
to change at the top and its page's headings go in order; back from signing in to vote, the button sits below the
listing's name; the awards' buttons show the votes every other page shows; the billboard's heading says "paid" once;
the updates and blog pages say what they are; a listing's views read "4,640". No page scrolls sideways at 390 or 1440
px, and axe-core finds no serious or critical violation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from typing import Any

import httpx
import pytest

from events.week_names import week_name
from tests.conftest import RunningServer
from tests.e2e import founder_support_listings as listings
from tests.e2e.test_public_pages_polish import PASSWORD, person, sign_in
from tests.e2e.website_support import SHOTS, at_both_widths, demo_server, offline

ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
DAY = re.compile(rf"^\d{{1,2}} ({MONTHS}) \d{{4}}$")


@pytest.fixture(scope="module")
def site(databases) -> Iterator[RunningServer]:  # type: ignore[no-untyped-def]
    with demo_server(databases, rate_limits=False) as running:
        yield running


@pytest.fixture
def context(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    offline(context)
    yield context
    context.close()


@pytest.fixture
def page(context: Any) -> Any:
    return context.new_page()


def api(site: RunningServer) -> httpx.Client:
    return httpx.Client(base_url=site.url + "/api/v1", timeout=20)


def web(site: RunningServer) -> httpx.Client:
    return httpx.Client(base_url=site.url, timeout=20, headers={"accept": "text/html"})



def words(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").replace("\u2060", "").split())


def test_a_listing_not_live_yet_says_when_voting_opens(site: RunningServer, page: Any) -> None:
    with api(site) as http:
        upcoming = http.get("/launches", params={"section": "upcoming", "per_page": 50}).json()["items"]
    first = upcoming[0]["listing"]
    monday = date.fromisoformat(first["launch_week"])
    opens = f"Voting opens {monday.day} {monday.strftime('%b')} {monday.year}"

    at_both_widths(page, f"{site.url}/launches/{first['launch_week']}", "week-future")
    card = page.locator("#scheduled li").filter(has=page.get_by_role("link", name=first["name"], exact=True))
    assert words(card.locator(".vote-soon").inner_text()) == opens
    assert card.locator(".vote").count() == 0  # no "▲ 0" that looks like a button and cannot move
    assert card.locator("time").get_attribute("datetime") == first["launch_week"]

    at_both_widths(page, f"{site.url}/launches?section=upcoming", "launches-upcoming")
    cards = page.locator("ol.cards > li")
    assert cards.count() == len(upcoming)
    assert page.locator("ol.cards .rank").count() == 0  # in launch order, not a ranking
    assert page.locator("ol.cards .vote").count() == 0
    assert words(cards.first.locator(".vote-soon").inner_text()) == opens

    page.goto(f"{site.url}/search?status=upcoming")
    assert page.locator("ol.cards .vote").count() == 0 and page.locator("ol.cards .vote-soon").count() >= 1


def test_a_missing_thing_is_named_on_its_404_with_where_its_kind_is_listed(site: RunningServer, page: Any) -> None:
    expected = {
        "/categories/no-such-category": ("Category not found", "No category has this address.", "All categories"),
        "/founders/no-such-founder": ("Founder not found", "No founder profile has this address.", "All founders"),
        "/blog/no-such-post": ("Post not found", "No published post has this address.", "All posts"),
        "/leaderboards/no-such-board": ("Leaderboard not found", "No leaderboard has this address.",
                                        "All leaderboards"),
    }
    with web(site) as http:
        for path, (title, text, link) in expected.items():
            answer = http.get(path)
            assert answer.status_code == 404, path
            assert f"<h1>{title}</h1>" in answer.text and text in answer.text, path
            assert "listing is not public" not in answer.text, path
            assert f">{link}</a>" in answer.text, path

    at_both_widths(page, f"{site.url}/listings/quill-apii", "404-listing")
    assert page.locator("h1").inner_text() == "Listing not found"
    assert "renamed or taken down, or not have launched yet" in page.locator("main").inner_text()
    box = page.locator("main").get_by_label("Search listings")
    assert box.input_value() == "quill apii"  # the address's words, ready to search for
    page.locator("main").get_by_role("button", name="Search").click()
    page.wait_for_url("**/search?q=quill+apii")
    assert page.locator("ol.cards h3").first.inner_text() == "Quill API"

    with api(site) as http:  # the calendar's first week: the weeks' "previous" links, followed to the end
        week = http.get("/launches/weeks/this").json()
        while week["previous_week"]:
            week = http.get(f"/launches/weeks/{week['previous_week']}").json()
    first = date.fromisoformat(week["week"])
    at_both_widths(page, f"{site.url}/launches/{(first - timedelta(weeks=10)).isoformat()}", "404-week")
    assert page.locator("h1").inner_text() == "Launch week not found"
    assert words(page.locator("main p[role=status]").inner_text()) == \
        f"No launch week has this address: the calendar runs from {words(week_name(first, 'long'))} to a year " \
        "from this week."
    page.get_by_role("link", name="The first launch week").click()
    page.wait_for_url(f"**/launches/{first.isoformat()}")

    page.goto(f"{site.url}/no-such-page")
    assert page.locator("h1").inner_text() == "Page not found"
    assert page.locator("main p[role=status]").inner_text() == "There is no page at this address."


def test_a_week_named_by_its_iso_code_moves_to_its_monday(site: RunningServer, page: Any) -> None:
    with api(site) as http:
        this = http.get("/launches/weeks/this").json()
    with web(site) as http:
        for code in (this["label"], this["label"].lower()):
            answer = http.get(f"/launches/{code}", follow_redirects=False)
            assert answer.status_code == 301 and answer.headers["location"] == f"/launches/{this['week']}", code
        assert http.get("/launches/2026-W60", follow_redirects=False).status_code == 400  # no such week: refused
    page.goto(f"{site.url}/launches/{this['label']}")
    assert page.url == f"{site.url}/launches/{this['week']}"
    assert words(page.locator("h1").inner_text()) == f"Launches of {words(week_name(this['week'], 'long'))}"


def test_dates_read_as_days_not_codes(site: RunningServer, page: Any) -> None:
    with api(site) as http:
        post = http.get("/blog").json()["items"][0]
        reviewed = next(x["listing"] for x in http.get("/launches/weeks/this").json()["launches"]
                        if http.get(f"/listings/{x['listing']['slug']}").json()["community"]["rating"]["count"])
    at_both_widths(page, f"{site.url}/blog", "blog")
    assert not ISO_DAY.search(page.locator("main").inner_text())
    shown = page.locator("main article time").first
    assert DAY.match(words(shown.inner_text())) and shown.get_attribute("datetime").startswith(post["published_at"][:10])

    at_both_widths(page, f"{site.url}/blog/{post['slug']}", "post")
    assert not ISO_DAY.search(page.locator("main").inner_text())
    assert DAY.match(words(page.locator("main time").first.inner_text()))

    page.goto(f"{site.url}/listings/{reviewed['slug']}")
    reviews = page.locator("#reviews")
    assert reviews.locator("li.review").count() >= 1
    assert not ISO_DAY.search(reviews.inner_text()), reviews.inner_text()[:300]
    when = reviews.locator("li.review time").first
    assert DAY.match(words(when.inner_text())), when.inner_text()
    assert datetime.fromisoformat(str(when.get_attribute("datetime")))  # the exact moment, for machines


def test_a_refused_review_says_what_to_change_at_the_top(site: RunningServer, page: Any) -> None:
    with api(site) as http:
        slug = http.get("/launches/weeks/this").json()["launches"][-1]["listing"]["slug"]
    sign_in(page, site, person(site))
    at_both_widths(page, f"{site.url}/listings/{slug}/review", "review-form")
    levels = [int(h[1]) for h in page.locator("main").evaluate(
        "m => [...m.querySelectorAll('h1,h2,h3,h4')].map(h => h.tagName.toLowerCase())")]
    assert levels[0] == 1 and all(b - a <= 1 for a, b in zip(levels, levels[1:])), levels  # no level skipped

    page.set_viewport_size({"width": 390, "height": 844})
    page.get_by_label("Your review").fill("too short")
    page.get_by_role("button", name="Publish your review").click()
    summary = page.locator(".error-summary")
    assert summary.get_attribute("role") == "alert"
    items = [words(t) for t in summary.locator("li").all_inner_texts()]
    assert items == ["Your rating: Choose a rating from 1 to 5 stars.",
                     "Your review: Write at least 20 characters (you wrote 9)."], items
    summary.get_by_role("link", name=re.compile("^Your review:")).click()
    assert page.evaluate("() => location.hash") == "#review-text"
    summary.get_by_role("link", name=re.compile("^Your rating:")).click()
    assert page.evaluate("() => location.hash") == "#review-rating-5"
    assert page.locator("#review-rating-5").get_attribute("value") == "5"
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/review-refused-390.png", full_page=True)
    assert listings.axe_violations(page) == []


def test_back_from_signing_in_the_vote_button_sits_below_the_listings_name(site: RunningServer, page: Any) -> None:
    with api(site) as http:
        slug = http.get("/launches/weeks/this").json()["launches"][1]["listing"]["slug"]
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{site.url}/listings/{slug}")
    link = page.locator(f"#vote-{slug}")
    assert link.get_attribute("href") == f"/signin?next=/listings/{slug}%23vote-{slug}"
    link.click()
    page.get_by_label("Email address").fill(person(site))
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"**/listings/{slug}#vote-{slug}")
    page.wait_for_timeout(200)
    heading = page.locator("h1").bounding_box()
    button = page.locator(f"#vote-{slug} button").bounding_box()
    assert heading["y"] >= 0, heading  # the listing's name is in view, not scrolled off above the button
    assert 0 < button["y"] and button["y"] + button["height"] < 844, button
    outline = page.locator(f"#vote-{slug} button").evaluate("b => getComputedStyle(b).outlineStyle")
    assert outline == "solid"  # the button the link came back to is marked
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/back-to-vote-390.png")


def test_the_awards_buttons_show_the_votes_every_other_page_shows(site: RunningServer, page: Any) -> None:
    with api(site) as http:
        award = http.get("/awards", params={"per_page": 1}).json()["items"][0]
        listing = http.get(f"/listings/{award['listing']['slug']}").json()
    assert award["votes"] != listing["community"]["votes"], "the demo's winner has votes after its week"
    at_both_widths(page, f"{site.url}/awards", "awards")
    card = page.locator("ol.cards li").first
    assert card.locator(".vote .n").inner_text() == str(listing["community"]["votes"])
    assert card.locator(".vote").get_attribute("aria-label") == \
        f"Sign in to vote for {listing['name']}, {listing['community']['votes']} votes"
    assert f"{award['title']} · {award['votes']} votes during the week" in words(card.locator(".meta").inner_text())
    page.goto(f"{site.url}/listings/{award['listing']['slug']}")
    assert page.locator(f"#vote-{award['listing']['slug']} .n").inner_text() == str(listing["community"]["votes"])


def test_the_billboards_heading_says_paid_once(site: RunningServer, page: Any) -> None:
    at_both_widths(page, f"{site.url}/leaderboards/billboard", "billboard")
    assert page.locator("h1").inner_text() == "Billboard (paid)"
    lead = page.locator("p.lead")
    assert lead.locator(".pill.paid").inner_text() == "Paid placement"
    assert "Paid ranking" in lead.inner_text()


def test_the_updates_and_blog_pages_say_what_they_are(site: RunningServer, page: Any) -> None:
    at_both_widths(page, f"{site.url}/updates", "updates")
    assert page.locator("p.lead").inner_text().startswith("News the makers of listed products post here")
    assert "Follow a listing" in page.locator("p.lead").inner_text()
    page.goto(f"{site.url}/blog")
    with api(site) as http:
        name = http.get("/site").json()["name"]
    assert page.locator("p.lead").inner_text().startswith(f"Posts from the {name} team")


def test_a_listings_views_and_followers_read_with_thousands_separated(site: RunningServer, page: Any) -> None:
    with api(site) as http:
        slug = http.get("/launches/weeks/this").json()["launches"][0]["listing"]["slug"]
        community = http.get(f"/listings/{slug}").json()["community"]
    assert community["views"] >= 1000, community
    page.goto(f"{site.url}/listings/{slug}")
    facts = page.locator("aside[aria-label=Facts] dl.facts").first
    shown = dict(zip(facts.locator("dt").all_inner_texts(), facts.locator("dd").all_inner_texts()))
    assert shown["Views"] == f"{community['views']:,}" and shown["Followers"] == f"{community['followers']:,}", shown
