"""Badge check reads: the last check of a listing (owners, the CLI), and which checks are due (the process manager).

Read from `badge_checks_view` (projections/badge_checks_view.py, which also
holds the schedule the checks follow).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from projections.reads import ReadStore

VIEW = "badge_checks_view"
REASONS = {
    "not_found": "the homepage does not show our badge (no link to the listing's page and no badge image)",
    "unreachable": "the homepage could not be fetched (connection failed or an HTTP error)",
    "timeout": "the homepage did not answer in time",
    "blocked": "the homepage's address is not a public one, so it is not fetched",
    "not_html": "the homepage is not an HTML page",
    "no_website": "the listing has no website address",
}
COLUMNS = ("listing_id", "slug", "status", "plan", "week", "launched_at", "attempts", "last_checked_at",
           "last_result", "last_reason", "checked_url", "next_check_at")


class BadgeCheck(BaseModel):
    """The last check of the homepage for our badge."""

    result: str = Field(description="`found` or `missing`.")
    reason: str | None = Field(description="Why it was missing: `not_found`, `unreachable`, `timeout`, `blocked`, "
                                           "`not_html` or `no_website`; null when found.")
    explanation: str | None = Field(description="The reason in a sentence.")
    checked_url: str | None = Field(description="The page that was checked (after redirects).")
    checked_at: str = Field(description="When (ISO 8601).")
    misses_in_a_row: int
    next_check_at: str | None = Field(description="When the next automatic check is due, if one is planned.")


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _row(reads: ReadStore, where: str, key: Any) -> dict[str, Any] | None:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT {', '.join(COLUMNS)} FROM {t['checks']} WHERE {where} = %s", (key,)).fetchone()
    return dict(zip(COLUMNS, row, strict=True)) if row else None


def check_row(reads: ReadStore, listing_id: int) -> dict[str, Any] | None:
    """The listing's row as stored (status, plan, week, launched_at, misses, last result, next check), or None."""
    return _row(reads, "listing_id", listing_id)


def listing_id_for(reads: ReadStore, slug: str) -> int | None:
    row = _row(reads, "slug", slug)
    return int(row["listing_id"]) if row else None


def shaped(row: dict[str, Any] | None) -> dict[str, Any] | None:
    """A stored row as `BadgeCheck`, or None when the homepage was never checked."""
    if row is None or row["last_checked_at"] is None:
        return None
    reason = row["last_reason"]
    return {
        "result": row["last_result"], "reason": reason, "explanation": REASONS.get(reason) if reason else None,
        "checked_url": row["checked_url"], "checked_at": _iso(row["last_checked_at"]),
        "misses_in_a_row": int(row["attempts"]), "next_check_at": _iso(row["next_check_at"]),
    }


def last_check(reads: ReadStore, listing_id: int) -> dict[str, Any] | None:
    """The last badge check of a listing shaped as `BadgeCheck`, or None when it was never checked."""
    return shaped(check_row(reads, listing_id))


def due(reads: ReadStore, now: datetime, limit: int = 50) -> list[int]:
    """Listings whose next badge check is due at `now`, the longest waiting first."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"SELECT listing_id FROM {t['checks']} WHERE next_check_at <= %s ORDER BY next_check_at, listing_id LIMIT %s",
            (now, limit),
        ).fetchall()
    return [int(r[0]) for r in rows]
