"""Lists a site states: features and reasons to choose it (USPs), for the extractive drafter.

A list is the short lines under a heading ("Features", "Why Acme"), one
comma-separated line under it, or a grid of cards (a label line followed by a
sentence, three times or more). The list ends at the next section's heading.
"""

from __future__ import annotations

import re

from .reading import Candidate, SitePage, candidate, is_heading, is_nav, of_kind
from .text import contains_phrase, first_upper, normalise, words
from .vocab import has_price

FEATURE_HEADING = re.compile(
    r"\bfeatures?\b|\bwhat you get\b|\bcapabilities\b|\bhighlights\b|\bfunktion(?:en)?\b|\bfunci(?:\u00f3n|ones)\b"
    r"|\bcaracter\u00edsticas?\b|\bfonctionnalit\u00e9s?\b|\bfuncties\b|\bfunzionalit\u00e0\b|\bfuncionalidad(?:es)?\b|\brecursos\b"
    # "What Acme does", "Ce que fait Pupitre", "Was Acme kann", "Lo que hace Acme", "Cosa fa Acme", "O que o Acme faz"
    r"|^what (?:[\w-]+ )?does\b|^what it does\b|^ce que (?:fait|permet)\b|^was [\w-]+ (?:kann|macht|bietet)\b"
    r"|^(?:lo que|qu\u00e9) hace\b|^cosa fa\b|^o que (?:o |a )?[\w-]+ faz\b|^wat [\w-]+ doet\b"
    # "Everything your newsroom needs", "Todo lo que tu redacción necesita", "Alles, was Ihr Team braucht"
    r"|^everything (?:you|your [\w-]+) needs?\b|^todo lo que\b|^alles,? was\b|^tout ce qu"
)
USP_HEADING = re.compile(
    r"\bwhy\b|\bbenefits?\b|\badvantages?\b|\bdifferent\b|\bwarum\b|\bvorteile\b|\bpor qu\u00e9\b"
    r"|\bventajas\b|\bpourquoi\b|\bavantages\b|\bwaarom\b|\bvoordelen\b|\bperch\u00e9\b|\bvantaggi\b"
    r"|\bpor que\b|\bvantagens\b"
)
OTHER_SECTION = re.compile(
    r"\b(pricing|plans?|faq|frequently|about|team|contact|testimonials?|customers|blog|get started|ready to|"
    r"sign up|start (?:your )?free|newsletter|subscribe|what (?:people|our customers) say|footer|legal|"
    r"preise|tarife|precios|planes|tarifs|prix|fragen|preguntas|questions|\u00fcber uns|nosotros|equipo|"
    r"\u00e9quipe|kontakt|contacto|impressum|kunden|clientes|clients|prijzen|prezzi|pre\u00e7os|vragen|domande|"
    r"perguntas|contatti|contato|over ons|chi siamo|sobre n\u00f3s)\b"
)
QUOTED = ("\"", "\u201c", "\u201e", "\u00ab", "\u2018", "\u2014", "\u2013 ", "- ")  # a testimonial and its attribution
# A line that gives a way to reach the company ("Email support@quokka.io", "Contact us at hello@x.com", "Call
# +1 555 0100") is the page's contact block, never an item of the list above it: it ends the list.
CONTACT_LINE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|^(?:contact us|email us|e-mail us|write to us|call us)\b"
                          r"|^(?:call|phone|tel)\b[\s:.]*\+?\d", re.I)
SECTION_END = re.compile(OTHER_SECTION.pattern + "|" + FEATURE_HEADING.pattern + "|" + USP_HEADING.pattern)


# "feature" in front of other nouns ("Feature adoption reports", "Feature flags") names a thing, not a features section
_FEATURE_AS_MODIFIER = re.compile(
    r"^features?\s+(?!(?:and|und|et|y|for|f\u00fcr|pour|para|per|of|that|to|in|your|our|you|we|built|made|designed"
    r"|de|des|du|der|die|van|di|da|at|at a glance|overview|list|tour)\b|&)[a-z]"
)


