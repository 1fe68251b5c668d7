"""The Elasticsearch feeder's bookkeeping, with a stand-in for the server's bulk API (no server needed).

The stand-in keeps documents and applies external versioning the way
Elasticsearch does (a version not above the stored one is a 409), so these
tests check what the indexer sends, in which versions, and when it moves its
position: only after a bulk request succeeded.
"""

from __future__ import annotations

from typing import Any

import pytest

from commands import community
from projections.log import EventLog
from projections.search_index import ElasticsearchIndexer
from tests.integration.test_listing_view import META, make, sync


class BulkServer:
    """Elasticsearch's index, alias and bulk semantics that the indexer relies on."""

    def __init__(self) -> None:
        self.docs: dict[str, dict[str, tuple[int, dict[str, Any]]]] = {}
        self.aliases: dict[str, str] = {}
        self.fail_next = False
        self.requests = 0
        self.indices = self

    def exists_alias(self, name: str) -> bool:
        return name in self.aliases

    def exists(self, index: str) -> bool:
        return index in self.docs

    def create(self, index: str, settings: Any, mappings: Any) -> None:
        assert mappings["dynamic"] == "strict" and "billboard" not in str(mappings)
        self.docs[index] = {}

    def put_alias(self, index: str, name: str) -> None:
        self.aliases[name] = index

    def get_alias(self, name: str) -> dict[str, Any]:
        return {self.aliases[name]: {}}

    def bulk(self, operations: list[dict[str, Any]]) -> dict[str, Any]:
        self.requests += 1
        if self.fail_next:
            self.fail_next = False
            raise ConnectionError("Elasticsearch is away")
        items = []
        for action, doc in zip(operations[::2], operations[1::2], strict=True):
            meta = action["index"]
            assert meta["version_type"] == "external"
            index = self.docs[meta["_index"]]
            current = index.get(meta["_id"])
            if current is not None and current[0] >= meta["version"]:
                items.append({"index": {"status": 409, "error": {"type": "version_conflict_engine_exception"}}})
            else:
                index[meta["_id"]] = (meta["version"], doc)
                items.append({"index": {"status": 201}})
        return {"errors": any(i["index"]["status"] >= 300 for i in items), "items": items}


@pytest.fixture
def feeder(container):  # type: ignore[no-untyped-def]
    server = BulkServer()
    indexer = ElasticsearchIndexer(server, container.pool, container.runtime, EventLog(container.store.app), "listings")
    indexer.setup()
    return container, server, indexer


def test_documents_carry_the_last_position_as_version(feeder) -> None:  # type: ignore[no-untyped-def]
    c, server, indexer = feeder
    a = make(c, "Index Me", keywords=["tools"], country="de")
    make(c, "Draft Only", live=False)
    community.cast_vote(c.store, a.listing_id, "fan", META)
    sync(c)
    position = indexer.catch_up()
    assert position == c.runtime.positions["listing_view"] == c.runtime.positions["listing_search"]
    docs = {d["slug"]: (v, d) for v, d in server.docs["listings-g1"].values()}
    version, doc = docs["index-me"]
    assert 0 < version <= position
    assert (doc["status"], doc["votes"], doc["country"], doc["keywords"]) == ("live", 1, "DE", "tools")
    assert docs["draft-only"][1]["status"] == "draft"  # indexed, filtered out by status at query time
    assert "billboard" not in str(doc)
    assert indexer.step() == -1  # nothing new


def test_a_failed_bulk_keeps_the_position_and_a_replay_is_refused_harmlessly(feeder) -> None:  # type: ignore[no-untyped-def]
    c, server, indexer = feeder
    make(c, "Retry Me")
    sync(c)
    server.fail_next = True
    with pytest.raises(ConnectionError):
        indexer.step()
    assert indexer._position("listings-g1") == 0  # tracking moves only after a successful bulk
    first = indexer.catch_up()
    assert first > 0 and len(server.docs["listings-g1"]) == 1
    with c.pool.connection() as conn:  # lose the position: the same versions go again and are refused
        conn.execute("UPDATE launchdir_search_tracking SET position = 0")
    assert indexer.catch_up() == first
    assert len(server.docs["listings-g1"]) == 1


def test_the_feeder_never_runs_ahead_of_the_listing_view(feeder) -> None:  # type: ignore[no-untyped-def]
    c, server, indexer = feeder
    make(c, "Not Yet Projected")
    assert indexer.step() == -1 or server.docs["listings-g1"] == {}  # the view has not moved yet
    sync(c)
    indexer.catch_up()
    assert [d["slug"] for _, d in server.docs["listings-g1"].values()] == ["not-yet-projected"]
