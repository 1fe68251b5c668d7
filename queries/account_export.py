"""Everything launchdir holds about one person, as one JSON document ("Download my data").

Read from the read tables only, each section from the projection that owns it, and only rows
tied to the person's own account id: another person's data never appears, not even on a listing
the two own together (its edit history here is the person's own edits only). docs/identity.md,
"Downloading your data", documents each section. Never here: password hashes, API key secrets or
their hashes, OAuth tokens, email-link tokens.

Sections that live outside the read tables are added by the caller: `sessions` (the website's
session table) and each API key's `last_used_at` (the key-usage table).
"""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

from projections.reads import ReadStore

FORMAT = "launchdir-account-export/1"
ACCOUNTS, DRAFTS, LISTINGS, HISTORY = "accounts_view", "draft_view", "listing_view", "history_view"
ORDERS, CLAIMS, LAUNCHES, REVIEWS = "orders_view", "claims_view", "launches_view", "reviews_view"
CONTENT, INTERVIEW, MAIL, OAUTH, UPDATES = "content_view", "interview_view", "mail_view", "oauth_view", "updates_view"
VIEWS = (ACCOUNTS, DRAFTS, LISTINGS, HISTORY, ORDERS, CLAIMS, LAUNCHES, REVIEWS, CONTENT, INTERVIEW, MAIL, OAUTH,
         UPDATES)
HIDDEN_ORDER_FIELDS = ("token", "account_id", "provider", "reference")  # the checkout secret and payment internals


def _iso(value: Any) -> Any:
    """Times and dates as ISO 8601 text, so the document is plain JSON."""
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return value


def _rows(reads: ReadStore, view: str, sql: str, args: tuple[Any, ...], names: tuple[str, ...]) -> list[dict[str, Any]]:
    """Rows of one projection's tables (`{name}` in `sql` is a logical table), as dicts; [] when it does not run here."""
    if view not in reads.runtime.projections:
        return []
    t = reads.tables(view)
    tables = {name: t[name] for name in _logical(sql)}
    with reads.pool.connection() as conn:
        found = conn.execute(sql.format(**tables), args).fetchall()
    return [{k: _iso(v) for k, v in zip(names, row, strict=True)} for row in found]


def _logical(sql: str) -> list[str]:
    return [part.split("}", 1)[0] for part in sql.split("{")[1:]]


def account_export(reads: ReadStore, account_id: str, now: datetime) -> dict[str, Any] | None:
    """The whole document for `account_id`, or None when the account is not (or no longer) known."""
    me = _rows(reads, ACCOUNTS, "SELECT email, created_at, email_verified, is_staff FROM {accounts} "
               "WHERE account_id = %s", (account_id,), ("email", "created_at", "email_verified", "is_staff"))
    if not me:
        return None
    owned = _owned_listings(reads, account_id)
    return {
        "format": FORMAT,
        "exported_at": now.isoformat(),
        "account": {"account_id": account_id, **me[0]},
        "api_keys": api_keys(reads, account_id),
        "connected_apps": connected_apps(reads, account_id),
        "sessions": [],
        "drafts": drafts(reads, account_id),
        "listings": owned,
        "orders": orders(reads, account_id),
        "claims": claims(reads, account_id),
        "votes": votes(reads, account_id),
        "reviews": reviews(reads, account_id),
        "following": following(reads, account_id),
        "founder_profile": founder_profile(reads, account_id),
        "emails": emails(reads, account_id),
    }


def api_keys(reads: ReadStore, account_id: str) -> list[dict[str, Any]]:
    """Name, scopes, created, expiry, revoked: never the secret nor its hash."""
    return _rows(reads, ACCOUNTS, "SELECT key_id, name, scopes, created_at, expires_at, revoked_at FROM {api_keys} "
                 "WHERE account_id = %s ORDER BY created_at, key_id", (account_id,),
                 ("key_id", "name", "scopes", "created_at", "expires_at", "revoked_at"))


