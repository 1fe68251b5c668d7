"""`launchdir staff votes`: the vote integrity report, and voiding or restoring votes with a reason.

`report [--week W] [--json]` prints the week's findings (clusters and velocity
anomalies, each with its votes; rules in docs/voting.md); `void VOTE... --reason`
and `restore VOTE... --reason` record staff decisions with who and when, after
which rankings follow and closed weeks' awards are recomputed
(`launchdir/vote_review.py`). Adds its group to the `staff` group when
imported (`launchdir/cli.py` imports it).
"""

from __future__ import annotations

import json
from typing import Any

import click

from launchdir.cli_common import NothingChanged, actor_option, cli_session, staff_session
from launchdir.cli_staff import staff

KINDS = {"shared_network": "shared network", "shared_agent": "shared browser", "new_accounts": "new accounts",
         "unverified": "unverified email", "velocity": "velocity"}


@staff.group("votes")
def staff_votes() -> None:
    """Vote integrity: the report, voiding and restoring votes."""


def _age(seconds: int | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 3600:
        return f"{seconds // 60}m"
    if seconds < 172800:
        return f"{seconds // 3600}h"
    return f"{seconds // 86400}d"


def _lines(finding: dict[str, Any]) -> list[str]:
    listing, facts = finding["listing"], finding["facts"]
    extra = ", ".join(f"{k}={v}" for k, v in facts.items())
    head = (f"[{KINDS.get(finding['kind'], finding['kind'])}] {listing['name']} ({listing['slug']}): "
            f"{finding['count']} votes {finding['first_at']} .. {finding['last_at']}"
            + (f", {finding['voided']} voided" if finding["voided"] else "") + (f" ({extra})" if extra else ""))
    rows = [f"    {v['vote_id']}  {v['account_id']}  {v['cast_at']}  age {_age(v['account_age_seconds'])}"
            f"  first view {_age(v['since_first_view_seconds'])}  verified {'-' if v['email_verified'] is None else ('yes' if v['email_verified'] else 'no')}"
            f"  net {v['network'] or '-'}  ua {v['agent'] or '-'}{'  VOIDED' if v['voided'] else ''}"
            for v in finding["votes"]]
    return ["  " + head, *rows]


@staff_votes.command("report")
@click.option("--week", default="this", show_default=True, help="this, last, or a date in the week (YYYY-MM-DD).")
@click.option("--json", "as_json", is_flag=True, help="The report as JSON.")
def votes_report(week: str, as_json: bool) -> None:
    """The week's vote integrity report: clusters and velocity anomalies, each with the votes involved."""
    from queries.vote_integrity import integrity_report
    from queries.weeks import resolve_week

    with cli_session() as c:
        c.runtime.catch_up("vote_integrity_view")
        c.runtime.catch_up("launches_view")
        monday = resolve_week(week, c.services.today())
        doc = integrity_report(c.services.reads, monday, c.services.timezone, c.services.now())
    if as_json:
        click.echo(json.dumps(doc, indent=2))
        return
    t = doc["totals"]
    click.echo(f"week of {doc['week']}: {t['votes']} votes on {t['listings']} listings, {t['with_signals']} with signals, "
               f"{t['voided']} voided, {t['flagged']} flagged")
    for title, key in (("clusters", "clusters"), ("velocity anomalies", "velocity")):
        click.echo(f"{title}: {len(doc[key]) or 'none'}")
        for finding in doc[key]:
            for line in _lines(finding):
                click.echo(line)


def _decide(vote_ids: tuple[str, ...], reason: str, actor: str | None, void: bool) -> None:
    from launchdir.vote_review import VoteReview

    with staff_session(actor) as (c, meta):
        review = VoteReview(c.store, c.services.reads, c.runtime)
        done = (review.void if void else review.restore)(list(vote_ids), reason, meta)
    verb = "voided" if void else "restored"
    if not done.changed:
        raise NothingChanged(f"the {len(vote_ids)} vote(s) were all {'voided' if void else 'counting'} already")
    click.echo(f"{len(done.changed)} vote(s) {verb}; {len(vote_ids) - len(done.changed)} unchanged")
    for ch in done.changed:
        click.echo(f"  {ch.vote_id} (listing {ch.listing_id}, cast {ch.cast_at.isoformat()})")
    if done.recomputed:
        click.echo(f"awards recomputed for the week(s) of {', '.join(done.recomputed)}")


@staff_votes.command("void")
@click.argument("vote_ids", nargs=-1, required=True, metavar="VOTE...")
@click.option("--reason", required=True, help="Why (recorded on the event, shown to staff).")
@actor_option
def votes_void(vote_ids: tuple[str, ...], reason: str, actor: str | None) -> None:
    """Void votes (ids from the report): they stop counting in rankings, boards and awards."""
    _decide(vote_ids, reason, actor, void=True)


@staff_votes.command("restore")
@click.argument("vote_ids", nargs=-1, required=True, metavar="VOTE...")
@click.option("--reason", required=True, help="Why (recorded on the event, shown to staff).")
@actor_option
def votes_restore(vote_ids: tuple[str, ...], reason: str, actor: str | None) -> None:
    """Restore voided votes: they count again at the time they were cast."""
    _decide(vote_ids, reason, actor, void=False)
