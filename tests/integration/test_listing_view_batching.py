"""The listing and search views keep a batch's listings in memory and write them at `flush`: the tables end as
event by event.

Every table of a generation is compared row by row (each row as text, so
text vectors, JSON documents and the trending log-sum are compared exactly)
between a catch-up in one batch, a rebuild one event per batch, a batch
that failed and was applied event by event with a `flush` after each event,
and a batch whose rows are written every few events (`ListingBatch.flush_every`).
"""

from __future__ import annotations

import dataclasses
import random
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from commands import community, metrics
from commands import listing as listing_cmd
from events.listing import ListingEdited, ListingVerified
from projections import search_rows
from projections.listing_rows import folded_vote
from projections.base import Projection
from projections.listing_view import ListingView
from projections.search_view import SearchView
from queries import listings as listings_q
from tests.integration.test_listing_view import make, meta

AT = datetime(2026, 11, 18, 12, 0, tzinfo=timezone.utc)


VIEWS = {"listing_view": ListingView, "search_view": SearchView}
BOTH = pytest.mark.parametrize("view", list(VIEWS))


def _tables(c: Any, view: str = "listing_view") -> dict[str, list[str]]:
    """Every row of the active generation's tables, as text, sorted."""
    out: dict[str, list[str]] = {}
    projection: type[Projection] = VIEWS[view]
    with c.pool.connection() as conn:
        for logical, physical in zip(projection.tables, c.runtime.tables(view).all(), strict=True):
            out[logical] = [r[0] for r in conn.execute(f"SELECT t::text FROM {physical} t ORDER BY 1").fetchall()]
    return out


def _doc(c: Any, slug: str) -> dict[str, Any]:
    doc: dict[str, Any] = listings_q.get_listing(c.services.reads, listings_q.GetListing(slug=slug), c.services.links)
    return doc


def _busy_history(c: Any) -> tuple[int, int]:
    """Two listings with many events each, interleaved, every kind the view handles in memory or in SQL."""
    a = make(c, "Batch Alpha", categories=("analytics",), description="Counts visits without cookies")
    b = make(c, "Batch Beta", categories=("analytics",), live=False)
    store = c.store
    for n in range(5):  # votes at different times: the trending sum folds each one in turn
        community.cast_vote(store, a.listing_id, f"voter-{n}", meta(AT + timedelta(hours=n)))
    community.withdraw_vote(store, a.listing_id, "voter-2", meta())  # recomputed in SQL, between kept counters
    community.cast_vote(store, a.listing_id, "voter-2", meta(AT + timedelta(hours=9)))  # counted again
    listing_cmd.edit_listing(store, a.listing_id, {"name": "Batch Alpha Two", "keywords": ["privacy"]}, meta())
    community.follow(store, a.listing_id, "f1", meta())
    community.follow(store, a.listing_id, "f2", meta())
    community.follow(store, a.listing_id, "f1", meta(), on=False)
    community.count_views(store, {a.listing_id: 3, b.listing_id: 2}, meta())
    community.count_views(store, {a.listing_id: 4}, meta())
    review, _ = community.write_review(store, a.listing_id, "r1", 4, "good", meta())
    community.moderate_review(store, review, "approved", meta())
    community.cast_vote(store, a.listing_id, "voter-9", meta(AT + timedelta(hours=12)))  # after the SQL recount
    metrics.record_domain_rating(store, a.listing_id, 31, "staff", "2026-10-01", meta())
    metrics.record_revenue(store, a.listing_id, 12_000, "2026-10", "verified", meta())
    metrics.contribute_billboard(store, a.listing_id, 500, None, meta())
    listing_cmd.edit_listing(store, b.listing_id, {"tagline": "Drafted then live"}, meta())
    listing_cmd.staff_publish(store, b.listing_id, meta())  # goes live after its views were counted
    community.cast_vote(store, b.listing_id, "voter-1", meta())
    listing_cmd.unpublish(store, a.listing_id, "check", meta())
    community.cast_vote(store, b.listing_id, "voter-3", meta())
    listing_cmd.staff_publish(store, a.listing_id, meta())
    return a.listing_id, b.listing_id


