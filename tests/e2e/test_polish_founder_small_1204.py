"""Three small founder-page fixes in Chromium.

- Times read "4 Dec 2026, 17:19 UTC" (the site's timezone named) in a `<time datetime>` element on the owner's
  history and updates pages and the staff's history page, never "2026-12-04 17:19".
- An update posted on a listing that is not live yet says when it will show publicly (its launch week); on a
  live listing the page and the notice stay as they were.
- In a version's changes a founder's `title` reads "Role", as the editor names it (a story's title stays "Title").

axe-core on every page; screenshots at 390 and 1440 px when LAUNCHDIR_SCREENSHOTS names a folder. The listings are
made on a server of this module's own (a live listing on the session's server would show in other files' counts).
"""

from __future__ import annotations

import os
import re
from datetime import date, datetime, timedelta
from pathlib import Path
from collections.abc import Iterator
from typing import Any
from uuid import uuid4

import pytest

from aggregates.base import Meta
from aggregates.weeks import week_of
from commands import listing as listing_cmd
from events.week_names import week_name
from tests.conftest import RunningServer, fresh_server
from tests.e2e.founder_support_listings import WIDTHS, axe_violations, sign_in, wider_than_the_screen
from tests.e2e.test_staff_review_web import PASSWORD, account, now_meta, staff_signs_in

SHOTS = Path(os.environ["LAUNCHDIR_SCREENSHOTS"]) if os.environ.get("LAUNCHDIR_SCREENSHOTS") else None
VIEWS = ["accounts_view", "listing_view", "history_view"]
MOMENT = re.compile(r"^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d{2}:\d{2} (\S+)$")
OLD_FORMAT = re.compile(r"\b\d{4}-\d{2}-\d{2} \d{2}:\d{2}\b")


@pytest.fixture(scope="module")
def server(databases: Any) -> Iterator[RunningServer]:
    """A server of this module's own, catalogue loaded (the session's `server` fixture, shadowed here)."""
    with fresh_server(databases) as running:
        yield running


def words(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").replace("\u2060", "").split())


def _listing(server: Any, owner_id: str, status: str) -> tuple[int, str]:
    """A listing of `owner_id` (id, slug): `scheduled` for next week's launch, or `live`; a founder added by its
    owner, so its history has the founders' change."""
    c = server.container
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": f"Smallfix {uuid4().hex[:6]}", "tagline": "Ships small fixes",
                 "website_url": f"https://smallfix-{uuid4().hex[:6]}.example"},
        categories=["analytics"], owner_ids=[owner_id], story={"title": "How it began"}), now_meta())
    if status == "live":
        listing_cmd.staff_publish(c.store, created.listing_id, now_meta())
    else:
        listing_cmd.schedule_paid(c.store, created.listing_id, week_of(date.today() + timedelta(days=14)), now_meta())
    owner = Meta(at=now_meta().at, actor=f"account:{owner_id}", channel="web", via="session")
    position = listing_cmd.edit_listing(c.store, created.listing_id,
                                        {"founders": [{"name": "Ada Lovelace", "title": "CEO", "bio": "Wrote code."}]},
                                        owner)
    assert c.runtime.wait_for(VIEWS, position, timeout=15)
    return created.listing_id, created.slug


def _moments(page: Any, scope: str) -> list[tuple[str, str]]:
    """Every `<time>` in `scope`: (its words, its datetime attribute)."""
    times = page.locator(f"{scope} time")
    return [(words(t.inner_text()), str(t.get_attribute("datetime"))) for t in times.all()]


def _accessible_and_fits(page: Any, name: str) -> None:
    assert axe_violations(page) == [], name
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        if SHOTS is not None:
            page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
        assert wider_than_the_screen(page) == [], (name, width)


