"""What a site's pricing pages say: the pricing model and a short summary of its prices, for the extractive drafter.

The model comes from cue phrases (`vocab.pricing_cues`): "freemium", or a
free plan beside a paid one, or a trial beside a paid offer ("free trial"), else the first of subscription, one-time,
usage-based, open source, paid, free, and last "contact" (only an invitation
to ask for a price). The summary is the first few lines that
state a price, a trial or a free plan, each quoted as it stands.
"""

from __future__ import annotations

import re

from .reading import Candidate, SitePage, candidate, is_heading, is_nav, of_kind, title_segments
from .site_lists import OTHER_SECTION
from .text import QUOTATION_MARK, normalise, words
from .vocab import NO_PERIOD_FEE, OTHER_COMPANY_PRICE, TRIAL, has_price, is_paid, prices, pricing_cues

MAX_PRICING_LINES = 6
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z\u00c0-\u00de])")
# A heading naming prices, also in a pair ("Lizenz und Kosten", "Plans & pricing") or singular ("Preço")
PRICING_HEADING = re.compile(
    r"^(?:[\w-]+\s+(?:and|und|y|et|en|e|&)\s+)?(?:simple\s+|transparent\s+)?(?:pricing|prices?|plans|preise?|kosten|tarife?"
    r"|precios?|planes|tarifs?|prix|prijz?en|prijs|tarieven|prezzi|prezzo|piani|pre\u00e7os?|planos|costs?"
    r"|cijene|cjenik|cenas|prezo|prezos|\u03c4\u03b9\u03bc\u03ad[\u03c2\u03c3]|\u03c4\u03b9\u03bc\u03bf\u03bb\u03cc\u03b3\u03b7\u03c3\u03b7"
    # Indonesian "Harga", Ukrainian "Ціни", "Тарифи"
    r"|harga|\u0446\u0456\u043d\u0438|\u0442\u0430\u0440\u0438\u0444\u0438)"
    r"(?:\s+(?:and|und|y|et|en|e|&)\s+[\w-]+)?$"
)


# A one-pager's buying section names its price in a phrase: "One price. Yours to keep.", "Plans for every team"
PRICE_WORD_HEADING = re.compile(r"\b(?:pricing|prices?|plans|preise?|precios?|tarifs?|prix|prijzen|prezzi|pre\u00e7os?|cijene|harga"
                                r"|\u03c4\u03b9\u03bc\u03ad[\u03c2\u03c3])\b")


def _section_below(page: SitePage, heading: re.Pattern[str]) -> list[int]:
    """Indexes of the lines under the first heading matching ``heading`` whose section names a price (a listing's
    "Pricing" over one line of summary, and again over the plans), else under the first such heading, up to the
    next section's heading; else under the first short line naming prices in a phrase with a price within the
    six lines below it (a free plan's card, its name, price and allowance, may come first)."""
    starts = [i for i, l in enumerate(page.lines) if is_heading(l) and heading.match(normalise(l).strip(" :"))]
    sections = [_section_from(page, start) for start in starts]
    priced = next((section for section in sections if any(has_price(page.lines[i]) for i in section)), None)
    if priced is not None or sections:
        return priced if priced is not None else sections[0]
    start = next((i for i, l in enumerate(page.lines[:-1]) if len(words(l)) <= 8
                  and PRICE_WORD_HEADING.search(normalise(l)) and any(has_price(x) for x in page.lines[i + 1:i + 7])),
                 None)
    return _section_from(page, start) if start is not None else []


def _section_from(page: SitePage, start: int) -> list[int]:
    found: list[int] = []
    for index in range(start + 1, len(page.lines)):
        line = page.lines[index]
        if is_heading(line) and OTHER_SECTION.search(normalise(line)) and not PRICING_HEADING.match(normalise(line)) \
                and not any(has_price(x) for x in page.lines[index + 1:index + 3]):
            break  # the next section (FAQ, team, contact...); a plan named "Team" over its price is no section
        if len(found) >= 40:
            break
        found.append(index)
    return found


