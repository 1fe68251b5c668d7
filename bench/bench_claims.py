"""verify_claim over HTTP against local servers: p50/p95 for meta and DNS, a failed check and a verification.

    python -m bench.bench_claims [--listings 40]

Makes a scratch database, a claimant with an API key and `--listings` live
listings per method through the commands, starts a DNS server and a website on
127.0.0.1 (the test fixtures) and `launchdir serve` in its own process pointed at
them (LAUNCHDIR_DNS_NAMESERVERS, LAUNCHDIR_CRAWL_ALLOW_LOOPBACK). For each
listing it claims, checks once before anything is published (`record_not_found`:
the check and one appended event), publishes the token, and checks again (the
verification: the check, then the claim, the listing's new owner and Verified
mark in one append, answered once `claims_view`, `listing_view` and
`launches_view` show it). A meta check reads robots.txt and the homepage.
"""

from __future__ import annotations

import argparse
import os
import time
import uuid
from datetime import datetime, timezone

import httpx

from bench.common import account_with_key, scratch_database, server_process


def prepare(database_url: str, listings: int, site_url: str) -> tuple[str, list[str], list[str]]:
    """A claimant's API key, and the slugs of live listings on DNS domains and on the local website."""
    os.environ["DATABASE_URL"] = database_url
    from aggregates.base import Meta
    from commands import listing as listing_cmd
    from aggregates.weeks import week_of
    from launchdir.bootstrap import bootstrap, ensure_catalog
    from launchdir.settings import Settings

    c = bootstrap(Settings.from_env())
    try:
        ensure_catalog(c)
        staff = Meta(at=datetime.now(timezone.utc), actor="staff:bench", channel="cli", via="staff")
        claimant, key = account_with_key(c, staff, "claimant", ["account:read", "listings:write"])

        def made(websites: list[str]) -> list[str]:
            cmds = [listing_cmd.CreateListing(profile={"name": f"Bench Claim {uuid.uuid4().hex[:8]}",
                                                       "website_url": w}, categories=["productivity"])
                    for w in websites]
            return [m.slug for m in listing_cmd.create_listings_batch(c.store, cmds, staff, publish_week=week_of(c.services.today()))]

        dns = made([f"https://www.bench-{n}-{uuid.uuid4().hex[:6]}.com/" for n in range(listings)])
        meta = made([f"{site_url}/p{n}/" for n in range(listings)])
        return key, dns, meta
    finally:
        c.close()


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    from tests.fixtures.dns_server import LocalDns
    from tests.fixtures.sites.server import Body, FixtureServer

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listings", type=int, default=40, help="listings (claims) per method (default 40)")
    args = parser.parse_args()
    with scratch_database() as db, LocalDns() as dns_server, FixtureServer() as site:
        key, dns_slugs, meta_slugs = prepare(db, args.listings, site.base)
        for n in range(args.listings):  # homepages without the tag yet
            site.routes[f"/p{n}/"] = Body(b"<html><head><title>Bench</title></head><body>Bench</body></html>")
        env = {"LAUNCHDIR_CRAWL_ALLOW_LOOPBACK": "1", "LAUNCHDIR_DNS_NAMESERVERS": dns_server.nameserver}
        with server_process(db, env) as url, httpx.Client(base_url=url + "/api/v1", timeout=30) as http:
            auth = {"authorization": f"Bearer {key}"}
            times: dict[str, list[float]] = {}

            def timed(name: str, claim_id: int, expect: str) -> None:
                started = time.perf_counter()
                r = http.post(f"/claims/{claim_id}/verify", headers={**auth, "idempotency-key": uuid.uuid4().hex})
                took = (time.perf_counter() - started) * 1000
                assert r.status_code == 200, r.text
                body = r.json()
                assert expect in (body["status"], body["reason"]), body
                times.setdefault(name, []).append(took)

            for method, slugs in (("dns", dns_slugs), ("meta", meta_slugs)):
                for n, slug in enumerate(slugs):
                    r = http.post("/claims", json={"slug": slug, "method": method},
                                  headers={**auth, "idempotency-key": uuid.uuid4().hex})
                    assert r.status_code == 201, r.text
                    claim = r.json()
                    timed(f"{method}: check fails", claim["claim_id"], "record_not_found")
                    if method == "dns":
                        record = claim["instructions"]["dns"]
                        dns_server.set_txt(record["name"], record["value"])
                    else:
                        tag = claim["instructions"]["meta"]["tag"]
                        site.routes[f"/p{n}/"] = Body(f"<html><head>{tag}</head><body>Bench</body></html>".encode())
                    timed(f"{method}: verified", claim["claim_id"], "verified")
            print(f"verify_claim over HTTP, {args.listings} claims per method, local DNS server and website")
            for name, values in times.items():
                print(f"  {name:<20} p50 {pct(values, 50):7.1f} ms   p95 {pct(values, 95):7.1f} ms   "
                      f"max {max(values):7.1f} ms   n={len(values)}")


if __name__ == "__main__":
    main()
