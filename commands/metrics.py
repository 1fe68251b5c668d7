"""Domain Rating snapshots, revenue records and billboard contributions for a listing."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from aggregates import metrics
from aggregates.base import Meta
from commands import listing as listing_cmd
from commands.store import EventStore
from events.base import Event


def record_domain_rating(store: EventStore, listing_id: int, value: int, source: str, measured_on: str, meta: Meta) -> int:
    return _decide(store, listing_id,
                   lambda s: metrics.decide_domain_rating(s, listing_id, value, source, measured_on, meta))


def record_revenue(store: EventStore, listing_id: int, amount_cents: int, period: str, source: str, meta: Meta) -> int:
    return _decide(store, listing_id,
                   lambda s: metrics.decide_revenue(s, listing_id, amount_cents, period, source, meta))


def contribute_billboard(store: EventStore, listing_id: int, amount_cents: int, order_number: str | None, meta: Meta) -> int:
    return _decide(store, listing_id,
                   lambda s: metrics.decide_billboard(s, listing_id, amount_cents, order_number, meta))


def _decide(store: EventStore, listing_id: int, decision: Callable[[metrics.MetricsState], Sequence[Event]]) -> int:
    """Record on the listing's metrics stream; the listing must exist (NotFound otherwise)."""
    listing_cmd.load(store, listing_id)
    return store.decide(metrics.metrics_stream(listing_id), metrics, decision).position
