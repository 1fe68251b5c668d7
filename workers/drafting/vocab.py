"""Controlled values for ``pricing_model`` and ``stage``, and the phrases that support them.

A site rarely writes "pricing model: subscription"; it writes "$12 per month".
So a drafted ``pricing_model`` or ``stage`` is one value of a small vocabulary
and is supported when its quotes contain the value itself or one of its cue
phrases below (all matched on word boundaries after normalisation).  "free"
never counts inside "free trial": a trial says nothing about a free plan.
``contact`` is a pricing page that names no price and asks visitors to get in
touch ("Contact sales", "Preis auf Anfrage", "Sur devis").
``free trial`` is the model of a site that sells only paid plans and lets
people try them first ("14-day free trial", "7 Tage kostenlos testen"): what
a visitor choosing a tool wants to know, and what "paid" alone would hide.
"""

from __future__ import annotations

from functools import lru_cache
import re
from collections.abc import Iterable

import httpx

from events.draft_fields import PRICING_MODELS, STAGES

from .pricing_words import (
    FIRST_AFTER_WORDS,
    FIRST_WORDS,
    FREE_WORDS,
    PERIOD_WORDS,
    PLAN_WORDS,
    SPAN_WORDS,
    TRIAL_WORDS,
    UP_TO_WORDS,
    alternation,
)
from .socials import host_matches, normalised_host
from .text import contains_phrase, normalise


PRICING_ALIASES: dict[str, str] = {
    "one time": "one-time", "onetime": "one-time", "lifetime": "one-time", "one-off": "one-time",
    "open-source": "open source", "opensource": "open source", "usage based": "usage-based",
    "pay as you go": "usage-based", "pay-as-you-go": "usage-based", "subscriptions": "subscription",
    "free plan": "freemium", "commercial": "paid", "free_trial": "free trial", "free-trial": "free trial",
    "trial": "free trial", "paid with free trial": "free trial", "contact us": "contact", "on request": "contact",
    "contact for pricing": "contact", "custom": "contact",
}
STAGE_ALIASES: dict[str, str] = {
    "prelaunch": "pre-launch", "pre launch": "pre-launch", "coming soon": "pre-launch", "waitlist": "pre-launch",
    "public beta": "beta", "private beta": "beta", "early access": "beta", "live": "launched",
    "generally available": "launched", "ga": "launched",
}

