"""Draft reads: one draft (its owners only), an account's drafts newest first, and pending work for the sweeper."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from urllib.parse import urlsplit
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

from events.errors import NotFound
from projections.reads import ReadStore
from queries.paging import Paging, page_of

VIEW = "draft_view"


# ---------------------------------------------------------------- inputs


class GetDraft(BaseModel):
    """One of your drafts: status, completeness, what is missing, each field with its state and evidence quotes.

    Poll every few seconds while the status is `crawling` or `drafting`.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: UUID = Field(description="Draft id.")


class ListMyDrafts(Paging):
    """Your drafts, newest first, with status and completeness."""


# ---------------------------------------------------------------- outputs (documentation and MCP output schemas)


class Evidence(BaseModel):
    url: str
    quote: str
    source: str = "text"


class DraftField(BaseModel):
    value: str | list[str] | None
    state: Literal["ai", "not_found", "edited", "manual", "override", "deleted"]
    evidence: list[Evidence]


class DraftFaq(BaseModel):
    question: str
    answer: str
    evidence: list[Evidence] = []


class DraftFounder(BaseModel):
    name: str
    title: str | None = None
    bio: str | None = None
    evidence: list[Evidence] = []


class DraftMilestone(BaseModel):
    date: str
    title: str
    description: str | None = None
    url: str | None = None


class Failure(BaseModel):
    reason: str
    detail: str
    stage: str | None = None


class CrawlInfo(BaseModel):
    attempts: int
    pages: list[str]
    skipped: int
    bytes: int | None = None
    last_error: dict[str, str] | None = None


class Competitor(BaseModel):
    url: str
    status: Literal["pending", "compared", "failed"]
    requested_at: str
    comparison: dict[str, Any] | None
    failure: dict[str, str] | None


class PendingRegeneration(BaseModel):
    request_id: str
    fields: list[str]
    requested_at: str


class LastRegeneration(BaseModel):
    request_id: str
    status: Literal["pending", "done", "failed"]
    fields: list[str]
    skipped: list[str]
    failure: dict[str, str] | None = None


class InviteInfo(BaseModel):
    id: str
    email: str
    status: Literal["pending", "accepted", "expired"]
    invited_at: str
    expires_at: str


class Draft(BaseModel):
    """A draft as get_draft shows it."""

    id: str
    status: Literal["crawling", "drafting", "ready", "failed"]
    url: str
    site: str
    final_url: str | None
    created_at: str
    updated_at: str
    failure: Failure | None
    drafter: str | None
    crawl: CrawlInfo
    completeness: int = Field(ge=0, le=100)
    missing: list[str]
    not_found_on_website: list[str]
    fields: dict[str, DraftField]
    faqs: list[DraftFaq]
    founders: list[DraftFounder]
    company_socials: dict[str, str]
    social_evidence: dict[str, list[Evidence]] = {}  # per drafted link: the page showing it and the link quoted there
    founder_socials: dict[str, str]
    section_states: dict[str, str]
    story: dict[str, str]
    milestones: list[DraftMilestone]
    seo: dict[str, str]
    competitor: Competitor | None
    regenerating: list[PendingRegeneration]
    last_regeneration: LastRegeneration | None
    invites: list[InviteInfo]
    owners: list[str]
    listing_id: int | None
    listing_slug: str | None
    submitted_at: str | None
    submitted_page_read: bool | None = Field(None, description=(
        "Whether the page submitted was read. false: its robots.txt forbids it (or it could not be fetched), so the "
        "draft was made from the site's other pages, starting at its root. null until pages are read."))


class SubmittedDraft(Draft):
    """submit_listing's answer: the draft, and whether it already existed (a repeated submission of the site)."""

    existing: bool


class DraftSummary(BaseModel):
    id: str
    status: str
    url: str
    site: str
    name: str | None
    completeness: int
    missing: list[str]
    failure: Failure | None
    listing_id: int | None
    created_at: str
    updated_at: str


