"""Shared pieces of the draft tests: a container that may crawl 127.0.0.1, submitting, waiting, expected facts."""

from __future__ import annotations

import json
import time
import unicodedata
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

from aggregates.base import Meta
from bench.draft_quality import metadata_values
from commands import draft as draft_cmd
from queries import drafts as drafts_q
from workers.adapters.websites import CrawlResult
from workers.draft_jobs import QueueJobs, SubmissionContext, url_guard

ROOT = Path(__file__).resolve().parents[2]
EXPECTED_DIR = ROOT / "tests" / "fixtures" / "drafting_expected"


def meta(account: str, channel: str = "rest") -> Meta:
    return Meta(at=datetime.now(timezone.utc), actor=f"account:{account}", channel=channel)


def account() -> str:
    return "acct-" + uuid4().hex[:10]


def sub_of(c: Any) -> SubmissionContext:
    return c.draft_workers.submission  # type: ignore[no-any-return]


def submit(c: Any, url: str, who: str) -> draft_cmd.Submitted:
    sub = sub_of(c)
    return draft_cmd.submit_listing(c.store, draft_cmd.SubmitListing(url=url), who, meta(who),
                                    check_url=url_guard(sub.crawl_settings), jobs=QueueJobs(sub.queue))


def update(c: Any, who: str, draft_id: UUID, **body: Any) -> int:
    sub = sub_of(c)
    cmd = draft_cmd.UpdateDraft.model_validate({"id": str(draft_id), **body})
    return draft_cmd.update_draft(c.store, cmd, who, meta(who), check_url=url_guard(sub.crawl_settings),
                                  jobs=QueueJobs(sub.queue))


def settle(c: Any, timeout: float = 60.0) -> None:
    """Wait until the job queue is idle and the draft view has caught up."""
    assert sub_of(c).queue.wait_idle(timeout), "jobs did not finish"
    assert c.runtime.wait_for(["draft_view"], c.store.position(), 10.0)


def doc(c: Any, draft_id: UUID, who: str) -> dict[str, Any]:
    return drafts_q.get_draft(c.services.reads, draft_id, who, c.services.now())


def wait_status(c: Any, draft_id: UUID, statuses: tuple[str, ...] = ("ready", "failed"), timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = draft_cmd.load(c.store, draft_id).status
        if status in statuses:
            return status
        time.sleep(0.05)
    raise AssertionError(f"draft {draft_id} still {draft_cmd.load(c.store, draft_id).status}")


# ---------------------------------------------------------------- expected facts (tests/fixtures/drafting_expected)


def expected(site: str, base: str) -> dict[str, Any]:
    text = (EXPECTED_DIR / f"{site}.json").read_text(encoding="utf-8").replace("{{BASE}}", base)
    return json.loads(text)  # type: ignore[no-any-return]


def norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def value_of(draft: dict[str, Any], name: str) -> Any:
    slot = draft["fields"].get(name) or {}
    return slot.get("value")


def fact_found(draft: dict[str, Any], fact: dict[str, Any]) -> bool:
    """Whether a draft document (get_draft) states a hand-written fact."""
    if "faq" in fact:
        return any(norm(f["question"]) == norm(fact["faq"]) for f in draft["faqs"])
    if "founder" in fact:
        person = next((f for f in draft["founders"] if norm(f["name"]) == norm(fact["founder"])), None)
        return person is not None and norm(fact.get("title_contains", "")) in norm(person.get("title") or "")
    if "social" in fact:
        return draft["company_socials"].get(fact["social"]) == fact["url"]
    value = value_of(draft, fact["field"])
    if value is None:
        return False
    if "item" in fact:
        return isinstance(value, list) and any(norm(v) == norm(fact["item"]) for v in value)
    if "equals" in fact:
        return norm(str(value)) == norm(fact["equals"])
    if "one_of" in fact:
        return norm(str(value)) in {norm(v) for v in fact["one_of"]}
    return norm(fact["contains"]) in norm(str(value))


def all_evidence(draft: dict[str, Any]) -> Iterator[dict[str, str]]:
    for slot in draft["fields"].values():
        yield from slot["evidence"]
    for item in [*draft["faqs"], *draft["founders"]]:
        yield from item.get("evidence") or []


def evidence_checks_out(crawl: CrawlResult, evidence: dict[str, str]) -> bool:
    """The quote is in the named crawled page's visible text, or in one of its metadata values."""
    page = crawl.page(evidence["url"])
    if page is None or not page.robots_allowed:
        return False
    quote = norm(evidence["quote"])
    if evidence["source"] == "text":
        return quote in norm(page.text)
    return any(quote in norm(v) for v in [page.title, *page.links, *metadata_values(page.structured)])
