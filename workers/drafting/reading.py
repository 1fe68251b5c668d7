"""Reading a crawl the way the extractive drafter needs it: pages, lines, structured items.

The crawler keeps each page's visible text with one block element per line,
so a line is a heading, a paragraph, a list item or a table row.  These
helpers classify lines (sentence, heading, navigation) and walk structured
data (JSON-LD and microdata items, ``@graph`` included).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from workers.adapters.websites import CrawledPage, CrawlResult

from .model import Evidence
from .text import contains_phrase, normalise, words

# Path words per page kind, in English, German, French, Spanish, Dutch, Italian and Portuguese ("preise", "tarifs").
PAGE_KINDS: dict[str, tuple[str, ...]] = {
    "about": ("about", "company", "story", "mission", "us", "ueber", "uber", "\u00fcber", "unternehmen", "firma",
              "propos", "entreprise", "histoire", "nosotros", "empresa", "sobre", "quienes", "historia",
              "siamo", "azienda", "storia", "somos", "verhaal", "ons", "oss", "nas", "sommes", "rolunk", "r\u00f3lunk", "despre", "hakkimizda", "hakk\u0131m\u0131zda", "meist", "apie", "som", "nosaltres",
              # a docs site's introduction says what the product is, as an about page does
              "intro", "introduction", "overview", "einfuehrung", "einf\u00fchrung", "introduccion",
              "introducci\u00f3n", "presentation", "pr\u00e9sentation", "introduzione", "introducao",
              "introdu\u00e7\u00e3o", "inleiding"),
    "pricing": ("pricing", "price", "prices", "plans", "plan", "preise", "preis", "tarife", "tarif", "tarifs",
                "priser", "prislista", "cennik", "hinnat", "cenik", "cen\u00edk", "ceny", "hinnasto", "hinnoittelu",
                "arak", "\u00e1rak", "arazas", "\u00e1raz\u00e1s", "preturi", "pre\u021buri", "tarife", "fiyatlar", "fiyat", "cennik", "hinnad", "kainos",
                "prix", "precios", "precio", "planes", "tarifas", "prijzen", "tarieven", "prezzi", "piani",
                "precos", "pre\u00e7os", "planos", "preus", "cijene", "cjenik", "cenas", "prezo", "prezos",
                "harga", "paket", "tseny", "tsiny"),
    "features": ("features", "feature", "tour", "product", "how", "funktionen", "produkt", "fonctionnalites",
                 "produit", "funciones", "caracteristicas", "producto", "functies", "funzionalita",
                 "funzionalit\u00e0", "funcionalidades", "recursos", "prodotto", "produto",
                 # "Leistungen", "Funktionsumfang", and the features page of Europe's other languages
                 "leistungen", "leistungsumfang", "funktionsumfang", "capabilities", "funktioner", "funksjoner",
                 "ominaisuudet", "funkcje", "funkce", "funkcie", "funkciok", "funkci\u00f3k", "functionalitati",
                 "funkcije", "funkcijos", "funkcijas", "funktsioonid", "ozellikler", "\u00f6zellikler", "znacajke",
                 "zna\u010dajke", "mogelijkheden"),
    "faq": ("faq", "faqs", "questions", "help", "fragen", "hilfe", "aide", "preguntas", "ayuda", "vragen",
            "veelgestelde", "domande", "aiuto", "perguntas", "ajuda", "fragor", "fr\u00e5gor", "hj\u00e4lp",
            "sporsmal", "sp\u00f8rgsm\u00e5l", "pytania", "pomoc", "gyik", "ukk", "otazky", "ot\u00e1zky", "dotazy", "intrebari", "\u00eentreb\u0103ri", "sss", "preguntes", "pitanja"),
    "team": ("team", "people", "founders", "leadership", "gruender", "equipe", "\u00e9quipe", "equipo", "fundadores",
             "fondateurs", "squadra", "oprichters"),
    "contact": ("contact", "kontakt", "contacto", "contactez", "contatti", "contato", "contatto"),
    "imprint": ("impressum", "imprint", "aviso", "mentions", "legal", "legals", "colophon", "colofon", "legali"),
}
NAV_WORDS = frozenset(
    "home about us pricing plans plan faq faqs team blog contact features feature login log in sign up signup "
    "docs documentation terms privacy careers jobs customers changelog product products company resources "
    "enterprise email twitter github linkedin youtube discord x facebook instagram partner site support help "
    "status security legal cookies download get started demo book menu search api integrations partners "
    "press news community our the mastodon bluesky reddit tiktok producthunt rss".split()
)
_LEGAL = re.compile(
    r"\u00a9|\(c\)|all rights reserved|privacy policy|terms of (?:service|use)|alle rechte vorbehalten"
    r"|\b(?:we|this (?:site|website)) uses? cookies\b|\bcookie (?:policy|settings|preferences)\b|accept (?:all )?cookies"
    r"|usamos cookies|utilizamos cookies|wir verwenden cookies|nous utilisons des cookies"
    r"|todos los derechos reservados|tous droits r\u00e9serv\u00e9s|\bimpressum\b|\bdatenschutz\b|aviso legal"
    r"|mentions l\u00e9gales",
    re.IGNORECASE,
)
_TITLE_SPLIT = re.compile(r"\s+(?:[|\u2014\u2013\u00b7\u2022]|-|::)\s+|(?<=\w):\s+")
PRODUCT_TYPES = frozenset({"softwareapplication", "webapplication", "mobileapplication", "product", "website", "service", "videogame"})
ORGANIZATION_TYPES = frozenset({"organization", "corporation", "localbusiness", "brand", "ngo", "onlinebusiness", "organisation"})
Candidate = dict[str, Any]  # a proposed value with its quotes, {"value", "evidence"}, before `verify` checks it


@dataclass(frozen=True)
class SitePage:
    """A crawled page with its lines and what kind of page it is.

    ``lines`` is the page's content: its visible lines without the ones in
    navigation, header bars, footers and cookie banners (the crawler reports
    those as ``structured["boilerplate"]``) and without copyright and legal
    lines; ``all_lines`` keeps them, for facts a footer or imprint does state
    (an address, an email).
    """

    page: CrawledPage
    lines: tuple[str, ...]
    kind: str
    all_lines: tuple[str, ...] = ()

    @property
    def url(self) -> str:
        return self.page.url

    def text_evidence(self, quote: str) -> dict[str, str]:
        return Evidence(self.page.url, quote, "text").to_dict()

    def meta_evidence(self, quote: str) -> dict[str, str]:
        return Evidence(self.page.url, quote, "metadata").to_dict()


MIN_PAGES_FOR_CHROME = 3


def site_pages(crawl: CrawlResult) -> list[SitePage]:
    """The crawl's pages in crawl order (homepage first) with their kind.

    A line every page shows (three pages or more) is the site's chrome, whatever its markup: a builder's ad
    bar ("Diese Website wurde mit dem Baukasten erstellt"), a header slogan, a footer the markup does not mark.
    It stays in ``all_lines`` and leaves ``lines``.
    """
    texts = [{line for line in page.text.split("\n") if line.strip()} for page in crawl.pages]
    chrome = set.intersection(*texts) if len(texts) >= MIN_PAGES_FOR_CHROME else set()
    return [_site_page(page, kind, chrome) for page, kind in zip(crawl.pages, _kinds(crawl), strict=True)]


SUB_PAGES = frozenset({"about", "pricing", "features", "faq", "team", "contact"})


def _kinds(crawl: CrawlResult) -> list[str]:
    """Each page's kind. The first page (the address submitted) is the homepage, unless it is one of the
    site's known sub-pages (`/about`, `/pricing` ...) and the site's root was crawled too: then the root is
    the homepage and the submitted page keeps its own kind. A root crawled beside a product page at some
    other path (`/products/tallyfox`) is the company's page, not the product's: it reads as `other`."""
    kinds = [page_kind(page.url) for page in crawl.pages]
    if not kinds:
        return []
    if kinds[0] == "home":
        return ["home", *("other" if k == "home" else k for k in kinds[1:])]
    if kinds[0] in SUB_PAGES and "home" in kinds[1:]:
        return kinds
    return ["home", *("other" if k == "home" else k for k in kinds[1:])]


def _site_page(page: CrawledPage, kind: str, chrome: set[str] | None = None) -> SitePage:
    every = tuple(line for line in page.text.split("\n") if line.strip())
    boiler = page.structured.get("boilerplate")
    skip = {line for line in boiler if isinstance(line, str)} if isinstance(boiler, list) else set()
    skip |= chrome or set()
    content = tuple(line for line in every if line not in skip and not is_legal(line))
    return SitePage(page=page, lines=content, kind=kind, all_lines=every)


def is_legal(line: str) -> bool:
    """A copyright, rights or legal-links line ("\u00a9 2025 Acme Ltd \u00b7 Impressum \u00b7 Datenschutz"), or a
    cookie notice whose banner the markup does not mark ("This website uses cookies. ... Accept Decline")."""
    return len(line) <= 300 and bool(re.search(r"\u00a9|\(c\)\s*\d{4}|all rights reserved|alle rechte vorbehalten"
                                               r"|derechos reservados|droits r\u00e9serv\u00e9s", line, re.IGNORECASE)
                                     or _COOKIE_NOTICE.search(line))


_COOKIE_NOTICE = re.compile(
    r"\b(?:we|this (?:site|website)) uses? cookies\b|\bwe use cookies\b|\baccept (?:all )?cookies\b"
    r"|\b(?:usamos|utilizamos) cookies\b|(?:este|el) sitio(?: web)? (?:usa|utiliza) cookies"
    r"|\bwir verwenden cookies\b|\bdiese (?:web)?seite verwendet cookies\b|\bnous utilisons des cookies\b"
    r"|\bce site utilise des cookies\b|\bwij gebruiken cookies\b|\butilizziamo (?:i )?cookie"
    r"|\bquesto sito utilizza (?:i )?cookie|\butilizamos cookies\b|\beste site usa cookies\b",
    re.IGNORECASE,
)


def page_kind(url: str, is_home: bool = False) -> str:
    """``home``, ``about``, ``pricing``, ``features``, ``faq``, ``team``, ``contact`` or ``other``."""
    if is_home:
        return "home"
    try:
        path = httpx.URL(url).path
    except (httpx.InvalidURL, ValueError, TypeError):
        return "other"
    segments = [s for s in path.lower().split("/") if s]
    if not segments:
        return "home"
    last = words(segments[-1].replace("-", " ").replace("_", " ").rsplit(".", 1)[0])
    for kind, keys in PAGE_KINDS.items():
        if any(w in keys for w in last) and not (kind == "about" and last == ["us"]):
            return kind
    return "other"


def of_kind(pages: list[SitePage], *kinds: str) -> list[SitePage]:
    return [p for p in pages if p.kind in kinds]


def is_nav(line: str) -> bool:
    """A run of menu labels ("Home About us Pricing Blog")."""
    ws = words(line)
    if len(ws) < 3 or line.rstrip().endswith((".", "!", "?")):
        return False
    return sum(w in NAV_WORDS for w in ws) / len(ws) > 0.5  # "Single sign-on login" is half menu words: a card


def is_sentence(line: str, *, min_words: int = 5) -> bool:
    """A prose sentence or paragraph a visitor reads (not a menu, heading or legal line)."""
    stripped = line.strip()
    if not stripped or not (stripped[0].isupper() or stripped[0].isdigit()):
        return False
    if not stripped.endswith((".", "!", "?")) or len(stripped) > 1000:
        return False
    return len(words(stripped)) >= min_words and not _LEGAL.search(stripped) and not is_nav(stripped)


def is_heading(line: str) -> bool:
    """A short line without closing punctuation: likely a heading or a label."""
    stripped = line.strip()
    if not stripped or len(stripped) > 80 or stripped.endswith((".", ",", ";", "!")):
        return False
    n = len(words(stripped))
    # "e-Fatura entegrasyonu", "iOS app": a lower-case prefix before a capital still starts a label
    starts = stripped[0].isupper() or stripped[0].isdigit() or re.match(r"^[a-z]{1,2}[.-]?[A-Z]", stripped) is not None
    return 1 <= n <= 10 and starts and not is_nav(stripped)


def title_segments(title: str) -> list[str]:
    """The parts of a ``<title>`` split at separators ("Acme — Do X" -> ["Acme", "Do X"])."""
    return [s.strip() for s in _TITLE_SPLIT.split(title) if s.strip()]


def structured_items(structured: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """Every JSON-LD and microdata item (dict with ``@type``), nested ones included."""
    for syntax in ("json-ld", "microdata"):
        yield from _items(structured.get(syntax), 0)


def _items(data: Any, depth: int) -> Iterator[dict[str, Any]]:
    if depth > 20:
        return
    if isinstance(data, list):
        for item in data:
            yield from _items(item, depth + 1)
    elif isinstance(data, Mapping):
        if "@type" in data:
            yield dict(data)
        for key, value in data.items():
            if isinstance(value, (list, Mapping)):
                yield from _items(value, depth + 1)


def types_of(item: Mapping[str, Any]) -> set[str]:
    """Lower-case schema.org type names of an item ("https://schema.org/FAQPage" -> "faqpage")."""
    raw = item.get("@type")
    names = raw if isinstance(raw, list) else [raw]
    return {str(n).rstrip("/").rsplit("/", 1)[-1].lower() for n in names if n}


def string_value(value: Any) -> str | None:
    """A plain string from a schema.org value (string, number, or {name|url|@value})."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (str, int, float)):
        text = str(value).strip()
        return text or None
    if isinstance(value, Mapping):
        for key in ("name", "url", "@value", "text"):
            found = string_value(value.get(key))
            if found:
                return found
    if isinstance(value, list) and value:
        return string_value(value[0])
    return None


def line_with(site_page: SitePage, needle_normalised: str) -> str | None:
    """The first line of a page containing the phrase (normalised), if any."""
    for line in site_page.lines:
        if contains_phrase(normalise(line), needle_normalised):
            return line
    return None


def candidate(value: Any, evidence: list[dict[str, str]]) -> Candidate | None:
    """A proposed value with its quotes (repeats dropped); None without a value or without a quote."""
    evidence = [e for i, e in enumerate(evidence) if e not in evidence[:i]]
    return {"value": value, "evidence": evidence} if value and evidence else None