class DraftList(BaseModel):
    items: list[DraftSummary]
    page: int
    per_page: int
    total: int
    has_more: bool


class InviteSent(BaseModel):
    """invite_cofounder's answer: the invite (its link went out by email) and how many invites are left."""

    draft_id: str
    invite: InviteInfo
    invites_left: int


class DraftAsListing(Draft):
    """submit_draft's answer: the draft with its `listing_id`, and whether this call created the listing."""

    created: bool


# ---------------------------------------------------------------- reads


def get_draft(reads: ReadStore, draft_id: UUID, account_id: str, now: datetime) -> dict[str, Any]:
    """The draft document, if `account_id` is one of its owners; NotFound otherwise."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(
            f"SELECT doc FROM {t['drafts']} WHERE id=%s AND owners @> ARRAY[%s]::text[]", (draft_id, account_id)
        ).fetchone()
    if row is None:
        raise NotFound(f"no draft {draft_id}")
    return present(row[0], now)


def present(doc: dict[str, Any], now: datetime) -> dict[str, Any]:
    """Time-dependent parts of the stored document: invites past their expiry show as `expired`."""
    for invite in doc.get("invites") or []:
        if invite["status"] == "pending" and datetime.fromisoformat(invite["expires_at"]) <= now:
            invite["status"] = "expired"
    socials = doc.get("company_socials") or {}
    doc["social_evidence"] = {key: source["evidence"] for key, source in (doc.pop("social_sources", None) or {}).items()
                              if socials.get(key) == source.get("url")}  # a link edited since drafting has none
    doc["submitted_page_read"] = submitted_page_read(doc)
    return doc


def _page(url: Any) -> tuple[str, str]:
    parts = urlsplit(str(url or "").strip())
    return (parts.hostname or "").lower().removeprefix("www."), parts.path.rstrip("/")


def submitted_page_read(doc: dict[str, Any]) -> bool | None:
    """Whether the page the founder submitted is among the pages read (None until the crawl has read any).

    A submitted page robots.txt forbids is never fetched: the crawl starts at
    the site's root instead (docs/crawler.md), and the founder is told so.
    """
    pages = (doc.get("crawl") or {}).get("pages") or []
    if not pages:
        return None
    submitted = _page(doc.get("url"))
    return not submitted[1] or submitted in {_page(p) for p in pages}


def list_my_drafts(reads: ReadStore, account_id: str, paging: Paging) -> dict[str, Any]:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        (total,) = conn.execute(
            f"SELECT count(*) FROM {t['drafts']} WHERE owners @> ARRAY[%s]::text[]", (account_id,)
        ).fetchone()  # type: ignore[misc]
        rows = conn.execute(
            f"SELECT doc FROM {t['drafts']} WHERE owners @> ARRAY[%s]::text[] "
            "ORDER BY created_at DESC, id DESC LIMIT %s OFFSET %s",
            (account_id, paging.per_page, paging.offset),
        ).fetchall()
    return page_of([summary(r[0]) for r in rows], paging, int(total))


def summary(doc: dict[str, Any]) -> dict[str, Any]:
    name = (doc.get("fields") or {}).get("name") or {}
    return {
        "id": doc["id"], "status": doc["status"], "url": doc["url"], "site": doc["site"], "name": name.get("value"),
        "completeness": doc["completeness"], "missing": doc["missing"], "failure": doc["failure"],
        "listing_id": doc["listing_id"], "created_at": doc["created_at"], "updated_at": doc["updated_at"],
    }


def pending_work(reads: ReadStore, idle_since: datetime, limit: int = 100) -> list[UUID]:
    """Drafts whose background work has made no progress since `idle_since` (oldest first), for the sweeper."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"SELECT id FROM {t['drafts']} WHERE work_at IS NOT NULL AND work_at < %s ORDER BY work_at LIMIT %s",
            (idle_since, limit),
        ).fetchall()
    return [r[0] for r in rows]
