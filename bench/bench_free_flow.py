"""The free plan's timings: queued -> scheduled (the first badge check), and a week's start -> `live`.

    python -m bench.bench_free_flow [--samples 3] [--batch 20]

Runs the real web app (uvicorn, the badge watch and the launch scheduler at
its serve interval, 60 s) in this process against a scratch database, with a
movable clock (the app's clock comes from bootstrap), and a local website on
127.0.0.1 that shows our badge. Listings are made and queued through the
commands.

1. queued -> scheduled: from ListingQueuedForFree to the listing being
   `scheduled` (the badge watch is woken by its view moving, fetches the
   homepage, records the find).
2. week start -> live: for each sample the clock is set a little over one
   scheduler interval before the Monday 00:00 of the listing's week and runs
   on; the figure is the time from Monday 00:00 to the public get_listing
   answering 200. The scheduler ticks at least once before the week starts
   and then wakes at the week's start (`Scheduler.until_week_starts`).
3. go-live of a batch: one scheduler tick launching `--batch` free listings
   of one week (each checked again, four at a time), timed in this process.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from tempfile import mkdtemp
from typing import Any

import httpx

from bench.common import free_port, scratch_database


@dataclass
class MovableClock:
    offset: timedelta = field(default_factory=timedelta)

    def __call__(self) -> datetime:
        return datetime.now(timezone.utc) + self.offset

    def set(self, at: datetime) -> None:
        self.offset = at - datetime.now(timezone.utc)


@contextmanager
def badge_site(base_url: str, slugs: list[str]) -> Iterator[str]:
    """A homepage on 127.0.0.1 linking to every listing page in `slugs` (appended to as listings are made)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            links = "".join(f'<a href="{base_url}/listings/{s}">on launchdir</a>' for s in list(slugs))
            body = f"<!doctype html><html><body><h1>Product</h1>{links}</body></html>".encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def serving(c: Any, port: int) -> Iterator[str]:
    """The web app as `launchdir serve` runs it (scheduler, badge watch, projections), in a thread."""
    import uvicorn

    from launchdir.bootstrap import web_app
    from launchdir.serving import uvicorn_config

    settings = c.settings.with_server("127.0.0.1", port)
    server = uvicorn.Server(uvicorn_config(web_app(c), settings, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)


def monday(week: str) -> datetime:
    return datetime.combine(date.fromisoformat(week), datetime.min.time(), tzinfo=timezone.utc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=3, help="week starts to measure (each takes up to a minute)")
    parser.add_argument("--batch", type=int, default=20, help="free listings launched by one tick")
    args = parser.parse_args()

    from aggregates.base import Meta
    from commands import free_plan as free_cmd
    from commands import listing as listing_cmd
    from launchdir.bootstrap import bootstrap, ensure_catalog, launch_scheduler
    from launchdir.settings import Settings
    from workers.scheduler import DEFAULT_INTERVAL

    clock = MovableClock()
    slugs: list[str] = []
    with scratch_database() as db:
        port = free_port()
        settings = Settings(database_url=db, port=port, data_dir=Path(mkdtemp(prefix="launchdir-bench-")),
                            crawl_allow_loopback=True, rate_limits=False)
        c = bootstrap(settings.with_server("127.0.0.1", port), clock=clock)
        ensure_catalog(c)
        owner = str(uuid.uuid4())
        with badge_site(c.settings.base_url, slugs) as home, serving(c, port) as url, httpx.Client(timeout=10) as http:
            first = date.today() - timedelta(days=date.today().weekday()) + timedelta(weeks=10)

            def queued(n: int, week: str) -> tuple[int, str, float]:
                meta = Meta(at=clock(), actor=f"account:{owner}", channel="rest")
                made = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
                    profile={"name": f"Free Bench {uuid.uuid4().hex[:8]}", "website_url": home},
                    categories=["productivity"], owner_ids=[owner], source="draft"), meta)
                slugs.append(made.slug)
                started = time.perf_counter()
                free_cmd.choose_free_listing(c.store, free_cmd.ChooseFreeListing(listing_id=made.listing_id), owner,
                                             week, Meta(at=clock(), actor=f"account:{owner}", channel="rest"))
                return made.listing_id, made.slug, started

            def scheduled(listing_id: int, started: float) -> float:
                while listing_cmd.load(c.store, listing_id).status != "scheduled":
                    if time.perf_counter() - started > 60:
                        raise RuntimeError(f"listing {listing_id} was never scheduled")
                    time.sleep(0.01)
                return time.perf_counter() - started

            samples = [(week := (first + timedelta(weeks=n)).isoformat(), *queued(n, week)) for n in range(args.samples)]
            to_scheduled = [scheduled(listing_id, started) for _, listing_id, _, started in samples]
            print(f"queued -> scheduled (first badge check, woken by the view): "
                  f"median {statistics.median(to_scheduled) * 1000:.0f} ms, max {max(to_scheduled) * 1000:.0f} ms, "
                  f"n={len(to_scheduled)}")

            to_live = []
            for week, listing_id, slug, _ in samples:
                # the clock runs on from a little over an interval before Monday 00:00, as time does: the
                # scheduler ticks once before the week starts and then waits for the week's start
                lead = DEFAULT_INTERVAL + 5
                clock.set(monday(week) - timedelta(seconds=lead))
                week_start = time.perf_counter() + lead
                while http.get(f"{url}/api/v1/listings/{slug}").status_code != 200:
                    if time.perf_counter() - week_start > DEFAULT_INTERVAL * 2 + 30:
                        raise RuntimeError(f"listing {listing_id} never went live")
                    time.sleep(0.05)
                to_live.append(time.perf_counter() - week_start)
                print(f"  week {week}: live {to_live[-1]:.2f} s after the week began")
            print(f"week start -> live (scheduler interval {DEFAULT_INTERVAL:.0f} s): "
                  f"mean {statistics.mean(to_live):.1f} s, max {max(to_live):.1f} s, n={len(to_live)}")

            week = (first + timedelta(weeks=args.samples + 1)).isoformat()
            batch = [queued(n, week) for n in range(args.batch)]
            for listing_id, _, started in batch:
                scheduled(listing_id, started)
            clock.set(monday(week) + timedelta(seconds=1))
            started = time.perf_counter()
            launched = launch_scheduler(c).tick().launched
            took = time.perf_counter() - started
            live = sum(1 for listing_id, _, _ in batch if listing_id in launched)
            print(f"go-live tick of {args.batch} free listings (each badge checked again): {took:.2f} s, "
                  f"{took / max(args.batch, 1) * 1000:.0f} ms per listing, {live} live")
        c.close()


if __name__ == "__main__":
    main()
