"""Inputs of the owner's listing operations (SPEC §4.5): validated models whose docstrings are the summaries.

Bounds are SPEC §4.5's table and §2.4-§2.6; the URL and email patterns are the
draft inputs' (`commands/draft_inputs.py`), so a link or an address that a
draft accepts is accepted on the listing too, and the schema declares them.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, create_model

from commands.draft_inputs import (
    HTTP_URL_PATTERN,
    OPTIONAL_EMAIL_PATTERN,
    FaqInput,
    MilestoneInput,
    SocialsInput,
    http_url,
    optional_email,
)
from events.draft_fields import PRICING_MODELS, STORY_SECTIONS

ListingId = Annotated[int, Field(ge=1, le=2_147_483_647, description="Listing id (from submit_draft or list_my_listings).")]
Item200 = Annotated[str, Field(max_length=200)]


class MyListingFields(BaseModel):
    """Public profile fields to change; send only what changes. "" clears a text field, null clears `founded_year`."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    tagline: str | None = Field(None, max_length=200)
    short_description: str | None = Field(None, max_length=300)
    description: str | None = Field(None, max_length=20000)
    pricing_model: str | None = Field(None, max_length=40, description=(
        f"The words the site uses are {', '.join(PRICING_MODELS)}; other words are kept as typed, and search "
        "filters by their slug."))
    pricing_summary: str | None = Field(None, max_length=300)
    country: str | None = Field(None, max_length=2, pattern=r"^(|[A-Za-z]{2})$", description="ISO 3166 code, e.g. DE.")
    city: str | None = Field(None, max_length=120)
    founded_year: int | None = Field(None, ge=1800, le=2100)
    demo_video_url: Annotated[str | None, AfterValidator(http_url)] = Field(
        None, max_length=500, json_schema_extra={"pattern": HTTP_URL_PATTERN}, description="A video link.")
    contact_email: Annotated[str | None, AfterValidator(optional_email)] = Field(
        None, max_length=254, json_schema_extra={"pattern": OPTIONAL_EMAIL_PATTERN})
    features: list[Item200] | None = Field(None, max_length=20)
    usps: list[Item200] | None = Field(None, max_length=20)
    keywords: list[Item200] | None = Field(None, max_length=20)
    headline: str | None = Field(None, max_length=200)
    summary: str | None = Field(None, max_length=20000)
    seo_title: str | None = Field(None, max_length=200)
    seo_description: str | None = Field(None, max_length=320)


class UpdateMyListing(BaseModel):
    """Edit one of your listings; edits publish at once and are kept in version history for the site team to review.

    Send only what changes. `socials` replaces all company links and `faqs` all FAQs.
    Answers the listing as you now see it (get_my_listing).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    listing_id: ListingId
    fields: MyListingFields | None = None
    socials: SocialsInput | None = Field(
        None, description="Company links by platform; replaces all. \"\" or null drops a platform.")
    faqs: list[FaqInput] | None = Field(None, max_length=10, description="Replaces all FAQs; at most 10.")

    def changes(self) -> dict[str, Any]:
        """The listing fields this request sets, in the shape the listing's events carry."""
        out: dict[str, Any] = {}
        if self.fields is not None:
            for name in sorted(self.fields.model_fields_set):
                out[name] = _clean(getattr(self.fields, name))
        if self.socials is not None:
            links = self.socials.model_dump()
            out["socials"] = {k: v.strip() for k, v in links.items() if isinstance(v, str) and v.strip()}
        if self.faqs is not None:
            out["faqs"] = [{"question": f.question.strip(), "answer": f.answer.strip()} for f in self.faqs]
        return out


def _clean(value: Any) -> Any:
    """Trim text; "" (and a list of blanks) becomes null, the stored form of "not stated"."""
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, list):
        items = [v.strip() for v in value if isinstance(v, str) and v.strip()]
        return items or None
    return value


class PostListingUpdate(BaseModel):
    """Publish a 'what's new' update on one of your listings; followers are told by email.

    It shows on the listing and the site's latest-updates page while the listing is live.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    listing_id: ListingId
    title: str = Field(min_length=1, max_length=200)
    body: str = Field(min_length=1, max_length=5000, description="Plain text.")


class AddMilestone(MilestoneInput):
    """Add a milestone to one of your listings (shown publicly on paid listings or when the section is unlocked)."""

    listing_id: ListingId


class DeleteMilestone(BaseModel):
    """Delete a milestone from one of your listings."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    listing_id: ListingId
    milestone_id: int = Field(ge=1, le=2_147_483_647, description="Milestone id (from add_milestone or get_my_listing).")


_SetFounderStory = create_model(  # type: ignore[call-overload]
    "_SetFounderStory",
    __config__=ConfigDict(frozen=True, extra="forbid"),
    listing_id=(ListingId, ...),
    **{name: (str | None, Field(None, max_length=200 if name == "title" else 8000)) for name in STORY_SECTIONS},
)


class SetFounderStory(_SetFounderStory):  # type: ignore[misc,valid-type]
    """Set the founder story of one of your listings; replaces the whole story (sections left out are removed).

    Shown publicly on paid listings or when the story section is unlocked.
    """

    def sections(self) -> dict[str, str]:
        """The sections given, trimmed; blank sections are left out."""
        sections = {name: getattr(self, name) for name in STORY_SECTIONS}
        return {k: v.strip() for k, v in sections.items() if isinstance(v, str) and v.strip()}