def list_after_heading(pages: list[SitePage], heading: re.Pattern[str], kinds: tuple[str, ...]) -> Candidate | None:
    """The items under the first heading matching `heading`, on pages of `kinds` in that order."""
    ordered = [p for kind in kinds for p in of_kind(pages, kind)]
    for page in ordered:
        for index, line in enumerate(page.lines):
            key = normalise(line)
            if not (is_heading(line) and heading.search(key)) or len(words(line)) > 6 or OTHER_SECTION.search(key):
                continue
            if _FEATURE_AS_MODIFIER.search(key):
                continue  # "Feature adoption reports": a card's label naming a feature of something, not a section
            items, evidence = _pairs_below(page, index) or _items_below(page, index)
            items, evidence = _cards_only(page, items, evidence)
            if items:
                return candidate(items, evidence)
    return None


def _pairs_below(page: SitePage, index: int) -> tuple[list[str], list[dict[str, str]]] | None:
    """Cards right under the heading at ``index``: three or more label lines, each followed by its sentence
    ("Beautiful invoices" / "Pick a template, add your logo, send."); icon lines between them are skipped."""
    lines = [l for l in page.lines[index + 1:] if any(c.isalnum() for c in l)]
    labels: list[str] = []
    at = 0
    while at + 1 < len(lines) and len(labels) < 20:
        label, sentence = lines[at], lines[at + 1]
        if not (is_heading(label) and len(words(label)) <= 8 and not label.endswith("?")
                and sentence.endswith((".", "!")) and len(words(sentence)) >= 3 and not sentence.startswith(QUOTED)):
            break
        labels.append(label)
        at += 2
    return (labels, [page.text_evidence(l) for l in labels]) if len(labels) >= 3 else None


def _described(page: SitePage, item: str) -> bool:
    """The item's line is followed by a sentence describing it (a card: "Cálculo de ISR e IVA mensual" /
    "Sabrás cuánto pagar …")."""
    at = next((i for i, l in enumerate(page.lines) if l == item), None)
    following = page.lines[at + 1] if at is not None and at + 1 < len(page.lines) else ""
    return following.endswith((".", "!")) and len(words(following)) >= 3 and not following.startswith(QUOTED)


def _cards_only(page: SitePage, items: list[str], evidence: list[dict[str, str]]) -> tuple[list[str], list[dict[str, str]]]:
    """Under a heading laid out as cards (most of the first three items described by a sentence), the items
    up to the first one without its sentence: a video link or a testimonial's attribution after the cards
    is no feature."""
    if len(items) < 3 or len(evidence) != len(items) or sum(_described(page, i) for i in items[:3]) < 2:
        return items, evidence
    end = next((n for n, item in enumerate(items) if not _described(page, item)), len(items))
    return items[:end], evidence[:end]


def feature_grid(pages: list[SitePage], product_name: str = "") -> Candidate | None:
    """Features laid out as cards: three or more "Label" lines each followed by a sentence (which may open with
    the product's name written in lower case: "oilcan mock serves realistic responses …")."""
    for page in of_kind(pages, "home") + of_kind(pages, "features"):
        items, evidence = _grid(page, product_name)
        if items:
            return candidate(items, evidence)
    return None


def feature_table(pages: list[SitePage], product_name: str = "") -> Candidate | None:
    """Features set as a table whose first header cell names them ("Feature | What it does"), or (with
    ``product_name``) a comparison whose header names the product in another column ("| Desktop editor +
    spreadsheet | Reeltext"): the first cell of each row below, quoted with the row as the page's text reads it."""
    product = normalise(product_name)
    for page in of_kind(pages, "home") + of_kind(pages, "features"):
        tables = page.page.structured.get("tables")
        for rows in tables if isinstance(tables, list) else []:
            if not (isinstance(rows, list) and len(rows) >= 3 and all(isinstance(r, list) and r for r in rows)):
                continue
            header = rows[0]
            named = FEATURE_HEADING.search(normalise(str(header[0]))) if not product else None
            compares = bool(product) and any(contains_phrase(normalise(str(cell)), product) for cell in header[1:])
            if len(header) < 2 or not (named or compares):
                continue
            body = [(str(row[0]), " ".join(str(c) for c in row)) for row in rows[1:] if len(row) >= 2]
            items = [(label, line) for label, line in body if 1 <= len(words(label)) <= 8 and line in page.lines]
            if len(items) >= 2:
                return candidate([label for label, _ in items][:20], [page.text_evidence(line) for _, line in items][:20])
    return None


