"""Benchmark: launch weeks and leaderboards under 50 concurrent connections, next to the bare framework.

    python -m bench.bench_feeds [--listings 10000] [--votes 100000] [--weeks 52] [--seconds 10] [--connections 50]

What it does, bounded in time and size, on loopback only:

1. creates a scratch database (bench/common.py) and loads the catalogue;
2. writes a directory through the write side, batched: listings with the
   batched creation command (`create_listings_batch`), launched week by week
   over `--weeks` past weeks and this week, a few scheduled for coming weeks;
   votes decided by the vote decider and appended a few thousand at a time,
   timed inside each launch week (heavy-tailed per listing); billboard money,
   Domain Rating and revenue records; then catches the projections up;
3. starts `launchdir serve` in its own process (rate limits off);
4. drives each path with `--connections` keep-alive HTTP/1.1 connections for
   `--seconds` after a short warm-up, and prints requests/s and p50/p95/p99
   for get_launch_week, get_leaderboard and the bare endpoint `/api/v1/_bare`
   (the framework's ceiling, measured in the same run), plus what one
   uncached computation of each document costs.

It prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from datetime import datetime, timedelta
from functools import reduce
from pathlib import Path
from typing import Any

from aggregates import community, metrics
from aggregates.base import Meta
from aggregates.weeks import monday_of
from bench.common import load, scratch_database, server_process
from commands import listing as listing_cmd
from launchdir.bootstrap import bootstrap, ensure_catalog
from launchdir.settings import Settings

CATEGORIES = ["developer-tools", "apis-sdks", "devops", "testing", "ai", "ai-assistants", "ai-infrastructure",
              "productivity", "project-management", "notes-docs", "marketing", "seo", "email-marketing", "design",
              "finance", "analytics", "security", "no-code", "education", "ecommerce"]
BATCH = 4000


def write_directory(c: Any, n_listings: int, n_votes: int, n_weeks: int, seed: int = 7) -> dict[str, Any]:
    """Write the directory through the (batched) write side; returns what was made."""
    rng = random.Random(seed)
    now = c.services.now()
    this = monday_of(now.date())
    appended = 0

    def meta(at: datetime) -> Meta:
        return Meta(at=min(at, now), actor="staff:bench", channel="cli")

    def cmd(i: int) -> listing_cmd.CreateListing:
        slug = f"bench-{i}"
        return listing_cmd.CreateListing(
            profile={"name": f"Bench Product {i}", "tagline": f"Tagline number {i} for the benchmark",
                     "website_url": f"https://{slug}.example.com/", "logo_url": f"https://{slug}.example.com/logo.png"},
            categories=[CATEGORIES[i % len(CATEGORIES)]], source="import", slug=slug)

    per_week = [0] * (n_weeks + 1)
    for _ in range(int(n_listings * 0.95)):
        per_week[rng.randint(0, n_weeks)] += 1
    live: list[tuple[int, datetime, datetime]] = []  # (listing id, launched at, end of its week)
    n = 0
    for k, count in enumerate(per_week):
        week = this - timedelta(weeks=k)
        start = datetime.combine(week, datetime.min.time(), tzinfo=now.tzinfo)
        launched_at = min(start + timedelta(hours=rng.uniform(0, 12)), now - timedelta(minutes=1))
        made = listing_cmd.create_listings_batch(c.store, [cmd(n + j) for j in range(count)], meta(launched_at),
                                                 publish_week=week.isoformat(), plan=rng.choice(["free", "paid"]))
        n += count
        appended += 3 * count
        live += [(m.listing_id, launched_at, start + timedelta(days=7)) for m in made]
    for m in listing_cmd.create_listings_batch(c.store, [cmd(n + j) for j in range(n_listings - n)], meta(now)):
        listing_cmd.schedule_paid(c.store, m.listing_id, (this + timedelta(weeks=rng.randint(1, 8))).isoformat(), meta(now))
        appended += 3
    events: list[Any] = []

    def flush(force: bool = False) -> None:
        nonlocal events, appended
        if events and (force or len(events) >= BATCH):
            c.store.append(events)
            appended += len(events)
            events = []

    weights = [rng.paretovariate(1.16) for _ in live]
    total_weight = sum(weights)
    votes = 0
    for (listing_id, launched_at, week_end), w in zip(live, weights):
        count = min(int(n_votes * w / total_weight), 5000)
        span = max((min(week_end + timedelta(days=3), now) - launched_at).total_seconds(), 60)
        for j in range(count):  # what cast_vote decides for a live listing, appended in batches
            account = f"bench-voter-{j}"
            at = launched_at + timedelta(seconds=span * rng.random() ** 1.5)
            toggle = community.initial_toggle(community.vote_stream(listing_id, account))
            events += community.decide_vote(toggle, listing_id, account, True, meta(at))
            votes += 1
        mstate = metrics.initial(metrics.metrics_stream(listing_id))
        extra: list[Any] = []
        m = meta(launched_at)
        if rng.random() < 0.05:
            extra += metrics.decide_billboard(mstate, listing_id, rng.randint(1, 500) * 1000, None, m)
            mstate = reduce(lambda s, e: metrics.evolve(e, s), extra, metrics.initial(mstate.id))
        if rng.random() < 0.3:
            extra += metrics.decide_domain_rating(mstate, listing_id, rng.randint(1, 90), "staff",
                                                  launched_at.date().isoformat(), m)
            mstate = reduce(lambda s, e: metrics.evolve(e, s), extra, metrics.initial(mstate.id))
        if rng.random() < 0.1:
            extra += metrics.decide_revenue(mstate, listing_id, rng.randint(1, 9000) * 1000, launched_at.strftime("%Y-%m"),
                                            rng.choice(["verified", "self_reported"]), m)
        events += extra
        flush()
    flush(force=True)
    return {"listings": n_listings, "live": len(live), "votes": votes, "events": appended, "this_week": this}


def cold_ms(fn: Any, runs: int = 30) -> tuple[float, float]:
    """p50 and p95 of computing a document without any cache (what a request costs right after a write)."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return times[len(times) // 2], times[int(len(times) * 0.95)]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--listings", type=int, default=10_000)
    parser.add_argument("--votes", type=int, default=100_000)
    parser.add_argument("--weeks", type=int, default=52)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--connections", type=int, default=50)
    args = parser.parse_args()
    with scratch_database() as conninfo:
        c = bootstrap(Settings(database_url=conninfo, data_dir=Path(tempfile.mkdtemp()), rate_limits=False))
        try:
            ensure_catalog(c)
            t = time.perf_counter()
            made = write_directory(c, args.listings, args.votes, args.weeks)
            took = time.perf_counter() - t
            print(f"wrote {made['listings']} listings ({made['live']} live), {made['votes']} votes: "
                  f"{made['events']} events in {took:.1f} s ({made['events'] / took:,.0f} events/s)")
            for name in c.runtime.projections:
                t = time.perf_counter()
                c.runtime.catch_up(name)
                print(f"  caught up {name:<18} {time.perf_counter() - t:6.1f} s")
            with c.pool.connection() as conn:  # steady state: autovacuum would have analysed the fresh tables by now
                conn.execute("ANALYZE")
            this = made["this_week"]
            last = (this - timedelta(weeks=1)).isoformat()

            from queries import launches as launches_q
            from queries import leaderboards as boards_q

            now, reads = c.services.now(), c.services.reads
            sizes = {w: len(launches_q.get_launch_week(reads, launches_q.GetLaunchWeek(week=w), now)["launches"])
                     for w in ("this", last)}
            cold = {
                "get_launch_week last week": lambda: launches_q.get_launch_week(reads, launches_q.GetLaunchWeek(week=last), now),
                "get_leaderboard community-weekly": lambda: boards_q.get_leaderboard(
                    reads, boards_q.GetLeaderboard(board="community-weekly", week="last"), now),
                "get_leaderboard community-all-time": lambda: boards_q.get_leaderboard(
                    reads, boards_q.GetLeaderboard(board="community-all-time", page=5), now),
                "get_leaderboard billboard": lambda: boards_q.get_leaderboard(reads, boards_q.GetLeaderboard(board="billboard"), now),
            }
            cold_figures = {name: cold_ms(fn) for name, fn in cold.items()}
        finally:
            c.close()
        paths = [
            "/api/v1/launches/weeks/this",
            f"/api/v1/launches/weeks/{last}",
            "/api/v1/leaderboards/community-weekly",
            "/api/v1/leaderboards/community-all-time?page=5",
            "/api/v1/leaderboards/billboard",
            "/api/v1/_bare",
        ]
        print(f"\nlaunches per week: this week {sizes['this']}, last week {sizes[last]}; "
              f"{args.connections} connections, {args.seconds:.0f} s per path after a 2 s warm-up of each\n")
        with server_process(conninfo) as url:
            time.sleep(3)  # the scheduler's first tick closes last week: let it settle
            for path in paths:  # warm every path (and its response cache) before measuring any
                load(url, path, connections=args.connections, seconds=2)
            for path in paths:
                result = load(url, path, connections=args.connections, seconds=args.seconds)
                print(result.line())
        print("\nuncached computation of one document (in process, one connection; what the first request "
              "after a write costs):")
        for name, (p50, p95) in cold_figures.items():
            print(f"  {name:<36} p50 {p50:6.2f} ms  p95 {p95:6.2f} ms")


if __name__ == "__main__":
    main()
