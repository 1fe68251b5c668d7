"""The pieces operation handlers use, built once by the composition root and passed in.

Outside-world needs are ports (protocols) in typed fields: `search` (queries.search),
`views` (below), `check_url` and `draft_jobs` (commands.draft). `launchdir/bootstrap.py`
wires adapters from `workers/` to them, so `api/` never imports an adapter.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Protocol
from zoneinfo import ZoneInfo

from aggregates.base import Meta
from commands.claims import ClaimChecks
from commands.draft import DraftJobs, UrlGuard
from commands.orders import OrderSettings
from commands.store import EventStore
from projections.reads import ReadStore
from projections.runtime import ProjectionRuntime
from queries.search import SearchBackend
from queries.site_listings import SiteListing, listing_of_site


@dataclass
class Principal:
    """Who calls and what the credential allows."""

    account_id: str
    scopes: frozenset[str]
    kind: str  # "api_key" | "oauth" | "session"
    expires_at: datetime | None = None
    client_id: str | None = None
    is_staff: bool = False
    key_id: str | None = None  # the API key's id, for `via` in history

    @property
    def via(self) -> str:
        """The credential for history: which API key, which OAuth client, or the website session."""
        if self.kind == "api_key":
            return f"api_key:{self.key_id}" if self.key_id else "api_key"
        if self.kind == "oauth":
            return f"oauth:{self.client_id}" if self.client_id else "oauth"
        return self.kind


@dataclass
class Call:
    """One call of one operation: the caller, the door, and the time it arrived."""

    principal: Principal | None
    channel: str  # "rest" | "mcp" | "web"
    at: datetime
    ip: str = ""

    def meta(self) -> Meta:
        actor = f"account:{self.principal.account_id}" if self.principal else "anonymous"
        via = self.principal.via if self.principal else ""
        return Meta(at=self.at, actor=actor, channel=self.channel, via=via)


CheckBadgeNow = Callable[[int, Meta], int]
"""(listing id, who asked) -> the log position of what the check recorded; 0 when the listing is not one the
badge watch checks (only free listings awaiting their badge, scheduled or live)."""


class ViewCounter(Protocol):
    """Counts one view of a listing (get_listing) without a write per read (workers/views.py tallies them)."""

    def hit(self, listing_id: int) -> None: ...


@dataclass
class Services:
    """The store, the reads, the site's time, and the ports of the operations."""

    store: EventStore
    reads: ReadStore
    runtime: ProjectionRuntime
    links: dict[str, str]
    timezone: ZoneInfo
    clock: Callable[[], datetime]
    search: SearchBackend  # PostgreSQL or Elasticsearch (docs/search.md)
    views: ViewCounter
    check_url: UrlGuard  # the submit-time URL check of drafts (the crawler's address guard)
    draft_jobs: DraftJobs  # the background work of drafts, over the job queue
    claim_checks: ClaimChecks | None = None  # DNS, meta tag and file checks of claims (workers/claim_check.py)
    badge_checks: CheckBadgeNow | None = None  # a free listing's homepage checked now (workers/badge_watch.py)
    orders: OrderSettings = OrderSettings()  # seller country, VIES (docs/orders.md)
    crawl_retention_days: int = 30  # how long failed drafts' and comparisons' crawl text is kept (the privacy page says it)

    def now(self) -> datetime:
        """The current time in the site's timezone: days and launch weeks follow it."""
        return self.clock().astimezone(self.timezone)

    def today(self) -> date:
        return self.now().date()

    def site_taken(self, website_url: str, account_id: str) -> SiteListing | None:
        """The public listing that already stands for this website's site: the commands' `SiteTaken` port."""
        return listing_of_site(self.reads, website_url, account_id)