def connected_apps(reads: ReadStore, account_id: str) -> list[dict[str, Any]]:
    """Every OAuth client the person consented to, with the scopes granted, revoked or not: no tokens."""
    return _rows(reads, OAUTH, "SELECT client_name, client_host, client_kind, scopes, first_consent_at, "
                 "last_consent_at, revoked_at FROM {grants} WHERE account_id = %s ORDER BY first_consent_at, grant_id",
                 (account_id,), ("client_name", "client_host", "client_kind", "scopes", "first_consent_at",
                                 "last_consent_at", "revoked_at"))


def drafts(reads: ReadStore, account_id: str) -> list[dict[str, Any]]:
    """Drafts the person submitted or co-owns, as their draft pages show them; invites without the invitees' addresses."""
    found = _rows(reads, DRAFTS, "SELECT doc FROM {drafts} WHERE owners @> ARRAY[%s]::text[] ORDER BY created_at, id",
                  (account_id,), ("doc",))
    out = []
    for row in found:
        doc = dict(row["doc"])
        doc.pop("owners", None)  # other owners' account ids are theirs
        doc["invites"] = [{k: i.get(k) for k in ("status", "invited_at", "expires_at")}  # not whom: their address
                          for i in doc.get("invites") or [] if isinstance(i, dict)]
        out.append(doc)
    return out


def _owned_listings(reads: ReadStore, account_id: str) -> list[dict[str, Any]]:
    """Listings the person owns: the profile as owners see it, and the person's own edits to it."""
    found = _rows(reads, LISTINGS, "SELECT listing_id, state FROM {profiles} WHERE state->'owner_ids' @> %s::jsonb "
                  "ORDER BY listing_id", (json.dumps([account_id]),), ("listing_id", "state"))
    out = []
    for row in found:
        state = row["state"]
        out.append({
            "listing_id": row["listing_id"], "slug": state.get("slug"), "status": state.get("status"),
            "plan": state.get("plan"), "launch_week": state.get("week"), "created_at": state.get("created_at"),
            "co_owners": len(state.get("owner_ids") or []) - 1,  # how many, never who
            "profile": state.get("profile"), "categories": state.get("categories"), "socials": state.get("socials"),
            "faqs": state.get("faqs"), "founders": state.get("founders"), "story": state.get("story"),
            "milestones": state.get("milestones"),
            "my_edits": my_edits(reads, account_id, int(row["listing_id"])),
        })
    return out


def my_edits(reads: ReadStore, account_id: str, listing_id: int) -> list[dict[str, Any]]:
    """The listing's versions the person made (not their co-owners', not staff's), oldest first."""
    return _rows(reads, HISTORY, "SELECT version_id, at, channel, kind, changes FROM {versions} "
                 "WHERE listing_id = %s AND actor = %s ORDER BY version_id", (listing_id, f"account:{account_id}"),
                 ("version_id", "at", "channel", "kind", "changes"))


def orders(reads: ReadStore, account_id: str) -> list[dict[str, Any]]:
    """Orders with their lines, totals, VAT, billing details and receipt number (no checkout secret)."""
    found = _rows(reads, ORDERS, "SELECT doc FROM {orders} WHERE account_id = %s ORDER BY seq", (account_id,), ("doc",))
    return [{k: v for k, v in row["doc"].items() if k not in HIDDEN_ORDER_FIELDS} for row in found]


def claims(reads: ReadStore, account_id: str) -> list[dict[str, Any]]:
    """Ownership claims the person started: listing, method, domain, status, when (not the proof token)."""
    return _rows(reads, CLAIMS, "SELECT claim_id, slug, method, domain, email, status, attempts, started_at, "
                 "closed_at FROM {claims} WHERE account_id = %s ORDER BY claim_id", (account_id,),
                 ("claim_id", "slug", "method", "domain", "email", "status", "attempts", "started_at", "closed_at"))


def votes(reads: ReadStore, account_id: str) -> list[dict[str, Any]]:
    """Votes that stand: which listing, and when."""
    return _rows(reads, LAUNCHES, "SELECT v.listing_id, l.slug, l.name, v.cast_at FROM {votes} v "
                 "LEFT JOIN {listings} l ON l.id = v.listing_id WHERE v.account_id = %s ORDER BY v.cast_at",
                 (account_id,), ("listing_id", "slug", "name", "cast_at"))


