"""Read benchmark: get_site_info and list_categories beside the framework's bare endpoint, one run.

Starts `launchdir serve` on a scratch database, warms up, then drives each path
with the same keep-alive load and prints requests/s, p50/p95/p99 and the ratio
of each operation to the bare endpoint of the same server (the ceiling).

    python -m bench.bench_reads [--seconds 5] [--connections 8] [--rounds 2] [--root CHECKOUT] [--record]
"""

from __future__ import annotations

import argparse

from pathlib import Path

from bench.common import ROOT, load, scratch_database, server_process
from bench.record import Run

PATHS = ["/api/v1/_bare", "/api/v1/site", "/api/v1/categories", "/api/v1/categories/ai?per_page=10", "/api/v1/products"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2, help="alternate the paths this many times; best round counts")
    parser.add_argument("--record", action="store_true", help="write the figures to bench/results/ (`bench.table`)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve (another version of the code)")
    args = parser.parse_args()
    run = Run("bench_reads", f"the catalogue (no listings); {args.connections} connections, {args.seconds:.0f} s a path, "
              f"best of {args.rounds} rounds")
    with scratch_database() as db, server_process(db, root=args.root) as url:
        for path in PATHS:
            load(url, path, connections=2, seconds=1.0)  # warm-up: caches, connections
        best: dict[str, object] = {}
        for _ in range(args.rounds):
            for path in PATHS:
                result = load(url, path, connections=args.connections, seconds=args.seconds)
                if path not in best or result.rps > best[path].rps:  # type: ignore[attr-defined]
                    best[path] = result
        print(f"read benchmark: {args.connections} connections, {args.seconds:.0f} s per path, best of {args.rounds} rounds")
        ceiling = best["/api/v1/_bare"].rps  # type: ignore[attr-defined]
        for path in PATHS:
            result = best[path]
            print(result.line() + f"   ratio to bare {result.rps / ceiling:.2f}")  # type: ignore[attr-defined]
            if path != "/api/v1/_bare":
                run.add(f"`{path}` (cached public read)", result.rps, "req/s", bare=ceiling)  # type: ignore[attr-defined]
    if args.record:
        run.save()


if __name__ == "__main__":
    main()
