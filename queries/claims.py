"""Claim reads: list_my_claims, the claim answered by claim_listing and verify_claim, and the staff's list.

Instructions are written here, from the claim's row, so every door says the
same thing: the exact TXT record, meta tag or file (with the token), or where
the emailed link went. A pending claim past its expiry reads as `expired`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, Field

from events.claim import DNS_LABEL, FILE_PATH, META_NAME, STATUSES
from events.errors import NotFound
from projections.reads import ReadStore
from queries.paging import PageInfo, Paging, page_of

VIEW = "claims_view"
MAX_ATTEMPTS = 20  # aggregates.claim.MAX_ATTEMPTS (queries do not import aggregates)
COLUMNS = ("claim_id, listing_id, slug, account_id, method, domain, website_url, token, email, status, attempts, "
           "last_reason, last_detail, last_checked_at, started_at, expires_at, closed_at")


class ListMyClaims(Paging):
    """Your claims, newest first, with their status and what to publish."""


class DnsRecord(BaseModel):
    type: str = Field(description="Always `TXT`.")
    name: str = Field(description="The full record name, e.g. `_launchdir-challenge.example.com`.")
    value: str = Field(description="The record's value: this claim's token.")


class MetaTag(BaseModel):
    page: str = Field(description="The homepage that must carry the tag.")
    tag: str = Field(description="The exact tag to put in the page's <head>.")


class VerificationFile(BaseModel):
    url: str = Field(description="Where the file must be served (http 200, text/plain).")
    content: str = Field(description="What the file must hold: this claim's token (a line of its own).")


class EmailSent(BaseModel):
    sent_to: str = Field(description="The address the confirmation link was sent to.")


class Instructions(BaseModel):
    summary: str = Field(description="What to do, in one paragraph for a person.")
    dns: DnsRecord | None = None
    meta: MetaTag | None = None
    file: VerificationFile | None = None
    email: EmailSent | None = None


class Claim(BaseModel):
    claim_id: int
    status: str = Field(description="`pending`, `verified`, `expired`, `failed` (its checks used up) or `voided` "
                                   "(staff undid a verified claim; `reason_detail` says why).")
    method: str = Field(description="`dns`, `meta`, `file` or `email`.")
    listing_id: int
    slug: str
    domain: str = Field(description="The listing's registrable domain, on which the claim is proven.")
    instructions: Instructions
    created_at: datetime
    expires_at: datetime
    verified_at: datetime | None
    attempts: int = Field(description="Checks made so far (verify_claim).")
    attempts_left: int
    reason: str | None = Field(description="Why it is not verified (last check or end): `record_not_found`, "
                                           "`wrong_value`, `unreachable`, `timeout`, `blocked`, `expired`, "
                                           "`too_many_attempts`, `voided`; null when none.")
    reason_detail: str | None
    last_checked_at: datetime | None


class ClaimPage(PageInfo):
    items: list[Claim]


class StartedClaim(Claim):
    repeated: bool = Field(description="True when this answers a pending claim you had already started.")


class CheckedClaim(Claim):
    checked: bool = Field(description="False when nothing was checked: the claim is closed, or it is an email claim.")


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def instructions(row: dict[str, Any], status: str) -> dict[str, Any]:
    """What to publish (or where the link went), for a person and for a program."""
    method, token, domain = row["method"], row["token"], row["domain"]
    doc: dict[str, Any] = {"dns": None, "meta": None, "file": None, "email": None}
    if method == "dns":
        name = f"{DNS_LABEL}.{domain}"
        doc["dns"] = {"type": "TXT", "name": name, "value": token}
        todo = (f"At your DNS provider, add a TXT record named {name} with the value {token}, then call "
                "verify_claim (a new record can take a few minutes to be visible).")
    elif method == "meta":
        tag = f'<meta name="{META_NAME}" content="{token}">'
        doc["meta"] = {"page": row["website_url"], "tag": tag}
        todo = f"Put this tag in the <head> of {row['website_url']}, then call verify_claim: {tag}"
    elif method == "file":
        url = _origin(row["website_url"]) + FILE_PATH
        doc["file"] = {"url": url, "content": token}
        todo = f"Serve a plain text file at {url} that holds {token} on a line of its own, then call verify_claim."
    else:
        doc["email"] = {"sent_to": row["email"]}
        todo = (f"We sent a link to {row['email']}. Open it and press Confirm before the claim expires; "
                "verify_claim is not needed for an email claim.")
    if status == "verified":
        todo = f"Verified: you are an owner of this listing (listing_id {row['listing_id']}; see get_my_listing)."
    elif status == "expired":
        todo = "This claim expired before it was verified. Start a new one with claim_listing. " + todo
    elif status == "failed":
        todo = "This claim used all its checks. Start a new one with claim_listing. " + todo
    elif status == "voided":
        todo = (f"The site team voided this claim ({row['last_detail']}); you are no longer an owner of this listing "
                "through it.")
    return {"summary": todo, **doc}


def _doc(r: tuple[Any, ...], now: datetime) -> dict[str, Any]:
    row = dict(zip([c.strip() for c in COLUMNS.split(",")], r))
    status, reason, detail = row["status"], row["last_reason"], row["last_detail"]
    if status == "pending" and row["expires_at"] <= now:
        status, reason, detail = "expired", "expired", "the claim expired before it was verified"
    if status == "failed":
        reason, detail = "too_many_attempts", f"all {MAX_ATTEMPTS} checks were used; last: {reason}: {detail}"
    return {
        "claim_id": row["claim_id"], "status": status, "method": row["method"], "listing_id": row["listing_id"],
        "slug": row["slug"], "domain": row["domain"], "instructions": instructions(row, status),
        "created_at": row["started_at"], "expires_at": row["expires_at"],
        "verified_at": row["closed_at"] if status in ("verified", "voided") else None,
        "attempts": row["attempts"],
        "attempts_left": 0 if status != "pending" or row["method"] == "email" else max(0, MAX_ATTEMPTS - row["attempts"]),
        "reason": None if status == "verified" else reason, "reason_detail": None if status == "verified" else detail,
        "last_checked_at": row["last_checked_at"],
    }


def get_claim(reads: ReadStore, claim_id: int, account_id: str, now: datetime) -> dict[str, Any]:
    """One of the caller's claims; 404 for anyone else's or none."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT {COLUMNS} FROM {t['claims']} WHERE claim_id = %s AND account_id = %s",
                           (claim_id, account_id)).fetchone()
    if row is None:
        raise NotFound("no such claim among yours")
    return _doc(row, now)


