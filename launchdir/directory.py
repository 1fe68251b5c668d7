"""Wiring of the public directory: the search backend, the view counter, the Elasticsearch indexer.

`ELASTICSEARCH_URL` set: search runs on Elasticsearch, fed by its indexer
(started where the projections run: inside the server, or in `launchdir projector`
when the servers run with `LAUNCHDIR_PROJECTORS=external`); otherwise on PostgreSQL in the listing view.
Views counted by get_listing are flushed every `LAUNCHDIR_VIEW_FLUSH_SECONDS`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from aggregates.base import Meta
from api.services import Services
from launchdir.settings import Settings
from queries.search import SearchBackend
from queries.search_postgres import PostgresSearch
from workers.views import ViewCounter, ViewFlusher

log = logging.getLogger(__name__)


@dataclass
class Directory:
    search: SearchBackend
    views: ViewCounter
    flusher: ViewFlusher
    indexer: Any = None  # projections.search_index.ElasticsearchIndexer when configured

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


def wire_directory(services: Services, settings: Settings) -> Directory:
    """Choose the search backend and build the view counter; put both where the operations find them."""
    search: SearchBackend = PostgresSearch(services.reads)
    indexer = None
    if settings.elasticsearch_url:
        from projections.log import EventLog
        from projections.search_index import ElasticsearchIndexer, elasticsearch_client
        from queries.search_elasticsearch import ElasticsearchSearch

        client = elasticsearch_client(settings.elasticsearch_url)
        indexer = ElasticsearchIndexer(client, services.reads.pool, services.runtime, EventLog(services.store.app),
                                       settings.elasticsearch_index)
        indexer.setup()
        search = ElasticsearchSearch(services.reads, client, settings.elasticsearch_index)
    views = ViewCounter()

    def meta() -> Meta:
        return Meta(at=services.now(), actor="system", channel="system")

    flusher = ViewFlusher(views, services.store, meta, interval=settings.view_flush_seconds)
    services.extras["search"] = search
    services.extras["views"] = views
    return Directory(search, views, flusher, indexer)