def find_pricing(pages: list[SitePage]) -> tuple[Candidate | None, Candidate | None]:
    """The pricing model and the pricing summary (either None when the pricing pages do not state it)."""
    priced_pages = of_kind(pages, "pricing") or [p for p in pages if p.kind != "home" and _price_table(p)] \
        or [p for p in pages if p.kind != "home" and _headed_pricing(p)]
    plan_lines = [(p, *read) for p in priced_pages for read in _plan_lines(p, range(len(p.lines)))]
    if not plan_lines:  # a one-pager: the section under a "Pricing" / "Preise" / "Precios" / "Tarifs" heading
        plan_lines = [(p, *read) for p in of_kind(pages, "home") for read in _plan_lines(p, _section_below(p, PRICING_HEADING))]
    lines = [(p, l) for p, l, _ in plan_lines]
    cells = {l for _, l, role in plan_lines if role == _CELL}  # "Developer Free", "Enterprise Custom pricing"
    allowances = {l for _, l, role in plan_lines if role == _ALLOWANCE}  # "10,000 requests per month included."
    if not lines:  # prices stated only in the text: "A commercial licence is £39 per person per year."
        lines = _priced_prose(pages)
    # a question asks, it does not say: "Is there a free plan?" on a pricing page's FAQ is no free plan
    lines = [(p, own) for p, l in lines for own in [_own_prices(l)] if own and not own.rstrip().endswith("?")]
    if not lines:
        return _free_said(pages)
    cues = [(p, l, pricing_cues(l)) for p, l in lines]
    hits: dict[str, tuple[SitePage, str]] = {}
    for p, l, c in cues:
        for cue in c:
            hits.setdefault(cue, (p, l))
    # a line with a price first: "100 AI-svar per månad" is a free plan's allowance, "1 490 kr/mån" a price
    denied_period = any(NO_PERIOD_FEE.search(normalise(l)) for _, l in lines)
    if "subscription" in hits and denied_period and (
            "usage-based" in hits or not any("subscription" in c and has_price(l) for _, l, c in cues)):
        del hits["subscription"]  # "CHF 1.50 pro Übernachtung … keine Grundgebühr … abgerechnet im Monat": per use
    paid = next(((p, l) for p, l, c in cues if is_paid(c) and has_price(l)), None) or next(
        ((p, l) for p, l, c in cues if is_paid(c)), None)
    # a line may give the free allowance and the price after it: "Free for up to 5 hires. After that, $6 per month"
    priced = paid or next(((p, l) for p, l, _ in cues if has_price(l)), None)
    model: tuple[str, list[tuple[SitePage, str]]] | None = None
    free_software = next(((p, l) for p, l, c in cues if {"open source", "free"} <= c and not _FOR_OPEN_SOURCE.search(l)), None)
    licensed = next(((p, l) for p, l, c in cues if "free" in c and _LICENCE.search(l)), None)
    unpriced = not any(has_price(l) for _, l in lines)  # "we'll send you a quote": the invitation is the summary
    if "freemium" in hits:
        model = ("freemium", [hits["freemium"]])
    elif unpriced and "contact" in hits and not hits.keys() & {"free plan", "free trial", "open source"}:
        model = ("contact", [hits["contact"]])  # "un devis sur mesure, sous forme d'abonnement annuel": a quote
    elif licensed:  # the free edition is the software under its licence: "Gratuit (AGPL-3.0)", a hosted one beside it
        model = ("open source", [licensed])
    elif "free plan" in hits and priced:  # an "Open Source" plan that is free for public repositories is a free plan
        model = ("freemium", [hits["free plan"]] + ([priced] if priced != hits["free plan"] else []))
    elif "free plan" in hits and "contact" in hits and hits["contact"] != hits["free plan"]:
        model = ("freemium", [hits["free plan"], hits["contact"]])  # a free plan beside one priced on request
    elif free_software:  # "freie Software unter der AGPL-3.0 und kostenlos", a hosted edition beside it or not
        model = ("open source", [free_software])
    elif "free trial" in hits and paid:  # paid plans only, tried before buying
        model = ("free trial", [hits["free trial"], paid])
    else:
        single = next(
            (c for c in ("subscription", "one-time", "usage-based", "open source", "paid", "free", "contact") if c in hits),
            None,
        )  # "contact" only when the pages name no price, plan or model at all
        model = (single, [hits[single]]) if single else None
    model_candidate = candidate(model[0], [p.text_evidence(l) for p, l in model[1]]) if model else None
    summary: list[tuple[SitePage, str]] = []
    for p, line, line_cues in cues:
        # a long paragraph is read sentence by sentence: "… ab 12 € im Monat nutzen; …" without the rest
        pieces = [(line, line_cues)] if len(line) <= 200 else [(x, pricing_cues(x)) for x in _SENTENCE_BREAK.split(line)]
        for l, c in pieces:
            if len(summary) >= MAX_PRICING_LINES:
                break
            about_price = has_price(l) or bool(TRIAL.search(normalise(l))) or (c & {"free", "free plan"} and len(words(l)) > 2) \
                or ((l.endswith(_PLAN_CELL) or l in cells) and bool(c & {"free plan", "contact"})) or l in allowances \
                or (unpriced and "contact" in c and len(words(l)) > 4)
            if about_price and len(l) <= 200 and l not in [x for _, x in summary]:
                summary.append((p, l))
    text = " ".join(l if l.endswith((".", "!", "?")) else l + "." for _, l in summary)
    summary_candidate = candidate(text, [p.text_evidence(l) for p, l in summary]) if summary else None
    return model_candidate, summary_candidate


