"""Events of the Draft aggregate (a product profile drafted from its website) and of its site index.

A draft is one stream (its id is the draft id). Profile parts are *slots*:
the eighteen `fields` of SPEC §4.4 plus the sections `faqs`, `founders` and
`company_socials`. A slot is carried in events as a plain dict
``{"value": ..., "state": ..., "evidence": [{"url", "quote", "source"}]}``
with the state it ends in, so projections apply results and never decide.

Events stay small: the crawl itself (up to megabytes of page text) is kept in
the `launchdir_draft_crawls` table, keyed by draft id and crawl id;
`DraftCrawled` names it by id and SHA-256 digest (see docs/submission.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from events.base import Event

# ---------------------------------------------------------------- the site index stream


@dataclass(frozen=True, kw_only=True)
class DraftSiteClaimed(Event):
    """On the (account, site) stream: this draft is now the account's draft of that site."""

    account_id: str
    site: str
    draft_id: str


# ---------------------------------------------------------------- pipeline


@dataclass(frozen=True, kw_only=True)
class DraftSubmitted(Event):
    draft_id: UUID
    account_id: str
    url: str  # as submitted (stripped)
    site: str  # normalised: lower-case host without "www.", plus a non-default port


@dataclass(frozen=True, kw_only=True)
class DraftCrawlStarted(Event):
    attempt: int


@dataclass(frozen=True, kw_only=True)
class DraftCrawlAttemptFailed(Event):
    """One crawl attempt failed in a way that may pass (the job retries); the reason is kept."""

    attempt: int
    reason: str
    detail: str


@dataclass(frozen=True, kw_only=True)
class DraftCrawled(Event):
    crawl_id: str
    final_url: str
    site: str
    pages: list[str]  # URLs of the fetched pages, homepage first
    skipped: int
    bytes: int
    digest: str  # sha256 of the stored crawl JSON


@dataclass(frozen=True, kw_only=True)
class DraftDraftingStarted(Event):
    drafter: str


@dataclass(frozen=True, kw_only=True)
class DraftReady(Event):
    crawl_id: str
    drafter: str
    fields: dict[str, dict[str, Any]]  # the 18 field names -> slot dict
    faqs: list[dict[str, Any]]
    founders: list[dict[str, Any]]
    company_socials: dict[str, str]
    not_found_on_website: list[str]
    completeness: int
    missing: list[str]
    dropped: int  # candidate values that failed the evidence check (audit)
    # per company_socials key, where the site shows the link: [{url, quote, source}] (absent in older events)
    social_evidence: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class DraftFailed(Event):
    reason: str  # site_unreachable, robots_forbidden, not_html, too_large, blocked_address, drafting_failed, timeout...
    detail: str
    stage: str  # "crawl" | "draft" | "timeout"


# ---------------------------------------------------------------- edits (update_draft)


@dataclass(frozen=True, kw_only=True)
class DraftFieldEdited(Event):
    """A slot set by the user; `state` is `edited`, `manual` or (still locked) `override`."""

    field: str
    value: Any
    state: str


@dataclass(frozen=True, kw_only=True)
class DraftFieldDeleted(Event):
    field: str


@dataclass(frozen=True, kw_only=True)
class DraftFieldsLocked(Event):
    fields: list[str]


@dataclass(frozen=True, kw_only=True)
class DraftFieldsRestored(Event):
    fields: dict[str, dict[str, Any]]  # name -> the AI's slot put back (state `ai` or `not_found`)


@dataclass(frozen=True, kw_only=True)
class DraftRegenerationRequested(Event):
    request_id: str
    fields: list[str]  # to redraft from the stored crawl
    skipped: list[str]  # locked (`override`) slots, never redrafted


@dataclass(frozen=True, kw_only=True)
class DraftFieldsRegenerated(Event):
    request_id: str
    drafter: str
    fields: dict[str, dict[str, Any]]  # applied slots
    skipped: list[str]  # locked or changed by the user since the request


@dataclass(frozen=True, kw_only=True)
class DraftRegenerationFailed(Event):
    request_id: str
    reason: str
    detail: str


@dataclass(frozen=True, kw_only=True)
class DraftFounderSocialsSet(Event):
    founder_socials: dict[str, str]


@dataclass(frozen=True, kw_only=True)
class DraftStorySet(Event):
    story: dict[str, str]


@dataclass(frozen=True, kw_only=True)
class DraftMilestonesSet(Event):
    milestones: list[dict[str, str]]


@dataclass(frozen=True, kw_only=True)
class DraftSeoSet(Event):
    seo: dict[str, str]


@dataclass(frozen=True, kw_only=True)
class DraftCompletenessChanged(Event):
    completeness: int
    missing: list[str]
    not_found_on_website: list[str]


# ---------------------------------------------------------------- competitor


@dataclass(frozen=True, kw_only=True)
class DraftCompetitorSet(Event):
    url: str
    request_id: str


@dataclass(frozen=True, kw_only=True)
class DraftCompetitorCompared(Event):
    request_id: str
    crawl_id: str
    comparison: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class DraftCompetitorFailed(Event):
    request_id: str
    reason: str
    detail: str


@dataclass(frozen=True, kw_only=True)
class DraftCompetitorCleared(Event):
    pass


# ---------------------------------------------------------------- co-founders


@dataclass(frozen=True, kw_only=True)
class DraftCofounderInvited(Event):
    invite_id: str
    email: str
    token_hash: str  # sha256 hex of the secret in the emailed link
    expires_at: datetime


@dataclass(frozen=True, kw_only=True)
class DraftInviteAccepted(Event):
    invite_id: str
    account_id: str


# ---------------------------------------------------------------- the listing


@dataclass(frozen=True, kw_only=True)
class DraftListingCreationStarted(Event):
    """submit_draft is creating the listing (a marker, so a crash before the link is recoverable)."""

    attempt_id: str


@dataclass(frozen=True, kw_only=True)
class DraftSubmittedAsListing(Event):
    listing_id: int
    slug: str
    # what the new listing took from the draft, part by part (`aggregates.draft_listing.sync_parts`): what later
    # syncs compare the draft with. None when the listing was linked afterwards, and in events stored before it.
    sent: dict[str, Any] | None = None


@dataclass(frozen=True, kw_only=True)
class DraftListingSynced(Event):
    """The listing was brought along with the draft: the parts that changed in the draft since it last reached it."""

    listing_id: int
    sent: dict[str, Any]  # part -> the draft's value now; the other parts are as last sent


@dataclass(frozen=True, kw_only=True)
class DraftResubmitted(Event):
    """submit_draft ran again: the same listing was updated from the draft."""

    listing_id: int


@dataclass(frozen=True, kw_only=True)
class DraftDiscarded(Event):
    """The draft was thrown away (`reason`: "account_closed", its submitter closed their account)."""

    reason: str
