"""The event store on real PostgreSQL: append, load, conflicts and bounded retry."""

from __future__ import annotations

import threading
from datetime import datetime, timezone

import pytest
from eventsourcing.persistence import IntegrityError

from aggregates import catalog
from aggregates.base import Meta
from commands.catalog import SetProductPrice, current_catalog, set_product_price
from commands.store import retrying
from events.catalog import ProductPriceSet
from events.errors import Unavailable

META = Meta(at=datetime(2026, 11, 16, tzinfo=timezone.utc), actor="staff:test", channel="cli")


def test_catalogue_round_trips_through_postgres(container) -> None:  # type: ignore[no-untyped-def]
    state = current_catalog(container.store)
    assert state.version > 20
    assert state.products["launch"].price_cents > 0
    events = container.store.stream(catalog.CATALOG_ID)
    assert len(events) == state.version
    assert all(e.actor == "system" for e in events)


def test_a_stale_writer_gets_a_conflict(container) -> None:  # type: ignore[no-untyped-def]
    stale = current_catalog(container.store)
    container.store.append(catalog.decide_set_price(stale, "launch", 1111, META))
    with pytest.raises(IntegrityError):
        container.store.append(catalog.decide_set_price(stale, "launch", 2222, META))
    assert current_catalog(container.store).products["launch"].price_cents == 1111


def test_concurrent_commands_all_land_through_retry(container) -> None:  # type: ignore[no-untyped-def]
    before = current_catalog(container.store).version
    prices = list(range(5000, 5016))
    errors: list[BaseException] = []

    def set_price(cents: int) -> None:
        try:
            set_product_price(container.store, SetProductPrice(code="featured", price_cents=cents), META)
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=set_price, args=(p,)) for p in prices]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    landed = [e for e in container.store.stream(catalog.CATALOG_ID)[before:] if isinstance(e, ProductPriceSet)]
    assert errors == []
    assert sorted(e.price_cents for e in landed) == prices
    assert [e.originator_version for e in container.store.stream(catalog.CATALOG_ID)] == list(
        range(1, before + len(landed) + 1)
    )


def test_retrying_gives_up_after_a_bounded_number_of_attempts() -> None:
    calls = []

    def always_conflicts() -> None:
        calls.append(1)
        raise IntegrityError("conflict")

    with pytest.raises(Unavailable):
        retrying(always_conflicts, attempts=3)
    assert len(calls) == 3
