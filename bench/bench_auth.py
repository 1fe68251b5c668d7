"""Authentication benchmark: what an API key and an OAuth access token cost on a public read, one run.

Starts `launchdir serve` on a scratch database; creates an account and an API
key with the CLI; gets an OAuth access token through the real flow (dynamic
registration, /oauth/authorize, the sign-in and consent pages, /oauth/token);
then drives the same public read (get_site_info, answered from the response
cache) anonymously, with the key and with the token, in rounds of rotating
order, and prints requests/s, p50/p95/p99 and the ratio anonymous /
authenticated, the median over rounds of the ratio within each round (target:
1.1 or less). The machine is shared and noisy: ratios within a round cancel
its drift, which best-of figures across rounds do not.

    python -m bench.bench_auth [--seconds 2] [--connections 8] [--rounds 9] [--append docs/benchmarks.md]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import re
import secrets
import subprocess
import sys
from datetime import date
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx

from bench.common import ROOT, LoadResult, load, median, scratch_database, server_process

PATH = "/api/v1/site"
PASSWORD = "a bench password, long enough"
CALLBACK = "http://127.0.0.1:9/callback"
CSRF = re.compile(r'name="csrf_token" value="([0-9a-f]{64})"')
REQUEST = re.compile(r'name="request" value="([^"]+)"')


def cli(database_url: str, *args: str) -> str:
    env = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "launchdir.cli", *args], env=env, cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return done.stdout.strip().splitlines()[-1]


def oauth_token(url: str, email: str) -> str:
    """The whole authorization code flow with PKCE, as a person and a public client do it."""
    client = httpx.post(url + "/oauth/register", json={
        "client_name": "bench", "redirect_uris": [CALLBACK], "token_endpoint_auth_method": "none"}).json()
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    query = {"response_type": "code", "client_id": client["client_id"], "redirect_uri": CALLBACK, "state": "s",
             "code_challenge": challenge, "code_challenge_method": "S256", "scope": "account:read",
             "resource": url + "/api/v1"}
    with httpx.Client(base_url=url, follow_redirects=False, timeout=20) as browser:
        consent = browser.get("/oauth/authorize?" + urlencode(query)).headers["location"]
        signin = browser.get("/signin")
        browser.post("/signin", data={"csrf_token": CSRF.search(signin.text).group(1),  # type: ignore[union-attr]
                                      "email": email, "password": PASSWORD, "next": "/account"})
        page = browser.get(consent)
        back = browser.post("/oauth/consent", data={"csrf_token": CSRF.search(page.text).group(1),  # type: ignore[union-attr]
                                                    "request": REQUEST.search(page.text).group(1),  # type: ignore[union-attr]
                                                    "decision": "allow"}).headers["location"]
    code = parse_qs(urlsplit(back).query)["code"][0]
    tokens = httpx.post(url + "/oauth/token", data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK, "client_id": client["client_id"],
        "code_verifier": verifier}).json()
    return str(tokens["access_token"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=9, help="rounds of the three callers, in rotating order")
    parser.add_argument("--append", default=None, help="append the figures to this Markdown file")
    args = parser.parse_args()
    with scratch_database() as db, server_process(db) as url:
        email = f"bench-{secrets.token_hex(4)}@example.com"
        cli(db, "accounts", "create", email, "--password", PASSWORD)
        key = cli(db, "keys", "create", email, "--scopes", "account:read", "--name", "bench")
        token = oauth_token(url, email)
        callers = {
            "anonymous": {},
            "API key": {"Authorization": f"Bearer {key}"},
            "OAuth token": {"Authorization": f"Bearer {token}"},
        }
        for headers in callers.values():
            assert httpx.get(url + "/api/v1/me", headers=headers).status_code == (401 if not headers else 200)
            load(url, PATH, connections=2, seconds=1.0, headers=headers)  # warm-up: caches, connections
        best: dict[str, LoadResult] = {}
        ratios: dict[str, list[float]] = {name: [] for name in callers}
        names = list(callers)
        for round_no in range(args.rounds):
            order = names[round_no % len(names):] + names[:round_no % len(names)]  # rotate: no caller always first
            this_round: dict[str, float] = {}
            for name in order:
                result = load(url, PATH, connections=args.connections, seconds=args.seconds, headers=callers[name])
                assert result.errors == 0, f"{name}: {result.errors} errors"
                this_round[name] = result.rps
                if name not in best or result.rps > best[name].rps:
                    best[name] = result
            for name in names:  # the ratio within one round: the machine's drift between rounds cancels out
                ratios[name].append(this_round["anonymous"] / this_round[name])
    lines = [f"auth benchmark: {PATH}, {args.connections} connections, {args.seconds:g} s per caller and round, "
             f"{args.rounds} rounds in rotating order; ratio = median over rounds of anonymous req/s / caller req/s"]
    rows = []
    for name, result in best.items():
        ratio = median(ratios[name])
        result.path = f"{PATH} ({name})"
        lines.append(result.line() + f"   ratio {ratio:.2f}")
        rows.append(f"| {name} | {result.rps:,.0f} | {result.pct(50):.2f} | {result.pct(95):.2f} | "
                    f"{result.pct(99):.2f} | {ratio:.2f} |")
    print("\n".join(lines))
    if args.append:
        table = "\n".join([
            "", f"## Authentication ({date.today().isoformat()})", "",
            f"`python -m bench.bench_auth --seconds {args.seconds:g} --connections {args.connections} "
            f"--rounds {args.rounds}`: the public read `{PATH}` (answered from the response cache), anonymous and with "
            "each kind of credential, in rounds of rotating order. req/s and latencies are each caller's best round; "
            "the ratio is the median over rounds of anonymous req/s divided by the caller's in the same round "
            "(target 1.1 or less).", "",
            "| caller | best req/s | p50 ms | p95 ms | p99 ms | anonymous / caller (median) |",
            "|---|---|---|---|---|---|", *rows, "",
        ])
        with Path(args.append).open("a", encoding="utf-8") as out:
            out.write(table)


if __name__ == "__main__":
    main()
