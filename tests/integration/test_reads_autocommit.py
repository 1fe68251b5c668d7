"""Reads borrow connections in autocommit; writers get the pool's transactions back; search keeps its settings."""

from __future__ import annotations

from psycopg.pq import TransactionStatus
from psycopg_pool import ConnectionPool

from projections.autocommit import autocommit


def test_a_read_opens_no_transaction_and_a_writer_gets_its_transactions_back(fresh_db: str) -> None:
    with ConnectionPool(fresh_db, min_size=1, max_size=1, open=True) as pool:
        with autocommit(pool) as conn:
            conn.execute("SELECT 1").fetchone()
            assert conn.autocommit is True
            assert conn.info.transaction_status == TransactionStatus.IDLE  # no BEGIN went before it
        with pool.connection() as conn:  # the same (only) connection, as writers borrow it
            assert conn.autocommit is False
            conn.execute("SELECT 1").fetchone()
            assert conn.info.transaction_status == TransactionStatus.INTRANS


def test_a_failed_read_leaves_the_connection_usable(fresh_db: str) -> None:
    with ConnectionPool(fresh_db, min_size=1, max_size=1, open=True) as pool:
        try:
            with autocommit(pool) as conn:
                conn.execute("SELECT 1 / 0")
        except Exception as exc:  # noqa: BLE001 - the division's error is the point
            assert "division by zero" in str(exc)
        with pool.connection() as conn:
            assert conn.execute("SELECT 2").fetchone() == (2,)
            assert conn.autocommit is False


def test_the_read_store_reads_in_autocommit(container) -> None:  # type: ignore[no-untyped-def]
    with container.services.reads.pool.connection() as conn:
        assert conn.autocommit is True
        conn.execute("SELECT 1").fetchone()
        assert conn.info.transaction_status == TransactionStatus.IDLE


def test_transaction_local_settings_last_only_inside_a_transaction(container) -> None:  # type: ignore[no-untyped-def]
    """Why search opens a transaction on its autocommit connection: its forced plans are transaction-local."""
    with container.services.reads.pool.connection() as conn:
        conn.execute("SELECT set_config('enable_seqscan', 'off', true)")
        assert conn.execute("SHOW enable_seqscan").fetchone() == ("on",)  # gone with the statement's own transaction
        with conn.transaction():
            conn.execute("SELECT set_config('enable_seqscan', 'off', true)")
            assert conn.execute("SHOW enable_seqscan").fetchone() == ("off",)
