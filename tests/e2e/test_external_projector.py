"""Projections in their own `launchdir projector` process, the server only reading and listening."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]


def _wait_for(url: str, predicate, timeout: float = 60) -> httpx.Response:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    last: httpx.Response | None = None
    while time.monotonic() < deadline:
        try:
            last = httpx.get(url, timeout=2)
            if predicate(last):
                return last
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"condition not met for {url}: {last.text if last else 'no answer'}")


def test_a_separate_projector_feeds_the_server(fresh_db: str, tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": fresh_db, "LAUNCHDIR_DATA_DIR": str(tmp_path), "PYTHONPATH": str(ROOT),
           "LAUNCHDIR_PROJECTORS": "external"}
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "launchdir.cli", "serve", "--port", str(port)], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    projector = None
    try:
        products = f"http://127.0.0.1:{port}/api/v1/products"
        # The server loaded the catalogue but runs no projector: nothing is projected yet.
        first = _wait_for(products, lambda r: r.status_code == 200)
        assert first.json()["items"] == []
        projector = subprocess.Popen([sys.executable, "-m", "launchdir.cli", "projector"], cwd=ROOT, env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_for(products, lambda r: len(r.json()["items"]) >= 9)
        done = subprocess.run([sys.executable, "-m", "launchdir.cli", "staff", "set-price", "ai_review", "1700"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        # The projector applies the event; the server hears of it (NOTIFY) and drops its cached answer.
        updated = _wait_for(products, lambda r: {p["code"]: p["price_cents"] for p in r.json()["items"]}["ai_review"] == 1700)
        assert updated.status_code == 200
    finally:
        for proc in (projector, server):
            if proc is not None:
                proc.terminate()
                proc.wait(timeout=30)


def test_the_projector_process_feeds_elasticsearch_and_servers_search_it(fresh_db: str, tmp_path: Path) -> None:
    """ELASTICSEARCH_URL with external projectors: `launchdir projector` indexes, the server only searches.

    Elasticsearch is the stand-in of tests/es_standin.py, reached through the official client.
    """
    from tests.es_standin import StandIn

    with StandIn() as es:
        env = {**os.environ, "DATABASE_URL": fresh_db, "LAUNCHDIR_DATA_DIR": str(tmp_path), "PYTHONPATH": str(ROOT),
               "LAUNCHDIR_PROJECTORS": "external", "ELASTICSEARCH_URL": es.url}

        def cli(*args: str) -> None:
            done = subprocess.run([sys.executable, "-m", "launchdir.cli", *args], cwd=ROOT, env=env,
                                  capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, done.stderr

        def live() -> list[dict[str, Any]]:
            alias = es.aliases.get("launchdir-listings")
            return [d for _, d in list(es.indices[alias].docs.values()) if d["status"] == "live"] if alias else []

        cli("demo")
        projector = subprocess.Popen([sys.executable, "-m", "launchdir.cli", "projector"], cwd=ROOT, env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        server = None
        try:
            # No server runs yet: the projector process alone catches the views up and fills the index.
            deadline = time.monotonic() + 120
            while len(live()) < 50 and time.monotonic() < deadline:
                time.sleep(0.2)
            assert len(live()) >= 50 and es.bulks > 0
            port = free_port()
            server = subprocess.Popen([sys.executable, "-m", "launchdir.cli", "serve", "--port", str(port)], cwd=ROOT,
                                      env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            listings = f"http://127.0.0.1:{port}/api/v1/listings?sort=votes&per_page=100"
            found = _wait_for(listings, lambda r: r.status_code == 200 and r.json()["total"] == len(live()))
            assert es.searches  # answered by the index
            assert [i["votes"] for i in found.json()["items"]] == sorted((d["votes"] for d in live()), reverse=True)
            # A listing goes live: the projector indexes it, and the server's answer moves with the index.
            upcoming = httpx.get(f"http://127.0.0.1:{port}/api/v1/listings?status=upcoming").json()["items"][0]["slug"]
            before = found.json()["total"]
            cli("staff", "publish", upcoming)
            after = _wait_for(listings, lambda r: r.json()["total"] == before + 1, timeout=60)
            assert upcoming in [i["slug"] for i in after.json()["items"]]
        finally:
            for proc in (projector, server):
                if proc is not None:
                    proc.terminate()
                    proc.wait(timeout=30)
