"""The public profile document of a listing, built from the projection's private state.

Pure functions, so the rules (what is public, when paid sections show, how a
rating or a Domain Rating trend is computed) are tested without a database.

The private state keeps every fact the events told, paid sections included;
`public_doc` decides what get_listing may show.
"""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta, timezone
from typing import Any

from events.evidence_keys import kept_after_edit, names_item
from projections.listing_cards import card, website_of

PAID_SECTIONS = ("story", "milestones", "media")
LATEST_UPDATES = 5
DR_HISTORY = 12
REVENUE_LABELS = {"verified": "verified", "self_reported": "self-reported"}
STRING_FIELDS = ("tagline", "short_description", "description", "stage", "country", "city", "demo_video_url",
                 "logo_url", "headline", "summary")
LIST_FIELDS = ("tags", "features", "usps", "keywords")
EVIDENCE_FIELDS = frozenset(STRING_FIELDS + LIST_FIELDS + ("pricing_model", "pricing_summary", "founded_year"))
"""Fields whose evidence the public document shows: those it shows (never a private one, such as `contact_email`)."""

# Trending: every vote counts 0.5 ** (age_hours / HALF_LIFE_HOURS) (docs/search.md).
HALF_LIFE_HOURS = 36.0
TREND_EPOCH = datetime(2024, 1, 1, tzinfo=timezone.utc)


def trend_exponent(at: datetime) -> float:
    """A vote's weight is 2 ** (trend_exponent(vote time) - trend_exponent(now))."""
    return (at - TREND_EPOCH).total_seconds() / 3600.0 / HALF_LIFE_HOURS


def trending_score(trend_log: float | None, now: datetime) -> float:
    """The decayed vote sum at `now` from the stored log2 of sum(2 ** exponent) over the votes."""
    if trend_log is None:
        return 0.0
    exponent = trend_log - trend_exponent(now)
    return 0.0 if exponent < -1000 else math.pow(2.0, exponent)


def new_state(e: Any) -> dict[str, Any]:
    """The private state a ListingCreated event starts."""
    return {
        "listing_id": e.listing_id, "slug": e.slug, "stream_id": str(e.originator_id),
        "profile": dict(e.profile), "categories": list(e.categories), "socials": dict(e.socials),
        "faqs": list(e.faqs), "founders": list(e.founders), "story": dict(e.story),
        "milestones": sorted((dict(m) for m in e.milestones), key=_milestone_key),
        "not_found_on_website": list(e.not_found_on_website),
        "status": "draft", "plan": None, "week": None, "launched_at": None, "listed_at": None,
        "created_at": e.timestamp.isoformat(), "unlocked": [], "alternatives": [], "owner_ids": list(e.owner_ids),
        "verified": False, "featured_weeks": [], "updates": [], "revenue": None, "billboard_cents": 0,
        "domain_rating": None, "evidence": dict(getattr(e, "evidence", None) or {}),
    }


def apply_edit(state: dict[str, Any], changes: dict[str, Any]) -> None:
    """ListingEdited: profile keys, or `categories`, `socials`, `faqs`, `founders`, `not_found_on_website`.

    An edited field loses its evidence: its value no longer comes from the site.
    """
    state["evidence"] = kept_after_edit(state.get("evidence") or {}, changes)
    for k, v in changes.items():
        if k in ("categories", "faqs", "founders", "not_found_on_website"):
            state[k] = list(v or [])
        elif k == "socials":
            state["socials"] = dict(v or {})
        elif v is None:
            state["profile"].pop(k, None)
        else:
            state["profile"][k] = v


def apply_revert(state: dict[str, Any], changes: dict[str, Any]) -> None:
    """ListingEditReverted: like an edit, where `story` replaces the story and `milestones` the milestones."""
    apply_edit(state, {k: v for k, v in changes.items() if k not in ("story", "milestones")})
    if "story" in changes:
        state["story"] = dict(changes["story"] or {})
    if "milestones" in changes:
        state["milestones"] = sorted((dict(m) for m in changes["milestones"] or []), key=_milestone_key)


def _milestone_key(m: dict[str, Any]) -> tuple[str, int]:
    return (str(m.get("date") or ""), int(m.get("milestone_id") or 0))