# Price: a currency sign next to a number, or a number next to a currency code or word.
PRICE = re.compile(
    r"(?:[$\u20ac\u00a3\u00a5\u20b9]\s?\d[\d,.]*(?:\s?[kK])?)"
    # currency codes and signs written before the amount: "CHF 12", "R49" (rand, two digits or more), "kr 99"
    r"|(?:\b(?:chf|usd|eur|gbp|sek|nok|dkk|zar|kr|z\u0142)\s?\d[\d,.]*)|(?:\bR\s?\d{2,}[\d,.]*)"
    # the Peruvian sol "S/ 149" and "S/. 149", the Bolivian boliviano "Bs 120", the Paraguayan guaraní "Gs. 90.000"
    r"|(?:\bS/\.?\s?\d[\d,.]*)|(?:\b(?:Bs|Gs)\.?\s?\d[\d,.]*)"
    # the Indonesian rupiah "Rp149.000", the Ukrainian hryvnia "₴390", "390 грн"
    r"|(?:\bRp\s?\d[\d,.]*)|(?:\u20b4\s?\d[\d,.\s]*)|(?:\b\d[\d,.]*\s?\u0433\u0440\u043d)"
    r"|(?:\b\d[\d,.]*\s?(?:usd|eur|gbp|chf|cad|aud|sek|nok|dkk|zar|kr|z\u0142|k\u010d|czk|ft|huf|lei|ron|tl|try|\u20ba|dollars?|euros?|\u20ac|\$|\u00a3)(?![a-z]))",
    re.IGNORECASE,
)
_FREE = alternation(FREE_WORDS)
_SPAN = alternation(SPAN_WORDS)
_FIRST = alternation(FIRST_WORDS)
_TRIAL_WORD = alternation(TRIAL_WORDS)
_FIRST_AFTER = alternation(FIRST_AFTER_WORDS)
_FREE_TRIAL = re.compile(
    r"\bfree\s+(?:\d+[- ]day\s+)?(?:trials?|pilots?)\b|\b\d+[- ]day\s+free\s+(?:trials?|pilots?)\b|\bfree\s+shipping\b"
    # German, Spanish, French trials: "14 Tage kostenlos testen", "prueba gratuita", "essai gratuit"
    r"|\b(?:kostenlos|gratis|unverbindlich)\s+(?:\w+\s+)?testen\b|\bkostenlose[nr]?\s+test\w*"
    r"|\bprueba\s+(?:gratuita|gratis)\b|\bessai\s+gratuit\b|\bgratuit\s+pendant\b"
    # Dutch, Italian, Portuguese: "gratis proberen", "prova gratuita", "teste grátis"
    r"|\bgratis\s+(?:\w+\s+)?(?:proberen|uitproberen)\b|\bproefperiode\b|\bprova\s+gratuita\b"
    r"|\bperiodo\s+di\s+prova\b|\bteste\s+gr\u00e1tis\b|\bper\u00edodo\s+de\s+teste\b"
    # Croatian and Greek: "probno razdoblje", "besplatno 30 dana", "δωρεάν για 30 ημέρες"
    r"|\bde balde durante\s+\d+\s+d\u00edas\b|"  # Galician "Proba Hórreo de balde durante 30 días"
    r"\bprobno\s+razdoblje\b|\bbesplatno\s+\d+\s+dana\b|\b\u03b4\u03c9\u03c1\u03b5\u03ac\u03bd\s+\u03b3\u03b9\u03b1\s+\d+\s+\u03b7\u03bc\u03ad\u03c1\u03b5[\u03c2\u03c3]"
    # in every language of `pricing_words`: "the first 30 days are free" ("Prvih 30 dana je besplatno"), "30 Tage
    # kostenlos", "free for 14 days", and a trial's own word ("kokeilu", "пробен период")
    rf"|\b(?:{_FIRST})\s+\d+\s+(?:{_SPAN})\b[^.;]{{0,40}}?(?<!\w)(?:{_FREE})(?!\w)"
    rf"|\b\d+\s+(?:{_FIRST_AFTER})\s+(?:{_SPAN})\b[^.;]{{0,40}}?(?<!\w)(?:{_FREE})(?!\w)"
    rf"|\b\d+\s+(?:{_SPAN})\s+(?:{_FREE})(?!\w)"
    rf"|(?<!\w)(?:{_FREE})\s+(?:(?:for|f\u00fcr|pour|para|per|durante|pendant|za|na|u|\u03b3\u03b9\u03b1|\u043d\u0430)\s+)?\d+\s+(?:{_SPAN})\b"
    rf"|(?<!\w)(?:{_TRIAL_WORD})(?!\w)"
)
TRIAL = re.compile(r"\btrial\b|" + _FREE_TRIAL.pattern)  # a trial offer, in any of the languages above
_SUBSCRIPTION_CUES = (
    "subscription", "per month", "/month", "/ month", "/mo", "per mo", "a month", "monthly", "per year", "/year",
    "/ year", "/yr", "annually", "yearly", "billed",
    "pro monat", "und monat", "im monat", "monatlich", "/monat", "pro jahr", "j\u00e4hrlich", "abonnement",
    "al mes", "/mes", "por mes", "y mes", "mensual", "al a\u00f1o", "anual", "suscripci\u00f3n",
    "par mois", "/mois", "mensuel", "par an", "annuel",
    # Czech and Finnish: "490 Kč měsíčně", "29 €/kk"
    "m\u011bs\u00ed\u010dn\u011b", "za m\u011bs\u00edc", "/m\u011bs\u00edc", "ro\u010dn\u011b", "/kk", "kuukaudessa", "kuukausi",
    # Hungarian: "9 900 Ft / hó", "havonta"
    "/ h\u00f3", "/h\u00f3", "havonta", "havid\u00edj",
    # Turkish: "749 TL / ay", "aylık ödeme"
    "/ ay", "/ay", "ayl\u0131k",
    # Slovak, Estonian, Spanish plural: "35 € mesačne", "19 € kuus", "$9.990 mensuales"
    "mesa\u010dne", "kuus", "kuutasu", "mensuales",
    # Lithuanian and Slovenian: "15 € / mėn.", "kas mėnesį", "9 € na mesec", "mesečno naročnino"
    "/ m\u0117n", "/m\u0117n", "kas m\u0117nes\u012f", "na mesec", "me\u0161e\u010dno", "mese\u010dno", "naro\u010dnin",
    "per maand", "/maand", "per jaar", "maandelijks", "jaarlijks", "abonnement",
    "al mese", "/mese", "all'anno", "mensile", "annuale", "abbonamento",
    "por m\u00eas", "/m\u00eas", "por ano", "mensal", "assinatura",
    # Swedish, Danish, Norwegian, Polish
    "/m\u00e5n", "per m\u00e5nad", "i m\u00e5naden", "/\u00e5r", "per \u00e5r", "om m\u00e5neden", "pr. m\u00e5ned",
    "per m\u00e5ned", "/mies", "miesi\u0119cznie", "abonnemang", "prenumeration", "abonament",
    # "9 kr per lägenhet och månad", "pr. bruger og måned", "per gebruiker en maand"
    "och m\u00e5nad", "och \u00e5r", "og m\u00e5ned", "og \u00e5r", "en maand",
    # Croatian "5 € mjesečno", Greek "19 € τον μήνα"
    "mjese\u010dno", "godi\u0161nje", "rocznie", "/rok", "/ rok",
    # Latvian "1,50 € par lietotāju mēnesī", Galician "49 € ao mes"
    "m\u0113nes\u012b", "ao mes", "ao ano", "pretplata", "pretplatu", "\u03c4\u03bf\u03bd \u03bc\u03ae\u03bd\u03b1", "/\u03bc\u03ae\u03bd\u03b1",
    "\u03bc\u03b7\u03bd\u03b9\u03b1\u03af\u03c9\u03c2", "\u03c4\u03bf \u03c7\u03c1\u03cc\u03bd\u03bf", "\u03b5\u03c4\u03b7\u03c3\u03af\u03c9\u03c2", "\u03c3\u03c5\u03bd\u03b4\u03c1\u03bf\u03bc\u03ae",
    # Catalan: "1 € per casteller a l'any", "9 € al mes", "subscripció"
    "a l'any", "l'any", "cada any", "per any", "subscripci\u00f3",
) + PERIOD_WORDS
_ONE_TIME_CUES = (
    "one-time", "one time", "lifetime", "pay once", "paid once", "single payment", "one-off", "once-off", ", once",
    "perpetual licence", "perpetual license",
    # "einmalig 49 €", "pago único", "paiement unique", "licence perpétuelle", "una tantum", "eenmalig", "engångsköp"
    "einmalig", "einmalzahlung", "dauerlizenz", "kauflizenz", "pago \u00fanico", "licencia perpetua", "paiement unique",
    "une seule fois", "licence perp\u00e9tuelle", "una tantum", "licenza perpetua", "pagamento \u00fanico", "eenmalig",
    "eenmalige", "engångsköp", "engångsbetalning", "engangsbetaling", "kertamaksu", "jednorázov\u011b", "jednorazowo",
    "jednorazowa", "egyszeri", "tek seferlik", "vienkartinis", "\u00fchekordne", "vienreiz\u0113js", "enkratno",
    "jednokratno", "\u03b5\u03c6\u03ac\u03c0\u03b1\u03be",
)
_USAGE_CUES = (
    "usage-based", "pay as you go", "pay-as-you-go", "per request", "per api call", "metered", "in arrears",
    "per million tokens", "per 1,000 requests", "per gpu-second", "per gpu second",
    # a commission on each sale or order: "una comisión del 2 % por pedido", "3 % Provision pro Bestellung"
    "commission", "comisi\u00f3n", "commissione", "comiss\u00e3o", "provision pro", "per transaction", "per order",
    "por pedido", "par commande", "pro bestellung", "por transacci\u00f3n",
)
_OPEN_SOURCE_CUES = (
    "open source", "open-source", "opensource",
    # "free software" in the languages where it is the usual word ("freie Software unter der AGPL")
    "freie software", "quelloffen", "logiciel libre", "software libre", "c\u00f3digo abierto", "vrije software",
    "software libero", "software livre", "c\u00f3digo aberto",
    # a free edition named by its licence: "Gratuit (AGPL-3.0)"
    "agpl-3.0", "agplv3", "gpl-3.0", "gplv3", "apache-2.0", "apache license 2.0", "mpl-2.0", "mit license",
    "mit licence", "mit-licensed", "mit-licenced", "released under the mit", "released under the apache",
    "released under the gnu",
)
_FREE_PLAN_CUES = (
    "free plan", "free tier", "free forever", "free version", "free edition", "free account",
    "gratis per sempre", "gratis, per sempre", "gratuito per sempre", "sempre gratis", "gr\u00e1tis para sempre",
    "gratuit pour toujours", "voor altijd gratis", "gratis f\u00f6r alltid", "alltid gratis", "darmowy plan",
    "kostenloser tarif", "kostenlose version", "f\u00fcr immer kostenlos", "dauerhaft kostenlos", "gratis hasta",
    "plan gratuito", "plan gratis", "siempre gratis", "gratis para siempre", "offre gratuite", "formule gratuite",
    "gratuit pour toujours", "version gratuite", "gratis abonnement", "gratis versie", "gratis plan",
    "piano gratuito", "versione gratuita", "plano gratuito", "plano gr\u00e1tis", "vers\u00e3o gratuita",
    # the product itself is free, and paying is for an extra ("The app is free. You only pay for sync.")
    "app is free", "is free to use", "free to use", "stays free", "always free", "free for individuals",
    # a free licence for some uses, paid for others ("free for personal use, £39 per year for work")
    "free for personal use", "free for non-commercial use", "free for private use", "kostenlos f\u00fcr private",
    "gratuit pour un usage personnel", "gratis para uso personal", "gratuito per uso personale",
    # free below a threshold, paid above it ("free until your organization raises $10,000 a year")
    "free until you", "free until your", "es gratis, siempre", "free, always", "gratuit, toujours",
    "on leil tasuta", "on tasuta", "je kozolec brezpla\u010den", "brezpla\u010den", "brezpla\u010dno",
    "app ist kostenlos", "bleibt kostenlos", "la app es gratis", "la app es gratuita", "l'app est gratuite",
    "reste gratuit", "blijft gratis",
    # Latvian "Mazām skolām Dzirnavas ir bezmaksas līdz 20 lietotājiem"
    "ir bezmaksas", "bezmaksas l\u012bdz",
    # Croatian "Maslina je besplatna za jednu smještajnu jedinicu"
    "je besplatna", "je besplatno", "je besplatan",
    # a free allowance, then paying: "Free for up to 5 users", "Kostenlos bis 50 Rechnungen"
    "free for up to", "free up to", "free for the first", "kostenlos bis", "kostenlos f\u00fcr bis zu", "gratis hasta",
    "gratuit jusqu'\u00e0", "gratis tot", "gratis voor maximaal", "gratuito fino a", "gr\u00e1tis at\u00e9",
    # free forever: "δωρεάν για πάντα", "zdarma navždy", "ikuisesti ilmainen", "örökre ingyenes"
    "\u03b4\u03c9\u03c1\u03b5\u03ac\u03bd \u03b3\u03b9\u03b1 \u03c0\u03ac\u03bd\u03c4\u03b1", "zdarma nav\u017edy",
    "nav\u017edy zdarma", "nav\u017edy zadarmo", "ikuisesti ilmainen", "\u00f6r\u00f6kre ingyenes", "sonsuza kadar \u00fccretsiz",
    "visam laikui nemokamai", "igavesti tasuta", "pentru totdeauna gratuit", "gratuit pentru totdeauna", "za vedno brezpla\u010dno",
    "zauvijek besplatno", "zawsze za darmo", "na zawsze za darmo",
)
# No price on the page, only an invitation to ask: "Contact sales", "Preis auf Anfrage", "Sur devis"
_CONTACT_CUES = (
    "contact us", "contact sales", "talk to sales", "talk to us", "request a quote", "get a quote", "request pricing",
    "custom pricing", "custom quote", "let's talk", "auf anfrage", "angebot anfordern", "vertrieb kontaktieren",
    "sprechen sie uns an", "sur devis", "nous contacter", "contactez-nous", "a consultar", "cont\u00e1ctanos",
    "contactar con ventas", "solicita una cotizaci\u00f3n", "presupuesto a medida", "op aanvraag", "neem contact op",
    "su richiesta", "contattaci", "preventivo", "richiedi un preventivo", "scriveteci", "sob consulta", "fale conosco",
    "devis sur mesure", "demander un devis", "solicita un presupuesto", "solicitar presupuesto", "pide presupuesto",
    "p\u00eddenos presupuesto", "presupuesto sin compromiso", "cotizamos", "te cotizamos", "teklif al\u0131n", "receives a quote", "individuelles angebot", "cotizaci\u00f3n a medida",
    "send you a quote", "price on request", "kontakta oss", "kontakt os", "kontakt oss", "skontaktuj si\u0119", "pricing on request", "don't publish a price", "do not publish a price",
)
_FREE_CUES = ("free", "freeware", "no cost", "kostenlos", "gratis", "gratuit", "gratuito", "gratuita", "gr\u00e1tis",
              "besplatno", "besplatna", "besplatan", "\u03b4\u03c9\u03c1\u03b5\u03ac\u03bd", "bezp\u0142atnie", "bezp\u0142atny",
              "za darmo", "darmowy", "bezmaksas", "de balde") + FREE_WORDS