def list_my_claims(reads: ReadStore, account_id: str, paging: Paging, now: datetime) -> dict[str, Any]:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        total = conn.execute(f"SELECT count(*) FROM {t['claims']} WHERE account_id = %s", (account_id,)).fetchone()
        rows = conn.execute(
            f"SELECT {COLUMNS} FROM {t['claims']} WHERE account_id = %s ORDER BY claim_id DESC LIMIT %s OFFSET %s",
            (account_id, paging.per_page, paging.offset),
        ).fetchall()
    return page_of([_doc(r, now) for r in rows], paging, int(total[0]) if total else 0)


def staff_claims(reads: ReadStore, now: datetime, status: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
    """Claims newest first for the site team, optionally of one status, with the claimant's address."""
    if status is not None and status not in STATUSES:
        raise ValueError(f"status must be one of {', '.join(STATUSES)}")
    t = reads.tables(VIEW)
    where, args = {
        None: ("TRUE", []),
        "pending": ("c.status = 'pending' AND c.expires_at > %s", [now]),
        "expired": ("(c.status = 'expired' OR (c.status = 'pending' AND c.expires_at <= %s))", [now]),
    }.get(status, ("c.status = %s", [status]))
    columns = ", ".join(f"c.{c.strip()}" for c in COLUMNS.split(","))
    joined, email = "", "NULL"
    if "accounts_view" in reads.runtime.projections:
        joined = f"LEFT JOIN {reads.tables('accounts_view')['accounts']} a ON a.account_id = c.account_id"
        email = "a.email"
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"SELECT {columns}, {email} FROM {t['claims']} c {joined} WHERE {where} ORDER BY c.claim_id DESC LIMIT %s",
            (*args, limit),
        ).fetchall()
    out = []
    for r in rows:
        doc = _doc(r[:-1], now)
        out.append({**doc, "account_id": r[3], "account_email": r[-1], "email": r[8] or None})
    return out


def verified_claims_of(reads: ReadStore, account: str) -> dict[int, tuple[int, ...]]:
    """Listings `account` (an id, or `former:...` once closed) holds a verified claim on -> every verified claim
    of each (tidying after a closing asks whether another still speaks for the listing)."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"SELECT mine.listing_id, array_agg(every.claim_id ORDER BY every.claim_id) FROM {t['claims']} mine "
            f"JOIN {t['claims']} every ON every.listing_id = mine.listing_id AND every.status = 'verified' "
            f"WHERE mine.account_id = %s AND mine.status = 'verified' GROUP BY mine.listing_id", (account,)
        ).fetchall()
    return {int(r[0]): tuple(int(i) for i in r[1]) for r in rows}


def verified_claim_ids(reads: ReadStore, listing_id: int) -> list[int]:
    """The listing's verified claims (staff voiding one check whether another still speaks for the listing)."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(f"SELECT claim_id FROM {t['claims']} WHERE listing_id = %s AND status = 'verified'",
                            (listing_id,)).fetchall()
    return [int(r[0]) for r in rows]
