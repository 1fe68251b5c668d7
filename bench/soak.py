"""Soak: a mixed workload at about 80 % of the measured maximum for minutes; errors, latency, memory, lag.

    python -m bench.soak [--minutes 10] [--ramp-seconds 20] [--clients 4,8,16,32,64] [--fraction 0.8] [--every 30]
                         [--mix listing=25,week=10,leaderboard=10,category=5,search=20,edit=15,vote=15]
                         [--max-requests 1000000] [--settle 60] [--memory-growth 0.2] [--warmup SECONDS]

On a scratch database it creates and drops, loopback only, bounded in time and count:

1. loads the catalogue and the demo directory through the commands (`load_demo`),
   makes draft owners with API keys and ready drafts (the draft commands, no
   crawl), and voter accounts; catches the projections up;
2. starts `launchdir serve` in its own process (rate limits off), so the memory
   read from /proc/<pid>/status is the server's alone;
3. ramp: closed loop after a 3 s warm-up, each `--clients` level for an equal
   share of `--ramp-seconds`, every client sending the mix back to back; it stops
   early once a level gains less than 5 % over the best so far; the best level's
   requests/s is the maximum;
4. soak: open loop, requests started at a fixed rate of `--fraction` of that
   maximum for `--minutes` (at most `--max-requests`), whatever the answers'
   speed; latency counts from each request's due time, so a server falling
   behind shows in the figures instead of slowing the load down;
5. waits up to `--settle` seconds for every projection to reach the head of
   the event log, then prints the figures and the checks.

The mix: reads (get_listing, get_launch_week, get_leaderboard, list/get category),
searches (typo queries, every request a new response-cache key, so each one
really searches), draft edits (`PATCH /api/v1/drafts/{id}` with an API key and a
new Idempotency-Key; one edit in ten replays the draft's previous key and body and
must come back `Idempotent-Replayed`), and votes. There is no vote operation on
the API or MCP, and the website has no vote route yet, so votes go through the
vote command handlers the website would call (`commands.community.cast_vote` /
`withdraw_vote`, channel `web`, real accounts), in this process, against the
same database: the server's projections pick them up from the log.

Requests go out over raw keep-alive connections (`KeepAlivePool` in
bench/common.py), so the load generator takes a small share of the machine.
Every `--every` seconds it prints the last window (requests/s against the target,
requests in flight, p50/p95/p99, errors, the server's RSS, the projection lag, the
server's and the machine's CPU); at the end, per kind: requests/s, p50/p95/p99, max
and errors (an unexpected status, a failed replay or any exception; arrivals shed
because `--max-inflight` requests were unanswered count too), the server's
resident memory (first, last, max, slope per minute, first against last third)
and the projection lag (head of the log minus each serving projection's
position, from the runtime's status, what `launchdir projections status` prints).

Exit codes: 0 all checks passed; 1 errors in the ramp or the soak; 2 the
projection lag did not settle to 0 within `--settle`, or a projection was not
`active` (failing, retrying, interrupted) during or after the soak; 3 the
server's memory grew by more than `--memory-growth` between the first and the last
third of the soak after `--warmup`. When several checks fail, the first of these
codes is returned.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import math
import random
import re
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx

from bench.common import ROOT, KeepAlivePool, Reply, ServerProcess, machine_cpu_times, scratch_database, watched_server

DEFAULT_MIX = "listing=25,week=10,leaderboard=10,category=5,search=20,edit=15,vote=15"
EXPECTED = {"listing", "week", "leaderboard", "category", "search", "edit", "vote"}
MIB = 1024 * 1024
API = "/api/v1"


# ---------------------------------------------------------------- figures


def pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile (nan when empty)."""
    if not values:
        return float("nan")
    data = sorted(values)
    return data[min(len(data) - 1, max(0, math.ceil(p / 100 * len(data)) - 1))]


