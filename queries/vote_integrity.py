"""The staff vote integrity report: a week's votes with their signals, and what the rules find in them.

Read from `vote_integrity_view` (votes, signals, voided or not) with the
listing names from `launches_view`; the rules are `queries/vote_patterns.py`.
The week is the site's launch week (Monday 00:00 to Monday 00:00 in the site's
timezone) and the report covers the votes cast in it that still stand, voided
ones included (marked), so staff see what they voided and can restore it.
Hashes are shown shortened: enough to tell two apart, not to look anything up.
"""

from __future__ import annotations

from datetime import date, datetime, tzinfo
from typing import Any

from projections.reads import ReadStore
from queries import vote_patterns as rules
from queries.weeks import week_end, week_start

VIEW = "vote_integrity_view"
LISTINGS_VIEW = "launches_view"


def week_votes(reads: ReadStore, start: datetime, end: datetime) -> tuple[list[rules.Vote], dict[int, dict[str, Any]]]:
    """Standing votes cast in [start, end) and the listings they are for (id -> slug, name)."""
    t, listings = reads.tables(VIEW), reads.tables(LISTINGS_VIEW)["listings"]
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"""SELECT v.vote_id, v.listing_id, v.account_id, v.cast_at, v.voided, v.email_verified, v.account_age_s,
                       v.since_first_view_s, coalesce(v.network_hash, ''), coalesce(v.agent_hash, ''), l.slug, l.name
                FROM {t['votes']} v LEFT JOIN {listings} l ON l.id = v.listing_id
                WHERE v.standing AND v.cast_at >= %s AND v.cast_at < %s ORDER BY v.cast_at, v.vote_id""",
            (start, end),
        ).fetchall()
    votes = [rules.Vote(str(r[0]), int(r[1]), str(r[2]), r[3], bool(r[4]), r[5], r[6], r[7], str(r[8]), str(r[9]))
             for r in rows]
    names = {int(r[1]): {"listing_id": int(r[1]), "slug": r[10] or "", "name": r[11] or r[10] or str(r[1])} for r in rows}
    return votes, names


def vote_doc(v: rules.Vote, tz: tzinfo | None = None) -> dict[str, Any]:
    """One vote as the report shows it (times in the site's timezone `tz`)."""
    return {"vote_id": v.vote_id, "account_id": v.account_id, "cast_at": v.cast_at.astimezone(tz).isoformat(), "voided": v.voided,
            "email_verified": v.email_verified, "account_age_seconds": v.account_age_s,
            "since_first_view_seconds": v.since_first_view_s, "network": v.network_hash[:12], "agent": v.agent_hash[:12]}


def _finding_doc(f: rules.Finding, names: dict[int, dict[str, Any]], tz: tzinfo) -> dict[str, Any]:
    facts = {k: (v.astimezone(tz).isoformat() if isinstance(v, datetime) else v) for k, v in f.facts.items()}
    return {"kind": f.kind, "listing": names.get(f.listing_id, {"listing_id": f.listing_id, "slug": "", "name": ""}),
            "first_at": f.votes[0].cast_at.astimezone(tz).isoformat(), "last_at": f.votes[-1].cast_at.astimezone(tz).isoformat(),
            "count": len(f.votes), "voided": sum(v.voided for v in f.votes), "facts": facts,
            "votes": [vote_doc(v, tz) for v in f.votes]}


def integrity_report(reads: ReadStore, monday: date, tz: tzinfo, now: datetime) -> dict[str, Any]:
    """The report of the week of `monday`: totals, clusters and velocity anomalies, each with its votes."""
    start, end = week_start(monday, tz), week_end(monday, tz)
    votes, names = week_votes(reads, start, end)
    until = min(end, max(now, start))
    clusters = rules.clusters(votes)
    spikes = rules.velocity(votes, until)
    flagged = {v.vote_id for f in clusters + spikes for v in f.votes}
    return {
        "week": monday.isoformat(), "from": start.isoformat(), "to": end.isoformat(), "rules": rules.rules(),
        "totals": {"votes": len(votes), "voided": sum(v.voided for v in votes), "listings": len(names),
                   "with_signals": sum(1 for v in votes if v.email_verified is not None), "flagged": len(flagged)},
        "clusters": [_finding_doc(f, names, tz) for f in clusters],
        "velocity": [_finding_doc(f, names, tz) for f in spikes],
    }


def launch_weeks(reads: ReadStore, listing_ids: list[int]) -> list[date]:
    """The launch weeks of these listings (the weeks whose rankings and awards their votes count in)."""
    listings = reads.tables(LISTINGS_VIEW)["listings"]
    with reads.pool.connection() as conn:
        rows = conn.execute(f"SELECT DISTINCT week FROM {listings} WHERE id = ANY(%s) AND week IS NOT NULL ORDER BY week",
                            (sorted(set(listing_ids)),)).fetchall()
    return [r[0] for r in rows]
