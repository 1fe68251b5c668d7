"""Vote integrity against PostgreSQL: signals recorded, the report's findings, void and restore, a rebuild.

The week used here (`WK`) belongs to these tests alone, so its rankings and
awards hold only the listings made below.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime, timedelta
from typing import Any

from aggregates.base import Meta
from aggregates.community import vote_stream
from aggregates.votes import Observed
from api.vote_signals import VoteSignals, network_prefix
from commands import community
from commands import votes as votes_cmd
from events.votes import VoteSignalsRecorded, VoteVoided
from launchdir.vote_review import VIEWS, VoteReview
from queries.vote_integrity import integrity_report
from tests.integration.test_launches_kit import launched, meta, ok, slugs, unique, utc
from workers.scheduler import close_week

WK = "2026-09-14"
MON_WK = utc(2026, 9, 14, 8)
AFTER = utc(2026, 9, 23, 12)  # the week has ended
SIGNALS = VoteSignals(b"k" * 32)


def _vote(c: Any, listing_id: int, at: datetime, *, network: str = "", agent: str = "", age: timedelta = timedelta(days=200),
          verified: bool = True, seen: timedelta | None = timedelta(days=30)) -> str:
    account = f"acct-{uuid.uuid4().hex[:10]}"
    observed = Observed(account_created_at=at - age, email_verified=verified,
                        network_hash=SIGNALS.network_hash(network or f"198.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.9"),
                        agent_hash=SIGNALS.agent_hash(agent or f"Browser/{uuid.uuid4().hex[:8]}"),
                        first_view_at=None if seen is None else at - seen)
    community.cast_vote(c.store, listing_id, account, meta(at, actor=f"account:{account}"), observed)
    return str(vote_stream(listing_id, account))


def _organic(c: Any, listing_id: int, n: int, start: datetime, every: timedelta = timedelta(hours=3)) -> list[str]:
    return [_vote(c, listing_id, start + i * every) for i in range(n)]


def _planted(c: Any, listing_id: int, n: int, start: datetime) -> list[str]:
    """`n` votes in a few minutes from one office network and browser, by accounts made minutes before."""
    return [_vote(c, listing_id, start + timedelta(minutes=i), network=f"203.0.113.{10 + i}", agent="Bot/1.0",
                  age=timedelta(minutes=20), seen=timedelta(minutes=2)) for i in range(n)]


def _sync(c: Any) -> None:
    for view in VIEWS:
        c.runtime.catch_up(view)


def _report(c: Any) -> dict[str, Any]:
    _sync(c)
    return integrity_report(c.services.reads, date.fromisoformat(WK), c.services.timezone, AFTER)


def test_the_keyed_hashes_keep_the_network_prefix_and_nothing_raw() -> None:
    assert network_prefix("203.0.113.77") == "203.0.113.0/24"
    assert network_prefix("::ffff:203.0.113.77") == "203.0.113.0/24"
    assert network_prefix("2001:db8:abcd:12::1") == "2001:db8:abcd::/48"
    assert network_prefix("not an address") == ""
    same = SIGNALS.network_hash("203.0.113.5") == SIGNALS.network_hash("203.0.113.200")
    assert same and SIGNALS.network_hash("203.0.113.5") != SIGNALS.network_hash("203.0.114.5")
    assert SIGNALS.network_hash("203.0.113.5") != VoteSignals(b"x" * 32).network_hash("203.0.113.5")  # keyed
    assert "203.0.113" not in SIGNALS.network_hash("203.0.113.5") and len(SIGNALS.agent_hash("Firefox")) == 64
    assert SIGNALS.agent_hash("") == "" and SIGNALS.network_hash("") == ""


def test_a_vote_records_its_signals_and_the_first_page_view(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    listing_id, _ = launched(c, unique("Signals"), WK, MON_WK)
    account = f"acct-{uuid.uuid4().hex[:10]}"
    first = MON_WK + timedelta(minutes=5)
    votes_cmd.record_first_view(c.store, account, Meta(at=first, actor=f"account:{account}", channel="web"))
    votes_cmd.record_first_view(c.store, account, Meta(at=first + timedelta(hours=1), actor="x", channel="web"))
    assert votes_cmd.first_view(c.store, account) == first  # only the first is kept
    at = MON_WK + timedelta(hours=2)
    observed = Observed(account_created_at=MON_WK - timedelta(days=3), email_verified=True,
                        network_hash=SIGNALS.network_hash("192.0.2.44"), agent_hash=SIGNALS.agent_hash("Firefox/140"),
                        first_view_at=votes_cmd.first_view(c.store, account))
    community.cast_vote(c.store, listing_id, account, meta(at, actor=f"account:{account}"), observed)
    events = c.store.stream(vote_stream(listing_id, account))
    signals = events[-1]
    assert isinstance(signals, VoteSignalsRecorded)
    assert signals.account_age_seconds == 3 * 86400 + 7200 and signals.email_verified is True
    assert signals.since_first_view_seconds == 6900
    assert signals.network_hash == SIGNALS.network_hash("192.0.2.1") and signals.agent_hash == SIGNALS.agent_hash("Firefox/140")
    assert "192.0.2" not in repr(events) and "Firefox" not in repr(events)
    _sync(c)
    row = [v for v in _all_votes(c) if v["account_id"] == account]
    assert row and row[0]["email_verified"] is True and row[0]["since_first_view_seconds"] == 6900


def _all_votes(c: Any) -> list[dict[str, Any]]:
    from queries.vote_integrity import vote_doc, week_votes
    from queries.weeks import week_end, week_start

    monday = date.fromisoformat(WK)
    found, _ = week_votes(c.services.reads, week_start(monday, c.services.timezone), week_end(monday, c.services.timezone))
    return [vote_doc(v) for v in found]


def test_the_report_finds_a_planted_cluster_and_spike_and_leaves_organic_votes_alone(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    organic, _ = launched(c, unique("Organic"), WK, MON_WK)
    target, _ = launched(c, unique("Target"), WK, MON_WK)
    _organic(c, organic, 30, MON_WK + timedelta(minutes=30), every=timedelta(minutes=50))
    _organic(c, target, 4, MON_WK + timedelta(hours=1), every=timedelta(hours=5))
    planted = _planted(c, target, 10, MON_WK + timedelta(days=2))
    report = _report(c)
    mine = [f for f in report["clusters"] + report["velocity"] if f["listing"]["listing_id"] in (organic, target)]
    assert all(f["listing"]["listing_id"] == target for f in mine), mine
    kinds = {f["kind"]: f for f in mine}
    assert {"shared_network", "shared_agent", "new_accounts", "velocity"} <= set(kinds)
    for kind in ("shared_network", "shared_agent", "new_accounts", "velocity"):
        assert {v["vote_id"] for v in kinds[kind]["votes"]} == set(planted), kind
    assert kinds["shared_network"]["facts"]["shared_agent"] is True
    assert kinds["velocity"]["facts"]["votes_in_hour"] == 10


def _week(c: Any) -> list[tuple[str, int]]:
    week = ok(c, "get_launch_week", AFTER, week=WK)
    return [(i["listing"]["slug"], i["week_votes"]) for i in week["launches"]]


def _awards(c: Any) -> list[tuple[int, str, int]]:
    return [(a["rank"], a["listing"]["slug"], a["votes"]) for a in ok(c, "get_launch_week", AFTER, week=WK)["awards"]]


def _votes(c: Any, slug: str) -> int:
    return int(ok(c, "get_listing", AFTER, slug=slug)["community"]["votes"])


def _board(c: Any) -> list[str]:
    return slugs(ok(c, "get_leaderboard", AFTER, board="community-weekly", week=WK)["items"])


def test_void_takes_votes_out_of_every_count_and_restore_puts_them_back(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    honest, honest_slug = launched(c, unique("Honest"), WK, MON_WK)
    gamed, gamed_slug = launched(c, unique("Gamed"), WK, MON_WK)
    _organic(c, honest, 4, MON_WK + timedelta(hours=2))
    _organic(c, gamed, 2, MON_WK + timedelta(hours=3))
    planted = _planted(c, gamed, 5, MON_WK + timedelta(days=1))
    staff = Meta(at=AFTER, actor="staff:test", channel="cli", via="staff")
    _sync(c)
    close_week(c.store, c.services.reads, c.runtime, date.fromisoformat(WK), staff)
    c.runtime.catch_up("launches_view")
    before = (_week(c), _awards(c), _votes(c, gamed_slug), _board(c))
    assert before[0][:2] == [(gamed_slug, 7), (honest_slug, 4)] and before[1][:2] == [(1, gamed_slug, 7), (2, honest_slug, 4)]
    assert before[3][:2] == [gamed_slug, honest_slug]
    review = VoteReview(c.store, c.services.reads, c.runtime)

    done = review.void(planted, "one office network, accounts made minutes before", staff)
    assert len(done.changed) == 5 and done.recomputed == [WK]
    assert _week(c)[:2] == [(honest_slug, 4), (gamed_slug, 2)]
    assert _awards(c)[:2] == [(1, honest_slug, 4), (2, gamed_slug, 2)]
    assert _votes(c, gamed_slug) == 2 and _votes(c, honest_slug) == 4
    assert _board(c)[:2] == [honest_slug, gamed_slug]
    voided = c.store.stream(uuid.UUID(planted[0]))[-1]
    assert isinstance(voided, VoteVoided) and voided.actor == "staff:test" and voided.reason.startswith("one office")
    report = _report(c)
    assert report["totals"]["voided"] >= 5
    assert any(v["voided"] for f in report["clusters"] if f["listing"]["listing_id"] == gamed for v in f["votes"])
    assert review.void(planted, "again", staff).changed == []  # voiding twice changes nothing

    # the voter cannot bring a voided vote back by voting again
    account = voided.account_id
    community.cast_vote(c.store, gamed, account, meta(AFTER, actor=f"account:{account}"))
    _sync(c)
    assert _votes(c, gamed_slug) == 2

    done = review.restore(planted, "appeal upheld", staff)
    assert len(done.changed) == 5 and done.recomputed == [WK]
    after = (_week(c), _awards(c), _votes(c, gamed_slug), _board(c))
    assert after == before

    for view in ("launches_view", "listing_view", "catalog_view", "vote_integrity_view"):
        c.runtime.rebuild(view)
    assert (_week(c), _awards(c), _votes(c, gamed_slug), _board(c)) == before
    assert len([v for v in _all_votes(c) if v["vote_id"] in planted and not v["voided"]]) == 5


def test_void_refuses_bad_input(container) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from events.errors import Conflict, InvalidInput

    c = container
    staff = Meta(at=AFTER, actor="staff:test", channel="cli")
    with pytest.raises(InvalidInput) as bad:
        votes_cmd.void_votes(c.store, ["not-a-vote"], "why", staff)
    assert bad.value.problems[0].field == "vote"
    listing_id, _ = launched(c, unique("Reasons"), WK, MON_WK)
    vote = _vote(c, listing_id, MON_WK + timedelta(hours=1))
    with pytest.raises(InvalidInput) as no_reason:
        votes_cmd.void_votes(c.store, [vote], "  ", staff)
    assert no_reason.value.problems[0].field == "reason"
    with pytest.raises(Conflict):
        votes_cmd.void_votes(c.store, [str(uuid.uuid4())], "no such vote", staff)


def test_a_rebuild_in_one_batch_gives_the_rows_the_live_view_wrote_event_by_event(container) -> None:  # type: ignore[no-untyped-def]
    """Casts are kept back within a batch: a stream cast, withdrawn and cast again, with signals between, in one
    batch of a rebuild must end as the live view left it after catching up after every vote."""
    c = container
    listing, _ = launched(c, unique("Batched"), WK, MON_WK)
    at = MON_WK + timedelta(hours=5)
    again = _vote(c, listing, at)  # cast (with signals), then withdrawn, then cast again without signals
    account = c.store.stream(uuid.UUID(again))[0].account_id
    _sync(c)
    community.withdraw_vote(c.store, listing, account, meta(at + timedelta(minutes=1), actor=f"account:{account}"))
    _sync(c)
    community.cast_vote(c.store, listing, account, meta(at + timedelta(minutes=2), actor=f"account:{account}"))
    _sync(c)
    other = f"acct-{uuid.uuid4().hex[:10]}"  # cast without signals, then withdrawn: two events next to each other
    community.cast_vote(c.store, listing, other, meta(at + timedelta(minutes=3), actor=f"account:{other}"))
    withdrawn = str(vote_stream(listing, other))
    community.withdraw_vote(c.store, listing, other, meta(at + timedelta(minutes=4), actor=f"account:{other}"))
    _sync(c)
    mine = {again, withdrawn}

    def rows() -> dict[str, dict[str, Any]]:
        with c.pool.connection() as conn:
            t = c.runtime.tables("vote_integrity_view")
            found = conn.execute(f"SELECT * FROM {t['votes']} WHERE vote_id = ANY(%s::uuid[])", (list(mine),))
            names = [d.name for d in found.description or []]
            return {str(r[0]): dict(zip(names, r, strict=True)) for r in found.fetchall()}

    live = rows()
    assert set(live) == mine
    assert live[again]["standing"] and not live[again]["has_signals"]  # the second cast recorded no signals
    assert live[again]["cast_at"] == at + timedelta(minutes=2)
    assert not live[withdrawn]["standing"] and not live[withdrawn]["has_signals"]
    c.runtime.rebuild("vote_integrity_view")  # every event above in one batch
    assert rows() == live


def test_the_votes_pool_takes_its_size_from_the_setting_or_the_default(container) -> None:  # type: ignore[no-untyped-def]
    from api.web_votes import VOTE_THREADS, VotePages

    assert VotePages(container.identity, threads=3).threads.total_tokens == 3
    assert VotePages(container.identity).threads.total_tokens == VOTE_THREADS