_STAGE_CUES: dict[str, tuple[str, ...]] = {
    "pre-launch": ("pre-launch", "prelaunch", "coming soon", "join the waitlist", "waitlist", "launching soon"),
    "alpha": ("alpha",),
    "beta": ("beta", "early access"),
    "launched": ("launched", "now available", "generally available", "general availability", "out now"),
}

VIDEO_HOSTS: tuple[str, ...] = ("youtube.com", "youtu.be", "youtube-nocookie.com", "vimeo.com", "loom.com", "wistia.com", "wistia.net")
VIDEO_SUFFIXES: tuple[str, ...] = (".mp4", ".webm", ".mov", ".m4v")


def canonical_pricing_model(value: str) -> str | None:
    """The vocabulary value for ``value`` ("Open-Source" -> "open source"), else None."""
    key = normalise(value).strip(" .")
    if key in PRICING_MODELS:
        return key
    return PRICING_ALIASES.get(key)


def canonical_stage(value: str) -> str | None:
    """The vocabulary value for ``value`` ("Public beta" -> "beta"), else None."""
    key = normalise(value).strip(" .")
    if key in STAGES:
        return key
    return STAGE_ALIASES.get(key)


_SLASH = re.compile(r"\s*/\s*")  # "29 € / mois" is "29 €/mois"


