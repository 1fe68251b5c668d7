"""Account enumeration by timing: do reset and sign-up answer in the same time whether or not the address
has an account? One run, figures printed; no pass/fail (the tests assert the structure instead).

Starts `launchdir serve` on a scratch database, creates accounts through the account command (one per
pair, so every reset of an account is a real one, not the per-minute repeat that is ignored), then sends
pairs of requests through the real pages (CSRF token and cookie as a browser has them), in random order
within each pair and with a short pause between requests:

- `POST /reset` for an account's address and for an address without an account;
- `POST /signup` with an account's (taken) address and with a new address each time.

For each kind it prints p5/p50/p95 and the mean in milliseconds, and the probability that a request of
the first kind is slower than one of the second (the Mann-Whitney statistic, A = U / n1 n2): 0.5 means
the two cannot be told apart; the issue measured 15-23 ms against 2-8 ms (A = 1.0).

    python -m bench.bench_reset_timing [--pairs 200] [--gap 0.03] [--append docs/benchmarks.md]
"""

from __future__ import annotations

import argparse
import random
import re
import secrets
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path

import httpx

from bench.common import ROOT, scratch_database, server_process

PASSWORD = "a bench password, long enough"
CSRF = re.compile(r'name="csrf_token" value="([0-9a-f]{64})"')


@dataclass
class Sample:
    name: str
    ms: list[float] = field(default_factory=list)
    statuses: set[int] = field(default_factory=set)

    def pct(self, p: float) -> float:
        data = sorted(self.ms)
        return data[min(len(data) - 1, int(round(p / 100 * (len(data) - 1))))]

    def line(self) -> str:
        return (f"{self.name:<28} p5 {self.pct(5):7.2f}   p50 {self.pct(50):7.2f}   p95 {self.pct(95):7.2f}   "
                f"mean {statistics.fmean(self.ms):7.2f} ms   n={len(self.ms)} status={sorted(self.statuses)}")


def make_accounts(database_url: str, count: int) -> list[str]:
    """`count` confirmed accounts (without a password: a reset is how their owner sets one), made through the
    account command as `launchdir accounts create` does; their addresses."""
    sys.path.insert(0, str(ROOT))
    from aggregates.base import Meta
    from commands import account as account_cmd
    from launchdir.bootstrap import bootstrap
    from launchdir.settings import Settings

    c = bootstrap(Settings(database_url=database_url))
    try:
        meta = Meta(at=datetime.now(timezone.utc), actor="staff:bench", channel="cli")
        made = []
        for _ in range(count):
            cmd = account_cmd.RegisterAccount(account_id=uuid.uuid4(), email=address(), password=None, verified=True)
            account_cmd.register_account(c.store, cmd, meta, None)
            made.append(cmd.email)
        return made
    finally:
        c.close()


def address() -> str:
    return f"bench-{secrets.token_hex(5)}@example.com"  # every address of the run has the same length


def slower_probability(a: list[float], b: list[float]) -> float:
    """P(a random request of `a` is slower than one of `b`), ties counting half: the Mann-Whitney A."""
    wins = sum((x > y) + 0.5 * (x == y) for x in a for y in b)
    return wins / (len(a) * len(b))


def timed_post(client: httpx.Client, path: str, data: dict[str, str], sample: Sample) -> None:
    started = time.perf_counter()
    r = client.post(path, data=data)
    sample.ms.append((time.perf_counter() - started) * 1000)
    sample.statuses.add(r.status_code)


def run_pairs(pairs: int, gap: float, sends: list[Callable[[], None]]) -> None:
    """Each pair in random order, so neither kind always follows the other's background work."""
    for _ in range(pairs):
        order = list(sends)
        random.shuffle(order)
        for send in order:
            send()
            time.sleep(gap)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--gap", type=float, default=0.03, help="seconds between requests")
    parser.add_argument("--append", default=None, help="append the figures to this Markdown file")
    args = parser.parse_args()
    reset_known, reset_unknown = Sample("reset, account"), Sample("reset, no account")
    signup_taken, signup_new = Sample("sign-up, taken address"), Sample("sign-up, new address")
    with scratch_database() as db:
        accounts = make_accounts(db, args.pairs + 20)
        with server_process(db) as url, httpx.Client(base_url=url, timeout=30) as client:
            token = CSRF.search(client.get("/reset").text).group(1)  # type: ignore[union-attr]
            known = iter(accounts)
            for _ in range(10):  # warm-up: templates, connections, caches
                timed_post(client, "/reset", {"csrf_token": token, "email": next(known)}, Sample("warm-up"))
                timed_post(client, "/reset", {"csrf_token": token, "email": address()}, Sample("warm-up"))
            run_pairs(args.pairs, args.gap, [
                lambda: timed_post(client, "/reset", {"csrf_token": token, "email": next(known)}, reset_known),
                lambda: timed_post(client, "/reset", {"csrf_token": token, "email": address()}, reset_unknown)])
            signup = {"csrf_token": token, "password": PASSWORD}
            taken = iter(accounts)
            run_pairs(max(1, args.pairs // 2), args.gap, [
                lambda: timed_post(client, "/signup", {**signup, "email": next(taken)}, signup_taken),
                lambda: timed_post(client, "/signup", {**signup, "email": address()}, signup_new)])
    a_reset = slower_probability(reset_known.ms, reset_unknown.ms)
    a_signup = slower_probability(signup_taken.ms, signup_new.ms)
    lines = [f"reset and sign-up timing: {args.pairs} reset pairs, {max(1, args.pairs // 2)} sign-up pairs, "
             f"random order within pairs, {args.gap:g} s between requests",
             reset_known.line(), reset_unknown.line(),
             f"  P(reset with account slower than without) = {a_reset:.2f}   (0.5: indistinguishable)",
             signup_taken.line(), signup_new.line(),
             f"  P(sign-up with taken address slower than new) = {a_signup:.2f}   (0.5: indistinguishable)"]
    print("\n".join(lines))
    if args.append:
        table = "\n".join([
            "", f"## Reset and sign-up timing ({date.today().isoformat()})", "",
            f"`python -m bench.bench_reset_timing --pairs {args.pairs} --gap {args.gap:g}`", "",
            "| requests | p5 ms | p50 ms | p95 ms | mean ms | n |", "|---|---:|---:|---:|---:|---:|",
            *(f"| {s.name} | {s.pct(5):.2f} | {s.pct(50):.2f} | {s.pct(95):.2f} | {statistics.fmean(s.ms):.2f} | "
              f"{len(s.ms)} |" for s in (reset_known, reset_unknown, signup_taken, signup_new)),
            "", f"P(slower with an account): reset {a_reset:.2f}, sign-up {a_signup:.2f} (0.5: indistinguishable).", ""])
        with Path(args.append).open("a", encoding="utf-8") as out:
            out.write(table)


if __name__ == "__main__":
    main()
