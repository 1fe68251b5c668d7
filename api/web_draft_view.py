"""What the draft editor shows: the draft document (get_draft) arranged into sections, labels and words.

Kept apart from the page handlers (`api/web_drafts.py`) because it changes
for a different reason: how the editor reads, not what it does. Pure
functions of the draft document and of a refused form's values.
"""

from __future__ import annotations

from typing import Any

from annotated_types import MaxLen

from aggregates.draft import MAX_INVITES
from aggregates.listing import MAX_EXTRA_CATEGORIES
from api.web_draft_forms import MAPPINGS, ROW_KEYS, SLOT_SECTIONS, field_value
from api.field_labels import FIELD_KEY_LABELS, FIELD_LABELS, ITEM_LABELS, VALUE_LABELS, value_label
from commands.my_listing_inputs import MyListingFields
from events.draft_fields import IN_PROGRESS, LIST_FIELDS, PRICING_MODELS, SOCIAL_LABELS, STAGES, STORY_LABELS

GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("basics", "The basics", ("name", "tagline", "short_description", "description")),
    ("business", "Business facts", ("stage", "pricing_model", "pricing_summary", "founded_year", "country", "city",
                                    "contact_email")),
    ("media", "Logo and video", ("logo_url", "demo_video_url")),
    ("lists", "Categories, features and keywords", ("categories", "features", "usps", "tags", "keywords")),
)
LABELS: dict[str, str] = FIELD_LABELS


def listing_limit(name: str) -> int | None:
    """The most characters a listing takes in field `name` (update_my_listing's model), None without a limit."""
    field = MyListingFields.model_fields.get(name)
    return next((m.max_length for m in field.metadata if isinstance(m, MaxLen)), None) if field else None


HINTS: dict[str, str] = {
    # the draft takes 500 characters, a listing fewer: the hint gives the listing's limit, so "Save as listing" fits
    "tagline": f"One line, up to {listing_limit('tagline')} characters (what a listing takes).",
    "short_description": f"Up to {listing_limit('short_description')} characters (what a listing takes).",
    "pricing_summary": f"Up to {listing_limit('pricing_summary')} characters (what a listing takes).",
    "description": "Up to 20,000 characters.", "country": "Two-letter code, e.g. DE.",
    "founded_year": "Four digits, e.g. 2024.",
    "categories": "The category your listing is filed under. A listing shows only this one until it has a paid "
                  "launch or the Extra categories product (up to 3 more, from the boxes below).",
    "features": "One per line, up to 20.", "usps": "One per line, up to 20.", "tags": "One per line, up to 20.",
    "keywords": "One per line, up to 20.", "logo_url": "An http or https address.",
    "demo_video_url": "An http or https address.",
    "stage": "The stages search filters by.",
    "pricing_model": "The models search filters by; the details go in the pricing summary.",
}
LONG = ("description",)
MEDIUM = ("short_description",)
CHOICES: dict[str, tuple[str, ...]] = {"stage": STAGES, "pricing_model": PRICING_MODELS}
"""Fields shown as a menu of the drafter's values in words (the search page's menus); "Not stated" empties one."""
STATUS_WORDS: dict[str, str] = {
    "crawling": "Reading your site…", "drafting": "Writing your draft…", "ready": "Ready to edit",
    "failed": "Could not be drafted",
}
"""What a draft's status chip says (SPEC §3.1, `events.draft_fields.STATUSES`); the code stays in `data-status`."""
COMPETITOR_WORDS: dict[str, str] = {"pending": "comparing…", "compared": "compared", "failed": "comparison failed"}
INVITE_WORDS: dict[str, str] = {"pending": "not accepted yet", "accepted": "accepted", "expired": "expired"}
STATE_WORDS: dict[str, str] = {
    "ai": "drafted from your site", "not_found": "not found on your site", "edited": "edited by you",
    "manual": "added by you", "override": "locked by you", "deleted": "removed by you",
}
"""What each field state chip says (`events.draft_fields.STATES`); the code stays in the chip's `data-state`."""
REASONS: dict[str, str] = {
    "robots_forbidden": "The site's robots.txt does not allow it to be read (or robots.txt did not answer).",
    "site_unreachable": "The site could not be reached (no such host, refused, an error status, or too slow).",
    "timeout": "Reading and drafting took too long and was stopped.",
    "blocked_address": "The site redirected to an address that is not public.",
    "not_html": "The address does not serve a web page.",
    "too_large": "The site's pages were too large to read.",
    "crawl_failed": "Reading the site failed unexpectedly.",
    "drafting_failed": "Drafting failed three times.",
}
ROBOTS_TOKEN = "launchdirbot"
"""The crawler's product token, which robots.txt groups are matched against (docs/crawler.md)."""
NEXT_STEPS: dict[str, str] = {
    "robots_forbidden": f"Allow our crawler in your site's robots.txt: a group \"User-agent: {ROBOTS_TOKEN}\" with "
                        "\"Allow: /\" is enough (and robots.txt must answer, or be missing). Then submit the site again.",
    "site_unreachable": "Check that the address is right and that the site opens in a browser from outside your "
                        "network, then submit it again.",
    "timeout": "Submit the site again in a while; if it happens again, check that your homepage answers quickly.",
    "blocked_address": "Submit the public address the site ends up at, or remove the redirect to a private address.",
    "not_html": "Submit the address of your product's homepage (a web page, not a file or an API).",
    "too_large": "Submit the address of a smaller page of the site, such as its homepage.",
    "crawl_failed": "Submit the site again; if it fails again, write to the site team.",
    "drafting_failed": "Submit the site again in a while; if it fails again, write to the site team.",
}
"""What to do about each failure reason, said under it on the draft's page."""