@dataclass
class Tally:
    """What one kind of request did: latencies in ms (from the due time), errors and a few examples."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    examples: list[str] = field(default_factory=list)


class Recorder:
    """Counts per kind for a whole phase, plus a window that the periodic report empties."""

    def __init__(self) -> None:
        self.kinds: dict[str, Tally] = {}
        self.window: list[float] = []
        self.window_errors = 0
        self.shed = 0  # arrivals never sent: too many requests were still unanswered

    def add_shed(self) -> None:
        self.shed += 1
        self.window_errors += 1

    def add(self, kind: str, ms: float, error: str | None) -> None:
        tally = self.kinds.setdefault(kind, Tally())
        tally.latencies.append(ms)
        self.window.append(ms)
        if error is not None:
            tally.errors += 1
            self.window_errors += 1
            if len(tally.examples) < 5:
                tally.examples.append(error)

    def take_window(self) -> tuple[list[float], int]:
        window, errors = self.window, self.window_errors
        self.window, self.window_errors = [], 0
        return window, errors

    @property
    def requests(self) -> int:
        return sum(len(t.latencies) for t in self.kinds.values())

    @property
    def errors(self) -> int:
        return sum(t.errors for t in self.kinds.values()) + self.shed

    def table(self, seconds: float) -> str:
        heads = ("n", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "errors")
        lines = [f"  {'kind':<12}" + "".join(f" {h:>8}" for h in heads)]
        for kind in sorted(self.kinds):
            t = self.kinds[kind]
            figures = (len(t.latencies) / seconds, pct(t.latencies, 50), pct(t.latencies, 95), pct(t.latencies, 99),
                       max(t.latencies, default=float("nan")))
            lines.append(f"  {kind:<12} {len(t.latencies):>8}" + "".join(f" {f:>8.1f}" for f in figures)
                         + f" {t.errors:>8}")
        if self.shed:
            lines.append(f"  {'(shed)':<12} {self.shed:>8}" + " " * 45 + f" {self.shed:>8}")
        return "\n".join(lines)


@dataclass
class Sample:
    """One look at the server: seconds since the phase began, memory, CPU and projection lag."""

    t: float
    rss: int
    cpu: float
    lag: int
    unhealthy: list[str]


# ---------------------------------------------------------------- the data the workload acts on


@dataclass
class Fixture:
    slugs: list[str]
    weeks: list[str]
    boards: list[str]
    category_paths: list[str]
    queries: list[str]
    drafts: list[tuple[str, str]]  # (draft id, API key of its owner)
    voters: list[str]  # account ids
    vote_listings: list[int]  # live listing ids


def _typo(word: str, rng: random.Random) -> str:
    """One keyboard slip: a letter dropped, doubled, swapped with the next, or replaced."""
    if len(word) < 4:
        return word
    i = rng.randrange(1, len(word) - 1)
    how = rng.randrange(4)
    if how == 0:
        return word[:i] + word[i + 1:]
    if how == 1:
        return word[:i] + word[i] + word[i:]
    if how == 2:
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    return word[:i] + rng.choice("aeiourstnl") + word[i + 1:]


def search_queries(texts: list[str], seed: int, count: int = 300) -> list[str]:
    """Base queries drawn from the directory's own words, most with a typo, one or two words each."""
    rng = random.Random(seed)
    words = sorted({w for text in texts for w in re.findall(r"[a-z]{4,}", text.lower())})
    queries: dict[str, None] = {}  # distinct, in the order made
    for _ in range(20 * count):
        if len(queries) == count:
            break
        picked = rng.sample(words, 2 if rng.random() < 0.4 else 1)
        queries[" ".join(_typo(w, rng) if rng.random() < 0.7 else w for w in picked)] = None
    return list(queries)


def distinct_query(queries: list[str], n: int) -> str:
    """The n-th search: the base queries in turn, each time with a response-cache key of its own.

    The cache keys on the raw query string and the search folds case and ignores
    extra spaces, so the letters' case (from the turn's bits) and trailing spaces make every request new.
    """
    q = queries[n % len(queries)]
    turn = n // len(queries)
    letters = [i for i, ch in enumerate(q) if ch.isalpha()]
    upper = {i for bit, i in enumerate(letters) if turn >> bit & 1}
    cased = "".join(ch.upper() if i in upper else ch for i, ch in enumerate(q))
    return cased + " " * (turn >> len(letters) & 127)


