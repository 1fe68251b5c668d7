"""The words a site uses when it is in one of the catalogue's categories, in English, German, French and Spanish.

A category is drafted only on the site's own words: a quote must contain one
of these terms (whole words, after normalisation), and the extractive drafter
wants the category's name itself or two different terms before it proposes a
category (`site_categories.py`).  Single generic words ("build", "code",
"no", "work") are deliberately absent: they made the drafter guess "No-code"
for sites that never say so.  Slugs not listed fall back to the catalogue
name as the only term.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import re

from .text import contains_phrase, normalise, sentences

CATEGORY_TERMS: dict[str, tuple[str, ...]] = {
    "developer-tools": ("developer tools", "developer tool", "developers", "developer", "engineers", "engineering teams",
                        "codebase", "pull request", "pull requests", "monorepo", "monorepos", "repository", "ide",
                        "entwickler", "entwicklerinnen", "d\u00e9veloppeurs", "desarrolladores",
        "source code", "openapi", "command line", "cli", "sdk", "sdks", "code review", "static site generator",
        "open-source library", "library", "bindings", "crate", "npm package"),
    "apis-sdks": ("api", "apis", "sdk", "sdks", "client library", "client libraries", "rest api", "graphql",
                  "schnittstelle", "schnittstellen", "rest-api", "rest call", "rest calls", "rest-aufruf", "endpoint",
                  "endpoints", "api reference", "api-referenz", "llamada rest", "appel rest"),
    "devops": ("devops", "infrastructure", "deploy", "deploys", "deployment", "deployments", "hosting", "monitoring",
               "uptime", "ci/cd", "continuous integration", "ci", "pipeline", "pipelines", "build cache", "kubernetes",
               "docker", "incident", "incidents", "on-call", "observability", "infraestructura", "despliegue",
               "d\u00e9ploiement", "bereitstellung",
        "feature flags", "feature flag", "feature toggles", "progressive delivery", "self-host", "self-hosted", "self-hosting", "rollouts", "docker image", "servers", "rechenzentren",
        # Dutch, Italian, Portuguese and more forms sites use
        "uptime-monitoring", "status page", "status pages", "statusseite", "cron jobs", "cronjobs", "monitoraggio", "monitoramento", "monitorizaci\u00f3n"),
    "testing": ("testing", "tests", "test", "flaky test", "flaky tests", "test impact analysis", "test suite", "test suites", "qa", "quality assurance", "end-to-end tests", "flaky tests",
                "test runs", "regression tests", "testautomatisierung", "pruebas", "tests automatis\u00e9s",
        "mock apis", "contract tests", "contract testing", "contract checks"),
    "ai": ("ai", "artificial intelligence", "machine learning", "llm", "llms", "ki", "k\u00fcnstliche intelligenz",
           "ia", "inteligencia artificial", "intelligence artificielle",
        "speech recognition", "transcription", "transcribes", "transcribe", "spracherkennung", "transkription", "transkribiert", "reconocimiento de voz", "transcripci\u00f3n", "reconnaissance vocale", "neural", "ai-powered"),
    "ai-assistants": ("ai assistant", "assistant", "copilot", "chatbot", "ai agent", "ai agents", "agents",
                      "asistente", "assistent", "assistente"),
    "ai-infrastructure": ("model hosting", "vector database", "vector databases", "embeddings", "inference", "mlops",
                          "fine-tuning", "evals",
        "gpu", "gpus", "serverless gpus", "gpu inference", "open-weight models", "open models", "model serving", "llm inference"),
    "productivity": ("productivity", "productive", "get work done", "to-do", "to-dos", "produktivit\u00e4t",
                     "productividad", "productivit\u00e9",
        "time tracker", "time tracking", "timesheets", "timesheet", "timer", "meetings", "meeting notes", "besprechungen", "zeiterfassung", "reuniones", "r\u00e9unions", "control horario", "suivi du temps",
        # Dutch, Italian, Portuguese and more forms sites use
        "checklist", "checklists", "checkliste", "checklisten", "dienstplan", "dienstplanung", "schichtplanung", "shift planning", "shift scheduling", "rota", "productiviteit", "urenregistratie", "produttivit\u00e0", "produtividade", "planificaci\u00f3n de turnos", "planning des \u00e9quipes",
        "shared inbox", "support inbox",
        # the work a trade's office does, said as the site says it: bookings, reminders, paper and spreadsheets
        # replaced, everything in one place
        "reminders", "reminder", "erinnerungen", "recordatorios", "rappels", "promemoria", "herinneringen",
        "organise", "organises", "organize", "organizes", "organiza", "organizan", "organisez",
        "organisiert", "organisieren", "planning", "scheduling", "schedules", "bookings", "appointments",
        "termine", "terminbuchung", "reservas", "citas", "paperwork", "papierkram", "spreadsheets", "spreadsheet",
        "hojas de c\u00e1lculo", "hoja de c\u00e1lculo", "tableur", "tableurs", "one place", "in one place",
        "in einem system", "en un solo lugar", "en un seul endroit", "in un unico posto"),
    "project-management": ("project management", "projects", "project", "tasks", "kanban", "roadmap", "roadmaps",
                           "sprint", "sprints", "gantt", "projektmanagement", "projekte", "gesti\u00f3n de proyectos",
                           "proyectos", "gestion de projet", "projets", "chantier", "chantiers",
        # Dutch, Italian, Portuguese and more forms sites use
        "task", "tareas", "tarea", "obra", "obras", "baustelle", "baustellen", "aufgaben", "projecten", "projectmanagement", "progetti", "gestione progetti", "projetos", "gest\u00e3o de projetos", "tarefas",
        "\u043a\u0435\u0440\u0443\u0432\u0430\u043d\u043d\u044f \u043f\u0440\u043e\u0454\u043a\u0442\u0430\u043c\u0438", "\u043f\u0440\u043e\u0454\u043a\u0442\u0438", "\u043f\u0440\u043e\u0454\u043a\u0442\u0456\u0432", "\u0437\u0430\u0434\u0430\u0447\u0456"),
    "notes-docs": ("notes", "note-taking", "documentation", "docs", "wiki", "knowledge base", "knowledge bases",
                   "dokumentation", "notizen", "wissensdatenbank", "documentaci\u00f3n", "notas",
        "markdown", "note", "note-taking app", "notes app", "protokoll", "protokolle", "meeting minutes", "actas",
        "notebook", "notebooks", "lab notebook", "electronic lab notebook", "quaderno", "quaderni", "quaderno di laboratorio", "cuaderno", "cuadernos", "notizbuch", "laborbuch", "protocolli", "protocols",
        "shared notebook", "team notebook", "digital notebook"),
    "marketing": ("marketing", "campaigns", "campaign", "leads", "audience", "customers coming back", "campa\u00f1as",
                  "kampagnen", "campagnes",
        # Dutch, Italian, Portuguese and more forms sites use
        "loyalty", "loyalty program", "loyalty programme", "treueprogramm", "kundenbindung", "fid\u00e9lit\u00e9", "fidelizaci\u00f3n", "programa de lealtad", "klantenbinding", "fidelizzazione", "fidelidade", "fideliza\u00e7\u00e3o", "cashback", "campanhas", "campagne"),
    "seo": ("seo", "search engine", "search engines", "rankings", "search visibility", "backlinks", "serp",
        # Dutch, Italian, Portuguese and more forms sites use
        "local seo", "search results", "search rankings", "rank tracking", "local results", "suchmaschinenoptimierung", "suchmaschinen", "posicionamiento web", "r\u00e9f\u00e9rencement", "zoekmachines", "vindbaarheid", "posicionamento"),
    "email-marketing": ("email marketing", "e-mail-marketing", "newsletter", "newsletters", "email campaigns",
                        "mailing", "correos", "boletines", "abandoned cart", "carrito abandonado",
        # Dutch, Italian, Portuguese and more forms sites use
        "e-mailing", "emailing", "lettre d'information", "lettres d'information", "infolettre", "e-mail-kampagnen", "nieuwsbrief", "nieuwsbrieven", "bolet\u00edn", "mailing list", "mailing lists", "email list"),
    "design": ("design", "prototyping", "prototype", "prototypes", "figma", "mockups", "dise\u00f1o", "illustrations",
        "designers", "designer", "design agencies", "design feedback", "dise\u00f1adores", "designerinnen", "graphistes",
        "sketch", "sketching", "wireframes", "mockups", "skizzen", "skizzieren", "entw\u00fcrfe", "architekten", "architekturb\u00fcros", "planungsb\u00fcros", "architects", "architectes", "arquitectos", "bocetos", "croquis", "maquettes",
        "designing", "for designing"),
    "finance": ("finance", "payments", "payment", "accounting", "invoicing", "invoice", "invoices", "bookkeeping",
                "vat", "tax", "taxes", "expenses", "payroll", "buchhaltung", "rechnungen", "rechnung", "zahlungen",
                "steuern", "facturaci\u00f3n", "facturas", "contabilidad", "comptabilit\u00e9", "factures",
                "paiements", "finanzen", "finanzas",
        # Dutch, Italian, Portuguese and more forms sites use
        "boekhouding", "boekhouden", "boekhouder", "facturen", "factuur", "btw", "btw-aangifte", "betalingen", "contabilit\u00e0", "fatture", "fattura", "fatturazione", "pagamenti", "contabilidade", "faturas", "fatura", "faturamento", "pagamentos", "impostos",
        "budget", "budgets", "budgeting", "presupuesto", "presupuestos", "ahorro", "ahorros", "savings", "personal finance", "finanzas personales", "finances personnelles", "banking", "bank account", "bank accounts", "cuentas bancarias", "conexi\u00f3n bancaria", "paiement", "pago", "pagos", "membership fees", "mitgliedsbeitr\u00e4ge", "fiscal", "fiscales", "fiscale", "gastos", "d\u00e9penses", "ausgaben", "spending", "haushaltsbuch", "\u00e9pargne",
        # quotes and bills of a trade, payroll and service-charge statements, donations
        "devis", "abrechnung", "lohnabrechnung", "nebenkostenabrechnung", "donations", "donors", "donor",
        "fundraising", "spenden", "dons", "donativos", "donaciones"),
    "analytics": ("analytics", "metrics", "dashboards", "dashboard", "page views", "pageviews", "visitors",
                  "statistics", "web analytics", "insights", "analytik", "anal\u00edtica", "statistiques"),
    "security": ("security", "secrets", "secret scanning", "vulnerabilities", "vulnerability", "encryption",
                 "leaked credentials", "credentials", "sicherheit", "seguridad", "s\u00e9curit\u00e9",
        "sso", "single sign-on", "authentication", "passkeys", "two-factor", "2fa", "mfa", "scim", "saml", "oidc", "access control", "identity", "privacy", "gdpr", "dsgvo", "rgpd", "authentifizierung", "datenschutz",
        # Dutch, Italian, Portuguese and more forms sites use
        "password manager", "password managers", "vault", "vaults", "encrypted", "end-to-end encrypted", "data breach", "data leak", "passwort-manager", "passwortmanager", "gestor de contrase\u00f1as", "gestionnaire de mots de passe", "wachtwoordmanager", "gerenciador de senhas",
        "secret", "passwords", "password", "api keys", "leaked", "leaks", "leak",
        "privacy-first", "privacy-friendly", "privacy-focused", "cookie-free", "contrase\u00f1as", "claves filtradas", "filtradas", "secretos", "mots de passe", "passw\u00f6rter", "geheimnisse", "leaked keys",
        # compliance: the audits and certifications a security programme is judged by
        "compliance", "soc 2", "soc2", "iso 27001", "iso/iec 27001", "hipaa", "pci dss", "audit evidence", "auditors",
        "security audit", "security audits", "penetration testing", "pentest", "pentests", "konformit\u00e4t",
        "cumplimiento normativo", "conformit\u00e9"),
    "no-code": ("no-code", "no code", "nocode", "without writing code", "without code", "sin c\u00f3digo",
                "ohne code", "sans code", "ohne programmieren",
        "sin escribir una l\u00ednea de c\u00f3digo", "sin escribir c\u00f3digo", "without writing a line of code", "ohne eine zeile code", "sans \u00e9crire une ligne de code", "sans coder", "senza codice", "sem c\u00f3digo", "zonder code"),
    "education": ("education", "learning", "learn", "courses", "course", "students", "teachers", "tutoring",
                  "lessons", "classroom", "tutors", "bildung", "lernen", "kurse", "educaci\u00f3n", "cursos",
                  "formation", "cours", "\u00e9l\u00e8ves",
        "enseignants", "enseignant", "professeurs", "profesores", "docentes", "lehrer", "lehrkr\u00e4fte", "sch\u00fcler", "alumnos", "estudiantes", "\u00e9l\u00e8ve", "school", "schools", "\u00e9cole", "\u00e9coles", "escuela", "escuelas", "schule", "schulen", "student", "en classe", "clase", "clases", "tutor\u00edas", "academias", "insegnanti", "studenti", "docenti", "leerlingen", "docenten",
        # Polish: teachers, pupils, lessons, schools
        "nauczycieli", "nauczyciele", "nauczyciel", "uczni\u00f3w", "uczniowie", "lekcje", "lekcji", "szk\u00f3\u0142", "szko\u0142y",
        "guru", "sekolah", "siswa", "kelas online", "bimbel", "kursus"),
    "ecommerce": ("e-commerce", "ecommerce", "online store", "online stores", "online shop", "online shops",
                  "checkout", "shopify", "woocommerce", "tienda online", "tiendas online", "onlineshop",
                  "boutique en ligne",
        "ticketing", "event ticketing", "sell tickets", "sells tickets", "ticket sales", "ticket shop", "billetterie", "ticketverkauf", "venta de entradas",
        # what shops and their buyers do: pre-orders, shoppers, marketplaces, auctions
        "pre-orders", "pre-order", "preorders", "shoppers", "marketplace", "marketplaces", "webshop", "e-ticaret",
        "pazaryerleri", "pazaryeri", "subasta", "auction", "auctions", "tienda", "boutique", "sold-out"),
}


# Phrases that alone say what a product is ("an email newsletter tool", "a shared inbox", "for designers"):
# one of them in the name, tagline, short description or keywords counts as the category's name would.
STRONG_TERMS: dict[str, tuple[str, ...]] = {
    "email-marketing": ("newsletter", "newsletters", "email marketing", "e-mail-marketing", "nieuwsbrief", "infolettre",
        "email and text-message marketing", "email and sms marketing", "email & sms marketing"),
    "finance": ("accounting", "bookkeeping", "invoicing", "budgeting", "presupuesto", "buchhaltung",
                "comptabilit\u00e9", "contabilidad", "boekhouding", "personal finance"),
    "security": ("secret scanning", "leaked secrets", "secrets", "password manager", "vulnerabilities",
        "privacy-first", "privacy-friendly", "claves filtradas", "leaked keys",
        "compliance automation", "audit evidence", "security compliance"),
    "design": ("designers", "prototyping", "design feedback", "dise\u00f1adores", "graphistes",
        "sketching", "design tool",
        "for designing", "app for designing"),
    "productivity": ("shared inbox", "time tracking", "to-do", "productivity"),
    # "ticketing" alone is no shop's word: a help desk's tickets ("your cloud, HR and ticketing tools") are not sold
    "ecommerce": ("online store", "online shop", "event ticketing", "sells tickets", "sell tickets", "ecommerce", "e-commerce",
                  # an online shop, in the languages of Europe
                  "e-shop", "eshop", "online-shop", "onlineshop", "webshop", "tienda online", "boutique en ligne",
                  "negozio online", "loja online", "loja virtual", "webwinkel", "webbutik", "nettbutikk", "netbutik",
                  "verkkokauppa", "sklep internetowy", "internetov\u00fd obchod", "internetov\u00fd obchod", "e-pood",
                  "web\u00e1ruh\u00e1z", "internetin\u0117 parduotuv\u0117", "interneta veikals", "magazin online",
                  "spletna trgovina", "internetska trgovina", "web trgovina", "online ma\u011faza",
                  "\u03b7\u03bb\u03b5\u03ba\u03c4\u03c1\u03bf\u03bd\u03b9\u03ba\u03bf\u03cd \u03ba\u03b1\u03c4\u03b1\u03c3\u03c4\u03ae\u03bc\u03b1\u03c4\u03bf\u03c2",
                  "\u03b7\u03bb\u03b5\u03ba\u03c4\u03c1\u03bf\u03bd\u03b9\u03ba\u03cc \u03ba\u03b1\u03c4\u03ac\u03c3\u03c4\u03b7\u03bc\u03b1",
                  "\u0438\u043d\u0442\u0435\u0440\u043d\u0435\u0442 \u043c\u0430\u0433\u0430\u0437\u0438\u043d",
                  "\u043e\u043d\u043b\u0430\u0439\u043d \u043c\u0430\u0433\u0430\u0437\u0438\u043d",
                  "\u0456\u043d\u0442\u0435\u0440\u043d\u0435\u0442-\u043c\u0430\u0433\u0430\u0437\u0438\u043d",
                  "\u0438\u043d\u0442\u0435\u0440\u043d\u0435\u0442-\u043c\u0430\u0433\u0430\u0437\u0438\u043d"),
    "notes-docs": ("lab notebook", "electronic lab notebook", "quaderno di laboratorio", "note-taking", "wiki",
                   "knowledge base", "documentation",
        "shared notebook", "team notebook", "digital notebook"),
    "education": ("teachers", "enseignants", "profesores", "lehrer", "students", "\u00e9l\u00e8ves", "alumnos", "tutoring",
                  "nauczycieli", "nauczyciele",
                  "classroom", "en classe", "dar clase",
        "kelas online", "platform kelas online"),
    "ai-assistants": ("ai assistant", "ai-assistant", "ai-assistent", "ki-assistent", "ai agent", "copilot", "chatbot",
                      "ai meeting assistant", "meeting assistant", "ai notetaker", "ai note-taker", "writing assistant",
                      "virtual assistant", "voice assistant", "ki-assistentin", "asistente virtual", "assistant virtuel",
                      "asistente de ia", "assistant ia", "assistente ai", "assistente ia",
        "ai code review agent", "code review agent", "coding agent", "ai reviewer"),
    "analytics": ("web analytics", "analytics", "mesure d'audience", "anal\u00edtica web", "webanalyse"),
    "seo": ("seo", "search engine optimisation", "search engine optimization", "r\u00e9f\u00e9rencement",
            "suchmaschinenoptimierung", "posicionamiento web", "posicionamiento seo", "ottimizzazione per i motori di ricerca",
            "otimiza\u00e7\u00e3o para motores de busca", "zoekmachineoptimalisatie", "s\u00f6kmotoroptimering",
            "pozycjonowanie", "hakukoneoptimointi", "optimalizace pro vyhled\u00e1va\u010de", "keres\u0151optimaliz\u00e1l\u00e1s"),
    "testing": ("load testing", "load tests", "pruebas de carga", "lasttests", "lasttest", "tests de charge",
                "test automation", "testautomatisierung", "automatizaci\u00f3n de pruebas", "automatisation des tests",
                "accessibility testing", "end-to-end testing", "e2e testing", "visual regression testing",
                "herramienta de pruebas", "testing tool", "outil de test",
        "mock apis", "contract testing"),
    "no-code": ("no-code", "no code", "without writing code", "sin escribir una l\u00ednea de c\u00f3digo", "sans coder"),
    "developer-tools": ("open-source library",),
    "ai-infrastructure": ("gpu inference", "serverless gpus", "model serving", "llm inference"),
}


def strong_terms_of(slug: str) -> frozenset[str]:
    return frozenset(normalise(t) for t in STRONG_TERMS.get(slug, ()))


def terms_of(category: Mapping[str, Any]) -> tuple[str, ...]:
    """The normalised terms for a catalogue category (its name first)."""
    slug = str(category.get("slug") or "")
    name = normalise(str(category.get("name") or ""))
    names = tuple(normalise(part).strip() for part in name.replace("&", ",").split(",") if part.strip())
    listed = (*CATEGORY_TERMS.get(slug, ()), *STRONG_TERMS.get(slug, ()))
    return tuple(dict.fromkeys((*names, *(normalise(t) for t in listed))))


_ASKING = re.compile(r"\b(?:whether|ob|si es|est-ce)\b|\?")
_NEGATION = re.compile(r"\b(?:not|isn't|never|nicht|kein|keine|no es|n'est pas|ne pas|sin ser)\b")


def terms_in(quote: str, category: Mapping[str, Any]) -> set[str]:
    """The category's terms a quote contains (whole words), unless the quote denies or asks.

    "People ask whether Pagewright is a no-code tool. It is not" must not make
    it one: a sentence with a negation or a question supports no category
    (precision over recall); the other sentences of the same quote still count
    ("... runs on your own infrastructure. An outage never takes your app down.").
    """
    found: set[str] = set()
    for sentence in sentences(normalise(quote)) or [normalise(quote)]:
        if _NEGATION.search(sentence) or _ASKING.search(sentence):
            continue  # this sentence denies or asks; the quote's other sentences still speak
        found |= {term for term in terms_of(category)
                  if term and contains_phrase(sentence, term) and not _denied(sentence, term)}
    return found


# "no no-code builder lock-in", "without a dashboard", "ohne Buchhaltung": the word right after a negator
_NEGATORS = r"(?:no|without|ohne|kein|keine|keinen|sin|sans|zonder|senza|sem)"


def _denied(sentence: str, term: str) -> bool:
    """Every mention of ``term`` in the sentence directly follows a negator."""
    mentions = len(re.findall(rf"(?<![\w-]){re.escape(term)}(?![\w-])", sentence))
    denied = len(re.findall(rf"\b{_NEGATORS}\s+{re.escape(term)}(?![\w-])", sentence))
    return mentions > 0 and denied >= mentions


# The catalogue's general category: "Tools that help people and teams get work done". A site whose defining
# sentence says the product is the software, app or system a trade runs its work on ("Kehrbuch ist die
# Branchensoftware für Bezirksschornsteinfeger", "Mangelrum är ett bokningssystem för tvättstugor") is in it
# when no narrower category has the site's words (`site_categories.py`).
GENERAL_CATEGORY = "productivity"
_WORK_SOFTWARE = re.compile(
    r"\b(?:\w*software|apps?|application|aplicaci[o\u00f3]n|aplicaci\u00f3|applicazione|aplikac\w*|appen|sovellu\w*"
    r"|\w*system|sistema|syst[e\u00e8]me|programa|programm|logiciel|gestor|gestion|gesti\u00f3n|\w*verwaltung"
    r"|\w*j\u00e4rjestelm\u00e4|plattform|platform|plateforme|plataforma|sustav|softver|platforma"
    r"|\u03c3\u03cd\u03c3\u03c4\u03b7\u03bc\u03b1|\u03b5\u03c6\u03b1\u03c1\u03bc\u03bf\u03b3\u03ae|\u03bb\u03bf\u03b3\u03b9\u03c3\u03bc\u03b9\u03ba\u03cc|\u03c0\u03bb\u03b1\u03c4\u03c6\u03cc\u03c1\u03bc\u03b1)\b"
)
# "Prüfstand ist freie Software unter der EUPL-1.2": the licence, not what the software does
_LICENCE_STATEMENT = re.compile(
    r"\b(?:free|freie|libre|livre|libero|vrije|open[- ]source|quelloffene)\s+software\b|\blogiciel libre\b"
    r"|\bsoftware (?:libre|livre|libero)\b"
)
# "X is …", "X ist …", "X es …", "X est …", "X är …", "X on …", "X je …": the sentence says what the product is
_DEFINES = re.compile(
    r"^[^\s,:;]+(?:\s+[^\s,:;]+)?\s+(?:is|ist|es|est|\u00e8|er|\u00e4r|on|je|jest|este|\u00e9|to|zijn|ir|\u03b5\u03af\u03bd\u03b1\u03b9)\s"
)


# "Colmena gestiona tu coworking", "Pétrin planifie la production des boulangeries": the product doing an
# office's work, said as what it does
_DOES_THE_WORK = re.compile(
    r"^[^\s,:;]+(?:\s+[^\s,:;]+)?\s+(?:manages|plans|organises|organizes|schedules|gestiona|planifica|organiza"
    r"|planifie|g\u00e8re|organise|verwaltet|plant|organisiert|organitza|gestisce|organizza|beheert|planerar"
    r"|planlegger)\s"
)


# "… is a REST API that tells your software …": what follows a relative pronoun says what the product does, not
# what it is; the software it names there is its users'
_RELATIVE = re.compile(r"\s(?:that|which|who|whose|qui|que|che|dat|welche[rs]?)\s")
# an app is a tool for work when the sentence says whom it serves ("a meal-planning app for households",
# "aplikacija za iznajmljivače") or the work it runs ("a booking app"); "a plant care app" says neither
_APP = re.compile(r"\b(?:apps?|appen|application|aplicaci[o\u00f3]n|aplicaci\u00f3|applicazione|aplikac\w*|sovellu\w*"
                  r"|\u03b5\u03c6\u03b1\u03c1\u03bc\u03bf\u03b3\u03ae)\b")
_AUDIENCE = re.compile(r"\b(?:for|f\u00fcr|para|pour|per|voor|f\u00f6r|za|pentru|til|dla|pro|\u03b3\u03b9\u03b1)\s+\S")
_WORK_DONE = re.compile(r"(?:planning|planung|booking|buchung|scheduling|management|verwaltung|gesti[o\u00f3]n|gestor"
                        r"|reserv\w*|invoic\w*|quot\w*|job|jobs|orders?|tasks?|inspect\w*"
                        # tasks, in the languages the drafter reads, also ending a compound ("dugnadsoppgaver")
                        r"|oppgaver|uppgifter|opgaver|aufgaben|t\u00e2ches|tareas|compiti|taken)\b")


def names_work_software(quote: str) -> bool:
    """The quote's first clause says the product is a piece of software, an app or a system, or that it
    manages, plans or organises its users' work, and denies nothing: "Gearloft is job-card and repair-queue
    software for independent bicycle workshops", "Kulisse plant Proben, Rollen und Aufführungen". The software
    word must name the product (not "your software" in what it does), and an app must say whom it serves or
    the work it runs: "Sprigly is a plant care app that learns …" is not a tool for getting work done."""
    head = re.split(r"[:;,.\u2013\u2014]", normalise(quote), maxsplit=1)[0]
    product = _RELATIVE.split(head, maxsplit=1)[0]  # what the product is, before what it does
    software = _WORK_SOFTWARE.search(product)
    if software and _APP.fullmatch(software.group(0)) and not _WORK_SOFTWARE.search(product[software.end():]):
        software = software if _AUDIENCE.search(head[software.end():]) or _WORK_DONE.search(product) else None
    said = bool(_DEFINES.search(head) and software and not _LICENCE_STATEMENT.search(head)) \
        or bool(_DOES_THE_WORK.search(head))
    return said and not _NEGATION.search(head) and not _ASKING.search(head)
