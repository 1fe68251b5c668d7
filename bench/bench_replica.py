"""Public reads and owners' edits with queries on the primary, and on a streaming replica (DATABASE_REPLICA_URL).

    python -m bench.bench_replica [--listings 300] [--requests 200] [--rounds 2]

Makes a throwaway primary and a hot standby of it with the Debian PostgreSQL
tools (`tests/e2e/replica_support.py`, the standby without its statement
log), an owner with an API key and `--listings` live listings through the
commands, then in each round starts `launchdir serve` in its own process
twice, alternately: reading the primary, then with DATABASE_REPLICA_URL on
the standby. Each server gets, interleaved: a public search with a query no
request asked before (the caches cannot answer it: the read goes to the
database), the owner's PATCH /me/listings/{id} (an append, then the answer
waits for `listing_view`, and with the replica for the standby to show it:
read-your-writes) and GET /_bare. p50/p95 and the ratio to the bare endpoint
of the same run are printed per round; compare the ratios, the machine is
noisy. Primary and standby share this machine's cores, so the figure is the
cost of the replica path, not the relief a standby on its own machine brings.
"""

from __future__ import annotations

import argparse
import os
import time
import uuid
from datetime import datetime, timezone

import httpx

from bench.bench_my_listings import pct
from bench.common import account_with_key, server_process
from tests.e2e.replica_support import missing_tools, streaming_pair

WORDS = ["notes", "ledger", "canvas", "relay", "harbor", "pixel", "orbit", "quill", "forge", "atlas"]


def prepare(database_url: str, listings: int) -> tuple[str, int]:
    """An owner's API key and `listings` live listings (the first one theirs), made through the commands."""
    os.environ["DATABASE_URL"] = database_url
    from aggregates.base import Meta
    from commands import listing as listing_cmd
    from launchdir.bootstrap import bootstrap, ensure_catalog
    from launchdir.settings import Settings

    c = bootstrap(Settings.from_env())
    try:
        ensure_catalog(c)
        staff = Meta(at=datetime.now(timezone.utc), actor="staff:bench", channel="cli", via="staff")
        owner, key = account_with_key(c, staff, "owner", ["account:read", "listings:write"])
        first = 0
        for i in range(listings):
            word, other = WORDS[i % len(WORDS)], WORDS[(i * 7 + 3) % len(WORDS)]
            made = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
                profile={"name": f"{word.title()} {other} {i}", "tagline": f"The {word} for {other} teams",
                         "website_url": f"https://{word}-{i}.example.com/"},
                categories=["productivity"], owner_ids=[owner] if i == 0 else [], source="staff"), staff)
            listing_cmd.staff_publish(c.store, made.listing_id, staff)
            first = first or made.listing_id
        return key, first
    finally:
        c.close()


def measure(url: str, key: str, listing_id: int, requests: int, tag: str) -> dict[str, list[float]]:
    auth = {"authorization": f"Bearer {key}"}
    times: dict[str, list[float]] = {"search (uncached)": [], "update_my_listing": [], "bare": []}
    with httpx.Client(base_url=url + "/api/v1", timeout=30) as http:
        for n in range(requests + 20):
            for name in times:
                started = time.perf_counter()
                if name == "update_my_listing":
                    r = http.patch(f"/me/listings/{listing_id}", json={"fields": {"tagline": f"{tag} {n}"}},
                                   headers={**auth, "idempotency-key": uuid.uuid4().hex})
                elif name == "bare":
                    r = http.get("/_bare")
                else:
                    q = f"{WORDS[n % len(WORDS)]} {tag}{n}"  # never asked before: no cache answers it
                    r = http.get("/listings", params={"q": q})
                took = (time.perf_counter() - started) * 1000
                if r.status_code != 200:
                    raise RuntimeError(f"{name}: {r.status_code} {r.text[:300]}")
                if name == "update_my_listing" and r.json()["tagline"] != f"{tag} {n}":
                    raise RuntimeError("the edit's answer does not show the edit")
                if n >= 20:  # warm-up (and the server's first look at the replica)
                    times[name].append(took)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listings", type=int, default=300)
    parser.add_argument("--requests", type=int, default=200, help="requests of each kind per run (default 200)")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    why = missing_tools()
    if why:
        raise SystemExit(why)
    name = os.environ.get("BENCH_DATABASE_PREFIX", "launchdir_bench_") + uuid.uuid4().hex[:10]
    with streaming_pair(name, log_statements=False) as pair:
        key, listing_id = prepare(pair.primary, args.listings)
        print(f"{args.listings} listings; {args.requests} requests of each kind per run, interleaved (ms)")
        for round_ in range(args.rounds):
            for mode, extra in (("primary", {}), ("replica", {"DATABASE_REPLICA_URL": pair.standby})):
                with server_process(pair.primary, extra_env=extra) as url:
                    times = measure(url, key, listing_id, args.requests, f"r{round_}{mode}")
                bare = pct(times["bare"], 50)
                for kind, t in times.items():
                    print(f"  round {round_ + 1} {mode:<8} {kind:<18} p50 {pct(t, 50):6.1f}  p95 {pct(t, 95):6.1f}"
                          f"  p50/bare {pct(t, 50) / bare:5.1f}")


if __name__ == "__main__":
    main()