@lru_cache(maxsize=None)
def _cue_form(cue: str) -> str:
    """A cue's comparison form, made once per cue: every line of a page is tried against hundreds of cues."""
    return _SLASH.sub("/", normalise(cue))


def _any_cue(quote: str, cues: Iterable[str]) -> bool:
    quote = _SLASH.sub("/", quote)
    return any(contains_phrase(quote, _cue_form(cue)) for cue in cues)


# "Nurses and reception staff are always free", "Viewers are free": people who cost nothing on a paid plan (a
# plural subject) are free seats, not a free plan; "The app is always free" (singular) is the product
_FREE_SEATS = re.compile(
    r"\b(?:staff|users|members|seats|viewers|guests|readers|nurses|receptionists|teammates|collaborators|admins"
    r"|reviewers|clients|commenters|students"
    r"|nutzer|mitglieder|g\u00e4ste|usuarios|invitados|utilisateurs|invit\u00e9s)\b(?:\s+[\w-]+){0,2}?"
    r"\s+(?:are|sind|son|sont)\s+(?:(?:always|immer|siempre|toujours)\s+)?(?:free|kostenlos|gratis|gratuits?)\b"
)


# another company's price beside ours: a partner's offer, a platform's own subscription, billed by them ("LinkRadar
# plans from US$29 a month, billed by LinkRadar", "Unser Partner ThermoRack liefert … ab 2.490 €", "l'abonnement
# Shopify … est facturé séparément par Shopify", "Our friends at Tunewright … bill you directly")
OTHER_COMPANY_PRICE = re.compile(
    r"\b(?:billed|invoiced|charged|sold)\s+(?:separately\s+|directly\s+)?by\b|\bbills?\s+you\s+directly\b"
    r"|\b(?:our|unser\w*|notre|nos|nuestr[oa]s?|nostr[oi]|noss[oa]s?|onze|v\u00e5r[at]?|vores)\s+(?:\w+\s+)?"
    r"(?:partners?|partenaires?|socios?|partnern?|partnerf\u00f6retag|friends at)\b"
    r"|\bfactur\w*\s+(?:s\u00e9par\u00e9ment|directement)\b|\bfactur\w*\s+(?:por|par)\s+(?:separado|ellos|eux)\b"
    r"|\bdirekt\s+(?:bei|mit|\u00fcber)\b|\bdirectement\s+(?:aupr\u00e8s|chez)\b|\bdirectamente\s+(?:con|a)\b"
    r"|\bdirectly\s+(?:with|from|to)\b|\bdoes\s+not\s+include\s+your\b|\bseparat\s+abgerechnet\b"
    # "Pairs nicely with Glyphbox Pro (A$14/month)", "Tillpoint POS, which costs $39 a month from Tillpoint."
    r"|\bpairs?\s+(?:nicely|well)\s+with\b|\bcosts?\b[^.;]{0,60}\bfrom\s+(?!the\b|just\b|only\b)[a-z][\w-]+\s*[.)]?$"
)


