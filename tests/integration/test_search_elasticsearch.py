"""The Elasticsearch backend against a real server (skipped unless ELASTICSEARCH_URL is set).

The indexer is fed from the log like any projection; the same searches as
the PostgreSQL tests must find the same listings.
"""

from __future__ import annotations

import os
import uuid
from typing import Any

import pytest

from commands import community
from queries import listings as listings_q
from tests.integration.test_listing_view import AT, META, make, sync

URL = os.environ.get("ELASTICSEARCH_URL")
pytestmark = pytest.mark.skipif(not URL, reason="ELASTICSEARCH_URL is not set")


@pytest.fixture
def es(container):  # type: ignore[no-untyped-def]
    from projections.log import EventLog
    from projections.search_index import ElasticsearchIndexer, elasticsearch_client
    from queries.search_elasticsearch import ElasticsearchSearch

    alias = "launchdir-test-" + uuid.uuid4().hex[:10]
    client = elasticsearch_client(URL)  # type: ignore[arg-type]
    indexer = ElasticsearchIndexer(client, container.pool, container.runtime, EventLog(container.store.app), alias)
    indexer.setup()
    yield container, indexer, ElasticsearchSearch(container.services.reads, client, alias)
    for index in client.indices.get_alias(name=alias):
        client.indices.delete(index=index)


def _search(c: Any, indexer: Any, backend: Any, **params: Any) -> list[str]:
    sync(c)
    indexer.catch_up()
    indexer.client.indices.refresh(index=indexer.alias)
    out = listings_q.search_listings(c.services.reads, backend, listings_q.SearchListings(**params), AT.date())
    return [i["slug"] for i in out["items"]]


def test_typos_filters_and_sorts(es) -> None:  # type: ignore[no-untyped-def]
    c, indexer, backend = es
    make(c, "Notion", categories=("notes-docs",), country="us", website_url="https://www.notion.so")
    make(c, "Figma", categories=("design",), tagline="Design together")
    voted = make(c, "Helper Bot", categories=("ai-assistants",), keywords=["chatbot"], country="de")
    make(c, "Hidden", live=False)
    community.cast_vote(c.store, voted.listing_id, "fan", META)
    assert _search(c, indexer, backend, q="notin")[0] == "notion"
    assert _search(c, indexer, backend, q="figmaa")[0] == "figma"
    assert _search(c, indexer, backend, category="ai") == ["helper-bot"]
    assert _search(c, indexer, backend, country="DE") == ["helper-bot"]
    assert _search(c, indexer, backend, domain="www.notion.so") == ["notion"]
    assert _search(c, indexer, backend, sort="votes")[0] == "helper-bot"
    assert "hidden" not in _search(c, indexer, backend)


def test_replaying_a_batch_is_idempotent(es) -> None:  # type: ignore[no-untyped-def]
    c, indexer, backend = es
    make(c, "Replay Me")
    assert _search(c, indexer, backend, q="replay") == ["replay-me"]
    index = indexer._physical()
    with c.pool.connection() as conn:  # forget the position: the batch is sent again, versions refuse it
        conn.execute("UPDATE launchdir_search_tracking SET position = 0 WHERE index_name = %s", (index,))
    assert indexer.catch_up() > 0
    assert _search(c, indexer, backend, q="replay") == ["replay-me"]