def add_milestone(state: dict[str, Any], milestone: dict[str, Any]) -> None:
    kept = [m for m in state["milestones"] if m.get("milestone_id") != milestone["milestone_id"]]
    state["milestones"] = sorted([*kept, milestone], key=_milestone_key)


def update_of(e: Any) -> dict[str, Any]:
    """An update as the document shows it, from its `ListingUpdatePosted`."""
    return {"update_id": e.update_id, "title": e.title, "body": e.body, "posted_at": e.timestamp.isoformat()}


def add_update(state: dict[str, Any], update: dict[str, Any]) -> None:
    """Keep the newest few updates, newest first."""
    state["updates"] = [update, *state["updates"]][:LATEST_UPDATES]


def record_revenue(state: dict[str, Any], amount_cents: int, period: str, source: str) -> None:
    """The latest period wins; a later record of the same period replaces the earlier one."""
    current = state.get("revenue")
    if current is None or period >= current["period"]:
        state["revenue"] = {
            "amount_cents": int(amount_cents), "period": period, "source": source,
            "label": REVENUE_LABELS.get(source, source), "verified": source == "verified",
        }


def domain_rating_trend(points: list[tuple[date, int, str]]) -> dict[str, Any] | None:
    """Current Domain Rating and its trend from snapshots (measured_on, value, source), any order."""
    if not points:
        return None
    pts = sorted(points, key=lambda p: p[0])
    day, value, source = pts[-1]

    def value_on_or_before(limit: date) -> int | None:
        found = [v for d, v, _ in pts if d <= limit]
        return found[-1] if found else None

    previous = pts[-2][1] if len(pts) > 1 else None
    before_30, before_90 = value_on_or_before(day - timedelta(days=30)), value_on_or_before(day - timedelta(days=90))
    change = None if previous is None else value - previous
    return {
        "value": value,
        "measured_on": day.isoformat(),
        "source": source,
        "previous": previous,
        "change": change,
        "change_30d": None if before_30 is None else value - before_30,
        "change_90d": None if before_90 is None else value - before_90,
        "trend": None if change is None else ("up" if change > 0 else "down" if change < 0 else "flat"),
        "history": [{"measured_on": d.isoformat(), "value": v} for d, v, _ in pts[-DR_HISTORY:]],
    }


def unlocked_sections(state: dict[str, Any]) -> set[str]:
    """Paid sections show on paid listings, or when unlocked one by one."""
    if state.get("plan") == "paid":
        return set(PAID_SECTIONS)
    return {s for s in state.get("unlocked", []) if s in PAID_SECTIONS}