# a fee for the period the quote says there is not: the price is per use ("Pagas solo por lo que timbras … No hay
# cuota mensual", "CHF 1.50 pro Übernachtung. Es gibt keine Grundgebühr")
NO_PERIOD_FEE = re.compile(
    r"\b(?:no hay|sin|no|without|without any|zero|keine|ohne|pas de|sans|aucun|aucuns|nessun|nessuna|senza|sem|geen"
    r"|ingen|bez|nincs)\s+(?:(?:a|any|de|di|la|le)\s+)?"
    r"(?:monthly|annual|base|fixed|recurring|subscription|platform|monatliche[n]?|j\u00e4hrliche[n]?|feste[n]?|fixe[n]?)?\s*"
    r"(?:fees?|charges?|minimums?|commitments?|mindestumsatz|cuotas?(?: mensual(?:es)?| fijas?)?|mensualidad(?:es)?|grundgeb\u00fchr(?:en)?|monatsgeb\u00fchr(?:en)?"
    r"|geb\u00fchr(?:en)?|kosten|frais(?: mensuels| fixes| r\u00e9currents)?|abonnement mensuel|canone(?: mensile)?"
    r"|mensalidades?|maandbedrag|abonnementskosten|m\u00e5nadsavgift|grundavgift|m\u00e5nedsgebyr|m\u00e5nedlig gebyr)\b"
    # a fee for the period stated as nothing: "Cuota mensual 0 €", "Monthly fee: $0", "Grundgebühr 0 €"
    r"|\b(?:cuota mensual|cuota fija|monthly fee|base fee|platform fee|grundgeb\u00fchr|frais mensuels|mensalidade)\s*:?\s*"
    r"[$\u20ac\u00a3]?\s?0(?:[.,]00)?(?![\d.,])\s*(?:\u20ac|eur|usd|\$)?"
)


