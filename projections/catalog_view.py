"""Read tables of the catalogue: categories, products, interview questions and site settings.

Each row keeps its public document as jsonb, shaped like the response, so a
read is one indexed lookup.
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
from projections.base import Projection, Tables, handles


class CatalogView(Projection):
    name = "catalog_view"
    tables = ("categories", "products", "questions", "site")

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(
            f"""CREATE TABLE {t['categories']} (
                slug text PRIMARY KEY, parent_slug text, position int NOT NULL,
                name text NOT NULL, doc jsonb NOT NULL, live_count int NOT NULL DEFAULT 0)"""
        )
        cur.execute(f"CREATE TABLE {t['products']} (code text PRIMARY KEY, position int NOT NULL, doc jsonb NOT NULL)")
        cur.execute(f"CREATE TABLE {t['questions']} (id int PRIMARY KEY, position int NOT NULL, doc jsonb NOT NULL)")
        cur.execute(f"CREATE TABLE {t['site']} (key text PRIMARY KEY, doc jsonb NOT NULL)")

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
