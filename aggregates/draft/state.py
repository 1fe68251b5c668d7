"""Draft states: a draft stream's state, the site-index stream's, and the limits decisions keep."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit
from uuid import NAMESPACE_URL, UUID, uuid5

from events.draft_fields import FIELD_NAMES, IN_PROGRESS
from events.errors import Conflict, NotFound

REQUIRED_FOR_LISTING: tuple[str, ...] = ("name", "categories")
MAX_INVITES = 10
INVITE_TTL = timedelta(days=14)
MAX_EVIDENCE = 8


def draft_stream(draft_id: UUID) -> UUID:
    return draft_id


def site_stream(account_id: str, site: str) -> UUID:
    """The stream that says which draft is an account's draft of a site (duplicate submissions)."""
    return uuid5(NAMESPACE_URL, f"launchdir:draft-site:{account_id}:{site}")


def site_key(url: str) -> str:
    """The normalised site of a URL: lower-case ASCII host without ``www.``, plus a non-default port.

    ``https://www.Acme.com/pricing`` and ``http://acme.com`` are the same site;
    ``acme.com:8443`` is another one.
    """
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").rstrip(".").lower()
    try:
        host = host.encode("idna").decode("ascii")
    except UnicodeError:
        pass
    if host.startswith("www."):
        host = host[4:]
    port = parts.port
    default = {"http": 80, "https": 443}.get(parts.scheme.lower())
    if port is not None and port != default:
        host = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return host


# ---------------------------------------------------------------- states


@dataclass(frozen=True)
class Slot:
    """One profile part: what is shown, its state and quotes, and the AI's latest value."""

    value: Any = None
    state: str = "not_found"
    evidence: tuple[dict[str, Any], ...] = ()
    ai_value: Any = None
    ai_evidence: tuple[dict[str, Any], ...] = ()
    changed: int = 0  # stream version of the last change (regenerate skips slots changed after its request)

    @property
    def has_value(self) -> bool:
        return has_value(self.value)

    def doc(self) -> dict[str, Any]:
        return {"value": self.value, "state": self.state, "evidence": [dict(e) for e in self.evidence]}

    def ai_doc(self) -> dict[str, Any]:
        """The AI's value as a slot dict (what restore puts back)."""
        if has_value(self.ai_value):
            return {"value": self.ai_value, "state": "ai", "evidence": [dict(e) for e in self.ai_evidence]}
        return {"value": None, "state": "not_found", "evidence": []}


@dataclass(frozen=True)
class Regeneration:
    fields: tuple[str, ...]
    version: int  # the draft version when it was asked for
    at: datetime


@dataclass(frozen=True)
class Competitor:
    url: str
    request_id: str
    status: str  # "pending" | "compared" | "failed"
    at: datetime


@dataclass(frozen=True)
class Invite:
    invite_id: str
    email: str
    token_hash: str
    invited_at: datetime
    expires_at: datetime
    accepted_by: str | None = None


@dataclass(frozen=True)
class DraftState:
    id: UUID
    version: int = 0
    account_id: str = ""
    url: str = ""
    site: str = ""
    status: str = ""
    failure: dict[str, str] | None = None
    created_at: datetime | None = None
    progress_at: datetime | None = None
    crawl_attempts: int = 0
    last_crawl_error: dict[str, str] | None = None
    crawl_id: str | None = None
    final_url: str | None = None
    drafter: str | None = None
    slots: dict[str, Slot] = field(default_factory=dict)
    founder_socials: dict[str, str] = field(default_factory=dict)
    social_evidence: dict[str, tuple[dict[str, Any], ...]] = field(default_factory=dict)  # drafted link -> where the site shows it
    story: dict[str, str] = field(default_factory=dict)
    milestones: tuple[dict[str, str], ...] = ()
    seo: dict[str, str] = field(default_factory=dict)
    completeness: int = 0
    missing: tuple[str, ...] = FIELD_NAMES
    not_found_on_website: tuple[str, ...] = ()
    regenerations: dict[str, Regeneration] = field(default_factory=dict)
    competitor: Competitor | None = None
    invites: dict[str, Invite] = field(default_factory=dict)
    co_owners: tuple[str, ...] = ()
    listing_id: int | None = None
    listing_slug: str | None = None
    listing_attempt: tuple[str, datetime] | None = None
    # part -> the value the listing last got from this draft; None: not known (a listing linked after an
    # interrupted submit, or a history stored before drafts kept it), so the next sync sends every part
    listing_sent: dict[str, Any] | None = None

    @property
    def exists(self) -> bool:
        return self.version > 0

    @property
    def owners(self) -> tuple[str, ...]:
        return (self.account_id, *self.co_owners)

    def slot(self, name: str) -> Slot:
        return self.slots.get(name) or Slot()

    def value(self, name: str) -> Any:
        return self.slot(name).value


@dataclass(frozen=True)
class SiteIndexState:
    id: UUID
    version: int = 0
    draft_id: str | None = None


def initial(stream_id: UUID) -> DraftState:
    return DraftState(id=stream_id)


def initial_site(stream_id: UUID) -> SiteIndexState:
    return SiteIndexState(id=stream_id)




def has_value(value: Any) -> bool:
    if value is None:
        return False
    if isinstance(value, str):
        return bool(value.strip())
    return bool(value)


def require_draft(state: DraftState) -> None:
    if not state.exists:
        raise NotFound("no such draft")


def require_ready(state: DraftState) -> None:
    require_draft(state)
    if state.status in IN_PROGRESS:
        raise Conflict(f"the draft is still {state.status}; poll get_draft until its status is ready")
    if state.status == "failed":
        reason = (state.failure or {}).get("reason", "failed")
        raise Conflict(f"drafting failed ({reason}); submit the site again to start a new draft")