# a model the quote says the product does not have: "There is no free plan", "Pas d'abonnement", "Kein Abo"
_DENIED_MODEL = re.compile(
    r"(?:\b(?:there is no|there's no|no|without (?:a|any)|kein(?:e|en)?|ohne|sans|sin|sem|geen|nessun[oa]?"
    # "No tenemos plan gratuito", "We don't offer a free plan", "Nous n'avons pas d'offre gratuite"
    r"|no (?:tenemos|ofrecemos|hay|existe)|we (?:don't|do not) (?:have|offer) (?:a|any)|we have no|there isn't (?:a|any)"
    r"|wir (?:haben|bieten) keine?n?|n\u00e3o (?:temos|oferecemos)|non (?:abbiamo|offriamo))\s+"
    r"|\bpas d['\u2019]\s*)"
    r"(?:free (?:plan|tier|version)|subscriptions?|abo(?:nnement)?s?|abonnement|suscripci\u00f3n|assinatura|abonnement"
    r"|kostenlose[nrs]? (?:tarif|version|plan)|plan gratuit|plan gratuito|abbonamento)\b"
    r"|\bnu exist\u0103 abonament\b|\bkeine grundgeb\u00fchr\b"
    # no fee for the period: "No hay cuota mensual", "no monthly fee", "keine monatlichen Kosten", "sans frais mensuels"
    + "|" + NO_PERIOD_FEE.pattern
)
# "Self-hosting stays free": the software is free to run yourself, a hosted edition is what is sold
SELF_HOSTED_FREE = re.compile(r"\bself-?host(?:ing|ed)?\s+(?:\w+\s+){0,2}?(?:stays|is|remains)\s+free\b|\bfree to self-?host\b")


