"""Read table of drafts: one row per draft holding its get_draft document (jsonb), plus what lists and the sweeper need.

`owners` (the submitting account and accepted co-founders) decides who may
read a draft. `work_at` is when pending background work (crawl, draft,
regeneration, competitor read) last made progress, NULL when nothing is
pending: the sweeper re-queues or times out rows whose `work_at` is old.
The handlers apply the results events carry; they never decide anything.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from psycopg import Cursor
from psycopg.types.json import Jsonb

from events.draft import (
    DraftCofounderInvited,
    DraftCompetitorCleared,
    DraftCompetitorCompared,
    DraftCompetitorFailed,
    DraftCompetitorSet,
    DraftCompletenessChanged,
    DraftCrawlAttemptFailed,
    DraftCrawled,
    DraftCrawlStarted,
    DraftDiscarded,
    DraftDraftingStarted,
    DraftFailed,
    DraftFieldDeleted,
    DraftFieldEdited,
    DraftFieldsLocked,
    DraftFieldsRegenerated,
    DraftFieldsRestored,
    DraftFounderSocialsSet,
    DraftInviteAccepted,
    DraftMilestonesSet,
    DraftReady,
    DraftRegenerationFailed,
    DraftRegenerationRequested,
    DraftResubmitted,
    DraftSeoSet,
    DraftStorySet,
    DraftSubmitted,
    DraftSubmittedAsListing,
)
from events.account import AccountClosed
from events.base import Event
from events.draft_fields import SECTIONS
from projections.base import Projection, Tables, handles

Doc = dict[str, Any]


def _empty_section(name: str) -> Any:
    return {} if name == "company_socials" else []


def _put_slot(doc: Doc, name: str, slot: dict[str, Any]) -> None:
    if name in SECTIONS:
        doc[name] = slot.get("value") or _empty_section(name)
        doc["section_states"][name] = slot["state"]
    else:
        doc["fields"][name] = {"value": slot.get("value"), "state": slot["state"], "evidence": slot.get("evidence") or []}


def _set_state(doc: Doc, name: str, state: str) -> None:
    if name in SECTIONS:
        doc["section_states"][name] = state
    elif name in doc["fields"]:
        doc["fields"][name]["state"] = state
    else:
        doc["fields"][name] = {"value": None, "state": state, "evidence": []}


def _pending(doc: Doc) -> bool:
    return doc["status"] in ("crawling", "drafting") or bool(doc["regenerating"]) or (
        doc["competitor"] is not None and doc["competitor"]["status"] == "pending")


class DraftView(Projection):
    name = "draft_view"
    tables = ("drafts",)

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        table = t["drafts"]
        cur.execute(
            f"""CREATE TABLE {table} (
                id uuid PRIMARY KEY, account_id text NOT NULL, owners text[] NOT NULL, site text NOT NULL,
                status text NOT NULL, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
                work_at timestamptz, doc jsonb NOT NULL)"""
        )
        cur.execute(f"CREATE INDEX {table}_owners ON {table} USING gin (owners)")
        cur.execute(f"CREATE INDEX {table}_created ON {table} (created_at DESC, id)")
        cur.execute(f"CREATE INDEX {table}_work ON {table} (work_at) WHERE work_at IS NOT NULL")

    # ------------------------------------------------------------ helpers

    def _change(self, cur: Cursor[Any], t: Tables, e: Event, change: Callable[[Doc], None]) -> None:
        row = cur.execute(f"SELECT doc, work_at FROM {t['drafts']} WHERE id=%s", (e.originator_id,)).fetchone()
        if row is None:
            return
        doc, work_at = row
        change(doc)
        doc["updated_at"] = e.timestamp.isoformat()
        progress = isinstance(e, (DraftCrawlStarted, DraftCrawlAttemptFailed, DraftCrawled, DraftDraftingStarted))
        if not _pending(doc):
            work_at = None
        elif progress or work_at is None:
            work_at = e.timestamp
        cur.execute(
            f"UPDATE {t['drafts']} SET doc=%s, status=%s, owners=%s, updated_at=%s, work_at=%s WHERE id=%s",
            (Jsonb(doc), doc["status"], doc["owners"], e.timestamp, work_at, e.originator_id),
        )

    # ------------------------------------------------------------ pipeline

    @handles(DraftSubmitted)
    def _submitted(self, cur: Cursor[Any], t: Tables, e: DraftSubmitted) -> None:
        at = e.timestamp.isoformat()
        doc: Doc = {
            "id": str(e.originator_id), "status": "crawling", "url": e.url, "site": e.site, "final_url": None,
            "created_at": at, "updated_at": at, "failure": None, "drafter": None,
            "crawl": {"attempts": 0, "pages": [], "skipped": 0, "last_error": None},
            "completeness": 0, "missing": [], "not_found_on_website": [],
            "fields": {}, "faqs": [], "founders": [], "company_socials": {}, "section_states": {},
            "founder_socials": {}, "story": {}, "milestones": [], "seo": {},
            "competitor": None, "regenerating": [], "last_regeneration": None,
            "invites": [], "owners": [e.account_id], "listing_id": None, "listing_slug": None, "submitted_at": None,
        }
        cur.execute(
            f"INSERT INTO {t['drafts']} (id, account_id, owners, site, status, created_at, updated_at, work_at, doc) "
            "VALUES (%s,%s,%s,%s,'crawling',%s,%s,%s,%s) ON CONFLICT (id) DO NOTHING",
            (e.originator_id, e.account_id, [e.account_id], e.site, e.timestamp, e.timestamp, e.timestamp, Jsonb(doc)),
        )

    @handles(DraftCrawlStarted)
    def _crawl_started(self, cur: Cursor[Any], t: Tables, e: DraftCrawlStarted) -> None:
        self._change(cur, t, e, lambda doc: doc["crawl"].update(attempts=e.attempt))

    @handles(DraftCrawlAttemptFailed)
    def _crawl_attempt_failed(self, cur: Cursor[Any], t: Tables, e: DraftCrawlAttemptFailed) -> None:
        self._change(cur, t, e, lambda doc: doc["crawl"].update(last_error={"reason": e.reason, "detail": e.detail}))

    @handles(DraftCrawled)
    def _crawled(self, cur: Cursor[Any], t: Tables, e: DraftCrawled) -> None:
        def change(doc: Doc) -> None:
            doc.update(status="drafting", final_url=e.final_url)
            doc["crawl"].update(pages=e.pages, skipped=e.skipped, bytes=e.bytes)

        self._change(cur, t, e, change)

    @handles(DraftDraftingStarted)
    def _drafting(self, cur: Cursor[Any], t: Tables, e: DraftDraftingStarted) -> None:
        self._change(cur, t, e, lambda doc: doc.update(drafter=e.drafter))

    @handles(DraftReady)
    def _ready(self, cur: Cursor[Any], t: Tables, e: DraftReady) -> None:
        def change(doc: Doc) -> None:
            doc.update(status="ready", drafter=e.drafter, completeness=e.completeness, missing=e.missing,
                       not_found_on_website=e.not_found_on_website, fields={})
            for name, slot in e.fields.items():
                _put_slot(doc, name, slot)
            for name, value in (("faqs", e.faqs), ("founders", e.founders), ("company_socials", e.company_socials)):
                _put_slot(doc, name, {"value": value, "state": "ai" if value else "not_found"})
            # the link each piece of evidence is for: an edited link no longer has it (queries.drafts.present)
            doc["social_sources"] = {k: {"url": e.company_socials[k], "evidence": v}
                                     for k, v in (getattr(e, "social_evidence", None) or {}).items() if k in e.company_socials}

        self._change(cur, t, e, change)

    @handles(DraftFailed)
    def _failed(self, cur: Cursor[Any], t: Tables, e: DraftFailed) -> None:
        failure = {"reason": e.reason, "detail": e.detail, "stage": e.stage}
        self._change(cur, t, e, lambda doc: doc.update(status="failed", failure=failure))

    # ------------------------------------------------------------ edits

    @handles(DraftFieldEdited)
    def _edited(self, cur: Cursor[Any], t: Tables, e: DraftFieldEdited) -> None:
        self._change(cur, t, e, lambda doc: _put_slot(doc, e.field, {"value": e.value, "state": e.state}))

    @handles(DraftFieldDeleted)
    def _deleted(self, cur: Cursor[Any], t: Tables, e: DraftFieldDeleted) -> None:
        self._change(cur, t, e, lambda doc: _put_slot(doc, e.field, {"value": None, "state": "deleted"}))

    @handles(DraftFieldsLocked)
    def _locked(self, cur: Cursor[Any], t: Tables, e: DraftFieldsLocked) -> None:
        def change(doc: Doc) -> None:
            for name in e.fields:
                _set_state(doc, name, "override")

        self._change(cur, t, e, change)

    @handles(DraftFieldsRestored)
    def _restored(self, cur: Cursor[Any], t: Tables, e: DraftFieldsRestored) -> None:
        def change(doc: Doc) -> None:
            for name, slot in e.fields.items():
                _put_slot(doc, name, slot)

        self._change(cur, t, e, change)

    @handles(DraftRegenerationRequested)
    def _regen_requested(self, cur: Cursor[Any], t: Tables, e: DraftRegenerationRequested) -> None:
        def change(doc: Doc) -> None:
            if e.fields:
                doc["regenerating"].append({"request_id": e.request_id, "fields": e.fields,
                                            "requested_at": e.timestamp.isoformat()})
            doc["last_regeneration"] = {"request_id": e.request_id, "status": "pending" if e.fields else "done",
                                        "fields": e.fields, "skipped": e.skipped, "failure": None}

        self._change(cur, t, e, change)

    def _regen_done(self, doc: Doc, request_id: str, outcome: dict[str, Any]) -> None:
        doc["regenerating"] = [r for r in doc["regenerating"] if r["request_id"] != request_id]
        last = doc.get("last_regeneration")
        if last is not None and last["request_id"] == request_id:
            last.update(outcome)

    @handles(DraftFieldsRegenerated)
    def _regenerated(self, cur: Cursor[Any], t: Tables, e: DraftFieldsRegenerated) -> None:
        def change(doc: Doc) -> None:
            for name, slot in e.fields.items():
                _put_slot(doc, name, slot)
            skipped = sorted(set(e.skipped) | set((doc.get("last_regeneration") or {}).get("skipped") or []))
            self._regen_done(doc, e.request_id, {"status": "done", "fields": list(e.fields), "skipped": skipped})
            doc["drafter"] = e.drafter

        self._change(cur, t, e, change)

    @handles(DraftRegenerationFailed)
    def _regen_failed(self, cur: Cursor[Any], t: Tables, e: DraftRegenerationFailed) -> None:
        outcome = {"status": "failed", "failure": {"reason": e.reason, "detail": e.detail}}
        self._change(cur, t, e, lambda doc: self._regen_done(doc, e.request_id, outcome))

    @handles(DraftFounderSocialsSet)
    def _founder_socials(self, cur: Cursor[Any], t: Tables, e: DraftFounderSocialsSet) -> None:
        self._change(cur, t, e, lambda doc: doc.update(founder_socials=e.founder_socials))

    @handles(DraftStorySet)
    def _story(self, cur: Cursor[Any], t: Tables, e: DraftStorySet) -> None:
        self._change(cur, t, e, lambda doc: doc.update(story=e.story))

    @handles(DraftMilestonesSet)
    def _milestones(self, cur: Cursor[Any], t: Tables, e: DraftMilestonesSet) -> None:
        self._change(cur, t, e, lambda doc: doc.update(milestones=e.milestones))

    @handles(DraftSeoSet)
    def _seo(self, cur: Cursor[Any], t: Tables, e: DraftSeoSet) -> None:
        self._change(cur, t, e, lambda doc: doc.update(seo=e.seo))

    @handles(DraftCompletenessChanged)
    def _completeness(self, cur: Cursor[Any], t: Tables, e: DraftCompletenessChanged) -> None:
        self._change(cur, t, e, lambda doc: doc.update(
            completeness=e.completeness, missing=e.missing, not_found_on_website=e.not_found_on_website))

    # ------------------------------------------------------------ competitor

    @handles(DraftCompetitorSet)
    def _competitor_set(self, cur: Cursor[Any], t: Tables, e: DraftCompetitorSet) -> None:
        competitor = {"url": e.url, "status": "pending", "requested_at": e.timestamp.isoformat(),
                      "comparison": None, "failure": None}
        self._change(cur, t, e, lambda doc: doc.update(competitor=competitor))

    @handles(DraftCompetitorCompared)
    def _competitor_compared(self, cur: Cursor[Any], t: Tables, e: DraftCompetitorCompared) -> None:
        def change(doc: Doc) -> None:
            if doc["competitor"] is not None:
                doc["competitor"].update(status="compared", comparison=e.comparison)

        self._change(cur, t, e, change)

    @handles(DraftCompetitorFailed)
    def _competitor_failed(self, cur: Cursor[Any], t: Tables, e: DraftCompetitorFailed) -> None:
        def change(doc: Doc) -> None:
            if doc["competitor"] is not None:
                doc["competitor"].update(status="failed", failure={"reason": e.reason, "detail": e.detail})

        self._change(cur, t, e, change)

    @handles(DraftCompetitorCleared)
    def _competitor_cleared(self, cur: Cursor[Any], t: Tables, e: DraftCompetitorCleared) -> None:
        self._change(cur, t, e, lambda doc: doc.update(competitor=None))

    # ------------------------------------------------------------ co-founders and the listing

    @handles(DraftCofounderInvited)
    def _invited(self, cur: Cursor[Any], t: Tables, e: DraftCofounderInvited) -> None:
        invite = {"id": e.invite_id, "email": e.email, "status": "pending", "invited_at": e.timestamp.isoformat(),
                  "expires_at": e.expires_at.isoformat()}
        self._change(cur, t, e, lambda doc: doc["invites"].append(invite))

    @handles(DraftInviteAccepted)
    def _accepted(self, cur: Cursor[Any], t: Tables, e: DraftInviteAccepted) -> None:
        def change(doc: Doc) -> None:
            for invite in doc["invites"]:
                if invite["id"] == e.invite_id:
                    invite["status"] = "accepted"
            if e.account_id not in doc["owners"]:
                doc["owners"].append(e.account_id)

        self._change(cur, t, e, change)

    @handles(DraftSubmittedAsListing)
    def _listed(self, cur: Cursor[Any], t: Tables, e: DraftSubmittedAsListing) -> None:
        self._change(cur, t, e, lambda doc: doc.update(
            listing_id=e.listing_id, listing_slug=e.slug, submitted_at=e.timestamp.isoformat()))

    @handles(DraftResubmitted)
    def _resubmitted(self, cur: Cursor[Any], t: Tables, e: DraftResubmitted) -> None:
        self._change(cur, t, e, lambda doc: doc.update(submitted_at=e.timestamp.isoformat()))

    # ------------------------------------------------------------ closed accounts

    @handles(DraftDiscarded)
    def _discarded(self, cur: Cursor[Any], t: Tables, e: DraftDiscarded) -> None:
        cur.execute(f"DELETE FROM {t['drafts']} WHERE id = %s", (e.originator_id,))

    @handles(AccountClosed)
    def _account_closed(self, cur: Cursor[Any], t: Tables, e: AccountClosed) -> None:
        """Drafts that stay (co-owned, or saved as a listing) name the former member instead of the account."""
        me, former = str(e.originator_id), e.former_account
        cur.execute(
            f"""UPDATE {t['drafts']} SET owners = array_replace(owners, %s, %s),
                    account_id = CASE WHEN account_id = %s THEN %s ELSE account_id END,
                    doc = jsonb_set(doc, '{{owners}}', to_jsonb(array_replace(owners, %s, %s)))
                WHERE owners @> ARRAY[%s]::text[]""",
            (me, former, me, former, me, former, me),
        )
