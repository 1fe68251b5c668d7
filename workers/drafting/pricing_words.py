"""The words pricing pages use, language by language, for the pricing cues of `vocab`.

Sites come in every European language, and a language the cue lists have no words for
used to lose its pricing model outright. Instead of adding a phrase each time one site
shows it, this module lists the same few concepts for every language the directory
meets (the EU's, the EEA's, the Balkans', Ukrainian, Russian, Turkish, and the regional
languages of Spain, Ireland, Wales and Luxembourg): "free", "a month", "a year",
"subscription", "trial", "up to" and "the first", "days". `vocab` builds its patterns
from them. `alternation` puts them in `text.normalise`'s form (case folded; a Greek final sigma
folds to σ), as the cue lists match normalised quotes.
"""

from __future__ import annotations

import re

from .text import normalise

# "free" as a price: adjectives in their common inflections, adverbs, set phrases
FREE_WORDS: tuple[str, ...] = (
    "free", "no cost", "kostenlos", "kostenlose", "kostenloser", "kostenfrei", "gratis", "gratuit", "gratuite",
    "gratuits", "gratuites", "gratuito", "gratuita", "gratuitos", "gratuitas", "gr\u00e1tis", "gratuit\u0103",
    "besplatno", "besplatna", "besplatan", "besplatni", "\u03b4\u03c9\u03c1\u03b5\u03ac\u03bd", "bezp\u0142atnie",
    "bezp\u0142atny", "bezp\u0142atna", "za darmo", "darmowy", "darmowa", "bezmaksas", "de balde", "zdarma",
    "zadarmo", "bezplatn\u011b", "bezplatne", "bezplatn\u00fd", "bezplatn\u00e1", "ingyenes", "ingyen",
    "ilmainen", "ilmaiseksi", "ilmaista", "maksuton", "maksutta", "\u00fccretsiz", "nemokamai", "nemokamas",
    "nemokama", "tasuta", "brezpla\u010dno", "brezpla\u010den", "brezpla\u010dna", "\u00f3keypis", "fr\u00edtt",
    "gjaldfrj\u00e1ls", "\u0431\u0435\u0437\u043f\u043b\u0430\u0442\u043d\u043e", "\u0431\u0435\u0437\u043f\u043b\u0430\u0442\u0435\u043d",
    "\u0431\u0435\u0437\u043f\u043b\u0430\u0442\u043d\u0430", "\u0431\u0435\u0437\u043a\u043e\u0448\u0442\u043e\u0432\u043d\u043e",
    "\u0431\u0435\u0437\u043a\u043e\u0448\u0442\u043e\u0432\u043d\u0438\u0439", "\u0431\u0435\u0441\u043f\u043b\u0430\u0442\u043d\u043e",
    "\u0431\u0435\u0441\u043f\u043b\u0430\u0442\u043d\u044b\u0439", "doan", "doakoa", "saor in aisce", "b'xejn", "falas",
    "am ddim", "gratu\u00eft", "gratu\u00efta", "ucretsiz",
)

