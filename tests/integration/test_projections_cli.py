"""`launchdir projections` status, skip, retry and rebuild, run as staff and monitors run them."""

from __future__ import annotations

import uuid
from types import SimpleNamespace
from typing import Any

import psycopg
from click.testing import CliRunner

from launchdir.cli_projections import projections
from tests.integration.poison_helpers import Picky, id_of_price, make
from tests.integration.tally import append_price_events


def test_status_exits_2_when_an_active_projection_lags_past_the_threshold(container: Any) -> None:
    c = container
    for name in c.runtime.projections:
        c.runtime.catch_up(name)
    append_price_events(c.store, 30)  # nobody runs the projections of this container
    runner = CliRunner()
    lagging = runner.invoke(projections, ["status", "--max-lag", "5"], obj=c)
    assert lagging.exit_code == 2
    assert "catalog_view lags" in lagging.output and "(more than 5)" in lagging.output
    calm = runner.invoke(projections, ["status", "--max-lag", "1000"], obj=c)
    assert calm.exit_code == 0, calm.output
    assert "catalog_view" in calm.output and "active" in calm.output


def test_retry_says_when_the_event_still_fails_and_clears_failing_once_fixed(fresh_db: str) -> None:
    picky = Picky({50})
    store, runtime, pool = make(fresh_db, [picky])
    here = SimpleNamespace(runtime=runtime)
    runner = CliRunner()
    try:
        head = append_price_events(store, 80)
        poison = id_of_price(runtime, 50)
        for _ in range(3):
            runtime.catch_up("picky")
        status = runner.invoke(projections, ["status"], obj=here)
        assert status.exit_code == 2
        assert f"failing at event {poison} (events.catalog:ProductPriceSet)" in status.output
        assert "cannot take a price of 50 cents" in status.output
        assert f"launchdir projections skip picky {poison} --reason TEXT" in status.output

        still = runner.invoke(projections, ["retry", "picky"], obj=here)
        assert still.exit_code == 1 and "stopped again" in still.output
        picky.poison.clear()  # the code fix
        fixed = runner.invoke(projections, ["retry", "picky"], obj=here)
        assert fixed.exit_code == 0, fixed.output
        assert "trying again" in fixed.output and f"picky is at position {head} of {head}" in fixed.output
        assert runner.invoke(projections, ["status"], obj=here).exit_code == 0
        nothing = runner.invoke(projections, ["retry", "picky"], obj=here)
        assert nothing.exit_code == 0 and "not stopped at any event" in nothing.output
    finally:
        runtime.stop()
        pool.close()


def test_skip_needs_a_reason_records_the_staff_member_and_moves_on(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [Picky({50})])
    here = SimpleNamespace(runtime=runtime)
    runner = CliRunner()
    try:
        head = append_price_events(store, 80)
        poison = id_of_price(runtime, 50)
        runtime.catch_up("picky")
        assert runner.invoke(projections, ["skip", "picky", str(poison)], obj=here).exit_code == 2  # --reason missing
        unknown = runner.invoke(projections, ["skip", "nosuch", str(poison), "--reason", "x"], obj=here)
        assert unknown.exit_code == 2 and "unknown projection" in unknown.output
        done = runner.invoke(projections, ["skip", "picky", str(poison), "--reason", "a typo in the price"],
                             obj=here, env={"LAUNCHDIR_STAFF": "ops@example.org"})
        assert done.exit_code == 0, done.output
        assert f"picky is at position {head} of {head}" in done.output
        [recorded] = runtime.skips("picky")
        assert (recorded.event_id, recorded.reason, recorded.actor) == (poison, "a typo in the price", "staff:ops@example.org")
        again = runner.invoke(projections, ["skip", "picky", str(poison), "--reason", "again"], obj=here)
        assert again.exit_code == 1 and "already" in again.output
    finally:
        runtime.stop()
        pool.close()


def test_rebuild_stopped_by_a_poison_event_says_how_to_go_on(fresh_db: str) -> None:
    picky = Picky(set())
    store, runtime, pool = make(fresh_db, [picky])
    here = SimpleNamespace(runtime=runtime)
    runner = CliRunner()
    try:
        head = append_price_events(store, 80)
        runtime.catch_up("picky")
        picky.poison.add(50)
        blocked = runner.invoke(projections, ["rebuild", "picky"], obj=here)
        assert blocked.exit_code == 1
        assert "The current generation keeps serving" in blocked.output
        assert f"launchdir projections skip picky {id_of_price(runtime, 50)}" in blocked.output
        status = runner.invoke(projections, ["status"], obj=here)
        assert status.exit_code == 0  # the serving generation is healthy
        assert "picky generation 2 (building) is failing" in status.output
        picky.poison.clear()
        done = runner.invoke(projections, ["rebuild", "picky"], obj=here)
        assert done.exit_code == 0 and f"picky: generation 2 active at position {head}" in done.output
    finally:
        runtime.stop()
        pool.close()


def test_a_database_that_does_not_exist_is_named_at_once(databases: Any) -> None:
    """Before, the pools retried for 10 s and said only "couldn't get a connection after 10.00 sec"."""
    params = psycopg.conninfo.conninfo_to_dict(databases.admin)
    params["dbname"] = "launchdir_never_created_" + uuid.uuid4().hex[:8]
    result = CliRunner().invoke(projections, ["status"], env={"DATABASE_URL": psycopg.conninfo.make_conninfo(**params)})
    assert result.exit_code == 1
    assert "cannot connect to the database" in result.output and "does not exist" in result.output
    assert "couldn't get a connection" not in result.output
