"""The `ai_review` product's review: written by the model when a key is set, by the documented rules otherwise.

The model gets the listing's own profile (what the owners wrote, nothing
from elsewhere) and the points the rules found, and writes concrete advice in
plain text. When the model fails (an API error, a timeout, an empty or cut
reply) the rule-based review of `aggregates/order/review.py` is used, so a
paid review is always delivered; the review's `made_by` says which one it is.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Protocol

from aggregates.listing import ListingState
from aggregates.mail import TEXT_MAX
from aggregates.order.review import WrittenReview, review_points, rule_review
from workers.drafting.errors import DraftingFailed

log = logging.getLogger(__name__)
REVIEW_MAX = 8_000  # characters kept of the model's review (the email and the order line carry it)
PROFILE_KEYS = ("name", "tagline", "description", "features", "pricing_model", "pricing_summary", "website_url",
                "logo_url", "demo_video_url", "seo_title", "seo_description")
SYSTEM = (
    "You review the public profile of a software product listed in a launch directory, for its founders. "
    "Write a short, concrete review in plain text (no Markdown headings, no tables): first one sentence on what "
    "the profile does well, then numbered improvements, most important first, each naming the field to change "
    "and how, with an example rewrite where it helps. Use only the profile given; invent no facts, figures or "
    "customers. Include every point of the checklist the site's rules found. At most 12 points."
)


class TextModel(Protocol):
    """A model that answers one prompt with text (`AnthropicDrafter.write`); raises `DraftingFailed`."""

    model: str

    def write(self, system: str, user: str, max_tokens: int = 2048) -> str: ...


def profile_facts(state: ListingState) -> dict[str, Any]:
    """What the model may read: the listing's own profile and sections."""
    facts: dict[str, Any] = {key: state.profile.get(key) for key in PROFILE_KEYS if state.profile.get(key)}
    facts.update(categories=list(state.categories), socials=dict(state.socials), faqs=list(state.faqs),
                 founder_story=dict(state.story), milestones=list(state.milestones.values()))
    return facts


def review_prompt(state: ListingState) -> str:
    points = review_points(state)
    checklist = "\n".join(f"- {p}" for p in points) or "- (the profile passes every rule)"
    return ("The profile, as JSON:\n" + json.dumps(profile_facts(state), ensure_ascii=False, indent=1, default=str)
            + "\n\nThe site's rules found:\n" + checklist + "\n\nWrite the review.")


class ProfileReviewer:
    """`review(state)`: the model's review when there is a model and it answers, else the rule-based one."""

    def __init__(self, model: TextModel | None = None) -> None:
        self.model = model

    def review(self, state: ListingState) -> WrittenReview:
        if self.model is None:
            return rule_review(state)
        try:
            text = self.model.write(SYSTEM, review_prompt(state))
        except DraftingFailed as exc:
            log.warning("profile review of listing %s: the model failed (%s), using the rules", state.listing_id,
                        exc)
            return rule_review(state)
        except Exception:  # noqa: BLE001 - anything else from the client: a paid review is still delivered
            log.exception("profile review of listing %s: the model's client failed, using the rules",
                          state.listing_id)
            return rule_review(state)
        name = str(state.profile.get("name") or state.slug)
        body = f"Review of {name}\n\n{text.strip()[:REVIEW_MAX]}"
        return WrittenReview(body[:TEXT_MAX], f"anthropic:{self.model.model}")