MIN_TABLE_CARDS = 3


def described_table(pages: list[SitePage]) -> Candidate | None:
    """Features set as a two-column table without a header, each row a short label and the sentence that
    describes it ("Veebibroneering kalendriga | Vabad ajad on su kodulehel …"): the labels, quoted with their
    rows as the page's text reads them. A row naming a price is a price table's, not a feature's."""
    for page in of_kind(pages, "home") + of_kind(pages, "features"):
        tables = page.page.structured.get("tables")
        for rows in tables if isinstance(tables, list) else []:
            if not isinstance(rows, list) or len(rows) < MIN_TABLE_CARDS \
                    or not all(isinstance(r, list) and len(r) == 2 for r in rows):
                continue
            cards = [(str(label), f"{label} {text}") for label, text in rows
                     if 1 <= len(words(str(label))) <= 6 and not str(label).endswith((".", ":", "?"))
                     and str(text).endswith((".", "!")) and len(words(str(text))) >= 4
                     and not has_price(f"{label} {text}")]
            if len(cards) == len(rows) and all(line in page.lines for _, line in cards):
                return candidate([label for label, _ in cards][:20], [page.text_evidence(line) for _, line in cards][:20])
    return None


def _grid(page: SitePage, product_name: str = "") -> tuple[list[str], list[dict[str, str]]]:
    """The longest run of cards of one kind, when it has at least three: a label line followed by a
    sentence, or one "Label — sentence." / "Label: sentence." line; icon lines (no letters) between
    cards are skipped. A heading followed by a sentence opening with it ("Acme" / "Acme links your
    notes.") is the product's own heading, and a lower-case line continues a sentence: neither is a card."""
    best: list[tuple[str, str]] = []
    run: list[tuple[str, str]] = []
    kind = ""
    index = 0
    lines = tuple(without_icon(line) for line in page.lines)  # "🧩 Dieci tipi di domanda": the card's label
    headline = page.page.structured.get("headline")
    while index < len(lines):
        label = lines[index]
        if isinstance(headline, str) and headline and page.lines[index] == headline:
            # the page's headline over its lead sentence opens the page (the tagline), it is no card of the grid
            best, run, kind = (run if len(run) > len(best) else best), [], ""
            index += 1
            continue
        if run and (not any(c.isalnum() for c in label) or _NUMBERING.fullmatch(label)):
            index += 1  # an emoji, icon glyph or number ("02") above the next card
            continue
        inline = _card_line(label)
        following = lines[index + 1] if index + 1 < len(lines) else ""
        is_pair = inline is None and (
            is_heading(label) and len(words(label)) <= 8 and not label.endswith("?")
            and following.endswith((".", "!")) and len(words(following)) >= 3 and not is_nav(following)
            and not following.startswith(QUOTED)
            and (following[:1].isupper() or bool(product_name) and following.startswith(product_name.lower() + " "))
            and not normalise(following).startswith(normalise(label)) and not _starts_cards(lines, index + 1)
        )
        found = "line" if inline else "pair" if is_pair else ""
        if run and found != kind:
            best, run = (run if len(run) > len(best) else best), []
        kind = found
        if inline:
            run.append((inline, label))
            index += 1
        elif is_pair:
            run.append((label, label))
            index += 2
        else:
            index += 1
    if len(run) > len(best):
        best = run
    if len(best) < 3:
        return [], []
    return [item for item, _ in best[:20]], [page.text_evidence(line) for _, line in best[:20]]


def _starts_cards(lines: tuple[str, ...], index: int) -> bool:
    """Lines ``index`` and ``index + 1`` are both one-line cards: a run starts there (a sentence with a dash
    under a heading is that heading's text, not a card)."""
    return index + 1 < len(lines) and _card_line(lines[index]) is not None and _card_line(lines[index + 1]) is not None


def _card_line(line: str) -> str | None:
    """The label of a one-line card, "Readable reports: percentiles on one page." -> "Readable reports"."""
    match = _LABEL_DASH.match(line) or _LABEL_COLON.match(line)
    if match is None or len(words(match.group("label"))) > 6 or line.startswith(QUOTED):
        return None
    return match.group("label").strip()


