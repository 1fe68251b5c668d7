"""The words a person reads for a draft's or a listing's fields, in the order the pages show them.

One table for the draft editor, the version history and the staff's review,
so a field is called the same on every page (and a version's changes read
as the form that made them, not as the profile's keys).
"""

from __future__ import annotations

from events.draft_fields import SOCIAL_LABELS, STORY_LABELS

FIELD_LABELS: dict[str, str] = {
    "name": "Name", "tagline": "Tagline", "short_description": "Short description", "description": "Description",
    "headline": "Headline", "summary": "Summary", "website_url": "Website",
    "stage": "Stage", "pricing_model": "Pricing model", "pricing_summary": "Pricing summary",
    "founded_year": "Founded (year)", "country": "Country", "city": "City", "contact_email": "Contact email",
    "logo_url": "Logo URL", "demo_video_url": "Demo video URL", "categories": "Categories", "features": "Features",
    "usps": "What sets it apart", "tags": "Tags", "keywords": "Keywords",
    "faqs": "FAQs", "founders": "Founders", "company_socials": "Company links", "socials": "Links",
    "story": "Founder story", "milestones": "Milestone", "updates": "Update",
    "seo_title": "Search engine title", "seo_description": "Search engine description",
    "not_found_on_website": "Not found on the website",
}
"""Every field's label; the order is the order fields are listed in a version's changes."""

ITEM_LABELS: dict[str, str] = {
    "question": "Question", "answer": "Answer", "name": "Name", "title": "Title", "role": "Role", "bio": "Bio",
    "date": "Date", "body": "Text", "description": "Description", "url": "Link",
}
"""The parts of an item of a list (an FAQ, a founder, a milestone, an update), in the order they read."""

KEY_LABELS: dict[str, str] = {**ITEM_LABELS, **STORY_LABELS, **SOCIAL_LABELS}
"""Any key inside a field's value: an item's part, a story's section, a link's kind."""

FIELD_KEY_LABELS: dict[tuple[str, str], str] = {("founders", "title"): "Role"}
"""A part an item of one field calls otherwise than `KEY_LABELS` says: a founder's `title` is the role the editor
asks for ("CEO"), while a milestone's, an update's or a story's `title` is a title."""


ATTRIBUTE_LABELS: dict[str, str] = {"api_available": "API available", "sdks": "SDKs"}
"""Category attributes (the compare table's rows, a listing's facts) whose words are not their key's words."""

VALUE_LABELS: dict[str, dict[str, str]] = {
    "pricing_model": {"free": "Free", "freemium": "Freemium", "free trial": "Free trial", "subscription": "Subscription",
                      "one-time": "One-time payment", "usage-based": "Usage-based", "open source": "Open source",
                      "paid": "Paid", "contact": "Contact for pricing"},
    "stage": {"pre-launch": "Pre-launch", "alpha": "Alpha", "beta": "Beta", "launched": "Launched"},
}
"""The words for the drafter's values of a pricing model and a stage (`events.draft_fields`)."""


def field_label(name: str) -> str:
    """A field's label; a field without one reads as its key in words (`seo` -> `Seo`)."""
    return FIELD_LABELS.get(name) or name.replace("_", " ").capitalize()


def attribute_label(name: str) -> str:
    """A category attribute's label in sentence case (`pricing_model` -> `Pricing model`, `api_available` -> `API available`)."""
    return ATTRIBUTE_LABELS.get(name) or field_label(name)


def value_label(value: object, field: str) -> str:
    """A pricing model's or a stage's value in words (`freemium` -> `Freemium`); any other value as it is.

    A value that is not one of the drafter's (an owner may type their own) starts with a capital letter.
    """
    text = "" if value is None else str(value)
    words = VALUE_LABELS.get(field)
    if words is None or not text:
        return text
    return words.get(text.lower()) or text[:1].upper() + text[1:]


def key_label(key: str, field: str = "") -> str:
    """The label of a key inside a value (`why_started` -> `Why we started`, `github` -> `GitHub`); with the
    `field` the value belongs to, as that field's form calls it (`title` of a founder -> `Role`)."""
    return FIELD_KEY_LABELS.get((field, key)) or KEY_LABELS.get(key, key)
