"""Events a projection cannot apply, as stored before the text rule: no projection stops the world.

NUL and lone surrogates are written storably; an event a handler refuses stops
that one projection at it (retried, then `failing`) while the others move; staff
skip it with a recorded reason or retry after a fix; waits on a failing
projection end at once with a 503.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from eventsourcing.utils import get_topic

from api.problems import status_of
from events.catalog import ProductAdded, ProductPriceSet
from events.errors import Conflict, InvalidInput, NotFound
from projections.runtime import STUCK_RETRY, ReadModelBehind
from tests.integration.poison_helpers import (
    Picky,
    draft,
    edit_field,
    id_of_price,
    make,
    prices,
    register,
    register_with_lone_surrogate,
)
from tests.integration.tally import EventTally, append_price_events

# ---------------------------------------------------------------- storable text


def test_nul_and_lone_surrogates_in_stored_events_are_projected_as_replacement_characters(container: Any) -> None:
    c = container
    nul_account = register(c.store, "nul\x00x@example.org")
    lone_account = register_with_lone_surrogate(c.store)
    owner = register(c.store, "owner@example.org")
    draft_id = draft(c.store, str(owner), "nul.example.org")
    head = edit_field(c.store, draft_id, str(owner), "a\x00b")
    for name in ("accounts_view", "draft_view"):
        assert c.runtime.catch_up(name) == head
    assert all(s.failure is None for s in c.runtime.status())
    with c.pool.connection() as conn:
        accounts = c.runtime.tables("accounts_view")["accounts"]
        emails = dict(conn.execute(f"SELECT account_id, email FROM {accounts}").fetchall())
        doc = conn.execute(f"SELECT doc FROM {c.runtime.tables('draft_view')['drafts']} WHERE id=%s",
                           (draft_id,)).fetchone()[0]
    assert emails[str(nul_account)] == "nul\ufffdx@example.org"
    assert emails[str(lone_account)] == "lone-\ufffd@example.org"
    assert doc["fields"]["name"]["value"] == "a\ufffdb"
    assert c.store.stream(nul_account)[0].email == "nul\x00x@example.org"  # the log keeps what was stored


# ---------------------------------------------------------------- a projection that refuses one event


def test_an_event_a_handler_refuses_stops_that_projection_at_it_while_the_others_move(fresh_db: str) -> None:
    picky = Picky({50})
    store, runtime, pool = make(fresh_db, [EventTally(), picky])
    try:
        head = append_price_events(store, 120)  # prices 2..121
        poison = id_of_price(runtime, 50)
        assert runtime.run_all_once()  # one batch each: the tally's is fine, picky's holds the event
        assert runtime.catch_up("event_tally") == head
        assert runtime._position_of("picky", None) == poison - 1  # everything before the event is applied
        assert prices(pool, runtime.tables("picky")["prices"]) == list(range(2, 50))
        first = _status(runtime, "picky")
        assert first.failure is not None and first.state == "retrying"
        assert first.failure.event_id == poison and first.failure.attempts == 1
        assert first.failure.topic == get_topic(ProductPriceSet)
        assert "RuntimeError: cannot take a price of 50 cents" in first.failure.error
        assert runtime.step("picky") == -1 and runtime.step("picky") == -1  # two more attempts, then failing
        failing = _status(runtime, "picky")
        assert failing.state == "failing" and failing.failure is not None and failing.failure.attempts == 3
        assert runtime.stuck == {"picky": poison}
        assert runtime.step("picky") == -1  # the slow retry is not due: it waits at the event, never past it
        more = append_price_events(store, 5)
        runtime.run_all_once()
        assert runtime._position_of("event_tally", None) == more
        assert runtime._position_of("picky", None) == poison - 1
    finally:
        runtime.stop()
        pool.close()


def test_a_statement_the_database_refuses_in_a_pipelined_batch_stops_the_projection_at_its_event(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [Picky({50}, in_database=True), EventTally()])
    try:
        head = append_price_events(store, 1500)  # more than one batch; the refused insert is in the first
        poison = id_of_price(runtime, 50)
        assert runtime.catch_up("picky") == poison - 1
        failure = _status(runtime, "picky").failure
        assert failure is not None and failure.event_id == poison and "NotNullViolation" in failure.error
        assert prices(pool, runtime.tables("picky")["prices"]) == list(range(2, 50))
        assert runtime.catch_up("event_tally") == head  # the pool's connections are fine for the others
    finally:
        runtime.stop()
        pool.close()


def test_skip_with_a_reason_moves_the_projection_past_that_one_event_and_is_recorded(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [Picky({50, 70})])
    try:
        head = append_price_events(store, 120)
        poison, later = id_of_price(runtime, 50), id_of_price(runtime, 70)
        runtime.catch_up("picky")
        with pytest.raises(InvalidInput):
            runtime.skip("picky", poison, "  ", "staff:ops")
        with pytest.raises(NotFound):
            runtime.skip("picky", head + 100, "no such event", "staff:ops")
        added = _first_id(runtime, ProductAdded)
        with pytest.raises(InvalidInput):  # not a topic picky reads
            runtime.skip("picky", added, "not mine", "staff:ops")
        with pytest.raises(Conflict):  # applied already
            runtime.skip("picky", poison - 5, "too late", "staff:ops")
        done = runtime.skip("picky", poison, "price 50 was typed by mistake", "staff:ops")
        assert (done.event_id, done.topic, done.actor) == (poison, get_topic(ProductPriceSet), "staff:ops")
        assert runtime.catch_up("picky") == later - 1  # past the skipped event, stopped at the next bad one
        assert _status(runtime, "picky").failure.event_id == later
        runtime.skip("picky", later, "so was 70", "staff:ops")
        assert runtime.catch_up("picky") == head
        assert _status(runtime, "picky").failure is None
        assert prices(pool, runtime.tables("picky")["prices"]) == [p for p in range(2, 122) if p not in (50, 70)]
        recorded = runtime.skips("picky")
        assert [(k.event_id, k.reason, k.actor) for k in recorded] == [
            (later, "so was 70", "staff:ops"), (poison, "price 50 was typed by mistake", "staff:ops")]
        with pytest.raises(Conflict):
            runtime.skip("picky", poison, "again", "staff:ops")
        rebuilt = runtime.rebuild("picky")  # a rebuild honours the recorded skips
        assert rebuilt.failure is None and rebuilt.position == head
        assert prices(pool, runtime.tables("picky")["prices"]) == [p for p in range(2, 122) if p not in (50, 70)]
    finally:
        runtime.stop()
        pool.close()


def test_retry_after_the_cause_is_fixed_clears_failing_and_applies_the_event(fresh_db: str) -> None:
    picky = Picky({50})
    store, runtime, pool = make(fresh_db, [picky])
    try:
        head = append_price_events(store, 80)
        for _ in range(3):
            runtime.catch_up("picky")
        assert _status(runtime, "picky").state == "failing"
        picky.poison.clear()  # the fix
        cleared = runtime.retry("picky")
        assert [(gen, f.event_id, f.failing) for gen, f in cleared] == [(1, id_of_price(runtime, 50), True)]
        assert _status(runtime, "picky").failure is None
        assert runtime.catch_up("picky") == head
        assert prices(pool, runtime.tables("picky")["prices"]) == list(range(2, 82))
        assert runtime.stuck == {}
    finally:
        runtime.stop()
        pool.close()


def test_a_code_fix_and_a_rebuild_clear_a_failing_projection(fresh_db: str) -> None:
    picky = Picky({50})
    store, runtime, pool = make(fresh_db, [picky])
    try:
        head = append_price_events(store, 80)
        for _ in range(3):
            runtime.catch_up("picky")
        assert _status(runtime, "picky").state == "failing"
        picky.poison.clear()
        rebuilt = runtime.rebuild("picky")
        assert (rebuilt.generation, rebuilt.state, rebuilt.position) == (2, "active", head)
        assert prices(pool, runtime.tables("picky")["prices"]) == list(range(2, 82))
        assert runtime.stuck == {}
    finally:
        runtime.stop()
        pool.close()


def test_a_rebuild_that_meets_a_poison_event_stops_building_and_the_old_generation_keeps_serving(fresh_db: str) -> None:
    from projections.runtime import RebuildBlocked

    picky = Picky(set())
    store, runtime, pool = make(fresh_db, [picky])
    try:
        head = append_price_events(store, 80)
        runtime.catch_up("picky")
        picky.poison.add(50)  # the new code refuses an event the old code applied
        with pytest.raises(RebuildBlocked) as blocked:
            runtime.rebuild("picky")
        assert "launchdir projections skip picky" in str(blocked.value)
        rows = {s.generation: s for s in runtime.status()}
        assert rows[1].state == "active" and rows[1].position == head
        assert rows[2].status == "building" and rows[2].state == "failing"
        runtime.skip("picky", id_of_price(runtime, 50), "the new code drops it", "staff:ops")  # allowed: gen 2 has not applied it
        rebuilt = runtime.rebuild("picky")  # resumes generation 2 past the skipped event
        assert (rebuilt.generation, rebuilt.position, rebuilt.failure) == (2, head, None)
        assert 50 not in prices(pool, runtime.tables("picky")["prices"])
    finally:
        runtime.stop()
        pool.close()


def test_a_stored_event_the_code_cannot_read_stops_the_projection_like_any_poison(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [Picky(set())])
    try:
        head = append_price_events(store, 13)
        bad = id_of_price(runtime, 7)
        with pool.connection() as conn:  # a stored state the transcoder cannot decode
            conn.execute("UPDATE launchdir_events SET state = %s WHERE notification_id = %s", (b"{not json", bad))
        assert runtime.catch_up("picky") == bad - 1
        failure = _status(runtime, "picky").failure
        assert failure is not None and failure.event_id == bad and "cannot be read" in failure.error
        runtime.skip("picky", bad, "corrupt row", "staff:ops")
        assert runtime.catch_up("picky") == head
    finally:
        runtime.stop()
        pool.close()


# ---------------------------------------------------------------- waits


def test_waits_on_a_failing_projection_end_at_once_with_a_503(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [EventTally(), Picky({50})])
    try:
        head = append_price_events(store, 80)
        poison = id_of_price(runtime, 50)
        for _ in range(3):
            runtime.catch_up("picky")
        runtime.require(["picky"], poison - 1, timeout=5)  # before the event: there already
        outcome: list[Any] = []

        def wait() -> None:
            try:
                runtime.require(["picky", "event_tally"], head, timeout=3600)
                outcome.append(None)
            except ReadModelBehind as exc:
                outcome.append(exc)

        waiter = threading.Thread(target=wait, daemon=True)
        waiter.start()
        waiter.join(60)
        assert not waiter.is_alive(), "a wait on a failing projection must not sit out its timeout"
        error = outcome[0]
        assert isinstance(error, ReadModelBehind) and status_of(error) == 503
        assert error.retry_after == STUCK_RETRY
        assert f"picky (at event {poison})" in error.detail and "cannot apply" in error.detail
        assert runtime.wait_for(["picky"], head, timeout=3600) is False
        with pytest.raises(ReadModelBehind) as behind:  # only slower (nothing applies here): the other sentence
            runtime.require(["event_tally"], head, timeout=0.05)
        assert behind.value.retry_after == 1 and "not caught up" in behind.value.detail
    finally:
        runtime.stop()
        pool.close()


def test_another_process_learns_of_the_failing_projection_by_notification(fresh_db: str) -> None:
    _, watcher, pool2 = make(fresh_db, [Picky({50})])
    store, runner, pool = make(fresh_db, [Picky({50})])
    watcher.start(run_projectors=False)  # a server whose projectors run elsewhere
    try:
        head = append_price_events(store, 80)
        for _ in range(3):
            runner.catch_up("picky")
        with pytest.raises(ReadModelBehind) as stuck:
            watcher.require(["picky"], head, timeout=30)
        assert stuck.value.retry_after == STUCK_RETRY
    finally:
        watcher.stop()
        pool.close()
        pool2.close()


# ---------------------------------------------------------------- helpers


def _status(runtime: Any, name: str) -> Any:
    return next(s for s in runtime.status() if s.name == name and s.status == "active")


def _first_id(runtime: Any, cls: type) -> int:
    return int(runtime.events.read(0, runtime.events.head(), [get_topic(cls)], 1)[0][0])
