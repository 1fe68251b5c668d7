"""The offline drafter: fills only what the site states plainly, with no model.

It reads the crawl's structured data (JSON-LD, microdata, OpenGraph and meta
tags, icons), ``<title>`` and visible text lines, proposes values with the
lines or metadata values they came from as quotes, and hands the candidate to
:func:`workers.drafting.verify.verify` like any other drafter.  When a fact is
not stated in one of the forms below it stays ``not_found``.

This module reads the facts a homepage states once (name, tagline,
descriptions, contact address, video, logo, keywords, social links) and
assembles the candidate; the finders with rules of their own live beside it:
lists (`site_lists.py`), pricing (`site_pricing.py`), categories
(`site_categories.py`), FAQs and location (`facts.py`), founders (`founders.py`),
the founding year (`founding_year.py`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Any
from urllib.parse import urlsplit

from workers.adapters.websites import CrawlResult

from events.draft_fields import SOCIAL_PLATFORMS

from .facts import find_faqs, find_location
from .countries import countries_indicated, countries_named
from .founders import find_founders
from .founder_roles import opens_with_role
from .images import is_share_card
from .founding_year import find_founded_year
from .person_names import NAME
from .model import ProfileDraft
from .reading import (
    ORGANIZATION_TYPES,
    PRODUCT_TYPES,
    Candidate,
    SitePage,
    candidate,
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
from .site_categories import categorise
from .site_claims import figure_claims, marked_selling_points, stat_blocks
from .site_lists import (
    FEATURE_HEADING,
    USP_HEADING,
    described_table,
    feature_grid,
    feature_table,
    lead_run,
    tab_list,
    inline_list,
    list_after_heading,
)
from .site_pricing import find_pricing, open_source_statement
from .socials import is_profile_link, platform_for
from .text import clean, contains_phrase, first_upper, normalise, sentence_key, words
from .verify import requested, strings_in, verify
from .vocab import has_price, is_video_url

MAX_DESCRIPTION_LINES = 8
MAX_DESCRIPTION_CHARS = 1_500
_CLOSING_QUOTES = ("\"", "\u201d", "\u00bb", "\u201c")


# "No AI, no blockchain, no magic: just barcodes": a list of what the product is not
_DENIAL_LIST = re.compile(r"^(?:no|kein\w*|pas de|sin|sem|geen|niente|ni)\s+[^,.;:]{1,40}(?:,|\s+(?:und|and|et|y|e|oder|or|ni))"
                          r"\s*(?:no|kein\w*|pas de|sin|sem|geen|niente|ni)\s+", re.IGNORECASE)


# "Some call this "AI-native DevOps"; we just call it a linter": a label the product turns down
_CALLED = re.compile(r"\b(?:some|people|others|they)\s+(?:call|calls)\s+(?:it|this|us)\b", re.IGNORECASE)


# "Sponsored by the good people at Halyard Cloud.": another company's credit, not the product's story
_SPONSORED = re.compile(r"(?:sponsored|supported|backed|funded) by\b|gesponsert von\b|sponsoris\u00e9 par\b"
                        r"|patrocinado por\b|gef\u00f6rdert (?:von|durch)\b", re.IGNORECASE)


# "Pulley is infrastructure, not a chatbot, not a blockchain, and not a Web3 anything": what it is not, twice over
_NOT_THIS_NOT_THAT = re.compile(r"\bnot an?\b[^.!?]*\bnot an?\b|\bkein\w*\b[^.!?]*\bkein\w*\b|\bni\b[^.!?]*\bni\b",
                                re.IGNORECASE)


def _denial(line: str, product: str) -> bool:
    """A sentence with the product as subject saying what it is not or has not: "Tanager has no blockchain",
    "Wheelwright is deliberately not an …", "Grelot ne vous promet pas …", "Acme ist kein …"; or a list of what it
    is not ("No AI, no blockchain, no magic: …")."""
    if _DENIAL_LIST.match(line) or _CALLED.search(line) or _SPONSORED.match(line):
        return True
    if not product:
        return False
    return re.match(rf"{re.escape(product)}\s+(?:(?:is|has|does|was|will)\s+(?:\w+\s+)?(?:not|no|never)\b|isn't\b"
                    rf"|doesn't\b|(?:\w+\s+)?(?:ne|n')\b|(?:ist|hat|braucht)\s+(?:\w+\s+)?(?:kein\w*|nicht)\b"
                    rf"|no (?:es|tiene)\b|n\u00e3o \u00e9\b|non \u00e8\b)",
                    line, re.IGNORECASE) is not None


def _team_card(page: SitePage, at: int, product: str) -> bool:
    """Line ``at`` is a person's name over a line opening with their role: a team card ("Dana Whitfield" /
    "Co-founder & CEO. Previously an SRE at …"), whose lines are about the person."""
    line = page.lines[at]
    following = page.lines[at + 1] if at + 1 < len(page.lines) else ""
    named = PERSON_NAME.fullmatch(line.strip()) is not None and not (product and normalise(product) in normalise(line))
    return named and opens_with_role(following)


def _names_others(line: str, product: str, founders: set[str]) -> bool:
    """The line names a person ("Jordi Pons", two capitalised words) who is neither the product nor a founder."""
    for match in PERSON_NAME.finditer(line):
        person = normalise(match.group(0))
        if person in founders or (product and normalise(product) in person) or set(person.split()) & _NOT_PERSON:
            continue
        if not (countries_named(match.group(0)) or countries_indicated(match.group(0))):  # "San Francisco" is a place
            return True
    return False


PERSON_NAME = re.compile(rf"(?<![\w-]){NAME}(?![\w-])")

_NOT_PERSON = frozenset("the our we and und y et en de la le el los las hoy today google search console app store".split())
# Sections about something other than the product itself: blog teasers, FAQs, prices, testimonials, contact,
# sponsors and thanks (in the languages the drafter reads)
_ASIDE = re.compile(
    r"\b(?:blog|news|faqs?|frequently|questions|pricing|plans|prices?|testimonials?|customers say"
    r"|what (?:people|our customers) say|newsletter|subscribe|contact|legal|sponsors?|backers?|thanks|thank you"
    r"|credits|advisors?|merci|gracias|danke|grazie|obrigad[oa]|preise|tarife|precios|planes|tarifs|prix|fragen"
    r"|preguntas|vragen|domande|perguntas|prijzen|prezzi|pre\u00e7os|kontakt|contacto|impressum"
    r"|reviews?|ratings?|bewertungen|avis|opiniones|rese\u00f1as|recensioni|avalia\u00e7\u00f5es"
    # jobs at the company: its openings are not the product's story
    r"|careers?|jobs|we(?:'re| are) hiring|join (?:us|our team|the team)|open (?:positions|roles)|work with us"
    r"|karriere|stellenangebote|empleos?|trabaja con nosotros|carri\u00e8res?|emplois|recrutement|rejoignez-nous"
    r"|vacatures|werken bij|lavora con noi|carreiras|vagas"
    # a blog's comments under a page: "One thought on “About”", "Leave a reply", "3 Kommentare"
    r"|thoughts? on|leave a (?:reply|comment)|^\d* ?(?:comments?|kommentare?|comentarios?|commentaires?|reacties|commenti)$)\b"
)
# A line of a description that is about something else: a price (the pricing summary's, or a partner's "from
# $89/month, billed by Lightspeed"), a post's byline ("Por Mariana Ochoa, editora de contenidos"), or the
# buzzwords a site lists to say it is not them ("Zero-trust. Web3-ready. Shift-left.")
_BYLINE = re.compile(r"^(?:by|por|par|von|di|door|av|af)\s+\w+\s+\w+\s*[,.]")
# "We are hiring a senior backend engineer.": a job opening, under a careers heading or not (a careers heading that
# the menu repeats is read as the menu's line and leaves the page's content)
_HIRING = re.compile(r"\b(?:we(?:'re|\u2019re| are) (?:hiring|recruiting)|(?:is|are) hiring|join our team|open (?:positions|roles)"
                     r"|wir stellen ein|nous recrutons|on recrute|estamos contratando|stiamo assumendo|wij werven"
                     r"|vi anst\u00e4ller)\b")
_BUZZWORDS = re.compile(r"\b(?:blockchain|web3|metavers[eo]s?|nfts?|ai-ready|shift-left|zero-trust|crypto-ready)\b")
EMAIL_IN_TEXT = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)+")
PLACEHOLDER_MAILBOXES = frozenset({"you", "your", "name", "email", "yourname", "your.name", "john", "jane", "user", "example"})
# Mailboxes for one purpose only ("For security reports, write to security@"): the general address the
# site also shows is its contact address.
PURPOSE_MAILBOXES = frozenset({
    "security", "abuse", "privacy", "datenschutz", "dpo", "gdpr", "legal", "jobs", "careers", "karriere", "bewerbung",
    "empleo", "recrutement", "vacatures", "press", "presse", "prensa", "pers", "noreply", "no-reply", "postmaster",
    "webmaster", "billing", "invoices", "rechnungen", "facturation",
})
_QUOTE_OPENERS = ("\"", "\u201c", "\u201e", "'", "\u2018", "\u00ab")
_DOCS_SUFFIX = re.compile(r"\s+(?:v?\d+(?:\.\d+)*\s+)?(?:documentation|docs|dokumentation|documentaci\u00f3n)$", re.IGNORECASE)
_ARTICLE_START = re.compile(r"^(?:a|an|the|un|une|ein|eine|el|la|il|lo|uma|um|een|en|ett)\s", re.IGNORECASE)
_BOOK = re.compile(r"^The (.+) Book$")  # a documentation book's title names its project
_LEGAL_FORM = re.compile(
    r"\b(?:ltd|limited|llc|inc|corp|gmbh|ag|ug|kg|s\.?l\.?u?|s\.?a\.?s?|sarl|s\u00e0rl|b\.?v|oy|ab|plc|pty|s\.?r\.?l|s\.?p\.?a|o\u00fc"
    r"|s\.\s?r\.\s?o|kft|zrt|aps|a/s)\b\.?\s*$",
    re.IGNORECASE,
)
_QUOTED_LINE = re.compile(r"^[\"\u201c\u201e\u00ab']")
# a company form written before the name: Latvian "SIA Dzirnavas", Lithuanian "UAB Gintaras"
_LEGAL_FORM_FIRST = re.compile(r"^(?:SIA|UAB|AS|AB|OOO)\s+\S")
# a page's own title, not the product's: "Introduction | Sluicegate" on a docs site
_NOT_NAMES = frozenset({"home", "welcome", "homepage", "index", "start", "introduction", "overview", "getting started",
                        "get started", "quickstart", "quick start", "documentation", "docs", "einf\u00fchrung",
                        "einleitung", "introducci\u00f3n", "pr\u00e9sentation", "introduzione", "introdu\u00e7\u00e3o",
                        # "home" in the languages the drafter reads: "Accueil | Tamanoir", "Inicio – Cántaro"
                        "accueil", "inicio", "startseite", "inici", "pagina principale", "p\u00e1gina inicial",
                        "etusivu", "forside", "hjem", "hem", "startsida", "strona g\u0142\u00f3wna", "kezd\u0151lap",
                        "\u00favod", "avaleht", "pradžia", "domov", "anasayfa", "ana sayfa", "acas\u0103"})


class ExtractiveDrafter:
    """Drafts from plainly stated facts only; see ``docs/drafting.md`` for what it finds."""

    drafter = "extractive"

    def draft(
        self, crawl: CrawlResult, categories: list[dict[str, Any]], fields: list[str] | None = None
    ) -> ProfileDraft:
        """A verified draft of ``fields`` (all fields and sections when None)."""
        wanted = requested(fields)
        proposed = extract_candidate(crawl, categories, wanted)
        return verify(proposed, crawl, categories=categories, fields=wanted)


def extract_candidate(crawl: CrawlResult, categories: Iterable[Mapping[str, Any]], wanted: Iterable[str] | None = None) -> Candidate:
    """The unverified candidate (values with quotes) for :func:`verify`."""
    wanted_set = requested(wanted)
    reader = _Reader(crawl, list(categories))
    found = reader.fields()
    return {
        "drafter": ExtractiveDrafter.drafter,
        "fields": {name: value for name, value in found.items() if name in wanted_set and value},
        "faqs": find_faqs(reader.pages) if "faqs" in wanted_set else [],
        "founders": reader.founders if "founders" in wanted_set else [],
        "company_socials": reader.socials() if "company_socials" in wanted_set else {},
    }


class _Reader:
    def __init__(self, crawl: CrawlResult, categories: list[Mapping[str, Any]]) -> None:
        self.crawl = crawl
        self.pages = site_pages(crawl)
        self.home = next(iter(of_kind(self.pages, "home")), self.pages[0] if self.pages else None)
        self.categories = categories

    @cached_property
    def founders(self) -> list[Candidate]:
        """The site's founders, found once: drafted as a section and used to tell their story from other people's."""
        found = self.name() if self.home is not None else None  # for telling founders from other companies' people
        return find_founders(self.pages, str(found["value"]) if found else "")

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
        out["description"] = self.description(name)
        named = self.name() if self.home is not None else None
        # a list under a feature heading on the about or pricing page ("What it does", "What you get") comes last
        out["features"] = feature_table(self.pages) or list_after_heading(
            self.pages, FEATURE_HEADING, ("features", "home")) or feature_grid(self.pages, name) \
            or lead_run(self.pages) or tab_list(self.pages) \
            or feature_table(self.pages, str(named["value"]) if named else "") or described_table(self.pages) \
            or list_after_heading(self.pages, FEATURE_HEADING, ("about", "pricing"))
        out["usps"] = list_after_heading(self.pages, USP_HEADING, ("home", "features", "about")) or inline_list(
            self.pages, USP_HEADING, ("home", "features", "about")
        ) or marked_selling_points(self.pages) or stat_blocks(self.pages) or figure_claims(self.pages)
        out["pricing_model"], out["pricing_summary"] = find_pricing(self.pages)
        if out["pricing_model"] is None:
            out["pricing_model"] = open_source_statement(self.pages)
            statement = out["pricing_model"]["evidence"][0] if out["pricing_model"] else None
            if out["pricing_summary"] is None and statement and len(statement["quote"]) <= 300:
                out["pricing_summary"] = candidate(statement["quote"], [statement])  # "free and open source under …"
        out["contact_email"] = self.contact_email()
        out["founded_year"] = find_founded_year(self.pages, name)
        location = find_location(self.pages, name)
        out["city"], out["country"] = location.get("city"), location.get("country")
        out["demo_video_url"] = self.demo_video()
        out["logo_url"] = self.logo()
        out["keywords"] = self.keywords()
        out["tags"] = self.tags()
        out["categories"] = categorise(out, self.categories)
        return out

    # --- identity ------------------------------------------------------------------------------

    def name(self) -> Candidate | None:
        """The product's name (a fresh copy of the one found once per draft: several fields read it)."""
        found = self._name_found
        return None if found is None else {**found, "evidence": list(found["evidence"])}

    @cached_property
    def _name_found(self) -> Candidate | None:
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
            elif kinds & ORGANIZATION_TYPES:  # a registered company name ("Honeyjar Publishing Ltd") names the firm
                vote(raw, 6 if _LEGAL_FORM.search(raw) or _LEGAL_FORM_FIRST.match(raw) else 3, self.home.meta_evidence(raw))
        meta = self.meta()
        for key, priority in (("og:site_name", 2), ("application-name", 2), ("og:title", 3)):
            value = meta.get(key)
            if value and (key != "og:title" or len(title_segments(value)) == 1):
                vote(value, priority, self.home.meta_evidence(value))
        title = self.home.page.title
        for position, segment in enumerate(title_segments(title)):
            vote(segment, 4 if position == 0 else 5, self.home.meta_evidence(title))
            bare = _DOCS_SUFFIX.sub("", _BOOK.sub(r"\1", segment))  # "Pagewright 3.4 documentation", "The Lintel Book"
            if bare != segment and bare:
                vote(bare, 3, self.home.meta_evidence(title))
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
        return candidate(display, evidence[:4])

    def tagline(self, name: str, short: Candidate | None) -> Candidate | None:
        """The tagline a blog theme prints as the site's own (``site-description``), else the homepage's
        headline (its ``h1``) when it is a short phrase and not the name, else the
        ``<title>`` segment that is not the name, else the line under the name heading, else a short
        ``og:description``: the promise a site leads with."""
        assert self.home is not None
        title = self.home.page.title
        name_key = normalise(name)
        own = self._site_tagline(name_key)
        if own is not None:
            return candidate(first_upper(own), [self.home.text_evidence(own)])
        headline = self._headline(name_key) or self._line_below_page_heading(name_key)
        if headline is not None:
            return candidate(first_upper(headline), [self.home.text_evidence(headline)])
        h1 = normalise(str(self.home.page.structured.get("headline") or ""))
        shown = [seg for seg in title_segments(title) if not contains_phrase(normalise(seg), name_key)
                 and (contains_phrase(h1, normalise(seg)) or any(normalise(l) == normalise(seg) for l in self.home.lines))]
        subtitle = self._line_below_named_headline(name_key)
        # a <title> segment the page also shows beats the line under the headline; one it does not ("| App
        # listing", a marketplace's label) does not
        if subtitle is not None and not any(normalise(seg) not in (name_key, *_NOT_NAMES) for seg in shown):
            return candidate(subtitle, [self.home.text_evidence(subtitle)])
        hero = self._hero_line(name_key) if not shown else None
        if hero is not None:
            return candidate(hero, [self.home.text_evidence(hero)])
        below = self._line_below_name(name_key)
        if below is not None and not _ARTICLE_START.match(below) and not any(
                contains_phrase(normalise(below), normalise(seg)) for seg in title_segments(title)):
            # the phrase under the name heading is the promise the page shows ("Fernhollow" / "Tree work, quoted
            # before you leave the garden."); one that starts as a definition ("An email client that …") is not
            return candidate(below, [self.home.text_evidence(below)])
        for segment in title_segments(title):
            key = normalise(segment)
            if key == name_key or key in _NOT_NAMES or not 2 <= len(words(segment)) <= 14 or _DOCS_SUFFIX.search(segment) \
                    or _BOOK.match(segment):
                continue
            evidence = [self.home.meta_evidence(title)]
            line = next((l for l in self.home.lines if normalise(l) == key), None)
            if line:
                evidence.insert(0, self.home.text_evidence(line))
            return candidate(first_upper(segment), evidence)
        short_key = normalise(str(short["value"])) if short else ""
        below = self._line_below_name(name_key)
        if below is not None:
            return candidate(below, [self.home.text_evidence(below)])
        meta = self.meta()
        for key in ("og:description", "twitter:description"):
            value = meta.get(key, "")
            if value and len(value) <= 110 and len(words(value)) <= 15 and normalise(value) != short_key:
                return candidate(value, [self.home.meta_evidence(value)])
        return None

    def _site_tagline(self, name_key: str) -> str | None:
        """The tagline a blog theme prints under the site title (``site-description``), a phrase that is not the name."""
        assert self.home is not None
        own = self.home.page.structured.get("site_tagline")
        if not isinstance(own, str) or not own:
            return None
        line = next((l for l in self.home.all_lines if normalise(l) == normalise(own)), None)
        if line is None or normalise(line) == name_key or not 2 <= len(words(line)) <= 14 or len(line) > 120:
            return None
        return line

    def _headline(self, name_key: str) -> str | None:
        """The homepage ``h1``'s text when it is a content line, a phrase (not a sentence) and not the name."""
        assert self.home is not None
        headline = self.home.page.structured.get("headline")
        if not isinstance(headline, str) or not headline:
            return None
        key = normalise(headline)
        line = next((l for l in self.home.lines if normalise(l) == key), None)
        if line is None or key == name_key or key in _NOT_NAMES or _DOCS_SUFFIX.search(line) or is_nav(line):
            return None
        if name_key and contains_phrase(key, name_key) and self._names_product(line):
            return None  # "Welcome to Acme", "Getting started with Acme": the title says it better
        if not 3 <= len(words(line)) <= 14 or len(line) > 120 or line.endswith(("?", ":")) or _QUOTED_LINE.match(line):
            return None
        return line

    def _hero_line(self, name_key: str) -> str | None:
        """The page's first line when it is a short phrase and the next is the sentence defining the product
        ("Every repair, on one card" / "Gearloft is job-card and repair-queue software …"): a hero's promise set
        under an `h1` that holds only the logo."""
        assert self.home is not None
        lines = self.home.lines
        if len(lines) < 2 or not name_key or self.home.page.structured.get("headline"):
            return None
        first, second = lines[0], lines[1]
        if not 3 <= len(words(first)) <= 10 or len(first) > 80 or first.endswith(("?", ":", ".")) or is_nav(first) \
                or _QUOTED_LINE.match(first) or contains_phrase(normalise(first), name_key):
            return None
        return first if normalise(second).startswith(name_key) and is_sentence(second) else None

    def _line_below_page_heading(self, name_key: str) -> str | None:
        """A docs site's homepage headed with its page's name ("Introduction", "Overview") leads with the promise
        right under it ("Introduction" / "Catch every webhook. Replay any of them."): a short line, not a question,
        not naming the product."""
        assert self.home is not None
        headline = self.home.page.structured.get("headline")
        if not isinstance(headline, str) or normalise(headline) not in _NOT_NAMES:
            return None
        every, content = self.home.all_lines, set(self.home.lines)  # the heading may be a sidebar's entry too
        line = next((every[i + 1] for i, l in enumerate(every[:-1])
                     if normalise(l) == normalise(headline) and every[i + 1] in content), "")
        if not 3 <= len(words(line)) <= 12 or len(line) > 100 or is_nav(line) or line.endswith(("?", ":")) \
                or _QUOTED_LINE.match(line) or (name_key and contains_phrase(normalise(line), name_key)):
            return None
        return line

    def _names_product(self, line: str) -> bool:
        """The line writes the product's name as a name (capitalised as the site writes it), not as a word:
        "Cotiza la mudanza antes de que cuelguen" uses the word that Mudanza is named after."""
        named = self.name()
        name = str(named["value"]) if named else ""
        return bool(name) and (not name[:1].isupper() or re.search(rf"(?<!\w){re.escape(name)}(?!\w)", line) is not None)

    def _line_below_named_headline(self, name_key: str) -> str | None:
        """The phrase right under an ``h1`` that names the product with more ("Gleaner ‑ Back in Stock & Pre‑order" /
        "Turn “sold out” into sales you would have lost."), as an app listing or a launch page sets its promise."""
        assert self.home is not None
        headline = self.home.page.structured.get("headline")
        if not isinstance(headline, str) or not name_key or not normalise(headline).startswith(name_key) \
                or normalise(headline) == name_key:  # "Gleaner ‑ Back in Stock", not "Welcome to Acme"
            return None  # the name alone: the line under it is read after the <title> (`_line_below_name`)
        lines = self.home.lines
        at = next((i for i, l in enumerate(lines) if normalise(l) == normalise(headline)), None)
        if at is None or at + 1 >= len(lines):
            return None
        line = lines[at + 1]
        if not 3 <= len(words(line)) <= 14 or len(line) > 120 or is_nav(line) or line.endswith(("?", ":")) \
                or _QUOTED_LINE.match(line) or contains_phrase(normalise(line), name_key):
            return None
        return line

    def _line_below_name(self, name_key: str) -> str | None:
        """The short line right under the name heading ("Pagewright" / "Docs as code, without the yak shaving.")."""
        assert self.home is not None
        lines = self.home.lines
        # the name heading may repeat the header bar's brand word for word, and then only the page's full
        # lines show it: the line under it must still be a content line
        every = self.home.all_lines[:16]
        content = set(lines[:6])
        for at in (i for i, l in enumerate(every[:-1]) if normalise(l) == name_key):
            line = every[at + 1]
            if line in content and 2 <= len(words(line)) <= 12 and len(line) <= 100 and not is_nav(line) \
                    and not line.endswith((":", "?")) \
                    and name_key not in normalise(line):  # "Acme links your notes..." describes; a tagline does not name
                return line
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
        # a meta description that only repeats the page's headline is its slogan, not a description
        headline = home.page.structured.get("headline")
        slogan = normalise(headline) if isinstance(headline, str) else ""
        options = [o for o in options if normalise(o) != slogan]
        shown = [o for o in options if line_with(home, normalise(o))]
        definition = self._definition()
        if definition is not None and not any(self._defines(o) for o in shown):
            # the page says what the product is ("Kilnroom is a shared logbook for …") and the meta description,
            # shown nowhere, says something else: the page's own definition
            return candidate(definition, [home.text_evidence(definition)])
        if options:
            # a description also shown on the page is preferred, and quoted from the page too
            option = next((o for o in options if line_with(home, normalise(o))), options[0])
            evidence = [home.meta_evidence(option)]
            line = line_with(home, normalise(option))
            if line and sentence_key(line) == sentence_key(option):
                evidence.insert(0, home.text_evidence(line))
            return candidate(option, evidence)
        line = next((l for l in home.lines if is_sentence(l) and normalise(l) != slogan
                     and not _NOT_THIS_NOT_THAT.search(l)), None)
        return candidate(line, [home.text_evidence(line)]) if line else None

    def _definition(self) -> str | None:
        """The homepage's first sentence line among its first eight that defines the product by name ("Kilnroom is
        a …", "Acme ist die …", "Acme es el …", "Acme est un …")."""
        assert self.home is not None
        named = self.name()
        name = str(named["value"]) if named else ""
        if not name:
            return None
        return next((l for l in self.home.lines[:12] if self._defines(l) and is_sentence(l) and len(l) <= 400
                     and not _denial(l, name) and not _NOT_THIS_NOT_THAT.search(l)), None)

    def _defines(self, text: str) -> bool:
        """The text opens by saying what the product is: "Kilnroom is a …", "Bilgepump is uptime and SSL monitoring
        for …", "Acme ist die …", "Acme es el …", "Acme est un …" (not "Acme is not …")."""
        named = self.name()
        name = str(named["value"]) if named else ""
        if not name:
            return False
        pattern = re.compile(rf"^{re.escape(name)}\s+(?:is|ist|es|est|\u00e8|\u00e9|er|\u00e4r|is een|yra|je|on|to|ir|\u00e9 a)\s"
                             rf"(?!(?:not|nicht|kein|no|pas|non|ikke|inte)\b)", re.IGNORECASE)
        return pattern.match(text) is not None

    def description(self, name: str = "") -> Candidate | None:
        """Sentence lines of the homepage and about pages; one may open with a product name written
        in lower case ("loadstar is a load testing tool ..."). Sections about something else (blog teasers,
        FAQs, prices, testimonials, sponsors) are skipped, and so are an about page's lines naming people who are
        not its founders ("Nos asesora Jordi Pons", "Santiago Ospina lidera el desarrollo")."""
        chosen: list[tuple[SitePage, str]] = []
        total = 0
        founders = {normalise(f["name"]) for f in self.founders}
        for page in [p for p in self.pages if p.kind == "home"][:1] + of_kind(self.pages, "about"):
            aside = False  # under a blog, FAQ, pricing, testimonial, careers or credits heading: not the product's story
            card = False  # in a team card: a person's name, then their role and bio
            since_quote = 99  # lines since a quotation closed: its attribution follows ("Dolores …", "Project …, Co.")
            for at, line in enumerate(page.lines):
                if len(chosen) >= MAX_DESCRIPTION_LINES or total + len(line) > MAX_DESCRIPTION_CHARS:
                    break
                since_quote = 0 if line.rstrip().endswith(_CLOSING_QUOTES) else since_quote + 1
                if 0 < since_quote <= 2 and len(words(line)) <= 12:
                    continue
                if _denial(line, name):
                    continue  # what the product is not ("Tanager has no blockchain …") describes something else
                short = len(words(line)) <= 5 and not line.endswith((".", "!", "?"))
                if short and _ASIDE.search(normalise(line)):  # "From the blog", "Sponsors", "FAQ"
                    aside = True
                    continue
                if is_heading(line):  # any other heading starts a section about the product again,
                    aside = aside and line.rstrip().endswith("?")  # but not an FAQ's next question
                    card = _team_card(page, at, name)
                    continue
                if card:
                    continue  # "Co-founder & CEO. Previously an SRE at a payments company.": the person's, not the product's
                # about people who are not its founders: on an about page, or in a home page's team paragraph that
                # names a founder beside them ("… fundaron Turnero en 2021. Hoy nos acompaña como asesor …")
                team_line = page.kind == "about" or any(contains_phrase(normalise(line), f) for f in founders)
                if aside or (team_line and _names_others(line, name, founders)):
                    continue  # not the product's story, or about people who are not its founders
                named = bool(name) and name[:1].islower() and line.startswith(name + " ")
                if not is_sentence(line[:1].upper() + line[1:] if named else line) or line.startswith(_QUOTE_OPENERS) \
                        or EMAIL_IN_TEXT.search(line):
                    continue
                if any(normalise(line) == normalise(l) for _, l in chosen):
                    continue
                if has_price(line) or _BYLINE.match(normalise(line)) or (chosen and _BUZZWORDS.search(normalise(line))) \
                        or _HIRING.search(normalise(line)):
                    continue  # a price, a byline, buzzwords or a job opening: not what the product is
                chosen.append((page, line))
                total += len(line) + 2
        if not chosen:
            return None
        return candidate("\n\n".join(line for _, line in chosen), [p.text_evidence(l) for p, l in chosen])

    # --- lists -----------------------------------------------------------------------------------

    # --- contact, dates, media -------------------------------------------------------------------

    def contact_email(self) -> Candidate | None:
        order = of_kind(self.pages, "contact") + of_kind(self.pages, "home") + [
            p for p in self.pages if p.kind not in ("contact", "home")
        ]
        shown = [
            (match.group(0).rstrip("."), page, line)
            for page in order for line in page.all_lines  # a footer or imprint address counts
            for match in EMAIL_IN_TEXT.finditer(line)
            if match.group(0).split("@", 1)[0].lower() not in PLACEHOLDER_MAILBOXES
        ]
        general = [s for s in shown if s[0].split("@", 1)[0].lower() not in PURPOSE_MAILBOXES]
        shown = general + [s for s in shown if s not in general]
        if shown:
            email, page, line = shown[0]
            # footer links set without spaces read "ImpressumDatenschutzhallo@acme.example": the same address
            # shown whole elsewhere is the one the site means
            whole = next((s for s in shown[1:] if len(s[0]) < len(email) and email.lower().endswith(s[0].lower())), None)
            email, page, line = whole or (email, page, line)
            # "soporte@acme.exampleInstagramTikTok", "TeamFAQsupport@acme.example": a mailto link's address that
            # the text runs on from or into
            linked = [(e, p) for p in order for e in p.page.structured.get("emails") or [] if isinstance(e, str)]
            runs_on = next(((e, p) for e, p in linked if len(e) < len(email)
                            and (email.lower().startswith(e.lower()) or email.lower().endswith(e.lower()))), None)
            if runs_on:  # quoted as the link that holds it
                return candidate(runs_on[0], [runs_on[1].meta_evidence(runs_on[0])])
            return candidate(email, [page.text_evidence(line)])
        for page in order:  # shown nowhere as text: the address of a "Contact us" mailto link
            for email in page.page.structured.get("emails") or []:
                if isinstance(email, str) and email.split("@", 1)[0].lower() not in PLACEHOLDER_MAILBOXES:
                    return candidate(email, [page.meta_evidence(email)])
        return None

    def demo_video(self) -> Candidate | None:
        for page in self.pages:
            urls = list(page.page.links) + [v for _, v in strings_in(page.page.structured)]
            for url in urls:
                if is_video_url(url) and (platform_for(url) != "youtube" or not is_profile_link(url)):
                    return candidate(url, [page.meta_evidence(url)])
        return None

    def logo(self) -> Candidate | None:
        assert self.home is not None
        for page in [self.home] + self.pages[1:]:
            for item in structured_items(page.page.structured):
                if not types_of(item) & (ORGANIZATION_TYPES | PRODUCT_TYPES):
                    continue
                logo = string_value(item.get("logo"))
                if logo and logo.startswith(("http://", "https://")):
                    return candidate(logo, [page.meta_evidence(logo)])
        for logo in self.home.page.structured.get("logos") or []:  # the header's logo image
            if isinstance(logo, str) and logo.startswith(("http://", "https://")):
                return candidate(logo, [self.home.meta_evidence(logo)])
        named = self.name()
        key = normalise(str(named["value"])) if named else ""
        for image in self.home.page.structured.get("named_images") or []:  # an image showing the name, unmarked
            if isinstance(image, list) and len(image) == 2 and key and normalise(str(image[1])) == key \
                    and str(image[0]).startswith(("http://", "https://")):
                return candidate(str(image[0]), [self.home.meta_evidence(str(image[0]))])
        icons = [i for i in self.home.page.structured.get("icons") or [] if isinstance(i, str)]
        for icon in sorted(icons, key=lambda u: (u.lower().split("?")[0].endswith(".ico"), icons.index(u))):
            return candidate(icon, [self.home.meta_evidence(icon)])
        image = self.meta().get("og:image", "")
        if image.startswith(("http://", "https://")) and not is_share_card(image, self.meta()):
            return candidate(image, [self.home.meta_evidence(image)])  # a link preview's image that is the logo file
        return None

    def keywords(self) -> Candidate | None:
        assert self.home is not None
        raw = self.meta().get("keywords", "")
        # a buzzword the site's pages never say ("Web3, metaverso, educación, blockchain" in a meta tag) is
        # keyword stuffing, not what the product is about
        said = " ".join(normalise(line) for page in self.pages for line in page.lines)
        items = [clean(k) for k in raw.split(",") if clean(k)
                 and not (_BUZZWORDS.search(normalise(k)) and not contains_phrase(said, normalise(k)))]
        if items:
            return candidate(items[:20], [self.home.meta_evidence(raw)])
        for item in structured_items(self.home.page.structured):  # schema.org `keywords`: a list or one comma list
            value = item.get("keywords")
            quoted = [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str) and v.strip()]
            found = [clean(k) for q in quoted for k in q.split(",") if clean(k)]
            if found:
                return candidate(list(dict.fromkeys(found))[:20], [self.home.meta_evidence(q) for q in quoted])
        return None

    def tags(self) -> Candidate | None:
        """The site's own tags: texts of its ``rel="tag"`` links, quoted from the line that shows them."""
        items: list[str] = []
        evidence: list[dict[str, str]] = []
        for page in self.pages:
            for tag in page.page.structured.get("tags") or []:
                if not isinstance(tag, str) or normalise(tag) in {normalise(i) for i in items}:
                    continue
                # a post's tag links often sit in its article footer: any visible line of the page shows them
                line = line_with(page, normalise(tag)) or next(
                    (l for l in page.all_lines if contains_phrase(normalise(l), normalise(tag))), None)
                if line is None:
                    continue
                items.append(clean(tag))
                evidence.append(page.text_evidence(line))
        return candidate(items[:20], evidence) if items else None

    # --- socials ---------------------------------------------------------------------------------------

    def socials(self) -> dict[str, str]:
        """The first profile link per platform, one naming the product ahead of one that does not (a docs theme's
        credit "github.com/someone/theme" beside the project's own "github.com/acme/acme")."""
        found: dict[str, str] = {}
        named = self.name() if self.home is not None else None
        keys = _product_keys(str(named["value"])) if named else set()
        if self.home is not None:
            found["website"] = self.crawl.final_url
        for page in self.pages:
            links = list(page.page.links) + [
                v for k, v in strings_in(page.page.structured) if k in ("sameAs", "", "url") and v.startswith("http")
            ]
            for url in links:
                platform = platform_for(url)
                if platform in SOCIAL_PLATFORMS and is_profile_link(url) and (
                        platform not in found or _account_of(found[platform], url)
                        or (_names_product(url, keys) and not _names_product(found[platform], keys))):
                    found[platform] = url
        if "mastodon" not in found:  # a profile on a server of any name, marked rel="me" or labelled Mastodon
            marked = [u for p in self.pages for u in p.page.structured.get("fediverse") or [] if isinstance(u, str)]
            own = next((u for u in marked if platform_for(u) in (None, "mastodon")), None)
            if own:
                found["mastodon"] = own
        return found


_FOLDED = str.maketrans({"\u00e4": "ae", "\u00f6": "oe", "\u00fc": "ue", "\u00df": "ss"})


def _product_keys(name: str) -> set[str]:
    """How a product name is written in a link's path: "Prüfstand" as "pruefstand" or "prufstand"."""
    key = re.sub(r"[^\w]", "", name.casefold())
    plain = "".join(c for c in unicodedata.normalize("NFKD", key) if not unicodedata.combining(c))
    return {k for k in (key, key.translate(_FOLDED), plain) if len(k) >= 3}


def _names_product(url: str, keys: set[str]) -> bool:
    path = re.sub(r"[^\w/]", "", urlsplit(url).path.casefold())
    return any(key in path for key in keys)


def _account_of(repository: str, url: str) -> bool:
    """``url`` is the account ``repository`` lives under ("github.com/acme" for "github.com/acme/acme"): the
    company's profile, not one of its projects."""
    return repository.rstrip("/").startswith(url.rstrip("/") + "/")


__all__ = ["ExtractiveDrafter", "extract_candidate"]