def _items_below(page: SitePage, index: int) -> tuple[list[str], list[dict[str, str]]]:
    """List items after the heading at ``index``: short label lines, items led by a bold phrase (the crawler's
    ``leads``), or comma-separated lines. A comma line is a list of items only where the list is made of such
    lines; among items given one per line it is one item itself ("Works with ECR, GCR and GHCR")."""
    items: list[str] = []
    evidence: list[dict[str, str]] = []
    comma_lines: list[tuple[int, str, list[str]]] = []  # (position in items, line, its parts)
    leads = [lead for lead in page.page.structured.get("leads") or [] if isinstance(lead, str)]
    by_leads = False
    for line in page.lines[index + 1:]:
        if not any(c.isalnum() for c in line):
            continue  # an icon line above an item ("🐝")
        key = normalise(line)
        # a section heading ends the list; a longer item merely naming customers or pricing does not
        ends = is_heading(line) and SECTION_END.search(key) and len(words(line)) <= 5
        if len(items) >= 20 or is_nav(line) or ends or line.startswith(QUOTED) or CONTACT_LINE.search(line):
            break
        tabs = _tabs_on_one_line(page, line)
        if tabs:  # a tab list's buttons read as one line: "Reset planner Community grading QR check-in"
            items.extend(tabs)
            evidence.append(page.text_evidence(line))
            continue
        lead = lead_of(line, leads)
        if lead:  # "Headless-Browser-Crawler, der auch …": the bold phrase the item opens with names it
            items.append(lead)
            evidence.append(page.text_evidence(line))
            by_leads = True
            continue
        if by_leads and is_heading(line):
            break  # the list of bold-led items is over: a heading of the next section
        labelled = _LABEL_DASH.match(line)  # before a comma list: "LaTeX math — inline and display, as you type."
        if labelled and len(words(labelled.group("label"))) <= 6:
            items.append(labelled.group("label"))  # "Link checker \u2013 broken links fail the build."
            evidence.append(page.text_evidence(line))
            continue
        parts = _comma_list(line)
        if parts:
            comma_lines.append((len(items), line, [first_upper(p) for p in parts]))
            evidence.append(page.text_evidence(line))
            continue
        if line.endswith((".", "!", "?", ":")) or len(words(line)) > 12 or len(line) > 120:
            if items and len(line) > 300:
                break
            continue  # an intro or a feature's own description
        items.append(line)
        evidence.append(page.text_evidence(line))
    items = _with_comma_lines(items, comma_lines)
    seen: set[str] = set()
    unique = [i for i in items if not (normalise(i) in seen or seen.add(normalise(i)))]  # type: ignore[func-returns-value]
    return unique[:20], evidence


def _with_comma_lines(items: list[str], comma_lines: list[tuple[int, str, list[str]]]) -> list[str]:
    """``items`` with the comma lines put back where they stood: split into their parts when the list has no
    other items ("Digest mode, VIP senders, focus hours."), else each as the one item it is when it reads as one
    (short, no closing punctuation: "Works with ECR, GCR and GHCR"); a sentence among label lines is a card's
    description ("Smartboard, printer and platform logins shared per class."), no item."""
    if not comma_lines:
        return items
    alone = not items
    merged = list(items)
    for position, line, parts in reversed(comma_lines):
        if alone:
            merged[position:position] = parts
        elif not line.endswith((".", "!", "?", ":")) and len(words(line)) <= 12 and len(line) <= 120:
            merged.insert(position, line)
    return merged


MIN_LEAD_RUN = 3


def lead_of(line: str, leads: list[str]) -> str | None:
    """The bold phrase ``line`` opens with (after an icon), when more follows it."""
    bare = without_icon(line)
    return next((lead for lead in leads if bare.startswith(lead) and len(bare) > len(lead) + 2), None)


