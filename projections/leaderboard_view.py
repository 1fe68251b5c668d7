"""Read tables of the rankings that are not community votes: billboard money, Domain Rating, revenue.

Kept apart from `launches_view` on purpose: nothing that ranks by community
votes (launch weeks, community boards, awards) reads these tables, so paid
placement can never buy a community rank. The queries join the listing cards
from `launches_view` by listing id at read time.
"""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from events.metrics import BillboardContributed, DomainRatingRecorded, RevenueRecorded
from projections.base import Projection, Tables, handles


class LeaderboardView(Projection):
    name = "leaderboard_view"
    tables = ("billboard", "dr_history", "domain_rating", "revenue_history", "revenue")

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(
            f"""CREATE TABLE {t['billboard']} (listing_id bigint PRIMARY KEY, total_cents bigint NOT NULL,
                contributions int NOT NULL, first_at timestamptz NOT NULL, last_at timestamptz NOT NULL)"""
        )
        cur.execute(f"CREATE INDEX ON {t['billboard']} (total_cents DESC, listing_id)")
        cur.execute(
            f"""CREATE TABLE {t['dr_history']} (listing_id bigint NOT NULL, measured_on date NOT NULL,
                value int NOT NULL, source text NOT NULL, PRIMARY KEY (listing_id, measured_on))"""
        )
        cur.execute(
            f"""CREATE TABLE {t['domain_rating']} (listing_id bigint PRIMARY KEY, value int NOT NULL,
                previous int, measured_on date NOT NULL, source text NOT NULL)"""
        )
        cur.execute(f"CREATE INDEX ON {t['domain_rating']} (value DESC, listing_id)")
        cur.execute(
            f"""CREATE TABLE {t['revenue_history']} (listing_id bigint NOT NULL, period text NOT NULL,
                amount_cents bigint NOT NULL, source text NOT NULL, PRIMARY KEY (listing_id, period))"""
        )
        cur.execute(
            f"""CREATE TABLE {t['revenue']} (listing_id bigint PRIMARY KEY, amount_cents bigint NOT NULL,
                period text NOT NULL, source text NOT NULL)"""
        )
        cur.execute(f"CREATE INDEX ON {t['revenue']} (amount_cents DESC, listing_id)")

    @handles(BillboardContributed)
    def _billboard(self, cur: Cursor[Any], t: Tables, e: BillboardContributed) -> None:
        cur.execute(
            f"""INSERT INTO {t['billboard']} AS b (listing_id, total_cents, contributions, first_at, last_at)
                VALUES (%s, %s, 1, %s, %s)
                ON CONFLICT (listing_id) DO UPDATE SET total_cents = b.total_cents + EXCLUDED.total_cents,
                    contributions = b.contributions + 1, first_at = least(b.first_at, EXCLUDED.first_at),
                    last_at = greatest(b.last_at, EXCLUDED.last_at)""",
            (e.listing_id, e.amount_cents, e.timestamp, e.timestamp),
        )

    @handles(DomainRatingRecorded)
    def _domain_rating(self, cur: Cursor[Any], t: Tables, e: DomainRatingRecorded) -> None:
        """A snapshot per listing and day (a later one the same day replaces it); the newest day is current."""
        cur.execute(
            f"""INSERT INTO {t['dr_history']} AS h (listing_id, measured_on, value, source) VALUES (%s, %s, %s, %s)
                ON CONFLICT (listing_id, measured_on) DO UPDATE SET value = EXCLUDED.value, source = EXCLUDED.source""",
            (e.listing_id, e.measured_on, e.value, e.source),
        )
        cur.execute(
            f"""INSERT INTO {t['domain_rating']} AS d (listing_id, value, previous, measured_on, source)
                SELECT h.listing_id, h.value,
                       (SELECT p.value FROM {t['dr_history']} p WHERE p.listing_id = h.listing_id
                        AND p.measured_on < h.measured_on ORDER BY p.measured_on DESC LIMIT 1),
                       h.measured_on, h.source
                FROM {t['dr_history']} h WHERE h.listing_id = %s ORDER BY h.measured_on DESC LIMIT 1
                ON CONFLICT (listing_id) DO UPDATE SET value = EXCLUDED.value, previous = EXCLUDED.previous,
                    measured_on = EXCLUDED.measured_on, source = EXCLUDED.source""",
            (e.listing_id,),
        )

    @handles(RevenueRecorded)
    def _revenue(self, cur: Cursor[Any], t: Tables, e: RevenueRecorded) -> None:
        """One record per listing and month (a later one for the same month replaces it); the newest month is current."""
        cur.execute(
            f"""INSERT INTO {t['revenue_history']} (listing_id, period, amount_cents, source) VALUES (%s, %s, %s, %s)
                ON CONFLICT (listing_id, period) DO UPDATE SET amount_cents = EXCLUDED.amount_cents,
                    source = EXCLUDED.source""",
            (e.listing_id, e.period, e.amount_cents, e.source),
        )
        cur.execute(
            f"""INSERT INTO {t['revenue']} (listing_id, amount_cents, period, source)
                SELECT listing_id, amount_cents, period, source FROM {t['revenue_history']}
                WHERE listing_id = %s ORDER BY period DESC LIMIT 1
                ON CONFLICT (listing_id) DO UPDATE SET amount_cents = EXCLUDED.amount_cents,
                    period = EXCLUDED.period, source = EXCLUDED.source""",
            (e.listing_id,),
        )
