"""Catalogue operations: site info, categories, interview questions, products."""

from __future__ import annotations

from typing import Any

from api.ops.caller import naming
from api.registry import Operation
from api.services import Call, Services
from queries import catalog as catalog_q

CATALOG = ("catalog_view",)
CATEGORY = ("catalog_view", "launches_view")  # its listing cards carry the verified mark launches_view keeps


def _site(s: Services, q: catalog_q.GetSiteInfo, c: Call) -> dict[str, Any]:
    return catalog_q.get_site_info(s.reads, s.links, str(s.timezone))


def _categories(s: Services, q: catalog_q.ListCategories, c: Call) -> dict[str, Any]:
    return catalog_q.list_categories(s.reads, q)


def _category(s: Services, q: catalog_q.GetCategory, c: Call) -> dict[str, Any]:
    return catalog_q.get_category(s.reads, q)


def _questions(s: Services, q: catalog_q.ListInterviewQuestions, c: Call) -> dict[str, Any]:
    return catalog_q.list_interview_questions(s.reads)


def _products(s: Services, q: catalog_q.ListProducts, c: Call) -> dict[str, Any]:
    return catalog_q.list_products(s.reads, s.today())


def operations() -> list[Operation]:
    """The catalogue's rows of the operation table."""
    return [
        Operation("get_site_info", "GET", "/site", catalog_q.GetSiteInfo, catalog_q.SiteInfo, _site,
                  tag="site", cache_projections=CATALOG, cache_seconds=60),
        Operation("list_categories", "GET", "/categories", catalog_q.ListCategories, catalog_q.CategoryTree,
                  _categories, tag="categories", cache_projections=CATALOG, cache_seconds=60),
        Operation("get_category", "GET", "/categories/{slug}", catalog_q.GetCategory, catalog_q.CategoryDetail,
                  naming("slug", _category), tag="categories", cache_projections=CATEGORY, cache_seconds=60),
        Operation("list_interview_questions", "GET", "/interview-questions", catalog_q.ListInterviewQuestions,
                  catalog_q.InterviewQuestionList, _questions, tag="catalogue", cache_projections=CATALOG,
                  cache_seconds=300),
        Operation("list_products", "GET", "/products", catalog_q.ListProducts, catalog_q.ProductList, _products,
                  tag="catalogue", cache_projections=CATALOG, cache_seconds=60, cache_by_day=True,
                  next_steps="To buy: quote_order, then create_checkout, with `items` of these codes (`listing_id` "
                             "where `needs_listing` is true, a `week` of `weeks` where given)."),
    ]

