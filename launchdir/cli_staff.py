"""`launchdir staff` and `launchdir catalog`: what the site's staff do from the command line.

Prices and site settings, the staff role, putting listings live and closing
launch weeks, founder profiles, blog posts, and loading the catalogue. Every
staff command runs in `staff_session`, so its events are recorded with who
(`--actor`, LAUNCHDIR_STAFF or the login name) and when; a one-step command
is `run_staff(actor, action, what it says when done)`, or `_changing` when the
action can find nothing to change: then it records nothing, says
`nothing changed: <why>` and exits with code 3 (`NothingChanged`). The groups
are added to the `launchdir` command by `launchdir/cli.py`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from launchdir.cli_common import NothingChanged, TextRuleGroup, actor_option, cli_session, run_staff, staff_session

if TYPE_CHECKING:
    from collections.abc import Callable

    from aggregates.base import Meta
    from commands.store import Appended
    from launchdir.bootstrap import Container


def _changing(actor: str | None, action: Callable[[Container, Meta], Appended], done: str, unchanged: str) -> None:
    """A one-step staff command that may find nothing to change: says `done`, or `nothing changed: <unchanged>`
    and exits with code 3 when the action appended no events (nothing was recorded)."""
    with staff_session(actor) as (c, meta):
        if not action(c, meta).events:
            raise NothingChanged(unchanged)
        click.echo(done)


@click.group(cls=TextRuleGroup)
def catalog() -> None:
    """The catalogue of categories, products and interview questions."""


@catalog.command("load")
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--update", is_flag=True, help="Also apply changed entries (prices included).")
def catalog_load(file: Path | None, update: bool) -> None:
    """Load the catalogue file (the packaged one by default); only missing entries unless --update.

    Every product's price_cents must keep the staff price rule (100 to
    100000000, i.e. $1.00 to $1,000,000): a file with any other price is
    refused whole, naming each such product (exit code 1), and nothing of it
    is loaded.
    """
    from launchdir.bootstrap import ensure_catalog

    with cli_session() as c:
        position = ensure_catalog(c, file, update)
        click.echo(f"catalogue loaded (event position {position})")


@click.group(cls=TextRuleGroup)
def staff() -> None:
    """Staff actions, recorded as events with who and when."""


# ---------------------------------------------------------------- prices and settings


@staff.command("set-price")
@click.argument("code")
@click.argument("cents")
@click.option("--actor", default=None, help="Who is acting (default: LAUNCHDIR_STAFF or the login name).")
def set_price(code: str, cents: str, actor: str | None) -> None:
    """Set product CODE's price to CENTS (whole USD cents, excluding VAT; at least 100).

    A price is given in the digits 0-9 only; anything else, or a price below the
    lowest one, is refused with one line. The price a product has already
    changes nothing (exit code 3).
    """
    from commands.catalog import SetProductPrice, price_from_cents
    from commands.catalog import set_price as set_it
    from events.errors import InvalidInput

    try:
        price = price_from_cents(cents)
    except InvalidInput as exc:
        raise click.ClickException(f"{exc.problems[0].message}") from None
    with staff_session(actor) as (c, meta):
        done = set_it(c.store, SetProductPrice(code=code, price_cents=price), meta)
        if not done.events:
            raise NothingChanged(f"{code} already costs {price} cents")
        click.echo(f"{code}: {price} cents (event position {done.position})")


@staff.command("site-setting")
@click.argument("key")
@click.argument("value")
@actor_option
def site_setting(key: str, value: str, actor: str | None) -> None:
    """Change one site setting; VALUE is JSON when it parses as JSON, else a string.

    The value the setting has already changes nothing (exit code 3).
    """
    from commands.catalog import ChangeSiteSettings, change_site_settings

    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = value
    said = json.dumps(parsed)
    _changing(actor, lambda c, meta: change_site_settings(c.store, ChangeSiteSettings(changes={key: parsed}), meta),
              f"{key} = {said}", f"{key} is {said} already")


# ---------------------------------------------------------------- the staff role


@staff.command("grant")
@click.argument("email")
@actor_option
def staff_grant(email: str, actor: str | None) -> None:
    """Make the account with EMAIL staff (it sees the staff pages); one that is staff already changes nothing (exit 3)."""
    from commands.account import change_staff

    _changing(actor, lambda c, meta: change_staff(c.store, email, True, meta), f"{email}: staff",
              f"{email} is staff already")


@staff.command("revoke")
@click.argument("email")
@actor_option
def staff_revoke(email: str, actor: str | None) -> None:
    """Take the staff role away from the account with EMAIL; one that is not staff changes nothing (exit 3).

    The last staff account keeps it (exit 1): make another account staff first.
    """
    from commands.account import change_staff
    from queries.accounts import staff_ids

    _changing(actor, lambda c, meta: change_staff(c.store, email, False, meta, staff_ids(c.services.reads)),
              f"{email}: not staff", f"{email} is not staff, so there is no staff role to take away")


# ---------------------------------------------------------------- launches and awards


def _listing_id(c: Container, slug: str) -> int:
    from commands.listing import listing_id_for_slug

    listing_id = listing_id_for_slug(c.store, slug)
    if listing_id is None:
        raise click.ClickException(f"no listing with the slug {slug!r}")
    return listing_id


@staff.command("publish")
@click.argument("slug")
@click.option("--week", default=None, help="Launch week (its Monday, YYYY-MM-DD); default: this week.")
@click.option("--plan", type=click.Choice(["free", "paid"]), default=None,
              help="Default: the listing's own plan (free for one that never had one).")
@actor_option
def staff_publish(slug: str, week: str | None, plan: str | None, actor: str | None) -> None:
    """Put the listing SLUG live in a launch week (recorded with who and when); a bad week is refused."""
    from commands.listing import publish_by_staff

    with staff_session(actor) as (c, meta):
        done = publish_by_staff(c.store, _listing_id(c, slug), meta, week=week, plan=plan)
        if not done.events:
            raise NothingChanged(f"{slug} is live already")
        click.echo(f"{slug}: live")


@staff.command("unpublish")
@click.argument("slug")
@click.option("--reason", required=True, help="Why (3-500 characters); the listing's owners are mailed it.")
@actor_option
def staff_unpublish(slug: str, reason: str, actor: str | None) -> None:
    """Take the listing SLUG down from every public read, saying why (recorded with who and when).

    `launchdir staff publish SLUG --week W` puts it back.
    """
    from commands.listing import take_down

    with staff_session(actor) as (c, meta):
        done = take_down(c.store, _listing_id(c, slug), reason, meta)
        if not done.events:
            raise NothingChanged(f"{slug} is taken down already; nobody was mailed")
        click.echo(f"{slug}: taken down")


@staff.command("close-week")
@click.argument("week", required=False)
@actor_option
def staff_close_week(week: str | None, actor: str | None) -> None:
    """Close launch WEEK (a date in it; default: last week): Launch of the Week #1..#3 by community votes.

    A week closed already gets its awards recomputed when its votes or launches changed since.
    """
    from datetime import date, timedelta

    from queries.launches import GetLaunchWeek, get_launch_week
    from queries.weeks import monday_of
    from workers.scheduler import close_week

    with staff_session(actor) as (c, meta):
        today = c.services.today()
        monday = monday_of(date.fromisoformat(week)) if week else monday_of(today) - timedelta(weeks=1)
        outcome = close_week(c.store, c.services.reads, c.runtime, monday, meta)
        c.runtime.catch_up("launches_view")
        doc = get_launch_week(c.services.reads, GetLaunchWeek(week=monday.isoformat()), c.services.now())
        said = {"closed": "closed now", "recomputed": "was closed; awards recomputed from the votes now"}
        click.echo(f"week of {monday}: {said.get(outcome or '', 'was already closed, awards unchanged')}")
        for award in doc["awards"]:
            click.echo(f"  #{award['rank']} {award['listing']['name']} ({award['votes']} votes)")


@staff.command("tick")
def staff_tick() -> None:
    """Run the launch scheduler once: launch what is due, close weeks that ended (serve does this every minute)."""
    from launchdir.bootstrap import launch_scheduler

    with cli_session() as c:  # the scheduler records its own who and when
        result = launch_scheduler(c).tick()
        click.echo(f"launched {len(result.launched)} listing(s); closed weeks: {', '.join(result.closed) or 'none'}; "
                   f"awards recomputed: {', '.join(result.recomputed) or 'none'}")


# ---------------------------------------------------------------- founder profiles


@staff.group("founder")
def staff_founder() -> None:
    """Founder profiles (a listing links one through `founder_slug` in its founders)."""


@staff_founder.command("create")
@click.argument("slug")
@click.argument("name")
@click.option("--bio", default="")
@click.option("--country", default=None, help="Two-letter ISO code.")
@click.option("--avatar-url", default=None)
@click.option("--social", multiple=True, help="platform=url (repeatable).")
@actor_option
def founder_create(slug: str, name: str, bio: str, country: str | None, avatar_url: str | None,
                   social: tuple[str, ...], actor: str | None) -> None:
    """Create the founder profile SLUG for NAME."""
    from commands.content import CreateFounderProfile, create_founder_profile

    def create(c: Container, meta: Meta) -> int:
        socials = dict(s.split("=", 1) for s in social)
        return create_founder_profile(c.store, CreateFounderProfile(
            slug=slug, name=name, bio=bio, country=country, avatar_url=avatar_url, socials=socials), meta)

    run_staff(actor, create, f"founder {slug} created")


@staff_founder.command("edit")
@click.argument("slug")
@click.argument("key", type=click.Choice(["name", "bio", "country", "avatar_url", "socials"]))
@click.argument("value")
@actor_option
def founder_edit(slug: str, key: str, value: str, actor: str | None) -> None:
    """Change one field of founder SLUG (socials: a JSON object); the value it has already changes nothing (exit 3)."""
    from commands.content import EditFounderProfile, edit_founder_profile

    def edit(c: Container, meta: Meta) -> Appended:
        parsed = json.loads(value) if key == "socials" else value  # in the session: bad JSON is a clean message
        return edit_founder_profile(c.store, EditFounderProfile(slug=slug, changes={key: parsed}), meta)

    _changing(actor, edit, f"founder {slug}: {key} changed", f"founder {slug}'s {key} has that value already")


# ---------------------------------------------------------------- blog posts


@staff.group("blog")
def staff_blog() -> None:
    """Blog posts: write, revise, publish, unpublish."""


@staff_blog.command("write")
@click.argument("slug")
@click.argument("markdown_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--title", required=True)
@click.option("--summary", default="")
@click.option("--author", default="")
@click.option("--tag", "tags", multiple=True)
@click.option("--faqs", "faqs_file", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="JSON file: a list of {question, answer}.")
@click.option("--publish", is_flag=True, help="Publish at once.")
@actor_option
def blog_write(slug: str, markdown_file: Path, title: str, summary: str, author: str, tags: tuple[str, ...],
               faqs_file: Path | None, publish: bool, actor: str | None) -> None:
    """Write blog post SLUG from MARKDOWN_FILE (unpublished unless --publish)."""
    from commands.content import WriteBlogPost, publish_blog_post, write_blog_post

    def write(c: Container, meta: Meta) -> None:
        faqs = json.loads(faqs_file.read_text(encoding="utf-8")) if faqs_file else []
        write_blog_post(c.store, WriteBlogPost(slug=slug, title=title, summary=summary, author=author, tags=list(tags),
                                               faqs=faqs, markdown=markdown_file.read_text(encoding="utf-8")), meta)
        if publish:
            publish_blog_post(c.store, slug, meta)

    run_staff(actor, write, f"blog post {slug} written{' and published' if publish else ''}")


@staff_blog.command("revise")
@click.argument("slug")
@click.option("--title", default=None)
@click.option("--summary", default=None)
@click.option("--markdown-file", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None)
@actor_option
def blog_revise(slug: str, title: str | None, summary: str | None, markdown_file: Path | None, actor: str | None) -> None:
    """Change the title, summary or text of blog post SLUG; values it has already change nothing (exit 3)."""
    from commands.content import ReviseBlogPost, revise_blog_post

    changes = {k: v for k, v in {"title": title, "summary": summary}.items() if v is not None}
    if markdown_file:
        changes["markdown"] = markdown_file.read_text(encoding="utf-8")
    if not changes:
        raise click.UsageError("say what to change: --title, --summary or --markdown-file")
    named = ", ".join(changes)
    _changing(actor, lambda c, meta: revise_blog_post(c.store, ReviseBlogPost(slug=slug, changes=changes), meta),
              f"blog post {slug}: {named} changed", f"blog post {slug} has that {named} already")


@staff_blog.command("publish")
@click.argument("slug")
@actor_option
def blog_publish(slug: str, actor: str | None) -> None:
    """Publish blog post SLUG; one published already changes nothing (exit 3)."""
    from commands.content import publish_blog_post

    _changing(actor, lambda c, meta: publish_blog_post(c.store, slug, meta), f"blog post {slug}: published",
              f"blog post {slug} is published already")


@staff_blog.command("unpublish")
@click.argument("slug")
@actor_option
def blog_unpublish(slug: str, actor: str | None) -> None:
    """Take blog post SLUG off the site; one that is not published changes nothing (exit 3)."""
    from commands.content import unpublish_blog_post

    _changing(actor, lambda c, meta: unpublish_blog_post(c.store, slug, meta), f"blog post {slug}: unpublished",
              f"blog post {slug} is not published, so there is nothing to take off the site")
