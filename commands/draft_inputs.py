"""The draft commands' inputs: validated models of submit_listing, update_draft, invite_cofounder, submit_draft.

Their docstrings are the operations' summaries (OpenAPI and MCP); their
bounds are SPEC §4.3-4.4, and every pattern the server applies is declared in
the schema too, so a client can tell from the schema alone what is accepted.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Literal
from uuid import UUID

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, create_model
from pydantic_core import PydanticCustomError

from events.draft_fields import PRICING_MODELS, SLOTS, SOCIAL_KEYS, STAGES, STORY_SECTIONS

# ---------------------------------------------------------------- input validation helpers


# What the URL and email fields accept, as patterns the declared schemas carry too (`json_schema_extra`),
# so a client (or a fuzzer) can tell from the schema alone what the server takes. The host of a link is
# ASCII (punycode for international names); surrounding spaces are allowed and trimmed, "" removes a value.
_HOST = "[A-Za-z0-9._~%!$&'()*+,;=:-]+"
HTTP_URL_PATTERN = rf"^ *(?:https?://{_HOST}(?:[/?#][^\r\n]*)?)? *$"
HTTPS_URL_PATTERN = rf"^ *(?:https://{_HOST}(?:[/?#][^\r\n]*)?)? *$"
# Python's whitespace (str.isspace) spelled out, since `\s` means other things in other regex engines.
_WS = r"\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_ADDRESS = rf"[^@{_WS}]{{1,64}}@[^@{_WS}.][^@{_WS}]*\.[^@{_WS}]+"
EMAIL_PATTERN = rf"^ *{_ADDRESS} *$"
OPTIONAL_EMAIL_PATTERN = rf"^ *(?:{_ADDRESS})? *$"
_HTTP_URL = re.compile(HTTP_URL_PATTERN)
_HTTPS_URL = re.compile(HTTPS_URL_PATTERN)
_EMAIL = re.compile(EMAIL_PATTERN)
_OPTIONAL_EMAIL = re.compile(OPTIONAL_EMAIL_PATTERN)


def http_url(value: str | None) -> str | None:
    if value is None:
        return value
    if not _HTTP_URL.fullmatch(value):
        raise ValueError("must be an http or https URL")
    return value


def https_url(value: str | None) -> str | None:
    if value is None:
        return value
    if not _HTTPS_URL.fullmatch(value):
        raise ValueError("must be an https URL")
    return value


def _email(value: str) -> str:
    if not _EMAIL.fullmatch(value):
        raise ValueError("must be an email address like name@example.com")
    return value


def optional_email(value: str | None) -> str | None:
    if value is None:
        return value
    if not _OPTIONAL_EMAIL.fullmatch(value):
        raise ValueError("must be an email address like name@example.com")
    return value


def _iso_date(value: str) -> str:
    try:
        date.fromisoformat(value)
    except ValueError:
        raise PydanticCustomError("date_parsing", "Input should be a valid date in the format YYYY-MM-DD") from None
    return value


HttpUrl500 = Annotated[str, Field(max_length=500, json_schema_extra={"pattern": HTTP_URL_PATTERN}), AfterValidator(http_url)]
Item200 = Annotated[str, Field(max_length=200)]
SlotName = Literal[SLOTS]  # type: ignore[valid-type]


class DraftFieldsInput(BaseModel):
    """Profile fields to change; a value of null (or "" / []) removes the field."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str | None = Field(None, max_length=500)
    tagline: str | None = Field(None, max_length=500)
    short_description: str | None = Field(None, max_length=500)
    description: str | None = Field(None, max_length=20000)
    stage: str | None = Field(None, max_length=500, description=f"The words the site uses are {', '.join(STAGES)}; "
                              "other words are kept as typed, and search filters by their slug (`Open Beta`: `open-beta`).")
    pricing_model: str | None = Field(None, max_length=500, description=(
        f"The words the site uses are {', '.join(PRICING_MODELS)}; other words are kept as typed (a listing's "
        "pricing model is at most 40 characters), and search filters by their slug."))
    pricing_summary: str | None = Field(None, max_length=500)
    country: str | None = Field(None, max_length=500, pattern=r"^(|[A-Za-z]{2})$", description="ISO 3166 code, e.g. DE.")
    city: str | None = Field(None, max_length=500)
    founded_year: str | None = Field(None, max_length=500, pattern=r"^(|[0-9]{4})$", description="A year as a string.")
    contact_email: Annotated[str | None, AfterValidator(optional_email)] = Field(
        None, max_length=500, json_schema_extra={"pattern": OPTIONAL_EMAIL_PATTERN})
    demo_video_url: HttpUrl500 | None = None
    logo_url: HttpUrl500 | None = None
    categories: list[Item200] | None = Field(
        None, max_length=20, description="Category slugs or names from list_categories; the first is primary.")
    tags: list[Item200] | None = Field(None, max_length=20)
    features: list[Item200] | None = Field(None, max_length=20)
    usps: list[Item200] | None = Field(None, max_length=20)
    keywords: list[Item200] | None = Field(None, max_length=20)


class FaqInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    question: str = Field(min_length=1, max_length=300)
    answer: str = Field(min_length=1, max_length=1500)


class FounderInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str = Field(min_length=1, max_length=160)
    title: str | None = Field(None, max_length=160, description="Role, e.g. CEO.")
    bio: str | None = Field(None, max_length=3000)


class MilestoneInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    date: Annotated[str, AfterValidator(_iso_date)] = Field(
        max_length=10, pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", json_schema_extra={"format": "date"})
    title: str = Field(min_length=1, max_length=200)
    description: str | None = Field(None, max_length=2000)
    url: Annotated[str | None, AfterValidator(https_url)] = Field(
        None, max_length=500, json_schema_extra={"pattern": HTTPS_URL_PATTERN},
        description="An https link (`https://` and an ASCII host; punycode for international names).")


class SeoInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    title: str | None = Field(None, max_length=70)
    meta: str | None = Field(None, max_length=170)


StoryInput = create_model(  # type: ignore[call-overload]
    "StoryInput",
    __config__=ConfigDict(frozen=True, extra="forbid"),
    __doc__="Founder story sections; each at most 8000 characters, null removes one.",
    **{name: (str | None, Field(None, max_length=8000)) for name in STORY_SECTIONS},
)

SocialsInput = create_model(  # type: ignore[call-overload]
    "SocialsInput",
    __config__=ConfigDict(frozen=True, extra="forbid"),
    __doc__="Links by platform (`website`, `custom` and twelve platforms); null or \"\" removes one.",
    **{name: (HttpUrl500 | None, None) for name in SOCIAL_KEYS},
)


# ---------------------------------------------------------------- command models


class SubmitListing(BaseModel):
    """Submit a product by its website URL; the site is read (respecting robots.txt) and a profile drafted.

    Answers 201 with the draft in status `crawling`; poll get_draft every few
    seconds until `ready`. Submitting a site you already have a draft of (that
    did not fail) returns that draft with `existing: true`.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    url: str = Field(min_length=1, max_length=2048, description="The product's website, http(s) on a public host.")


class UpdateDraft(BaseModel):
    """Edit a draft: fields, FAQs, founders, socials, story, milestones, SEO; lock, restore or regenerate fields.

    Send only what changes. Setting a field marks it `edited` (or `manual` when
    the AI found nothing); null removes it (`deleted`); `lock_fields` marks
    fields `override` so AI redrafts never touch them; `restore` puts the AI's
    value back; `regenerate` redrafts up to 5 fields from the stored crawl in
    the background. If the draft is already a listing, the listing is updated too.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: UUID = Field(description="Draft id.")
    fields: DraftFieldsInput | None = None
    lock_fields: list[SlotName] | None = Field(None, max_length=20)
    regenerate: list[SlotName] | None = Field(None, max_length=5)
    restore: list[SlotName] | None = Field(None, max_length=20)
    faqs: list[FaqInput] | None = Field(None, max_length=10, description="Replaces all FAQs.")
    company_socials: SocialsInput | None = None  # type: ignore[valid-type]
    founder_socials: SocialsInput | None = None  # type: ignore[valid-type]
    founders: list[FounderInput] | None = Field(None, max_length=6, description="Replaces the list; first is primary.")
    story: StoryInput | None = None  # type: ignore[valid-type]
    milestones: list[MilestoneInput] | None = Field(None, max_length=50, description="Replaces the list.")
    competitor_url: str | None = Field(None, max_length=2048, description="A competitor's site to compare; \"\" clears.")
    seo: SeoInput | None = None


class InviteCofounder(BaseModel):
    """Invite a co-founder by email to co-own this draft and its listing (at most 10 invites)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: UUID = Field(description="Draft id.")
    email: Annotated[str, AfterValidator(_email)] = Field(
        min_length=3, max_length=254, json_schema_extra={"pattern": EMAIL_PATTERN},
        description="An address like name@example.com.", examples=["ana@example.com"])


class SubmitDraft(BaseModel):
    """Save the draft as a listing (not published); answers with `listing_id`. Running it again updates that listing."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: UUID = Field(description="Draft id.")
