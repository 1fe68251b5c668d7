"""Wiring of the public directory: the search backend, the view counter, the Elasticsearch indexer.

`ELASTICSEARCH_URL` set: search runs on Elasticsearch, fed by its indexer
(started where the projections run: inside the server, or in `launchdir projector`
when the servers run with `LAUNCHDIR_PROJECTORS=external`); otherwise on PostgreSQL in the listing view.
Views counted by get_listing are flushed every `LAUNCHDIR_VIEW_FLUSH_SECONDS`.

Two steps, because the operations' services hold the search backend and the
counter while the flusher runs on the services' clock: `search_backend` before
the services are built, `wire_directory` after.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aggregates.base import Meta
from api.services import Services
from commands.store import EventStore
from launchdir.settings import Settings
from projections.reads import ReadStore
from projections.runtime import ProjectionRuntime
from queries.search import SearchBackend
from queries.search_postgres import PostgresSearch
from workers.views import ViewCounter, ViewFlusher

if TYPE_CHECKING:
    from projections.search_index import ElasticsearchIndexer

log = logging.getLogger(__name__)


@dataclass
class Directory:
    search: SearchBackend
    views: ViewCounter
    flusher: ViewFlusher
    indexer: ElasticsearchIndexer | None = None  # when ELASTICSEARCH_URL is set

    def start(self, run_indexer: bool = True) -> None:
        """Start the view flusher, and the indexer where this process runs projections."""
        self.flusher.start()
        if run_indexer:
            self.start_indexer()

    def start_indexer(self) -> None:
        """Feed Elasticsearch from this process (the server's, or `launchdir projector`'s)."""
        if self.indexer is not None:
            self.indexer.start()

    def stop(self) -> None:
        if self.indexer is not None:
            self.indexer.stop()
        self.flusher.stop()


def search_backend(settings: Settings, store: EventStore, reads: ReadStore,
                   runtime: ProjectionRuntime) -> tuple[SearchBackend, ElasticsearchIndexer | None]:
    """PostgreSQL search; or, with `ELASTICSEARCH_URL`, Elasticsearch and the indexer that feeds it."""
    search: SearchBackend = PostgresSearch(reads)
    indexer = None
    if settings.elasticsearch_url:
        from projections.log import EventLog
        from projections.search_index import ElasticsearchIndexer, elasticsearch_client
        from queries.search_elasticsearch import ElasticsearchSearch

        client = elasticsearch_client(settings.elasticsearch_url)
        indexer = ElasticsearchIndexer(client, reads.primary, runtime, EventLog(store.app), settings.elasticsearch_index)
        indexer.setup()
        search = ElasticsearchSearch(reads, client, settings.elasticsearch_index)
    return search, indexer


def wire_directory(services: Services, settings: Settings, views: ViewCounter,
                   indexer: ElasticsearchIndexer | None = None) -> Directory:
    """The flusher of the view counter the operations hit, with the services' search backend and the indexer."""

    def meta() -> Meta:
        return Meta(at=services.now(), actor="system", channel="system")

    flusher = ViewFlusher(views, services.store, meta, interval=settings.view_flush_seconds)
    return Directory(services.search, views, flusher, indexer)
