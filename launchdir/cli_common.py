"""What every module of the `launchdir` command shares, written once.

The container session of a command (domain errors become a clean message,
the container is always closed, a container handed in by a caller is used
as it is), the staff session that also says who acts and when, the text
rule at the CLI door, the one-line announcement of the data a command works
on, and SIGTERM handling. The command modules (`cli.py`, `cli_staff.py`,
`cli_accounts.py`, `cli_projections.py`) import this one and never each
other, so the command has no import cycle.
"""

from __future__ import annotations

import getpass
import json
import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, TypeVar

import click

from events.text import MESSAGE as TEXT_RULE_MESSAGE
from events.text import RULE as TEXT_RULE
from events.text import is_clean, violations
from launchdir.settings import Settings

if TYPE_CHECKING:
    from aggregates.base import Meta
    from launchdir.bootstrap import Container

actor_option = click.option("--actor", default=None)  # who a staff command is recorded as (see `staff_actor`)


def announce(settings: Settings) -> None:
    """Say on stderr, in one line, which data this command works on (never a password)."""
    from launchdir.database import describe_database

    click.echo(describe_database(settings.database_url, settings.data_dir), err=True)


def container(settings: Settings | None = None) -> Container:
    """The wired application for one process (built lazily: `--help` needs none of it)."""
    from launchdir import heap
    from launchdir.bootstrap import bootstrap
    from launchdir.database import DatabaseUnreachable

    try:
        c = bootstrap(settings or Settings.from_env())
    except DatabaseUnreachable as exc:  # a wrong DATABASE_URL: one plain line, no traceback
        raise click.ClickException(str(exc)) from exc
    heap.settle()  # what the process lives with, out of the collector's way
    return c


@contextmanager
def cli_session() -> Iterator[Container]:
    """The container of one command: domain errors become a clean message and exit code 1; closed at the end.

    A caller may pass its own container (anything with a `runtime`) as the
    click `obj`; it is used as it is and left open.
    """
    ctx = click.get_current_context(silent=True)
    obj = ctx.obj if ctx is not None else None
    given = obj if getattr(obj, "runtime", None) is not None else None
    c = container() if given is None else given
    try:
        yield c
    except (click.ClickException, click.exceptions.Exit, KeyboardInterrupt):
        raise
    except Exception as exc:  # a domain error or a bad value: say it, don't dump a traceback
        raise click.ClickException(str(exc)) from exc
    finally:
        if given is None:
            c.close()


def staff_actor(actor: str | None) -> str:
    """Who a staff command is recorded as: `--actor`, else LAUNCHDIR_STAFF, else the login name."""
    return "staff:" + (actor or os.environ.get("LAUNCHDIR_STAFF") or getpass.getuser())


def staff_meta(c: Container, actor: str | None) -> Meta:
    """Who and when of a staff command run from the command line."""
    from aggregates.base import Meta

    return Meta(at=c.services.now(), actor=staff_actor(actor), channel="cli", via="staff")


@contextmanager
def staff_session(actor: str | None) -> Iterator[tuple[Container, Meta]]:
    """The session of a staff command and the who and when its events are recorded with."""
    with cli_session() as c:
        yield c, staff_meta(c, actor)


R = TypeVar("R")

UNCHANGED_EXIT = 3  # a staff command that changed nothing: not an error (1) nor bad usage (2)


class NothingChanged(click.ClickException):
    """A staff command found nothing to change (taking down a listing that is down, ...): it says so and why
    on stderr, records nothing, and exits with `UNCHANGED_EXIT`, so scripts can tell it from done and from failed."""

    exit_code = UNCHANGED_EXIT

    def show(self, file: Any = None) -> None:
        click.echo(f"nothing changed: {self.format_message()}", err=True)


def run_staff(actor: str | None, action: Callable[[Container, Meta], R], done: str | Callable[[R], str]) -> R:
    """The body of a one-step staff command: `action` in a staff session, then the line saying what it did.

    `done` is that line, or makes it from what `action` returned (an event position).
    """
    with staff_session(actor) as (c, meta):
        result = action(c, meta)
        click.echo(done(result) if callable(done) else done)
    return result


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


class TextRuleCommand(click.Command):
    """The CLI's command: refuses text breaking the rule of `events/text.py` before doing any work
    (exit 2), then says which data it works on."""

    def invoke(self, ctx: click.Context) -> Any:
        for param in self.params:
            for where in _text_problems(ctx.params.get(param.name or "")):
                at = f" at {where}" if where else ""
                raise click.BadParameter(f"{TEXT_RULE_MESSAGE} (rule {TEXT_RULE}){at}", ctx=ctx, param=param)
        given = getattr(ctx.find_root().obj, "settings", None)  # a container handed in by a caller
        announce(given if isinstance(given, Settings) else Settings.from_env())
        return super().invoke(ctx)


class TextRuleGroup(click.Group):
    """Every command of the CLI keeps the text rule; sub-groups are made of this class too."""

    command_class = TextRuleCommand
    group_class = type

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        """Commands and groups defined in other modules with plain click get the check as well."""
        _keep_text_rule(cmd)
        super().add_command(cmd, name)


def _keep_text_rule(cmd: click.Command) -> None:
    # the subclasses add behaviour only (no state), so a plain click object can take them on
    if type(cmd) is click.Command:
        cmd.__class__ = TextRuleCommand
    elif type(cmd) is click.Group:
        cmd.__class__ = TextRuleGroup
        for sub in cmd.commands.values():
            _keep_text_rule(sub)


# ---------------------------------------------------------------- signals


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def stop_on_sigterm(ctx: click.Context) -> None:
    """SIGTERM stops a command the way Ctrl-C does, so `finally` blocks and exit handlers run.

    (The default SIGTERM action ends the process at once: the container is not closed and
    the embedded PostgreSQL never learns that this process has gone.)
    """
    if threading.current_thread() is not threading.main_thread():
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    if previous is not None:
        ctx.call_on_close(lambda: signal.signal(signal.SIGTERM, previous))
