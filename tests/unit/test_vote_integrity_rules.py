"""The vote decider with integrity facts and the report's rules, as pure functions: given, when, then."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from functools import reduce

import pytest

from aggregates import votes
from aggregates.base import Meta
from aggregates.community import vote_stream
from events.base import Event
from events.community import VoteCast, VoteWithdrawn
from events.errors import Conflict, InvalidInput
from events.votes import VoidedVoteWithdrawn, VoteRestored, VoteSignalsRecorded, VoteVoided
from queries import vote_patterns as rules
from queries.vote_patterns import Vote

T0 = datetime(2026, 11, 16, 9, 0, tzinfo=timezone.utc)


def meta(at: datetime = T0, actor: str = "account:a") -> Meta:
    return Meta(at=at, actor=actor, channel="web")


def fold(events: list[Event], state: votes.VoteState | None = None) -> votes.VoteState:
    start = state or votes.VOTE.initial(vote_stream(7, "a"))
    return reduce(lambda s, e: votes.VOTE.evolve(e, s), events, start)


OBSERVED = votes.Observed(account_created_at=T0 - timedelta(hours=2), email_verified=True, network_hash="n" * 64,
                          agent_hash="u" * 64, first_view_at=T0 - timedelta(minutes=5))


def test_a_vote_with_observations_records_its_signals_as_durations() -> None:
    cast, signals = votes.decide_cast(fold([]), 7, "a", True, OBSERVED, meta())
    assert isinstance(cast, VoteCast) and isinstance(signals, VoteSignalsRecorded)
    assert (cast.originator_version, signals.originator_version) == (1, 2)
    assert signals.account_age_seconds == 7200 and signals.since_first_view_seconds == 300
    assert votes.decide_cast(fold([cast, signals]), 7, "a", True, OBSERVED, meta()) == []  # one standing vote
    with pytest.raises(Conflict):
        votes.decide_cast(fold([]), 7, "a", False, None, meta())


def test_void_restore_and_withdraw_of_a_voided_vote() -> None:
    events = votes.decide_cast(fold([]), 7, "a", True, None, meta())
    staff = meta(T0 + timedelta(days=1), "staff:s")
    (voided,) = votes.decide_void(fold(events), "cluster", staff)
    assert isinstance(voided, VoteVoided) and voided.cast_at == T0 and voided.reason == "cluster"
    state = fold([*events, voided])
    assert votes.decide_void(state, "again", staff) == []
    assert votes.decide_cast(state, 7, "a", True, None, meta()) == []  # voting again brings nothing back
    (restored,) = votes.decide_restore(state, "appeal upheld", staff)
    assert isinstance(restored, VoteRestored) and restored.cast_at == T0
    assert votes.decide_restore(fold([*events, voided, restored]), "again", staff) == []
    (gone,) = votes.decide_withdraw(state, 7, "a", meta())
    assert isinstance(gone, VoidedVoteWithdrawn)
    (plain,) = votes.decide_withdraw(fold(events), 7, "a", meta())
    assert isinstance(plain, VoteWithdrawn)
    with pytest.raises(InvalidInput):
        votes.decide_void(fold(events), "   ", staff)
    with pytest.raises(Conflict):
        votes.decide_void(fold([]), "no vote", staff)


def _v(i: int, at: datetime, listing: int = 1, net: str = "", agent: str = "", age: int | None = 10**7) -> Vote:
    return Vote(f"v{i}", listing, f"a{i}", at, False, True, age, None, net or f"net{i}", agent or f"ua{i}")


def test_bursts_need_the_minimum_within_the_window() -> None:
    spread = [_v(i, T0 + i * timedelta(minutes=40)) for i in range(5)]
    assert rules.bursts(spread, 3) == []
    tight = [_v(10 + i, T0 + timedelta(hours=5, minutes=10 * i)) for i in range(4)]
    assert [[v.vote_id for v in g] for g in rules.bursts(spread + tight, 3)] == [["v10", "v11", "v12", "v13"]]


def test_steady_votes_are_not_flagged_and_a_burst_is() -> None:
    steady = [_v(i, T0 + i * timedelta(minutes=20), listing=1) for i in range(60)]
    assert rules.clusters(steady) == [] and rules.velocity(steady, T0 + timedelta(days=2)) == []
    burst = [_v(100 + i, T0 + timedelta(hours=30, minutes=i), listing=2, net="office", agent="Bot",
                age=600) for i in range(9)]
    found = rules.clusters(steady + burst)
    assert {f.kind for f in found} == {"shared_network", "shared_agent", "new_accounts"}
    assert all(f.listing_id == 2 and len(f.votes) == 9 for f in found)
    (spike,) = rules.velocity(steady + burst, T0 + timedelta(days=2))
    assert spike.listing_id == 2 and spike.facts["votes_in_hour"] == 9