def editor(doc: dict[str, Any], shown: dict[str, Any], category_names: dict[str, str] | None = None) -> dict[str, Any]:
    """The editor's context: `shown` (the values of a refused post, every section's) replaces the draft's values.

    `category_names` is the directory's categories (slug -> name, in its order): the categories field is a menu of
    them for the primary one and a box for each other one.
    """
    groups = []
    for key, title, names in GROUPS:
        rows = []
        for name in names:
            slot = doc["fields"].get(name) or {"value": None, "state": "not_found", "evidence": []}
            input_name = f"fields.{name}"
            if name == "categories":
                value: Any = list(shown[input_name] if input_name in shown else slot["value"] or [])
                kind = "categories"
            else:
                value = shown[input_name] if input_name in shown else field_value(name, slot["value"])
                kind = ("choice" if name in CHOICES else "long" if name in LONG else "medium" if name in MEDIUM
                        else "list" if name in LIST_FIELDS else "line")
            row = {"name": name, "input": input_name, "label": LABELS[name], "hint": HINTS.get(name, ""),
                   "value": value, "state": slot["state"], "evidence": slot["evidence"], "kind": kind,
                   "missing": name in doc["missing"], "options": choices(name, value) if kind == "choice" else []}
            if kind == "categories":
                row |= category_choices(value, category_names or {})
            rows.append(row)
        groups.append({"key": key, "title": title, "fields": rows})
    items = {name: _rows(doc, shown, name) for name in ROW_KEYS}
    mappings = {name: {k: (shown[f"{name}.{k}"] if f"{name}.{k}" in shown
                           else (doc.get(name) or {}).get(k, "")) for k in keys} for name, keys in MAPPINGS.items()}
    competitor = doc.get("competitor") or None
    return {
        "draft": doc, "groups": groups, "rows": items, "mappings": mappings,
        "slot_states": {name: doc["section_states"].get(name, "not_found") for name in SLOT_SECTIONS},
        "competitor_url": shown.get("competitor_url", competitor["url"] if competitor else ""),
        "invite_email": shown.get("email", ""), "in_progress": doc["status"] in IN_PROGRESS,
        "failure_text": REASONS.get((doc.get("failure") or {}).get("reason", ""), ""),
        "failure_next": NEXT_STEPS.get((doc.get("failure") or {}).get("reason", ""), ""),
        "regenerate_checked": shown.get("regenerate", []),
        "labels": LABELS, "state_words": STATE_WORDS, "story_labels": STORY_LABELS, "social_labels": SOCIAL_LABELS,
        "status_words": STATUS_WORDS, "competitor_words": COMPETITOR_WORDS, "invite_words": INVITE_WORDS,
        "missing_labels": [LABELS.get(m, m) for m in doc["missing"]],
        # said once: a missing field the site did not state is marked so in the Missing list, not listed twice
        "not_found_missing": [m in (doc.get("not_found_on_website") or []) for m in doc["missing"]],
        "not_found_other": [LABELS.get(n, n) for n in doc.get("not_found_on_website") or [] if n not in doc["missing"]],
        "invites_left": max(0, MAX_INVITES - len(doc["invites"])),
        "max_extra": MAX_EXTRA_CATEGORIES,
    }


