"""Blog posts as the staff see them: every post, drafts included, and what was recorded on each.

The public blog (`queries/blog.py`) shows published posts only; the staff's
pages (`/staff/blog`) list every post from the same table of `content_view`,
newest first. A post's changes are read from the event log itself, its stream
only (the log's primary key serves that), because publishing and unpublishing
do not move the table's `updated_at`: the last entry is the post's last change,
whoever made it and through which door. The caller names the stream (the
uuid5 of the slug, `aggregates.content.post_stream`), so this layer needs no
write-side code.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from uuid import UUID

from events.content import BlogPostPublished, BlogPostRevised, BlogPostUnpublished, BlogPostWritten
from projections.reads import ReadStore
from queries.paging import Paging, page_of

VIEW = "content_view"
HISTORY_LIMIT = 50


def post_state(published: bool, published_at: datetime | None) -> str:
    """`published`, `unpublished` (taken off the site after being on it) or `draft` (never published)."""
    if published:
        return "published"
    return "unpublished" if published_at is not None else "draft"


def staff_blog_posts(reads: ReadStore, paging: Paging, stream_of: Callable[[str], UUID]) -> dict[str, Any]:
    """Every post, newest written first: slug, title, state, when written and published, and its last change."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        (total,) = conn.execute(f"SELECT count(*) FROM {t['posts']}").fetchone()  # type: ignore[misc]
        rows = conn.execute(
            f"""SELECT slug, title, published, published_at, created_at, updated_at FROM {t['posts']}
                ORDER BY created_at DESC, slug LIMIT %s OFFSET %s""", (paging.per_page, paging.offset),
        ).fetchall()
    items = []
    for slug, title, published, published_at, created_at, updated_at in rows:
        changes = post_changes(reads, stream_of(slug), limit=1)
        last = changes[0] if changes else {"at": updated_at, "actor": "", "channel": "", "what": "changed"}
        items.append({"slug": slug, "title": title, "state": post_state(published, published_at),
                      "created_at": created_at, "published_at": published_at, "last_change": last})
    return page_of(items, paging, int(total))


def post_changes(reads: ReadStore, stream: UUID, limit: int = HISTORY_LIMIT) -> list[dict[str, Any]]:
    """What was recorded on one post's stream, newest first: when, by whom, through which door, and what."""
    found = reads.runtime.events.newest(None, limit, (), stream)
    return [{"at": getattr(event, "timestamp", None), "actor": str(getattr(event, "actor", "") or ""),
             "channel": str(getattr(event, "channel", "") or ""), "what": _what(event)} for _, event in found]


def _what(event: Any) -> str:
    """An event of the post in a few words ("revised: title, tags")."""
    if isinstance(event, BlogPostWritten):
        return "written"
    if isinstance(event, BlogPostRevised):
        return "revised: " + ", ".join(sorted(event.changes))
    if isinstance(event, BlogPostPublished):
        return "published"
    if isinstance(event, BlogPostUnpublished):
        return "unpublished"
    return type(event).__name__
