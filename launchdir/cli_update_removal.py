"""`launchdir staff remove-update SLUG UPDATE_ID --reason TEXT`: take an owner's update off the site (staff).

Adds its command to the `staff` group of `launchdir/cli_staff.py` when imported
(`launchdir/cli.py` imports it). It is the command the review pages' "Remove
this update" runs (`commands.review.remove_update`): the update leaves every
public read, the version that posted it counts as reviewed (`removed`), and the
listing's owners with a confirmed address are mailed the reason in the same
append. UPDATE_ID is the number the listing gives its updates (1 for the
first; `launchdir staff history SLUG` shows it in each update's version). An
update removed already changes nothing and mails nobody (exit code 3).
"""

from __future__ import annotations

import click

from launchdir.cli_common import NothingChanged, actor_option, staff_session
from launchdir.cli_staff import staff


@staff.command("remove-update")
@click.argument("slug")
@click.argument("update_id", type=click.IntRange(1))
@click.option("--reason", required=True, help="Why (3-500 characters); the listing's owners are mailed it.")
@actor_option
def staff_remove_update(slug: str, update_id: int, reason: str, actor: str | None) -> None:
    """Take update UPDATE_ID of the listing SLUG off the site, saying why; its owners are mailed the reason."""
    from commands import listing as listing_cmd
    from commands import review as review_cmd
    from events.errors import NotFound
    from queries import history as history_q

    with staff_session(actor) as (c, meta):
        listing_id = listing_cmd.listing_id_for_slug(c.store, slug)
        if listing_id is None:
            raise click.ClickException(f"no listing with the slug {slug!r}")
        c.runtime.catch_up("history_view")  # every update posted so far has its version there
        try:
            v = history_q.update_version(c.services.reads, listing_id, update_id)
        except NotFound:
            raise click.ClickException(f"{slug} has no update {update_id}") from None
        ref = review_cmd.VersionRef(v["version_id"], v["listing_id"], v["stream_version"], v["kind"])
        done = review_cmd.remove_update(c.store, ref, reason, meta, c.services.links["website"])
        title = ((v["changes"].get("updates") or {}).get("after") or {}).get("title", "")
        if not done.recorded:
            raise NothingChanged(f"update {update_id} of {slug} (\"{title}\") was removed already; nobody was mailed")
        told = (f"{done.mailed} owner{'' if done.mailed == 1 else 's'} mailed the reason" if done.mailed
                else "nobody was mailed: no owner has a confirmed email address")
        click.echo(f"{slug}: update {update_id} (\"{title}\") removed; {told}")
