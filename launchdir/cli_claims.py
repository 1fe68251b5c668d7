"""`launchdir staff claims`, `void-claim` and `remove-owner`: claims and listing owners, for the site team.

Adds its commands to the `staff` group of `launchdir/cli_staff.py` when
imported (`launchdir/cli.py` imports it). `claims` prints a table by default,
`--json` for programs; `--status` shows one status (`pending`, `verified`,
`expired`, `failed`, `voided`). `void-claim CLAIM_ID --reason TEXT` undoes a
verified claim; `remove-owner SLUG EMAIL --reason TEXT` takes one owner off a
listing where no claim is involved (docs/claims.md, "Staff put ownership right").
"""

from __future__ import annotations

import json
from typing import Any

import click

from events.claim import STATUSES
from launchdir.cli_common import actor_option, cli_session, staff_session
from launchdir.cli_staff import staff

COLUMNS = (("claim_id", "CLAIM"), ("created", "STARTED"), ("slug", "LISTING"), ("domain", "DOMAIN"),
           ("method", "METHOD"), ("claimant", "CLAIMANT"), ("status", "STATUS"), ("attempts", "CHECKS"))


def _row(c: dict[str, Any]) -> dict[str, str]:
    method = f"{c['method']} ({c['email']})" if c.get("email") else c["method"]
    status = c["status"] + (f" ({c['reason']})" if c.get("reason") else "")
    return {"claim_id": str(c["claim_id"]), "created": c["created_at"].strftime("%Y-%m-%d %H:%M"),
            "slug": c["slug"], "domain": c["domain"], "method": method,
            "claimant": c.get("account_email") or c["account_id"], "status": status, "attempts": str(c["attempts"])}


def table(claims: list[dict[str, Any]]) -> str:
    """Claims as an aligned text table (a header line, then one line per claim)."""
    rows = [_row(c) for c in claims]
    widths = {k: max([len(title)] + [len(r[k]) for r in rows]) for k, title in COLUMNS}
    lines = ["  ".join(title.ljust(widths[k]) for k, title in COLUMNS).rstrip()]
    lines += ["  ".join(r[k].ljust(widths[k]) for k, _ in COLUMNS).rstrip() for r in rows]
    return "\n".join(lines)


@staff.command("claims")
@click.option("--status", type=click.Choice(STATUSES), default=None, help="Only claims of this status.")
@click.option("--limit", type=click.IntRange(1, 1000), default=100, show_default=True, help="At most this many.")
@click.option("--json", "as_json", is_flag=True, help="JSON (one array) instead of a table.")
def staff_claims(status: str | None, limit: int, as_json: bool) -> None:
    """List claims newest first: listing, domain, method, claimant, status and checks made."""
    from queries.claims import staff_claims as read

    with cli_session() as c:
        claims = read(c.services.reads, c.services.now(), status, limit)
        if as_json:
            click.echo(json.dumps([{k: v for k, v in cl.items() if k != "instructions"} for cl in claims],
                                  default=str, indent=2))
        elif claims:
            click.echo(table(claims))
        else:
            click.echo("no claims" + (f" with status {status}" if status else ""))


@staff.command("void-claim")
@click.argument("claim_id", type=click.IntRange(1))
@click.option("--reason", required=True, help="Why (3-500 characters); the claimant and the owners are mailed it.")
@actor_option
def staff_void_claim(claim_id: int, reason: str, actor: str | None) -> None:
    """Void verified claim CLAIM_ID: its claimant stops being an owner of the listing; both sides are mailed."""
    from commands import claims as claims_cmd
    from queries import claims as claims_q

    with staff_session(actor) as (c, meta):
        state = claims_cmd.load(c.store, claim_id)
        if not state.exists:
            raise click.ClickException(f"there is no claim {claim_id}")
        _caught_up(c, "claims_view")
        others = claims_q.verified_claim_ids(c.services.reads, state.listing_id)
        done = claims_cmd.void_claim(c.store, claim_id, reason, meta, others)
        click.echo(f"claim {claim_id} voided: {state.slug} no longer has its claimant as an owner "
                   f"(event position {done.position})")


@staff.command("remove-owner")
@click.argument("slug")
@click.argument("owner")
@click.option("--reason", required=True, help="Why (3-500 characters); the owner is mailed it.")
@actor_option
def staff_remove_owner(slug: str, owner: str, reason: str, actor: str | None) -> None:
    """Remove OWNER (an email, or an account id) from the owners of listing SLUG, saying why.

    The last owner of a listing with an open order stays; an owner who came by a
    verified claim is removed by voiding that claim (`void-claim`).
    """
    from commands import account as account_cmd
    from commands import owners as owners_cmd
    from commands.listing import listing_id_for_slug
    from queries import claims as claims_q
    from queries import owners as owners_q

    with staff_session(actor) as (c, meta):
        listing_id = listing_id_for_slug(c.store, slug)
        if listing_id is None:
            raise click.ClickException(f"no listing with the slug {slug!r}")
        found = account_cmd.find_account(c.store, owner) if "@" in owner else None
        account_id = str(found.id) if found is not None else owner
        _caught_up(c, "claims_view", "orders_view")
        done = owners_cmd.remove_owner(c.store, listing_id, account_id, reason, meta,
                                       owners_q.open_orders(c.services.reads, listing_id, c.services.now()),
                                       claims_q.verified_claim_ids(c.services.reads, listing_id),
                                       website=c.services.links["website"])  # the mail links to the public page
        click.echo(f"{slug}: {owner} is no longer an owner (event position {done.position})")


def _caught_up(c: Any, *names: str) -> None:
    """The read models this command decides with, caught up with the log (those this process runs)."""
    for name in names:
        if name in c.runtime.projections:
            c.runtime.catch_up(name)
