"""The model drafter against recorded Messages API responses, replayed at the HTTP transport.

The official SDK really runs: it builds and sends the request through an
``httpx2.MockTransport`` (the SDK is built on httpx2) whose handler checks
what was sent and answers with a recording from ``tests/fixtures/anthropic``.
Whatever the recording says, only values whose quotes are on the crawled
pages and support them may come out.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.fixtures.drafting_sites import crawl_from_files
from workers.adapters.anthropic_api import AnthropicDrafter
from workers.adapters.websites import CrawlResult
from workers.drafting import (
    FIELD_NAMES,
    DraftingFailed,
    ExtractiveDrafter,
    ProfileDraft,
    draft_with_fallback,
    verify,
)

RECORDINGS = Path(__file__).resolve().parents[1] / "fixtures" / "anthropic"
MODEL = "claude-sonnet-4-6"
API_KEY = "sk-ant-test-key"
CATEGORIES = json.loads((Path(__file__).resolve().parents[2] / "launchdir" / "data" / "catalog.json").read_text())["categories"]
SAAS = "https://acmeflow.example"
TRAPS = "https://lumen.example"


def recording(name: str, base: str) -> bytes:
    return (RECORDINGS / name).read_text(encoding="utf-8").replace("{{BASE}}", base).encode("utf-8")


class Replay:
    """A transport handler: checks each request, then answers with one recording."""

    def __init__(self, name: str, base: str, status: int = 200) -> None:
        self.body = recording(name, base)
        self.status = status
        self.requests: list[dict[str, Any]] = []
        self.headers: list[httpx2.Headers] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        assert request.method == "POST"
        assert request.url.path == "/v1/messages"
        self.headers.append(request.headers)
        self.requests.append(json.loads(request.content))
        return httpx2.Response(self.status, content=self.body, headers={"content-type": "application/json", "request-id": "req_test"})


def drafter(handler: Callable[[httpx2.Request], httpx2.Response], **kwargs: Any) -> AnthropicDrafter:
    client = httpx2.Client(transport=httpx2.MockTransport(handler))
    return AnthropicDrafter(API_KEY, MODEL, base_url="https://api.anthropic.test", http_client=client, max_retries=0, **kwargs)


@pytest.fixture(scope="module")
def saas() -> CrawlResult:
    return crawl_from_files("saas", SAAS, ["/", "/about", "/pricing", "/faq", "/team", "/contact", "/features"])


@pytest.fixture(scope="module")
def traps() -> CrawlResult:
    return crawl_from_files("traps", TRAPS, ["/", "/about"])


def test_the_request_carries_the_model_the_tool_and_the_pages(saas: CrawlResult) -> None:
    replay = Replay("saas_record_profile.json", SAAS)
    drafter(replay).draft(saas, CATEGORIES)
    assert len(replay.requests) == 1
    body, headers = replay.requests[0], replay.headers[0]
    assert headers.get("x-api-key") == API_KEY or headers.get("authorization") == f"Bearer {API_KEY}"
    assert headers["anthropic-version"]
    assert body["model"] == MODEL
    assert body["max_tokens"] == 4096
    assert [t["name"] for t in body["tools"]] == ["record_profile"]
    assert body["tool_choice"] == {"type": "tool", "name": "record_profile"}
    schema = body["tools"][0]["input_schema"]
    fields = schema["properties"]["fields"]
    assert set(fields["required"]) == set(FIELD_NAMES) == set(fields["properties"])
    for name in FIELD_NAMES:
        assert fields["properties"][name]["required"] == ["value", "evidence"]
        assert "null" in fields["properties"][name]["properties"]["value"]["type"]
        evidence = fields["properties"][name]["properties"]["evidence"]["items"]
        assert evidence["required"] == ["url", "quote"]
    assert set(schema["required"]) == {"fields", "faqs", "founders", "company_socials"}
    assert "never guess" in body["system"].lower() and "null" in body["system"]
    prompt = body["messages"][0]["content"]
    for page in saas.pages:
        assert f'<page url="{page.url}">' in prompt
    assert "Acme Flow connects your tools and runs the busywork for you." in prompt
    assert "- no-code: No-code" in prompt
    assert "not-visible-text" not in prompt  # the page's script never reached the crawl text


def test_good_values_are_kept_and_invented_or_unsupported_ones_dropped(saas: CrawlResult) -> None:
    draft = drafter(Replay("saas_record_profile.json", SAAS)).draft(saas, CATEGORIES)
    assert draft.drafter == f"anthropic:{MODEL}"
    kept = {name: fd.value for name, fd in draft.fields.items() if fd.has_value}
    assert kept == {
        "name": "Acme Flow",
        "tagline": "Workflow automation for small teams",
        "short_description": "Acme Flow connects your tools and runs the busywork for you.",
        "description": "Acme Flow connects your tools and runs the busywork for you. Trusted by 1,200 teams in 30 countries.",
        "pricing_summary": "Starter 19 EUR per month. Team 49 EUR per month.",
        "city": "Lisbon",
        "country": "PT",  # Lisbon is a town of one country only: naming it names Portugal
        "contact_email": "hello@acmeflow.example",
        "logo_url": SAAS + "/assets/logo.png",
        "features": ["Visual workflow builder", "120 integrations"],
        "keywords": ["workflow", "automation"],
    }
    # invented: "Founded in 2011" is nowhere on the site
    assert draft.fields["founded_year"].state == "not_found"
    assert "founded_year" in draft.not_found_on_website
    founded = next(d for d in draft.dropped if d["field"] == "founded_year")
    assert founded["value"] == "2011" and founded["quotes"][0]["quote"] == "Founded in 2011"
    # a real quote, an unsupported value: a free trial is not freemium
    for name, value in (("pricing_model", "freemium"),):
        assert draft.fields[name].state == "not_found" and name in draft.not_found_on_website
        entry = next(d for d in draft.dropped if d["field"] == name)
        assert entry["value"] == value and entry["reason"] == "value not supported by its quotes"
    assert "usps" in draft.not_found_on_website
    dropped_items = {(d["field"], d["value"]) for d in draft.dropped if d["kind"] == "item"}
    assert dropped_items == {("features", "AI copilot"), ("categories", "crm"), ("categories", "no-code")}
    # "Workflow automation for small teams" never says no-code: a category needs the site's own words
    assert "categories" in draft.not_found_on_website
    assert [f["question"] for f in draft.faqs] == ["Can I cancel anytime?"]
    assert draft.founders == []  # "Marta Silva, CEO" does not say she founded it
    assert draft.company_socials == {"x": "https://twitter.example/acmeflow", "github": "https://github.example/acmeflow"}
    assert draft.completeness == 69


def test_every_kept_quote_is_on_its_page(saas: CrawlResult) -> None:
    draft = drafter(Replay("saas_record_profile.json", SAAS)).draft(saas, CATEGORIES)
    for field in draft.fields.values():
        for evidence in field.evidence:
            page = saas.page(evidence.url)
            assert page is not None
            haystack = page.text if evidence.source == "text" else json.dumps(page.structured, ensure_ascii=False) + page.title
            assert " ".join(evidence.quote.split()) in " ".join(haystack.split())
    again = verify(draft, saas, categories=CATEGORIES)
    assert (again.fields, again.faqs, again.company_socials, again.dropped) == (draft.fields, draft.faqs, draft.company_socials, [])


def test_hidden_script_and_comment_facts_are_dropped(traps: CrawlResult) -> None:
    draft = drafter(Replay("traps_record_profile.json", TRAPS)).draft(traps, CATEGORIES)
    assert draft.value("name") == "Lumen Notes"
    assert draft.value("short_description") == "Lumen Notes is a note-taking app for researchers."
    assert draft.value("categories") == ["notes-docs"]
    for name in ("pricing_model", "usps", "description"):
        assert draft.fields[name].state == "not_found" and name in draft.not_found_on_website
    assert draft.founders == []
    shown = json.dumps({k: v for k, v in draft.to_dict().items() if k != "dropped"})
    for trap in ("TRAP-", "10 million", "Fortune 500", "SOC 2", "free forever"):
        assert trap not in shown
    # "Lumen is built by researchers at a small lab." is on /about, not on / where the model put it
    description = next(d for d in draft.dropped if d["field"] == "description")
    assert description["quotes"][0]["reason"] == "quote not found in the page's visible text"


def test_restricting_fields_asks_for_those_and_keeps_only_those(saas: CrawlResult) -> None:
    replay = Replay("saas_record_profile.json", SAAS)
    draft = drafter(replay).draft(saas, CATEGORIES, fields=["name", "founded_year"])
    assert list(draft.fields) == ["name", "founded_year"]
    assert draft.value("name") == "Acme Flow" and draft.value("founded_year") is None
    assert draft.faqs == [] and draft.company_socials == {}
    assert "Draft only these parts" in replay.requests[0]["messages"][0]["content"]


@pytest.mark.parametrize(
    ("name", "status", "reason"),
    [("error_529_overloaded.json", 529, "overloaded"), ("error_500_api_error.json", 500, "api_status")],
)
def test_api_errors_raise_drafting_failed(saas: CrawlResult, name: str, status: int, reason: str) -> None:
    replay = Replay(name, SAAS, status=status)
    with pytest.raises(DraftingFailed) as caught:
        drafter(replay).draft(saas, CATEGORIES)
    assert caught.value.reason == reason
    assert caught.value.status == status
    assert len(replay.requests) == 1


def test_the_sdk_retries_an_overload_before_giving_up(saas: CrawlResult) -> None:
    replay = Replay("error_529_overloaded.json", SAAS, status=529)
    client = httpx2.Client(transport=httpx2.MockTransport(replay))
    slow_start = AnthropicDrafter(API_KEY, MODEL, base_url="https://api.anthropic.test", http_client=client, max_retries=1)
    with pytest.raises(DraftingFailed):
        slow_start.draft(saas, CATEGORIES)
    assert len(replay.requests) == 2


def test_a_timeout_raises_drafting_failed(saas: CrawlResult) -> None:
    def slow(request: httpx2.Request) -> httpx2.Response:
        raise httpx2.ReadTimeout("timed out", request=request)

    with pytest.raises(DraftingFailed) as caught:
        drafter(slow).draft(saas, CATEGORIES)
    assert caught.value.reason == "timeout"


def test_a_reply_without_the_tool_raises_drafting_failed(saas: CrawlResult) -> None:
    with pytest.raises(DraftingFailed) as caught:
        drafter(Replay("no_tool_use.json", SAAS)).draft(saas, CATEGORIES)
    assert caught.value.reason == "no_tool_use"


def test_a_reply_cut_at_max_tokens_raises_drafting_failed(saas: CrawlResult) -> None:
    cut = json.loads(recording("saas_record_profile.json", SAAS))
    cut["stop_reason"] = "max_tokens"

    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, json=cut)

    with pytest.raises(DraftingFailed) as caught:
        drafter(handler).draft(saas, CATEGORIES)
    assert caught.value.reason == "max_tokens"


def test_fallback_yields_the_extractive_draft_when_the_api_fails(saas: CrawlResult) -> None:
    failures: list[DraftingFailed] = []
    draft = draft_with_fallback(
        drafter(Replay("error_529_overloaded.json", SAAS, status=529)), ExtractiveDrafter(), saas, CATEGORIES,
        on_failure=failures.append,
    )
    assert [f.reason for f in failures] == ["overloaded"]
    assert draft.drafter == "extractive"
    assert draft == ExtractiveDrafter().draft(saas, CATEGORIES)
    assert draft.value("name") == "Acme Flow"


def test_fallback_is_not_used_when_the_model_answers(saas: CrawlResult) -> None:
    draft = draft_with_fallback(drafter(Replay("saas_record_profile.json", SAAS)), ExtractiveDrafter(), saas, CATEGORIES)
    assert draft.drafter == f"anthropic:{MODEL}"
    assert isinstance(draft, ProfileDraft)


def test_nested_objects_sent_as_json_strings_are_read(saas: CrawlResult) -> None:
    reply = json.loads(recording("saas_record_profile.json", SAAS))
    tool_input = reply["content"][0]["input"]
    tool_input["fields"] = json.dumps(tool_input["fields"])

    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, json=reply)

    draft = drafter(handler).draft(saas, CATEGORIES)
    assert draft.value("name") == "Acme Flow" and draft.value("founded_year") is None
