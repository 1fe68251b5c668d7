"""The offline drafter: fills only what the site states plainly, with no model.

It reads the crawl's structured data (JSON-LD, microdata, OpenGraph and meta
tags, icons), ``<title>`` and visible text lines, proposes values with the
lines or metadata values they came from as quotes, and hands the candidate to
:func:`workers.drafting.verify.verify` like any other drafter.  When a fact is
not stated in one of the forms below it stays ``not_found``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from workers.adapters.websites import CrawlResult

from events.draft_fields import SOCIAL_PLATFORMS

from .facts import find_faqs, find_founders, find_location
from .model import ProfileDraft
from .reading import (
    ORGANIZATION_TYPES,
    PRODUCT_TYPES,
    SitePage,
    is_heading,
    is_nav,
    is_sentence,
    line_with,
    of_kind,
    site_pages,
    string_value,
    structured_items,
    title_segments,
    types_of,
)
from .socials import is_profile_link, platform_for
from .text import clean, first_upper, normalise, sentence_key, stem, words
from .verify import category_stems, requested, strings_in, verify
from .vocab import has_price, is_paid, is_video_url, prices, pricing_cues

Candidate = dict[str, Any]

MAX_DESCRIPTION_LINES = 8
MAX_DESCRIPTION_CHARS = 1_500
MAX_PRICING_LINES = 6
MAX_CATEGORIES = 3
EMAIL_IN_TEXT = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)+")
PLACEHOLDER_MAILBOXES = frozenset({"you", "your", "name", "email", "yourname", "your.name", "john", "jane", "user", "example"})
FEATURE_HEADING = re.compile(r"\bfeatures?\b|\bwhat you get\b|\bcapabilities\b")
USP_HEADING = re.compile(r"\bwhy\b|\bbenefits?\b|\badvantages?\b|\bdifferent\b")
OTHER_SECTION = re.compile(
    r"\b(pricing|plans?|faq|frequently|about|team|contact|testimonials?|customers|blog|get started|ready to|"
    r"sign up|start (?:your )?free|newsletter|subscribe|what (?:people|our customers) say|footer|legal)\b"
)
SECTION_END = re.compile(OTHER_SECTION.pattern + "|" + FEATURE_HEADING.pattern + "|" + USP_HEADING.pattern)
YEAR_SENTENCE = re.compile(
    r"\b(?:founded|established|incorporated|started|since|est\.)(?=[\s,])[^.!?]{0,40}?\b(1[89]\d{2}|20\d{2})\b", re.IGNORECASE
)
YEAR = re.compile(r"\b(1[89]\d{2}|20\d{2})\b")
_QUOTE_OPENERS = ("\"", "\u201c", "\u201e", "'", "\u2018", "\u00ab")
_NOT_NAMES = frozenset({"home", "welcome", "homepage", "index", "start"})


class ExtractiveDrafter:
    """Drafts from plainly stated facts only; see ``docs/drafting.md`` for what it finds."""

    drafter = "extractive"

    def draft(
        self, crawl: CrawlResult, categories: list[dict[str, Any]], fields: list[str] | None = None
    ) -> ProfileDraft:
        """A verified draft of ``fields`` (all fields and sections when None)."""
        wanted = requested(fields)
        candidate = extract_candidate(crawl, categories, wanted)
        return verify(candidate, crawl, categories=categories, fields=wanted)


def extract_candidate(crawl: CrawlResult, categories: Iterable[Mapping[str, Any]], wanted: Iterable[str] | None = None) -> Candidate:
    """The unverified candidate (values with quotes) for :func:`verify`."""
    wanted_set = requested(wanted)
    reader = _Reader(crawl, list(categories))
    found = reader.fields()
    return {
        "drafter": ExtractiveDrafter.drafter,
        "fields": {name: value for name, value in found.items() if name in wanted_set and value},
        "faqs": find_faqs(reader.pages) if "faqs" in wanted_set else [],
        "founders": find_founders(reader.pages) if "founders" in wanted_set else [],
        "company_socials": reader.socials() if "company_socials" in wanted_set else {},
    }


def _value(value: Any, evidence: list[dict[str, str]]) -> Candidate | None:
    evidence = [e for i, e in enumerate(evidence) if e not in evidence[:i]]
    return {"value": value, "evidence": evidence} if value and evidence else None


class _Reader:
    def __init__(self, crawl: CrawlResult, categories: list[Mapping[str, Any]]) -> None:
        self.crawl = crawl
        self.pages = site_pages(crawl)
        self.home = self.pages[0] if self.pages else None
        self.categories = categories

    def meta(self) -> dict[str, str]:
        """The homepage's meta tags (description, keywords, og:*, twitter:*)."""
        meta = self.home.page.structured.get("meta") if self.home else None
        return {str(k): str(v) for k, v in meta.items()} if isinstance(meta, Mapping) else {}

    def fields(self) -> dict[str, Candidate | None]:
        if self.home is None:
            return {}
        out: dict[str, Candidate | None] = {}
        out["name"] = self.name()
        name = str(out["name"]["value"]) if out["name"] else ""
        out["short_description"] = self.short_description()
        out["tagline"] = self.tagline(name, out["short_description"])
        out["description"] = self.description()
        out["features"] = self.list_after_heading(FEATURE_HEADING, ("features", "home")) or self.feature_grid()
        out["usps"] = self.list_after_heading(USP_HEADING, ("home", "features", "about"))
        out["pricing_model"], out["pricing_summary"] = self.pricing()
        out["contact_email"] = self.contact_email()
        out["founded_year"] = self.founded_year()
        location = find_location(self.pages, name)
        out["city"], out["country"] = location.get("city"), location.get("country")
        out["demo_video_url"] = self.demo_video()
        out["logo_url"] = self.logo()
        out["keywords"] = self.keywords()
        out["categories"] = self.categorise(out)
        return out

    # --- identity ------------------------------------------------------------------------------

    def name(self) -> Candidate | None:
        assert self.home is not None
        votes: dict[str, dict[str, Any]] = {}

        def vote(display: str, priority: int, evidence: dict[str, str]) -> None:
            display = clean(display)
            key = normalise(display)
            if not display or len(display) > 80 or key in _NOT_NAMES:
                return
            entry = votes.setdefault(key, {"display": display, "count": 0, "priority": priority, "evidence": []})
            entry["count"] += 1
            entry["priority"] = min(entry["priority"], priority)
            entry["evidence"].append(evidence)

        for item in structured_items(self.home.page.structured):
            raw = item.get("name")
            if not isinstance(raw, str):
                continue
            kinds = types_of(item)
            if kinds & PRODUCT_TYPES:
                vote(raw, 1, self.home.meta_evidence(raw))
            elif kinds & ORGANIZATION_TYPES:
                vote(raw, 3, self.home.meta_evidence(raw))
        meta = self.meta()
        for key, priority in (("og:site_name", 2), ("application-name", 2), ("og:title", 3)):
            value = meta.get(key)
            if value and (key != "og:title" or len(title_segments(value)) == 1):
                vote(value, priority, self.home.meta_evidence(value))
        title = self.home.page.title
        for position, segment in enumerate(title_segments(title)):
            vote(segment, 4 if position == 0 else 5, self.home.meta_evidence(title))
        if not votes:
            return None
        best = max(votes.values(), key=lambda e: (e["count"], -e["priority"]))
        display = best["display"]
        evidence = list(best["evidence"])
        line = next((l for l in self.home.lines if normalise(l) == normalise(display)), None) or line_with(
            self.home, normalise(display)
        )
        if line and not is_nav(line):
            evidence.insert(0, self.home.text_evidence(line))
        return _value(display, evidence[:4])

    def tagline(self, name: str, short: Candidate | None) -> Candidate | None:
        assert self.home is not None
        title = self.home.page.title
        name_key = normalise(name)
        for segment in title_segments(title):
            key = normalise(segment)
            if key == name_key or key in _NOT_NAMES or not 2 <= len(words(segment)) <= 14:
                continue
            evidence = [self.home.meta_evidence(title)]
            line = next((l for l in self.home.lines if normalise(l) == key), None)
            if line:
                evidence.insert(0, self.home.text_evidence(line))
            return _value(first_upper(segment), evidence)
        short_key = normalise(str(short["value"])) if short else ""
        meta = self.meta()
        for key in ("og:description", "twitter:description"):
            value = meta.get(key, "")
            if value and len(value) <= 110 and len(words(value)) <= 15 and normalise(value) != short_key:
                return _value(value, [self.home.meta_evidence(value)])
        return None

    def short_description(self) -> Candidate | None:
        assert self.home is not None
        home = self.home
        options: list[str] = []
        meta = self.meta()
        options += [meta[k] for k in ("description", "og:description", "twitter:description") if meta.get(k)]
        for item in structured_items(home.page.structured):
            if types_of(item) & (PRODUCT_TYPES | ORGANIZATION_TYPES) and isinstance(item.get("description"), str):
                options.append(item["description"])
        options = [o for o in (clean(o) for o in options) if 20 <= len(o) and len(words(o)) >= 4]
        if options:
            # a description also shown on the page is preferred, and quoted from the page too
            option = next((o for o in options if line_with(home, normalise(o))), options[0])
            evidence = [home.meta_evidence(option)]
            line = line_with(home, normalise(option))
            if line and sentence_key(line) == sentence_key(option):
                evidence.insert(0, home.text_evidence(line))
            return _value(option, evidence)
        line = next((l for l in home.lines if is_sentence(l)), None)
        return _value(line, [home.text_evidence(line)]) if line else None

    def description(self) -> Candidate | None:
        chosen: list[tuple[SitePage, str]] = []
        total = 0
        for page in [p for p in self.pages if p.kind == "home"][:1] + of_kind(self.pages, "about"):
            for line in page.lines:
                if len(chosen) >= MAX_DESCRIPTION_LINES or total + len(line) > MAX_DESCRIPTION_CHARS:
                    break
                if not is_sentence(line) or line.startswith(_QUOTE_OPENERS) or EMAIL_IN_TEXT.search(line):
                    continue
                if any(normalise(line) == normalise(l) for _, l in chosen):
                    continue
                chosen.append((page, line))
                total += len(line) + 2
        if not chosen:
            return None
        return _value("\n\n".join(line for _, line in chosen), [p.text_evidence(l) for p, l in chosen])

    # --- lists -----------------------------------------------------------------------------------

    def list_after_heading(self, heading: re.Pattern[str], kinds: tuple[str, ...]) -> Candidate | None:
        ordered = [p for kind in kinds for p in of_kind(self.pages, kind)]
        for page in ordered:
            for index, line in enumerate(page.lines):
                key = normalise(line)
                if not (is_heading(line) and heading.search(key)) or len(words(line)) > 6 or OTHER_SECTION.search(key):
                    continue
                items, evidence = _items_below(page, index)
                if items:
                    return _value(items, evidence)
        return None

    def feature_grid(self) -> Candidate | None:
        """Features laid out as cards: three or more "Label" lines each followed by a sentence."""
        for page in of_kind(self.pages, "home") + of_kind(self.pages, "features"):
            items, evidence = _grid(page)
            if items:
                return _value(items, evidence)
        return None

    # --- pricing ---------------------------------------------------------------------------------

    def pricing(self) -> tuple[Candidate | None, Candidate | None]:
        lines = [(p, _labelled(p, i)) for p in of_kind(self.pages, "pricing") for i, l in enumerate(p.lines) if not is_nav(l)]
        if not lines:
            return None, None
        cues = [(p, l, pricing_cues(l)) for p, l in lines]
        hits: dict[str, tuple[SitePage, str]] = {}
        for p, l, c in cues:
            for cue in c:
                hits.setdefault(cue, (p, l))
        paid = next(((p, l) for p, l, c in cues if is_paid(c)), None)
        model: tuple[str, list[tuple[SitePage, str]]] | None = None
        if "freemium" in hits:
            model = ("freemium", [hits["freemium"]])
        elif "free plan" in hits and paid:
            model = ("freemium", [hits["free plan"], paid])
        else:
            single = next((c for c in ("subscription", "one-time", "usage-based", "open source", "paid", "free") if c in hits), None)
            model = (single, [hits[single]]) if single else None
        model_candidate = _value(model[0], [p.text_evidence(l) for p, l in model[1]]) if model else None
        summary: list[tuple[SitePage, str]] = []
        for p, l, c in cues:
            if len(summary) >= MAX_PRICING_LINES:
                break
            about_price = has_price(l) or "trial" in normalise(l) or (c & {"free", "free plan"} and len(words(l)) > 2)
            if about_price and len(l) <= 200 and l not in [x for _, x in summary]:
                summary.append((p, l))
        text = " ".join(l if l.endswith((".", "!", "?")) else l + "." for _, l in summary)
        summary_candidate = _value(text, [p.text_evidence(l) for p, l in summary]) if summary else None
        return model_candidate, summary_candidate

    # --- contact, dates, media -------------------------------------------------------------------

    def contact_email(self) -> Candidate | None:
        order = of_kind(self.pages, "contact") + of_kind(self.pages, "home") + [
            p for p in self.pages if p.kind not in ("contact", "home")
        ]
        for page in order:
            for line in page.lines:
                for match in EMAIL_IN_TEXT.finditer(line):
                    email = match.group(0).rstrip(".")
                    if email.split("@", 1)[0].lower() in PLACEHOLDER_MAILBOXES:
                        continue
                    return _value(email, [page.text_evidence(line)])
        for page in order:  # shown nowhere as text: the address of a "Contact us" mailto link
            for email in page.page.structured.get("emails") or []:
                if isinstance(email, str) and email.split("@", 1)[0].lower() not in PLACEHOLDER_MAILBOXES:
                    return _value(email, [page.meta_evidence(email)])
        return None

    def founded_year(self) -> Candidate | None:
        dates = self._founding_dates()
        for page in self.pages:
            for line in page.lines:
                match = YEAR_SENTENCE.search(line)
                if match:
                    year = match.group(1)
                    same = [e for e in dates if _year_of(e["quote"]) == year]
                    return _value(year, [page.text_evidence(line), *same])
        for evidence in dates:
            return _value(_year_of(evidence["quote"]), [evidence])
        return None

    def _founding_dates(self) -> list[dict[str, str]]:
        found = []
        for page in self.pages:
            for item in structured_items(page.page.structured):
                value = item.get("foundingDate")
                if isinstance(value, (str, int)) and not isinstance(value, bool) and YEAR.search(str(value)):
                    found.append(page.meta_evidence(str(value)))
        return found

    def demo_video(self) -> Candidate | None:
        for page in self.pages:
            urls = list(page.page.links) + [v for _, v in strings_in(page.page.structured)]
            for url in urls:
                if is_video_url(url) and (platform_for(url) != "youtube" or not is_profile_link(url)):
                    return _value(url, [page.meta_evidence(url)])
        return None

    def logo(self) -> Candidate | None:
        assert self.home is not None
        for page in [self.home] + self.pages[1:]:
            for item in structured_items(page.page.structured):
                if not types_of(item) & (ORGANIZATION_TYPES | PRODUCT_TYPES):
                    continue
                logo = string_value(item.get("logo"))
                if logo and logo.startswith(("http://", "https://")):
                    return _value(logo, [page.meta_evidence(logo)])
        icons = [i for i in self.home.page.structured.get("icons") or [] if isinstance(i, str)]
        for icon in sorted(icons, key=lambda u: (u.lower().split("?")[0].endswith(".ico"), icons.index(u))):
            return _value(icon, [self.home.meta_evidence(icon)])
        image = self.meta().get("og:image", "")
        if image.startswith(("http://", "https://")):
            return _value(image, [self.home.meta_evidence(image)])
        return None

    def keywords(self) -> Candidate | None:
        assert self.home is not None
        raw = self.meta().get("keywords", "")
        items = [clean(k) for k in raw.split(",") if clean(k)]
        return _value(items[:20], [self.home.meta_evidence(raw)]) if items else None

    # --- categories and socials ------------------------------------------------------------------

    def categorise(self, found: Mapping[str, Candidate | None]) -> Candidate | None:
        """Categories whose name or description shares keywords with what the site says.

        Name words count 3, description words 1; the best three with a score
        of at least 3 are kept, ties going to more distinct keywords, then to
        catalogue order.  Each quote is counted once.
        """
        quotes: dict[str, dict[str, str]] = {}
        for name in ("name", "tagline", "short_description", "description", "features", "keywords"):
            candidate = found.get(name)
            for evidence in candidate["evidence"] if candidate else []:
                quotes.setdefault(normalise(evidence["quote"]), evidence)
        stems = [(q, {stem(w) for w in words(q["quote"].replace("-", " "))}) for q in quotes.values()]
        scored: list[tuple[int, int, int, str, list[dict[str, str]]]] = []
        for position, category in enumerate(self.categories):
            slug = str(category.get("slug") or "")
            name_stems = {stem(w) for w in words(str(category.get("name") or "").replace("-", " "))}
            keywords = category_stems(category)
            score, distinct, support = 0, set(), []
            for quote, quote_stems in stems:
                hits = quote_stems & keywords
                if hits:
                    score += sum(3 if h in name_stems else 1 for h in hits)
                    distinct |= hits
                    support.append(quote)
            if slug and score >= 3:
                scored.append((score, len(distinct), -position, slug, support))
        scored.sort(reverse=True)
        chosen = scored[:MAX_CATEGORIES]
        if not chosen:
            return None
        evidence = [e for *_, support in chosen for e in support]
        return _value([slug for _, _, _, slug, _ in chosen], evidence)

    def socials(self) -> dict[str, str]:
        found: dict[str, str] = {}
        if self.home is not None:
            found["website"] = self.crawl.final_url
        for page in self.pages:
            links = list(page.page.links) + [
                v for k, v in strings_in(page.page.structured) if k in ("sameAs", "", "url") and v.startswith("http")
            ]
            for url in links:
                platform = platform_for(url)
                if platform in SOCIAL_PLATFORMS and platform not in found and is_profile_link(url):
                    found[platform] = url
        return found


