"""Staff actions that change nothing say so and record nothing; prices are typed in ASCII digits above the lowest
price; the audit filter lines its labels up with their fields on a phone. Over real HTTP, the CLI and Chromium."""

from __future__ import annotations

import os
import tempfile
from contextlib import closing
from pathlib import Path
from typing import Any
from uuid import uuid4

from click.testing import CliRunner

from aggregates import catalog, community, listing
from commands import listing as listing_cmd
from commands import reviews as reviews_cmd
from commands.catalog import current_catalog
from launchdir.cli import main
from tests.e2e.founder_support_listings import axe_violations, screenshots, wider_than_the_screen
from tests.e2e.test_staff_review_web import CSRF, VIEWS, account, now_meta, signed_in, staff_signs_in

SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS") or tempfile.mkdtemp(prefix="staff-shots-"))
UNCHANGED = 3  # the exit code of a staff command that changed nothing


def _live(server: Any) -> tuple[int, str]:
    c = server.container
    owner_id, _ = account(server, staff=False)
    made = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": f"Noop {uuid4().hex[:6]}", "tagline": "Nothing to see", "website_url": "https://noop.example"},
        categories=["analytics"], owner_ids=[owner_id]), now_meta())
    position = listing_cmd.staff_publish(c.store, made.listing_id, now_meta(), week="2026-11-23")
    assert c.runtime.wait_for(VIEWS, position, timeout=10)
    return made.listing_id, made.slug


def _cli(server: Any, *args: str) -> Any:
    return CliRunner().invoke(main, ["staff", *args, "--actor", "ops"], obj=server.container)


def _stream_length(server: Any, listing_id: int) -> int:
    return len(server.container.store.stream(listing.listing_stream(listing_id)))


def test_taking_down_twice_and_putting_back_a_live_listing_change_nothing(server: Any) -> None:
    listing_id, slug = _live(server)
    _, staff = account(server, staff=True)
    history = f"/staff/listings/{slug}/history"
    with closing(signed_in(server, staff)) as client:
        token = CSRF.search(client.get(history).text).group(1)  # type: ignore[union-attr]
        up = client.post(f"/staff/listings/{slug}/put-back", data={"csrf_token": token})
        assert up.status_code == 303 and up.headers["location"].endswith("notice=unchanged-up")
        assert "Nothing changed: the listing is not taken down" in client.get(up.headers["location"]).text
        before = _stream_length(server, listing_id)
        down = client.post(f"/staff/listings/{slug}/take-down", data={"csrf_token": token, "reason": "Spam report"})
        assert down.headers["location"].endswith("notice=taken-down")
        assert _stream_length(server, listing_id) == before + 1
        again = client.post(f"/staff/listings/{slug}/take-down", data={"csrf_token": token, "reason": "Spam report"})
        assert again.status_code == 303 and again.headers["location"].endswith("notice=unchanged-down")
        page = client.get(again.headers["location"]).text
        assert "Nothing changed: the listing was already taken down" in page
        assert _stream_length(server, listing_id) == before + 1  # nothing recorded

    twice = _cli(server, "unpublish", slug, "--reason", "Spam report")
    assert twice.exit_code == UNCHANGED and f"nothing changed: {slug} is taken down already" in twice.stderr
    assert _cli(server, "publish", slug, "--week", "2026-11-23").exit_code == 0
    live = _cli(server, "publish", slug, "--week", "2026-11-23")
    assert live.exit_code == UNCHANGED and f"nothing changed: {slug} is live already" in live.stderr
    assert _stream_length(server, listing_id) == before + 2  # the put-back only


