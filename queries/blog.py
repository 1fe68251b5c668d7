"""The blog: published posts, newest first or matched by full text, and one post with its FAQs."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from events.errors import NotFound
from projections.reads import ReadStore
from queries.paging import SLUG_PATTERN, PageInfo, Paging, page_of

VIEW = "content_view"


class ListBlogPosts(Paging):
    """Published blog posts, newest first; with `q`, the posts matching it (full text), best match first."""

    q: str | None = Field(None, max_length=200, description="Words to look for in title, summary, tags and text.")


class GetBlogPost(BaseModel):
    """A published blog post: its full text in Markdown and its FAQs."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    slug: str = Field(pattern=SLUG_PATTERN, max_length=220, description="Blog post slug.")


class BlogFaq(BaseModel):
    question: str
    answer: str


class BlogPostSummary(BaseModel):
    slug: str
    title: str
    summary: str
    tags: list[str]
    author: str
    published_at: str


class BlogPostList(PageInfo):
    items: list[BlogPostSummary]


class BlogPost(BlogPostSummary):
    markdown: str
    faqs: list[BlogFaq]
    updated_at: str


SUMMARY_COLUMNS = "slug, title, summary, tags, author, published_at"


def _summary(r: tuple[Any, ...]) -> dict[str, Any]:
    return {"slug": r[0], "title": r[1], "summary": r[2], "tags": r[3], "author": r[4], "published_at": r[5].isoformat()}


def list_blog_posts(reads: ReadStore, q: ListBlogPosts) -> dict[str, Any]:
    t = reads.tables(VIEW)
    params: dict[str, Any] = {"limit": q.per_page, "offset": q.offset}
    text = (q.q or "").replace("\x00", "").strip()  # PostgreSQL text cannot hold NUL
    if text:
        params |= {"q": text, "like": "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"}
        source = (f"FROM {t['posts']}, websearch_to_tsquery('english', %(q)s) query "
                  "WHERE published AND (search @@ query OR title ILIKE %(like)s)")
        order = "ts_rank_cd(search, query) DESC, published_at DESC, slug"
    else:
        source, order = f"FROM {t['posts']} WHERE published", "published_at DESC, slug"
    with reads.pool.connection() as conn:
        (total,) = conn.execute(f"SELECT count(*) {source}", params).fetchone()  # type: ignore[misc]
        rows = conn.execute(
            f"SELECT {SUMMARY_COLUMNS} {source} ORDER BY {order} LIMIT %(limit)s OFFSET %(offset)s", params
        ).fetchall()
    return page_of([_summary(r) for r in rows], q, int(total))


def get_blog_post(reads: ReadStore, q: GetBlogPost) -> dict[str, Any]:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(
            f"SELECT {SUMMARY_COLUMNS}, markdown, faqs, updated_at FROM {t['posts']} WHERE slug = %s AND published",
            (q.slug,),
        ).fetchone()
    if row is None:
        raise NotFound(f"no published blog post {q.slug!r}")
    return _summary(row) | {"markdown": row[6], "faqs": row[7], "updated_at": row[8].isoformat()}
