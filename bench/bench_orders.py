"""quote_order and the checkout page's live re-quote over HTTP beside a bare endpoint (p50/p95/p99 and the ratio
of p50s, measured in the same run), and payment confirmed -> every line fulfilled (p50/p95).

    python -m bench.bench_orders [--quotes 300] [--orders 30]

Makes a scratch database, an owner with an API key and listings through the
commands, starts `launchdir serve` in its own process (test payment mode),
then sends, interleaved, quote_order with a three-line body, the checkout
page's `POST /checkout/{token}/quote` (country and a VAT number, as typed) and
`GET /_bare`, and for each of `--orders`
orders: create_checkout, billing details and Pay on the checkout page, then
times from the confirming POST (the same `confirm_payment` + fulfilment wake
as the Stripe webhook) until get_order shows every line fulfilled.
"""

from __future__ import annotations

import argparse
import os
import time
import uuid
from datetime import datetime, timezone

import httpx

from bench.common import account_with_key, scratch_database, server_process


def prepare(database_url: str, listings: int) -> tuple[str, list[int]]:
    os.environ["DATABASE_URL"] = database_url
    from aggregates.base import Meta
    from commands import listing as listing_cmd
    from launchdir.bootstrap import bootstrap, ensure_catalog
    from launchdir.settings import Settings

    c = bootstrap(Settings.from_env())
    try:
        ensure_catalog(c)
        staff = Meta(at=datetime.now(timezone.utc), actor="staff:bench", channel="cli", via="staff")
        owner, key = account_with_key(c, staff, "buyer", ["account:read", "orders:write"])
        ids = [listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
            profile={"name": f"Bench Order {n}"}, categories=["productivity"], owner_ids=[owner]), staff).listing_id
            for n in range(listings)]
        return key, ids
    finally:
        c.close()


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quotes", type=int, default=300)
    parser.add_argument("--orders", type=int, default=30)
    args = parser.parse_args()
    with scratch_database() as db:
        key, ids = prepare(db, args.orders + 1)  # ids[0] is quoted (and checked out once for the page)
        with server_process(db) as url, httpx.Client(base_url=url + "/api/v1", timeout=30) as http, \
                httpx.Client(timeout=30) as web:
            auth = {"authorization": f"Bearer {key}"}
            body = {"items": [{"product": "launch", "listing_id": ids[0]}, {"product": "ai_review", "listing_id": ids[0]},
                              {"product": "billboard_min", "listing_id": ids[0], "amount_cents": 2000}],
                    "billing_country": "DE"}
            page = http.post("/orders/checkout", json=body, headers={**auth, "idempotency-key": uuid.uuid4().hex})
            requote_url = page.json()["checkout_url"] + "/quote"
            times: dict[str, list[float]] = {"quote_order": [], "checkout requote": [], "bare": []}
            for n in range(args.quotes + 10):
                for name in times:
                    started = time.perf_counter()
                    if name == "quote_order":
                        r = http.post("/orders/quote", json=body, headers=auth)
                    elif name == "checkout requote":
                        r = web.post(requote_url, data={"country": "FR", "vat_number": "FR40303265045"})
                    else:
                        r = http.get("/_bare")
                    took = (time.perf_counter() - started) * 1000
                    if r.status_code != 200:
                        raise RuntimeError(f"{name}: {r.status_code} {r.text[:300]}")
                    if n >= 10:  # warm-up
                        times[name].append(took)
            fulfilled: list[float] = []
            for lid in ids[1:]:
                items = [{"product": "launch", "listing_id": lid}, {"product": "ai_review", "listing_id": lid},
                         {"product": "billboard_min", "listing_id": lid, "amount_cents": 2000}]
                r = http.post("/orders/checkout", json={"items": items, "billing_country": "FR"},
                              headers={**auth, "idempotency-key": uuid.uuid4().hex})
                order = r.json()
                web.post(order["checkout_url"] + "/billing", data={"name": "Bench", "country": "FR"})
                web.post(order["checkout_url"] + "/pay")
                started = time.perf_counter()
                web.post(order["checkout_url"] + "/test-pay")
                while http.get(f"/orders/{order['number']}", headers=auth).json()["status"] != "fulfilled":
                    time.sleep(0.002)
                fulfilled.append((time.perf_counter() - started) * 1000)
            print(f"{args.quotes} requests of each, interleaved (ms):")
            bare = pct(times["bare"], 50)
            for name, t in times.items():
                print(f"  {name:<17} p50 {pct(t, 50):6.1f}  p95 {pct(t, 95):6.1f}  p99 {pct(t, 99):6.1f}"
                      f"  p50/bare {pct(t, 50) / bare:5.1f}")
            print(f"payment confirmed -> all 3 lines fulfilled, {args.orders} orders (ms): "
                  f"p50 {pct(fulfilled, 50):6.1f}  p95 {pct(fulfilled, 95):6.1f}")


if __name__ == "__main__":
    main()