# "a month" / "a year" / "subscription" in the languages the older cue lists of `vocab` lack
PERIOD_WORDS: tuple[str, ...] = (
    # Romanian
    "pe lun\u0103", "/lun\u0103", "lunar", "pe an", "/an", "anual", "abonament",
    # Icelandic
    "\u00e1 m\u00e1nu\u00f0i", "/m\u00e1n", "m\u00e1na\u00f0arlega", "\u00e1 \u00e1ri", "\u00e1rlega", "\u00e1skrift",
    # Bulgarian, Ukrainian, Russian, Serbian (Cyrillic)
    "\u043d\u0430 \u043c\u0435\u0441\u0435\u0446", "/\u043c\u0435\u0441\u0435\u0446", "/\u043c\u0435\u0441", "\u043c\u0435\u0441\u0435\u0447\u043d\u043e",
    "\u043d\u0430 \u0433\u043e\u0434\u0438\u043d\u0430", "\u0433\u043e\u0434\u0438\u0448\u043d\u043e", "\u0430\u0431\u043e\u043d\u0430\u043c\u0435\u043d\u0442",
    "\u043d\u0430 \u043c\u0456\u0441\u044f\u0446\u044c", "/\u043c\u0456\u0441", "\u0449\u043e\u043c\u0456\u0441\u044f\u0446\u044f",
    "\u043d\u0430 \u0440\u0456\u043a", "\u043f\u0456\u0434\u043f\u0438\u0441\u043a\u0430", "\u0432 \u043c\u0435\u0441\u044f\u0446",
    "\u0435\u0436\u0435\u043c\u0435\u0441\u044f\u0447\u043d\u043e", "\u0432 \u0433\u043e\u0434", "\u043f\u043e\u0434\u043f\u0438\u0441\u043a\u0430",
    "\u043c\u0435\u0441\u0435\u0447\u043d\u043e", "\u043f\u0440\u0435\u0442\u043f\u043b\u0430\u0442\u0430",
    # Basque, Irish, Maltese, Albanian, Welsh, Luxembourgish
    "hilean", "hileko", "urtean", "urteko", "harpidetza", "in aghaidh na m\u00edosa", "sa mh\u00ed", "s\u00ednti\u00fas",
    "fix-xahar", "kull xahar", "fis-sena", "abbonament", "n\u00eb muaj", "/muaj", "n\u00eb vit", "abonim", "bob mis",
    "tanysgrifiad", "pro mount", "all mount",
    # Lithuanian, Estonian, Finnish, Hungarian, Czech and Slovak words the older lists lack
    "per m\u0117nes\u012f", "m\u0117nesinis", "prenumerata", "kuus", "aastas", "kuutasu", "vuodessa",
    "kuukausimaksu", "\u00e9vente", "havi", "el\u0151fizet\u00e9s", "m\u011bs\u00ed\u010dn\u00ed", "p\u0159edplatn\u00e9",
    "mesa\u010dn\u00fd", "ro\u010dne", "predplatn\u00e9", "aylik", "y\u0131ll\u0131k", "abonelik",
    # Indonesian "Rp149.000 / bulan", "per tahun", "langganan"
    "/ bulan", "/bulan", "per bulan", "/ tahun", "/tahun", "per tahun", "langganan",
)

# a trial, named by its word ("Probezeitraum", "kokeilu", "пробен период")
TRIAL_WORDS: tuple[str, ...] = (
    "kokeilu", "kokeilujakso", "zku\u0161ebn\u00ed", "sk\u00fa\u0161obn\u00e9", "sk\u00fa\u0161obn\u00e1", "pr\u00f3baid\u0151szak",
    "kipr\u00f3b\u00e1l", "deneme", "bandomasis", "bandomoji", "pr\u00f8veperiode", "pr\u00f8vetid", "provperiod",
    "okres pr\u00f3bny", "perioad\u0103 de prob\u0103", "prufut\u00edmi", "prufu\u00e1skrift", "proovi", "proovip\u00e4evad",
    "izm\u0113\u0123in\u0101juma", "preizkusno obdobje", "\u043f\u0440\u043e\u0431\u0435\u043d \u043f\u0435\u0440\u0438\u043e\u0434",
    "\u043f\u0440\u043e\u0431\u043d\u0438\u0439 \u043f\u0435\u0440\u0456\u043e\u0434", "\u043f\u0440\u043e\u0431\u043d\u044b\u0439 \u043f\u0435\u0440\u0438\u043e\u0434",
    "prob\u0103 gratuit\u0103", "proba doakoa", "triail", "prova b'xejn", "prov\u00eb", "treial",
)

# "up to N" before or after the free word: "bis zu 3 Spielplätze … kostenlos", "δωρεάν … για έως 10 προϊόντα"
UP_TO_WORDS: tuple[str, ...] = (
    "up to", "under", "below", "bis zu", "bis", "jusqu'\u00e0", "jusqu'a", "hasta", "fino a", "at\u00e9", "tot",
    "\u03ad\u03c9\u03c2", "\u03bc\u03ad\u03c7\u03c1\u03b9", "do", "a\u017e do", "a\u017e", "l\u012bdz", "iki", "kuni",
    "enint\u00e4\u00e4n", "op til", "upp till", "inntil", "opp til", "legfeljebb", "max.", "maksimalt", "maximal",
    "p\u00e2n\u0103 la", "allt a\u00f0", "\u0434\u043e", "fins a", "deri n\u00eb",
)

