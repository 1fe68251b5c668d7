"""Choose which pages besides the homepage are worth fetching.

A profile needs the pages that describe the product: about, pricing,
features, FAQ, team, customers, contact, blog.  Candidates come from the
homepage's links and from the sitemap; each is scored by keywords in its path
(strongest) and link text, with a penalty for depth and query strings.
Ties keep discovery order, so homepage links beat sitemap entries.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import httpx

from .urls import is_asset, page_key, same_site_url

KEYWORD_WEIGHTS: dict[str, int] = {
    "about": 10, "company": 7, "story": 7, "mission": 5,
    # "our story" in the languages below: a blog's founding story ("/blogs/news/our-story") is an about page
    "histoire": 7, "historia": 7, "geschichte": 7, "storia": 7, "historie": 7, "verhaal": 7,
    # a post telling how it was founded ("Por qué fundamos Brasero", "Why we started Acme")
    "fundamos": 7, "founded": 7, "gegruendet": 7, "gegr\u00fcndet": 7, "fond\u00e9": 7, "fondato": 7,
    "pricing": 10, "price": 9, "prices": 9, "plans": 8, "plan": 7,
    "features": 9, "feature": 8, "tour": 6,
    "product": 8, "products": 8, "platform": 6, "solutions": 5, "solution": 5,
    "faq": 8, "faqs": 8, "questions": 6, "help": 4,
    "team": 7, "people": 5, "founders": 6, "leadership": 5,
    "customers": 6, "customer": 6, "testimonials": 5, "case": 4, "studies": 4, "showcase": 4,
    "contact": 6,
    "blog": 4, "news": 3, "changelog": 3, "press": 3,
    # the same pages in German, French, Spanish, Dutch, Italian and Portuguese
    "preise": 10, "tarife": 8, "funktionen": 9, "produkt": 8, "ueber": 9, "uber": 9, "\u00fcber": 9,
    "unternehmen": 7, "fragen": 6, "hilfe": 4, "kontakt": 6, "impressum": 7, "imprint": 7,
    "tarifs": 10, "prix": 9, "fonctionnalites": 9, "fonctionnalit\u00e9s": 9, "produit": 8, "propos": 9,
    "entreprise": 7, "equipe": 7, "\u00e9quipe": 7, "mentions": 6, "contactez": 5,
    "precios": 10, "planes": 8, "funciones": 9, "caracteristicas": 8, "caracter\u00edsticas": 8, "producto": 8,
    "nosotros": 9, "empresa": 7, "equipo": 7, "preguntas": 6, "ayuda": 4, "contacto": 6, "aviso": 5,
    "prijzen": 10, "tarieven": 9, "functies": 9, "vragen": 6, "veelgestelde": 6,
    "prezzi": 10, "piani": 8, "funzionalita": 9, "funzionalit\u00e0": 9, "siamo": 8, "azienda": 7,
    "squadra": 5, "domande": 6, "contatti": 6,
    "precos": 10, "pre\u00e7os": 10, "planos": 8, "funcionalidades": 9, "recursos": 7, "sobre": 8,
    "perguntas": 6, "contato": 6,
    # Swedish, Danish, Norwegian, Polish
    "priser": 10, "funktioner": 9, "oss": 8, "fragor": 6, "fr\u00e5gor": 6, "cennik": 10, "nas": 6,
    "ons": 8, "funkcje": 9, "pytania": 6,
    # Czech and Finnish
    "cenik": 10, "cen\u00edk": 10, "ceny": 9, "hinnasto": 10, "hinnat": 10, "hinnoittelu": 10,
    # Hungarian
    "arak": 10, "\u00e1rak": 10, "rolunk": 9, "r\u00f3lunk": 9, "gyik": 6, "csapat": 5, "kapcsolat": 6,
    # Romanian
    "preturi": 10, "pre\u021buri": 10, "despre": 8, "intrebari": 6, "\u00eentreb\u0103ri": 6,
    # Turkish
    "fiyatlar": 10, "hakkimizda": 9, "hakk\u0131m\u0131zda": 9, "sss": 6, "ekip": 5, "iletisim": 6,
    # Estonian
    "hinnad": 10, "meist": 9,
    # Lithuanian, Slovenian
    "kainos": 10, "apie": 8, "vprasanja": 6,
    # Croatian
    "cijene": 10, "cjenik": 10, "nama": 6, "pitanja": 6,
    # Latvian, Galician
    "cenas": 10, "mums": 6, "prezo": 10, "prezos": 10,
}
MAX_CANDIDATES = 2_000


ROOT_SCORE = 1_000_000  # above any page's score: the site's root, when a page below it was submitted


@dataclass(frozen=True)
class Candidate:
    """A same-site page we may fetch."""

    url: str
    text: str
    source: str
    score: int
    order: int


def _words(text: str) -> list[str]:
    """Lower-case alphanumeric words of a path or a link text."""
    return "".join(c if c.isalnum() else " " for c in text.lower()).split()


def score(url: str, text: str) -> int:
    """How likely the page is to describe the product."""
    parsed = httpx.URL(url)
    segments = [s for s in parsed.path.split("/") if s]
    path_score = 0
    for position, segment in enumerate(segments):
        weight = max((KEYWORD_WEIGHTS.get(w, 0) for w in _words(segment)), default=0)
        # Keywords in the last segment describe the page itself; earlier ones a section.
        path_score = max(path_score, weight * 2 if position == len(segments) - 1 else weight)
    text_score = max((KEYWORD_WEIGHTS.get(w, 0) for w in _words(text)), default=0)
    depth_penalty = 2 * max(len(segments) - 1, 0)
    query_penalty = 3 if parsed.query else 0
    return path_score + text_score - depth_penalty - query_penalty


def rank_candidates(
    links: Iterable[tuple[str, str]], sitemap_urls: Iterable[str], *, site: str, homepage_url: str
) -> list[Candidate]:
    """Same-site, non-asset, de-duplicated candidates, best first.

    URLs that differ only by query string (or a trailing slash) count once,
    preferring the variant without a query.  The homepage itself is excluded.
    """
    excluded = {page_key(homepage_url)}
    chosen: dict[str, Candidate] = {}
    sources = [(url, text, "link") for url, text in links] + [(url, "", "sitemap") for url in sitemap_urls]
    for order, (raw_url, text, source) in enumerate(sources[:MAX_CANDIDATES]):
        url = same_site_url(raw_url, site)
        if url is None or is_asset(url):
            continue
        key = page_key(url)
        if key in excluded:
            continue
        candidate = Candidate(url, text, source, score(url, text), order)
        existing = chosen.get(key)
        if existing is None:
            chosen[key] = candidate
        elif _prefer(candidate, existing) or (candidate.text and not existing.text):
            better_url = candidate.url if _prefer(candidate, existing) else existing.url
            better_text = existing.text or candidate.text
            chosen[key] = Candidate(
                better_url, better_text, existing.source, score(better_url, better_text), existing.order
            )
    ranked = sorted(chosen.values(), key=lambda c: (-c.score, c.order))
    root = site.rstrip("/") + "/"
    if page_key(root) in excluded:
        return ranked
    # A page below the root was submitted (`/about`): the site's own homepage is read first after it,
    # whether or not the page links to it (docs/crawler.md).
    return [Candidate(root, "", "root", ROOT_SCORE, -1), *(c for c in ranked if page_key(c.url) != page_key(root))]


def _prefer(new: Candidate, old: Candidate) -> bool:
    """Prefer a URL without query string over one with."""
    return bool(httpx.URL(old.url).query) and not httpx.URL(new.url).query