def _without_trials(quote: str) -> str:
    text = _DENIED_MODEL.sub(" ", normalise(quote))
    return SELF_HOSTED_FREE.sub(" open source ", _FREE_SEATS.sub(" ", _FREE_TRIAL.sub(" ", text)))


def prices(quote: str) -> list[float]:
    """The amounts of the prices a quote names ("$12", "19 EUR", "\u20ac9.99", "$0")."""
    amounts: list[float] = []
    for match in PRICE.finditer(quote):
        digits = re.search(r"\d[\d,]*(?:\.\d+)?", match.group(0))
        if digits:
            try:
                amounts.append(float(digits.group(0).replace(",", "")))
            except ValueError:
                continue
    return amounts


def has_price(quote: str) -> bool:
    """A quote names a non-zero price."""
    return any(amount > 0 for amount in prices(quote))


def pricing_cues(quote: str) -> set[str]:
    """Which pricing models a single quote speaks for (before combining quotes)."""
    q = _without_trials(quote)
    found: set[str] = set()
    if TRIAL.search(normalise(quote)):
        found.add("free trial")
    if contains_phrase(q, "freemium"):
        found.add("freemium")
    if _any_cue(q, _SUBSCRIPTION_CUES):
        found.add("subscription")
    if _any_cue(q, _ONE_TIME_CUES):
        found.add("one-time")
    if _any_cue(q, _USAGE_CUES):
        found.add("usage-based")
    if _any_cue(q, _OPEN_SOURCE_CUES):
        found.add("open source")
    zero_price = any(amount == 0 for amount in prices(q))
    plan_named_free = re.match(r"(?:free|gratis|kostenlos|gratuit)\b", q.strip()) is not None and len(q.split()) <= 4
    # a plan table's price cell "Free" ("Open Source Free Public repositories"): capitalised, not a sentence
    plan_named_free = plan_named_free or (
        re.search(r"(?:^|\s)(?:Free|Gratis|Kostenlos|Gratuit|Gratuito|Bezp\u0142atnie|Darmowy|Besplatno)(?:\s|$)", quote) is not None
        and not quote.rstrip().endswith((".", "!", "?")) and len(quote.split()) <= 12
        and _FREE_TRIAL.search(normalise(quote)) is None
    )
    if _any_cue(q, _FREE_PLAN_CUES) or zero_price or plan_named_free or FREE_ALLOWANCE.search(q) or FREE_PLAN.search(q):
        found.add("free plan")
    if _any_cue(q, _FREE_CUES) or zero_price:
        found.add("free")
    if has_price(q) or contains_phrase(q, "paid"):
        found.add("paid")
    if _any_cue(q, _CONTACT_CUES):
        found.add("contact")
    return found


# "5 000" (a space between thousands), "5,000", or a small number in words ("your first five invoices")
_NUMBER = (r"\d{1,3}(?: \d{3})+|\d[\d.,]*|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|fifty|hundred"
           r"|zwei|drei|vier|f\u00fcnf|zehn|deux|trois|quatre|cinq|dix|dos|tres|cuatro|cinco|diez")
_NOT_A_SPAN = rf"(?!\s*(?:{_SPAN})\b)"
_UP_TO = alternation(UP_TO_WORDS)
# the product or an amount of it costs nothing: German's attributive "kostenlose" names a free extra ("eine
# kostenlose Phishing-Kampagne an bis zu 50 Postfächer" before buying), not an allowance
_FREE_WORD = "(?<!\\w)(?:{}|cost nothing|kosten nichts|no pagas|ne co\u00fbtent rien)(?!\\w)".format(
    alternation(tuple(w for w in FREE_WORDS if w not in ("kostenlose", "kostenloser"))))