# "the first N" ("Les 5 000 premières requêtes … sont gratuites", "Prvih 30 dana je besplatno")
FIRST_WORDS: tuple[str, ...] = (
    "the first", "your first", "die ersten", "ihre ersten", "les premiers", "les premi\u00e8res", "los primeros",
    "las primeras", "i primi", "le prime", "os primeiros", "as primeiras", "de eerste", "prvih", "prvi", "pierwsze",
    "pierwszych", "prvn\u00edch", "prv\u00fdch", "els primers", "les primeres", "primele", "de f\u00f8rste", "de f\u00f6rsta",
    "f\u00f8rste", "ensimm\u00e4iset", "az els\u0151", "pirmieji", "pirm\u0101s", "esimesed", "\u03c4\u03b9\u03c2 \u03c0\u03c1\u03ce\u03c4\u03b5\u03c3",
    "\u03c4\u03b1 \u03c0\u03c1\u03ce\u03c4\u03b1", "\u043f\u044a\u0440\u0432\u0438\u0442\u0435", "\u043f\u0435\u0440\u0448\u0456", "\u043f\u0435\u0440\u0432\u044b\u0435", "fyrstu",
)

# the number first, then "first": "Les 5 000 premières requêtes", "i 100 primi"
FIRST_AFTER_WORDS: tuple[str, ...] = (
    "premiers", "premi\u00e8res", "primeros", "primeras", "primi", "prime", "primeiros", "primeiras", "primers",
    "primeres",
)

# a plan, tier, version or account: beside a free word it is a free plan ("plan gratuit", "ingyenes csomag")
PLAN_WORDS: tuple[str, ...] = (
    "plan", "plans", "tier", "version", "edition", "account", "package", "pl\u00e1n", "plano", "piano", "versione",
    "vers\u00e3o", "versio", "versiota", "verzi\u00f3", "verze", "verzia", "versija", "versioon", "tarif", "tarifa",
    "paket", "pakett", "pakket", "paketti", "csomag", "planas", "pl\u0101ns", "pachet", "konto", "\u00fa\u010det",
    "fi\u00f3k", "tili", "paskyra", "konts", "pakke", "paquete", "forfait", "formule", "offre", "pacote", "pacchetto",
    "plana", "\u00e1skrift", "\u043f\u043b\u0430\u043d", "\u0442\u0430\u0440\u0438\u0444", "\u043f\u0430\u043a\u0435\u0442",
    "\u0432\u0435\u0440\u0441\u0438\u044f", "\u0432\u0435\u0440\u0441\u0456\u044f", "\u03c0\u03b1\u03ba\u03ad\u03c4\u03bf",
    "\u03ad\u03ba\u03b4\u03bf\u03c3\u03b7",
)

# days, weeks, months as the length of a trial
SPAN_WORDS: tuple[str, ...] = (
    "days", "day", "weeks", "week", "months", "month", "tage", "tagen", "wochen", "monate", "jours", "semaines", "mois",
    "d\u00edas", "semanas", "meses", "giorni", "settimane", "mesi", "dias", "dagen", "weken", "maanden", "dana",
    "tjedana", "dni", "tygodni", "dn\u00ed", "dn\u00ed", "t\u00fd\u017ed\u0148\u016f", "dag", "dage", "dagar", "dager",
    "p\u00e4iv\u00e4\u00e4", "p\u00e4iv\u00e4n", "viikkoa", "napig", "napos", "nap", "g\u00fcn", "g\u00fcnl\u00fck",
    "dien\u0173", "dienas", "dien\u0101m", "p\u00e4eva", "p\u00e4evaks", "dni", "zile", "zi", "daga", "dies", "egun",
    "\u03b7\u03bc\u03ad\u03c1\u03b5\u03c3", "\u03b7\u03bc\u03b5\u03c1\u03ce\u03bd", "\u0434\u043d\u0438", "\u0434\u043d\u0456\u0432",
    "\u0434\u043d\u0435\u0439", "\u0434\u043d\u044f", "ditë", "lá", "diwrnod", "jiem", "dienų",
)


def alternation(words: tuple[str, ...]) -> str:
    """A regex alternation of ``words`` in `normalise`'s form, longest first so "bis zu" wins over "bis"."""
    return "|".join(re.escape(w) for w in sorted({normalise(w) for w in words}, key=len, reverse=True))