# a table's header cell naming the price column: "Price", "Preis", "Precio", "Prix", "Pris", "Cena"
_PRICE_COLUMN = re.compile(r"^(?:prices?|pricing|cost|preise?|kosten|precios?|prix|tarifs?|prezzo|pre\u00e7o|prijs|pris|cena|hinta)$")


def _price_table(page: SitePage) -> bool:
    """A page whose table has a price column with prices in it (a hosted edition's "Plan | Included | Price"),
    though its address does not say pricing ("/cloud", "/hosting")."""
    tables = page.page.structured.get("tables")
    for table in tables if isinstance(tables, list) else []:
        if not isinstance(table, list) or len(table) < 2 or not isinstance(table[0], list):
            continue
        header = [normalise(str(cell)).strip(" :") for cell in table[0]]
        column = next((i for i, cell in enumerate(header) if _PRICE_COLUMN.match(cell)), None)
        if column is not None and any(isinstance(row, list) and len(row) > column and has_price(str(row[column]))
                                      for row in table[1:]):
            return True
    return False




# "Bougie est gratuit pour tous les élèves", "Persienne est gratuit, sans compte", "Acme is completely free":
# the product said to be free, in a sentence
_FREE_SAID = re.compile(
    r"(?:^|[.!?]\s+)[A-Z\u00c0-\u00de][\w\u00c0-\u024f'-]*(?:\s+[\w\u00c0-\u024f'-]+)?\s+(?:is|est|ist|es|\u00e8|\u00e9|is and stays)"
    r"\s+(?:(?:completely|totally|entirely|totalement|enti\u00e8rement|komplett|v\u00f6llig|totalmente|completamente)\s+)?"
    r"(?:free|gratuit[e]?|kostenlos|gratis|gratuit[oa])\b(?!\s+(?:trial|to try|pendant|during))",
)


def _free_said(pages: list[SitePage]) -> tuple[Candidate | None, Candidate | None]:
    """On a site that names no price anywhere and is no open-source project: the sentence saying the product is
    free, as the model (`free`) and the summary; else nothing."""
    if any(has_price(l) for p in pages for l in p.lines) or open_source_statement(pages) is not None:
        return None, None  # a free open-source project is `open source` (`open_source_statement`)
    for page in of_kind(pages, "home", "about", "faq") + of_kind(pages, "features"):
        for line in page.lines:
            if len(line) <= 300 and _FREE_SAID.search(line) and not TRIAL.search(normalise(line)):
                evidence = [page.text_evidence(line)]
                return candidate("free", evidence), candidate(line, evidence)
    return None, None


def _priced_prose(pages: list[SitePage]) -> list[tuple[SitePage, str]]:
    """On a site with no pricing page, table or section: the home, features and about pages' sentences that
    name a price with what it buys ("$8 per user per month", "39 € im Monat"), a quotation left out (a customer's
    "saved us $2,000 a month" is no price of the product)."""
    found: list[tuple[SitePage, str]] = []
    for page in of_kind(pages, "home", "features", "about"):
        for line in page.lines:
            if has_price(line) and not QUOTATION_MARK.search(line) and len(line) <= 400 \
                    and pricing_cues(line) & {"subscription", "one-time", "usage-based"}:
                found.append((page, line))
    return found


def _headed_pricing(page: SitePage) -> bool:
    """A page whose title or own heading names prices, whatever its address says ("/docs/licence/" titled
    "Licence & pricing"), and which names a price."""
    named = [*title_segments(page.page.title), *(l for l in page.lines[:12] if is_heading(l))]
    return any(PRICING_HEADING.match(normalise(n).strip(" :")) for n in named) and any(has_price(l) for l in page.lines)


_CELL, _ALLOWANCE = "cell", "allowance"
# "oder 99,00 € pro Jahr", "ou 290 $ CA par année", "or $240 billed yearly": a plan's other price on its own line
_ALTERNATIVE_PRICE = re.compile(r"^(?:or|oder|ou|o|of|eller|lub)\s+\S")
_NUMBER = re.compile(r"\d[\d.,'\u00a0\u202f ]*\d|\d")


