"""The submission pipeline on fixture websites: real PostgreSQL, the real crawler on 127.0.0.1, the real
extractive drafter, the in-process job queue.

For each fixture site the drafted profile (as get_draft shows it) must state
nothing the allowed, visible pages do not state, back every value with a
quote that is on its page in the stored crawl, and find most of what the site
does state (recall printed, at least 0.7). Failures end in `failed` with a
reason; stalled work is re-queued or timed out by the sweeper.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta
from typing import Any

import fakeredis
import pytest

from commands import draft as draft_cmd
from events.draft import DraftCrawled
from tests.fixtures.drafting_sites import serve
from tests.fixtures.sites.server import Body, FixtureServer, Huge, free_port_without_listener
from tests.integration import draft_helpers as h
from workers.crawl_store import TABLE as CRAWLS
from workers.adapters.websites import CrawlResult
from workers.draft_jobs import DraftSweeper, QueueJobs, crawl_draft
from workers.adapters.redis_queue import RQJobQueue

SITES = ("saas", "polite", "traps", "devtool", "studio", "market")
MIN_RECALL = 0.7
RECALL: dict[str, tuple[int, int]] = {}


pytestmark = pytest.mark.usefixtures("draft_context")  # `c` and `draft_context`: conftest.py


def stored_crawl(c: Any, draft_id: Any) -> CrawlResult:
    state = draft_cmd.load(c.store, draft_id)
    assert state.crawl_id is not None
    return CrawlResult.from_dict(h.sub_of(c).crawls.load(draft_id, state.crawl_id))


def drafted(c: Any, site: str) -> tuple[dict[str, Any], CrawlResult, str, list[str]]:
    who = h.account()
    with serve(site) as server:
        submitted = h.submit(c, server.url("/"), who)
        assert not submitted.existing
        assert h.wait_status(c, submitted.draft_id) == "ready"
        requests = server.paths()
    h.settle(c)
    return h.doc(c, submitted.draft_id, who), stored_crawl(c, submitted.draft_id), server.base, requests


# ---------------------------------------------------------------- fixture sites


@pytest.mark.parametrize("site", SITES)
def test_site_is_drafted_with_checked_evidence_and_nothing_invented(
    c: Any, site: str, capsys: pytest.CaptureFixture[str]
) -> None:
    doc, crawl, base, requests = drafted(c, site)
    facts = h.expected(site, base)
    assert doc["status"] == "ready" and doc["failure"] is None and doc["drafter"] == "extractive"

    shown = json.dumps(doc, ensure_ascii=False).replace(base, "{{BASE}}")
    for forbidden in facts["never"]:
        assert forbidden not in shown, f"{site}: {forbidden!r} must never be drafted"
    for name in facts["not_stated"]:
        assert doc["fields"][name] == {"value": None, "state": "not_found", "evidence": []}, name
        assert name in doc["not_found_on_website"]
    assert sorted(f["name"] for f in doc["founders"]) == sorted(facts["founders_exactly"])
    for skipped in crawl.skipped:  # robots-forbidden pages were never requested, so never quoted
        if skipped.reason == "robots_disallowed":
            assert skipped.url.removeprefix(base) not in requests

    evidence = list(h.all_evidence(doc))
    assert evidence, "a drafted site has quotes"
    for quote in evidence:
        assert h.evidence_checks_out(crawl, quote), quote
    for key, url in doc["company_socials"].items():  # links carry evidence too: the page and the link shown there
        shown = doc["social_evidence"][key]
        assert shown, key
        for quote in shown:
            assert h.evidence_checks_out(crawl, quote) or quote["url"] == quote["quote"] == url, (key, quote)
    for name, slot in doc["fields"].items():
        assert slot["state"] in ("ai", "not_found"), name
        assert (slot["state"] == "ai") == bool(slot["evidence"]) == (slot["value"] is not None), name
        assert (slot["state"] == "not_found") == (name in doc["not_found_on_website"]), name
    assert 0 <= doc["completeness"] <= 100 and set(doc["missing"]) <= set(doc["fields"])

    found = [fact for fact in facts["facts"] if h.fact_found(doc, fact)]
    RECALL[site] = (len(found), len(facts["facts"]))
    recall = len(found) / len(facts["facts"])
    missed = [fact for fact in facts["facts"] if fact not in found]
    with capsys.disabled():
        print(f"\n[submission recall] {site}: {len(found)}/{len(facts['facts'])} = {recall:.2f} "
              f"(completeness {doc['completeness']}){' missed: ' + json.dumps(missed) if missed else ''}")
    assert recall >= MIN_RECALL


def test_overall_recall(capsys: pytest.CaptureFixture[str]) -> None:
    if len(RECALL) < len(SITES):
        pytest.skip("needs every site test of this module")
    found = sum(f for f, _ in RECALL.values())
    total = sum(t for _, t in RECALL.values())
    with capsys.disabled():
        print(f"\n[submission recall] all sites: {found}/{total} = {found / total:.2f}")
    assert found / total >= MIN_RECALL


# ---------------------------------------------------------------- failures


def test_robots_forbidden_site_fails_with_that_reason_and_nothing_else_is_fetched(c: Any) -> None:
    who = h.account()
    with FixtureServer("closed") as server:
        submitted = h.submit(c, server.url("/"), who)
        assert h.wait_status(c, submitted.draft_id) == "failed"
        requests = server.paths()
    h.settle(c)
    doc = h.doc(c, submitted.draft_id, who)
    assert doc["status"] == "failed" and doc["failure"]["reason"] == "robots_forbidden"
    assert doc["failure"]["stage"] == "crawl" and "robots_disallowed" in doc["failure"]["detail"]
    assert requests == ["/robots.txt"]
    assert doc["fields"] == {} and doc["listing_id"] is None


def test_a_homepage_that_is_not_html_fails_as_not_html(c: Any) -> None:
    who = h.account()
    routes = {"/robots.txt": Body(b"", "text/plain", status=404), "/": Body(b"%PDF-1.4 ...", "application/pdf")}
    with FixtureServer(routes=routes) as server:
        submitted = h.submit(c, server.url("/"), who)
        assert h.wait_status(c, submitted.draft_id) == "failed"
    assert draft_cmd.load(c.store, submitted.draft_id).failure["reason"] == "not_html"  # type: ignore[index]


def test_an_unreachable_site_is_retried_then_fails_as_site_unreachable(c: Any) -> None:
    who = h.account()
    submitted = h.submit(c, f"http://127.0.0.1:{free_port_without_listener()}/", who)
    assert h.wait_status(c, submitted.draft_id, timeout=60) == "failed"
    h.settle(c)
    doc = h.doc(c, submitted.draft_id, who)
    assert doc["failure"]["reason"] == "site_unreachable" and doc["crawl"]["attempts"] == 3
    assert doc["crawl"]["last_error"] is not None


def test_huge_pages_are_cut_and_the_worker_survives(c: Any) -> None:
    who = h.account()
    routes = {"/robots.txt": Body(b"", "text/plain", status=404), "/": Huge(size=60_000_000)}
    with FixtureServer(routes=routes) as server:
        submitted = h.submit(c, server.url("/"), who)
        # 2 MB of short paragraphs is about 45,000 lines to read: tens of seconds of CPU on a slow machine
        assert h.wait_status(c, submitted.draft_id, timeout=180) == "ready"
    crawl = stored_crawl(c, submitted.draft_id)
    home = crawl.homepage
    assert home is not None and home.truncated and home.bytes <= h.sub_of(c).crawl_settings.max_page_bytes
    stats = h.sub_of(c).crawls.stats(submitted.draft_id)
    assert stats[0]["stored_bytes"] < stats[0]["raw_bytes"]  # kept compressed
    (crawled,) = [e for e in c.store.stream(submitted.draft_id) if isinstance(e, DraftCrawled)]
    assert crawled.bytes == stats[0]["raw_bytes"] and len(crawled.digest) == 64  # the event stays small
    doc, _, _, _ = drafted(c, "polite")  # the same workers go on working
    assert doc["status"] == "ready"


def test_a_draft_job_that_keeps_failing_ends_failed_with_a_reason(c: Any) -> None:
    who = h.account()
    sub = h.sub_of(c)
    with serve("polite") as server:
        submitted = draft_cmd.submit_listing(c.store, draft_cmd.SubmitListing(url=server.url("/")), who, h.meta(who),
                                             check_url=lambda url, field: None, jobs=None)
        holding = RQJobQueue(fakeredis.FakeRedis(server=fakeredis.FakeServer()))  # keeps the next job, runs nothing
        crawl_draft(replace(sub, queue=holding), str(submitted.draft_id))
    assert draft_cmd.load(c.store, submitted.draft_id).status == "drafting"
    with c.pool.connection() as conn:
        conn.execute(f"DELETE FROM {CRAWLS} WHERE draft_id=%s", (submitted.draft_id,))
    QueueJobs(sub.queue).draft(submitted.draft_id)
    assert h.wait_status(c, submitted.draft_id, timeout=30) == "failed"
    failure = draft_cmd.load(c.store, submitted.draft_id).failure
    assert failure is not None and failure["reason"] == "drafting_failed" and "CrawlMissing" in failure["detail"]
    assert failure["stage"] == "draft"


def test_the_sweeper_requeues_lost_work_and_times_out_stalled_work(c: Any) -> None:
    sub = h.sub_of(c)
    who = h.account()
    with serve("studio") as server:
        lost = draft_cmd.submit_listing(c.store, draft_cmd.SubmitListing(url=server.url("/")), who, h.meta(who),
                                        check_url=lambda url, field: None, jobs=None)  # queued nowhere: a lost queue
        h.settle(c)
        assert draft_cmd.load(c.store, lost.draft_id).status == "crawling"
        counts = DraftSweeper(replace(sub, resume_after=timedelta(0))).sweep_once()
        assert counts["requeued"] >= 1
        assert h.wait_status(c, lost.draft_id) == "ready"
    h.settle(c)
    stalled = draft_cmd.submit_listing(c.store, draft_cmd.SubmitListing(url="http://127.0.0.1:9/"), who, h.meta(who),
                                       check_url=lambda url, field: None, jobs=None)
    h.settle(c)
    counts = DraftSweeper(replace(sub, resume_after=timedelta(0), timeout=timedelta(0))).sweep_once()
    assert counts["timed_out"] >= 1
    h.settle(c)
    doc = h.doc(c, stalled.draft_id, who)
    assert (doc["status"], doc["failure"]["reason"], doc["failure"]["stage"]) == ("failed", "timeout", "timeout")
    assert h.doc(c, lost.draft_id, who)["status"] == "ready"


# ---------------------------------------------------------------- redrafts and the competitor


def test_regenerate_redrafts_from_the_stored_crawl_and_skips_locked_fields(c: Any) -> None:
    who = h.account()
    with serve("saas") as server:
        submitted = h.submit(c, server.url("/"), who)
        assert h.wait_status(c, submitted.draft_id) == "ready"
        h.settle(c)
        before = h.doc(c, submitted.draft_id, who)
        fetched = len(server.paths())
        h.update(c, who, submitted.draft_id, fields={"description": None, "city": "Porto"}, lock_fields=["city"])
        h.update(c, who, submitted.draft_id, regenerate=["description", "city", "faqs"])
        h.settle(c)
        after = h.doc(c, submitted.draft_id, who)
        assert len(server.paths()) == fetched, "regenerate must not crawl again"
    assert after["fields"]["description"] == before["fields"]["description"]
    assert after["fields"]["description"]["state"] == "ai"
    assert after["fields"]["city"] == {"value": "Porto", "state": "override", "evidence": []}
    assert after["faqs"] == before["faqs"] and after["section_states"]["faqs"] == "ai"
    last = after["last_regeneration"]
    assert last["status"] == "done" and last["skipped"] == ["city"] and sorted(last["fields"]) == ["description", "faqs"]
    assert after["regenerating"] == []


def test_a_competitor_is_crawled_and_compared(c: Any) -> None:
    who = h.account()
    with serve("saas") as own, serve("devtool") as rival:
        submitted = h.submit(c, own.url("/"), who)
        assert h.wait_status(c, submitted.draft_id) == "ready"
        h.update(c, who, submitted.draft_id, competitor_url=rival.url("/"))
        h.settle(c)
        doc = h.doc(c, submitted.draft_id, who)
    competitor = doc["competitor"]
    assert competitor["status"] == "compared" and competitor["url"] == rival.url("/")
    comparison = competitor["comparison"]
    assert comparison["competitor"]["site"] == rival.base
    assert {row["fact"] for row in comparison["rows"]} >= {"name", "pricing_model"}
    assert [s["kind"] for s in h.sub_of(c).crawls.stats(submitted.draft_id)] == ["site", "competitor"]
    h.update(c, who, submitted.draft_id, competitor_url="")
    h.settle(c)
    assert h.doc(c, submitted.draft_id, who)["competitor"] is None


def test_the_sweeper_prunes_competitor_crawls_and_failed_drafts_crawls_after_the_retention(c: Any) -> None:
    who = h.account()
    sub = h.sub_of(c)
    with serve("saas") as own, serve("devtool") as rival, serve("studio") as other:
        kept = h.submit(c, own.url("/"), who)
        assert h.wait_status(c, kept.draft_id) == "ready"
        h.update(c, who, kept.draft_id, competitor_url=rival.url("/"))
        h.settle(c)
        failed = draft_cmd.submit_listing(c.store, draft_cmd.SubmitListing(url=other.url("/")), who, h.meta(who),
                                          check_url=lambda url, field: None, jobs=None)
        holding = RQJobQueue(fakeredis.FakeRedis(server=fakeredis.FakeServer()))  # the drafting job never runs
        crawl_draft(replace(sub, queue=holding), str(failed.draft_id))
    h.settle(c)
    hour_later = replace(sub, queue=holding, clock=lambda: sub.clock() + timedelta(hours=1))
    assert DraftSweeper(hour_later).sweep_once()["timed_out"] == 1  # its drafting stalled: it fails
    h.settle(c)
    assert h.doc(c, failed.draft_id, who)["status"] == "failed"

    def kinds(draft_id: Any) -> list[str]:
        return [s["kind"] for s in sub.crawls.stats(draft_id)]

    assert (kinds(kept.draft_id), kinds(failed.draft_id)) == (["site", "competitor"], ["site"])
    DraftSweeper(sub).sweep_once()  # within the retention nothing of these drafts goes
    assert (kinds(kept.draft_id), kinds(failed.draft_id)) == (["site", "competitor"], ["site"])
    month_later = replace(sub, clock=lambda: sub.clock() + sub.crawl_retention + timedelta(hours=1))
    assert DraftSweeper(month_later).sweep_once()["pruned"] >= 2  # (other tests of this module share the table)
    assert (kinds(kept.draft_id), kinds(failed.draft_id)) == (["site"], [])
    # The ready draft keeps its own crawl: regenerate still reads it.
    h.update(c, who, kept.draft_id, regenerate=["description"])
    h.settle(c)
    assert h.doc(c, kept.draft_id, who)["last_regeneration"]["status"] == "done"