def prepare_writers(c: Any, drafts: int, voters: int) -> tuple[list[tuple[str, str]], list[str]]:
    """Draft owners with API keys and one ready draft each, and voter accounts, all through the commands."""
    from aggregates.base import Meta
    from commands import account as account_cmd
    from commands import apikeys as apikeys_cmd
    from commands import draft as draft_cmd

    def meta(actor: str, channel: str) -> Meta:
        return Meta(at=c.services.now(), actor=actor, channel=channel)

    def account(label: str) -> str:
        reg = account_cmd.register_account(c.store, account_cmd.RegisterAccount(
            account_id=uuid.uuid4(), email=f"{label}-{uuid.uuid4().hex[:8]}@example.com", password=None, verified=True),
            meta("staff:bench", "cli"), None)
        assert reg.account_id is not None
        return reg.account_id

    seats = []
    for i in range(drafts):
        owner = account(f"soak-owner-{i}")
        key = apikeys_cmd.create_api_key(c.store, apikeys_cmd.CreateApiKey(
            account_id=uuid.UUID(owner), name="soak", scopes=["account:read", "listings:write"]),
            meta("staff:bench", "cli"), c.services.timezone).key
        url = f"https://soak-{i}.example.com/"
        made = draft_cmd.submit_listing(c.store, draft_cmd.SubmitListing(url=url), owner,
                                        meta(f"account:{owner}", "rest"), check_url=lambda url, field: None, jobs=None)
        system = meta("system", "system")  # the pipeline's steps, as the jobs record them, without a crawl
        draft_cmd.start_crawl(c.store, made.draft_id, system)
        draft_cmd.record_crawl(c.store, made.draft_id, system, crawl_id="soak", final_url=url,
                               site=f"soak-{i}.example.com", pages=[url], skipped=0, size=0, digest="")
        draft_cmd.start_drafting(c.store, made.draft_id, "soak", system)
        draft_cmd.record_draft(c.store, made.draft_id, "soak", {"fields": {}, "drafter": "soak"}, system)
        seats.append((str(made.draft_id), key))
    return seats, [account(f"soak-voter-{i}") for i in range(voters)]


MAX_PAGES = 50  # pages of 100 listings the reads choose from (the API serves at most 1,000 pages)


def read_fixture(url: str, drafts: list[tuple[str, str]], voters: list[str], seed: int) -> Fixture:
    """What the reads ask for, learnt from the running server's own answers."""
    with httpx.Client(base_url=url + "/api/v1", timeout=30) as http:
        items: list[dict[str, Any]] = []
        page = 1
        while True:
            doc = http.get("/listings", params={"per_page": 100, "page": page}).raise_for_status().json()
            items += doc["items"]
            if not doc["has_more"] or page == MAX_PAGES:  # a directory of 100k: the first 5,000 listings serve
                break
            page += 1
        this = http.get("/launches/weeks/this").raise_for_status().json()
        last = http.get("/launches/weeks/last").raise_for_status().json()
        categories = http.get("/categories").raise_for_status().json()["items"]
        weeks = ["this", "last", this["week"]]  # the last two: the same weeks by date, other cache keys
        week = this
        while len(weeks) < 7 and week.get("previous_week"):
            weeks.append(week["previous_week"])
            week = http.get(f"/launches/weeks/{week['previous_week']}").raise_for_status().json()
    slugs = [c["slug"] for c in categories] + [s["slug"] for c in categories for s in c["subcategories"]]
    texts = [f"{i['name']} {i.get('tagline') or ''}" for i in items]
    return Fixture(
        slugs=[i["slug"] for i in items],
        weeks=weeks,
        boards=["community-weekly", "community-all-time", "billboard", "domain-rating", "revenue"],
        category_paths=["/categories"] + [f"/categories/{s}" for s in slugs],
        queries=search_queries(texts, seed),
        drafts=drafts,
        voters=voters,
        vote_listings=[entry["listing"]["id"] for entry in this["launches"] + last["launches"]],
    )


# ---------------------------------------------------------------- the workload