def _year_of(text: str) -> str | None:
    match = YEAR.search(text)
    return match.group(1) if match else None


def _labelled(page: SitePage, index: int) -> str:
    """A short line ("€12/mo") with the label line before it ("Pro €12/mo"): one quote across both."""
    line = page.lines[index]
    if index == 0 or len(words(line)) > 3 or not prices(line):
        return line
    label = page.lines[index - 1]
    if is_heading(label) and len(words(label)) <= 4 and not has_price(label) and not label.endswith(":"):
        return f"{label} {line}"
    return line


def _grid(page: SitePage) -> tuple[list[str], list[dict[str, str]]]:
    """The longest run of (label, sentence) line pairs, when it has at least three pairs."""
    best: list[str] = []
    run: list[str] = []
    index = 0
    lines = page.lines
    while index < len(lines) - 1:
        label, following = lines[index], lines[index + 1]
        is_pair = (
            is_heading(label) and len(words(label)) <= 6 and not label.endswith("?")
            and following.endswith((".", "!")) and len(words(following)) >= 3 and not is_nav(following)
        )
        if is_pair:
            run.append(label)
            index += 2
            continue
        if len(run) > len(best):
            best = run
        run = []
        index += 1
    if len(run) > len(best):
        best = run
    if len(best) < 3:
        return [], []
    return best[:20], [page.text_evidence(label) for label in best[:20]]


