"""`launchdir staff check-badge SLUG`: check a free listing's homepage for our badge now, and say what it found.

The same check the badge watch makes on its schedule (`workers/badge_watch.py`),
recorded the same way (events with the reason, and the next check's time),
with the staff member as who asked. Adds its command to the `staff` group of
`launchdir/cli_staff.py` when imported (`launchdir/cli.py` imports it). A
table by default, `--json` for programs.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from launchdir.cli_common import actor_option, staff_session
from launchdir.cli_staff import staff

if TYPE_CHECKING:
    from workers.badge_watch import Checked


def report(checked: Checked) -> dict[str, Any]:
    """What one check found and recorded, as plain data (the JSON output; the table shows the same)."""
    o = checked.outcome
    return {
        "listing_id": checked.listing_id, "slug": checked.slug,
        "checked": o is not None,
        "result": None if o is None else ("found" if o.found else "missing"),
        "reason": o.reason if o else None,
        "detail": o.detail if o else ("nothing to check: only free listings awaiting their badge, scheduled or live "
                                      f"are checked (this one is {checked.status})"),
        "checked_url": o.checked_url if o else None,
        "evidence": o.evidence if o else None,
        "status_before": checked.status_before, "status": checked.status,
        "recorded": checked.recorded,
        "next_check_at": checked.next_check_at.isoformat() if checked.next_check_at else None,
    }


def table(r: dict[str, Any]) -> str:
    """The report as two aligned columns."""
    rows = [("listing", f"{r['slug']} (id {r['listing_id']})"), ("homepage", r["checked_url"] or ""),
            ("result", r["result"] or "not checked"), ("reason", r["reason"] or ""), ("detail", r["detail"]),
            ("badge", r["evidence"] or ""), ("status", f"{r['status_before']} -> {r['status']}"),
            ("recorded", ", ".join(r["recorded"]) or "nothing"), ("next check", r["next_check_at"] or "")]
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(width)}  {v}".rstrip() for k, v in rows)


@staff.command("check-badge")
@click.argument("slug")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@actor_option
def staff_check_badge(slug: str, as_json: bool, actor: str | None) -> None:
    """Check listing SLUG's homepage for our badge now; record and print what was found (docs/free-plan.md)."""
    from commands.listing import listing_id_for_slug
    from launchdir.bootstrap import badge_watch

    with staff_session(actor) as (c, meta):
        listing_id = listing_id_for_slug(c.store, slug)
        if listing_id is None:
            raise click.ClickException(f"no listing {slug!r}")
        checked = badge_watch(c).check(listing_id, by=meta)
        c.runtime.catch_up("badge_checks_view")
        r = report(checked)
        click.echo(json.dumps(r, indent=2, ensure_ascii=False) if as_json else table(r))
