"""Domain Rating snapshots, revenue records and billboard contributions for a listing."""

from __future__ import annotations

from aggregates import metrics
from aggregates.base import Meta
from commands import listing as listing_cmd
from commands.store import EventStore, retrying


def _stream_state(store: EventStore, listing_id: int) -> metrics.MetricsState:
    return store.load(metrics.metrics_stream(listing_id), metrics.initial, metrics.evolve)


def record_domain_rating(store: EventStore, listing_id: int, value: int, source: str, measured_on: str, meta: Meta) -> int:
    listing_cmd.load(store, listing_id)
    return retrying(lambda: store.append(metrics.decide_domain_rating(
        _stream_state(store, listing_id), listing_id, value, source, measured_on, meta)))


def record_revenue(store: EventStore, listing_id: int, amount_cents: int, period: str, source: str, meta: Meta) -> int:
    listing_cmd.load(store, listing_id)
    return retrying(lambda: store.append(metrics.decide_revenue(
        _stream_state(store, listing_id), listing_id, amount_cents, period, source, meta)))


def contribute_billboard(store: EventStore, listing_id: int, amount_cents: int, order_number: str | None, meta: Meta) -> int:
    listing_cmd.load(store, listing_id)
    return retrying(lambda: store.append(metrics.decide_billboard(
        _stream_state(store, listing_id), listing_id, amount_cents, order_number, meta)))
