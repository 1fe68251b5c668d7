"""Submission benchmark: time from submit_listing to `ready`, one at a time and 20 at once.

One run, on a scratch database it creates and drops:

1. serves the `saas` fixture website on 127.0.0.1 (11 pages crawled per draft);
2. starts `launchdir serve` in its own process, crawling of loopback allowed,
   the extractive drafter, the in-process job queue (or, with `--redis`, the
   rq queue on the local Redis and `--workers` `launchdir worker` processes);
3. creates one account with an API key per submission (through the commands);
4. sequential: `--runs` submissions one after the other, each polled with
   get_draft every 50 ms until `ready` (p50/p95/max);
5. concurrent: `--concurrent` submissions started at once, each polled until
   `ready`; every draft must reach `ready` (nothing lost).

    python -m bench.bench_submission [--runs 20] [--concurrent 20] [--redis] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
import uuid
from datetime import datetime, timezone
from typing import Any

import httpx

from bench.common import ROOT, scratch_database, server_process

TARGET_P95 = 5.0
POLL = 0.05


def make_keys(database_url: str, count: int) -> list[str]:
    """`count` accounts, each with an API key for account:read and listings:write."""
    sys.path.insert(0, str(ROOT))
    from aggregates.base import Meta
    from commands import account as account_cmd
    from commands import apikeys as apikeys_cmd
    from launchdir.bootstrap import bootstrap, ensure_catalog
    from launchdir.settings import Settings

    c = bootstrap(Settings(database_url=database_url))
    try:
        ensure_catalog(c)
        keys = []
        for _ in range(count):
            meta = Meta(at=datetime.now(timezone.utc), actor="staff:bench", channel="cli")
            reg = account_cmd.register_account(c.store, account_cmd.RegisterAccount(
                account_id=uuid.uuid4(), email=f"bench-{uuid.uuid4().hex[:10]}@example.com", verified=True), meta, None)
            key = apikeys_cmd.create_api_key(c.store, apikeys_cmd.CreateApiKey(
                account_id=reg.account_id, name="bench", scopes=["account:read", "listings:write"]),  # type: ignore[arg-type]
                meta, c.services.timezone)
            keys.append(key.key)
        return keys
    finally:
        c.close()


def submit_until_ready(base: str, key: str, site: str, timeout: float = 60.0) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {key}", "Idempotency-Key": "bench-" + uuid.uuid4().hex}
    with httpx.Client(base_url=base + "/api/v1", timeout=30) as http:
        started = time.perf_counter()
        r = http.post("/drafts", json={"url": site}, headers=headers)
        if r.status_code != 201:
            return {"ok": False, "error": f"submit {r.status_code}: {r.text[:200]}"}
        draft_id = r.json()["id"]
        deadline = started + timeout
        while time.perf_counter() < deadline:
            doc = http.get(f"/drafts/{draft_id}", headers={"Authorization": f"Bearer {key}"}).json()
            if doc["status"] == "ready":
                return {"ok": True, "id": draft_id, "seconds": time.perf_counter() - started,
                        "completeness": doc["completeness"]}
            if doc["status"] == "failed":
                return {"ok": False, "id": draft_id, "error": doc["failure"]}
            time.sleep(POLL)
        return {"ok": False, "id": draft_id, "error": "not ready in time"}


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def summary(label: str, results: list[dict[str, Any]], wall: float | None = None) -> str:
    times = [r["seconds"] for r in results if r["ok"]]
    lost = len(results) - len(times)
    line = (f"{label:<28} n={len(results):>3}  ready={len(times):>3}  lost={lost}  "
            f"p50={statistics.median(times):.2f}s  p95={pct(times, 95):.2f}s  max={max(times):.2f}s")
    if wall is not None:
        line += f"  wall={wall:.2f}s  throughput={len(times) / wall:.1f} drafts/s"
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--concurrent", type=int, default=20)
    parser.add_argument("--redis", action="store_true", help="rq on the local Redis with `launchdir worker` processes")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    from tests.fixtures.drafting_sites import serve

    with scratch_database() as database_url, serve("saas") as site:
        keys = make_keys(database_url, args.runs + args.concurrent + 1)
        env = {"LAUNCHDIR_CRAWL_ALLOW_LOOPBACK": "1", "LAUNCHDIR_DATA_DIR": os.path.join("/tmp", "ld-bench-" + uuid.uuid4().hex[:6])}
        workers: list[subprocess.Popen[bytes]] = []
        if args.redis:
            env |= {"REDIS_URL": "redis://127.0.0.1:6379/0", "LAUNCHDIR_JOB_QUEUE": "bench-" + uuid.uuid4().hex[:8]}
            worker_env = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(ROOT), **env}
            workers = [subprocess.Popen([sys.executable, "-m", "launchdir.cli", "worker"], env=worker_env, cwd=ROOT,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(args.workers)]
        try:
            with server_process(database_url, env) as base:
                mode = f"rq + {args.workers} worker processes" if args.redis else "in-process job queue"
                print(f"submission benchmark: {mode}, extractive drafter, fixture site {site.url('/')}")
                warm = submit_until_ready(base, keys.pop(), site.url("/"))  # first request warms caches and workers
                print(f"warm-up: {warm}")
                sequential = [submit_until_ready(base, keys.pop(), site.url("/")) for _ in range(args.runs)]
                print(summary("sequential submit->ready", sequential))

                results: list[dict[str, Any]] = []
                lock = threading.Lock()

                def one(key: str) -> None:
                    outcome = submit_until_ready(base, key, site.url("/"))
                    with lock:
                        results.append(outcome)

                threads = [threading.Thread(target=one, args=(keys.pop(),)) for _ in range(args.concurrent)]
                started = time.perf_counter()
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                wall = time.perf_counter() - started
                print(summary(f"{args.concurrent} concurrent", results, wall))
                ids = {r.get("id") for r in results if r["ok"]}
                print(f"distinct drafts ready: {len(ids)} of {args.concurrent}; "
                      f"failures: {[r['error'] for r in results if not r['ok']]}")
                p95 = pct([r["seconds"] for r in sequential if r["ok"]], 95)
                print(f"target p95 <= {TARGET_P95:.1f}s (sequential): {'met' if p95 <= TARGET_P95 else 'MISSED'}")
        finally:
            for w in workers:
                w.terminate()
                w.wait(timeout=20)


if __name__ == "__main__":
    main()
