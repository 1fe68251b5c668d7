"""Shared pieces of the submission e2e tests: a live server that may crawl 127.0.0.1, accounts with API keys."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import httpx
from uuid import uuid4

from aggregates.base import Meta
from commands import account as account_cmd
from commands import apikeys as apikeys_cmd
from tests.conftest import Databases, RunningServer, free_port
from tests.conftest import test_settings as settings_for
from tests.fixtures.drafting_sites import serve

OPS = Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli")
PASSWORD = "a good long password"


@dataclass
class Person:
    account_id: str
    email: str
    key: str  # account:read + listings:write

    def headers(self, **extra: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}", **extra}


def live_server(databases: Databases) -> Iterator[RunningServer]:
    """launchdir on a free port with crawling of 127.0.0.1 allowed (the fixture sites), rate limits off."""
    from launchdir.bootstrap import bootstrap, ensure_catalog

    port = free_port()
    c = bootstrap(settings_for(databases.create(), port=port, crawl_allow_loopback=True, rate_limits=False))
    ensure_catalog(c)
    with RunningServer(c, port) as running:
        yield running
    c.close()


def person(server: RunningServer, scopes: tuple[str, ...] = ("account:read", "listings:write"),
           password: str | None = None) -> Person:
    c: Any = server.container
    email = f"founder-{uuid4().hex[:10]}@example.com"
    reg = account_cmd.register_account(c.store, account_cmd.RegisterAccount(
        account_id=uuid4(), email=email, password=password, verified=True), OPS, None)
    assert reg.account_id is not None
    meta = Meta(at=datetime.now(timezone.utc), actor=f"account:{reg.account_id}", channel="web")
    key = apikeys_cmd.create_api_key(c.store, apikeys_cmd.CreateApiKey(
        account_id=reg.account_id, name="e2e", scopes=list(scopes)), meta, c.services.timezone)  # type: ignore[arg-type]
    assert c.runtime.wait_for(["accounts_view"], c.store.position(), timeout=5)
    return Person(reg.account_id, email, key.key)


def ik() -> dict[str, str]:
    return {"Idempotency-Key": "e2e-" + uuid.uuid4().hex}


def saved_listing(http: httpx.Client, who: Person, site: str) -> int:
    """Submit a fixture site, wait until drafted, save it as a listing: the founder's path to a listing."""
    with serve(site) as server:
        r = http.post("/drafts", json={"url": server.url("/")}, headers=who.headers(**ik()))
        assert r.status_code == 201, r.text
        draft_id = r.json()["id"]
        deadline = time.monotonic() + 60
        while (d := http.get(f"/drafts/{draft_id}", headers=who.headers()).json())["status"] not in ("ready", "failed"):
            assert time.monotonic() < deadline, d["status"]
            time.sleep(0.1)
    assert d["status"] == "ready", d
    if not d["fields"]["categories"]["value"]:  # the site's own words support no category: the founder picks one
        r = http.patch(f"/drafts/{draft_id}", json={"fields": {"categories": ["productivity"]}}, headers=who.headers(**ik()))
        assert r.status_code == 200, r.text
    r = http.post(f"/drafts/{draft_id}/submit", headers=who.headers(**ik()))
    assert r.status_code == 200, r.text
    return int(r.json()["listing_id"])
