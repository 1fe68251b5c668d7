"""Benchmark: the website's main pages next to the bare framework, and how soon a vote shows in the week.

    python -m bench.bench_website [--seconds 8] [--connections 16] [--votes 100]

What it does, on loopback only:

1. creates a scratch database, loads the catalogue and the demo directory (`launchdir demo`'s data);
2. starts `launchdir serve` in its own process (rate limits off);
3. drives `/`, `/listings/<the most voted>`, `/launches/this` and `/api/v1/_bare` one after the
   other with `--connections` keep-alive connections for `--seconds` each (after a warm-up), and
   prints requests/s and p50/p95/p99 of each;
4. creates a verified account (as `launchdir accounts create`), signs in through the form, then `--votes` times votes or
   unvotes a listing of this week with the plain form POST and measures the time from sending the
   POST until `GET /launches/this` shows the new count (POST answer included): p50/p95/max.

It prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx

from aggregates.base import Meta
from bench.common import load, scratch_database, server_process
from commands.account import RegisterAccount, register_account
from launchdir.bootstrap import bootstrap, ensure_catalog
from launchdir.demo import load_demo
from launchdir.settings import Settings

CSRF = re.compile(r'name="csrf_token" value="([0-9a-f]{64})"')
PASSWORD = "a good long bench password"


def verified_account(c: Any) -> str:
    """A verified account made through the account commands (as `launchdir accounts create` does); its address."""
    address = f"bench-{uuid4().hex[:10]}@example.com"
    cmd = RegisterAccount.model_validate({"account_id": uuid4(), "email": address, "password": PASSWORD, "verified": True})
    register_account(c.store, cmd, Meta(at=c.services.now(), actor="staff:bench", channel="cli"), None)
    return address


def signed_in_browser(url: str, address: str) -> httpx.Client:
    """A client with a signed-in session of `address`, through the sign-in form."""
    client = httpx.Client(base_url=url, timeout=30, follow_redirects=False)
    token = CSRF.search(client.get("/signin").text).group(1)  # type: ignore[union-attr]
    r = client.post("/signin", data={"csrf_token": token, "email": address, "password": PASSWORD, "next": "/"})
    assert r.status_code == 303, r.text[:300]
    return client


def vote_to_visible(client: httpx.Client, n: int) -> list[float]:
    """Milliseconds from sending a vote (or unvote) until the week page shows the new count."""
    week = client.get("/api/v1/launches/weeks/this").json()["launches"]
    slug = week[-1]["listing"]["slug"]
    token = CSRF.search(client.get(f"/listings/{slug}").text).group(1)  # type: ignore[union-attr]
    pattern = re.compile(rf'action="/listings/{slug}/(un)?vote".*?<span class="n">(\d+)</span>', re.S)
    shown = int(pattern.search(client.get("/launches/this").text).group(2))  # type: ignore[union-attr]
    out: list[float] = []
    for i in range(n):
        action = "vote" if i % 2 == 0 else "unvote"
        expected = shown + (1 if action == "vote" else -1)
        started = time.perf_counter()
        client.post(f"/listings/{slug}/{action}", data={"csrf_token": token})
        while True:
            m = pattern.search(client.get("/launches/this").text)
            if m and int(m.group(2)) == expected:
                break
        out.append((time.perf_counter() - started) * 1000)
        shown = expected
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--votes", type=int, default=100)
    args = parser.parse_args()
    with scratch_database() as conninfo:
        c = bootstrap(Settings(database_url=conninfo, data_dir=Path(tempfile.mkdtemp()), rate_limits=False))
        try:
            ensure_catalog(c)
            print("demo:", load_demo(c))
            address = verified_account(c)
        finally:
            c.close()
        with server_process(conninfo) as url:
            top = httpx.get(url + "/api/v1/launches", params={"section": "most-voted", "per_page": 1}).json()
            slug = top["items"][0]["listing"]["slug"]
            paths = ["/", f"/listings/{slug}", "/launches/this", "/api/v1/_bare"]
            for path in paths:  # warm-up: every cache filled once
                load(url, path, connections=2, seconds=1.0)
            print(f"{args.connections} connections, {args.seconds:.0f} s per path")
            for path in paths:
                print(load(url, path, connections=args.connections, seconds=args.seconds).line())
            client = signed_in_browser(url, address)
            try:
                ms = sorted(vote_to_visible(client, args.votes))
            finally:
                client.close()

            def p(q: float) -> float:
                return ms[min(len(ms) - 1, int(round(q / 100 * (len(ms) - 1))))]

            print(f"vote POST -> visible on /launches/this: n={len(ms)} p50 {p(50):.1f} ms  p95 {p(95):.1f} ms  "
                  f"max {ms[-1]:.1f} ms")


if __name__ == "__main__":
    main()