class Workload:
    """The mix, one request per `run(due)`: picks a kind by weight, sends it, records latency and outcome."""

    def __init__(self, http: KeepAlivePool, fixture: Fixture, vote_fn: Callable[[int, str, bool], None],
                 threads: ThreadPoolExecutor, mix: dict[str, int], recorder: Recorder, seed: int):
        self.http, self.f, self.vote_fn, self.threads = http, fixture, vote_fn, threads
        self.kinds, self.weights = list(mix), list(mix.values())
        self.recorder = recorder
        self.rng = random.Random(seed)
        self.counters = {kind: itertools.count() for kind in mix}
        self.last_edit: dict[int, tuple[str, bytes]] = {}  # draft index -> (Idempotency-Key, body) of its last edit
        self.votes_on: set[tuple[int, int]] = set()
        self.votes_busy: set[tuple[int, int]] = set()
        self.inflight = 0

    async def run(self, due: float) -> None:
        kind = self.rng.choices(self.kinds, self.weights)[0]
        n = next(self.counters[kind])
        self.inflight += 1
        try:
            error = await getattr(self, "_" + kind)(n)
        except Exception as exc:  # any exception is an error of the run, with its type for the report
            error = f"{type(exc).__name__}: {exc}"[:300]
        finally:
            self.inflight -= 1
        self.recorder.add(kind, (time.perf_counter() - due) * 1000, error)

    async def _get(self, path: str) -> str | None:
        r = await self.http.request("GET", API + path)
        return None if r.status == 200 else f"GET {path} {r.status}: {r.text[:200]}"

    async def _listing(self, n: int) -> str | None:
        return await self._get(f"/listings/{self.f.slugs[n % len(self.f.slugs)]}")

    async def _week(self, n: int) -> str | None:
        return await self._get(f"/launches/weeks/{self.f.weeks[n % len(self.f.weeks)]}")

    async def _leaderboard(self, n: int) -> str | None:
        return await self._get(f"/leaderboards/{self.f.boards[n % len(self.f.boards)]}")

    async def _category(self, n: int) -> str | None:
        return await self._get(self.f.category_paths[n % len(self.f.category_paths)])

    async def _search(self, n: int) -> str | None:
        return await self._get("/listings?" + urlencode({"q": distinct_query(self.f.queries, n)}))

    async def _edit(self, n: int) -> str | None:
        slot = n % len(self.f.drafts)
        draft_id, key = self.f.drafts[slot]
        previous = self.last_edit.get(slot)
        if n % 10 == 9 and previous is not None:  # a client retrying: same key, same body, the stored answer
            r = await self._patch(draft_id, key, *previous)
            if r.status != 200 or r.headers.get("idempotent-replayed") != "true":
                return f"replay {r.status} replayed={r.headers.get('idempotent-replayed')}: {r.text[:200]}"
            return None
        edit = ("soak-" + uuid.uuid4().hex, json.dumps(edit_body(n)).encode())
        r = await self._patch(draft_id, key, *edit)
        if r.status != 200:
            return f"PATCH {r.status}: {r.text[:200]}"
        self.last_edit[slot] = edit
        return None

    async def _patch(self, draft_id: str, key: str, idempotency_key: str, body: bytes) -> Reply:
        headers = {"Authorization": f"Bearer {key}", "Idempotency-Key": idempotency_key,
                   "Content-Type": "application/json"}
        return await self.http.request("PATCH", f"{API}/drafts/{draft_id}", headers, body)

    async def _vote(self, n: int) -> str | None:
        pairs = len(self.f.voters) * len(self.f.vote_listings)
        for step in range(pairs):  # the next (voter, listing) pair not being voted on right now
            i = (n + step) % pairs
            pair = (i % len(self.f.voters), i // len(self.f.voters))
            if pair not in self.votes_busy:
                break
        else:
            return "no free (voter, listing) pair"
        self.votes_busy.add(pair)
        try:
            on = pair not in self.votes_on  # alternate: cast, then withdraw, then cast again
            listing_id, voter = self.f.vote_listings[pair[1]], self.f.voters[pair[0]]
            await asyncio.get_running_loop().run_in_executor(self.threads, self.vote_fn, listing_id, voter, on)
            (self.votes_on.add if on else self.votes_on.discard)(pair)
        finally:
            self.votes_busy.discard(pair)
        return None


def edit_body(n: int) -> dict[str, Any]:
    """The n-th draft edit: a few shapes a founder sends, each with new values."""
    shape = n % 4
    if shape == 0:
        return {"fields": {"tagline": f"Soak tagline, edit {n}"}}
    if shape == 1:
        return {"fields": {"short_description": f"A short description, edit {n}.",
                           "keywords": [f"soak{n % 7}", "bench"]}}
    if shape == 2:
        return {"faqs": [{"question": f"What changed in edit {n}?", "answer": f"The answer of edit {n}."}]}
    return {"fields": {"description": f"Edit {n}. " + "A longer description of the product for the soak. " * 12}}


# ---------------------------------------------------------------- phases


async def closed_loop(workload: Workload, clients: int, seconds: float, max_requests: int) -> float:
    """`clients` callers, each sending the next request when its previous answer came; returns the elapsed time."""
    started = time.perf_counter()
    stop = started + seconds
    sent = itertools.count()

    async def client() -> None:
        while time.perf_counter() < stop and next(sent) < max_requests:
            await workload.run(time.perf_counter())

    await asyncio.gather(*(client() for _ in range(clients)))
    return time.perf_counter() - started


async def open_loop(workload: Workload, rate: float, total: int, max_inflight: int) -> tuple[float, int]:
    """Start request i at i / rate seconds, answered or not; returns (elapsed, arrivals shed at the in-flight cap)."""
    started = time.perf_counter()
    inflight: set[asyncio.Task[None]] = set()
    shed = 0
    for i in range(total):
        due = started + i / rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        if len(inflight) >= max_inflight:
            shed += 1
            workload.recorder.add_shed()
            continue
        task = asyncio.create_task(workload.run(due))
        inflight.add(task)
        task.add_done_callback(inflight.discard)
    await asyncio.gather(*inflight)
    return time.perf_counter() - started, shed


class Watcher:
    """Samples the server's memory and CPU and the projection lag every second; prints every `every` seconds."""

    def __init__(self, server: ServerProcess, status: Callable[[], list[Any]], every: float):
        self.server, self.status, self.every = server, status, every
        self.samples: list[Sample] = []
        self.server_cpu = 0.0  # CPU seconds the server used during the last watched phase

    def look(self, started: float) -> Sample:
        lag, unhealthy = health(self.status())
        return Sample(time.perf_counter() - started, self.server.rss_bytes(), self.server.cpu_seconds(), lag, unhealthy)

    async def watch(self, phase: str, workload: Workload, target: float | None, stop: asyncio.Event) -> None:
        started = last_print = time.perf_counter()
        self.samples = []
        cpu0 = cpu_last = self.server.cpu_seconds()
        machine_last = machine_cpu_times()
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), 1.0)
            except asyncio.TimeoutError:
                pass
            sample = await loop.run_in_executor(None, self.look, started)
            self.samples.append(sample)
            if time.perf_counter() - last_print >= self.every and not stop.is_set():
                window, errors = workload.recorder.take_window()
                span = time.perf_counter() - last_print
                machine = machine_cpu_times()
                busy = (machine[0] - machine_last[0]) / max(machine[1] - machine_last[1], 1e-9)
                wanted = f" (target {target:.1f})" if target else ""
                print(f"  [{phase} {sample.t:4.0f} s] {len(window) / span:6.1f} req/s{wanted}  "
                      f"in flight {workload.inflight:3}  p50 {pct(window, 50):6.1f}  p95 {pct(window, 95):6.1f}  "
                      f"p99 {pct(window, 99):6.1f} ms  errors {errors} (total {workload.recorder.errors})  "
                      f"rss {sample.rss / MIB:5.1f} MiB  lag {sample.lag} (max {max(s.lag for s in self.samples)})  "
                      f"cpu: server {100 * (sample.cpu - cpu_last) / span:3.0f} % of a core, "
                      f"machine {100 * busy:3.0f} % of all cores"
                      + (f"  NOT ACTIVE: {', '.join(sample.unhealthy)}" if sample.unhealthy else ""), flush=True)
                last_print, cpu_last, machine_last = time.perf_counter(), sample.cpu, machine
        self.server_cpu = self.server.cpu_seconds() - cpu0


