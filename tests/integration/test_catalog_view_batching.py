"""The catalogue keeps a batch's listings in memory and writes them at `flush`: its tables end as event by event.

Every table of a generation is compared row by row (each row as text)
between a catch-up in one batch, a rebuild one event per batch, and batches
that failed and were applied event by event with a `flush` after each event.
"""

from __future__ import annotations

from typing import Any

import pytest

from commands import community
from commands import listing as listing_cmd
from events.community import VoteCast
from projections.catalog_view import CatalogView
from tests.integration.test_listing_view import make, meta


def _tables(c: Any) -> dict[str, list[str]]:
    """Every row of the active generation's tables, as text, sorted."""
    out: dict[str, list[str]] = {}
    with c.pool.connection() as conn:
        for logical, physical in zip(CatalogView.tables, c.runtime.tables("catalog_view").all(), strict=True):
            out[logical] = [r[0] for r in conn.execute(f"SELECT t::text FROM {physical} t ORDER BY 1").fetchall()]
    return out


def _live_counts(c: Any) -> dict[str, int]:
    table = c.runtime.tables("catalog_view")["categories"]
    with c.pool.connection() as conn:
        return {str(slug): int(n) for slug, n in conn.execute(f"SELECT slug, live_count FROM {table}").fetchall()}


def _busy_history(c: Any) -> tuple[int, int, int]:
    """Listings of the same categories created, put live, voted on, recategorised, taken down and put back."""
    a = make(c, "Cat Alpha", categories=("analytics", "ai"), description="Counts visits")
    b = make(c, "Cat Beta", categories=("analytics",), live=False)
    d = make(c, "Cat Delta", categories=("analytics", "notes-docs"))
    store = c.store
    for n in range(4):
        community.cast_vote(store, a.listing_id, f"voter-{n}", meta())
    community.withdraw_vote(store, a.listing_id, "voter-1", meta())
    community.cast_vote(store, d.listing_id, "voter-1", meta())
    listing_cmd.edit_listing(store, a.listing_id, {"categories": ["ai", "notes-docs"], "tagline": "Now for notes"}, meta())
    listing_cmd.edit_listing(store, b.listing_id, {"categories": ["ai"], "name": "Cat Beta Two"}, meta())  # not live
    listing_cmd.staff_publish(store, b.listing_id, meta())
    listing_cmd.unpublish(store, d.listing_id, "check", meta())
    listing_cmd.edit_listing(store, d.listing_id, {"categories": ["analytics"]}, meta())  # while down
    listing_cmd.staff_publish(store, d.listing_id, meta())
    community.cast_vote(store, b.listing_id, "voter-5", meta())
    listing_cmd.unpublish(store, a.listing_id, "check", meta())
    listing_cmd.staff_publish(store, a.listing_id, meta())
    return a.listing_id, b.listing_id, d.listing_id


EXPECTED = {"analytics": 1, "ai": 2, "notes-docs": 1}  # Alpha in ai and notes-docs, Beta in ai, Delta in analytics


def test_many_events_of_one_category_in_one_batch_end_as_one_event_per_batch(
        container: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    container.runtime.catch_up("catalog_view")
    before = _live_counts(container)
    _busy_history(container)
    container.runtime.catch_up("catalog_view")  # a few dozen events: one batch
    in_one_batch = _tables(container)
    counts = _live_counts(container)
    assert {slug: counts[slug] - before.get(slug, 0) for slug in EXPECTED} == EXPECTED
    table = container.runtime.tables("catalog_view")["listings"]
    with container.pool.connection() as conn:
        rows = conn.execute(f"SELECT slug, categories, status, votes, src->>'tagline' FROM {table} "
                            "WHERE slug LIKE 'cat-%' ORDER BY slug").fetchall()
    assert rows == [("cat-alpha", ["ai", "notes-docs"], "live", 3, "Now for notes"),
                    ("cat-beta", ["ai"], "live", 1, "Cat Beta tagline"),
                    ("cat-delta", ["analytics"], "live", 1, "Cat Delta tagline")]

    monkeypatch.setattr(CatalogView, "catch_up_batch", 1)
    container.runtime.rebuild("catalog_view")  # every event in a batch (and a transaction) of its own
    assert _tables(container) == in_one_batch


@pytest.mark.parametrize("batch", [1000, 3])  # small batches: some begin with a vote or a status change
def test_a_batch_applied_event_by_event_writes_what_one_batch_writes(
        container: Any, monkeypatch: pytest.MonkeyPatch, batch: int) -> None:
    _busy_history(container)
    container.runtime.catch_up("catalog_view")
    in_one_batch = _tables(container)

    def failing(*args: Any, **kwargs: Any) -> int:
        raise RuntimeError("every batch fails once")

    monkeypatch.setattr("projections.batches.apply_batch", failing)
    monkeypatch.setattr(CatalogView, "catch_up_batch", batch)
    container.runtime.rebuild("catalog_view")  # each batch applied event by event: flush after every event
    assert _tables(container) == in_one_batch


def test_a_failed_batch_applied_event_by_event_keeps_what_came_before_the_failing_event(
        container: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    container.runtime.catch_up("catalog_view")
    before = _live_counts(container)
    a, b, _ = _busy_history(container)
    listing_cmd.edit_listing(container.store, b, {"categories": ["notes-docs"]}, meta())  # Beta is live
    failing_vote = community.cast_vote(container.store, a, "voter-8", meta())
    listing_cmd.unpublish(container.store, b, "after the failure", meta())
    original = CatalogView._handlers[VoteCast]

    def refuse(self: CatalogView, cur: Any, t: Any, e: VoteCast) -> None:
        if e.account_id == "voter-8":
            raise RuntimeError("cannot count this vote today")
        original(self, cur, t, e)

    with monkeypatch.context() as patch:
        patch.setitem(CatalogView._handlers, VoteCast, refuse)
        container.runtime.catch_up("catalog_view")  # the batch fails; applied again event by event
        assert container.runtime.positions["catalog_view"] == failing_vote - 1
        [status] = [s for s in container.runtime.status() if s.name == "catalog_view"]
        assert status.failure is not None and status.failure.event_id == failing_vote
    counts = _live_counts(container)  # everything before the failing event, nothing after it
    assert {slug: counts[slug] - before.get(slug, 0) for slug in EXPECTED} == {"analytics": 1, "ai": 1, "notes-docs": 2}

    container.runtime.retry_now()  # the handler is fixed: the rest applies
    container.runtime.catch_up("catalog_view")
    counts = _live_counts(container)
    assert {slug: counts[slug] - before.get(slug, 0) for slug in EXPECTED} == {"analytics": 1, "ai": 1, "notes-docs": 1}
    after_the_failure = _tables(container)
    container.runtime.rebuild("catalog_view")  # the same log in one batch
    assert _tables(container) == after_the_failure