def test_a_scheduled_listings_update_says_when_it_shows_and_times_name_their_zone(server: Any, chromium: Any) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
    zone = server.container.services.timezone
    owner_id, email = account(server, staff=False)
    listing_id, slug = _listing(server, owner_id, "scheduled")
    week = week_of(date.today() + timedelta(days=14))
    long_week = words(week_name(week, "long"))  # "Week 50, 2026 (7–13 Dec)"
    base = server.url
    context = chromium.new_context()
    page = context.new_page()
    try:
        sign_in(page, base, email, PASSWORD)
        page.goto(f"{base}/my/listings/{listing_id}/updates")
        ahead = words(page.locator("#updates-show-when").inner_text())
        assert ahead.endswith(f"is not live yet: an update you post shows on its page when the listing goes live "
                              f"({long_week}). Its followers are not emailed about it.")
        page.get_by_label("Title").fill("Early access opens")
        page.get_by_label("What's new (plain text)").fill("The first ten teams are in.")
        page.get_by_role("button", name="Post the update").click()
        status = words(page.get_by_role("status").inner_text())
        assert status == f"Posted. It will show on the listing's page when the listing goes live ({long_week}).", status
        posted = page.locator("section[id^=update-]").first
        assert posted.locator("h3").inner_text() == "Early access opens"
        [(shown, machine)] = _moments(page, "section[id^=update-]")
        at = datetime.fromisoformat(machine).astimezone(zone)  # the exact moment, for machines
        assert shown == f"{at.day} {at:%b %Y, %H:%M} {at.tzname()}", (shown, machine)
        assert MOMENT.match(shown) and at.tzname() == datetime.now(zone).tzname()
        assert not OLD_FORMAT.search(words(page.locator("main").inner_text()))
        _accessible_and_fits(page, "updates-scheduled")

        # the history: its times in words with the zone, a founder's title is their role
        page.goto(f"{base}/my/listings/{listing_id}/history")
        main = words(page.locator("main").inner_text())
        assert not OLD_FORMAT.search(main), main
        moments = _moments(page, "article.version")
        assert moments and all(MOMENT.match(w) for w, _ in moments), moments
        assert all(re.match(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", m) for _, m in moments), moments
        founders = page.locator("article.version").filter(has_text="Ada Lovelace").first
        assert "Role: CEO" in words(founders.inner_text()) and "Title: CEO" not in words(founders.inner_text())
        assert "Title: How it began" in main  # the story's title is still a title
        _accessible_and_fits(page, "history-owner")
    finally:
        context.close()

    # staff read the same words on the listing's history
    _, staff = account(server, staff=True)
    context = chromium.new_context()
    page = context.new_page()
    try:
        staff_signs_in(page, base, staff)
        page.goto(f"{base}/staff/listings/{slug}/history")
        main = words(page.locator("main").inner_text())
        assert not OLD_FORMAT.search(main), main
        assert "Role: CEO" in main and "Title: CEO" not in main
        moments = _moments(page, "main")
        assert moments and all(MOMENT.match(w) for w, _ in moments), moments
        _accessible_and_fits(page, "history-staff")
    finally:
        context.close()


def test_a_live_listings_update_page_and_notice_are_unchanged(server: Any, chromium: Any) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
    owner_id, email = account(server, staff=False)
    listing_id, _ = _listing(server, owner_id, "live")
    base = server.url
    context = chromium.new_context()
    page = context.new_page()
    try:
        sign_in(page, base, email, PASSWORD)
        page.goto(f"{base}/my/listings/{listing_id}/updates")
        assert page.locator("#updates-show-when").count() == 0
        page.get_by_label("Title").fill("Version 2 is out")
        page.get_by_label("What's new (plain text)").fill("Faster deploys.")
        page.get_by_role("button", name="Post the update").click()
        assert words(page.get_by_role("status").inner_text()) == "Your update is posted."
        assert page.locator("#updates-show-when").count() == 0
        _accessible_and_fits(page, "updates-live")
    finally:
        context.close()
