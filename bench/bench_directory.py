"""Directory benchmark: 100,000 listings, projection catch-up, typo search latency, get_listing throughput.

One run, on a scratch database it creates and drops:

1. generates listings through the batched creation command (live, in one launch
   week, or spread over `--weeks` weeks), plus some votes through cast_vote;
2. catches every projection up in this process and reports events/s;
3. times typo queries in-process against the search query (p50/p95/p99);
4. starts `launchdir serve` in its own process and times the same queries over
   HTTP (each request a distinct cache key, so every one really searches);
5. drives get_listing and the bare endpoint of that server with the same
   keep-alive load (loopback only, bounded in time) and prints the ratio;
6. drives search the same way, every request a new cache key (so a real search);
7. and again with misspellings never seen before (`bench/cold_queries.py`), so every
   correction is computed, none comes from the per-process word cache.

    python -m bench.bench_directory [--listings 100000] [--seconds 20] [--connections 4] [--keep]
    python -m bench.bench_directory --database URL   # again on a kept database, without generating
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from contextlib import nullcontext
from datetime import date, datetime, timedelta, timezone
from urllib.parse import urlencode
from pathlib import Path

import httpx
import psycopg

from bench.cold_queries import ColdQueries
from bench.common import CpuSplit, children, load, process_rss, scratch_database, server_process
from bench.record import Run

REAL = ["Notion", "Notion Calendar", "Figma", "FigJam", "Linear", "Obsidian", "Slack", "Miro", "Airtable", "Zapier"]
SYLLABLES = ["zor", "vik", "plen", "ta", "lum", "ora", "kwi", "bex", "dal", "fyn", "mor", "qua", "rix", "sol", "tem",
             "vel", "wyn", "xar", "yol", "zen", "bri", "cor", "dex", "eva", "gal", "hub", "ion", "jet", "kin", "lab"]
ADJ = ["fast", "simple", "private", "collaborative", "open", "smart", "lightweight", "secure", "visual", "automated"]
NOUN = ["workspace", "dashboard", "editor", "planner", "tracker", "assistant", "platform", "toolkit", "monitor", "studio"]
AUDIENCE = ["teams", "developers", "designers", "marketers", "founders", "students", "agencies", "shops", "writers"]
KEYWORDS = ["project management", "analytics", "notes", "design", "email marketing", "automation", "crm", "invoicing",
            "monitoring", "seo", "chatbot", "scheduling", "documentation", "testing", "security", "payments",
            "hiring", "payroll", "accounting", "video editing", "podcasting", "customer support", "help desk",
            "time tracking", "knowledge base", "forms", "surveys", "landing pages", "website builder", "ecommerce",
            "inventory", "logistics", "fleet", "observability", "logging", "feature flags", "ci cd", "code review",
            "api gateway", "databases", "vector search", "llm ops", "transcription", "translation", "image generation",
            "social media", "influencers", "affiliate", "newsletters", "community", "events", "ticketing",
            "booking", "restaurants", "fitness", "health", "education", "language learning", "budgeting", "crypto"]
FILLER = ("build ship measure grow manage share plan write track review publish deploy sync export import connect "
          "customer revenue growth content workflow pipeline report insight metric campaign release feedback roadmap "
          "sprint ticket invoice budget calendar meeting document wiki knowledge search data chart team client").split()
STAGES = ["idea", "beta", "launched", "growth"]
PRICING = ["free", "freemium", "paid", "free-trial", "open-source"]
COUNTRIES = ["US", "DE", "GB", "FR", "IN", "CA", "NL", "ES", "SE", "BR"]
TYPOS = ["notin", "figmaa", "linaer", "obsidain", "projct managment", "analitics dashbord", "emial marketing",
         "slak", "zappier", "calender planer", "colaborative editr", "invoicng", "chatbott", "documentaton wiki",
         "secure monitorng", "airtabel", "mirro", "workspase", "scheduling asistant", "privte notes"]


def _vocabulary(rng: random.Random, size: int = 4000) -> tuple[list[str], list[float]]:
    """Description words: the filler words plus made-up ones, drawn with Zipf weights (a few common, most rare)."""
    made = {"".join(rng.choice(SYLLABLES) for _ in range(rng.choice((2, 3, 4)))) for _ in range(size)}
    words = FILLER + sorted(made)
    rng.shuffle(words)
    return words, list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(words))))


def _name(rng: random.Random, i: int) -> str:
    """Real names first, then brand-like names (unique: the index spelled in syllables)."""
    if i < len(REAL):
        return REAL[i]
    word, n = "", i
    while n:
        n, digit = divmod(n, len(SYLLABLES))
        word += SYLLABLES[digit]
    return word.capitalize() + ("" if rng.random() < 0.7 else " " + rng.choice(NOUN).capitalize())


def _profile(rng: random.Random, i: int, vocabulary: tuple[list[str], list[float]]) -> dict[str, object]:
    name = _name(rng, i)
    return {
        "name": name,
        "tagline": f"The {rng.choice(ADJ)} {rng.choice(NOUN)} for {rng.choice(AUDIENCE)}",
        "description": " ".join(rng.choices(vocabulary[0], cum_weights=vocabulary[1], k=40)),
        "keywords": rng.sample(KEYWORDS, 3),
        "website_url": f"https://{name.lower().replace(' ', '')}{i}.example",
        "country": rng.choice(COUNTRIES), "stage": rng.choice(STAGES), "pricing_model": rng.choice(PRICING),
    }


def _pct(values: list[float], p: float) -> float:
    data = sorted(values)
    return data[min(len(data) - 1, int(round(p / 100 * (len(data) - 1))))]


def _line(label: str, values: list[float]) -> str:
    return (f"{label:<34} p50 {_pct(values, 50):6.2f} ms   p95 {_pct(values, 95):6.2f} ms   "
            f"p99 {_pct(values, 99):6.2f} ms   n={len(values)}")


LAST_WEEK = date(2026, 11, 16)


def week_of(start: int, listings: int, weeks: int) -> str:
    """The launch week of the listing at `start`: the listings spread evenly over `weeks` weeks ending with the week
    of 2026-11-16, oldest first (one week puts them all into that week)."""
    back = weeks - 1 - (start * weeks // max(listings, 1))
    return (LAST_WEEK - timedelta(weeks=back)).isoformat()


def generate(c, listings: int, votes: int, batch: int = 1000, weeks: int = 1) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    from aggregates.base import Meta
    from commands import community
    from commands import listing as listing_cmd

    rng = random.Random(7)
    meta = Meta(at=datetime(2026, 11, 18, 12, tzinfo=timezone.utc), actor="staff:bench", channel="cli")
    categories = ["developer-tools", "apis-sdks", "devops", "testing", "ai", "ai-assistants", "ai-infrastructure",
                  "productivity", "project-management", "notes-docs", "marketing", "seo", "email-marketing", "design",
                  "finance", "analytics", "security", "no-code", "education", "ecommerce"]
    vocabulary = _vocabulary(rng)
    started = time.perf_counter()
    ids: list[int] = []
    step = max(1, min(batch, listings // weeks)) if weeks > 1 else batch  # a batch never spans two weeks
    for start in range(0, listings, step):
        cmds = [listing_cmd.CreateListing(profile=_profile(rng, i, vocabulary), categories=[rng.choice(categories)], source="demo")
                for i in range(start, min(listings, start + step))]
        ids += [m.listing_id for m in listing_cmd.create_listings_batch(c.store, cmds, meta,
                                                                        publish_week=week_of(start, listings, weeks))]
    for n in range(votes):
        community.cast_vote(c.store, ids[int(rng.paretovariate(1.2)) % len(ids)], f"voter-{n}", meta)
    return time.perf_counter() - started, c.store.position()


def catch_up(c) -> None:  # type: ignore[no-untyped-def]
    head = c.store.position()
    total_started = time.perf_counter()
    for name in c.runtime.projections:
        started = time.perf_counter()
        c.runtime.catch_up(name)
        took = time.perf_counter() - started
        print(f"  catch-up {name:<22} {took:7.1f} s   {head / took:9.0f} events/s (log positions scanned)")
    print(f"  all projections                 {time.perf_counter() - total_started:7.1f} s")
    started = time.perf_counter()
    with psycopg.connect(c.conninfo, autocommit=True) as conn:  # what autovacuum does soon after a bulk load
        conn.execute("VACUUM ANALYZE")
    print(f"  VACUUM ANALYZE after the load   {time.perf_counter() - started:7.1f} s")


def search_in_process(c, rounds: int) -> list[float]:  # type: ignore[no-untyped-def]
    from queries import listings as listings_q
    from queries.search_postgres import PostgresSearch

    reads = c.services.reads
    backend = PostgresSearch(reads)
    today = datetime(2026, 11, 18).date()
    timings: list[float] = []
    per_query: dict[str, list[float]] = {q: [] for q in TYPOS}
    totals: dict[str, int] = {}
    for q in TYPOS:  # warm-up
        totals[q] = listings_q.search_listings(reads, backend, listings_q.SearchListings(q=q), today)["total"]
    for _ in range(rounds):
        for q in TYPOS:
            started = time.perf_counter()
            listings_q.search_listings(reads, backend, listings_q.SearchListings(q=q), today)
            took = (time.perf_counter() - started) * 1000
            timings.append(took)
            per_query[q].append(took)
    for q in TYPOS:
        print(f"    {q!r:<26} matches {totals[q]:>6}   median {statistics.median(per_query[q]):7.2f} ms")
    return timings


def search_over_http(url: str, rounds: int) -> list[float]:
    timings: list[float] = []
    with httpx.Client(base_url=url, timeout=10) as client:
        for r in range(rounds):
            for i, q in enumerate(TYPOS):
                # A distinct response-cache key every time (the key is the raw query string), the same search:
                # trailing spaces are not words. Default page size, like a search box.
                params = {"q": q + " " * r}
                started = time.perf_counter()
                response = client.get("/api/v1/listings", params=params)
                timings.append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200, response.text
    return timings


def search_path(n: int) -> str:
    """The n-th request of the search load: the typo queries in turn, each with a cache key of its own.

    The response cache keys on the raw query string, and the search folds case and ignores
    spaces, so the letters' case (from n's bits) and trailing spaces make every request new.
    """
    q = TYPOS[n % len(TYPOS)]
    turn = n // len(TYPOS)
    letters = [i for i, ch in enumerate(q) if ch.isalpha()]
    upper = {i for bit, i in enumerate(letters) if turn >> bit & 1}
    cased = "".join(ch.upper() if i in upper else ch for i, ch in enumerate(q))
    return "/api/v1/listings?" + urlencode({"q": cased + " " * (turn >> len(letters) & 127)})


def kept_size(c) -> str:  # type: ignore[no-untyped-def]
    """A kept database's size as the generator states it: listings and the launch weeks they spread over."""
    t = c.services.reads.tables("listing_view")
    with c.pool.connection() as conn:
        listings, weeks = conn.execute(f"SELECT count(*), count(DISTINCT week) FROM {t['listings']}").fetchone()
    return f"{listings:,} listings over {weeks} week(s), a kept database"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--listings", type=int, default=100_000)
    parser.add_argument("--votes", type=int, default=3000)
    parser.add_argument("--weeks", type=int, default=1,
                        help="launch weeks the listings spread over, ending with the week of 2026-11-16 (520: ten "
                             "years of about 190 launches a week)")
    parser.add_argument("--seconds", type=float, default=20.0, help="load duration per endpoint")
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=10, help="rounds over the typo queries")
    parser.add_argument("--database", default=None,
                        help="reuse a database an earlier run generated and kept (--keep): skips generation")
    parser.add_argument("--keep", action="store_true", help="keep the generated database and print its URL")
    parser.add_argument("--workers", type=int, default=1, help="serve with `launchdir serve --workers N`")
    parser.add_argument("--record", action="store_true", help="write the figures to bench/results/ (`bench.table`)")
    args = parser.parse_args()

    from launchdir.bootstrap import bootstrap, ensure_catalog
    from launchdir.settings import Settings

    with (nullcontext(args.database) if args.database else scratch_database(keep=args.keep)) as db:
        c = bootstrap(Settings(database_url=db, data_dir=Path("/tmp"), rate_limits=False))
        try:
            ensure_catalog(c)
            if args.database:
                print(f"directory benchmark on an existing database ({c.store.position()} events)")
            else:
                took, head = generate(c, args.listings, args.votes, weeks=args.weeks)
                print(f"directory benchmark: {args.listings} listings over {args.weeks} launch week(s), {args.votes} votes")
                print(f"  generated {head} events in {took:.1f} s ({head / took:.0f} events/s appended, batched commands)")
            catch_up(c)
            if args.keep:
                print(f"  kept: --database '{db}'")
            reads = c.services.reads
            from queries import listings as listings_q

            first = listings_q.search_listings(reads, c.services.search,
                                               listings_q.SearchListings(q="notin", per_page=3), datetime(2026, 11, 18).date())
            print("  'notin' ->", ", ".join(i["name"] for i in first["items"]))
            in_process = search_in_process(c, args.rounds)
            print(_line("search, in process (typo queries)", in_process))
            listings_live = c.services.reads.position("listing_view")
            size = (f"{args.listings:,} listings over {args.weeks} week(s)" if not args.database
                    else kept_size(c))
        finally:
            c.close()
        pids: list[int] = []
        with server_process(db, pids=pids, workers=args.workers) as url:
            one_at_a_time = search_over_http(url, args.rounds)
            print(_line("search over HTTP (typo queries)", one_at_a_time))
            slug = httpx.get(url + "/api/v1/listings", params={"q": "notion", "per_page": "1"}).json()["items"][0]["slug"]
            for path in ("/api/v1/_bare", f"/api/v1/listings/{slug}"):
                load(url, path, connections=2, seconds=1.0)  # warm-up
            bare = load(url, "/api/v1/_bare", connections=args.connections, seconds=args.seconds)
            listing = load(url, f"/api/v1/listings/{slug}", connections=args.connections, seconds=args.seconds)
            print(f"  load: {args.connections} connections, {args.seconds:.0f} s per endpoint, loopback")
            print("  " + bare.line())
            print("  " + listing.line() + f"   ratio to bare {listing.rps / bare.rps:.2f}")
            print(f"  median get_listing latency {statistics.median(listing.latencies_ms):.2f} ms")
            before = CpuSplit.read(pids[0], db)
            searches = load(url, search_path, connections=args.connections, seconds=args.seconds)
            after = CpuSplit.read(pids[0], db)
            print(f"  search under load: {args.connections} connections, {args.seconds:.0f} s, the typo queries in turn, "
                  "every request a real search")
            print("  " + searches.line() + f"   ratio to bare {searches.rps / bare.rps:.3f}")
            typo_cpu = before.per_request(after, len(searches.latencies_ms))
            print("  CPU a search: " + typo_cpu.line())
            cold_queries = ColdQueries([*ADJ, *NOUN, *AUDIENCE, *KEYWORDS, *FILLER])
            before = CpuSplit.read(pids[0], db)
            cold = load(url, cold_queries.path, connections=args.connections, seconds=args.seconds,
                        max_requests=cold_queries.fresh_count())
            after = CpuSplit.read(pids[0], db)
            print(f"  search under load, every misspelling new: {args.connections} connections, at most "
                  f"{args.seconds:.0f} s or {cold_queries.fresh_count()} requests (each misspelling once)")
            print("  " + cold.line() + f"   ratio to bare {cold.rps / bare.rps:.3f}")
            print("  CPU a search: " + before.per_request(after, len(cold.latencies_ms)).line())
            rss = sum(process_rss(pid) for pid in [pids[0], *children(pids[0])]) / 2**20
            print(f"  server RSS after the read benchmarks: {rss:.0f} MiB")
        if args.record:
            run = Run("bench_directory", f"{size}, {listings_live:,} log positions; {args.connections} connections, "
                      f"{args.seconds:.0f} s a load; {args.workers} server process{'es' if args.workers > 1 else ''}")
            run.add("get_listing under load", listing.rps, "req/s", bare=bare.rps)
            run.add("distinct typo searches under load (each a new cache key)", searches.rps, "req/s", bare=bare.rps,
                    target="≥ 500", met=searches.rps >= 500)
            run.add("distinct typo searches under load, p95", searches.pct(95), "ms", bare=bare.pct(95),
                    target="≤ 25 ms", met=searches.pct(95) <= 25)
            run.add("distinct searches under load, every misspelling new", cold.rps, "req/s", bare=bare.rps,
                    target="≥ 500", met=cold.rps >= 500)
            run.add("distinct searches under load, every misspelling new, p95", cold.pct(95), "ms",
                    bare=bare.pct(95), target="≤ 25 ms", met=cold.pct(95) <= 25)
            run.add("CPU a typo search under load, server processes", typo_cpu.server, "ms")
            run.add("CPU a typo search under load, PostgreSQL", typo_cpu.database, "ms")
            run.add("typo search over HTTP one at a time, p95", _pct(one_at_a_time, 95), "ms")
            run.add("typo search in process, p95", _pct(in_process, 95), "ms")
            run.add("server RSS after the read benchmarks", rss, "MiB")
            run.save()


if __name__ == "__main__":
    main()
