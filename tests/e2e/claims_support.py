"""Shared pieces of the claim e2e tests: a live server wired to a local DNS server and SMTP capture, live listings.

The server may crawl 127.0.0.1 (the fixture sites), asks the DNS server on
127.0.0.1 for TXT records (LAUNCHDIR_DNS_NAMESERVERS), and sends its outbox to
a local aiosmtpd. Its clock can be moved forward (`later`) to see claims expire.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any
from uuid import uuid4

import httpx

from aggregates.base import Meta
from commands import listing as listing_cmd
from tests.conftest import Databases, RunningServer, free_port
from tests.conftest import test_settings as settings_for
from tests.fixtures.dns_server import LocalDns
from tests.integration.test_accounts_mail import LocalSmtp

STAFF = Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli", via="staff")


@dataclass
class Clock:
    """The server's clock: real time plus an offset a test may move."""

    offset: timedelta = field(default_factory=timedelta)

    def __call__(self) -> datetime:
        return datetime.now(timezone.utc) + self.offset


@dataclass
class ClaimWorld:
    server: RunningServer
    dns: LocalDns
    smtp: LocalSmtp
    clock: Clock

    @property
    def container(self) -> Any:
        return self.server.container

    @contextmanager
    def later(self, by: timedelta) -> Iterator[None]:
        self.clock.offset += by
        try:
            yield
        finally:
            self.clock.offset -= by


def claims_world(databases: Databases) -> Iterator[ClaimWorld]:
    from launchdir.bootstrap import bootstrap, ensure_catalog

    clock = Clock()
    with LocalDns() as dns, LocalSmtp() as smtp:
        port = free_port()
        settings = settings_for(databases.create(), port=port, crawl_allow_loopback=True, rate_limits=False,
                                dns_nameservers=[dns.nameserver], smtp_url=smtp.url)
        c = bootstrap(settings, clock=clock)
        ensure_catalog(c)
        with RunningServer(c, port) as running:
            yield ClaimWorld(running, dns, smtp, clock)
        c.close()


def live_listing(world: ClaimWorld, website: str, owners: list[str] | None = None) -> tuple[int, str]:
    """A live listing made the staff's way; (listing_id, slug), once the public read shows it."""
    c = world.container
    made = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": f"Claimable {uuid4().hex[:6]}", "tagline": "A product to claim", "website_url": website},
        categories=["productivity"], owner_ids=owners or []), STAFF)
    position = listing_cmd.staff_publish(c.store, made.listing_id, STAFF)
    assert c.runtime.wait_for(["listing_view", "search_view", "launches_view"], position, timeout=10)
    return made.listing_id, made.slug


def problem(r: httpx.Response, status: int = 400) -> tuple[str | None, str | None]:
    """The first field problem of a problem response (field, rule), after checking its status and type."""
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/problem+json"
    errors = r.json().get("errors") or [{"field": None, "rule": None}]
    return errors[0]["field"], errors[0]["rule"]