async def watched(watcher: Watcher, phase: str, workload: Workload, target: float | None,
                  work: Awaitable[Any]) -> Any:
    """Run `work` while the watcher samples and prints."""
    stop = asyncio.Event()
    watching = asyncio.create_task(watcher.watch(phase, workload, target, stop))
    try:
        return await work
    finally:
        stop.set()
        await watching


# ---------------------------------------------------------------- verdicts


@dataclass
class Memory:
    first: float
    last: float
    peak: float
    slope_per_min: float  # MiB per minute, least squares after warm-up
    first_third: float
    last_third: float

    @property
    def growth(self) -> float:
        return (self.last_third - self.first_third) / self.first_third if self.first_third else 0.0


def memory_of(samples: list[Sample], warmup: float) -> Memory:
    """RSS figures in MiB; the growth compares the medians of the first and last third after `warmup` seconds."""
    rss = [s.rss / MIB for s in samples]
    steady = [s for s in samples if s.t >= warmup] or samples
    third = max(1, len(steady) // 3)
    slope = 0.0
    if len(steady) >= 2 and steady[-1].t > steady[0].t:
        slope = statistics.linear_regression([s.t for s in steady], [s.rss / MIB for s in steady]).slope * 60
    return Memory(rss[0], rss[-1], max(rss), slope, statistics.median(s.rss / MIB for s in steady[:third]),
                  statistics.median(s.rss / MIB for s in steady[-third:]))


def health(rows: list[Any]) -> tuple[int, list[str]]:
    """From the runtime's status rows: the largest lag of a serving generation, and the projections not `active`.

    `state` (where the runtime has it) tells a generation stopped at an event
    (`failing`, `retrying`) or an interrupted rebuild apart from a healthy one.
    """
    lag = max((s.lag for s in rows if s.status == "active"), default=0)
    states = [(s.name, getattr(s, "state", s.status)) for s in rows]
    return lag, [f"{name}: {state}" for name, state in states if state != "active"]


def settle(status: Callable[[], list[Any]], seconds: float) -> tuple[int, float | None, list[str]]:
    """Wait until every active projection is at the head; returns (final lag, seconds it took or None, not active)."""
    started = time.perf_counter()
    while True:
        lag, unhealthy = health(status())
        if lag == 0 and not unhealthy:
            return 0, time.perf_counter() - started, []
        if time.perf_counter() - started > seconds:
            return lag, None, unhealthy
        time.sleep(0.5)


# ---------------------------------------------------------------- main


def parse_mix(text: str) -> dict[str, int]:
    mix = {k.strip(): int(v) for k, v in (part.split("=", 1) for part in text.split(",") if part.strip())}
    unknown = set(mix) - EXPECTED
    if unknown or not any(mix.values()):
        raise argparse.ArgumentTypeError(f"mix kinds are {', '.join(sorted(EXPECTED))}; got {text!r}")
    return {k: v for k, v in mix.items() if v > 0}


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="length of the soak (open loop)")
    parser.add_argument("--ramp-seconds", type=float, default=20.0, help="length of the closed-loop ramp, all levels")
    parser.add_argument("--clients", default="4,8,16,32,64", help="concurrency levels of the ramp")
    parser.add_argument("--fraction", type=float, default=0.8, help="soak rate as a fraction of the ramp's maximum")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between progress lines")
    parser.add_argument("--mix", type=parse_mix, default=parse_mix(DEFAULT_MIX), help="weights of the request kinds")
    parser.add_argument("--max-requests", type=int, default=1_000_000, help="upper bound on the soak's requests")
    parser.add_argument("--max-inflight", type=int, default=0,
                        help="shed arrivals beyond this many unanswered requests (default: 5 s of arrivals, >= 256)")
    parser.add_argument("--settle", type=float, default=60.0, help="seconds the lag may take to reach 0 after the soak")
    parser.add_argument("--memory-growth", type=float, default=0.2, help="allowed RSS growth, first to last third")
    parser.add_argument("--warmup", type=float, default=None,
                        help="seconds of the soak left out of the memory check (default: 20 %% of it, at most 60)")
    parser.add_argument("--drafts", type=int, default=20, help="drafts edited (one owner and API key each)")
    parser.add_argument("--voters", type=int, default=40, help="voter accounts")
    parser.add_argument("--seed", type=int, default=20261124)
    parser.add_argument("--database", default=None,
                        help="soak on this database (e.g. a kept `bench.bench_directory` one at 100k listings) "
                             "instead of a scratch one; the demo directory and the writers are added to it")
    args = parser.parse_args()
    levels = [int(x) for x in args.clients.split(",") if x.strip()]

    sys.path.insert(0, str(ROOT))
    from commands import community
    from launchdir.bootstrap import bootstrap, ensure_catalog
    from launchdir.demo import load_demo
    from launchdir.settings import Settings

    database = nullcontext(args.database) if args.database else scratch_database()
    with database as db, tempfile.TemporaryDirectory(prefix="launchdir-soak-") as data_dir:
        c = bootstrap(Settings(database_url=db, data_dir=Path(data_dir), rate_limits=False))
        try:
            started = time.perf_counter()
            ensure_catalog(c)
            demo = load_demo(c)
            drafts, voters = prepare_writers(c, args.drafts, args.voters)
            for name in c.runtime.projections:
                c.runtime.catch_up(name)
            print(f"soak: demo directory ({demo.get('live', 0)} live listings, {demo.get('votes', 0)} votes), "
                  f"{len(drafts)} ready drafts with API keys, {len(voters)} voters; {c.store.position()} events "
                  f"in {time.perf_counter() - started:.1f} s", flush=True)

            def vote(listing_id: int, account_id: str, on: bool) -> None:
                from aggregates.base import Meta

                meta = Meta(at=datetime.now(timezone.utc), actor=f"account:{account_id}", channel="web")
                (community.cast_vote if on else community.withdraw_vote)(c.store, listing_id, account_id, meta)

            with watched_server(db) as server:
                code = asyncio.run(run(args, levels, server, c, drafts, voters, vote))
        finally:
            c.close()
    return code


