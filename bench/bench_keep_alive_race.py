"""Idle keep-alive connections reused at the instant the server closes them.

    python -m bench.bench_keep_alive_race [--keep-alive SECONDS] [--from 4.98] [--step 0.0002] [--busy 4]

Serves a two-line app with the served uvicorn configuration (`launchdir.serving.uvicorn_config`;
`--keep-alive` overrides its idle timeout) on loopback. 200 httpx clients (default idle expiry 5 s)
each POST once, stay idle for their own time (`--from` + i * `--step`), then POST again on the same
connection; `--busy` threads spin in the client process meanwhile, as a load generator's senders do.
Run twice. Prints how many second POSTs failed, with their idle times and exception names.
"""

from __future__ import annotations

import argparse
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from bench.common import free_port
from launchdir.serving import uvicorn_config
from launchdir.settings import Settings


async def ok(request: Request) -> PlainTextResponse:
    return PlainTextResponse("ok")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--keep-alive", type=int, default=None, help="the server's idle timeout (default: the served one)")
    parser.add_argument("--from", dest="start", type=float, default=4.98)
    parser.add_argument("--step", type=float, default=0.0002)
    parser.add_argument("--busy", type=int, default=4)
    args = parser.parse_args()
    settings = Settings(port=free_port())
    if args.keep_alive is not None:
        settings = Settings(port=settings.port, keep_alive_seconds=args.keep_alive)
    app = Starlette(routes=[Route("/", ok, methods=["POST"])])
    server = uvicorn.Server(uvicorn_config(app, settings, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    url = f"http://127.0.0.1:{settings.port}/"
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            sum(range(1000))

    def one(idle: float) -> tuple[float, str]:
        with httpx.Client(timeout=10) as client:
            client.post(url)
            time.sleep(idle)
            try:
                return idle, str(client.post(url).status_code)
            except httpx.HTTPError as exc:
                return idle, type(exc).__name__

    for _ in range(args.busy):
        threading.Thread(target=spin, daemon=True).start()
    idles = [args.start + i * args.step for i in range(200)]
    results: list[tuple[float, str]] = []
    with ThreadPoolExecutor(len(idles)) as pool:
        for _ in range(2):
            results += pool.map(one, idles)
    stop.set()
    server.should_exit = True
    failed = sorted(r for r in results if r[1] != "200")
    print(f"server idle timeout {server.config.timeout_keep_alive} s; {len(results)} second POSTs after "
          f"{idles[0]:.4f}-{idles[-1]:.4f} s idle, {args.busy} busy client threads: {len(failed)} failed")
    if failed:
        print("  " + ", ".join(f"{idle:.4f} s {kind}" for idle, kind in failed))


if __name__ == "__main__":
    main()
