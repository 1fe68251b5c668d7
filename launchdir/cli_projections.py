"""`launchdir projections`: status for people and for monitoring, rebuild, and the repair of poison events.

`status` exits 2 when a projection is failing or lags past `--max-lag`, so a
monitor can run it as it is. `skip` and `retry` are the staff's ways past an
event a projection cannot apply (docs/projections.md): a skip is recorded
with who, when and why; a retry clears the failing state and tries at once.
The group is added to the `launchdir` command by `launchdir/cli.py`; a caller
may hand in its own container as the click `obj` (see `cli_session`).
"""

from __future__ import annotations

import sys
import time
from typing import Any

import click

from launchdir.cli_common import cli_session, staff_actor

UNHEALTHY = 2  # exit status of `status` when a projection is failing or lagging
MAX_LAG = 10_000  # positions an active projection may be behind the log before `status` says so
SHOWN_SKIPS = 10


def _known(c: Any, name: str) -> None:
    if name not in c.runtime.projections:
        raise click.BadParameter(f"unknown projection {name!r}; known: {', '.join(c.runtime.projections)}")


@click.group()
def projections() -> None:
    """Inspect, rebuild and repair projections."""


@projections.command("status")
@click.option("--max-lag", type=click.IntRange(min=0), default=MAX_LAG, show_default=True,
              help="Exit 2 when an active projection is more than this many positions behind the log.")
@click.pass_context
def status(ctx: click.Context, max_lag: int) -> None:
    """Each projection's generation, state, position and lag; exit 2 when one is failing or lagging."""
    with cli_session() as c:
        rows = c.runtime.status()
        skips = c.runtime.skips()
        reshaping = c.runtime.reshaping()
    click.echo(f"{'projection':<24} {'gen':>4} {'state':<11} {'position':>10} {'head':>10} {'lag':>8}")
    for s in rows:
        click.echo(f"{s.name:<24} {s.generation:>4} {s.state:<11} {s.position:>10} {s.head:>10} {s.lag:>8}")
    problems: list[str] = []
    for s in rows:
        if s.failure is not None:
            click.echo(f"{s.name} generation {s.generation} ({s.status}) is {s.failure.describe()}")
            click.echo(f"  repair: fix the cause and `launchdir projections retry {s.name}`, or "
                       f"`launchdir projections skip {s.name} {s.failure.event_id} --reason TEXT`")
        if s.interrupted:
            click.echo(f"{s.name} generation {s.generation}: a rebuild was interrupted at position {s.position}; "
                       f"`launchdir projections rebuild {s.name}` resumes it")
        if s.name in reshaping:
            _say_reshaping(s, reshaping[s.name], rows)
        if s.status != "active":
            continue
        if s.failure is not None and s.failure.failing:
            problems.append(f"{s.name} is failing at event {s.failure.event_id}")
        elif s.lag > max_lag:
            problems.append(f"{s.name} lags {s.lag} positions behind the log (more than {max_lag})")
    if skips:
        click.echo(f"skipped events ({len(skips)}, newest first):")
        for k in skips[:SHOWN_SKIPS]:
            click.echo(f"  {k.name} event {k.event_id} ({k.topic}) by {k.actor} at {k.skipped_at:%Y-%m-%d %H:%M %Z}: "
                       f"{k.reason}")
    if problems:
        click.echo("unhealthy: " + "; ".join(problems), err=True)
        ctx.exit(UNHEALTHY)


def _say_reshaping(s: Any, shapes: tuple[int, int], rows: list[Any]) -> None:
    """Why a generation is being built by itself, or that the active one waits for it (`projections/reshape.py`)."""
    stored, code = shapes
    if s.status == "building":
        doing = "rebuild due" if s.interrupted else "rebuilding"
        click.echo(f"{s.name} generation {s.generation}: {doing}: stored shape {stored}, code shape {code}")
    elif s.status == "active" and not any(r.name == s.name and r.status == "building" for r in rows):
        click.echo(f"{s.name} generation {s.generation}: stored shape {stored}, code shape {code}; the process "
                   "that runs the projections rebuilds it (`launchdir serve`, or `launchdir projector`)")


@projections.command("rebuild")
@click.argument("name")
@click.option("--restart", is_flag=True, help="Throw away an interrupted rebuild instead of resuming it.")
def rebuild(name: str, restart: bool) -> None:
    """Build NAME afresh from event 0 while the current tables keep serving, then switch reads over.

    An interrupted rebuild of NAME is resumed where it stopped when the
    projection's code is unchanged (else, or with --restart, begun again).
    Recorded skips are honoured.
    """
    from tqdm import tqdm

    with cli_session() as c:
        _known(c, name)
        started = time.monotonic()
        bar = tqdm(total=c.runtime.events.head(), unit="ev", desc=f"rebuild {name}", file=sys.stderr)

        def progress(position: int, target: int) -> None:
            bar.total = target
            bar.n = position
            bar.refresh()

        try:
            done = c.runtime.rebuild(name, progress, restart=restart)
        finally:
            bar.close()
        took = time.monotonic() - started
        click.echo(f"{name}: generation {done.generation} active at position {done.position} ({took:.1f} s)")


@projections.command("skip")
@click.argument("name")
@click.argument("event_id", type=click.IntRange(min=1))
@click.option("--reason", required=True, help="Why the event is skipped (recorded with who and when).")
@click.option("--actor", default=None, help="Who skips it (default: $LAUNCHDIR_STAFF or the login name).")
def skip(name: str, event_id: int, reason: str, actor: str | None) -> None:
    """Let NAME pass over the event EVENT_ID it cannot apply; the reason is recorded and NAME moves on."""
    with cli_session() as c:
        _known(c, name)
        done = c.runtime.skip(name, event_id, reason, staff_actor(actor))
        click.echo(f"{name} skips event {done.event_id} ({done.topic}): recorded for {done.actor} "
                   f"at {done.skipped_at:%Y-%m-%d %H:%M:%S %Z}")
        _move_and_report(c, name)


@projections.command("retry")
@click.argument("name")
def retry(name: str) -> None:
    """Clear NAME's failing state and try the event it is stopped at again now (after fixing the cause)."""
    with cli_session() as c:
        _known(c, name)
        cleared = c.runtime.retry(name)
        if not cleared:
            click.echo(f"{name} is not stopped at any event")
        for generation, failure in cleared:
            click.echo(f"{name} generation {generation} was {failure.describe()}; trying again")
        _move_and_report(c, name)


def _move_and_report(c: Any, name: str) -> None:
    """Catch NAME's active generation up here and now, and say where it got (exit 1 if it is stopped again)."""
    position = c.runtime.catch_up(name)
    active = next(s for s in c.runtime.status() if s.name == name and s.status == "active")
    if active.failure is not None:
        raise click.ClickException(f"{name} is stopped again at position {position}: {active.failure.describe()}")
    click.echo(f"{name} is at position {position} of {active.head}")