async def ramp(workload: Workload, watcher: Watcher, levels: list[int],
               seconds: float) -> tuple[float, list[str], int]:
    """Closed loop at each concurrency level in turn; returns the best requests/s, a line per level, the errors."""
    best, rows, errors = 0.0, [], 0
    for clients in levels:
        workload.recorder = recorder = Recorder()
        took = await watched(watcher, f"ramp x{clients}", workload, None,
                             closed_loop(workload, clients, seconds / len(levels), 10_000_000))
        everything = [ms for t in recorder.kinds.values() for ms in t.latencies]
        rps = recorder.requests / took
        rows.append(f"  {clients:>3} clients {rps:8.1f} req/s  p50 {pct(everything, 50):6.1f}  "
                    f"p95 {pct(everything, 95):6.1f}  p99 {pct(everything, 99):6.1f} ms  errors {recorder.errors}  "
                    f"server cpu {100 * watcher.server_cpu / took:.0f} % of a core")
        print(rows[-1], flush=True)
        errors += recorder.errors
        saturated = rps < 1.05 * best
        best = max(best, rps)
        if saturated:  # more clients only queue: the maximum is behind us
            break
    return best, rows, errors


async def run(args: argparse.Namespace, levels: list[int], server: ServerProcess, c: Any,
              drafts: list[tuple[str, str]], voters: list[str], vote: Callable[[int, str, bool], None]) -> int:
    """Ramp, soak, settle; then the report and its exit code."""
    loop = asyncio.get_running_loop()
    fixture = await loop.run_in_executor(None, read_fixture, server.url, drafts, voters, args.seed)
    print(f"server pid {server.pid} on {server.url}; mix {args.mix}; {len(fixture.slugs)} listings read, "
          f"{len(fixture.queries)} base search queries, votes on {len(fixture.vote_listings)} live listings",
          flush=True)
    watcher = Watcher(server, c.runtime.status, args.every)
    http = KeepAlivePool(server.url, size=max(64, *levels))
    with ThreadPoolExecutor(8, thread_name_prefix="vote") as threads:
        try:
            workload = Workload(http, fixture, vote, threads, args.mix, Recorder(), args.seed)
            await closed_loop(workload, levels[0], 3.0, 100_000)  # warm-up, not counted
            print(f"\nramp: closed loop, {args.ramp_seconds:.0f} s over concurrency levels {levels}", flush=True)
            best, ramp_rows, ramp_errors = await ramp(workload, watcher, levels, args.ramp_seconds)
            rate = args.fraction * best
            total = min(args.max_requests, int(rate * args.minutes * 60))
            print(f"\nsoak: open loop at {rate:.1f} req/s ({args.fraction:.0%} of {best:.1f}) for {args.minutes:g} min "
                  f"({total} requests)", flush=True)
            workload.recorder = recorder = Recorder()
            cpu0 = time.process_time()
            seconds, _ = await watched(watcher, "soak", workload, rate, open_loop(
                workload, rate, total, args.max_inflight or max(256, int(5 * rate))))
            client_cpu = time.process_time() - cpu0
        finally:
            await http.close()
    lag, took, unhealthy = await loop.run_in_executor(None, settle, c.runtime.status, args.settle)
    log = server.log.read_text(encoding="utf-8", errors="replace").splitlines()
    memory = memory_of(watcher.samples, min(60.0, 0.2 * seconds) if args.warmup is None else args.warmup)
    return report(args, Outcome(
        ramp_rows, ramp_errors, best, rate, seconds, recorder, watcher.samples, memory, lag, took, unhealthy,
        [line for line in log if " ERROR " in line or "Traceback" in line], client_cpu))


