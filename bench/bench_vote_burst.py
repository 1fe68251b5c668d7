"""Voting burst: many signed-in, verified people vote through the website's vote endpoint at a fixed rate.

    python -m bench.bench_vote_burst [--rate 200] [--seconds 60] [--people 1000] [--listings 20] [--root CHECKOUT] [--workers N]

On loopback only: a scratch database with the catalogue and the demo directory,
`--people` verified accounts (made through the account commands), each signed
in through the form (its own session cookie and CSRF token), and one
`launchdir serve` process (rate limits off). Then `--rate` votes per second
for `--seconds` seconds, each a form POST of a different (person, listing)
pair spread over the `--listings` listings of this week (then the most voted
live ones), sent on a fixed schedule over each person's own keep-alive
connection, at most `--threads` votes in flight (by default one per person, so
each vote goes at its time as a person's click does, whatever the answers before it
are waiting for: an open-loop burst; `bench/raw_http.py`: raw
HTTP/1.1, so the client takes little of the cores the server shares). Meanwhile one
connection reads the week's board (`/launches/this`) `--board-rate` times a
second (a signed-out visitor's page; a read that takes longer than its turn
starts the next at once) and another
samples how far `launches_view` and `listing_view` are behind the log.

It prints: votes sent, accepted, refused and failed, the achieved rate, the
vote POST's p50/p95/p99 (the answer waits until the views show the vote),
the CPU time per vote of the server process, of the bench itself and of the
rest of the machine (PostgreSQL and anything else running), the board's
p50/p95/p99 during the burst and `/api/v1/_bare` just after, the
largest projection lag seen (log positions), the lag in time (from an event
reaching the log's head until both views show it: p50/p99/max, sampled every
20 ms) and the time from the last vote until both views were at the head, and the exactly-once check: for every
listing, the votes it shows now minus before equals the votes accepted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import tempfile
import threading
import time
from contextlib import nullcontext
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psycopg

from bench.bench_website import signed_in_browser, verified_account
from bench.common import ROOT, children, load, projector_process, scratch_database, server_process
from bench.record import Run
from bench.raw_http import AsyncConnections, BlockingConnection, Closed, cookie_header, form_post
from launchdir.bootstrap import bootstrap, ensure_catalog
from launchdir.demo import load_demo
from launchdir.settings import Settings

CSRF = re.compile(r'name="csrf_token" value="([0-9a-f]{64})"')
VIEWS = ("launches_view", "listing_view")
LAG_EVERY = 0.02  # seconds between the lag watcher's samples (its figures in seconds are exact to about this)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


def line(label: str, ms: list[float]) -> str:
    return f"{label}: n={len(ms)} p50 {pct(ms, 50):.1f} ms  p95 {pct(ms, 95):.1f} ms  p99 {pct(ms, 99):.1f} ms"


def targets(url: str, count: int) -> list[str]:
    """Slugs of this week's listings, then of the most voted live ones, up to `count`."""
    week = httpx.get(url + "/api/v1/launches/weeks/this", timeout=30).json().get("launches", [])
    slugs = [item["listing"]["slug"] for item in week]
    more = httpx.get(url + "/api/v1/listings", params={"sort": "votes", "per_page": 50}, timeout=30).json()["items"]
    slugs += [item["slug"] for item in more if item["slug"] not in slugs]
    return slugs[:count]


def votes_of(url: str, slugs: list[str]) -> dict[str, int]:
    return {s: int(httpx.get(f"{url}/api/v1/listings/{s}", timeout=30).json()["community"]["votes"]) for s in slugs}


HEAD_AND_SHOWN = ("SELECT (SELECT coalesce(max(notification_id), 0) FROM launchdir_events), min(position) "
                  "FROM launchdir_projections WHERE status = 'active' AND name = ANY(%s)")


def head_and_shown(conn: psycopg.Connection[tuple[int, int]]) -> tuple[int, int]:
    """The log's head and the position both views have reached (the slower one's)."""
    row = conn.execute(HEAD_AND_SHOWN, (list(VIEWS),)).fetchone()
    return (int(row[0]), int(row[1])) if row and row[1] is not None else (0, 0)


def lag(db: str) -> int:
    """How many log positions the slower of the two views is behind the head."""
    with psycopg.connect(db, autocommit=True) as conn:
        head, shown = head_and_shown(conn)
    return head - shown


def lag_seconds(samples: list[tuple[float, int, int]]) -> list[float]:
    """Seconds from an event's first sighting at the head until both views showed it, per head position seen.

    `samples` are (time, head, shown) in time order. A head value first seen at
    sample i was appended between samples i-1 and i; the first sample whose
    shown position reached it is when both views showed it. So each figure is
    exact to one sampling interval.
    """
    out: list[float] = []
    pending: list[tuple[float, int]] = []  # (first seen, head) not shown yet, heads increasing
    top = -1
    for at, head, shown in samples:
        if head > top:
            pending.append((at, head))
            top = head
        while pending and pending[0][1] <= shown:
            out.append(at - pending.pop(0)[0])
    return out


