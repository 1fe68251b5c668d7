"""Drafting quality on sites the drafter has never seen: found, missed, wrong, invented, evidence verified.

Each corpus site (``tests/fixtures/unseen_sites/<half>/<site>/``) is served on
127.0.0.1, crawled by the real crawler and drafted by the extractive drafter
with its evidence gate, exactly as a user's submission is (``crawl_site`` with
the submission's settings, then ``ExtractiveDrafter().draft`` which ends in
``verify``).  The draft is scored against the site's truth file
(``tests/fixtures/unseen_expected/<half>/<site>.json``):

- **found / missed**: the truth file's facts the draft states / does not state;
- **wrong**: a drafted value contradicting an ``equals``/``one_of`` fact, a value
  for a ``not_stated`` field, a category outside ``categories_allowed``, a
  founder outside ``founders_exactly``, any value containing a ``never`` string;
- **invented**: a drafted value with no support on any crawled allowed page
  (its text does not occur in any page's visible text or metadata);
- **evidence verified**: drafted values whose every evidence quote (links
  included) really occurs on the page it cites, over all drafted values;
- **recall**: found / facts.

A site whose truth says ``robots_refused`` counts as correct when the crawl is
refused (and every value drafted from it as wrong otherwise).

Run: ``python -m bench.draft_quality --half visible|blind|all [--json]``.  The
exit code is 1 when anything was invented or evidence verified is below 1.00.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.fixtures.drafting_sites import serve, serve_dir, site_dir
from workers.adapters.websites import CrawlError, CrawlResult, CrawlSettings, crawl_site
from workers.drafting import ExtractiveDrafter, ProfileDraft

ROOT = Path(__file__).resolve().parent.parent
SITES_DIR = ROOT / "tests" / "fixtures" / "unseen_sites"
EXPECTED_DIR = ROOT / "tests" / "fixtures" / "unseen_expected"
FIXTURE_EXPECTED_DIR = ROOT / "tests" / "fixtures" / "drafting_expected"  # the project's own fixture sites
CATEGORIES: list[dict[str, Any]] = [
    {"slug": c["slug"], "name": c["name"], "description": c["description"]}
    for c in json.loads((ROOT / "launchdir" / "data" / "catalog.json").read_text(encoding="utf-8"))["categories"]
]
SETTINGS = CrawlSettings(allow_loopback=True, request_timeout=3.0, total_timeout=20.0)
HALVES = ("visible", "blind")
COUNTS = ("facts", "found", "missed", "wrong", "invented", "values", "verified")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)|\n+")
_VOCAB_FIELDS = ("pricing_model", "stage", "country", "categories")  # values are codes, not words of the page


def norm(text: str) -> str:
    """Compare text as the gate does, loosely: NFKC, case folded, whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def same_value(name: str, drafted: str, stated: str) -> bool:
    """Equal after `norm`; vocabulary values also when spelt with "_" or "-" ("open_source" is "open source"); a
    drafted "one-time" or "usage-based" is the truth's "paid" (the truth files' vocabulary has no kinds of paid)."""
    if name in ("pricing_model", "stage"):
        drafted_value, stated_value = (norm(v).replace("_", " ").replace("-", " ") for v in (drafted, stated))
        # the drafter's one-time and usage-based are the kinds of paid the truth files call "paid"
        return drafted_value == stated_value or (name == "pricing_model" and stated_value == "paid"
                                                 and drafted_value in ("one time", "usage based"))
    return norm(drafted) == norm(stated)


