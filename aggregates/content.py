"""Deciders for founder profiles and blog posts.

Each profile and each post is its own tiny stream whose id is the uuid5 of its
slug, so a slug names at most one profile (or post): two racing creations of
the same slug collide in the database and the second is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import singledispatch
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from aggregates.base import Meta, StreamKind, one
from events.base import Event
from events.content import (
    BlogPostPublished,
    BlogPostRevised,
    BlogPostUnpublished,
    BlogPostWritten,
    FounderProfileCreated,
    FounderProfileEdited,
)
from events.errors import Conflict, FieldProblem, InvalidInput, NotFound

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,219}$")
COUNTRY = re.compile(r"^[A-Za-z]{2}$")
SOCIAL_KEY = re.compile(r"^[a-z][a-z0-9_]{0,39}$")

MAX_NAME = 160
MAX_BIO = 3000
MAX_URL = 500
MAX_SOCIALS = 14
MAX_TITLE = 200
MAX_SUMMARY = 500
MAX_MARKDOWN = 100_000
MAX_FAQS = 10
MAX_QUESTION = 300
MAX_ANSWER = 1500
MAX_TAGS = 10
MAX_TAG = 40
MAX_AUTHOR = 160

FOUNDER_FIELDS = ("name", "bio", "country", "socials", "avatar_url", "account_id")
POST_FIELDS = ("title", "summary", "markdown", "faqs", "tags", "author")


def founder_stream(slug: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:founder:{slug}")


def post_stream(slug: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:blog:{slug}")


@dataclass(frozen=True)
class FounderState:
    id: UUID
    version: int = 0
    slug: str = ""
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def exists(self) -> bool:
        return self.version > 0


@dataclass(frozen=True)
class PostState:
    id: UUID
    version: int = 0
    slug: str = ""
    fields: dict[str, Any] = field(default_factory=dict)
    published: bool = False

    @property
    def exists(self) -> bool:
        return self.version > 0


def initial_founder(stream_id: UUID) -> FounderState:
    return FounderState(id=stream_id)


def initial_post(stream_id: UUID) -> PostState:
    return PostState(id=stream_id)


# ---------------------------------------------------------------- founder profiles


def decide_create_founder(state: FounderState, slug: str, fields: dict[str, Any], meta: Meta) -> list[Event]:
    """A new profile under a free slug; `name` is required."""
    _check_slug(slug)
    if state.exists:
        raise Conflict(f"the founder slug {slug!r} is taken")
    clean = _founder_fields({"bio": "", "country": None, "socials": {}, "avatar_url": None, "account_id": None} | fields)
    if not clean.get("name"):
        raise InvalidInput("a founder needs a name", [FieldProblem("name", "required", "name is required")])
    return one(state, meta, FounderProfileCreated, founder_slug=slug, **clean)


def decide_edit_founder(state: FounderState, changes: dict[str, Any], meta: Meta) -> list[Event]:
    """Change some fields; unchanged values are dropped, so a repeat edit appends nothing."""
    if not state.exists:
        raise NotFound("no such founder")
    clean = _founder_fields(changes)
    if "name" in clean and not clean["name"]:
        raise InvalidInput("a founder needs a name", [FieldProblem("name", "required", "name is required")])
    real = {k: v for k, v in clean.items() if state.fields.get(k) != v}
    if not real:
        return []
    return one(state, meta, FounderProfileEdited, founder_slug=state.slug, changes=real)


def _founder_fields(raw: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(raw) - set(FOUNDER_FIELDS))
    if unknown:
        raise InvalidInput("unknown founder fields", [FieldProblem(k, "unknown_field", "not a founder field") for k in unknown])
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "name":
            out[key] = _text(key, value, MAX_NAME).strip()
        elif key == "bio":
            out[key] = _text(key, value or "", MAX_BIO)
        elif key == "country":
            if value is not None and not COUNTRY.match(str(value)):
                raise InvalidInput("bad country", [FieldProblem("country", "pattern", "two letters, ISO 3166")])
            out[key] = str(value).upper() if value is not None else None
        elif key == "socials":
            out[key] = _socials(value or {})
        else:  # avatar_url, account_id
            out[key] = _text(key, value, MAX_URL) if value is not None else None
    return out


def _socials(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        raise InvalidInput("socials is an object", [FieldProblem("socials", "type_object", "platform -> link")])
    if len(value) > MAX_SOCIALS:
        raise InvalidInput("too many socials", [FieldProblem("socials", "max_items", f"at most {MAX_SOCIALS}")])
    for key, link in value.items():
        if not SOCIAL_KEY.match(str(key)):
            raise InvalidInput("bad social platform", [FieldProblem(f"socials.{key}", "pattern", SOCIAL_KEY.pattern)])
        _text(f"socials.{key}", link, MAX_URL)
    return {str(k): str(v) for k, v in value.items()}


# ---------------------------------------------------------------- blog posts


def decide_write_post(state: PostState, slug: str, fields: dict[str, Any], meta: Meta) -> list[Event]:
    """A new, unpublished post; `title` and `markdown` are required."""
    _check_slug(slug)
    if state.exists:
        raise Conflict(f"the blog slug {slug!r} is taken")
    clean = _post_fields({"summary": "", "faqs": [], "tags": [], "author": ""} | fields)
    for required in ("title", "markdown"):
        if not str(clean.get(required) or "").strip():
            raise InvalidInput(f"a post needs a {required}", [FieldProblem(required, "required", f"{required} is required")])
    return one(state, meta, BlogPostWritten, slug=slug, **clean)


def decide_revise_post(state: PostState, changes: dict[str, Any], meta: Meta) -> list[Event]:
    if not state.exists:
        raise NotFound("no such blog post")
    clean = _post_fields(changes)
    for required in ("title", "markdown"):
        if required in clean and not str(clean[required]).strip():
            raise InvalidInput(f"a post needs a {required}", [FieldProblem(required, "required", f"{required} is required")])
    real = {k: v for k, v in clean.items() if state.fields.get(k) != v}
    if not real:
        return []
    return one(state, meta, BlogPostRevised, slug=state.slug, changes=real)


def decide_publish_post(state: PostState, meta: Meta) -> list[Event]:
    if not state.exists:
        raise NotFound("no such blog post")
    if state.published:
        return []
    return one(state, meta, BlogPostPublished, slug=state.slug)


def decide_unpublish_post(state: PostState, meta: Meta) -> list[Event]:
    if not state.exists:
        raise NotFound("no such blog post")
    if not state.published:
        return []
    return one(state, meta, BlogPostUnpublished, slug=state.slug)


def _post_fields(raw: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(raw) - set(POST_FIELDS))
    if unknown:
        raise InvalidInput("unknown post fields", [FieldProblem(k, "unknown_field", "not a post field") for k in unknown])
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "title":
            out[key] = _text(key, value, MAX_TITLE).strip()
        elif key == "summary":
            out[key] = _text(key, value or "", MAX_SUMMARY)
        elif key == "markdown":
            out[key] = _text(key, value, MAX_MARKDOWN)
        elif key == "author":
            out[key] = _text(key, value or "", MAX_AUTHOR)
        elif key == "faqs":
            out[key] = _faqs(value or [])
        else:
            out[key] = _tags(value or [])
    return out


def _faqs(value: Any) -> list[dict[str, str]]:
    if not isinstance(value, list):
        raise InvalidInput("faqs is a list", [FieldProblem("faqs", "type_array", "a list of {question, answer}")])
    if len(value) > MAX_FAQS:
        raise InvalidInput("too many FAQs", [FieldProblem("faqs", "max_items", f"at most {MAX_FAQS}")])
    out = []
    for i, faq in enumerate(value):
        if not isinstance(faq, dict) or set(faq) != {"question", "answer"}:
            raise InvalidInput("bad FAQ", [FieldProblem(f"faqs.{i}", "type_object", "{question, answer}, both required")])
        out.append({"question": _text(f"faqs.{i}.question", faq["question"], MAX_QUESTION),
                    "answer": _text(f"faqs.{i}.answer", faq["answer"], MAX_ANSWER)})
    return out


def _tags(value: Any) -> list[str]:
    if not isinstance(value, list) or len(value) > MAX_TAGS:
        raise InvalidInput("bad tags", [FieldProblem("tags", "max_items", f"a list of at most {MAX_TAGS}")])
    return [_text(f"tags.{i}", t, MAX_TAG).strip().lower() for i, t in enumerate(value)]


def _text(name: str, value: Any, limit: int) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{name} is text", [FieldProblem(name, "type_string", "a string")])
    if len(value) > limit:
        raise InvalidInput(f"{name} is too long", [FieldProblem(name, "max_length", f"at most {limit} characters")])
    return value


def _check_slug(slug: str) -> None:
    if not SLUG.match(slug):
        raise InvalidInput("bad slug", [FieldProblem("slug", "pattern", SLUG.pattern)])


# ---------------------------------------------------------------- evolution


@singledispatch
def evolve(event: Event, state: Any) -> Any:
    return replace(state, version=event.originator_version)


@evolve.register
def _(e: FounderProfileCreated, s: FounderState) -> FounderState:
    fields = {k: getattr(e, k) for k in FOUNDER_FIELDS}
    return replace(s, version=e.originator_version, slug=e.founder_slug, fields=fields)


@evolve.register
def _(e: FounderProfileEdited, s: FounderState) -> FounderState:
    return replace(s, version=e.originator_version, fields=s.fields | e.changes)


@evolve.register
def _(e: BlogPostWritten, s: PostState) -> PostState:
    fields = {k: getattr(e, k) for k in POST_FIELDS}
    return replace(s, version=e.originator_version, slug=e.slug, fields=fields)


@evolve.register
def _(e: BlogPostRevised, s: PostState) -> PostState:
    return replace(s, version=e.originator_version, fields=s.fields | e.changes)


@evolve.register
def _(e: BlogPostPublished, s: PostState) -> PostState:
    return replace(s, version=e.originator_version, published=True)


@evolve.register
def _(e: BlogPostUnpublished, s: PostState) -> PostState:
    return replace(s, version=e.originator_version, published=False)


FOUNDER: StreamKind[FounderState] = StreamKind(initial_founder, evolve)
"""Founder profile streams (`founder_stream(slug)`)."""

POST: StreamKind[PostState] = StreamKind(initial_post, evolve)
"""Blog post streams (`post_stream(slug)`)."""
