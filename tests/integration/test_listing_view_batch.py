"""Batched listing creation appends the same events as one create_listing (+ staff_publish) per listing."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from aggregates import listing
from commands import listing as listing_cmd
from queries import listings as listings_q
from tests.integration.test_listing_view import META, sync

IGNORED = {"originator_id", "timestamp", "listing_id"}


def _shape(store: Any, listing_id: int) -> list[tuple[str, dict[str, Any]]]:
    events = store.stream(listing.listing_stream(listing_id))
    return [(type(e).__name__, {k: v for k, v in asdict(e).items() if k not in IGNORED}) for e in events]


def _cmd(name: str) -> listing_cmd.CreateListing:
    return listing_cmd.CreateListing(profile={"name": name, "tagline": "Same tagline"}, categories=["analytics"])


def test_batch_events_match_single_creation(container) -> None:  # type: ignore[no-untyped-def]
    single = listing_cmd.create_listing(container.store, _cmd("Solo Metrics"), META)
    listing_cmd.staff_publish(container.store, single.listing_id, META, "2026-11-16")
    made = listing_cmd.create_listings_batch(
        container.store, [_cmd("Batch Metrics"), _cmd("Batch Metrics"), _cmd("Other Metrics")], META, publish_week="2026-11-16")
    assert [m.slug for m in made] == ["batch-metrics", "batch-metrics-2", "other-metrics"]
    assert len({m.listing_id for m in made} | {single.listing_id}) == 4
    solo = _shape(container.store, single.listing_id)
    batch = _shape(container.store, made[0].listing_id)
    for (kind_a, a), (kind_b, b) in zip(solo, batch, strict=True):
        assert kind_a == kind_b
        assert {k: v for k, v in a.items() if k not in ("slug", "profile")} == {k: v for k, v in b.items() if k not in ("slug", "profile")}
    assert listing_cmd.listing_id_for_slug(container.store, "batch-metrics-2") == made[1].listing_id
    sync(container)
    found = listings_q.get_listing(container.services.reads, listings_q.GetListing(slug="other-metrics"), container.services.links)
    assert found["status"] == "live"


def test_taken_slugs_are_suffixed_and_the_batch_stays_one_append(container) -> None:  # type: ignore[no-untyped-def]
    listing_cmd.create_listing(container.store, _cmd("Taken Name"), META)
    made = listing_cmd.create_listings_batch(container.store, [_cmd("Fresh Name"), _cmd("Taken Name")], META)
    assert [m.slug for m in made] == ["fresh-name", "taken-name-2"]
    assert made[0].position == made[1].position
    assert listing_cmd.load(container.store, made[1].listing_id).status == "draft"