def test_hiding_twice_and_restoring_a_shown_review_change_nothing(server: Any) -> None:
    c = server.container
    listing_id, _ = _live(server)
    author_id, _ = account(server, staff=False)
    review_id, position = reviews_cmd.write_review(c.store, listing_id, author_id, 4, "Does what it says on the tin.",
                                                   now_meta(f"account:{author_id}", "web", "session"))
    assert c.runtime.wait_for(["reviews_view"], position, timeout=10)
    _, staff = account(server, staff=True)
    stream = community.review_stream(review_id)
    with closing(signed_in(server, staff)) as client:
        token = CSRF.search(client.get("/staff/reviews").text).group(1)  # type: ignore[union-attr]
        shown = client.post(f"/staff/reviews/{review_id}/restore", data={"csrf_token": token})
        assert shown.status_code == 303 and shown.headers["location"].endswith("done=unchanged-shown")
        assert "Nothing changed: the review is not hidden" in client.get(shown.headers["location"]).text
        hidden = client.post(f"/staff/reviews/{review_id}/hide", data={"csrf_token": token, "reason": "Off topic text"})
        assert hidden.headers["location"].endswith("done=hidden")
        before = len(c.store.stream(stream))
        twice = client.post(f"/staff/reviews/{review_id}/hide", data={"csrf_token": token, "reason": "Off topic text"})
        assert twice.headers["location"].endswith("done=unchanged-hidden")
        assert "Nothing changed: the review was hidden already" in client.get(twice.headers["location"]).text
        assert len(c.store.stream(stream)) == before

    again = _cli(server, "reviews", "hide", review_id, "--reason", "Off topic text")
    assert again.exit_code == UNCHANGED and "is hidden already" in again.stderr
    assert _cli(server, "reviews", "restore", review_id).exit_code == 0
    shown_cli = _cli(server, "reviews", "restore", review_id)
    assert shown_cli.exit_code == UNCHANGED and "is not hidden, so there is nothing to restore" in shown_cli.stderr
    assert len(c.store.stream(stream)) == before + 1


def test_prices_are_ascii_digits_above_the_lowest_price_and_the_same_price_changes_nothing(server: Any) -> None:
    c = server.container
    _, staff = account(server, staff=True)
    code = "ai_review"
    with closing(signed_in(server, staff)) as client:
        token = CSRF.search(client.get("/staff/prices").text).group(1)  # type: ignore[union-attr]
        for typed, said in [("１５", "with the digits 0-9 and an optional .cents"), ("0", "launching without paying is the free plan"),
                            ("0.99", "A price is $1.00 to"), ("15.001", "with the digits 0-9"), ("-5", "with the digits 0-9")]:
            refused = client.post("/staff/prices", data={"csrf_token": token, "code": code, "price": typed})
            assert refused.status_code == 400 and said in refused.text, typed
            assert "Input should be" not in refused.text and "pydantic" not in refused.text
        set_ = client.post("/staff/prices", data={"csrf_token": token, "code": code, "price": "17.50"})
        assert set_.status_code == 303 and set_.headers["location"] == "/staff/prices?done=set"
        before = current_catalog(c.store).version
        same = client.post("/staff/prices", data={"csrf_token": token, "code": code, "price": "17.5"})
        assert same.status_code == 303 and "done=unchanged" in same.headers["location"]
        assert f"Nothing changed: {code} already had that price" in client.get(same.headers["location"]).text
        assert current_catalog(c.store).version == before

    for typed, said in [("１７５０", "whole cents with the digits 0-9"), ("0", "the free plan"), ("17.50", "whole cents"),
                        ("99", "A price is $1.00 to")]:
        refused = _cli(server, "set-price", code, typed)
        assert refused.exit_code == 1 and said in refused.stderr, (typed, refused.output)
        assert len([line for line in refused.stderr.splitlines() if line.startswith("Error")]) == 1
        assert "validation error" not in refused.output
    unchanged = _cli(server, "set-price", code, "1750")
    assert unchanged.exit_code == UNCHANGED and f"nothing changed: {code} already costs 1750 cents" in unchanged.stderr
    assert current_catalog(c.store).version == before
    assert current_catalog(c.store).products[code].price_cents == 1750 >= catalog.MIN_PRICE_CENTS


def test_the_audit_filter_lines_labels_up_with_their_fields(server: Any, chromium: Any) -> None:
    _, staff = account(server, staff=True)
    context = chromium.new_context()
    page = context.new_page()
    try:
        staff_signs_in(page, server.url, staff)
        url = f"{server.url}/staff/audit?limit=5"
        screenshots(page, url, SHOTS, "staff-audit")
        page.set_viewport_size({"width": 390, "height": 900})
        page.goto(url)
        assert wider_than_the_screen(page) == []
        for field in ("listing", "actor", "type", "since", "limit"):  # each label sits right above its own field
            label = page.locator(f"form.filters label[for={field}]").bounding_box()
            box = page.locator(f"form.filters #{field}").bounding_box()
            assert label is not None and box is not None
            assert abs(label["x"] - box["x"]) < 2 and 0 <= box["y"] - (label["y"] + label["height"]) < 12, field
        assert axe_violations(page) == []
    finally:
        context.close()
