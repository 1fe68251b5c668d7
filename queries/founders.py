"""Founders: people behind live listings, with their companies and published stories.

A listing's founder links to a profile when its `founders` entry carries a
`founder_slug` naming the profile. list_founders shows profiles linked to at
least one live listing; get_founder shows any profile, with its live
companies and the founder stories of those listings that are public (the story
section is unlocked, or the listing is on a paid plan), and the interview answers
of the person behind the profile while that person owns a live listing
(`queries/interview.py`).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from events.errors import NotFound
from projections.reads import ReadStore
from queries.interview import InterviewAnswer, public_answers
from queries.paging import SLUG_PATTERN, PageInfo, Paging, page_of

VIEW = "content_view"
STORY_SECTIONS = ("story", "why_started", "problem", "journey", "challenges", "achievements", "lessons", "whats_next")
SHORT_BIO = 280


class ListFounders(Paging):
    """Founders of live listings, by name; filter by name (`q`) or country."""

    q: str | None = Field(None, max_length=120, description="Part of the founder's name (case-insensitive).")
    country: str | None = Field(None, pattern=r"^[A-Za-z]{2}$", description="Two-letter ISO 3166 country code.")


class GetFounder(BaseModel):
    """A founder's profile: bio, socials, the live listings they founded and their published stories."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    slug: str = Field(pattern=SLUG_PATTERN, max_length=220, description="Founder slug.")


class FounderCompany(BaseModel):
    slug: str
    name: str
    tagline: str | None
    logo_url: str | None
    url: str | None
    role: str | None = Field(description="The founder's title at this company, as the listing gives it.")


class FounderSummary(BaseModel):
    slug: str
    name: str
    country: str | None
    avatar_url: str | None
    bio: str = Field(description=f"The first {SHORT_BIO} characters of the bio.")
    companies: list[FounderCompany]


class FounderList(PageInfo):
    items: list[FounderSummary]


class FounderStory(BaseModel):
    listing_slug: str
    listing_name: str
    title: str | None
    sections: dict[str, str] = Field(description="Non-empty story sections: story, why_started, problem, journey, ...")


class FounderProfile(BaseModel):
    slug: str
    name: str
    bio: str
    country: str | None
    avatar_url: str | None
    socials: dict[str, str]
    companies: list[FounderCompany]
    stories: list[FounderStory]
    interview: list[InterviewAnswer] = Field(
        default_factory=list, description="The founder's interview answers, shown while they own a live listing.")


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


COMPANY_JSON = """jsonb_agg(jsonb_build_object('slug', c.slug, 'name', c.name, 'tagline', c.tagline,
    'logo_url', c.logo_url, 'url', c.url, 'role', k.title) ORDER BY k.position, c.listing_id)"""


def list_founders(reads: ReadStore, q: ListFounders) -> dict[str, Any]:
    t = reads.tables(VIEW)
    where = ["c.status = 'live'"]
    params: dict[str, Any] = {"limit": q.per_page, "offset": q.offset}
    name = (q.q or "").replace("\x00", "").strip()  # PostgreSQL text cannot hold NUL
    if name:
        where.append("f.name ILIKE %(name)s")
        params["name"] = f"%{_escape_like(name)}%"
    if q.country:
        where.append("f.country = %(country)s")
        params["country"] = q.country.upper()
    source = (f"FROM {t['founders']} f JOIN {t['links']} k ON k.founder_slug = f.slug "
              f"JOIN {t['companies']} c ON c.listing_id = k.listing_id WHERE {' AND '.join(where)}")
    with reads.pool.connection() as conn:
        (total,) = conn.execute(f"SELECT count(DISTINCT f.slug) {source}", params).fetchone()  # type: ignore[misc]
        rows = conn.execute(
            f"""SELECT f.slug, f.name, f.country, f.avatar_url, left(f.bio, {SHORT_BIO}), {COMPANY_JSON} {source}
                GROUP BY f.slug ORDER BY lower(f.name), f.slug LIMIT %(limit)s OFFSET %(offset)s""",
            params,
        ).fetchall()
    items = [
        {"slug": r[0], "name": r[1], "country": r[2], "avatar_url": r[3], "bio": r[4], "companies": r[5]}
        for r in rows
    ]
    return page_of(items, q, int(total))


def staff_founders(reads: ReadStore, paging: Paging) -> dict[str, Any]:
    """Every founder profile by name, for staff: linked to a live listing or not, with how many listings name it."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        (total,) = conn.execute(f"SELECT count(*) FROM {t['founders']}").fetchone()  # type: ignore[misc]
        rows = conn.execute(
            f"""SELECT f.slug, f.name, f.country, f.updated_at,
                       count(c.listing_id), count(c.listing_id) FILTER (WHERE c.status = 'live')
                FROM {t['founders']} f LEFT JOIN {t['links']} k ON k.founder_slug = f.slug
                LEFT JOIN {t['companies']} c ON c.listing_id = k.listing_id
                GROUP BY f.slug ORDER BY lower(f.name), f.slug LIMIT %s OFFSET %s""",
            (paging.per_page, paging.offset),
        ).fetchall()
    items = [{"slug": r[0], "name": r[1], "country": r[2], "updated_at": r[3], "listings": r[4], "live": r[5]}
             for r in rows]
    return page_of(items, paging, int(total))


def get_founder(reads: ReadStore, q: GetFounder) -> dict[str, Any]:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(
            f"SELECT slug, name, bio, country, avatar_url, socials, account_id FROM {t['founders']} WHERE slug = %s",
            (q.slug,),
        ).fetchone()
        if row is None:
            raise NotFound(f"no founder {q.slug!r}")
        companies = conn.execute(
            f"""SELECT c.slug, c.name, c.tagline, c.logo_url, c.url, k.title, c.story, c.plan, c.unlocked
                FROM {t['links']} k JOIN {t['companies']} c ON c.listing_id = k.listing_id
                WHERE k.founder_slug = %s AND c.status = 'live' ORDER BY k.position, c.listing_id""",
            (q.slug,),
        ).fetchall()
    stories = []
    for slug, name, _tagline, _logo, _url, _role, story, plan, unlocked in companies:
        public = plan == "paid" or "story" in (unlocked or [])
        sections = {k: str(story[k]) for k in STORY_SECTIONS if (story or {}).get(k)}
        if public and sections:
            stories.append({"listing_slug": slug, "listing_name": name, "title": (story or {}).get("title") or None,
                            "sections": sections})
    return {
        "slug": row[0], "name": row[1], "bio": row[2], "country": row[3], "avatar_url": row[4], "socials": row[5] or {},
        "companies": [
            {"slug": c[0], "name": c[1], "tagline": c[2], "logo_url": c[3], "url": c[4], "role": c[5]} for c in companies
        ],
        "stories": stories,
        "interview": public_answers(reads, row[6]) if row[6] else [],  # queries/interview.py
    }
