"""Public listing operations: search, the full profile, alternatives, comparison (SPEC §4.2).

search_listings, get_alternatives and compare_listings answer from the
executor's response cache until their projections move. get_listing does not
use that cache, because every call must count a view: its handler reads the
document from the in-process document cache (`ReadStore.cached`) and counts
the view in memory (the `views` port of the services, a tally in
`workers/views.py`), so a hot read still costs no database round trip.
"""

from __future__ import annotations

from typing import Any

from api.registry import Operation
from api.services import Call, Services
from queries import listings as listings_q

LISTINGS = ("listing_view",)
# `listing_search`: the Elasticsearch indexer's position, announced to every process (docs/search.md).
SEARCH = ("listing_view", "catalog_view", "listing_search")
COMPARE = ("listing_view",)


def _search(s: Services, q: listings_q.SearchListings, c: Call) -> dict[str, Any]:
    return listings_q.search_listings(s.reads, s.search, q, s.today())


def _count_view(s: Services, doc: dict[str, Any]) -> None:
    """A view is counted in memory on every answer, cached or not (flushed as one event later)."""
    s.views.hit(int(doc["listing_id"]))


def _listing(s: Services, q: listings_q.GetListing, c: Call) -> dict[str, Any]:
    doc = listings_q.get_listing(s.reads, q, s.links)
    _count_view(s, doc)
    return doc


def _alternatives(s: Services, q: listings_q.GetAlternatives, c: Call) -> dict[str, Any]:
    return listings_q.get_alternatives(s.reads, q)


def _compare(s: Services, q: listings_q.CompareListings, c: Call) -> dict[str, Any]:
    return listings_q.compare_listings(s.reads, q)


def operations() -> list[Operation]:
    """The listing rows of the operation table."""
    return [
        Operation("search_listings", "GET", "/listings", listings_q.SearchListings, listings_q.ListingSearchPage,
                  _search, tag="listings", cache_projections=SEARCH, cache_seconds=60, cache_by_day=True),
        Operation("get_listing", "GET", "/listings/{slug}", listings_q.GetListing, listings_q.ListingProfile,
                  _listing, tag="listings", cache_projections=LISTINGS, cache_seconds=60, on_cached=_count_view),
        Operation("get_alternatives", "GET", "/listings/{slug}/alternatives", listings_q.GetAlternatives,
                  listings_q.AlternativesPage, _alternatives, tag="listings", cache_projections=LISTINGS,
                  cache_seconds=60),
        Operation("compare_listings", "GET", "/compare", listings_q.CompareListings, listings_q.Comparison,
                  _compare, tag="listings", cache_projections=COMPARE, cache_seconds=60, may_not_find=True),
    ]
