"""The Elasticsearch feeder and search backend through the official client, against a stand-in server.

The stand-in (tests/es_standin.py) speaks the REST API on 127.0.0.1 with
Elasticsearch's external versioning and strict mappings, so these tests check
what the indexer sends, in which versions, and when it moves its position:
only after a bulk request succeeded. Relevance itself needs a real server
(tests/integration/test_search_elasticsearch.py, with ELASTICSEARCH_URL).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from elasticsearch import ApiError

from commands import community
from projections.log import EventLog
from projections.search_index import ElasticsearchIndexer, elasticsearch_client
from queries import listings as listings_q
from queries.search_elasticsearch import ElasticsearchSearch
from tests.es_standin import StandIn
from tests.integration.test_listing_view import AT, META, make, sync


@pytest.fixture
def standin() -> Iterator[StandIn]:
    with StandIn() as server:
        yield server


@pytest.fixture
def feeder(container, standin):  # type: ignore[no-untyped-def]
    indexer = ElasticsearchIndexer(elasticsearch_client(standin.url), container.pool, container.runtime,
                                   EventLog(container.store.app), "listings")
    indexer.setup()
    return container, standin, indexer


def docs(server: StandIn, index: str = "listings-g1") -> dict[str, tuple[int, dict[str, Any]]]:
    return {d["slug"]: (v, d) for v, d in server.indices[index].docs.values()}


def test_documents_carry_the_last_position_as_version(feeder) -> None:  # type: ignore[no-untyped-def]
    c, server, indexer = feeder
    a = make(c, "Index Me", keywords=["tools"], country="de")
    make(c, "Draft Only", live=False)
    community.cast_vote(c.store, a.listing_id, "fan", META)
    sync(c)
    position = indexer.catch_up()
    assert position == c.runtime.positions["listing_view"] == c.runtime.positions["listing_search"]
    indexed = docs(server)
    version, doc = indexed["index-me"]
    assert 0 < version <= position
    assert (doc["status"], doc["votes"], doc["country"], doc["keywords"]) == ("live", 1, "DE", "tools")
    assert indexed["draft-only"][1]["status"] == "draft"  # indexed, filtered out by status at query time
    assert "billboard" not in str(doc)
    assert indexer.step() == -1  # nothing new


def test_a_failed_bulk_keeps_the_position_and_a_replay_is_refused_harmlessly(feeder) -> None:  # type: ignore[no-untyped-def]
    c, server, indexer = feeder
    make(c, "Retry Me")
    sync(c)
    server.fail_bulks = 1
    with pytest.raises(ApiError):
        indexer.step()
    assert indexer._position("listings-g1") == 0  # tracking moves only after a successful bulk
    first = indexer.catch_up()
    assert first > 0 and len(docs(server)) == 1
    with c.pool.connection() as conn:  # lose the position: the same versions go again and are refused
        conn.execute("UPDATE launchdir_search_tracking SET position = 0")
    bulks = server.bulks
    assert indexer.catch_up() == first
    assert server.bulks > bulks and len(docs(server)) == 1  # sent again, refused as 409, counted as done


def test_the_feeder_never_runs_ahead_of_the_listing_view(feeder) -> None:  # type: ignore[no-untyped-def]
    c, server, indexer = feeder
    make(c, "Not Yet Projected")
    assert indexer.step() == -1 or docs(server) == {}  # the view has not moved yet
    sync(c)
    indexer.catch_up()
    assert list(docs(server)) == ["not-yet-projected"]


def test_rebuild_fills_a_new_index_and_moves_the_alias(feeder) -> None:  # type: ignore[no-untyped-def]
    c, server, indexer = feeder
    make(c, "First")
    make(c, "Second")
    sync(c)
    indexer.catch_up()
    assert indexer.rebuild() == "listings-g2"
    assert server.aliases["listings"] == "listings-g2" and "listings-g1" not in server.indices
    assert set(docs(server, "listings-g2")) == {"first", "second"}
    assert c.runtime.positions["listing_search"] == c.runtime.positions["listing_view"]


def test_search_backend_returns_cards_in_the_servers_order(feeder) -> None:  # type: ignore[no-untyped-def]
    c, server, indexer = feeder
    low, high = make(c, "Low Votes"), make(c, "High Votes")
    make(c, "Not Live", live=False)
    for fan in ("a", "b"):
        community.cast_vote(c.store, high.listing_id, fan, META)
    community.cast_vote(c.store, low.listing_id, "a", META)
    sync(c)
    indexer.catch_up()
    backend = ElasticsearchSearch(c.services.reads, elasticsearch_client(server.url), "listings")
    out = listings_q.search_listings(c.services.reads, backend, listings_q.SearchListings(sort="votes"), AT.date())
    assert [i["slug"] for i in out["items"]] == ["high-votes", "low-votes"]  # drafts filtered, votes from the view
    assert out["total"] == 2 and out["total_exact"] is True and out["has_more"] is False
    assert [i["votes"] for i in out["items"]] == [2, 1]
    paged = listings_q.search_listings(c.services.reads, backend, listings_q.SearchListings(sort="votes", per_page=1),
                                       AT.date())
    assert [i["slug"] for i in paged["items"]] == ["high-votes"] and paged["has_more"] is True
    assert server.searches[-1]["from"] == 0 and server.searches[-1]["size"] == 1
