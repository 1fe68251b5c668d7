"""Founder profiles and blog posts: create, edit, publish, unpublish.

Staff write these (CLI, demo); a founder's own account may own a profile
(`account_id`) once accounts exist. Slugs are the ids of tiny uuid5 streams,
so a slug is unique without any lookup table.

Edits, publishing and unpublishing answer what was appended (`Appended`):
an edit that changes no field, publishing a published post or unpublishing
one that is not published appends nothing, and the staff command says
nothing changed (exit code 3) rather than done.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from aggregates import content
from aggregates.base import Meta
from commands.store import Appended, EventStore

SLUG_PATTERN = r"^[a-z0-9][a-z0-9-]{0,219}$"


class Faq(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    question: str = Field(max_length=content.MAX_QUESTION)
    answer: str = Field(max_length=content.MAX_ANSWER)


class CreateFounderProfile(BaseModel):
    """Create a founder profile under a new slug."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    slug: str = Field(pattern=SLUG_PATTERN, max_length=220)
    name: str = Field(min_length=1, max_length=content.MAX_NAME)
    bio: str = Field(default="", max_length=content.MAX_BIO)
    country: str | None = Field(default=None, pattern=r"^[A-Za-z]{2}$")
    socials: dict[str, str] = Field(default_factory=dict)
    avatar_url: str | None = Field(default=None, max_length=content.MAX_URL)
    account_id: str | None = Field(default=None, max_length=content.MAX_URL)


class EditFounderProfile(BaseModel):
    """Change some fields of a founder profile; only what is sent changes."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    slug: str = Field(pattern=SLUG_PATTERN, max_length=220)
    changes: dict[str, Any]


class WriteBlogPost(BaseModel):
    """Write a new blog post (unpublished until published)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    slug: str = Field(pattern=SLUG_PATTERN, max_length=220)
    title: str = Field(min_length=1, max_length=content.MAX_TITLE)
    markdown: str = Field(min_length=1, max_length=content.MAX_MARKDOWN)
    summary: str = Field(default="", max_length=content.MAX_SUMMARY)
    faqs: list[Faq] = Field(default_factory=list, max_length=content.MAX_FAQS)
    tags: list[str] = Field(default_factory=list, max_length=content.MAX_TAGS)
    author: str = Field(default="", max_length=content.MAX_AUTHOR)


class ReviseBlogPost(BaseModel):
    """Change some fields of a blog post (title, summary, markdown, faqs, tags, author)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    slug: str = Field(pattern=SLUG_PATTERN, max_length=220)
    changes: dict[str, Any]


def create_founder_profile(store: EventStore, cmd: CreateFounderProfile, meta: Meta) -> int:
    """Returns the notification position; a taken slug is a Conflict (a racing creator loses on retry)."""
    fields = cmd.model_dump(exclude={"slug"})
    return store.decide(content.founder_stream(cmd.slug), content.FOUNDER,
                        lambda s: content.decide_create_founder(s, cmd.slug, fields, meta)).position


def edit_founder_profile(store: EventStore, cmd: EditFounderProfile, meta: Meta) -> Appended:
    """Change the fields sent; no events when each already holds the value sent."""
    return store.decide(content.founder_stream(cmd.slug), content.FOUNDER,
                        lambda s: content.decide_edit_founder(s, cmd.changes, meta))


def founder_state(store: EventStore, slug: str) -> content.FounderState:
    """A founder profile as the commands see it (staff forms show and change it)."""
    state: content.FounderState = store.load(content.founder_stream(slug), content.FOUNDER)
    return state


def founder_exists(store: EventStore, slug: str) -> bool:
    return founder_state(store, slug).exists


def write_blog_post(store: EventStore, cmd: WriteBlogPost, meta: Meta) -> int:
    fields = cmd.model_dump(exclude={"slug"})
    return store.decide(content.post_stream(cmd.slug), content.POST,
                        lambda s: content.decide_write_post(s, cmd.slug, fields, meta)).position


def revise_blog_post(store: EventStore, cmd: ReviseBlogPost, meta: Meta) -> Appended:
    """Change the fields sent; no events when each already holds the value sent."""
    return store.decide(content.post_stream(cmd.slug), content.POST,
                        lambda s: content.decide_revise_post(s, cmd.changes, meta))


def publish_blog_post(store: EventStore, slug: str, meta: Meta) -> Appended:
    """Put the post on the site; no events when it is published already."""
    return store.decide(content.post_stream(slug), content.POST,
                        lambda s: content.decide_publish_post(s, meta))


def unpublish_blog_post(store: EventStore, slug: str, meta: Meta) -> Appended:
    """Take the post off the site; no events when it is not published."""
    return store.decide(content.post_stream(slug), content.POST,
                        lambda s: content.decide_unpublish_post(s, meta))


def blog_post_state(store: EventStore, slug: str) -> content.PostState:
    """The post as the write side sees it (staff tools, the demo's idempotency check)."""
    return store.load(content.post_stream(slug), content.POST)
