"""The rule-based profile review of the `ai_review` product: concrete improvements from documented checks.

It reads only the listing's own profile, so it invents nothing: each point
names a field and what would make it better. The rules (docs/orders.md):
tagline length (30..80 characters), description length (at least 300
characters), at least three features, pricing stated, a logo, a demo video,
at least two social links, FAQs, a founder story, at least one milestone, and
SEO title and description within search engines' display limits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from aggregates.listing import ListingState

RULES = "rules"  # `made_by` of the rule-based review


@dataclass(frozen=True)
class WrittenReview:
    """A review's text and how it was made: `rules`, or `anthropic:<model>` when the model wrote it."""

    text: str
    made_by: str = RULES


def _text(profile: dict[str, Any], key: str) -> str:
    value = profile.get(key)
    return value.strip() if isinstance(value, str) else ""


def review_points(state: ListingState) -> list[str]:
    """The improvements the rules find, most important first (empty when the profile passes every rule)."""
    p = state.profile
    points: list[str] = []
    tagline = _text(p, "tagline")
    if not tagline:
        points.append("Add a tagline: one line that says who the product is for and what it does.")
    elif not 30 <= len(tagline) <= 80:
        points.append(f"Make the tagline 30 to 80 characters (it is {len(tagline)}); say the outcome, not the feature.")
    description = _text(p, "description")
    if len(description) < 300:
        points.append(f"Write a description of at least 300 characters (it is {len(description)}): the problem, "
                      "who has it, how the product solves it, and what makes it different.")
    features = p.get("features") or []
    if len(features) < 3:
        points.append(f"List at least three features (there are {len(features)}), each a short phrase.")
    if not (_text(p, "pricing_model") or _text(p, "pricing_summary")):
        points.append("State the pricing (model and a summary): visitors leave when they cannot find it.")
    if not _text(p, "logo_url"):
        points.append("Add a logo: listings with a logo are recognised in lists and search results.")
    if not _text(p, "demo_video_url"):
        points.append("Add a short demo video (under two minutes) showing the product in use.")
    if len(state.socials) < 2:
        points.append("Link at least two places where people can follow the product (X, LinkedIn, GitHub...).")
    if not state.faqs:
        points.append("Answer the three questions buyers ask first in FAQs (price, data, alternatives).")
    if not state.story:
        points.append("Tell the founder story: why you built it. It is the most read paid section.")
    if not state.milestones:
        points.append("Add milestones (launch, first customers, funding) to show momentum.")
    seo_title, seo_description = _text(p, "seo_title"), _text(p, "seo_description")
    if not seo_title or len(seo_title) > 60:
        points.append("Set an SEO title of at most 60 characters with the product's name and category.")
    if not seo_description or not 70 <= len(seo_description) <= 160:
        points.append("Set an SEO description of 70 to 160 characters.")
    return points


def review_text(state: ListingState) -> str:
    """The review as sent to the owners and shown on the order."""
    name = _text(state.profile, "name") or state.slug
    points = review_points(state)
    if not points:
        return f"Review of {name}: the profile passes every check of the review. Keep it current."
    lines = [f"Review of {name}: {len(points)} improvements, most important first.", ""]
    lines += [f"{n}. {point}" for n, point in enumerate(points, 1)]
    return "\n".join(lines)


def review_email(product: str, order_number: str, review: str, site: str, contact: str = "",
                 page: str = "") -> tuple[str, str]:
    """The subject and plain text the owners of `product` get with its review, from the site named `site`.

    The review itself is the text shown on the order and the owner's listing page; the mail says what it is
    (the review ordered with `order_number`), where to act on it (`page`, the owner's page of the listing, when
    the site's address is known), and how to reach the site's team.
    """
    name = " ".join(product.split())
    reach = f"write to {contact}" if contact else f"contact the {site} team"
    subject = " ".join(f"Your profile review of {name} on {site}".split())
    where = f"Your listing, to edit its profile and read the review again: {page}\n\n" if page else ""
    text = (f"Hello,\n\nHere is the profile review of {name} you ordered on {site} (order {order_number}). "
            f"Each point names a part of the profile and what would make it better; edit them from your listing "
            f"on {site} (My listings), where the review is kept too.\n\n{review.strip()}\n\n{where}"
            f"Questions about the review? {reach[:1].upper()}{reach[1:]} and name order {order_number}.\n\n"
            f"The {site} team\n\n--\nYou get this email because you own {name} on {site}.\n")
    return subject, text


def rule_review(state: ListingState) -> WrittenReview:
    """The documented rule-based review: without a model key, and whenever the model fails."""
    return WrittenReview(review_text(state), RULES)
