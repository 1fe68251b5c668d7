"""Projections that keep a batch's new listings in memory and write them at `flush` end as event by event.

`launches_view`, `content_view`, `history_view`, `badge_checks_view`,
`interview_view` and `notices_view` keep rows (and slug claims) back. Every table of a generation is compared row by row (each row as
text) between a catch-up in one batch, a rebuild one event per batch, and
batches that failed and were applied event by event with a `flush` after each
event.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import uuid4

import pytest

from aggregates.community import vote_stream
from aggregates.listing import listing_stream
from commands import notices as notices_cmd
from commands import community
from commands import votes as votes_cmd
from commands import listing as listing_cmd
from events.listing import ListingScheduled, SlugClaimed
from projections.launches_view import LaunchesView
from projections.notices_view import notice_key
from tests.integration.test_listing_view import AT, make, meta

LATER = AT + timedelta(days=9)  # a week after the first listings went live


KEEPING = ["launches_view", "content_view", "history_view", "badge_checks_view", "interview_view", "notices_view"]
CLAIMING = ["launches_view", "content_view", "history_view"]  # those that read slug claims


def _tables(c: Any, name: str = "launches_view") -> dict[str, list[str]]:
    """Every row of the active generation's tables, as text, sorted."""
    out: dict[str, list[str]] = {}
    with c.pool.connection() as conn:
        for logical, physical in zip(c.runtime.projections[name].tables, c.runtime.tables(name).all(), strict=True):
            out[logical] = [r[0] for r in conn.execute(f"SELECT t::text FROM {physical} t ORDER BY 1").fetchall()]
    return out


def _history(c: Any) -> None:
    """Listings created, renamed by a taken slug, queued, scheduled, put live, voted on, taken down and relaunched."""
    store = c.store
    a = make(c, "Launch Alpha")
    make(c, "Launch Alpha", live=False)  # its slug is taken: created with a suffix
    queued = make(c, "Launch Queued", live=False)
    listing_cmd.queue_free(store, queued.listing_id, "2026-12-14", meta())
    listing_cmd.badge_found(store, queued.listing_id, "https://launch-queued.example/", meta())  # read back in SQL
    scheduled = [e for e in store.stream(listing_stream(queued.listing_id)) if isinstance(e, ListingScheduled)][-1]
    key = notice_key("scheduled", scheduled.originator_id, scheduled.originator_version)  # its notice, mailed to nobody
    notices_cmd.mail_notice(store, notices_cmd.Notice(key, "scheduled", listing={"slug": "q", "name": "Q"}), [],
                            "http://x/", meta())  # in the batch that keeps its row back (notices_view)
    make(c, "Launch Owned", owner_ids=["owner-1", "owner-2"])  # owners kept with their row (interview_view)
    listing_cmd.add_owner(store, queued.listing_id, "owner-added", meta())  # read back in SQL (interview_view)
    paid = make(c, "Launch Paid", live=False)
    listing_cmd.schedule_paid(store, paid.listing_id, "2026-12-07", meta())
    for n in range(4):
        community.cast_vote(store, a.listing_id, f"voter-{n}", meta())
    community.withdraw_vote(store, a.listing_id, "voter-1", meta())
    stream = str(vote_stream(a.listing_id, "voter-3"))  # voided, then restored: counted again in a run of votes
    votes_cmd.void_votes(store, [stream], "checked", meta())
    votes_cmd.restore_votes(store, [stream], "checked", meta())
    community.cast_vote(store, a.listing_id, "voter-1", meta())  # back again, in the same run as the restore
    community.follow(store, a.listing_id, "voter-2", meta())
    listing_cmd.unpublish(store, a.listing_id, "check", meta())
    listing_cmd.edit_listing(store, a.listing_id, {"tagline": "Back again", "name": "Launch Alpha Two"}, meta())
    listing_cmd.staff_publish(store, a.listing_id, meta(LATER))  # relaunched a week later: its week's votes recounted
    community.cast_vote(store, a.listing_id, "voter-9", meta(LATER))
    b = make(c, "Launch Beta", at=LATER)
    listing_cmd.feature(store, b.listing_id, "2026-11-30", meta(LATER))
    listing_cmd.verify(store, b.listing_id, "dns", meta(LATER))
    community.cast_vote(store, b.listing_id, "voter-1", meta(LATER))
    listing_cmd.unpublish(store, b.listing_id, "check", meta(LATER))
    listing_cmd.staff_publish(store, b.listing_id, meta(LATER))  # relaunched in the same week: its vote counts


