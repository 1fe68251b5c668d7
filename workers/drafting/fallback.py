"""Drafting with a fallback: the model first, the extractive drafter when it fails."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from workers.adapters.websites import CrawlResult

from .errors import DraftingFailed
from .model import ProfileDraft

log = logging.getLogger(__name__)


class Drafter(Protocol):
    """Anything that drafts a verified profile from a crawl."""

    def draft(
        self, crawl: CrawlResult, categories: list[dict[str, Any]], fields: list[str] | None = None
    ) -> ProfileDraft: ...


def draft_with_fallback(
    primary: Drafter,
    fallback: Drafter,
    crawl: CrawlResult,
    categories: list[dict[str, Any]],
    fields: list[str] | None = None,
    *,
    on_failure: Callable[[DraftingFailed], None] | None = None,
) -> ProfileDraft:
    """``primary.draft(...)``; on :class:`DraftingFailed`, ``fallback.draft(...)`` instead.

    The returned draft's ``drafter`` says which one produced it; ``on_failure``
    (and the log) learn why the primary failed.
    """
    try:
        return primary.draft(crawl, categories, fields)
    except DraftingFailed as failure:
        log.warning("drafting failed (%s), falling back: %s", failure.reason, failure.detail)
        if on_failure is not None:
            on_failure(failure)
        return fallback.draft(crawl, categories, fields)
