"""Founder profile and blog post deciders: given a state, when a command is decided, then these events."""

from __future__ import annotations

from datetime import datetime, timezone
from functools import reduce
from typing import Any

import pytest

from aggregates import content
from aggregates.base import Meta
from events.content import (
    BlogPostPublished,
    BlogPostRevised,
    BlogPostUnpublished,
    BlogPostWritten,
    FounderProfileCreated,
    FounderProfileEdited,
)
from events.errors import Conflict, InvalidInput, NotFound

META = Meta(at=datetime(2026, 11, 18, 12, tzinfo=timezone.utc), actor="staff:test", channel="cli")


def _fold(state: Any, events: list[Any]) -> Any:
    return reduce(lambda s, e: content.evolve(e, s), events, state)


def _founder(slug: str = "ada-lovelace", **fields: Any) -> content.FounderState:
    state = content.initial_founder(content.founder_stream(slug))
    return _fold(state, content.decide_create_founder(state, slug, {"name": "Ada Lovelace"} | fields, META))


def _post(slug: str = "hello") -> content.PostState:
    state = content.initial_post(content.post_stream(slug))
    return _fold(state, content.decide_write_post(state, slug, {"title": "Hello", "markdown": "# Hi"}, META))


def test_create_founder_fills_defaults_and_normalises_the_country() -> None:
    state = content.initial_founder(content.founder_stream("ada"))
    (event,) = content.decide_create_founder(state, "ada", {"name": " Ada ", "country": "gb"}, META)
    assert isinstance(event, FounderProfileCreated)
    assert (event.founder_slug, event.name, event.country, event.bio, event.socials) == ("ada", "Ada", "GB", "", {})


def test_a_founder_slug_is_taken_once() -> None:
    with pytest.raises(Conflict):
        content.decide_create_founder(_founder(), "ada-lovelace", {"name": "Other"}, META)


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 161}, "name"),
        ({"name": "A", "country": "GBR"}, "country"),
        ({"name": "A", "bio": "b" * 3001}, "bio"),
        ({"name": "A", "socials": {"Bad Key": "x"}}, "socials.Bad Key"),
        ({"name": "A", "colour": "red"}, "colour"),
    ],
)
def test_founder_bounds(fields: dict[str, Any], field: str) -> None:
    state = content.initial_founder(content.founder_stream("x"))
    with pytest.raises(InvalidInput) as err:
        content.decide_create_founder(state, "x", fields, META)
    assert err.value.problems[0].field == field


def test_edit_founder_records_only_real_changes() -> None:
    state = _founder(bio="Old")
    (event,) = content.decide_edit_founder(state, {"bio": "New", "name": "Ada Lovelace"}, META)
    assert isinstance(event, FounderProfileEdited) and event.changes == {"bio": "New"}
    assert content.decide_edit_founder(_fold(state, [event]), {"bio": "New"}, META) == []
    with pytest.raises(NotFound):
        content.decide_edit_founder(content.initial_founder(content.founder_stream("nobody")), {"bio": "x"}, META)


def test_write_revise_publish_unpublish_a_post() -> None:
    state = content.initial_post(content.post_stream("hello"))
    (written,) = content.decide_write_post(
        state, "hello", {"title": "Hello", "markdown": "# Hi", "tags": ["News"],
                         "faqs": [{"question": "Q?", "answer": "A."}]}, META)
    assert isinstance(written, BlogPostWritten) and written.tags == ["news"] and written.summary == ""
    state = _fold(state, [written])
    (revised,) = content.decide_revise_post(state, {"title": "Hello again", "markdown": "# Hi"}, META)
    assert isinstance(revised, BlogPostRevised) and revised.changes == {"title": "Hello again"}
    (published,) = content.decide_publish_post(state, META)
    assert isinstance(published, BlogPostPublished)
    state = _fold(state, [published])
    assert content.decide_publish_post(state, META) == []  # publishing twice changes nothing
    (unpublished,) = content.decide_unpublish_post(state, META)
    assert isinstance(unpublished, BlogPostUnpublished)
    assert content.decide_unpublish_post(_fold(state, [unpublished]), META) == []


def test_post_rules() -> None:
    with pytest.raises(Conflict):
        content.decide_write_post(_post(), "hello", {"title": "T", "markdown": "M"}, META)
    fresh = content.initial_post(content.post_stream("new"))
    with pytest.raises(InvalidInput):
        content.decide_write_post(fresh, "new", {"title": " ", "markdown": "M"}, META)
    with pytest.raises(InvalidInput):
        content.decide_write_post(fresh, "Bad Slug", {"title": "T", "markdown": "M"}, META)
    with pytest.raises(InvalidInput):
        content.decide_write_post(fresh, "new", {"title": "T", "markdown": "M", "faqs": [{"question": "Q"}]}, META)
    with pytest.raises(InvalidInput):
        content.decide_write_post(fresh, "new", {"title": "T", "markdown": "M", "faqs": [{"question": "Q", "answer": "A"}] * 11}, META)
    with pytest.raises(InvalidInput):
        content.decide_revise_post(_post(), {"markdown": ""}, META)
    with pytest.raises(NotFound):
        content.decide_publish_post(fresh, META)


def test_slug_streams_are_stable_and_distinct() -> None:
    assert content.post_stream("a") == content.post_stream("a") != content.founder_stream("a")