def reviews(reads: ReadStore, account_id: str) -> list[dict[str, Any]]:
    """Reviews the person wrote, with their state (shown, waiting, hidden by staff and why)."""
    return _rows(reads, REVIEWS, "SELECT review_id, listing_id, rating, text, state, written_at, edited_at, "
                 "hidden_reason FROM {reviews} WHERE account_id = %s ORDER BY written_at", (account_id,),
                 ("review_id", "listing_id", "rating", "text", "state", "written_at", "edited_at", "hidden_reason"))


def following(reads: ReadStore, account_id: str) -> list[dict[str, Any]]:
    """Listings the person follows (their updates are mailed), since when."""
    return _rows(reads, UPDATES, "SELECT f.listing_id, l.slug, f.since FROM {followers} f "
                 "LEFT JOIN {listings} l ON l.listing_id = f.listing_id WHERE f.account_id = %s ORDER BY f.since",
                 (account_id,), ("listing_id", "slug", "since"))


def founder_profile(reads: ReadStore, account_id: str) -> dict[str, Any]:
    """The founder profile linked to the account (if staff made one) and the founder-interview answers."""
    profile = _rows(reads, CONTENT, "SELECT slug, name, bio, country, socials, avatar_url, created_at, updated_at "
                    "FROM {founders} WHERE account_id = %s ORDER BY slug", (account_id,),
                    ("slug", "name", "bio", "country", "socials", "avatar_url", "created_at", "updated_at"))
    answers = _rows(reads, INTERVIEW, "SELECT question_id, answer, answered_at FROM {answers} WHERE account_id = %s "
                    "ORDER BY question_id", (account_id,), ("question_id", "answer", "answered_at"))
    return {"profiles": profile, "interview_answers": answers}


def emails(reads: ReadStore, account_id: str) -> list[dict[str, Any]]:
    """Mail sent (or being sent) to the person: subject, kind, when; not the bodies, whose links are secrets."""
    return _rows(reads, MAIL, "SELECT subject, kind, status, queued_at, sent_at FROM {outbox} WHERE account_id = %s "
                 "ORDER BY seq", (account_id,), ("subject", "kind", "status", "queued_at", "sent_at"))


def closing(reads: ReadStore, account_id: str, now: datetime) -> dict[str, Any]:
    """What closing the account would touch, for its page and its command (each decided again on the write side).

    `listings` carry `outcome`: `left` (co-owned: the others keep it; or taken down by staff),
    `orphaned` (live and owned alone: stays public, claimable) or `discarded` (never public, owned alone).
    """
    found = _rows(reads, LISTINGS, "SELECT listing_id, state FROM {profiles} WHERE state->'owner_ids' @> %s::jsonb "
                  "ORDER BY listing_id", (json.dumps([account_id]),), ("listing_id", "state"))
    listings = []
    for row in found:
        state = row["state"]
        owners, status = len(state.get("owner_ids") or []), str(state.get("status") or "")
        outcome = ("left" if owners > 1 or status == "unpublished" else "orphaned" if status == "live" else "discarded")
        listings.append({"listing_id": row["listing_id"], "slug": state.get("slug"), "status": status,
                         "name": str((state.get("profile") or {}).get("name") or state.get("slug") or ""),
                         "outcome": outcome})
    draft_rows = _rows(reads, DRAFTS, "SELECT id, site FROM {drafts} WHERE account_id = %s AND doc->>'listing_id' "
                       "IS NULL ORDER BY created_at, id", (account_id,), ("draft_id", "site"))
    grants = _rows(reads, OAUTH, "SELECT grant_id FROM {grants} WHERE account_id = %s", (account_id,), ("grant_id",))
    pending = _rows(reads, ORDERS, "SELECT number FROM {orders} WHERE account_id = %s AND status = 'pending' "
                    "AND expires_at > %s ORDER BY seq", (account_id, now), ("number",))
    return {"listings": listings, "drafts": [{**d, "draft_id": str(d["draft_id"])} for d in draft_rows],
            "grant_ids": [g["grant_id"] for g in grants], "pending_orders": [o["number"] for o in pending]}