# Free below a threshold, in prose, in every language of `pricing_words`, the free word before or after the bound:
# "free for clubs that race up to 30 boats", "Bis zu 3 Spielplätze prüfen Sie mit Wippe kostenlos", "Die ersten
# 500 Abfragen pro Monat sind kostenlos", "Les 5 000 premières requêtes de chaque mois sont gratuites" (a span of
# days is a trial, read as one)
FREE_ALLOWANCE = re.compile(
    rf"{_FREE_WORD}[^.;]{{0,60}}?(?<!\w)(?:{_UP_TO})\s+(?:{_NUMBER})\b{_NOT_A_SPAN}"
    rf"|(?<!\w)(?:{_UP_TO})\s+(?:{_NUMBER})\b{_NOT_A_SPAN}[^.;]{{0,60}}?{_FREE_WORD}"
    rf"|(?<!\w)(?:{_FIRST})\s+(?:{_NUMBER})\b{_NOT_A_SPAN}[^.;]{{0,60}}?{_FREE_WORD}"
    rf"|{_FREE_WORD}[^.;]{{0,60}}?(?<!\w)(?:{_FIRST})\s+(?:{_NUMBER})\b{_NOT_A_SPAN}"
    rf"|\b(?:{_NUMBER})\s+(?:{_FIRST_AFTER})\b{_NOT_A_SPAN}[^.;]{{0,60}}?{_FREE_WORD}"
    # free for a single one of what is counted: "gratuit pour un logement, sans limite de durée", "free for one project"
    r"|\b(?:free|gratuit[e]?|gratis|kostenlos|gratuit[oa])\s+(?:for|pour|para|f\u00fcr|per|voor)\s+(?:one|a single|un|une"
    r"|ein|eine|einen|uno|una|un solo|una sola|\u00e9\u00e9n)\b"
)
_PLAN = alternation(PLAN_WORDS)
# a free plan named by a plan word beside a free word, in either order: "plan gratuit", "ingyenes csomag", "Free-Plan"
FREE_PLAN = re.compile(rf"{_FREE_WORD}[\s-]+(?:{_PLAN})(?!\w)|(?<!\w)(?:{_PLAN})[\s-]+{_FREE_WORD}")


def is_paid(cues: set[str]) -> bool:
    """The quote's cues name a paid offer: a non-zero price, "paid", or a billing term not on a free plan."""
    return "paid" in cues or ("free plan" not in cues and bool(cues & {"subscription", "one-time", "usage-based"}))


def supports_pricing_model(value: str, quotes: Iterable[str]) -> list[int]:
    """Indexes of the quotes that together support ``value`` (empty: not supported).

    "freemium" needs the word itself, or a free plan in one quote and a price or
    subscription in another (or the same), or a plan priced on request in another; "free trial" a trial and a paid offer
    the same way.
    """
    cues = [pricing_cues(q) for q in quotes]
    if value == "freemium":
        direct = [i for i, c in enumerate(cues) if "freemium" in c]
        if direct:
            return direct
        free = [i for i, c in enumerate(cues) if "free plan" in c]
        paid = [i for i, c in enumerate(cues) if is_paid(c)]
        if free and not paid:  # a plan priced on request beside the free one ("Sur devis"), in another quote
            paid = [i for i, c in enumerate(cues) if "contact" in c and i != free[0]]
        return sorted(set(free[:1] + paid[:1])) if free and paid else []
    if value == "paid":
        return [i for i, c in enumerate(cues) if is_paid(c)]
    if value == "free trial":  # a trial of something paid: both must be quoted
        trial = [i for i, c in enumerate(cues) if "free trial" in c]
        paid = [i for i, c in enumerate(cues) if is_paid(c)]
        return sorted(set(trial[:1] + paid[:1])) if trial and paid else []
    return [i for i, c in enumerate(cues) if value in c]


def supports_stage(value: str, quotes: Iterable[str]) -> list[int]:
    """Indexes of the quotes naming ``value`` or one of its cue phrases."""
    cues = _STAGE_CUES.get(value, ())
    return [i for i, q in enumerate(quotes) if contains_phrase(normalise(q), value) or _any_cue(normalise(q), cues)]


def is_video_url(url: str) -> bool:
    """A link to a video: YouTube, Vimeo, Loom or Wistia page, or a video file (hosts as in :mod:`.socials`)."""
    found = normalised_host(url)
    if found is None:
        return False
    host, path = found[0], found[1].lower()
    if any(host_matches(host, h) for h in VIDEO_HOSTS):
        if "youtube" in host:
            query = httpx.URL(url.strip()).query.decode("ascii", "replace")
            return (path == "/watch" and "v=" in query) or path.startswith(("/embed/", "/shorts/", "/live/", "/v/"))
        return len(path.strip("/")) > 0
    return path.endswith(VIDEO_SUFFIXES)