def cpu_seconds(pid: int | None = None) -> float:
    """CPU time (user + system) of process `pid`, or of the whole machine when None, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    if pid is None:
        with open("/proc/stat") as f:
            fields = f.readline().split()[1:]
        return (sum(int(x) for x in fields) - int(fields[3]) - int(fields[4])) / tick  # all but idle and iowait
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rate", type=float, default=200.0, help="votes per second")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--people", type=int, default=1000)
    parser.add_argument("--listings", type=int, default=20)
    parser.add_argument("--threads", type=int, default=None,
                        help="senders: votes in flight at most (each waits for its answer); default one per person")
    parser.add_argument("--board-rate", type=float, default=200.0,
                        help="reads of the week's board per second (one connection; a late read starts the next at once)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve (another version of the code)")
    parser.add_argument("--workers", type=int, default=1, help="serve with `launchdir serve --workers N`")
    parser.add_argument("--projector", action="store_true",
                        help="the projections in a `launchdir projector` process of their own, the servers with "
                             "LAUNCHDIR_PROJECTORS=external")
    parser.add_argument("--record", action="store_true", help="write the figures to bench/results/ (`bench.table`)")
    args = parser.parse_args()
    total = int(args.rate * args.seconds)
    with scratch_database() as db:
        c = bootstrap(Settings(database_url=db, data_dir=Path(tempfile.mkdtemp()), rate_limits=False))
        try:
            ensure_catalog(c)
            load_demo(c)
            started = time.perf_counter()
            with ThreadPoolExecutor(4) as pool:  # password hashing releases the GIL: both cores work
                addresses = list(pool.map(lambda _: verified_account(c), range(args.people)))
            print(f"{args.people} verified accounts in {time.perf_counter() - started:.1f} s")
        finally:
            c.close()
        pids: list[int] = []
        projector_pids: list[int] = []
        external = {"LAUNCHDIR_PROJECTORS": "external"} if args.projector else None
        with (projector_process(db, root=args.root, pids=projector_pids) if args.projector else nullcontext()), \
                server_process(db, root=args.root, pids=pids, workers=args.workers, extra_env=external) as url:
            slugs = targets(url, args.listings)
            # Pass k: person p votes listing (p + k) mod L, so every listing sees many voters at once, each once.
            pairs = [(p, (p + k) % len(slugs)) for k in range(len(slugs)) for p in range(args.people)]
            if total > len(pairs):
                raise SystemExit(f"{total} votes need more than {args.people} people x {len(slugs)} listings")
            started = time.perf_counter()
            with ThreadPoolExecutor(8) as pool:
                browsers = list(pool.map(lambda a: signed_in_browser(url, a), addresses))
            tokens = [CSRF.search(b.get(f"/listings/{slugs[0]}").text).group(1) for b in browsers]  # type: ignore[union-attr]
            cookies = [cookie_header({c.name: c.value for c in b.cookies.jar if c.value}) for b in browsers]
            print(f"{args.people} people signed in through the form in {time.perf_counter() - started:.1f} s; "
                  f"{len(slugs)} listings")
            before = votes_of(url, slugs)
            accepted = {s: 0 for s in slugs}
            outcomes: dict[str, int] = {}
            post_ms: list[float] = []
            board_ms: list[float] = []
            lags: list[int] = []
            samples: list[tuple[float, int, int]] = []  # (time, head, both views' position), every LAG_EVERY s
            answered = [0.0] * len(browsers)  # when each person's connection last had an answer (idle time)
            closed_idle: list[float] = []
            burst_over = threading.Event()
            order = pairs[:total]
            t0 = time.perf_counter() + 0.5

            connections = AsyncConnections(url)
            votes = [form_post(connections.host, f"/listings/{slugs[s]}/vote", {"csrf_token": tokens[p]}, cookies[p])
                     for p, s in order]

            async def send(i: int, senders: asyncio.Semaphore) -> None:
                person, s = order[i]
                async with senders:  # taken in order, as a pool of senders takes the schedule's next vote
                    wait = t0 + i / args.rate - time.perf_counter()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    sent = time.perf_counter()
                    try:
                        status, body, idle = await connections.send(person, votes[i])
                        kind = str(status)
                        ok = status == 200 and json.loads(body).get("voted") is True
                    except Closed as exc:
                        kind, ok, idle = str(exc), False, sent - answered[person] if answered[person] else 0.0
                    done = time.perf_counter()
                    answered[person] = done
                    if not ok and kind[0].isalpha():
                        closed_idle.append(idle)
                    outcomes[kind] = outcomes.get(kind, 0) + 1
                    post_ms.append((done - sent) * 1000)
                    if ok:
                        accepted[slugs[s]] += 1

            async def send_all() -> None:
                senders = asyncio.Semaphore(args.threads or args.people)
                await asyncio.gather(*[send(i, senders) for i in range(total)])
                connections.close()

            def board() -> None:
                reader = BlockingConnection(url)
                next_at = time.perf_counter()
                try:
                    while not burst_over.is_set():
                        wait = next_at - time.perf_counter()
                        if wait > 0:
                            time.sleep(wait)
                        sent = time.perf_counter()
                        next_at = sent + 1 / args.board_rate
                        reader.get("/launches/this")
                        board_ms.append((time.perf_counter() - sent) * 1000)
                finally:
                    reader.close()

            def watch_lag() -> None:
                with psycopg.connect(db, autocommit=True) as conn:
                    while not burst_over.is_set():
                        head, shown = head_and_shown(conn)
                        samples.append((time.perf_counter(), head, shown))
                        lags.append(head - shown)
                        time.sleep(LAG_EVERY)

            watchers = [threading.Thread(target=board, daemon=True), threading.Thread(target=watch_lag, daemon=True)]
            for w in watchers:
                w.start()
            # With --workers N, the supervisor and its workers; with --projector, the projector too.
            servers = [pids[0], *children(pids[0]), *projector_pids]

            def server_cpu() -> float:
                return sum(cpu_seconds(pid) for pid in servers)

            cpu_before = (server_cpu(), cpu_seconds(os.getpid()), cpu_seconds())
            asyncio.run(send_all())
            burst = time.perf_counter() - t0
            cpu = [after_ - before_ for after_, before_ in
                   zip((server_cpu(), cpu_seconds(os.getpid()), cpu_seconds()), cpu_before, strict=True)]
            last_vote = time.perf_counter()
            burst_over.set()
            for w in watchers:
                w.join(timeout=30)
            deadline = time.monotonic() + 60
            while lag(db) > 0 and time.monotonic() < deadline:
                time.sleep(0.05)
            settle = time.perf_counter() - last_vote
            after = votes_of(url, slugs)
            bare = load(url, "/api/v1/_bare", connections=1, seconds=3.0)
            for b in browsers:
                b.close()
        counted = {s: after[s] - before[s] for s in slugs}
        exact = all(counted[s] == accepted[s] for s in slugs)
        print(f"burst: {total} votes planned at {args.rate:.0f}/s over {args.people} people and {len(slugs)} listings, "
              f"{args.threads or args.people} senders")
        print(f"sent in {burst:.1f} s: {total / burst:.0f} votes/s achieved; outcomes {dict(sorted(outcomes.items()))}")
        print(line("vote POST (answer after the views show it)", post_ms))
        done = max(len(post_ms), 1)
        print(f"CPU during the burst, per vote: server process{'es' if args.workers > 1 else ''} {cpu[0] / done * 1000:.1f} ms, this bench "
              f"{cpu[1] / done * 1000:.1f} ms, the rest of the machine (PostgreSQL, other work) "
              f"{(cpu[2] - cpu[0] - cpu[1]) / done * 1000:.1f} ms; machine busy {cpu[2] / burst / (os.cpu_count() or 1):.0%}")
        if closed_idle:
            print(f"closed connections: {len(closed_idle)}, idle time of their connection before the POST: "
                  + ", ".join(f"{t:.2f}" for t in sorted(closed_idle)) + " s")
        print(line("week's board /launches/this during the burst", board_ms))
        print(f"bare endpoint just after, one connection: {bare.line()}; board p99 / bare p99 "
              f"{pct(board_ms, 99) / max(bare.pct(99), 1e-9):.1f}")
        behind = [t * 1000 for t in lag_seconds(samples)]
        print(f"projection lag during the burst ({len(lags)} samples): max {max(lags, default=0)} log positions; "
              f"both views at the head {settle:.2f} s after the last vote answered")
        print(line("lag in time, from an event at the head until both views show it", behind)
              + f"  max {max(behind, default=float('nan')):.1f} ms")
        print(f"exactly once: votes shown now - before == votes accepted, for every listing: {exact} "
              f"({sum(accepted.values())} accepted, {sum(counted.values())} counted)")
        if args.record:
            run = Run("bench_vote_burst", f"{args.people:,} people, {len(slugs)} listings, {total:,} votes at "
                      f"{args.rate:.0f}/s planned, demo directory; {args.workers} server process"
                      f"{'es' if args.workers > 1 else ''}{', projections in a process of their own' if args.projector else ''}")
            run.add("votes per second achieved", total / burst, "votes/s",
                    target=f"≥ {args.rate:.0f} (counted to the last answer: within 1 %)",
                    met=total / burst >= args.rate * 0.99)
            run.add("every accepted vote counted exactly once", float(exact), "bool", target="yes", met=exact)
            run.add("vote POST p99 (answered once the views show it)", pct(post_ms, 99), "ms", bare=bare.pct(99))
            run.add("week's board p99 during the burst", pct(board_ms, 99), "ms", bare=bare.pct(99), target="≤ 50 ms",
                    met=pct(board_ms, 99) <= 50)
            run.add("projection lag p99 (event at the head until both views show it)", pct(behind, 99) / 1000, "s",
                    target="≤ 1 s", met=pct(behind, 99) <= 1000)
            run.save()


if __name__ == "__main__":
    main()
