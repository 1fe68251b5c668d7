"""The command glue, before and after: stream loads per submit and per edit, and update_draft over HTTP.

    git worktree add /tmp/launchdir-before <older commit>
    python -m bench.bench_house --before /tmp/launchdir-before [--edits 300]

For each checkout (the older one and this one) it makes a scratch database, an
account with an API key and a ready draft through that checkout's own commands,
counts the event-stream loads of submit_draft, of update_draft on a saved draft
and of update_draft on a draft that is a listing (the store's `load` wrapped in
that process), then starts that checkout's `launchdir serve`. The two servers run
side by side and PATCH /drafts/{id} requests alternate between them, so machine
noise falls on both alike; it prints p50/p95/p99 of each and their ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap
import time
import uuid
from contextlib import ExitStack
from pathlib import Path

import httpx

from bench.common import ROOT, scratch_database, server_process

PREPARE = textwrap.dedent("""
    import json, uuid
    from launchdir.bootstrap import bootstrap, ensure_catalog
    from launchdir.settings import Settings
    from aggregates.base import Meta
    from commands import account as account_cmd, apikeys as apikeys_cmd, draft as draft_cmd

    c = bootstrap(Settings.from_env())
    ensure_catalog(c)
    def meta(actor, channel):
        return Meta(at=c.services.now(), actor=actor, channel=channel)
    owner = account_cmd.register_account(c.store, account_cmd.RegisterAccount(
        account_id=uuid.uuid4(), email=f"house-{uuid.uuid4().hex[:8]}@example.com", password=None, verified=True),
        meta("staff:bench", "cli"), None).account_id
    key = apikeys_cmd.create_api_key(c.store, apikeys_cmd.CreateApiKey(
        account_id=uuid.UUID(owner), name="house", scopes=["account:read", "listings:write"]),
        meta("staff:bench", "cli"), c.services.timezone).key
    loads = [0]
    real_load = c.store.load
    def counting(*args, **kwargs):
        loads[0] += 1
        return real_load(*args, **kwargs)
    c.store.load = counting

    def drafted(n):
        url = f"https://house-{n}.example.com/"
        made = draft_cmd.submit_listing(c.store, draft_cmd.SubmitListing(url=url), owner, meta("account:" + owner, "rest"),
                                        check_url=lambda url, field: None, jobs=None)
        system = meta("system", "system")
        draft_cmd.start_crawl(c.store, made.draft_id, system)
        draft_cmd.record_crawl(c.store, made.draft_id, system, crawl_id="house", final_url=url,
                               site=f"house-{n}.example.com", pages=[url], skipped=0, size=0, digest="")
        draft_cmd.start_drafting(c.store, made.draft_id, "house", system)
        draft_cmd.record_draft(c.store, made.draft_id, "house", {"fields": {}, "drafter": "house"}, system)
        return made.draft_id

    def counted(fn):
        c.store._cache.clear()  # a request of its own: nothing cached from the set-up
        loads[0] = 0
        fn()
        return loads[0]

    def edit(draft_id, n):
        cmd = draft_cmd.UpdateDraft.model_validate({"id": str(draft_id), "fields": {"tagline": f"Tagline {n}"}})
        draft_cmd.update_draft(c.store, cmd, owner, meta("account:" + owner, "rest"),
                               check_url=lambda url, field: None, jobs=None)

    unlisted = drafted(1)
    edit(unlisted, 0)
    edit_loads = counted(lambda: edit(unlisted, 1))
    listed = drafted(2)
    draft_cmd.update_draft(c.store, draft_cmd.UpdateDraft.model_validate(
        {"id": str(listed), "fields": {"name": "House", "categories": ["productivity"]}}), owner, meta("account:" + owner, "rest"),
        check_url=lambda url, field: None, jobs=None)
    submit_loads = counted(lambda: draft_cmd.submit_draft(c.store, draft_cmd.SubmitDraft(id=listed), owner,
                                                          meta("account:" + owner, "rest")))
    listed_edit_loads = counted(lambda: edit(listed, 2))
    c.close()
    print(json.dumps({"key": key, "draft": str(unlisted), "listed": str(listed), "loads": {
        "submit_draft": submit_loads, "update_draft": edit_loads, "update_draft (listed)": listed_edit_loads}}))
""")


def prepare(root: Path, database_url: str) -> dict[str, object]:
    env = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(root), "LAUNCHDIR_RATE_LIMITS": "off"}
    out = subprocess.run([sys.executable, "-c", PREPARE], cwd=root, env=env, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"preparing {root} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, required=True, help="a checkout of the older commit")
    parser.add_argument("--edits", type=int, default=300, help="PATCH requests per server (default 300)")
    args = parser.parse_args()
    roots = {"before": args.before.resolve(), "after": ROOT}
    with ExitStack() as stack:
        seats, urls = {}, {}
        for label, root in roots.items():
            db = stack.enter_context(scratch_database())
            seats[label] = prepare(root, db)
            urls[label] = stack.enter_context(server_process(db, root=root))
        print("stream loads per command (one request, nothing cached):")
        for label in roots:
            print(f"  {label:<7} " + ", ".join(f"{k} {v}" for k, v in seats[label]["loads"].items()))  # type: ignore[attr-defined]
        times: dict[str, list[float]] = {label: [] for label in roots}
        clients = {label: stack.enter_context(httpx.Client(base_url=urls[label], timeout=30)) for label in roots}
        order = list(roots)
        for n in range(args.edits + 10):
            for label in order if n % 2 == 0 else order[::-1]:
                seat = seats[label]
                body = {"fields": {"tagline": f"Tagline {n} {uuid.uuid4().hex[:6]}"}}
                started = time.perf_counter()
                r = clients[label].patch(f"/api/v1/drafts/{seat['draft']}", json=body, headers={
                    "authorization": f"Bearer {seat['key']}", "idempotency-key": uuid.uuid4().hex})
                took = (time.perf_counter() - started) * 1000
                if r.status_code != 200:
                    raise RuntimeError(f"{label}: {r.status_code} {r.text[:300]}")
                if n >= 10:  # the first ten warm both servers up
                    times[label].append(took)
        print(f"update_draft over HTTP, {args.edits} requests each, alternating (ms):")
        for label in roots:
            t = times[label]
            print(f"  {label:<7} p50 {pct(t, 50):6.1f}  p95 {pct(t, 95):6.1f}  p99 {pct(t, 99):6.1f}")
        a, b = times["after"], times["before"]
        print(f"  after/before  p50 {pct(a, 50) / pct(b, 50):.2f}  p95 {pct(a, 95) / pct(b, 95):.2f}")


if __name__ == "__main__":
    main()
