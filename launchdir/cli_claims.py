"""`launchdir staff claims`: the claims people made, newest first, for the site team.

Adds its command to the `staff` group of `launchdir/cli_staff.py` when
imported (`launchdir/cli.py` imports it). A table by default, `--json` for
programs; `--status` shows one status (`pending`, `verified`, `expired`, `failed`).
"""

from __future__ import annotations

import json
from typing import Any

import click

from events.claim import STATUSES
from launchdir.cli_common import cli_session
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
