"""update_my_listing over HTTP: p50/p95/p99, against get_my_listing and a bare endpoint in the same run.

    python -m bench.bench_my_listings [--requests 300]

Makes a scratch database, an owner with an API key and a saved listing through
the commands, starts `launchdir serve` in its own process, then sends, in turn,
PATCH /me/listings/{id} (a new tagline each time: every request appends an
event and waits for the read model: read-your-writes), GET /me/listings/{id}
and GET /_bare. The ratios to the bare endpoint are what to compare between
runs, since this machine is noisy.
"""

from __future__ import annotations

import argparse
import os
import time
import uuid
from datetime import datetime, timezone

import httpx

from bench.common import account_with_key, scratch_database, server_process


def prepare(database_url: str) -> tuple[str, int]:
    """An owner's API key and one saved listing of theirs, made through the commands."""
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
        made = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
            profile={"name": "Bench Owner", "tagline": "Before", "website_url": "https://bench-owner.example.com/"},
            categories=["productivity"], owner_ids=[owner], source="staff"), staff)
        return key, made.listing_id
    finally:
        c.close()


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=300, help="requests of each kind (default 300)")
    args = parser.parse_args()
    with scratch_database() as db:
        key, listing_id = prepare(db)
        with server_process(db) as url, httpx.Client(base_url=url + "/api/v1", timeout=30) as http:
            auth = {"authorization": f"Bearer {key}"}
            times: dict[str, list[float]] = {"update_my_listing": [], "get_my_listing": [], "bare": []}
            for n in range(args.requests + 10):
                for name in times:
                    started = time.perf_counter()
                    if name == "update_my_listing":
                        r = http.patch(f"/me/listings/{listing_id}", json={"fields": {"tagline": f"Tagline {n}"}},
                                       headers={**auth, "idempotency-key": uuid.uuid4().hex})
                    elif name == "get_my_listing":
                        r = http.get(f"/me/listings/{listing_id}", headers=auth)
                    else:
                        r = http.get("/_bare")
                    took = (time.perf_counter() - started) * 1000
                    if r.status_code != 200:
                        raise RuntimeError(f"{name}: {r.status_code} {r.text[:300]}")
                    if n >= 10:  # warm-up
                        times[name].append(took)
            print(f"{args.requests} requests of each, interleaved (ms):")
            bare = pct(times["bare"], 50)
            for name, t in times.items():
                print(f"  {name:<18} p50 {pct(t, 50):6.1f}  p95 {pct(t, 95):6.1f}  p99 {pct(t, 99):6.1f}"
                      f"  p50/bare {pct(t, 50) / bare:5.1f}")


if __name__ == "__main__":
    main()