@dataclass
class Outcome:
    """Everything the report says about one run."""

    ramp_rows: list[str]
    ramp_errors: int
    best: float  # the ramp's maximum, requests/s
    rate: float  # the soak's target, requests/s
    seconds: float  # the soak's length
    recorder: Recorder
    samples: list[Sample]
    memory: Memory
    lag: int  # after settling (or trying to)
    settled_in: float | None  # seconds the lag took to reach 0 after the soak, None when it did not
    unhealthy: list[str]  # projections not active at the end
    log_errors: list[str]  # ERROR and Traceback lines of the server's log
    client_cpu: float  # CPU seconds of this process during the soak


def report(args: argparse.Namespace, o: Outcome) -> int:
    """Print the figures and the checks; return the exit code."""
    r, m = o.recorder, o.memory
    print("\n==== soak figures")
    print("ramp (closed loop):\n" + "\n".join(o.ramp_rows) + f"\n  maximum {o.best:.1f} req/s")
    print(f"soak: {r.requests} requests in {o.seconds:.1f} s: {r.requests / o.seconds:.1f} req/s achieved, "
          f"target {o.rate:.1f} ({100 * r.requests / o.seconds / o.rate:.1f} %); shed {r.shed}; "
          f"load generator CPU {100 * o.client_cpu / o.seconds:.0f} % of a core")
    print(r.table(o.seconds))
    for kind, tally in sorted(r.kinds.items()):
        for example in tally.examples:
            print(f"  error [{kind}]: {example}")
    print(f"server memory (RSS, MiB): first {m.first:.1f}, last {m.last:.1f}, max {m.peak:.1f}; "
          f"slope {m.slope_per_min:+.2f} MiB/min; median of the first third {m.first_third:.1f}, "
          f"of the last third {m.last_third:.1f} after warm-up: {m.growth:+.1%}")
    seen = sorted({u for sample in o.samples for u in sample.unhealthy})
    print(f"projection lag (log positions): max {max((s.lag for s in o.samples), default=0)} during the soak; "
          + (f"0 after {o.settled_in:.1f} s" if o.settled_in is not None
             else f"still {o.lag} after {args.settle:.0f} s")
          + (f"; not active during the soak: {', '.join(seen)}" if seen else ""))
    if o.log_errors:
        print(f"server log: {len(o.log_errors)} ERROR/Traceback lines; the first: " + " | ".join(o.log_errors[:3]))
    lag_ok = o.settled_in is not None and not o.unhealthy and not seen
    checks = [
        (1, "no errors (ramp and soak)", r.errors + o.ramp_errors == 0,
         f"{o.ramp_errors} in the ramp, {r.errors} in the soak"),
        (2, "projection lag settles to 0, every projection active throughout", lag_ok,
         f"lag {o.lag}, not active at the end: {o.unhealthy or 'none'}, during: {seen or 'none'}"),
        (3, f"memory growth <= {args.memory_growth:.0%}", m.growth <= args.memory_growth, f"{m.growth:+.1%}"),
    ]
    code = 0
    for exit_code, name, ok, detail in checks:
        print(f"  {'PASS' if ok else 'FAIL'}  {name}" + ("" if ok else f": {detail}"))
        if not ok and code == 0:
            code = exit_code
    print(f"exit code {code}")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