def test_many_events_of_one_listing_in_one_batch_end_as_one_event_per_batch(container: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    _busy_history(container)
    container.runtime.catch_up("listing_view")  # a few dozen events: one batch
    in_one_batch = _tables(container)
    alpha = _doc(container, "batch-alpha")
    assert alpha["name"] == "Batch Alpha Two" and alpha["keywords"] == ["privacy"]
    assert alpha["community"] == {"votes": 6, "followers": 1, "views": 7, "rating": {"average": 4.0, "count": 1}}
    assert (alpha["domain_rating"]["value"], alpha["revenue"]["amount_cents"], alpha["billboard"]["total_cents"]) == (31, 12_000, 500)
    beta = _doc(container, "batch-beta")
    assert beta["community"]["votes"] == 2 and beta["community"]["views"] == 2 and beta["tagline"] == "Drafted then live"

    monkeypatch.setattr(ListingView, "catch_up_batch", 1)
    container.runtime.rebuild("listing_view")  # every event in a batch (and a transaction) of its own
    assert _tables(container) == in_one_batch


def test_the_search_view_in_one_batch_ends_as_one_event_per_batch(container: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = _busy_history(container)
    container.runtime.catch_up("search_view")
    in_one_batch = _tables(container, "search_view")
    rows = {r.split(",")[0].strip("("): r for r in in_one_batch["search"]}
    assert len(rows) == 2 and "batch alpha two" in rows[str(a)] and "'privaci'" in rows[str(a)]
    assert {w.strip("()") for w in in_one_batch["words"]} >= {"batch", "alpha", "two", "privacy", "drafted"}
    monkeypatch.setattr(SearchView, "catch_up_batch", 1)
    container.runtime.rebuild("search_view")
    assert _tables(container, "search_view") == in_one_batch


def test_a_failed_batch_applied_event_by_event_keeps_what_came_before_the_failing_event(
        container: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = _busy_history(container)
    verified = listing_cmd.verify(container.store, b, "dns", meta())
    community.cast_vote(container.store, b, "voter-7", meta())
    community.follow(container.store, a, "f3", meta())

    def refuse(self: ListingView, cur: Any, t: Any, e: ListingVerified) -> None:
        raise RuntimeError("cannot verify today")

    with monkeypatch.context() as patch:
        patch.setitem(ListingView._handlers, ListingVerified, refuse)
        container.runtime.catch_up("listing_view")  # the batch fails; applied again event by event, flushed after each
        assert container.runtime.positions["listing_view"] == verified - 1
        [status] = [s for s in container.runtime.status() if s.name == "listing_view"]
        assert status.failure is not None and status.failure.event_id == verified
    beta = _doc(container, "batch-beta")
    assert (beta["verified"], beta["community"]["votes"]) == (False, 2)  # everything before the failing event
    assert _doc(container, "batch-alpha")["community"]["followers"] == 1

    container.runtime.retry_now()  # the handler is fixed: the rest applies
    container.runtime.catch_up("listing_view")
    beta = _doc(container, "batch-beta")
    assert (beta["verified"], beta["community"]["votes"]) == (True, 3)
    assert _doc(container, "batch-alpha")["community"]["followers"] == 2
    after_the_failure = _tables(container)
    container.runtime.rebuild("listing_view")  # the same log in one batch
    assert _tables(container) == after_the_failure


@BOTH
@pytest.mark.parametrize("batch", [1000, 3])  # small batches: some begin with a vote, a follow, views
def test_a_batch_applied_event_by_event_writes_what_one_batch_writes(
        container: Any, monkeypatch: pytest.MonkeyPatch, batch: int, view: str) -> None:
    _busy_history(container)
    container.runtime.catch_up(view)
    in_one_batch = _tables(container, view)

    def failing(*args: Any, **kwargs: Any) -> int:
        raise RuntimeError("every batch fails once")

    monkeypatch.setattr("projections.batches.apply_batch", failing)
    monkeypatch.setattr(VIEWS[view], "catch_up_batch", batch)
    container.runtime.rebuild(view)  # each batch applied event by event: flush after every event
    assert _tables(container, view) == in_one_batch


@BOTH
@pytest.mark.parametrize("every", [1, 4])  # the batch's rows written every few events, some listings twice
def test_rows_written_every_few_events_end_as_rows_written_once_per_batch(
        container: Any, monkeypatch: pytest.MonkeyPatch, every: int, view: str) -> None:
    _busy_history(container)
    container.runtime.catch_up(view)  # fewer events than `flush_every`: written once, at the end
    written_once = _tables(container, view)
    monkeypatch.setattr(VIEWS[view], "flush_every", every)
    container.runtime.rebuild(view)
    assert _tables(container, view) == written_once


# How PostgreSQL folded a vote into the trending log-sum when each vote was its own statement.
SQL_FOLD = """SELECT CASE WHEN %(t)s::float8 IS NULL THEN %(x)s::float8 ELSE greatest(%(t)s::float8, %(x)s::float8)
    + ln(1 + power(2::float8, greatest(-1000, -abs(%(t)s::float8 - %(x)s::float8)))) / ln(2) END"""


def test_the_trending_sum_folds_a_vote_in_memory_as_postgresql_did(container: Any) -> None:
    rng = random.Random(5)
    near = [rng.uniform(0, 9000) for _ in range(100)]  # votes of about the same time: the smallest steps
    pairs: list[tuple[float | None, float]] = [(None, 700.25), (700.25, 700.25), (1e-9, 5000.0), (703.5, 0.0)]
    pairs += [(rng.uniform(0, 9000), rng.uniform(0, 9000)) for _ in range(300)]
    pairs += [(t, t + rng.uniform(-1e-6, 1e-6)) for t in near]
    with container.pool.connection() as conn:
        for t, x in pairs:
            (expected,) = conn.execute(SQL_FOLD, {"t": t, "x": x}).fetchone() or (None,)
            assert folded_vote(t, x) == expected, (t, x)  # equal to the bit, not merely close


def test_words_a_rolled_back_batch_sent_are_sent_again(container: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The search view remembers only committed batches' words: a rolled-back batch's words reach the vocabulary."""
    a, b = _busy_history(container)
    container.runtime.catch_up("search_view")  # an earlier, committed batch: its words are not sent again
    listing_cmd.edit_listing(container.store, a, {"tagline": "Quokka counters for shops"}, meta())
    listing_cmd.edit_listing(container.store, b, {"tagline": "Wombat ledgers"}, meta())
    edited = SearchView._handlers[ListingEdited]

    def refuse_wombats(self: SearchView, cur: Any, t: Any, e: ListingEdited) -> None:
        if "Wombat" in str(e.changes):
            raise RuntimeError("no wombats today")
        edited(self, cur, t, e)

    monkeypatch.setattr(SearchView, "flush_every", 1)  # the quokka's words are written before the batch fails
    with monkeypatch.context() as patch:
        patch.setitem(SearchView._handlers, ListingEdited, refuse_wombats)
        container.runtime.catch_up("search_view")  # the batch rolls back; then event by event up to the wombat
    container.runtime.retry_now()
    container.runtime.catch_up("search_view")
    words = {w.strip("()") for w in _tables(container, "search_view")["words"]}
    assert {"quokka", "counters", "shops", "wombat", "ledgers"} <= words
    after = _tables(container, "search_view")
    container.runtime.rebuild("search_view")
    assert _tables(container, "search_view") == after


def test_a_batch_looks_up_only_listings_that_can_have_rows(container: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A listing created again keeps its first creation; one created in the batch above every row is not looked for."""
    first = make(container, "First Creation")
    container.runtime.catch_up("search_view")  # a committed batch: the listing has rows
    stream = container.store.stream(listing_cmd.listing.listing_stream(first.listing_id))
    again = dataclasses.replace(stream[0], originator_version=len(stream) + 1, timestamp=AT + timedelta(days=1),
                                profile={**stream[0].profile, "name": "Second Creation"})
    container.store.append([again])
    fresh = make(container, "Fresh Listing")  # created and published after it, in the same batch
    looked_up: list[tuple[set[int], set[str]]] = []
    read = search_rows.read

    def spy(cur: Any, t: Any, ids: Any, streams: Any, state_ids: Any, state_streams: Any) -> Any:
        looked_up.append((set(ids), set(streams)))
        return read(cur, t, ids, streams, state_ids, state_streams)

    with monkeypatch.context() as patch:
        patch.setattr(search_rows, "read", spy)
        container.runtime.catch_up("search_view")
    fresh_stream = str(listing_cmd.listing.listing_stream(fresh.listing_id))
    assert any(first.listing_id in ids for ids, _ in looked_up)  # it may have rows: looked for, and found
    assert all(fresh.listing_id not in ids and fresh_stream not in streams for ids, streams in looked_up)
    rows = {r.split(",")[0].strip("("): r for r in _tables(container, "search_view")["search"]}
    assert "first creation" in rows[str(first.listing_id)] and "second creation" not in rows[str(first.listing_id)]
    assert "fresh listing" in rows[str(fresh.listing_id)]
    in_batches = _tables(container, "search_view")
    monkeypatch.setattr(SearchView, "catch_up_batch", 1)  # every event alone: the same tables
    container.runtime.rebuild("search_view")
    assert _tables(container, "search_view") == in_batches
