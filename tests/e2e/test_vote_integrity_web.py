"""Vote integrity over real HTTP and in Chromium: a website vote carries its signals, staff void a planted
cluster from /staff/votes and the public week page changes; the staff pages refuse others and forms without
CSRF; the public method page /about/votes passes axe-core and renders at 390 and 1440 px."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx
import pytest

from aggregates.base import Meta
from aggregates.community import vote_stream
from aggregates.votes import Observed
from commands import community as community_cmd
from commands import listing as listing_cmd
from tests.e2e.test_staff_review_web import CSRF, PASSWORD, account, now_meta, signed_in
from tests.e2e.website_support import offline

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = Path("/tmp/shots")
VIEWS = ["launches_view", "listing_view", "catalog_view", "vote_integrity_view"]


def _live(server: Any, name: str) -> tuple[int, str]:
    c = server.container
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": name, "tagline": f"{name} tagline", "website_url": f"https://{uuid4().hex[:8]}.example.com/"},
        categories=["analytics"]), now_meta())
    listing_cmd.staff_publish(c.store, created.listing_id, now_meta())
    return created.listing_id, created.slug


def _cast(server: Any, listing_id: int, at: datetime, observed: Observed | None) -> int:
    account_id = f"e2e-{uuid4().hex[:10]}"
    meta = Meta(at=at, actor=f"account:{account_id}", channel="web", via="session")
    return community_cmd.cast_vote(server.container.store, listing_id, account_id, meta, observed)


def _order(html: str, *names: str) -> list[str]:
    return sorted(names, key=html.index)


def test_a_website_vote_records_signals_without_raw_address_or_agent(server) -> None:  # type: ignore[no-untyped-def]
    c = server.container
    listing_id, slug = _live(server, f"Signal {uuid4().hex[:6]}")
    voter_id, email = account(server, staff=False)
    client = signed_in(server, email)
    agent = "IntegrityTest/1.0 (X11; Linux)"
    client.headers["user-agent"] = agent
    page = client.get(f"/listings/{slug}")  # a signed-in page view: the account's first
    token = CSRF.search(page.text).group(1)  # type: ignore[union-attr]
    voted = client.post(f"/listings/{slug}/vote", data={"csrf_token": token, "next": f"/listings/{slug}"})
    assert voted.status_code == 303, voted.text[:300]
    c.runtime.catch_up("vote_integrity_view")
    t = c.services.reads.tables("vote_integrity_view")
    with c.services.reads.pool.connection() as conn:
        row = conn.execute(f"SELECT has_signals, email_verified, network_hash, agent_hash, since_first_view_s, "
                           f"account_age_s FROM {t['votes']} WHERE listing_id = %s AND account_id = %s",
                           (listing_id, voter_id)).fetchone()
        agent_stored = conn.execute("SELECT count(*) FROM launchdir_events WHERE position(convert_to(%s, 'UTF8') in state) > 0",
                                    ("IntegrityTest",)).fetchone()
    assert row is not None and row[0] is True and row[1] is True
    assert len(row[2]) == 64 and len(row[3]) == 64 and row[2] != row[3]
    assert row[4] is not None and row[4] >= 0 and row[5] is not None
    assert agent_stored == (0,)  # the user agent is nowhere in the log
    vote_events = repr(c.store.stream(vote_stream(listing_id, voter_id)))
    assert "VoteSignalsRecorded" in vote_events and "127.0.0" not in vote_events and "IntegrityTest" not in vote_events


def test_staff_pages_are_for_staff_only_and_forms_need_the_csrf_token(server) -> None:  # type: ignore[no-untyped-def]
    assert httpx.get(server.url + "/staff/votes").status_code == 403
    _, person = account(server, staff=False)
    assert signed_in(server, person).get("/staff/votes").status_code == 403
    _, staff = account(server, staff=True)
    client = signed_in(server, staff)
    assert 'href="/staff/votes"' in client.get("/staff").text
    page = client.get("/staff/votes?week=last")
    assert page.status_code == 200 and "Vote integrity" in page.text
    assert client.get("/staff/votes?week=2026-02-31").status_code == 400
    refused = client.post("/staff/votes/void", data={"vote": str(uuid4()), "reason": "x"})
    assert refused.status_code == 403
    token = CSRF.search(page.text).group(1)  # type: ignore[union-attr]
    bad = client.post("/staff/votes/void", data={"csrf_token": token, "vote": "not-a-vote", "reason": "x"})
    assert bad.status_code == 400 and "vote id" in bad.text
    unexplained = client.post("/staff/votes/void", data={"csrf_token": token, "vote": str(uuid4()), "reason": " "})
    assert unexplained.status_code == 400 and "reason" in unexplained.text


def test_staff_void_a_planted_cluster_in_chromium_and_the_week_page_changes(server, chromium) -> None:  # type: ignore[no-untyped-def]
    c = server.container
    rival_name, gamed_name = f"Rival {uuid4().hex[:6]}", f"Gamed {uuid4().hex[:6]}"
    rival, _ = _live(server, rival_name)
    gamed, gamed_slug = _live(server, gamed_name)
    now = datetime.now(timezone.utc)
    for i in range(3):
        _cast(server, rival, now - timedelta(minutes=50 - i), None)
    _cast(server, gamed, now - timedelta(minutes=45), None)
    position = 0
    for i in range(4):  # one office network and browser, accounts made minutes before
        observed = Observed(account_created_at=now - timedelta(minutes=30), email_verified=True,
                            network_hash="a" * 64, agent_hash="b" * 64, first_view_at=now - timedelta(minutes=20))
        position = _cast(server, gamed, now - timedelta(minutes=10 - i), observed)
    assert c.runtime.wait_for(VIEWS, position, timeout=10)
    week = httpx.get(server.url + "/launches/this").text
    assert _order(week, rival_name, gamed_name) == [gamed_name, rival_name]
    _, staff = account(server, staff=True)

    context = chromium.new_context()
    offline(context)
    page = context.new_page()
    try:
        page.goto(f"{server.url}/signin?next=/staff/votes")
        page.get_by_label("Email address").fill(staff)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.get_by_role("heading", name="Vote integrity").wait_for()
        finding = page.locator("section.finding").filter(has_text=f"Shared network: {gamed_name}")
        boxes = finding.locator("input[type=checkbox][name=vote]")
        assert finding.count() == 1 and boxes.count() == 4
        assert [boxes.nth(i).is_checked() for i in range(4)] == [False] * 4  # nothing is ticked for staff
        finding.get_by_text("Void the whole finding (4 counted votes)").click()
        whole = finding.locator("details.whole-finding")
        whole.get_by_label("Reason").fill("one network and browser, accounts made minutes before")
        whole.get_by_role("button", name="Yes, void the 4 counted votes of this finding").click()
        page.get_by_role("status").filter(has_text="4 vote(s) voided.").wait_for()
        again = page.locator("section.finding").filter(has_text=f"Shared network: {gamed_name}")
        assert "(4 voided)" in again.inner_text()

        page.goto(server.url + "/launches/this")
        assert _order(page.content(), rival_name, gamed_name) == [rival_name, gamed_name]
        assert httpx.get(f"{server.url}/api/v1/listings/{gamed_slug}").json()["community"]["votes"] == 1

        page.goto(f"{server.url}/staff/votes")
        restore = page.locator("section.finding").filter(has_text=f"Shared network: {gamed_name}")
        for box in restore.locator("input[type=checkbox][name=vote]").all():
            box.check()
        restore.locator("form").first.get_by_label("Reason").fill("appeal upheld")
        restore.get_by_role("button", name="Restore ticked votes").click()
        page.get_by_role("status").filter(has_text="4 vote(s) restored.").wait_for()
        page.goto(server.url + "/launches/this")
        assert _order(page.content(), rival_name, gamed_name) == [gamed_name, rival_name]

        page.goto(f"{server.url}/staff/votes")
        if AXE.exists():
            assert _serious(page) == []
        SHOTS.mkdir(parents=True, exist_ok=True)
        for width in (390, 1440):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=str(SHOTS / f"staff-votes-{width}.png"), full_page=True)
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, (width, overflow)
    finally:
        context.close()


def _serious(page: Any) -> list[tuple[str, str]]:
    """axe-core's serious and critical violations on the page."""
    page.evaluate(AXE.read_text())  # evaluated, not a <script> the page's own policy would refuse
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [(v["id"], v["impact"]) for v in result["violations"] if v["impact"] in ("serious", "critical")]


def test_the_method_page_is_linked_accessible_and_renders_at_both_widths(server, chromium) -> None:  # type: ignore[no-untyped-def]
    home = httpx.get(server.url + "/voting")
    assert 'href="/about/votes"' in home.text
    page_html = httpx.get(server.url + "/about/votes")
    assert page_html.status_code == 200 and "HMAC-SHA256" in page_html.text and "Appeals" in page_html.text
    assert f"{server.url}/about/votes</loc>" in httpx.get(server.url + "/sitemap.xml").text
    if not AXE.exists():
        pytest.skip("axe-core is not installed: npm install --prefix tests/e2e/axe")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        context = chromium.new_context(color_scheme=scheme)
        page = context.new_page()
        try:
            page.goto(server.url + "/about/votes")
            assert _serious(page) == [], scheme
        finally:
            context.close()
    for width in (390, 1440):
        context = chromium.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        try:
            page.goto(server.url + "/about/votes")
            page.screenshot(path=str(SHOTS / f"about-votes-{width}.png"), full_page=True)
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, (width, overflow)
        finally:
            context.close()
