"""`launchdir staff unlock SLUG SECTION...`: open paid sections of a listing by hand (staff).

Adds its command to the `staff` group of `launchdir/cli_staff.py` when imported
(`launchdir/cli.py` imports it). Orders unlock sections the same way (the same
`ListingSectionsUnlocked` event, `commands.listing.unlock`); here the reason
says staff did it and `--actor` who. The story and milestones then show on
the public profile (get_listing) while the listing is live.
"""

from __future__ import annotations

import click

from aggregates.listing import PAID_SECTIONS
from launchdir.cli_common import actor_option, staff_session
from launchdir.cli_staff import staff


@staff.command("unlock")
@click.argument("slug")
@click.argument("sections", nargs=-1, required=True, type=click.Choice(PAID_SECTIONS))
@click.option("--reason", default="unlocked by staff", show_default=True, help="Why (kept with the event).")
@actor_option
def staff_unlock(slug: str, sections: tuple[str, ...], reason: str, actor: str | None) -> None:
    """Unlock paid SECTIONS (story, milestones, media, extra_categories) of the listing SLUG; prints what changed."""
    from commands import listing as listing_cmd

    with staff_session(actor) as (c, meta):
        listing_id = listing_cmd.listing_id_for_slug(c.store, slug)
        if listing_id is None:
            raise click.ClickException(f"no listing with the slug {slug!r}")
        before = listing_cmd.load(c.store, listing_id).unlocked
        wanted = list(dict.fromkeys(sections))
        listing_cmd.unlock(c.store, listing_id, wanted, reason, meta)
        new = [s for s in wanted if s not in before]
        already = [s for s in wanted if s in before]
        if new:
            click.echo(f"{slug}: unlocked {', '.join(new)}")
        if already:
            click.echo(f"{slug}: already unlocked: {', '.join(already)}")
