"""Search statements run prepared, with a generic plan made under the settings they are sent with."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from queries.search import run_prepared, settings_tag

SEQSCAN_OFF = "set_config('enable_seqscan', 'off', true)"
INDEXES_OFF = ("set_config('enable_indexscan', 'off', true), set_config('enable_bitmapscan', 'off', true), "
               "set_config('enable_indexonlyscan', 'off', true)")
COUNT = "SELECT count(*) FROM numbers WHERE n < %(below)s"


@pytest.fixture
def conn(fresh_db: str) -> Any:
    """A connection in autocommit, as the read store lends them, over a table with an index on its only column."""
    with psycopg.connect(fresh_db, autocommit=True) as c:
        c.execute("CREATE TABLE numbers (n int PRIMARY KEY)")
        c.execute("INSERT INTO numbers SELECT generate_series(1, 20000)")
        c.execute("ANALYZE numbers")
        yield c


def test_the_settings_hold_for_the_statement_and_end_with_it(conn: Any) -> None:
    rows = run_prepared(conn, SEQSCAN_OFF, "SELECT current_setting('enable_seqscan'), "
                        "current_setting('plan_cache_mode'), %(x)s::int", {"x": 7})
    assert rows == [("off", "force_generic_plan", 7)]
    assert conn.execute("SELECT current_setting('enable_seqscan'), current_setting('plan_cache_mode')").fetchone() \
        == ("on", "auto")


def test_each_settings_gets_a_generic_plan_of_its_own_made_under_them(conn: Any) -> None:
    for below in (10, 15000, 20):  # values that would each call for another plan if planned for them
        assert run_prepared(conn, SEQSCAN_OFF, COUNT, {"below": below}) == [(below - 1,)]
        assert run_prepared(conn, INDEXES_OFF, COUNT, {"below": below}) == [(below - 1,)]
    statements = conn.execute(
        "SELECT name, statement, generic_plans, custom_plans FROM pg_prepared_statements "
        "WHERE statement LIKE 'SELECT count(*) FROM numbers%' ORDER BY statement").fetchall()
    assert len(statements) == 2  # one per settings: a plan made under one is never run under the other
    assert all(generic == 3 and custom == 0 for _, _, generic, custom in statements)
    # The cached plans, shown under the session's own settings (everything on): each is the one its settings made.
    conn.execute("SET plan_cache_mode = force_generic_plan")
    plans = {}
    for name, statement, _, _ in statements:
        plans[statement] = "\n".join(row[0] for row in conn.execute(f"EXPLAIN EXECUTE {name}(5)"))
    conn.execute("RESET plan_cache_mode")
    by_settings = {("seqscan" if settings_tag(SEQSCAN_OFF) in s else "indexes"): p for s, p in plans.items()}
    assert "Seq Scan" not in by_settings["seqscan"] and "numbers_pkey" in by_settings["seqscan"]
    assert "Seq Scan on numbers" in by_settings["indexes"] and "numbers_pkey" not in by_settings["indexes"]


def test_a_statement_planned_for_its_values_is_planned_at_every_execution(conn: Any) -> None:
    """`generic=False`: the choice the settings leave (scan or index) is made for each execution's values."""
    for below in (10, 15000):
        assert run_prepared(conn, "set_config('enable_bitmapscan', 'off', true)", COUNT, {"below": below},
                            generic=False) == [(below - 1,)]
    (generic, custom), = conn.execute(
        "SELECT generic_plans, custom_plans FROM pg_prepared_statements "
        "WHERE statement LIKE 'SELECT count(*) FROM numbers%'").fetchall()
    assert (generic, custom) == (0, 2)
    assert settings_tag("x", generic=False) != settings_tag("x")  # never the generic plan's prepared statement


def test_a_failed_statement_leaves_the_connection_usable(conn: Any) -> None:
    with pytest.raises(psycopg.errors.DivisionByZero):
        run_prepared(conn, SEQSCAN_OFF, "SELECT 1 / %(zero)s::int", {"zero": 0})
    assert run_prepared(conn, SEQSCAN_OFF, COUNT, {"below": 3}) == [(2,)]
    assert conn.execute("SHOW enable_seqscan").fetchone() == ("on",)