def test_one_batch_writes_what_one_event_per_batch_writes(container: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    _history(container)
    container.runtime.catch_up("launches_view")  # a few dozen events: one batch
    in_one_batch = _tables(container)
    table = container.runtime.tables("launches_view")["listings"]
    with container.pool.connection() as conn:
        rows = conn.execute(f"SELECT slug, name, tagline, status, plan, week::text, votes, week_votes, followers, "
                            f"verified, jsonb_array_length(featured_weeks) FROM {table} "
                            "WHERE slug LIKE 'launch-%' ORDER BY slug").fetchall()
    assert rows == [
        ("launch-alpha", "Launch Alpha Two", "Back again", "live", "free", "2026-11-23", 5, 5, 1, False, 0),
        ("launch-alpha-2", "Launch Alpha", "Launch Alpha tagline", "draft", None, None, 0, 0, 0, False, 0),
        ("launch-beta", "Launch Beta", "Launch Beta tagline", "live", "free", "2026-11-23", 1, 1, 0, True, 1),
        ("launch-owned", "Launch Owned", "Launch Owned tagline", "live", "free", "2026-11-16", 0, 0, 0, False, 0),
        ("launch-paid", "Launch Paid", "Launch Paid tagline", "scheduled", "paid", "2026-12-07", 0, 0, 0, False, 0),
        ("launch-queued", "Launch Queued", "Launch Queued tagline", "scheduled", "free", "2026-12-14", 0, 0, 0,
         False, 0),  # queued, then its badge found: scheduled for its week
    ]
    monkeypatch.setattr(LaunchesView, "catch_up_batch", 1)
    container.runtime.rebuild("launches_view")  # every event in a batch (and a transaction) of its own
    assert _tables(container) == in_one_batch


@pytest.mark.parametrize("name", KEEPING)
def test_each_keeping_projection_writes_in_one_batch_what_it_writes_one_event_per_batch(
        container: Any, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    _history(container)
    container.runtime.catch_up(name)
    in_one_batch = _tables(container, name)
    if name == "notices_view":  # two listings scheduled (free, paid), two taken down and put back; other staff
        notices = in_one_batch["notices"]  # launches: no notice
        assert sorted(row.split(",")[1] for row in notices) == ["restored", "restored", "scheduled", "scheduled",
                                                                "unpublished", "unpublished"]
        assert sum(",0)" in row for row in notices) == 1  # one marked mailed, to nobody
    else:
        assert any(len(rows) >= 5 for rows in in_one_batch.values())  # the history's listings are there
    if name == "interview_view":  # owners from a creation and one added later
        assert len(in_one_batch["owners"]) == 3
    monkeypatch.setattr(type(container.runtime.projections[name]), "catch_up_batch", 1)
    container.runtime.rebuild(name)
    assert _tables(container, name) == in_one_batch


@pytest.mark.parametrize("name", KEEPING)
@pytest.mark.parametrize("batch", [1000, 3])  # small batches: some begin with a vote or a status change
def test_a_batch_applied_event_by_event_writes_what_one_batch_writes(
        container: Any, monkeypatch: pytest.MonkeyPatch, batch: int, name: str) -> None:
    _history(container)
    container.runtime.catch_up(name)
    in_one_batch = _tables(container, name)

    def failing(*args: Any, **kwargs: Any) -> int:
        raise RuntimeError("every batch fails once")

    monkeypatch.setattr("projections.batches.apply_batch", failing)
    monkeypatch.setattr(type(container.runtime.projections[name]), "catch_up_batch", batch)
    container.runtime.rebuild(name)  # each batch applied event by event: flush after every event
    assert _tables(container, name) == in_one_batch


def test_a_listing_created_and_put_live_in_one_batch_counts_the_votes_already_there_and_takes_later_slugs(
        container: Any) -> None:
    """The count `_launched` makes in SQL, made at `flush` for a kept row from the votes table as it stands;
    a slug claimed while the row is kept changes it in memory."""
    view = container.runtime.projections["launches_view"]
    tables = container.runtime.tables("launches_view")
    created = make(container, "Launch Gamma", live=False)
    older = make(container, "Launch Delta", live=False)  # its row is in the table before the batch
    container.runtime.catch_up("launches_view")
    with container.pool.connection() as conn, conn.transaction(force_rollback=True), conn.cursor() as cur:
        # a vote row left for an id before its listing row exists (a log replayed out of the usual order)
        cur.execute(f"DELETE FROM {tables['listings']} WHERE id = %s", (created.listing_id,))
        cur.execute(f"INSERT INTO {tables['votes']} (listing_id, account_id, cast_at) VALUES (%s, 'v', %s)",
                    (created.listing_id, AT))
        events = [e for _, e in container.runtime.events.read(0, container.runtime.events.head(),
                                                                 view.topics(), 1000)]
        mine = [e for e in events if getattr(e, "listing_id", None) == created.listing_id]
        listing_cmd.staff_publish(container.store, created.listing_id, meta())
        published = container.runtime.events.read(0, container.runtime.events.head(), view.topics(), 1000)[-1][1]
        renamed = SlugClaimed(originator_id=uuid4(), originator_version=1, timestamp=AT, actor="staff:test", channel="cli",
                              slug="launch-gamma-renamed",
                              listing_id=created.listing_id)  # a slug claimed later, while its row is kept back
        claimed = SlugClaimed(originator_id=uuid4(), originator_version=1, timestamp=AT, actor="staff:test",
                              channel="cli", slug="launch-delta-renamed", listing_id=older.listing_id)
        for event in [claimed, *mine, published, renamed]:
            view.apply(cur, tables, event)
        view.flush(cur, tables)
        (older_slug,) = cur.execute(f"SELECT slug FROM {tables['listings']} WHERE id = %s",
                                    (older.listing_id,)).fetchone()
        row = cur.execute(f"SELECT status, week_votes, first_vote_at = %s, slug FROM {tables['listings']} "
                          "WHERE id = %s", (AT, created.listing_id)).fetchone()
    assert row == ("live", 1, True, "launch-gamma-renamed")
    assert older_slug == "launch-delta-renamed"  # a claim for a row already written changes it at `flush`


@pytest.mark.parametrize("name", CLAIMING)
def test_a_slug_claimed_for_a_listing_written_before_the_batch_moves_it(container: Any, name: str) -> None:
    view = container.runtime.projections[name]
    tables = container.runtime.tables(name)
    older = make(container, "Launch Delta", live=False)
    container.runtime.catch_up(name)
    later = make(container, "Launch Epsilon", live=False)  # its claim and creation follow in the same batch
    news = [e for _, e in container.runtime.events.read(0, container.runtime.events.head(), view.topics(), 1000)
            if getattr(e, "listing_id", None) == later.listing_id]
    claimed = SlugClaimed(originator_id=uuid4(), originator_version=1, timestamp=AT, actor="staff:test",
                          channel="cli", slug="launch-delta-renamed", listing_id=older.listing_id)
    table, column = {"launches_view": ("listings", "id"), "content_view": ("companies", "listing_id"),
                     "history_view": ("listings", "listing_id")}[name]
    with container.pool.connection() as conn, conn.transaction(force_rollback=True), conn.cursor() as cur:
        for position, event in enumerate([claimed, *news], start=10_000):
            view.apply(cur, tables, event, position)
        view.flush(cur, tables)
        slugs = dict(cur.execute(f"SELECT {column}, slug FROM {tables[table]} WHERE {column} = ANY(%s)",
                                 ([older.listing_id, later.listing_id],)).fetchall())
    assert slugs == {older.listing_id: "launch-delta-renamed", later.listing_id: "launch-epsilon"}
