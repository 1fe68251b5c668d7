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

from api.ops.caller import EXISTS, naming
from api.registry import Operation
from api.services import Call, Services
from events.errors import FieldProblem
from queries import listings as listings_q

LISTINGS = ("listing_view",)
# `listing_search`: the Elasticsearch indexer's position, announced to every process (docs/search.md).
SEARCH = ("listing_view", "search_view", "catalog_view", "listing_search")
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


def _missing_sides(s: Services, q: listings_q.CompareListings, c: Call) -> list[FieldProblem]:
    """`a`, `b` or both: the sides naming no live listing."""
    return [FieldProblem(side, EXISTS, f"no live listing with slug {slug!r}")
            for side, slug in (("a", q.a), ("b", q.b)) if listings_q.live_document(s.reads, slug) is None]


def operations() -> list[Operation]:
    """The listing rows of the operation table."""
    return [
        Operation("search_listings", "GET", "/listings", listings_q.SearchListings, listings_q.ListingSearchPage,
                  _search, tag="listings", cache_projections=SEARCH, cache_seconds=60, cache_by_day=True,
                  next_steps="Each item's `slug` is what get_listing, get_alternatives and get_badges take; ask for "
                             "the next `page` while `has_more` is true."),
        Operation("get_listing", "GET", "/listings/{slug}", listings_q.GetListing, listings_q.ListingProfile,
                  naming("slug", _listing), tag="listings", cache_projections=LISTINGS, cache_seconds=60, on_cached=_count_view),
        Operation("get_alternatives", "GET", "/listings/{slug}/alternatives", listings_q.GetAlternatives,
                  listings_q.AlternativesPage, naming("slug", _alternatives), tag="listings", cache_projections=LISTINGS,
                  cache_seconds=60),
        Operation("compare_listings", "GET", "/compare", listings_q.CompareListings, listings_q.Comparison,
                  naming(_missing_sides, _compare), tag="listings", cache_projections=COMPARE, cache_seconds=60, may_not_find=True),
    ]
