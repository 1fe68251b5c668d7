"""Content operations: founders and the blog."""

from __future__ import annotations

from typing import Any

from api.ops.caller import naming
from api.registry import Operation
from api.services import Call, Services
from queries import blog as blog_q
from queries import founders as founders_q

CONTENT = ("content_view",)


def _founders(s: Services, q: founders_q.ListFounders, c: Call) -> dict[str, Any]:
    return founders_q.list_founders(s.reads, q)


def _founder(s: Services, q: founders_q.GetFounder, c: Call) -> dict[str, Any]:
    return founders_q.get_founder(s.reads, q)


def _posts(s: Services, q: blog_q.ListBlogPosts, c: Call) -> dict[str, Any]:
    return blog_q.list_blog_posts(s.reads, q)


def _post(s: Services, q: blog_q.GetBlogPost, c: Call) -> dict[str, Any]:
    return blog_q.get_blog_post(s.reads, q)


def operations() -> list[Operation]:
    """Founders and blog rows of the operation table."""
    return [
        Operation("list_founders", "GET", "/founders", founders_q.ListFounders, founders_q.FounderList, _founders,
                  tag="founders", cache_projections=CONTENT, cache_seconds=60),
        Operation("get_founder", "GET", "/founders/{slug}", founders_q.GetFounder, founders_q.FounderProfile, naming("slug", _founder),
                  tag="founders", cache_projections=(*CONTENT, "interview_view", "catalog_view"),  # interview answers
                  cache_seconds=60),
        Operation("list_blog_posts", "GET", "/blog", blog_q.ListBlogPosts, blog_q.BlogPostList, _posts,
                  tag="blog", cache_projections=CONTENT, cache_seconds=60),
        Operation("get_blog_post", "GET", "/blog/{slug}", blog_q.GetBlogPost, blog_q.BlogPost, naming("slug", _post),
                  tag="blog", cache_projections=CONTENT, cache_seconds=60),
    ]