@dataclass
class SiteScore:
    """Counts for one site, per field (``faqs``, ``founders``, ``company_socials`` count as fields)."""

    site: str
    half: str
    refused: bool = False
    per_field: dict[str, dict[str, int]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def add(self, name: str, count: str, n: int = 1) -> None:
        row = self.per_field.setdefault(name, dict.fromkeys(COUNTS, 0))
        row[count] += n

    def total(self, count: str) -> int:
        return sum(row[count] for row in self.per_field.values())

    def to_dict(self) -> dict[str, Any]:
        return {"site": self.site, "half": self.half, "refused": self.refused, "per_field": self.per_field,
                "totals": {c: self.total(c) for c in COUNTS}, "problems": self.problems}


@dataclass
class Report:
    """All sites of one run, with totals."""

    sites: list[SiteScore]

    def total(self, count: str) -> int:
        return sum(s.total(count) for s in self.sites)

    def per_field(self) -> dict[str, dict[str, int]]:
        rows: dict[str, dict[str, int]] = {}
        for site in self.sites:
            for name, row in site.per_field.items():
                into = rows.setdefault(name, dict.fromkeys(COUNTS, 0))
                for count, n in row.items():
                    into[count] += n
        return rows

    @property
    def recall(self) -> float:
        facts = self.total("facts")
        return self.total("found") / facts if facts else 1.0

    @property
    def evidence_verified(self) -> float:
        values = self.total("values")
        return self.total("verified") / values if values else 1.0

    @property
    def ok(self) -> bool:
        """What CI requires: nothing invented, every value's evidence verified."""
        return self.total("invented") == 0 and self.evidence_verified >= 1.0

    def to_dict(self) -> dict[str, Any]:
        return {"sites": [s.to_dict() for s in self.sites], "per_field": self.per_field(),
                "totals": {c: self.total(c) for c in COUNTS}, "recall": round(self.recall, 3),
                "evidence_verified": round(self.evidence_verified, 3), "ok": self.ok}


# ---------------------------------------------------------------- corpus


def corpus(half: str) -> list[tuple[str, Path, Path]]:
    """(half, site directory, truth file) for each site of ``half`` (``all`` = both; ``fixtures`` = our own sites)."""
    if half == "fixtures":
        return [(half, site_dir(truth.stem), truth) for truth in sorted(FIXTURE_EXPECTED_DIR.glob("*.json"))]
    halves = HALVES if half == "all" else (half,)
    found = []
    for name in halves:
        for truth in sorted((EXPECTED_DIR / name).glob("*.json")):
            site = SITES_DIR / name / truth.stem
            if site.is_dir():
                found.append((name, site, truth))
    return found


def score_half(half: str) -> Report:
    """Serve, crawl, draft and score every site of ``half``."""
    return Report([score_site(name, site, truth) for name, site, truth in corpus(half)])


def score_site(half: str, root: Path, truth_file: Path) -> SiteScore:
    score = SiteScore(root.name, half)
    with serve(root.name) if half == "fixtures" else serve_dir(root) as server:
        truth = json.loads(server.substitute(truth_file.read_text(encoding="utf-8")))
        try:
            crawl = crawl_site(server.url("/"), SETTINGS)
        except CrawlError as exc:
            score.refused = True
            if not truth.get("robots_refused"):
                score.problems.append(f"crawl failed: {exc}")
                for fact in truth.get("facts") or []:
                    score.add(fact_field(fact), "facts")
                    score.add(fact_field(fact), "missed")
            return score
    draft = ExtractiveDrafter().draft(crawl, CATEGORIES)
    score_draft(score, draft, crawl, truth)
    return score


# ---------------------------------------------------------------- scoring one draft


def score_draft(score: SiteScore, draft: ProfileDraft, crawl: CrawlResult, truth: dict[str, Any]) -> None:
    """Fill ``score`` from a draft and the site's truth."""
    doc = draft.to_dict()
    if truth.get("robots_refused"):
        score.problems.append("robots.txt refuses the site but it was crawled")
    for fact in truth.get("facts") or []:
        name = fact_field(fact)
        score.add(name, "facts")
        if fact_found(doc, fact):
            score.add(name, "found")
        else:
            score.add(name, "missed")
            score.problems.append(f"missed {json.dumps(fact, ensure_ascii=False)}")
    for name, value, evidence in drafted_values(draft):
        score.add(name, "values")
        reason = wrong_reason(name, value, truth, doc)
        if reason:
            score.add(name, "wrong")
            score.problems.append(f"wrong {name}={value!r}: {reason}")
        if name not in _VOCAB_FIELDS and not supported_somewhere(crawl, value):
            score.add(name, "invented")
            score.problems.append(f"invented {name}={value!r}")
        if evidence and all(evidence_on_page(crawl, e) for e in evidence):
            score.add(name, "verified")
        else:
            score.problems.append(f"unverified evidence {name}={value!r}: {evidence}")


def fact_field(fact: dict[str, Any]) -> str:
    if "faq" in fact:
        return "faqs"
    if "founder" in fact:
        return "founders"
    if "social" in fact:
        return "company_socials"
    return str(fact.get("field"))


def fact_found(doc: dict[str, Any], fact: dict[str, Any]) -> bool:
    """Whether a draft (``ProfileDraft.to_dict()``) states a hand-written fact."""
    if "faq" in fact:
        return any(norm(f["question"]) == norm(fact["faq"]) for f in doc["faqs"])
    if "founder" in fact:
        person = next((f for f in doc["founders"] if norm(f["name"]) == norm(fact["founder"])), None)
        return person is not None and norm(fact.get("title_contains", "")) in norm(person.get("title") or "")
    if "social" in fact:
        return bool(doc["company_socials"].get(fact["social"]) == fact["url"])
    value = (doc["fields"].get(fact["field"]) or {}).get("value")
    if value is None:
        return False
    if "item" in fact:
        return isinstance(value, list) and any(norm(v) == norm(fact["item"]) for v in value)
    if "equals" in fact:
        return same_value(fact["field"], str(value), fact["equals"])
    if "one_of" in fact:
        return any(same_value(fact["field"], str(value), v) for v in fact["one_of"])
    return norm(fact["contains"]) in norm(str(value))


def drafted_values(draft: ProfileDraft) -> Iterator[tuple[str, Any, list[dict[str, str]]]]:
    """(field, value, evidence) for every drafted value: each list item, FAQ, founder and link on its own."""
    for name, slot in draft.fields.items():
        if not slot.has_value:
            continue
        evidence = [e.to_dict() for e in slot.evidence]
        if isinstance(slot.value, list):
            for item in slot.value:
                yield name, item, evidence
        else:
            yield name, slot.value, evidence
    for faq in draft.faqs:
        yield "faqs", f"{faq['question']}\n\n{faq['answer']}", list(faq.get("evidence") or [])
    for person in draft.founders:
        yield "founders", person["name"], list(person.get("evidence") or [])
    for key, url in draft.company_socials.items():
        yield "company_socials", url, list(draft.social_evidence.get(key) or [])


def _contains_words(text: str, phrase: str) -> bool:
    """``phrase`` in ``text`` as whole words where it starts or ends with a letter or digit: the never-string
    "Persienne Pro" is not in "Persienne propose", "$89" is in "from $89/month"."""
    start = text.find(phrase)
    while start != -1:
        end = start + len(phrase)
        left = start == 0 or not (phrase[:1].isalnum() and text[start - 1].isalnum())
        right = end == len(text) or not (phrase[-1:].isalnum() and text[end].isalnum())
        if left and right:
            return True
        start = text.find(phrase, start + 1)
    return False


def wrong_reason(name: str, value: Any, truth: dict[str, Any], doc: dict[str, Any]) -> str:
    """Why a drafted value is wrong by the truth file ('' when it is not)."""
    text = norm(str(value))
    for never in truth.get("never") or []:
        if _contains_words(text, norm(never)):
            return f"contains the never-string {never!r}"
    if name in (truth.get("not_stated") or []):
        return "the site does not state this field"
    if name == "categories" and "categories_allowed" in truth and value not in truth["categories_allowed"]:
        return "category outside categories_allowed"
    if name == "founders" and "founders_exactly" in truth:
        if not any(norm(f) == text for f in truth["founders_exactly"]):
            return "not one of the site's founders"
    if name == "company_socials" and str(value).startswith(("http://", "https://")):
        stated = [f for f in truth.get("facts") or [] if "social" in f]
        key = next((k for k, v in doc["company_socials"].items() if v == value), "")
        if key != "website" and any(f["social"] == key and f["url"] != value for f in stated):
            return "a different link than the site's"
    for fact in truth.get("facts") or []:
        if fact.get("field") != name or isinstance(value, list):
            continue
        if "equals" in fact and not same_value(name, str(value), fact["equals"]):
            return f"the site says {fact['equals']!r}"
        if "one_of" in fact and not any(same_value(name, str(value), v) for v in fact["one_of"]):
            return f"the site says one of {fact['one_of']!r}"
    return ""


def metadata_values(data: Any) -> Iterator[str]:
    if isinstance(data, dict):
        for value in data.values():
            yield from metadata_values(value)
    elif isinstance(data, list):
        for value in data:
            yield from metadata_values(value)
    elif isinstance(data, (str, int, float)) and not isinstance(data, bool):
        yield str(data)


def _page_texts(crawl: CrawlResult) -> list[str]:
    texts = []
    for page in crawl.pages:
        if page.robots_allowed:
            texts += [norm(page.text), norm(page.title), *(norm(v) for v in page.links),
                      *(norm(v) for v in metadata_values(page.structured))]
    return texts


def supported_somewhere(crawl: CrawlResult, value: Any) -> bool:
    """Every sentence of the value occurs on some crawled allowed page (text, title, links or metadata)."""
    texts = _page_texts(crawl)
    if str(value) in (crawl.final_url, crawl.site, crawl.site + "/"):
        return True
    parts = [norm(p).rstrip(".!?;:, ") for p in _SENTENCE_END.split(str(value)) if p.strip()]
    return bool(parts) and all(any(part in t for t in texts) for part in parts)


def evidence_on_page(crawl: CrawlResult, evidence: dict[str, str]) -> bool:
    """The quote is in the cited crawled page's visible text, or in one of its metadata values or link targets."""
    page = crawl.page(str(evidence.get("url") or ""))
    if page is None or not page.robots_allowed:
        return False
    quote = norm(str(evidence.get("quote") or ""))
    if not quote:
        return False
    if evidence.get("source") == "text":
        return quote in norm(page.text)
    return any(quote in norm(v) for v in [page.url, page.title, *page.links, *metadata_values(page.structured)])


# ---------------------------------------------------------------- printing


def _row(label: str, row: dict[str, int]) -> str:
    recall = f"{row['found'] / row['facts']:.2f}" if row["facts"] else "  - "
    verified = f"{row['verified'] / row['values']:.2f}" if row["values"] else "  - "
    return (f"{label:<22} {row['facts']:>5} {row['found']:>5} {row['missed']:>6} {row['wrong']:>5} "
            f"{row['invented']:>8} {row['values']:>6} {verified:>8} {recall:>6}")


HEADER = f"{'':<22} {'facts':>5} {'found':>5} {'missed':>6} {'wrong':>5} {'invented':>8} {'values':>6} {'verified':>8} {'recall':>6}"


def print_report(report: Report, *, verbose: bool = False) -> None:
    print(HEADER)
    for site in report.sites:
        totals = {c: site.total(c) for c in COUNTS}
        label = f"{site.half[0]}/{site.site}" + (" (refused)" if site.refused else "")
        print(_row(label[:22], totals))
        if verbose:
            for problem in site.problems:
                print("    " + problem[:220])
    print("-" * len(HEADER))
    for name, row in sorted(report.per_field().items()):
        print(_row(name, row))
    print("-" * len(HEADER))
    print(_row("total", {c: report.total(c) for c in COUNTS}))
    wrong, values = report.total("wrong"), report.total("values")
    print(f"sites {len(report.sites)}  recall {report.recall:.2f}  evidence verified {report.evidence_verified:.2f}  "
          f"invented {report.total('invented')}  wrong {wrong}/{values} = {wrong / values if values else 0:.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--half", choices=("visible", "blind", "all", "fixtures"), default="visible")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--verbose", action="store_true", help="list each site's misses and problems")
    args = parser.parse_args(argv)
    report = score_half(args.half)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    else:
        print_report(report, verbose=args.verbose)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
