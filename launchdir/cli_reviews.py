"""`launchdir staff reviews`: people's reviews newest first, and hiding or restoring one with a reason.

Adds its group to the `staff` group of `launchdir/cli_staff.py` when imported
(`launchdir/cli.py` imports it). `list` prints a table (or `--json`),
`--state` shows one state (`approved`, `hidden`, `pending`, `rejected`);
`hide REVIEW_ID --reason TEXT` and `restore REVIEW_ID` are recorded as staff
events with who and when (docs/reviews.md); hiding a hidden review or
restoring one that is not hidden records nothing and exits with code 3.
"""

from __future__ import annotations

import json
from typing import Any

import click

from launchdir.cli_common import NothingChanged, TextRuleGroup, actor_option, cli_session, staff_session
from launchdir.cli_staff import staff

COLUMNS = (("review_id", "REVIEW"), ("written", "WRITTEN"), ("slug", "LISTING"), ("author", "AUTHOR"),
           ("rating", "RATING"), ("state", "STATE"), ("text", "TEXT"))


def _row(r: dict[str, Any]) -> dict[str, str]:
    state = r["state"] + (f" ({r['hidden_reason']})" if r.get("hidden_reason") else "")
    text = " ".join(str(r["text"]).split())
    return {"review_id": str(r["review_id"]), "written": r["written_at"].strftime("%Y-%m-%d %H:%M"),
            "slug": r.get("slug") or str(r["listing_id"]), "author": r.get("email") or r["account_id"],
            "rating": str(r["rating"]), "state": state, "text": text[:60] + ("…" if len(text) > 60 else "")}


def table(reviews: list[dict[str, Any]]) -> str:
    """Reviews as an aligned text table (a header line, then one line per review)."""
    rows = [_row(r) for r in reviews]
    widths = {k: max([len(title)] + [len(r[k]) for r in rows]) for k, title in COLUMNS}
    lines = ["  ".join(title.ljust(widths[k]) for k, title in COLUMNS).rstrip()]
    lines += ["  ".join(r[k].ljust(widths[k]) for k, _ in COLUMNS).rstrip() for r in rows]
    return "\n".join(lines)


@staff.group("reviews", cls=TextRuleGroup)
def staff_reviews() -> None:
    """People's reviews: list them, hide one with a reason, restore one."""


@staff_reviews.command("list")
@click.option("--state", type=click.Choice(("all", "approved", "hidden", "pending", "rejected")), default="all",
              show_default=True, help="Only reviews in this state.")
@click.option("--limit", type=click.IntRange(1, 100), default=50, show_default=True, help="At most this many.")
@click.option("--json", "as_json", is_flag=True, help="JSON (one array) instead of a table.")
def list_reviews(state: str, limit: int, as_json: bool) -> None:
    """List reviews newest first: listing, author, rating, state (with the reason of a hidden one) and text."""
    from queries.paging import Paging
    from queries.reviews import staff_reviews as read

    with cli_session() as c:
        c.runtime.catch_up("reviews_view")
        reviews = read(c.services.reads, state, Paging(page=1, per_page=limit))["items"]
        if as_json:
            click.echo(json.dumps(reviews, default=str, indent=2))
        elif reviews:
            click.echo(table(reviews))
        else:
            click.echo("no reviews" + (f" in state {state}" if state != "all" else ""))


@staff_reviews.command("hide")
@click.argument("review_id")
@click.option("--reason", required=True, help="Why the review is hidden (5 to 500 characters; kept with it).")
@actor_option
def hide(review_id: str, reason: str, actor: str | None) -> None:
    """Hide review REVIEW_ID: it leaves the listing page and the rating."""
    from commands.reviews import hide as hide_it

    with staff_session(actor) as (c, meta):
        done = hide_it(c.store, review_id, reason, meta)
        if not done.events:
            raise NothingChanged(f"review {review_id} is hidden already")
        click.echo(f"review {review_id} hidden (event position {done.position})")


@staff_reviews.command("restore")
@click.argument("review_id")
@actor_option
def restore(review_id: str, actor: str | None) -> None:
    """Show hidden review REVIEW_ID again: it counts in the rating again."""
    from commands.reviews import restore as restore_it

    with staff_session(actor) as (c, meta):
        done = restore_it(c.store, review_id, meta)
        if not done.events:
            raise NothingChanged(f"review {review_id} is not hidden, so there is nothing to restore")
        click.echo(f"review {review_id} restored (event position {done.position})")
