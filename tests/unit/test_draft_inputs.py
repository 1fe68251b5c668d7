"""Every bound of SPEC §4.3/§4.4 on the draft inputs is a validation error naming the field and the rule.

The same pydantic models validate REST and MCP, and `api.problems` turns their
errors into the 400 problem; the e2e tests check a sample of these over HTTP.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from api.problems import field_problems
from commands.draft import InviteCofounder, SubmitListing, UpdateDraft
from events.draft_fields import SOCIAL_KEYS, STORY_SECTIONS

ID = "0b0e4c1e-0d3c-4a5e-9a44-2b3f0d3c1a11"
STRING_500 = ("name", "tagline", "short_description", "stage", "pricing_model", "pricing_summary", "city")
LISTS = ("categories", "tags", "features", "usps", "keywords")


def problems(model: type[BaseModel], body: dict[str, Any]) -> set[tuple[str, str]]:
    with pytest.raises(ValidationError) as err:
        model.model_validate(body)
    return {(p.field, p.rule) for p in field_problems(err.value)}


def update(**body: Any) -> set[tuple[str, str]]:
    return problems(UpdateDraft, {"id": ID, **body})


# ---------------------------------------------------------------- submit_listing


@pytest.mark.parametrize(("body", "expected"), [
    ({}, ("url", "required")),
    ({"url": ""}, ("url", "min_length")),
    ({"url": "https://a.example/" + "x" * 2040}, ("url", "max_length")),
    ({"url": 42}, ("url", "type_string")),
    ({"url": "https://a.example/", "name": "Acme"}, ("name", "unknown_field")),
])
def test_submit_listing_takes_only_a_url_of_at_most_2048(body: dict[str, Any], expected: tuple[str, str]) -> None:
    assert expected in problems(SubmitListing, body)


def test_a_2048_character_url_is_accepted() -> None:
    url = "https://a.example/" + "x" * (2048 - len("https://a.example/"))
    assert SubmitListing.model_validate({"url": url}).url == url


# ---------------------------------------------------------------- update_draft: fields


@pytest.mark.parametrize("name", STRING_500)
def test_short_text_fields_take_at_most_500(name: str) -> None:
    assert UpdateDraft.model_validate({"id": ID, "fields": {name: "x" * 500}})
    assert update(fields={name: "x" * 501}) == {(f"fields.{name}", "max_length")}


def test_description_takes_at_most_20000() -> None:
    assert UpdateDraft.model_validate({"id": ID, "fields": {"description": "x" * 20000}})
    assert update(fields={"description": "x" * 20001}) == {("fields.description", "max_length")}


@pytest.mark.parametrize("name", LISTS)
def test_list_fields_take_20_items_of_at_most_200(name: str) -> None:
    assert UpdateDraft.model_validate({"id": ID, "fields": {name: ["x" * 200] * 20}})
    assert update(fields={name: ["a"] * 21}) == {(f"fields.{name}", "max_items")}
    assert update(fields={name: ["ok", "x" * 201]}) == {(f"fields.{name}.1", "max_length")}
    assert update(fields={name: "not a list"}) == {(f"fields.{name}", "type_array")}


@pytest.mark.parametrize(("name", "value", "rule"), [
    ("country", "Germany", "pattern"),
    ("founded_year", "21", "pattern"),
    ("contact_email", "not-an-email", "format"),
    ("logo_url", "javascript:alert(1)", "format"),
    ("demo_video_url", "ftp://video.example/x", "format"),
    ("logo_url", "https://a.example/" + "x" * 500, "max_length"),
])
def test_fields_with_a_format(name: str, value: str, rule: str) -> None:
    assert update(fields={name: value}) == {(f"fields.{name}", rule)}


def test_fields_take_null_and_no_unknown_keys() -> None:
    model = UpdateDraft.model_validate({"id": ID, "fields": {"name": None, "tags": None}})
    assert model.fields is not None and model.fields.model_fields_set == {"name", "tags"}
    assert update(fields={"colour": "red"}) == {("fields.colour", "unknown_field")}
    assert update(fields="name") == {("fields", "type_object")}
    assert update(colour="red") == {("colour", "unknown_field")}


# ---------------------------------------------------------------- update_draft: lock, regenerate, restore


@pytest.mark.parametrize(("key", "limit"), [("lock_fields", 20), ("regenerate", 5), ("restore", 20)])
def test_field_name_lists(key: str, limit: int) -> None:
    names = ["name", "tagline", "short_description", "description", "stage", "pricing_model", "pricing_summary",
             "country", "city", "founded_year", "contact_email", "demo_video_url", "logo_url", "categories", "tags",
             "features", "usps", "keywords", "faqs", "founders", "company_socials"]
    assert UpdateDraft.model_validate({"id": ID, key: names[:limit]})
    assert update(**{key: (names * 2)[: limit + 1]}) == {(key, "max_items")}
    assert update(**{key: ["nope"]}) == {(f"{key}.0", "enum")}


# ---------------------------------------------------------------- update_draft: sections


def test_faqs() -> None:
    faq = {"question": "q" * 300, "answer": "a" * 1500}
    assert UpdateDraft.model_validate({"id": ID, "faqs": [faq] * 10})
    assert update(faqs=[faq] * 11) == {("faqs", "max_items")}
    assert update(faqs=[{"question": "q" * 301, "answer": "a"}]) == {("faqs.0.question", "max_length")}
    assert update(faqs=[{"question": "q", "answer": "a" * 1501}]) == {("faqs.0.answer", "max_length")}
    assert update(faqs=[{"question": "q"}]) == {("faqs.0.answer", "required")}
    assert update(faqs=[{"question": "q", "answer": "a", "votes": 1}]) == {("faqs.0.votes", "unknown_field")}


@pytest.mark.parametrize("key", ["company_socials", "founder_socials"])
def test_socials_take_website_custom_and_twelve_platforms(key: str) -> None:
    assert len(SOCIAL_KEYS) == 14 and {"website", "custom"} <= set(SOCIAL_KEYS)
    links = {k: f"https://{k}.example/acme" for k in SOCIAL_KEYS}
    assert UpdateDraft.model_validate({"id": ID, key: links})
    assert update(**{key: {"myspace": "https://myspace.example/a"}}) == {(f"{key}.myspace", "unknown_field")}
    assert update(**{key: {"x": "https://x.example/" + "a" * 490}}) == {(f"{key}.x", "max_length")}
    assert update(**{key: {"x": "javascript:alert(1)"}}) == {(f"{key}.x", "format")}


def test_founders() -> None:
    founder = {"name": "n" * 160, "title": "t" * 160, "bio": "b" * 3000}
    assert UpdateDraft.model_validate({"id": ID, "founders": [founder] * 6})
    assert update(founders=[founder] * 7) == {("founders", "max_items")}
    assert update(founders=[{"title": "CEO"}]) == {("founders.0.name", "required")}
    assert update(founders=[{"name": "n" * 161}]) == {("founders.0.name", "max_length")}
    assert update(founders=[{"name": "n", "title": "t" * 161}]) == {("founders.0.title", "max_length")}
    assert update(founders=[{"name": "n", "bio": "b" * 3001}]) == {("founders.0.bio", "max_length")}


@pytest.mark.parametrize("section", STORY_SECTIONS)
def test_story_sections_take_at_most_8000(section: str) -> None:
    assert UpdateDraft.model_validate({"id": ID, "story": {section: "s" * 8000}})
    assert update(story={section: "s" * 8001}) == {(f"story.{section}", "max_length")}


def test_story_has_only_the_named_sections() -> None:
    assert update(story={"moral": "x"}) == {("story.moral", "unknown_field")}


def test_milestones() -> None:
    milestone = {"date": "2024-02-29", "title": "t" * 200, "description": "d" * 2000, "url": "https://a.example/x"}
    assert UpdateDraft.model_validate({"id": ID, "milestones": [milestone] * 50})
    assert update(milestones=[milestone] * 51) == {("milestones", "max_items")}
    assert update(milestones=[{"title": "t"}]) == {("milestones.0.date", "required")}
    assert update(milestones=[{"date": "2024-01-01"}]) == {("milestones.0.title", "required")}
    assert update(milestones=[{"date": "01/02/2024", "title": "t"}]) == {("milestones.0.date", "pattern")}
    assert update(milestones=[{"date": "2023-02-29", "title": "t"}]) == {("milestones.0.date", "format_date")}
    assert update(milestones=[{"date": "2024-01-01", "title": "t" * 201}]) == {("milestones.0.title", "max_length")}
    assert update(milestones=[{"date": "2024-01-01", "title": "t", "description": "d" * 2001}]) == {
        ("milestones.0.description", "max_length")}
    assert update(milestones=[{"date": "2024-01-01", "title": "t", "url": "http://a.example/"}]) == {
        ("milestones.0.url", "format")}
    assert update(milestones=[{"date": "2024-01-01", "title": "t", "url": "https://a.example/" + "x" * 490}]) == {
        ("milestones.0.url", "max_length")}


def test_competitor_url_and_seo() -> None:
    assert UpdateDraft.model_validate({"id": ID, "competitor_url": ""})
    assert update(competitor_url="https://a.example/" + "x" * 2040) == {("competitor_url", "max_length")}
    assert UpdateDraft.model_validate({"id": ID, "seo": {"title": "t" * 70, "meta": "m" * 170}})
    assert update(seo={"title": "t" * 71}) == {("seo.title", "max_length")}
    assert update(seo={"meta": "m" * 171}) == {("seo.meta", "max_length")}
    assert update(seo={"keywords": "x"}) == {("seo.keywords", "unknown_field")}


def test_the_draft_id_is_a_uuid() -> None:
    assert problems(UpdateDraft, {"id": "nope"}) == {("id", "format_uuid")}


# ---------------------------------------------------------------- invite_cofounder


@pytest.mark.parametrize(("email", "rule"), [
    (None, "required"), ("not-an-email", "format"), ("a@b", "format"), ("x" * 250 + "@a.io", "max_length"),
])
def test_invite_email(email: str | None, rule: str) -> None:
    body: dict[str, Any] = {"id": ID} if email is None else {"id": ID, "email": email}
    assert problems(InviteCofounder, body) == {("email", rule)}
    assert InviteCofounder.model_validate({"id": ID, "email": "ana@example.com"})
