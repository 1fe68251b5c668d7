"""The store's one load-decide-append, on real PostgreSQL.

`decide` loads a stream once per attempt, decides and appends; a concurrent
writer makes it run again on fresh state. `decide_across` does the same over
several streams and appends all their events in one transaction, or none.
Loads are counted by a store that records them and then loads as usual.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any
from uuid import UUID, uuid4

import pytest

from aggregates import catalog, listing, metrics
from aggregates.base import Meta
from commands import listing as listing_cmd
from commands.catalog import current_catalog
from commands.store import EventStore
from events.base import Event
from events.catalog import ProductPriceSet
from events.errors import InvalidInput
from events.metrics import RevenueRecorded

if TYPE_CHECKING:
    from commands.store import Loader

META = Meta(at=datetime(2026, 11, 16, tzinfo=timezone.utc), actor="staff:test", channel="cli")


class CountingStore(EventStore):
    """The real event store on the same database, remembering which streams it loaded."""

    def __init__(self, store: EventStore) -> None:
        super().__init__(store.app, store.ids)
        self.loads: list[UUID] = []

    def load(self, stream_id: UUID, *how: Any) -> Any:  # type: ignore[override]
        self.loads.append(stream_id)
        return super().load(stream_id, *how)


def revenue(state: metrics.MetricsState, cents: int) -> list[Event]:
    """One event on a metrics stream, whatever its state: a decision that always has something to store."""
    return metrics.decide_revenue(state, 1, cents, "2026-11", "verified", META)


def test_decide_runs_again_after_a_conflict_loading_the_stream_once_per_attempt(container) -> None:  # type: ignore[no-untyped-def]
    store = CountingStore(container.store)
    seen: list[int] = []

    def decision(state: catalog.CatalogState) -> list[Event]:
        seen.append(state.version)
        if len(seen) == 1:  # another writer appends to the stream between our load and our append
            featured = state.products["featured"].price_cents
            container.store.append(catalog.decide_set_price(state, "featured", featured + 1, META))
        return catalog.decide_set_price(state, "launch", 4321, META)

    appended = store.decide(catalog.CATALOG_ID, catalog, decision)

    first = seen[0]
    assert seen == [first, first + 1]  # the second attempt decided on the state with the rival's event
    assert store.loads == [catalog.CATALOG_ID, catalog.CATALOG_ID]  # one load per attempt
    (event,) = appended.events
    assert isinstance(event, ProductPriceSet) and event.originator_version == first + 2
    assert appended.states[catalog.CATALOG_ID].version == first + 1  # the state the stored decision was made on
    assert appended.position == store.position()
    assert current_catalog(container.store).products["launch"].price_cents == 4321


@pytest.mark.parametrize("rival_on", [0, 1])
def test_decide_across_stores_the_events_of_both_streams_or_none(container, rival_on: int) -> None:  # type: ignore[no-untyped-def]
    store = CountingStore(container.store)
    streams = (uuid4(), uuid4())
    seen: list[tuple[int, int]] = []

    def decision(load: Loader) -> list[Event]:
        a, b = load(streams[0], metrics), load(streams[1], metrics)
        seen.append((a.version, b.version))
        if len(seen) == 1:  # another writer gets to one of the two streams first
            container.store.append(revenue((a, b)[rival_on], 100))
        return revenue(a, 500) + revenue(b, 700)

    appended = store.decide_across(decision)

    # The failed first attempt stored nothing on the other stream either: the second one found it empty.
    assert seen == [(0, 0), (1, 0) if rival_on == 0 else (0, 1)]
    assert store.loads == [*streams, *streams]  # each stream once per attempt
    assert [(e.originator_id, e.amount_cents) for e in appended.events  # type: ignore[attr-defined]
            ] == [(streams[0], 500), (streams[1], 700)]
    for i, stream in enumerate(streams):
        cents = [e.amount_cents for e in store.stream(stream) if isinstance(e, RevenueRecorded)]
        assert cents == ([100] if i == rival_on else []) + [(500, 700)[i]]
    assert set(appended.states) == set(streams)
    assert appended.position == store.position()


def test_a_decision_with_nothing_to_do_stores_nothing(container) -> None:  # type: ignore[no-untyped-def]
    store = container.store
    before, version = store.position(), current_catalog(store).version

    def same_price(state: catalog.CatalogState) -> list[Event]:
        return catalog.decide_set_price(state, "launch", state.products["launch"].price_cents, META)

    appended = store.decide(catalog.CATALOG_ID, catalog, same_price)
    across = store.decide_across(lambda load: same_price(load(catalog.CATALOG_ID, catalog)))

    assert list(appended.events) == [] and list(across.events) == []
    assert appended.position == across.position == before == store.position()
    assert current_catalog(store).version == version


def test_a_listing_with_extra_categories_is_stored_whole_or_not_at_all(container) -> None:  # type: ignore[no-untyped-def]
    store = container.store
    first, second = sorted(current_catalog(store).categories)[:2]
    name = f"Whole {uuid4().hex[:10]}"

    made = listing_cmd.create_listing(store, listing_cmd.CreateListing(profile={"name": name}, categories=[first, second]), META)
    state = listing_cmd.load(store, made.listing_id)
    assert state.categories == (first, second) and "extra_categories" in state.unlocked
    assert made.position == store.position()

    # A repeated category is refused by the last step of the decision: nothing of the listing is stored.
    refused = listing_cmd.CreateListing(profile={"name": name + " again"}, categories=[first, second, first])
    with pytest.raises(InvalidInput):
        listing_cmd.create_listing(store, refused, META)
    assert listing_cmd.listing_id_for_slug(store, listing.slugify(name + " again")) is None