def _plan_lines(page: SitePage, indexes: range | list[int]) -> list[tuple[str, str]]:
    """The lines at ``indexes`` (navigation left out) as a plan card reads them, each with its role: a short price
    cell with the plan's name before it ("Pro €12/mo", role ``cell``), a price with the plan's other price on the
    next line ("9,90 € pro Monat oder 99,00 € pro Jahr": one quote across both, the second line not read again),
    and the line under a free plan's cell that gives what it includes ("10,000 requests per month included.",
    role ``allowance``): a card's lines only make sense together."""
    wanted = set(indexes)
    read: list[tuple[str, str]] = []
    joined: set[int] = set()
    for index in indexes:
        line = page.lines[index]
        if index in joined or is_nav(line):
            continue
        text, role = _labelled(page, index)
        following = page.lines[index + 1] if index + 1 in wanted and index + 1 < len(page.lines) else ""
        if has_price(text) and len(following) <= 80 and _ALTERNATIVE_PRICE.match(following) and has_price(following):
            text = f"{text} {following}"
            joined.add(index + 1)
        elif not role and read and read[-1][1] == _CELL and pricing_cues(read[-1][0]) & {"free plan"} \
                and page.lines[index - 1] in read[-1][0] and any(c.isdigit() for c in line) \
                and not has_price(line) and len(words(line)) <= 12:
            role = _ALLOWANCE
        read.append((text, role))
    return read


def _labelled(page: SitePage, index: int) -> tuple[str, str]:
    """A short line ("€12/mo") with the label line before it ("Pro €12/mo"): one quote across both, role ``cell``.
    A price counts as one word ("29,00 $ CA par mois" is a cell); a label the line already opens with ("Gratuit" over
    "Gratuit jusqu'à 25 abonnés.") adds nothing and is left off."""
    line = page.lines[index]
    if index == 0 or len(words(_NUMBER.sub("0", line))) > 4 \
            or not (prices(line) or pricing_cues(line) & {"free plan", "contact"}):
        return line, ""
    label = page.lines[index - 1]
    if is_heading(label) and len(words(label)) <= 4 and not has_price(label) and not label.endswith(":") \
            and not normalise(line).startswith(normalise(label)) \
            and not PRICING_HEADING.match(normalise(label).strip(" :")):  # the page's "Pricing" is no plan's name
        return f"{label} {line}", _CELL
    return line, ""


def _own_prices(line: str) -> str:
    """The line without the sentences that give another company's price (`OTHER_COMPANY_PRICE`); '' when that is
    all it says."""
    if not OTHER_COMPANY_PRICE.search(normalise(line)):
        return line
    return " ".join(s for s in _SENTENCE_BREAK.split(line) if not OTHER_COMPANY_PRICE.search(normalise(s)))


# a plan's price cell read with its label: "Teacher Free", "Établissement Sur devis"
_PLAN_CELL = tuple(f" {cell}" for cell in ("Free", "Gratis", "Kostenlos", "Gratuit", "Gratuito", "Sur devis",
                                           "Auf Anfrage", "A consultar", "Custom", "Op aanvraag"))

_LICENCE = re.compile(r"\b(?:A?GPL|LGPL|MPL|EUPL)-?v?\d|\bApache(?: License)?[ -]2\.0\b|\bMIT License\b", re.IGNORECASE)

# "Free for open-source projects" is an offer of a paid product, not the product being open source
_FOR_OPEN_SOURCE = re.compile(
    r"\b(?:for|f\u00fcr|pour|para|per|voor)\s+(?:\w+\s+){0,2}(?:open[- ]?source|freie|libre|livre|vrije)", re.IGNORECASE
)
# "free and open source under the MIT License", "free software released under the MIT License"
_OPEN_SOURCE_LICENSED = re.compile(r"\b(?:open[- ]source|free software)\b.{0,60}\b(?:licen[cs]e|mit|apache|gpl|bsd|mpl)\b", re.I)
_OPEN_SOURCE = re.compile(
    rf"{_OPEN_SOURCE_LICENSED.pattern}|\bfree and open[- ]source\b"
    # "Coppice is MIT-licensed open source", "It is released under the MIT licence"
    r"|\b(?:mit|apache|gpl|agpl|bsd|mpl)[- ]licen[cs]ed\s+open[- ]source\b"
    r"|\breleased under the\s+(?:mit|apache|gnu|gpl|agpl|bsd|mpl|eupl)\b", re.I)


def open_source_statement(pages: list[SitePage]) -> Candidate | None:
    """``open source`` when a site without a pricing page says it is ("free and open source under the MIT licence"),
    on its home or about page first, then on any other page."""
    ordered = of_kind(pages, "home", "about") + [p for p in pages if p.kind not in ("home", "about")]
    for statement in (_OPEN_SOURCE_LICENSED, _OPEN_SOURCE):  # the sentence naming the licence before a badge's words
        for page in ordered:  # a docs site says it on its introduction or licence page
            for line in page.lines:
                if statement.search(line) and len(line) <= 1000:
                    return candidate("open source", [page.text_evidence(line)])
    return None
