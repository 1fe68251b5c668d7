"""Read tables of the catalogue: categories, products, interview questions and site settings.

Each row keeps its public document as jsonb, shaped like the response, so a
read is one indexed lookup.

Categories also show live listings (SPEC §2.9): a small `listings` table (categories,
status, votes and the card's facts) keeps each category's `live_count` current,
so the catalogue answers its counts and "most voted first" pages from its own
tables and its cached responses move exactly when they should.
"""

from __future__ import annotations

from typing import Any

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

    @handles(ListingCreated)
    def _listing_created(self, cur: Cursor[Any], t: Tables, e: ListingCreated) -> None:
        src = {k: e.profile.get(k) for k in CARD_FIELDS} | {"socials": {"website": e.socials.get("website")}}
        cur.execute(
            f"INSERT INTO {t['listings']} (listing_id, stream_id, slug, categories, status, src) "
            "VALUES (%s, %s, %s, %s, 'draft', %s) ON CONFLICT (listing_id) DO NOTHING",
            (e.listing_id, e.originator_id, e.slug, list(e.categories), Jsonb(src)),
        )

    @handles(ListingEdited, ListingEditReverted)  # a staff revert puts fields back like an edit
    def _listing_edited(self, cur: Cursor[Any], t: Tables, e: ListingEdited | ListingEditReverted) -> None:
        if "categories" in e.changes:
            new = list(e.changes["categories"] or [])
            row = cur.execute(
                f"SELECT categories, status FROM {t['listings']} WHERE stream_id = %s", (e.originator_id,)
            ).fetchone()
            if row is not None and row[1] == "live":
                self._count(cur, t, list(row[0]), -1)
                self._count(cur, t, new, +1)
            cur.execute(f"UPDATE {t['listings']} SET categories = %s WHERE stream_id = %s", (new, e.originator_id))
        patch = {k: v for k, v in e.changes.items() if k in CARD_SOURCE}
        if "socials" in patch:
            patch["socials"] = {"website": (patch["socials"] or {}).get("website")}
        if patch:
            cur.execute(f"UPDATE {t['listings']} SET src = src || %s WHERE stream_id = %s", (Jsonb(patch), e.originator_id))

    @handles(ListingQueuedForFree, ListingScheduled, ListingLaunched, ListingPublishedByStaff, ListingUnpublished)
    def _listing_status(self, cur: Cursor[Any], t: Tables, e: Any) -> None:
        status = {
            ListingQueuedForFree: "awaiting_badge", ListingScheduled: "scheduled", ListingLaunched: "live",
            ListingPublishedByStaff: "live", ListingUnpublished: "unpublished",
        }[type(e)]
        # One statement (no round trip to wait for): move the status, and the counts when liveness changed.
        cur.execute(
            f"""WITH old AS (SELECT listing_id, categories, status FROM {t['listings']} WHERE stream_id = %(stream)s),
                     moved AS (UPDATE {t['listings']} l SET status = %(status)s, week = coalesce(%(week)s, l.week),
                                   launched_at = CASE WHEN %(live)s THEN %(at)s ELSE l.launched_at END
                               FROM old WHERE l.listing_id = old.listing_id
                               RETURNING old.categories, old.status = 'live' AS was_live)
                UPDATE {t['categories']} c SET live_count = c.live_count + CASE WHEN %(live)s THEN 1 ELSE -1 END
                FROM moved WHERE c.slug = ANY(moved.categories) AND moved.was_live <> %(live)s""",
            {"stream": e.originator_id, "status": status, "week": getattr(e, "week", None), "live": status == "live",
             "at": e.timestamp},
        )

    @handles(VoteCast, VoteWithdrawn, VoteVoided, VoteRestored)  # a voided vote is out of the count until restored
    def _listing_vote(self, cur: Cursor[Any], t: Tables, e: VoteCast | VoteWithdrawn | VoteVoided | VoteRestored) -> None:
        step = 1 if isinstance(e, VoteCast | VoteRestored) else -1
        cur.execute(f"UPDATE {t['listings']} SET votes = greatest(votes + %s, 0) WHERE listing_id = %s", (step, e.listing_id))

    def _count(self, cur: Cursor[Any], t: Tables, categories: list[str], step: int) -> None:
        if categories:
            cur.execute(f"UPDATE {t['categories']} SET live_count = live_count + %s WHERE slug = ANY(%s)", (step, categories))
