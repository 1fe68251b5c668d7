"""`launchdir staff history`, `launchdir staff review` and `launchdir audit`: version history, review, audit.

Each prints a table by default and JSON with `--json`. History and the queue
read `history_view` (`queries/history.py`), caught up first so the command
shows every write made so far; accept and revert go through
`commands/review.py` as staff (`--actor`, LAUNCHDIR_STAFF or the login name)
and wait for the listing's public profile and its history to move. The audit
reads the event log itself (`queries/audit.py`). `launchdir/cli.py` adds them
with `add_review_commands`.
"""

from __future__ import annotations

import json
from datetime import date, datetime, time
from typing import TYPE_CHECKING, Any

import click

from launchdir.cli_common import TextRuleGroup, actor_option, cli_session, staff_session

if TYPE_CHECKING:
    from commands.review import VersionRef
    from launchdir.bootstrap import Container

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
page_option = click.option("--page", default=1, show_default=True, type=click.IntRange(1, 1000))
per_page_option = click.option("--per-page", default=20, show_default=True, type=click.IntRange(1, 100))
CELL = 60  # widest table cell; --json shows everything


def add_review_commands(main: click.Group, staff: click.Group) -> None:
    """Hang `history` and `review` under `staff`, and `audit` under the `launchdir` command."""
    staff.add_command(staff_history)
    staff.add_command(staff_review)
    main.add_command(audit)


# ---------------------------------------------------------------- output


def _echo_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False, default=str))


def _text(value: Any) -> str:
    """One line for a table cell: strings as they are, other values as compact JSON."""
    if value is None:
        return ""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    text = " ".join(text.split())
    return text if len(text) <= CELL else text[: CELL - 1] + "…"


