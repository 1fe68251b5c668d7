"""Listing, vote and metric commands against real PostgreSQL."""

from __future__ import annotations

import threading
from datetime import datetime, timezone

import pytest

from aggregates import listing
from aggregates.base import Meta
from commands import community, metrics
from commands import listing as listing_cmd
from events.errors import Conflict, InvalidInput
from events.listing import ListingCreated, ListingPublishedByStaff

META = Meta(at=datetime(2026, 11, 18, 12, 0, tzinfo=timezone.utc), actor="staff:test", channel="cli")


def _create(container, name: str = "Acme Notes", **kw):  # type: ignore[no-untyped-def]
    cmd = listing_cmd.CreateListing(profile={"name": name, "tagline": "Notes"}, categories=kw.pop("categories", ["notes-docs"]), **kw)
    return listing_cmd.create_listing(container.store, cmd, META)


def test_create_claims_a_slug_and_suffixes_taken_ones(container) -> None:  # type: ignore[no-untyped-def]
    a = _create(container)
    b = _create(container)
    assert (a.slug, b.slug) == ("acme-notes", "acme-notes-2")
    assert b.listing_id == a.listing_id + 1
    assert listing_cmd.listing_id_for_slug(container.store, "acme-notes-2") == b.listing_id
    (created,) = container.store.stream(listing.listing_stream(a.listing_id))
    assert isinstance(created, ListingCreated) and created.actor == "staff:test"
    with pytest.raises(Conflict):
        _create(container, slug="acme-notes")


def test_concurrent_creates_never_share_a_slug(container) -> None:  # type: ignore[no-untyped-def]
    made: list[str] = []

    def create() -> None:
        made.append(_create(container, name="Race Condition").slug)

    threads = [threading.Thread(target=create) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 6 and len(set(made)) == 6


def test_unknown_categories_and_extra_categories_are_refused(container) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidInput):
        _create(container, categories=["no-such-category"])
    created = _create(container, name="One Cat")
    with pytest.raises(InvalidInput):
        listing_cmd.edit_listing(container.store, created.listing_id, {"categories": ["notes-docs", "ai"]}, META)
    listing_cmd.unlock(container.store, created.listing_id, ["extra_categories"], "paid", META)
    listing_cmd.edit_listing(container.store, created.listing_id, {"categories": ["notes-docs", "ai"]}, META)
    assert listing_cmd.load(container.store, created.listing_id).categories == ("notes-docs", "ai")


def test_edits_record_before_and_after(container) -> None:  # type: ignore[no-untyped-def]
    created = _create(container, name="Before After")
    listing_cmd.edit_listing(container.store, created.listing_id, {"tagline": "New", "name": "Before After"}, META)
    event = container.store.stream(listing.listing_stream(created.listing_id))[-1]
    assert event.changes == {"tagline": "New"} and event.before == {"tagline": "Notes"}


def test_staff_publish_and_votes(container) -> None:  # type: ignore[no-untyped-def]
    created = _create(container, name="Vote Me")
    with pytest.raises(Conflict):
        community.cast_vote(container.store, created.listing_id, "acct-1", META)
    listing_cmd.staff_publish(container.store, created.listing_id, META)
    state = listing_cmd.load(container.store, created.listing_id)
    assert (state.status, state.week) == ("live", "2026-11-16")
    last = container.store.stream(listing.listing_stream(created.listing_id))[-1]
    assert isinstance(last, ListingPublishedByStaff) and last.actor == "staff:test"
    first = community.cast_vote(container.store, created.listing_id, "acct-1", META)
    again = community.cast_vote(container.store, created.listing_id, "acct-1", META)
    assert again >= first  # voting twice appends nothing new
    assert len(container.store.stream(listing.listing_stream(created.listing_id))) == 2


def test_free_queue_then_badge_then_launch(container) -> None:  # type: ignore[no-untyped-def]
    created = _create(container, name="Free Plan")
    listing_cmd.queue_free(container.store, created.listing_id, "2027-01-04", META)
    assert listing_cmd.load(container.store, created.listing_id).status == "awaiting_badge"
    listing_cmd.badge_found(container.store, created.listing_id, "https://free.example/", META)
    assert listing_cmd.load(container.store, created.listing_id).status == "scheduled"
    later = Meta(at=datetime(2027, 1, 5, tzinfo=timezone.utc), actor="system", channel="system")
    listing_cmd.launch_if_due(container.store, created.listing_id, later)
    state = listing_cmd.load(container.store, created.listing_id)
    assert (state.status, state.week) == ("live", "2027-01-04")


def test_metrics_are_validated(container) -> None:  # type: ignore[no-untyped-def]
    created = _create(container, name="Metrics")
    metrics.record_domain_rating(container.store, created.listing_id, 42, "staff", "2026-11-01", META)
    with pytest.raises(InvalidInput):
        metrics.record_domain_rating(container.store, created.listing_id, 142, "staff", "2026-11-01", META)
    with pytest.raises(InvalidInput):
        metrics.record_revenue(container.store, created.listing_id, 100, "2026-13", "verified", META)
    metrics.contribute_billboard(container.store, created.listing_id, 5000, None, META)