def _items_below(page: SitePage, index: int) -> tuple[list[str], list[dict[str, str]]]:
    """List items after the heading at ``index``: short label lines or one comma-separated line."""
    items: list[str] = []
    evidence: list[dict[str, str]] = []
    for line in page.lines[index + 1:]:
        key = normalise(line)
        if len(items) >= 20 or is_nav(line) or (is_heading(line) and SECTION_END.search(key)):
            break
        parts = _comma_list(line)
        if parts:
            items.extend(first_upper(p) for p in parts)
            evidence.append(page.text_evidence(line))
            continue
        if line.endswith((".", "!", "?", ":")) or len(words(line)) > 12 or len(line) > 120:
            if items and len(line) > 300:
                break
            continue  # an intro or a feature's own description
        items.append(line)
        evidence.append(page.text_evidence(line))
    seen: set[str] = set()
    unique = [i for i in items if not (normalise(i) in seen or seen.add(normalise(i)))]  # type: ignore[func-returns-value]
    return unique[:20], evidence


def _comma_list(line: str) -> list[str]:
    """["Digest mode", "VIP senders", "focus hours"] from "Digest mode, VIP senders, focus hours."."""
    body = line.rstrip(".")
    if body.count(",") < 1 or len(line) > 300:
        return []
    parts = [p.strip() for p in re.split(r",\s*(?:and\s+|or\s+)?|\s+and\s+", body) if p.strip()]
    if len(parts) < 3 or any(len(words(p)) > 5 or p.endswith(("!", "?")) for p in parts):
        return []
    return parts


__all__ = ["ExtractiveDrafter", "extract_candidate"]
