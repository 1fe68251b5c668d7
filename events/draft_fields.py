"""The draft's vocabulary: profile field names, sections, slot states, socials and story sections.

One definition that the draft decider, the drafter, the draft commands and the
draft projection all read, because events carry these names (SPEC §2.3, §3.2, §4.4).
"""

from __future__ import annotations

FIELD_NAMES: tuple[str, ...] = (
    "name", "tagline", "short_description", "description", "stage", "pricing_model", "pricing_summary",
    "country", "city", "founded_year", "contact_email", "demo_video_url", "logo_url",
    "categories", "tags", "features", "usps", "keywords",
)
STRING_FIELDS: tuple[str, ...] = FIELD_NAMES[:13]
LIST_FIELDS: tuple[str, ...] = FIELD_NAMES[13:]
SECTIONS: tuple[str, ...] = ("faqs", "founders", "company_socials")
SLOTS: tuple[str, ...] = FIELD_NAMES + SECTIONS
# The values the drafter gives `pricing_model` and `stage` (owners may type others); the search page offers them.
PRICING_MODELS: tuple[str, ...] = (
    "free", "freemium", "free trial", "subscription", "one-time", "usage-based", "open source", "paid", "contact",
)
STAGES: tuple[str, ...] = ("pre-launch", "alpha", "beta", "launched")
STATES: tuple[str, ...] = ("ai", "not_found", "edited", "manual", "override", "deleted")
STATUSES: tuple[str, ...] = ("crawling", "drafting", "ready", "failed")
IN_PROGRESS: tuple[str, ...] = ("crawling", "drafting")

COMPLETENESS_WEIGHTS: dict[str, int] = {
    "name": 10, "tagline": 8, "short_description": 8, "description": 12, "categories": 10, "features": 8,
    "pricing_model": 6, "pricing_summary": 5, "logo_url": 6, "contact_email": 4, "founded_year": 3,
    "country": 3, "city": 2, "demo_video_url": 3, "stage": 3, "tags": 3, "usps": 3, "keywords": 3,
}
"""How much each field counts towards `completeness` (sums to 100; the drafter uses the same table)."""


SOCIAL_PLATFORMS: tuple[str, ...] = (
    "x", "linkedin", "github", "facebook", "instagram", "youtube",
    "tiktok", "mastodon", "bluesky", "discord", "reddit", "producthunt",
)
"""The twelve platform keys of `company_socials` and `founder_socials` (besides `website` and `custom`)."""
SOCIAL_KEYS: tuple[str, ...] = (*SOCIAL_PLATFORMS, "website", "custom")
SOCIAL_LABELS: dict[str, str] = {
    "x": "X", "linkedin": "LinkedIn", "github": "GitHub", "facebook": "Facebook", "instagram": "Instagram",
    "youtube": "YouTube", "tiktok": "TikTok", "mastodon": "Mastodon", "bluesky": "Bluesky", "discord": "Discord",
    "reddit": "Reddit", "producthunt": "Product Hunt", "website": "Website", "custom": "Other link",
}
"""How pages name each link key (the draft editor, the listing edit form, the public listing and founder pages)."""
STORY_SECTIONS: tuple[str, ...] = (
    "title", "story", "why_started", "problem", "journey", "challenges", "achievements", "lessons", "whats_next",
)
STORY_LABELS: dict[str, str] = {
    "title": "Title", "story": "The story", "why_started": "Why we started", "problem": "The problem",
    "journey": "The journey", "challenges": "Challenges", "achievements": "Achievements", "lessons": "Lessons learned",
    "whats_next": "What's next",
}
"""How pages name each section of a founder story (the draft editor, the story form, the version history)."""
