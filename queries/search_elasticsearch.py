"""The Elasticsearch search backend: the same request on an alias fed by `projections/search_index.py`."""

from __future__ import annotations

from typing import Any

from projections.reads import ReadStore
from queries.search import SearchPage, SearchRequest, cards_by_id


ES_SORTS: dict[str, list[dict[str, Any]]] = {
    "votes": [{"votes": "desc"}, {"launched_at": "asc"}, {"listing_id": "asc"}],
    "newest": [{"listed_at": "desc"}, {"listing_id": "desc"}],
    "trending": [{"trend_log": {"order": "desc", "missing": "_last"}}, {"votes": "desc"}, {"launched_at": "asc"},
                 {"listing_id": "asc"}],
    "most_viewed": [{"views": "desc"}, {"votes": "desc"}, {"launched_at": "asc"}, {"listing_id": "asc"}],
    "most_followed": [{"followers": "desc"}, {"votes": "desc"}, {"launched_at": "asc"}, {"listing_id": "asc"}],
    "relevance": [{"_score": "desc"}, {"votes": "desc"}, {"launched_at": "asc"}, {"listing_id": "asc"}],
    "soonest": [{"week": "asc"}, {"listed_at": "asc"}, {"listing_id": "asc"}],
}


class ElasticsearchSearch:
    """The same request on an Elasticsearch alias fed by `projections/search_index.py`.

    Every query word must match (itself, a vocabulary correction, or a fuzzy
    variant) in name^5, tagline^2, keywords^2 or description; a name that
    resembles the whole query (trigrams) also counts. Cards come from the listing
    view, in the order Elasticsearch ranked their ids.
    """

    name = "elasticsearch"

    def __init__(self, reads: ReadStore, client: Any, alias: str) -> None:
        self.reads = reads
        self.client = client
        self.alias = alias

    def body(self, r: SearchRequest) -> dict[str, Any]:
        filters: list[dict[str, Any]] = []
        if r.status == "upcoming":
            filters.append({"bool": {"should": [
                {"term": {"status": "scheduled"}},
                {"bool": {"filter": [{"term": {"status": "awaiting_badge"}}, {"range": {"week": {"gte": r.this_week}}}]}},
            ], "minimum_should_match": 1}})
        else:
            filters.append({"term": {"status": "live"}})
        for field_name, value in (("stage", r.stage), ("country", r.country), ("pricing", r.pricing), ("domain", r.domain)):
            if value is not None:
                filters.append({"term": {field_name: value}})
        if r.categories is not None:
            filters.append({"terms": {"categories": list(r.categories)}})
        query: dict[str, Any] = {"bool": {"filter": filters}}
        if r.corrections:
            fields = ["name^5", "tagline^2", "keywords^2", "description"]
            words = {"bool": {"must": [
                {"bool": {"should": [
                    {"multi_match": {"query": c.token, "fields": fields, "fuzziness": "AUTO"}},
                    *({"multi_match": {"query": w, "fields": fields}}
                      for w in dict.fromkeys((*c.words, *c.completions)) if w != c.token),
                ], "minimum_should_match": 1}}
                for c in r.corrections
            ]}}
            name_like = {"match": {"name.grams": {"query": r.text or "", "minimum_should_match": "60%", "boost": 3}}}
            query["bool"]["should"] = [words, name_like, {"term": {"name.raw": {"value": r.corrected, "boost": 10}}}]
            query["bool"]["minimum_should_match"] = 1
        return {"query": query, "sort": ES_SORTS[r.order], "from_": r.offset, "size": r.limit,
                "track_total_hits": True, "source": False}

    def search(self, r: SearchRequest) -> SearchPage:
        if r.categories is not None and not r.categories:
            return SearchPage()
        response = self.client.search(index=self.alias, **self.body(r))
        ids = [int(hit["_id"]) for hit in response["hits"]["hits"]]
        total = int(response["hits"]["total"]["value"])
        return SearchPage(cards_by_id(self.reads, ids), total, True, r.offset + len(ids) < total)
