"""Read tables of founder profiles and the blog.

Founders: the profiles (`FounderProfileCreated`/`Edited`), the links from
listings to profiles (a listing's `founders` entry that carries a
`founder_slug`), and compact rows of those listings (status, plan, unlocked
sections, story) so a founder page shows their live companies and published
stories without reading any other projection.

Blog: one row per post with a weighted full-text vector (title, then summary
and tags, then the Markdown body).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg import Cursor
from psycopg.types.json import Jsonb

from events.account import AccountClosed
from events.content import (
    BlogPostPublished,
    BlogPostRevised,
    BlogPostUnpublished,
    BlogPostWritten,
    FounderProfileCreated,
    FounderProfileEdited,
)
from events.listing import (
    ListingCreated,
    ListingEdited,
    ListingEditReverted,
    ListingLaunched,
    ListingPublishedByStaff,
    ListingQueuedForFree,
    ListingScheduled,
    ListingSectionsUnlocked,
    ListingStorySet,
    ListingUnpublished,
    SlugClaimed,
)
from projections import bulk
from projections.base import Projection, Tables, handles

FOUNDER_COLUMNS = ("name", "bio", "country", "socials", "avatar_url", "account_id")
COMPANY_COLUMNS = {"name": "name", "tagline": "tagline", "logo_url": "logo_url", "website_url": "url"}
POST_COLUMNS = ("title", "summary", "markdown", "faqs", "tags", "author")
JSON_COLUMNS = ("socials", "faqs", "tags")


class ContentView(Projection):
    name = "content_view"
    tables = ("founders", "links", "companies", "posts")

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(
            f"""CREATE TABLE {t['founders']} (slug text PRIMARY KEY, name text NOT NULL, bio text NOT NULL,
                country text, socials jsonb NOT NULL, avatar_url text, account_id text,
                created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)"""
        )
        cur.execute(f"CREATE INDEX ON {t['founders']} (lower(name), slug)")
        cur.execute(
            f"""CREATE TABLE {t['links']} (listing_id bigint NOT NULL, founder_slug text NOT NULL,
                position int NOT NULL, title text, PRIMARY KEY (listing_id, founder_slug))"""
        )
        cur.execute(f"CREATE INDEX ON {t['links']} (founder_slug)")
        cur.execute(
            f"""CREATE TABLE {t['companies']} (listing_id bigint PRIMARY KEY, stream uuid NOT NULL UNIQUE,
                slug text NOT NULL, name text NOT NULL, tagline text, logo_url text, url text,
                status text NOT NULL, plan text, unlocked jsonb NOT NULL DEFAULT '[]', story jsonb NOT NULL DEFAULT '{{}}',
                launched_at timestamptz)"""
        )
        cur.execute(
            f"""CREATE TABLE {t['posts']} (slug text PRIMARY KEY, title text NOT NULL, summary text NOT NULL,
                markdown text NOT NULL, faqs jsonb NOT NULL, tags jsonb NOT NULL, author text NOT NULL,
                published boolean NOT NULL DEFAULT false, published_at timestamptz,
                created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
                search tsvector GENERATED ALWAYS AS (
                    setweight(to_tsvector('english'::regconfig, title), 'A') ||
                    setweight(to_tsvector('english'::regconfig, summary || ' ' || (tags #>> '{{}}')), 'B') ||
                    setweight(to_tsvector('english'::regconfig, markdown), 'C')) STORED)"""
        )
        cur.execute(f"CREATE INDEX ON {t['posts']} USING gin (search)")
        cur.execute(f"CREATE INDEX ON {t['posts']} (published, published_at DESC)")

    # ------------------------------------------------------------ founders

    @handles(FounderProfileCreated)
    def _founder(self, cur: Cursor[Any], t: Tables, e: FounderProfileCreated) -> None:
        cur.execute(
            f"""INSERT INTO {t['founders']} (slug, name, bio, country, socials, avatar_url, account_id, created_at, updated_at)
                VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (slug) DO NOTHING""",
            (e.founder_slug, e.name, e.bio, e.country, Jsonb(e.socials), e.avatar_url, e.account_id, e.timestamp, e.timestamp),
        )

    @handles(AccountClosed)
    def _account_closed(self, cur: Cursor[Any], t: Tables, e: AccountClosed) -> None:
        """A founder profile (staff's public text) stays, no longer linked to the closed account."""
        cur.execute(f"UPDATE {t['founders']} SET account_id = NULL WHERE account_id = %s", (str(e.originator_id),))

    @handles(FounderProfileEdited)
    def _founder_edited(self, cur: Cursor[Any], t: Tables, e: FounderProfileEdited) -> None:
        sets, values = _sets(e.changes, FOUNDER_COLUMNS)
        cur.execute(
            f"UPDATE {t['founders']} SET {''.join(s + ', ' for s in sets)}updated_at = %s WHERE slug = %s",
            (*values, e.timestamp, e.founder_slug),
        )

    # ------------------------------------------------------------ listings behind founders

    @handles(ListingCreated)
    def _company(self, cur: Cursor[Any], t: Tables, e: ListingCreated) -> None:
        self._batch(cur)
        p = e.profile
        row: dict[str, Any] = {"listing_id": e.listing_id, "stream": e.originator_id, "slug": e.slug, "name": str(p.get("name") or ""),
               "tagline": p.get("tagline"), "logo_url": p.get("logo_url"), "url": p.get("website_url"),
               "status": "draft", "plan": None, "unlocked": [], "story": dict(e.story), "launched_at": None}
        if e.originator_id in self._pending or e.listing_id in self._ids:  # created twice: written as it comes
            self.flush(cur, t)
            cur.execute(
                f"""INSERT INTO {t['companies']} (listing_id, stream, slug, name, tagline, logo_url, url, status, story)
                    VALUES (%s, %s, %s, %s, %s, %s, %s, 'draft', %s) ON CONFLICT (listing_id) DO NOTHING""",
                (e.listing_id, e.originator_id, e.slug, row["name"], row["tagline"], row["logo_url"], row["url"],
                 Jsonb(row["story"])),
            )
            _relink(cur, t, e.listing_id, e.founders)
            return
        self._pending[e.originator_id] = self._ids[e.listing_id] = row
        self._links += _links(e.listing_id, e.founders)  # a new listing has no links to delete
        self._claims.pop(e.listing_id, None)  # its slug claim, just before it in the same append, found no row

    @handles(ListingEdited, ListingEditReverted)  # a staff revert puts fields back like an edit (the story too)
    def _company_edited(self, cur: Cursor[Any], t: Tables, e: ListingEdited | ListingEditReverted) -> None:
        self._written(cur, t, e.originator_id)
        sets = [f"{column} = %s" for key, column in COMPANY_COLUMNS.items() if key in e.changes]
        values = [e.changes[key] if key != "name" else str(e.changes[key] or "") for key in COMPANY_COLUMNS if key in e.changes]
        row = cur.execute(
            f"UPDATE {t['companies']} SET {''.join(s + ', ' for s in sets)}stream = stream WHERE stream = %s RETURNING listing_id",
            (*values, e.originator_id),
        ).fetchone()
        if row is not None and "founders" in e.changes:
            _relink(cur, t, int(row[0]), e.changes["founders"] or [])
        if row is not None and "story" in e.changes:
            cur.execute(f"UPDATE {t['companies']} SET story = %s WHERE stream = %s",
                        (Jsonb(dict(e.changes["story"] or {})), e.originator_id))

    @handles(SlugClaimed)
    def _slug(self, cur: Cursor[Any], t: Tables, e: SlugClaimed) -> None:
        """A listing's slug claim comes just before its creation: kept (`apply`), dropped when the creation follows."""
        self._batch(cur)
        if e.listing_id in self._ids:
            self._ids[e.listing_id]["slug"] = e.slug
        else:
            self._claims[e.listing_id] = e.slug

    @handles(ListingStorySet)
    def _story(self, cur: Cursor[Any], t: Tables, e: ListingStorySet) -> None:
        if self._kept(cur, e.originator_id, story=dict(e.story)):
            return
        cur.execute(f"UPDATE {t['companies']} SET story = %s WHERE stream = %s", (Jsonb(dict(e.story)), e.originator_id))

    @handles(ListingSectionsUnlocked)
    def _unlocked(self, cur: Cursor[Any], t: Tables, e: ListingSectionsUnlocked) -> None:
        self._written(cur, t, e.originator_id)  # the set is merged by PostgreSQL, in its order
        cur.execute(
            f"""UPDATE {t['companies']} SET unlocked = (
                    SELECT jsonb_agg(DISTINCT s) FROM jsonb_array_elements_text(unlocked || %s) AS s)
                WHERE stream = %s""",
            (Jsonb(list(e.sections)), e.originator_id),
        )

    @handles(ListingQueuedForFree, ListingScheduled, ListingUnpublished)
    def _status(self, cur: Cursor[Any], t: Tables, e: Any) -> None:
        status = {ListingQueuedForFree: "awaiting_badge", ListingScheduled: "scheduled", ListingUnpublished: "unpublished"}[type(e)]
        plan = getattr(e, "plan", None) or ("free" if isinstance(e, ListingQueuedForFree) else None)
        self._batch(cur)
        kept = self._pending.get(e.originator_id)
        if kept is not None:
            kept.update(status=status, plan=plan if plan is not None else kept["plan"])
            return
        cur.execute(
            f"UPDATE {t['companies']} SET status = %s, plan = coalesce(%s, plan) WHERE stream = %s",
            (status, plan, e.originator_id),
        )

    @handles(ListingLaunched, ListingPublishedByStaff)
    def _live(self, cur: Cursor[Any], t: Tables, e: ListingLaunched | ListingPublishedByStaff) -> None:
        if self._kept(cur, e.originator_id, status="live", plan=e.plan, launched_at=e.timestamp):
            return
        cur.execute(
            f"UPDATE {t['companies']} SET status = 'live', plan = %s, launched_at = %s WHERE stream = %s",
            (e.plan, e.timestamp, e.originator_id),
        )

    # ------------------------------------------------------------ batch memory
    #
    # Companies created in this batch (and their founder links) are kept in memory, changed there by the
    # events that follow, and written at `flush` with one statement per table (`projections/bulk.py`).
    # The memory belongs to the batch's cursor (one transaction): a new cursor forgets it.

    _batch_cursor: Any = None
    _pending: dict[UUID, dict[str, Any]] = {}  # stream id -> the company row kept back
    _ids: dict[int, dict[str, Any]] = {}  # listing id -> the same rows
    _links: list[tuple[int, str, int, str | None]] = []
    _claims: dict[int, str] = {}  # listing id -> the slug claimed last, for a company not kept back

    def _batch(self, cur: Cursor[Any]) -> None:
        if self._batch_cursor is not cur:
            self._batch_cursor, self._pending, self._ids, self._links, self._claims = cur, {}, {}, [], {}

    def apply(self, cur: Cursor[Any], t: Tables, event: Any, position: int = 0, checked: bool = False) -> None:
        """As `Projection.apply`; the slugs claimed are written before any event but a claim or a creation."""
        self._batch(cur)
        if self._claims and type(event) not in (SlugClaimed, ListingCreated):
            self._write_claims(cur, t)
        super().apply(cur, t, event, position, checked)

    def _write_claims(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(f"UPDATE {t['companies']} c SET slug = v.slug FROM unnest(%s::bigint[], %s::text[]) AS v(id, slug) "
                    "WHERE c.listing_id = v.id", (list(self._claims), list(self._claims.values())))
        self._claims = {}

    def _kept(self, cur: Cursor[Any], stream: UUID, **changes: Any) -> bool:
        """Change the kept-back row of `stream` in memory; False when it is not kept back (write it in SQL)."""
        self._batch(cur)
        row = self._pending.get(stream)
        if row is not None:
            row.update(changes)
        return row is not None

    def _written(self, cur: Cursor[Any], t: Tables, stream: UUID) -> None:
        """Flush when `stream`'s row is kept back: the statement that follows changes it in the table."""
        self._batch(cur)
        if stream in self._pending:
            self.flush(cur, t)

    def flush(self, cur: Cursor[Any], t: Tables) -> None:
        """Write the slugs claimed, then the companies and founder links kept back, one statement per table."""
        self._batch(cur)
        if self._claims:
            self._write_claims(cur, t)
        bulk.insert(cur, t["companies"], COMPANY_ROW,
                    [tuple(Jsonb(r[c]) if kind == "jsonb" else r[c] for c, kind in COMPANY_ROW)
                     for r in self._pending.values()], "ON CONFLICT (listing_id) DO NOTHING")
        bulk.insert(cur, t["links"], LINK_ROW, self._links, "ON CONFLICT (listing_id, founder_slug) DO NOTHING")
        self._pending, self._ids, self._links = {}, {}, []

    # ------------------------------------------------------------ blog

    @handles(BlogPostWritten)
    def _post(self, cur: Cursor[Any], t: Tables, e: BlogPostWritten) -> None:
        cur.execute(
            f"""INSERT INTO {t['posts']} (slug, title, summary, markdown, faqs, tags, author, created_at, updated_at)
                VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (slug) DO NOTHING""",
            (e.slug, e.title, e.summary, e.markdown, Jsonb(e.faqs), Jsonb(e.tags), e.author, e.timestamp, e.timestamp),
        )

    @handles(BlogPostRevised)
    def _revised(self, cur: Cursor[Any], t: Tables, e: BlogPostRevised) -> None:
        sets, values = _sets(e.changes, POST_COLUMNS)
        cur.execute(
            f"UPDATE {t['posts']} SET {''.join(s + ', ' for s in sets)}updated_at = %s WHERE slug = %s",
            (*values, e.timestamp, e.slug),
        )

    @handles(BlogPostPublished)
    def _published(self, cur: Cursor[Any], t: Tables, e: BlogPostPublished) -> None:
        """The first publication dates the post; unpublishing and publishing again keeps that date."""
        cur.execute(
            f"UPDATE {t['posts']} SET published = true, published_at = coalesce(published_at, %s) WHERE slug = %s",
            (e.timestamp, e.slug),
        )

    @handles(BlogPostUnpublished)
    def _unpublished(self, cur: Cursor[Any], t: Tables, e: BlogPostUnpublished) -> None:
        cur.execute(f"UPDATE {t['posts']} SET published = false WHERE slug = %s", (e.slug,))


def _sets(changes: dict[str, Any], columns: tuple[str, ...]) -> tuple[list[str], list[Any]]:
    sets, values = [], []
    for column in columns:
        if column in changes:
            sets.append(f"{column} = %s")
            value = changes[column]
            values.append(Jsonb(value) if column in JSON_COLUMNS else value)
    return sets, values


def _relink(cur: Cursor[Any], t: Tables, listing_id: int, founders: list[dict[str, Any]]) -> None:
    """A listing founder links to a profile through its `founder_slug`; the list order is kept."""
    cur.execute(f"DELETE FROM {t['links']} WHERE listing_id = %s", (listing_id,))
    for row in _links(listing_id, founders):
        cur.execute(
            f"""INSERT INTO {t['links']} (listing_id, founder_slug, position, title) VALUES (%s, %s, %s, %s)
                ON CONFLICT (listing_id, founder_slug) DO NOTHING""",
            row,
        )


def _links(listing_id: int, founders: list[dict[str, Any]]) -> list[tuple[int, str, int, str | None]]:
    """The link rows of a listing's founders that name a profile, in the list's order."""
    rows = []
    for position, founder in enumerate(founders):
        slug = founder.get("founder_slug") if isinstance(founder, dict) else None
        if slug:
            rows.append((listing_id, str(slug), position, founder.get("title")))
    return rows


COMPANY_ROW = (
    ("listing_id", "bigint"), ("stream", "uuid"), ("slug", "text"), ("name", "text"), ("tagline", "text"),
    ("logo_url", "text"), ("url", "text"), ("status", "text"), ("plan", "text"), ("unlocked", "jsonb"),
    ("story", "jsonb"), ("launched_at", "timestamptz"),
)
LINK_ROW = (("listing_id", "bigint"), ("founder_slug", "text"), ("position", "int"), ("title", "text"))
