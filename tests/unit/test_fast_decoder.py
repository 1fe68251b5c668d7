"""The projections' fast decoder gives exactly the event store mapper's objects, and says which are clean."""

from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.application import Application
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic

from events.listing import ListingCreated, SlugClaimed
from projections.decoding import FastDecoder

AT = datetime(2026, 11, 18, 12, tzinfo=timezone.utc)
MAPPER = Application[UUID]().mapper


def _created(**profile: Any) -> ListingCreated:
    return ListingCreated(
        originator_id=uuid4(), originator_version=1, timestamp=AT, actor="staff:x", channel="cli", listing_id=7,
        slug="acme", owner_ids=["acct-1"], source="demo", draft_id=None, profile={"name": "Acme", **profile},
        categories=["design"], socials={}, faqs=[], founders=[], story={}, not_found_on_website=[],
        milestones=[{"milestone_id": 1, "date": "2025-01-01", "title": "Beta \"one\""}],
    )


def _both(stored: StoredEvent) -> tuple[Any, Any, bool]:
    """(the mapper's event, the fast decoder's event, whether the decoder called it clean)."""
    decoded = FastDecoder(MAPPER).decode(stored.originator_id, stored.originator_version, stored.topic,
                                         stored.state)
    return MAPPER.to_domain_event(stored), decoded.event, decoded.clean


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and list(vars(a).items()) == list(vars(b).items())


def test_a_stored_event_decodes_to_the_mappers_object_and_is_clean() -> None:
    mapper_event, fast_event, clean = _both(MAPPER.to_stored_event(_created(tagline="Plans, \\ and notes")))
    assert _same(mapper_event, fast_event)
    assert isinstance(fast_event.timestamp, datetime) and isinstance(fast_event.originator_id, UUID)
    assert clean


def test_control_characters_and_lone_surrogates_are_never_called_clean() -> None:
    nul = MAPPER.to_stored_event(_created(tagline="a\x00b", keywords=["\x08", "\x0c"]))
    mapper_event, fast_event, clean = _both(nul)
    assert _same(mapper_event, fast_event) and not clean
    lone = StoredEvent(originator_id=uuid4(), originator_version=1, topic=get_topic(SlugClaimed), state=(
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-11-18T12:00:00+00:00"},"actor":"a","channel":"c",'
        b'"via":"","slug":"x\\ud800","listing_id":3}'))
    mapper_event, fast_event, clean = _both(lone)
    assert _same(mapper_event, fast_event) and fast_event.slug == "x\ud800" and not clean


def test_transcoded_values_deeper_than_the_top_are_turned_back_as_the_mapper_does() -> None:
    stored = MAPPER.to_stored_event(_created(price=Decimal("9.50"), seen={"at": AT, "ids": [uuid4()]}))
    mapper_event, fast_event, _ = _both(stored)
    assert _same(mapper_event, fast_event)
    assert fast_event.profile["price"] == Decimal("9.50") and fast_event.profile["seen"]["at"] == AT


def test_a_string_that_looks_like_a_transcoded_value_stays_a_string() -> None:
    stored = MAPPER.to_stored_event(_created(tagline='{"_type_": "datetime_iso"}', keywords=["_type_"]))
    mapper_event, fast_event, _ = _both(stored)
    assert _same(mapper_event, fast_event) and fast_event.profile["keywords"] == ["_type_"]
