"""Read tables of the catalogue: categories, products, interview questions and site settings.

Each row keeps its public document as jsonb, shaped like the response, so a
read is one indexed lookup.

Categories also show live listings (SPEC §2.9): a small `listings` table (categories,
status, votes and the card's facts) keeps each category's `live_count` current,
so the catalogue answers its counts and "most voted first" pages from its own
tables and its cached responses move exactly when they should.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg import Cursor
from psycopg.types.json import Jsonb

from events.catalog import (
    CategoryAdded,
    CategoryChanged,
    InterviewQuestionAdded,
    InterviewQuestionChanged,
    ProductAdded,
    ProductChanged,
    ProductPriceSet,
    SiteSettingsChanged,
)
from events.community import VoteCast, VoteWithdrawn
from events.votes import VoteRestored, VoteVoided
from events.listing import (
    ListingCreated,
    ListingEdited,
    ListingEditReverted,
    ListingLaunched,
    ListingPublishedByStaff,
    ListingQueuedForFree,
    ListingScheduled,
    ListingUnpublished,
)
from projections import binary_arrays, bulk
from projections.base import Projection, Tables, handles
from projections.listing_cards import CARD_FIELDS

CARD_SOURCE = (*CARD_FIELDS, "socials")


class CatalogView(Projection):
    name = "catalog_view"
    tables = ("categories", "products", "questions", "site", "listings")

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(
            f"""CREATE TABLE {t['categories']} (
                slug text PRIMARY KEY, parent_slug text, position int NOT NULL,
                name text NOT NULL, doc jsonb NOT NULL, live_count int NOT NULL DEFAULT 0)"""
        )
        cur.execute(f"CREATE TABLE {t['products']} (code text PRIMARY KEY, position int NOT NULL, doc jsonb NOT NULL)")
        cur.execute(f"CREATE TABLE {t['questions']} (id int PRIMARY KEY, position int NOT NULL, doc jsonb NOT NULL)")
        cur.execute(f"CREATE TABLE {t['site']} (key text PRIMARY KEY, doc jsonb NOT NULL)")
        cur.execute(
            f"""CREATE TABLE {t['listings']} (
                listing_id int PRIMARY KEY, stream_id uuid NOT NULL UNIQUE, slug text NOT NULL,
                categories text[] NOT NULL, status text NOT NULL, week text, launched_at timestamptz,
                votes int NOT NULL DEFAULT 0, src jsonb NOT NULL)"""
        )
        cur.execute(f"CREATE INDEX ON {t['listings']} USING gin (categories) WHERE status = 'live'")
        cur.execute(f"CREATE INDEX ON {t['listings']} (votes DESC, launched_at, listing_id) WHERE status = 'live'")

    @handles(CategoryAdded)
    def _category_added(self, cur: Cursor[Any], t: Tables, e: CategoryAdded) -> None:
        self.flush(cur, t)  # counts kept back moved before the category existed: they never reach it
        doc = {
            "slug": e.slug, "name": e.name, "parent": e.parent_slug, "description": e.description,
            "faqs": e.faqs, "attributes": e.attributes,
        }
        cur.execute(
            f"INSERT INTO {t['categories']} (slug, parent_slug, position, name, doc) VALUES (%s,%s,%s,%s,%s) "
            "ON CONFLICT (slug) DO NOTHING",
            (e.slug, e.parent_slug, e.position, e.name, Jsonb(doc)),
        )

    @handles(CategoryChanged)
    def _category_changed(self, cur: Cursor[Any], t: Tables, e: CategoryChanged) -> None:
        changes = dict(e.changes)
        if "parent_slug" in changes:
            changes["parent"] = changes.pop("parent_slug")
        position = changes.pop("position", None)
        cur.execute(
            f"UPDATE {t['categories']} SET doc = doc || %s, name = coalesce(%s, name), "
            "parent_slug = CASE WHEN %s THEN %s ELSE parent_slug END, position = coalesce(%s, position) WHERE slug=%s",
            (Jsonb(changes), changes.get("name"), "parent" in changes, changes.get("parent"), position, e.slug),
        )

    @handles(ProductAdded)
    def _product_added(self, cur: Cursor[Any], t: Tables, e: ProductAdded) -> None:
        doc = {
            "code": e.code, "name": e.name, "description": e.description, "price_cents": e.price_cents,
            "currency": "USD", "needs_listing": e.needs_listing, "options": e.options, "week_window": e.week_window,
        }
        cur.execute(
            f"INSERT INTO {t['products']} (code, position, doc) VALUES (%s,%s,%s) ON CONFLICT (code) DO NOTHING",
            (e.code, e.position, Jsonb(doc)),
        )

    @handles(ProductChanged)
    def _product_changed(self, cur: Cursor[Any], t: Tables, e: ProductChanged) -> None:
        changes = dict(e.changes)
        position = changes.pop("position", None)
        cur.execute(
            f"UPDATE {t['products']} SET doc = doc || %s, position = coalesce(%s, position) WHERE code=%s",
            (Jsonb(changes), position, e.code),
        )

    @handles(ProductPriceSet)
    def _price_set(self, cur: Cursor[Any], t: Tables, e: ProductPriceSet) -> None:
        cur.execute(
            f"UPDATE {t['products']} SET doc = jsonb_set(doc, '{{price_cents}}', to_jsonb(%s::int)) WHERE code=%s",
            (e.price_cents, e.code),
        )

    @handles(InterviewQuestionAdded, InterviewQuestionChanged)
    def _question(self, cur: Cursor[Any], t: Tables, e: InterviewQuestionAdded | InterviewQuestionChanged) -> None:
        position = getattr(e, "position", None)
        cur.execute(
            f"INSERT INTO {t['questions']} (id, position, doc) VALUES (%s, %s, %s) "
            "ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc",
            (e.question_id, position if position is not None else e.question_id, Jsonb({"id": e.question_id, "question": e.text})),
        )

    @handles(SiteSettingsChanged)
    def _site(self, cur: Cursor[Any], t: Tables, e: SiteSettingsChanged) -> None:
        cur.execute(
            f"INSERT INTO {t['site']} (key, doc) VALUES ('site', %s) "
            f"ON CONFLICT (key) DO UPDATE SET doc = {t['site']}.doc || EXCLUDED.doc",
            (Jsonb(e.changes),),
        )

    # ------------------------------------------------------------ live listings per category
    #
    # A batch's listings are kept in memory and written at `flush`, one statement per table
    # (`projections/bulk.py`): a listing created and put live in one batch is inserted once, live,
    # and each category's count moves once by its batch's net change. The rows the batch's
    # events name are read ahead in one statement (`prepare`); a handler that misses one reads it.
    # The memory belongs to the batch's cursor (one transaction), as in `history_view`. Catalogue
    # events stay a statement each; a category added flushes first, so counts kept back reach
    # only the categories that existed when they moved.

    def prepare(self, cur: Cursor[Any], t: Tables, events: Sequence[Any]) -> None:
        self._batch(cur)
        streams = {e.originator_id for e in events if type(e) in BY_STREAM} - self._by_stream.keys()
        ids = {e.listing_id for e in events if type(e) in BY_ID} - self._by_id.keys()
        if not streams and not ids:
            return
        rows = cur.execute(
            f"SELECT {READ} FROM {t['listings']} WHERE stream_id = ANY(%s::uuid[]) OR listing_id = ANY(%s::int[])",
            (list(streams), list(ids)),
        ).fetchall()
        for row in rows:
            self._remember(row)
        for stream in streams:
            self._by_stream.setdefault(stream, None)  # looked for and not there
        for listing_id in ids:
            self._by_id.setdefault(listing_id, None)

    @handles(ListingCreated)
    def _listing_created(self, cur: Cursor[Any], t: Tables, e: ListingCreated) -> None:
        if self._by_listing_id(cur, t, e.listing_id) is not None:
            return  # the row is there: ON CONFLICT (listing_id) DO NOTHING
        src = {k: e.profile.get(k) for k in CARD_FIELDS} | {"socials": {"website": e.socials.get("website")}}
        if self._by_stream_id(cur, t, e.originator_id) is not None:  # its stream is another listing's: written as
            self.flush(cur, t)  # it comes, so the batch fails at this event as it always did
            cur.execute(
                f"INSERT INTO {t['listings']} (listing_id, stream_id, slug, categories, status, src) "
                "VALUES (%s, %s, %s, %s, 'draft', %s) ON CONFLICT (listing_id) DO NOTHING",
                (e.listing_id, e.originator_id, e.slug, list(e.categories), Jsonb(src)),
            )
            return
        listing = _Listing(e.listing_id, e.originator_id, list(e.categories), "draft", None, None, 0,
                           new=True, slug=e.slug, src=src)
        self._by_id[e.listing_id] = self._by_stream[e.originator_id] = listing

    @handles(ListingEdited, ListingEditReverted)  # a staff revert puts fields back like an edit
    def _listing_edited(self, cur: Cursor[Any], t: Tables, e: ListingEdited | ListingEditReverted) -> None:
        patch = {k: v for k, v in e.changes.items() if k in CARD_SOURCE}
        if "categories" not in e.changes and not patch:
            return
        listing = self._by_stream_id(cur, t, e.originator_id)
        if listing is None:
            return
        if "categories" in e.changes:
            new = list(e.changes["categories"] or [])
            if listing.status == "live":
                self._count(listing.categories, -1)
                self._count(new, +1)
            listing.categories = new
        if "socials" in patch:
            patch["socials"] = {"website": (patch["socials"] or {}).get("website")}
        if listing.new:  # `src || patch` in memory: the same top-level merge
            listing.src = (listing.src or {}) | patch
        else:
            listing.patch |= patch
        listing.dirty = True

    @handles(ListingQueuedForFree, ListingScheduled, ListingLaunched, ListingPublishedByStaff, ListingUnpublished)
    def _listing_status(self, cur: Cursor[Any], t: Tables, e: Any) -> None:
        listing = self._by_stream_id(cur, t, e.originator_id)
        if listing is None:
            return
        status = STATUS[type(e)]
        live = status == "live"
        if (listing.status == "live") != live:
            self._count(listing.categories, +1 if live else -1)
        listing.status = status
        week = getattr(e, "week", None)
        if week is not None:
            listing.week = week
        if live:
            listing.launched_at = e.timestamp
        listing.dirty = True

    @handles(VoteCast, VoteWithdrawn, VoteVoided, VoteRestored)  # a voided vote is out of the count until restored
    def _listing_vote(self, cur: Cursor[Any], t: Tables, e: VoteCast | VoteWithdrawn | VoteVoided | VoteRestored) -> None:
        listing = self._by_listing_id(cur, t, e.listing_id)
        if listing is None:
            return
        step = 1 if isinstance(e, VoteCast | VoteRestored) else -1
        listing.votes = max(listing.votes + step, 0)  # greatest(votes + step, 0)
        listing.dirty = True

    def _count(self, categories: list[str], step: int) -> None:
        """Each category named (once, as `slug = ANY(...)` matches) moves by `step` at `flush`."""
        for slug in set(categories):
            self._counts[slug] = self._counts.get(slug, 0) + step

    # ------------------------------------------------------------ batch memory

    _batch_cursor: Any = None
    _by_stream: dict[UUID, _Listing | None] = {}  # None: looked for, no such row
    _by_id: dict[int, _Listing | None] = {}
    _counts: dict[str, int] = {}  # category slug -> the change of its live_count kept back

    def _batch(self, cur: Cursor[Any]) -> None:
        if self._batch_cursor is not cur:
            self._batch_cursor, self._by_stream, self._by_id, self._counts = cur, {}, {}, {}

    def _remember(self, row: Sequence[Any]) -> _Listing:
        known = self._by_id.get(int(row[0]))
        if known is not None:  # this batch's version of the row comes first
            return known
        listing = _Listing(int(row[0]), row[1], list(row[2]), str(row[3]), row[4], row[5], int(row[6]), new=False)
        self._by_id[listing.listing_id] = self._by_stream[listing.stream_id] = listing
        return listing

    def _by_stream_id(self, cur: Cursor[Any], t: Tables, stream_id: UUID) -> _Listing | None:
        self._batch(cur)
        if stream_id not in self._by_stream:
            row = cur.execute(f"SELECT {READ} FROM {t['listings']} WHERE stream_id = %s", (stream_id,)).fetchone()
            if row is None:
                self._by_stream[stream_id] = None
            else:
                return self._remember(row)
        return self._by_stream[stream_id]

    def _by_listing_id(self, cur: Cursor[Any], t: Tables, listing_id: int) -> _Listing | None:
        self._batch(cur)
        if listing_id not in self._by_id:
            row = cur.execute(f"SELECT {READ} FROM {t['listings']} WHERE listing_id = %s", (listing_id,)).fetchone()
            if row is None:
                self._by_id[listing_id] = None
            else:
                return self._remember(row)
        return self._by_id[listing_id]

    def flush(self, cur: Cursor[Any], t: Tables) -> None:
        """Write the batch's new listings, then the changed ones, then the categories' counts: a statement each."""
        self._batch(cur)
        listings = {id(x): x for x in self._by_id.values() if x is not None and (x.new or x.dirty)}.values()
        created = [x for x in listings if x.new]
        if created:
            cur.execute(
                f"INSERT INTO {t['listings']} (listing_id, stream_id, slug, categories, status, week, launched_at, "
                "votes, src) SELECT v.listing_id, v.stream_id, v.slug, ARRAY(SELECT jsonb_array_elements_text(v.categories)), "
                f"v.status, v.week, v.launched_at, v.votes, v.src FROM {bulk.unnested(NEW_COLUMNS)} "
                "ON CONFLICT (listing_id) DO NOTHING",
                binary_arrays.columns(cur, NEW_COLUMNS, [(x.listing_id, x.stream_id, x.slug, x.categories, x.status,
                                                          x.week, x.launched_at, x.votes, x.src) for x in created]),
            )
        changed = [x for x in listings if not x.new]
        if changed:
            cur.execute(
                f"UPDATE {t['listings']} l SET categories = ARRAY(SELECT jsonb_array_elements_text(v.categories)), "
                "status = v.status, week = v.week, launched_at = v.launched_at, votes = v.votes, "
                f"src = CASE WHEN v.patch = '{{}}' THEN l.src ELSE l.src || v.patch END "
                f"FROM {bulk.unnested(CHANGED_COLUMNS)} WHERE l.listing_id = v.listing_id",
                binary_arrays.columns(cur, CHANGED_COLUMNS, [(x.listing_id, x.categories, x.status, x.week,
                                                              x.launched_at, x.votes, x.patch) for x in changed]),
            )
        counts = [(slug, step) for slug, step in self._counts.items() if step]
        if counts:
            cur.execute(
                f"UPDATE {t['categories']} c SET live_count = c.live_count + v.step "
                f"FROM {bulk.unnested(COUNT_COLUMNS)} WHERE c.slug = v.slug",
                bulk.params(counts, len(COUNT_COLUMNS)),
            )
        for x in listings:
            x.new = x.dirty = False
            x.src, x.patch = None, {}
        self._counts = {}


STATUS: dict[type[Any], str] = {
    ListingQueuedForFree: "awaiting_badge", ListingScheduled: "scheduled", ListingLaunched: "live",
    ListingPublishedByStaff: "live", ListingUnpublished: "unpublished",
}
BY_STREAM = frozenset({ListingCreated, ListingEdited, ListingEditReverted, *STATUS})
"""Events that name their listing by stream (`ListingCreated` by both)."""
BY_ID = frozenset({ListingCreated, VoteCast, VoteWithdrawn, VoteVoided, VoteRestored})
READ = "listing_id, stream_id, categories, status, week, launched_at, votes"


@dataclass
class _Listing:
    """A listing row as this batch knows it; `new` while it is not written yet (its slug and `src` kept here)."""

    listing_id: int
    stream_id: UUID
    categories: list[str]
    status: str
    week: str | None
    launched_at: datetime | None
    votes: int
    new: bool
    dirty: bool = False  # changed since it was read or written
    slug: str = ""
    src: dict[str, Any] | None = None
    patch: dict[str, Any] = field(default_factory=dict)  # `src || patch` at `flush`, for a written row


NEW_COLUMNS = (
    ("listing_id", "int"), ("stream_id", "uuid"), ("slug", "text"), ("categories", "jsonb"), ("status", "text"),
    ("week", "text"), ("launched_at", "timestamptz"), ("votes", "int"), ("src", "jsonb"),
)
CHANGED_COLUMNS = (
    ("listing_id", "int"), ("categories", "jsonb"), ("status", "text"), ("week", "text"),
    ("launched_at", "timestamptz"), ("votes", "int"), ("patch", "jsonb"),
)
COUNT_COLUMNS = (("slug", "text"), ("step", "int"))