def category_choices(value: list[str], names: dict[str, str]) -> dict[str, list[dict[str, Any]]]:
    """The categories field as a menu (the primary one) and boxes (the others): names shown, slugs sent.

    A value that is no category of the directory (set before the menu, or through the API by name) is kept as an
    option of its own, chosen, so saving the page never drops it unseen; the check still refuses it on a change.
    """
    primary, extra = (value[0] if value else ""), value[1:]
    menu = [{"value": "", "label": "Not chosen", "selected": not primary}]
    menu += [{"value": slug, "label": label, "selected": slug == primary} for slug, label in names.items()]
    if primary and primary not in names:
        menu.append({"value": primary, "label": primary, "selected": True})
    boxes = [{"value": slug, "label": label, "checked": slug in extra} for slug, label in names.items()]
    boxes += [{"value": c, "label": c, "checked": True} for c in extra if c not in names]
    return {"primary_options": menu, "extra_options": boxes}


def error_label(name: str) -> str:
    """The words before an error in the summary, the input's label: `fields.tagline` -> Tagline, `milestones.0.url`
    -> Milestone 1: Link."""
    parts = name.split(".")
    if parts[0] == "fields" and len(parts) > 1:
        return LABELS.get(parts[1], parts[1])
    singular = {"faqs": "FAQ", "founders": "Founder", "milestones": "Milestone"}
    if parts[0] in singular and len(parts) == 3 and (parts[1].isascii() and parts[1].isdigit()):
        part = FIELD_KEY_LABELS.get((parts[0], parts[2])) or ITEM_LABELS.get(parts[2], parts[2])  # a founder's title: Role
        return f"{singular[parts[0]]} {int(parts[1]) + 1}: {part}"
    if parts[0] in ("company_socials", "founder_socials") and len(parts) == 2:
        return f"{LABELS.get(parts[0], 'Founder links')}: {SOCIAL_LABELS.get(parts[1], parts[1])}"
    if parts[0] == "story" and len(parts) == 2:
        return f"Story: {STORY_LABELS.get(parts[1], parts[1])}"
    words = {"seo.title": "Page title", "seo.meta": "Meta description", "competitor_url": "Competitor's website",
             "email": "Co-founder's email address", "form": "", "regenerate": "Regenerate", "restore": "Restore",
             "lock_fields": "Lock"}
    return words.get(name, " ".join(parts))


def choices(name: str, value: str) -> list[dict[str, Any]]:
    """A menu's options: "Not stated", the drafter's values in words, and a value worded otherwise (typed through the
    API, or before the menu) kept as it is, so opening the page and saving never changes it.

    An option that matches the value but for its capitals sends the value as stored, so that it is not an edit.
    """
    text = value.strip()
    options = [{"value": "", "label": "Not stated", "selected": not text}]
    for code in CHOICES[name]:
        same = text.lower() == code
        options.append({"value": text if same else code, "label": VALUE_LABELS[name][code], "selected": same})
    if text and not any(o["selected"] for o in options):
        options.append({"value": text, "label": value_label(text, name), "selected": True})
    return options


def _rows(doc: dict[str, Any], shown: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """The section's items (the refused post's, when there is one) and one empty row to add an item."""
    items = shown[name] if name in shown else doc.get(name) or []
    keys = ROW_KEYS[name]
    return [{k: item.get(k) or "" for k in (*keys, "evidence")} for item in items] + [{k: "" for k in keys}]
