"""Inputs of the order operations (SPEC §4.7's order body): validated models whose docstrings are the summaries.

The schema holds the table's bounds (no extra properties, 1..20 items, lengths,
patterns); the rules that need the catalogue or the caller's listings (product
codes, weeks, the billboard minimum, categories, options, what a line can do
to a listing now) are `aggregates.order.pricing`'s.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

CategorySlug = Annotated[str, Field(max_length=220, pattern=r"^[a-z0-9][a-z0-9-]{0,219}$")]


# An option's value: a scalar, so every text in it is declared (and checked) like any other input string.
OptionValue = str | int | float | bool | None


class OrderItem(BaseModel):
    """One line of an order: a product, and what it is for."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    product: str = Field(max_length=60, description="A product code from list_products, e.g. `launch`.")
    listing_id: int | None = Field(None, ge=1, le=2_147_483_647,
                                   description="Your listing, for products with `needs_listing=true`.")
    week: str | None = Field(None, max_length=10, pattern=r"^\d{4}-\d{2}-\d{2}$",
                             description="Launch-week Monday, YYYY-MM-DD: one of the product's `weeks` in "
                                         "list_products; for `launch` optional (absent: live at once).")
    amount_cents: int | None = Field(None, ge=1, le=100_000_000,
                                     description="`billboard_min` only: the amount, at least the product's price.")
    categories: list[CategorySlug] | None = Field(None, max_length=10,
                                                  description="`extra_categories` only: up to 3 category slugs.")
    options: dict[str, OptionValue] | None = Field(
        None, max_length=20, description="For products whose list_products entry has `options`: a value per option "
        "(text, number or true/false), checked against the product's declaration.")


class OrderBody(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    items: list[OrderItem] = Field(min_length=1, max_length=20)
    billing_country: str | None = Field(None, min_length=2, max_length=2, pattern=r"^[A-Za-z]{2}$",
                                        description="ISO 3166 two-letter code, for the VAT preview.")
    vat_number: str | None = Field(None, max_length=32,
                                   description="An EU business's VAT number: reverse charge when valid and "
                                               "from another EU country than the seller's.")

    def item_dicts(self) -> list[dict[str, Any]]:
        return [item.model_dump() for item in self.items]


class QuoteOrder(OrderBody):
    """Price an order with the current prices and a VAT preview; checks every line, saves and charges nothing."""


class CreateCheckout(OrderBody):
    """Create a checkout: answers `checkout_url`, a page on the site where the person reviews, enters billing details and pays.

    Give the link to the person and let them pay there themselves: never ask for card or
    payment details (the API takes none). Then poll get_order until its status is no longer
    `pending`: `paid` lasts only while the order's products are delivered, then it is `fulfilled`.
    """
