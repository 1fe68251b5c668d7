"""The listing card: the one shape in which every list of listings shows each listing.

search_listings, get_alternatives, get_category's `listings`, compare_listings,
launch weeks, launch feeds, leaderboards and awards all carry this card, so a
client reads every list with one parser (docs/api.md, "Listing cards"). The
cards come from two projections: `listing_view` keeps a card per listing for
search, alternatives and categories (with the primary category's name), and
`launches_view` keeps the rows that weeks, feeds, boards and awards rank; each
read adds what its projection does not keep, so both answer the same fields.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field



class CategoryName(BaseModel):
    slug: str
    name: str


class ListingCard(BaseModel):
    """A listing as lists show it; `url` is the product's own website, `id` its `listing_id`."""

    id: int = Field(description="The listing's id (`listing_id` of the owner's operations and of orders).")
    slug: str
    name: str
    url: str | None = Field(description="The product's own website.")
    votes: int = Field(description="Community votes, all time.")
    tagline: str | None
    logo_url: str | None
    status: str
    launch_week: str | None = Field(description="The launch week's Monday, YYYY-MM-DD.")
    category: CategoryName | None = Field(description="The primary category.")
    categories: list[str] = Field(description="Every category's slug, the primary first.")
    verified: bool = Field(description="The company verified it owns the listing (a claim; not the same as paid).")


def listing_view_extras(alias: str = "l") -> str:
    """SQL adding to a `listing_view` card what it does not keep: votes, id, categories.

    `verified` is in the stored card; a card written before it was kept there reads as not verified
    until the listing next changes or the projection is rebuilt.
    """
    return (f"jsonb_build_object('votes', {alias}.votes, 'id', {alias}.listing_id, "
            f"'categories', to_jsonb({alias}.categories), "
            f"'verified', coalesce({alias}.card->'verified', 'false'::jsonb))")


def named(slug: str | None, names: dict[str, str]) -> dict[str, Any] | None:
    """A category slug as the card's `category` object."""
    return {"slug": slug, "name": names.get(slug, slug)} if slug else None
