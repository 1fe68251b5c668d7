"""Events of founder profiles and blog posts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from events.base import Event


@dataclass(frozen=True, kw_only=True)
class FounderProfileCreated(Event):
    founder_slug: str
    name: str
    bio: str
    country: str | None
    socials: dict[str, str]
    avatar_url: str | None
    account_id: str | None


@dataclass(frozen=True, kw_only=True)
class FounderProfileEdited(Event):
    founder_slug: str
    changes: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class BlogPostWritten(Event):
    slug: str
    title: str
    summary: str
    markdown: str
    faqs: list[dict[str, str]]
    tags: list[str]
    author: str


@dataclass(frozen=True, kw_only=True)
class BlogPostRevised(Event):
    slug: str
    changes: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class BlogPostPublished(Event):
    slug: str


@dataclass(frozen=True, kw_only=True)
class BlogPostUnpublished(Event):
    slug: str
