"""The Elasticsearch listing index, fed from the event log like a projection (used when ELASTICSEARCH_URL is set).

Elasticsearch cannot share a transaction with the tracking position, so the
feeder is at-least-once with an idempotent result (notes §4):

1. read the next batch of listing-related events, never past the position the
   listing view has reached (documents are read from the view's tables);
2. index each affected listing's current document with
   `version = position of its last event in the batch, version_type=external`:
   a replay or a slower racing feeder sends a version Elasticsearch already
   has and is refused with 409, which counts as done;
3. only after the bulk request succeeded, store the new position in
   PostgreSQL (`launchdir_search_tracking`).

A crash between 2 and 3 re-sends the batch; nothing is lost and nothing goes
backwards. `rebuild()` fills a fresh physical index from event 0 and then
moves the alias the searches use, so a reindex is a replay.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any
from uuid import UUID

from psycopg_pool import ConnectionPool

from events.community import ListingViewsCounted
from projections.listing_view import NAME as LISTING_VIEW
from projections.listing_view import ListingView
from projections.periodic import Periodic
from projections.log import EventLog
from projections.runtime import ProjectionRuntime

log = logging.getLogger(__name__)
NAME = "listing_search"  # the position searches' response cache watches (api/ops/listings.py)
TRACKING = "launchdir_search_tracking"
BATCH = 1000
TRACKING_DDL = f"""CREATE TABLE IF NOT EXISTS {TRACKING} (
    index_name text PRIMARY KEY, position bigint NOT NULL DEFAULT 0, updated_at timestamptz NOT NULL DEFAULT now())"""
TEXT = {"type": "text", "analyzer": "english"}
MAPPING: dict[str, Any] = {
    "dynamic": "strict",
    "properties": {
        "listing_id": {"type": "integer"},
        "slug": {"type": "keyword"},
        "name": {**TEXT, "fields": {"raw": {"type": "keyword", "normalizer": "folded"},
                                    "grams": {"type": "text", "analyzer": "trigrams"}}},
        "tagline": TEXT,
        "keywords": TEXT,
        "description": TEXT,
        "status": {"type": "keyword"},
        "week": {"type": "keyword"},
        "categories": {"type": "keyword"},
        "primary_category": {"type": "keyword"},
        "stage": {"type": "keyword"},
        "country": {"type": "keyword"},
        "pricing": {"type": "keyword"},
        "domain": {"type": "keyword"},
        "votes": {"type": "integer"},
        "followers": {"type": "integer"},
        "views": {"type": "long"},
        "trend_log": {"type": "double"},
        "launched_at": {"type": "date"},
        "listed_at": {"type": "date"},
    },
}
SETTINGS: dict[str, Any] = {
    "analysis": {
        "normalizer": {"folded": {"type": "custom", "filter": ["lowercase", "asciifolding"]}},
        "tokenizer": {"trigram": {"type": "ngram", "min_gram": 3, "max_gram": 3, "token_chars": ["letter", "digit"]}},
        "analyzer": {"trigrams": {"type": "custom", "tokenizer": "trigram", "filter": ["lowercase", "asciifolding"]}},
    },
}


def elasticsearch_client(url: str) -> Any:
    """The official client (imported here so PostgreSQL-only installs never load it)."""
    from elasticsearch import Elasticsearch

    return Elasticsearch(url, request_timeout=10, retry_on_timeout=True, max_retries=3)


class ElasticsearchIndexer:
    """Feeds one Elasticsearch alias from the log, at-least-once and idempotent (module docstring)."""

    def __init__(self, client: Any, pool: ConnectionPool, runtime: ProjectionRuntime, events: EventLog, alias: str) -> None:
        self.client = client
        self.pool = pool
        self.runtime = runtime
        self.events = events
        self.alias = alias
        self.topics = ListingView.topics()
        # a listing_view move wakes the loop at once; otherwise it looks every second
        self._loop = Periodic("search-indexer", 1.0, self.catch_up)
        runtime.on_move(lambda name, _position: self._loop.wake() if name == LISTING_VIEW else None)

    # ------------------------------------------------------------ set-up

    def setup(self) -> None:
        with self.pool.connection() as conn:
            conn.execute(TRACKING_DDL)
        if not self.client.indices.exists_alias(name=self.alias):
            physical = f"{self.alias}-g1"
            if not self.client.indices.exists(index=physical):
                self.client.indices.create(index=physical, settings=SETTINGS, mappings=MAPPING)
            self.client.indices.put_alias(index=physical, name=self.alias)
        self.runtime.follow(NAME)
        self.runtime.positions[NAME] = self._position(self._physical())

    def _physical(self) -> str:
        return str(next(iter(self.client.indices.get_alias(name=self.alias))))

    def _position(self, index: str) -> int:
        with self.pool.connection() as conn:
            row = conn.execute(f"SELECT position FROM {TRACKING} WHERE index_name = %s", (index,)).fetchone()
        return int(row[0]) if row else 0

    # ------------------------------------------------------------ feeding

    def step(self, index: str | None = None, upto: int | None = None) -> int:
        """Index one batch; the new position, or -1 when there was nothing to do."""
        index = index or self._physical()
        limit = self.runtime.positions.get(LISTING_VIEW, 0) if upto is None else upto
        start = self._position(index)
        if start >= limit:
            return -1
        notes = self.events.read(after=start, upto=limit, topics=self.topics, limit=BATCH)
        new_position = notes[-1][0] if len(notes) == BATCH else limit
        versions = self._affected(notes)
        if versions:
            self._bulk(index, versions)
        with self.pool.connection() as conn:
            conn.execute(
                f"INSERT INTO {TRACKING} (index_name, position) VALUES (%s, %s) ON CONFLICT (index_name) "
                f"DO UPDATE SET position = greatest({TRACKING}.position, EXCLUDED.position), updated_at = now()",
                (index, new_position),
            )
            if index == self._physical():  # every server's search response cache watches this position
                self.runtime.announce(conn, NAME, new_position)
        if index == self._physical():
            self.runtime.positions[NAME] = new_position
        return new_position

    def _affected(self, notes: list[tuple[int, Any]]) -> dict[int, int]:
        """listing id -> position of its last event in the batch."""
        versions: dict[int, int] = {}
        streams: dict[UUID, int] = {}
        for position, event in notes:
            if isinstance(event, ListingViewsCounted):
                for key in event.counts:
                    if str(key).isdigit():
                        versions[int(key)] = position
            elif hasattr(event, "listing_id") and type(event).__module__ != "events.listing":
                versions[int(event.listing_id)] = position
            elif type(event).__module__ == "events.listing":
                streams[event.originator_id] = position
        if streams:
            t = self.runtime.tables(LISTING_VIEW)
            with self.pool.connection() as conn:
                rows = conn.execute(
                    f"SELECT stream_id, listing_id FROM {t['profiles']} WHERE stream_id = ANY(%s)", (list(streams),)
                ).fetchall()
            for stream_id, listing_id in rows:
                versions[int(listing_id)] = max(versions.get(int(listing_id), 0), streams[stream_id])
        return versions

    def _bulk(self, index: str, versions: dict[int, int]) -> None:
        operations: list[dict[str, Any]] = []
        for doc in self.documents(list(versions)):
            meta = {"_index": index, "_id": str(doc["listing_id"]), "version": versions[doc["listing_id"]],
                    "version_type": "external"}
            operations += [{"index": meta}, doc]
        if not operations:
            return
        response = self.client.bulk(operations=operations)
        failed = [item["index"] for item in response["items"]
                  if item["index"].get("status", 500) >= 300 and item["index"].get("status") != 409]
        if failed:  # 409: Elasticsearch already holds this version or a newer one
            raise RuntimeError(f"Elasticsearch refused {len(failed)} documents: {failed[0].get('error')}")

    def documents(self, listing_ids: Iterable[int]) -> list[dict[str, Any]]:
        """The index documents of these listings, from the listing view (the same facts PostgreSQL search uses)."""
        t = self.runtime.tables(LISTING_VIEW)
        with self.pool.connection() as conn:
            rows = conn.execute(
                f"""SELECT l.listing_id, l.slug, l.status, l.week, l.categories, l.primary_category, l.stage, l.country,
                        l.pricing, l.domain, l.votes, l.followers, l.views, l.trend_log, l.launched_at, l.listed_at,
                        p.state->'profile'
                    FROM {t['listings']} l JOIN {t['profiles']} p USING (listing_id) WHERE l.listing_id = ANY(%s)""",
                (list(listing_ids),),
            ).fetchall()
        docs = []
        for (listing_id, slug, status, week, categories, primary, stage, country, pricing, domain, votes, followers,
             views, trend_log, launched_at, listed_at, profile) in rows:
            keywords = profile.get("keywords") or []
            docs.append({
                "listing_id": listing_id, "slug": slug, "status": status, "week": week, "categories": list(categories),
                "primary_category": primary, "stage": stage, "country": country, "pricing": pricing, "domain": domain,
                "votes": votes, "followers": followers, "views": views, "trend_log": trend_log,
                "launched_at": launched_at.isoformat() if launched_at else None,
                "listed_at": listed_at.isoformat() if listed_at else None,
                "name": str(profile.get("name") or ""), "tagline": str(profile.get("tagline") or ""),
                "keywords": " ".join(map(str, keywords)) if isinstance(keywords, list) else str(keywords),
                "description": str(profile.get("description") or ""),
            })
        return docs

    def catch_up(self, index: str | None = None, upto: int | None = None) -> int:
        position = -1
        while (moved := self.step(index, upto)) >= 0:
            position = moved
        return position

    def rebuild(self) -> str:
        """Fill a fresh physical index from event 0, then point the alias at it and drop the old one."""
        old = self._physical()
        generation = int(old.rsplit("-g", 1)[1]) + 1 if "-g" in old else 2
        new = f"{self.alias}-g{generation}"
        self.client.indices.create(index=new, settings=SETTINGS, mappings=MAPPING)
        self.catch_up(new)
        self.client.indices.update_aliases(actions=[
            {"remove": {"index": old, "alias": self.alias}}, {"add": {"index": new, "alias": self.alias}}])
        self.catch_up(new)
        self.client.indices.delete(index=old)
        with self.pool.connection() as conn:
            conn.execute(f"DELETE FROM {TRACKING} WHERE index_name = %s", (old,))
        position = self._position(new)
        with self.pool.connection() as conn:
            self.runtime.announce(conn, NAME, position)
        self.runtime.positions[NAME] = position
        return new

    # ------------------------------------------------------------ thread

    def start(self) -> None:
        self._loop.start()

    def stop(self) -> None:
        self._loop.stop()