def _table(headers: list[str], rows: list[list[Any]]) -> None:
    cells = [[_text(v) for v in row] for row in rows]
    widths = [max([len(h), *(len(r[i]) for r in cells)]) for i, h in enumerate(headers)]
    for row in [headers, *cells]:
        click.echo("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())


def _when(c: Container, value: datetime | None) -> str:
    return value.astimezone(c.services.timezone).strftime("%Y-%m-%d %H:%M") if value else ""


def _who(v: dict[str, Any]) -> str:
    return str(v.get("actor_email") or v["actor"])


def _version_rows(c: Container, versions: list[dict[str, Any]], with_listing: bool) -> list[list[Any]]:
    """One row per changed field; a version's own columns only on its first row."""
    rows: list[list[Any]] = []
    for v in versions:
        review = v["review"] + (f" ({', '.join(v['reverted_fields'])})" if v["reverted_fields"] else "")
        head = [v["version_id"], *([v["slug"]] if with_listing else []), _when(c, v["at"]), _who(v),
                f"{v['channel']}/{v['via']}" if v["via"] else v["channel"], v["kind"], review]
        changes = list(v["changes"].items()) or [("", {"before": None, "after": None})]
        for i, (field, change) in enumerate(changes):
            rows.append([*(head if i == 0 else [""] * len(head)), field, change.get("before"), change.get("after")])
    return rows


def _print_versions(c: Container, page: dict[str, Any], with_listing: bool, empty: str) -> None:
    if not page["items"]:
        click.echo(empty)
        return
    headers = ["VERSION", *(["LISTING"] if with_listing else []), "AT", "WHO", "VIA", "KIND", "REVIEW", "FIELD",
               "BEFORE", "AFTER"]
    _table(headers, _version_rows(c, page["items"], with_listing))
    if page["has_more"]:
        click.echo(f"({page['total']} in all; next: --page {page['page'] + 1})")


def _caught_up(c: Container) -> None:
    for name in ("history_view", "accounts_view"):
        c.runtime.catch_up(name)


# ---------------------------------------------------------------- history and the queue


@click.command("history")
@click.argument("slug")
@page_option
@per_page_option
@json_option
def staff_history(slug: str, page: int, per_page: int, as_json: bool) -> None:
    """The versions of listing SLUG, newest first: who, when, through what, each field before and after."""
    from queries import history as history_q
    from queries.paging import Paging

    with cli_session() as c:
        _caught_up(c)
        found = history_q.history(c.services.reads, slug, Paging(page=page, per_page=per_page))
        if as_json:
            _echo_json(found)
        else:
            _print_versions(c, found, with_listing=False, empty=f"{slug}: no versions")


@click.group("review", cls=TextRuleGroup, invoke_without_command=True)
@page_option
@per_page_option
@json_option
@click.pass_context
def staff_review(ctx: click.Context, page: int, per_page: int, as_json: bool) -> None:
    """The review queue: owners' changes waiting for staff, oldest first (accept or revert them below)."""
    if ctx.invoked_subcommand is not None:
        return
    from queries import history as history_q
    from queries.paging import Paging

    with cli_session() as c:
        _caught_up(c)
        queue = history_q.review_queue(c.services.reads, Paging(page=page, per_page=per_page))
        if as_json:
            _echo_json(queue)
        else:
            _print_versions(c, queue, with_listing=True, empty="nothing waits for review")


def _reviewed(c: Container, version_id: int, position: int, as_json: bool, said: str) -> None:
    """Wait for the profile and the history to show the review, then say what the version is now."""
    from queries import history as history_q

    for name in ("listing_view", "history_view"):
        c.runtime.catch_up(name)
    c.runtime.require(["listing_view", "history_view"], position)
    v = history_q.version(c.services.reads, version_id)
    if as_json:
        _echo_json({"version": v, "message": said})
        return
    click.echo(said)
    _table(["VERSION", "LISTING", "REVIEW", "REVIEWED BY", "REVERTED FIELDS", "REVERTED IN"],
           [[v["version_id"], v["slug"], v["review"], v["reviewed_by"], ", ".join(v["reverted_fields"]),
             ", ".join(str(i) for i in v["reverted_in"])]])


def _ref(c: Container, version_id: int) -> VersionRef:
    from commands.review import VersionRef
    from queries import history as history_q

    _caught_up(c)
    v = history_q.version(c.services.reads, version_id)
    return VersionRef(v["version_id"], v["listing_id"], v["stream_version"], v["kind"])


@staff_review.command("accept")
@click.argument("version_id", type=click.IntRange(1))
@actor_option
@json_option
def review_accept(version_id: int, actor: str | None, as_json: bool) -> None:
    """Let version VERSION_ID (an owner's change) stand: it leaves the queue."""
    from commands import review as review_cmd

    with staff_session(actor) as (c, meta):
        done = review_cmd.accept(c.store, _ref(c, version_id), meta)
        said = f"version {version_id}: accepted" + ("" if done.recorded else " (it already was)")
        _reviewed(c, version_id, done.position, as_json, said)


@staff_review.command("revert")
@click.argument("version_id", type=click.IntRange(1))
@click.argument("fields", nargs=-1)
@actor_option
@json_option
def review_revert(version_id: int, fields: tuple[str, ...], actor: str | None, as_json: bool) -> None:
    """Put FIELDs of version VERSION_ID back as they were before it (no FIELD: all it changed); a new version."""
    from commands import review as review_cmd

    with staff_session(actor) as (c, meta):
        done = review_cmd.revert(c.store, _ref(c, version_id), fields, meta)
        if done.recorded:
            said = f"version {version_id}: put back {', '.join(done.fields)} (new version {done.position})"
        else:
            said = f"version {version_id}: nothing to put back, those fields already hold their earlier values"
        _reviewed(c, version_id, done.position, as_json, said)


# ---------------------------------------------------------------- audit


@click.command("audit")
@click.option("--listing", "slug", default=None, help="Only events of the listing with this slug.")
@click.option("--actor", default=None, help="Only events by this person (email) or actor as recorded (staff:ops, system).")
@click.option("--type", "event_type", default=None, help="Only events of this type (class name, e.g. ListingEdited).")
@click.option("--since", default=None, help="Only events on or after this date (YYYY-MM-DD, the site's time zone).")
@click.option("--limit", default=100, show_default=True, type=click.IntRange(1, 1000))
@click.option("--before", default=None, type=click.IntRange(1), help="Only events older than this log position.")
@json_option
def audit(slug: str | None, actor: str | None, event_type: str | None, since: str | None, limit: int,
          before: int | None, as_json: bool) -> None:
    """Every recorded event with who, when and through what, newest first (bounded by --limit)."""
    from pydantic import ValidationError

    from queries import audit as audit_q

    with cli_session() as c:
        _caught_up(c)  # slugs of streams, and the accounts behind emails
        try:
            day = date.fromisoformat(since) if since else None
        except ValueError as exc:
            raise click.BadParameter("a date, YYYY-MM-DD", param_hint="--since") from exc
        start = datetime.combine(day, time(), tzinfo=c.services.timezone) if day else None
        try:
            f = audit_q.AuditFilter(listing=slug, actor=actor, type=event_type, since=start, limit=limit, before=before)
        except ValidationError as exc:
            raise click.BadParameter("; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())) from exc
        found = audit_q.audit(c.services.reads, f)
        if as_json:
            _echo_json(found)
            return
        if not found["items"]:
            click.echo(f"no events (looked at {found['scanned']})")
        else:
            _table(["POSITION", "AT", "TYPE", "LISTING", "ACTOR", "CHANNEL", "VIA", "DATA"],
                   [[i["position"], _when(c, i["at"]), i["type"], i["listing"] or "", _who(i), i["channel"], i["via"],
                     i["data"]] for i in found["items"]])
        if found["next_before"]:
            click.echo(f"(more may be older: --before {found['next_before']})")