def category_refs(state: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    cats = state["categories"]
    ref = [{"slug": c, "name": names.get(c, c)} for c in cats]
    return {"primary": ref[0] if ref else None, "extra": ref[1:]}


def summary_card(state: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    primary = state["categories"][0] if state["categories"] else None
    category = {"slug": primary, "name": names.get(primary, primary)} if primary else None
    # The verified mark rides in the card so every list reads it from this projection alone (queries/cards.py).
    return card(state["slug"], state["profile"], state["socials"], state["status"], state["week"], category) | {
        "verified": bool(state["verified"])}


def public_doc(state: dict[str, Any], counters: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """The get_listing document (links relative to the site; the query makes them absolute)."""
    p = state["profile"]
    slug = state["slug"]
    doc: dict[str, Any] = {
        "listing_id": state["listing_id"],
        "slug": slug,
        "name": str(p.get("name") or ""),
        "url": website_of(p, state["socials"]),
        **{k: _string(p.get(k)) for k in STRING_FIELDS},
        **{k: _strings(p.get(k)) for k in LIST_FIELDS},
        "founded_year": _year(p.get("founded_year")),
        "pricing": {"model": _string(p.get("pricing_model")), "summary": _string(p.get("pricing_summary"))},
        "categories": category_refs(state, names),
        "founders": [_founder(f) for f in state["founders"] if isinstance(f, dict)],
        "faqs": [{"question": str(f.get("question", "")), "answer": str(f.get("answer", ""))}
                 for f in state["faqs"] if isinstance(f, dict)],
        "socials": {str(k): str(v) for k, v in state["socials"].items() if v},
        "attributes": _attributes(p.get("attributes")),
        "status": state["status"],
        "launch_week": state["week"],
        "launched_at": state["launched_at"],
        "verified": bool(state["verified"]),
        "featured": bool(state["featured_weeks"]),
        "featured_weeks": list(state["featured_weeks"]),
        "latest_updates": list(state["updates"]),
        "community": community(counters),
        "domain_rating": state["domain_rating"],
        "revenue": state["revenue"],
        "billboard": {"total_cents": int(state["billboard_cents"]), "paid": True,
                      "label": "paid placement (billboard), not a community signal"},
        "links": {"website": website_of(p, state["socials"]), "listing": f"/listings/{slug}",
                  "badges": f"/api/v1/listings/{slug}/badges"},
        "not_found_on_website": [str(x) for x in state["not_found_on_website"]],
        "evidence": evidence_doc(state),
    }
    shown = unlocked_sections(state)
    if "story" in shown:
        doc["story"] = {str(k): str(v) for k, v in state["story"].items() if v is not None}
    if "milestones" in shown:
        doc["milestones"] = [milestone_doc(m) for m in state["milestones"]]
    if "media" in shown:
        doc["media"] = _media(p.get("media"))
    return doc


def evidence_doc(state: dict[str, Any]) -> dict[str, list[dict[str, str]]]:
    """Field or item (`faqs.0`, `founders.1`, `socials.github`) -> [{url, quote}]: where on the product's own site
    each drafted value was found, for what the document shows only."""
    def shown(key: str) -> bool:
        return key in EVIDENCE_FIELDS or names_item(key, state["faqs"], state["founders"], state["socials"])
    return {str(k): [{"url": str(q.get("url") or ""), "quote": str(q.get("quote") or "")} for q in v]
            for k, v in (state.get("evidence") or {}).items() if shown(str(k)) and isinstance(v, list)}


def community(counters: dict[str, Any]) -> dict[str, Any]:
    avg = counters.get("rating_avg")
    return {
        "votes": int(counters.get("votes") or 0),
        "followers": int(counters.get("followers") or 0),
        "views": int(counters.get("views") or 0),
        "rating": {"average": None if avg is None else round(float(avg), 2),
                   "count": int(counters.get("rating_count") or 0)},
    }


def attribute_value(doc: dict[str, Any], attribute: str) -> str | None:
    """A comparable fact of a listing: a profile field of that name, else its `attributes` entry."""
    if attribute == "pricing_model":
        model: str | None = doc["pricing"]["model"]
        return model
    value = doc.get(attribute) if attribute in STRING_FIELDS or attribute in LIST_FIELDS or attribute == "founded_year" else None
    if value in (None, "", []):
        value = doc.get("attributes", {}).get(attribute)
    return _cell(value)


# ---------------------------------------------------------------- normalisers: the output schema is exact


def _string(value: Any) -> str | None:
    if value is None or value == "":
        return None
    return value if isinstance(value, str) else str(value)


def _strings(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value if v is not None]


def _year(value: Any) -> int | None:
    try:
        year = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return year if 1800 <= year <= 2100 else None


def _founder(f: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"name": str(f.get("name") or ""), "title": _string(f.get("title")), "bio": _string(f.get("bio"))}
    socials = f.get("socials")
    if isinstance(socials, dict):
        out["socials"] = {str(k): str(v) for k, v in socials.items() if v}
    slug = f.get("founder_slug") or f.get("slug")  # the profile it links to (docs/content.md); older entries: `slug`
    if slug:
        out["founder_slug"] = str(slug)
    return out


def milestone_doc(m: dict[str, Any]) -> dict[str, Any]:
    return {"milestone_id": int(m["milestone_id"]), "date": str(m.get("date") or ""), "title": str(m.get("title") or ""),
            "description": str(m.get("description") or ""), "url": str(m.get("url") or "")}


def _media(value: Any) -> list[dict[str, str | None]]:
    items = value if isinstance(value, list) else ([value] if value else [])
    out: list[dict[str, str | None]] = []
    for item in items:
        if isinstance(item, dict) and item.get("url"):
            out.append({"url": str(item["url"]), "kind": _string(item.get("kind") or item.get("type")),
                        "caption": _string(item.get("caption") or item.get("title"))})
        elif isinstance(item, str) and item:
            out.append({"url": item, "kind": None, "caption": None})
    return out


def _attributes(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    return {str(k): c for k, v in value.items() if (c := _cell(v)) is not None}


def _cell(value: Any) -> str | None:
    if value is None or value == "" or value == []:
        return None
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value if v is not None) or None
    return str(value)