def lead_run(pages: list[SitePage]) -> Candidate | None:
    """Features as a run of paragraphs each opening with a bold phrase ("🔁 **Live reload.** Save the file …"), three
    or more in a row, under whatever heading ("How it works"): the bold phrases."""
    for page in of_kind(pages, "home") + of_kind(pages, "features"):
        leads = [lead for lead in page.page.structured.get("leads") or [] if isinstance(lead, str)]
        run: list[tuple[str, str]] = []
        for line in page.lines + ("",):
            lead = lead_of(line, leads) if line else None
            if lead:
                run.append((lead, line))
                continue
            if len(run) >= MIN_LEAD_RUN:
                return candidate([l for l, _ in run][:20], [page.text_evidence(x) for _, x in run][:20])
            run = []
    return None


MIN_TABS = 3


def tab_list(pages: list[SitePage]) -> Candidate | None:
    """Features as a product tour's tabs: three or more short labels of one tab list (the crawler's ``tabs``),
    each shown as a line of the page."""
    for page in of_kind(pages, "home") + of_kind(pages, "features"):
        for labels in page.page.structured.get("tabs") or []:
            if not isinstance(labels, list):
                continue
            shown = [l for l in labels if isinstance(l, str) and 1 <= len(words(l)) <= 8 and l in page.lines]
            if len(shown) >= MIN_TABS and len(shown) == len(labels):
                return candidate(shown[:20], [page.text_evidence(l) for l in shown[:20]])
            joined = " ".join(str(l) for l in labels)
            if len(labels) >= MIN_TABS and joined in page.lines:
                return candidate([str(l) for l in labels][:20], [page.text_evidence(joined)])
    return None


def _tabs_on_one_line(page: SitePage, line: str) -> list[str]:
    """The labels of a tab list (three or more) whose buttons the page's text reads as this one line."""
    for labels in page.page.structured.get("tabs") or []:
        if isinstance(labels, list) and len(labels) >= MIN_TABS and " ".join(str(l) for l in labels) == line:
            return [str(l) for l in labels]
    return []


_ICON = re.compile(r"^[^\w\"'\u201c\u201e\u00ab\u2018(\u00bf\u00a1$\u20ac\u00a3]+\s+(?=\w)")


def without_icon(line: str) -> str:
    """The line without the emoji, icon glyph or bullet it starts with ("📅 Booking page" -> "Booking page");
    what remains is still a quote of the page."""
    return _ICON.sub("", line, count=1)


_NUMBERING = re.compile(r"(?:0?\d{1,2}|[IVX]{1,4})[.)]?")
_LABEL_DASH = re.compile(r"^(?P<label>[A-Z\u00c0-\u00de][^.!?:\u2013\u2014]{1,60}?)\s+[\u2013\u2014-]\s+\S.*[.!]$")
_LABEL_COLON = re.compile(r"^(?P<label>[A-Z\u00c0-\u00de][^.!?:\u2013\u2014]{1,60}?):\s+\S.*[.!]$")
_INLINE_LIST = re.compile(r"^(?P<head>[^:]{2,40}):\s+(?P<body>[^:]+?)\.?$")


def inline_list(pages: list[SitePage], heading: re.Pattern[str], kinds: tuple[str, ...]) -> Candidate | None:
    """A list in one sentence after a lead-in: "Why Mossgrid: data hosted in the EU, a tiny script, and you own your data."."""
    for page in [p for kind in kinds for p in of_kind(pages, kind)]:
        for line in page.lines:
            match = _INLINE_LIST.match(line)
            if not match or not heading.search(normalise(match.group("head"))) or len(line) > 300:
                continue
            parts = [p.strip() for p in re.split(r",\s*(?:and\s+|or\s+)?|;\s*", match.group("body")) if p.strip()]
            if len(parts) >= 2 and all(len(words(p)) <= 10 for p in parts):
                return candidate([first_upper(p) for p in parts][:20], [page.text_evidence(line)])
    return None


def _comma_list(line: str) -> list[str]:
    """["Digest mode", "VIP senders", "focus hours"] from "Digest mode, VIP senders, focus hours."."""
    body = line.rstrip(".")
    if body.count(",") < 1 or len(line) > 300:
        return []
    parts = [p.strip() for p in re.split(r",\s*(?:and\s+|or\s+)?|\s+and\s+", body) if p.strip()]
    if len(parts) < 3 or any(len(words(p)) > 5 or p.endswith(("!", "?")) for p in parts):
        return []
    return parts
