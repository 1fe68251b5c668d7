"""The `ai_review` product's review through the drafter's Anthropic client, against recorded Messages API responses.

The official SDK really runs and sends its request through an
``httpx2.MockTransport`` that checks what was sent and answers with a
recording from ``tests/fixtures/anthropic`` (the drafter's tests do the same).
When the model fails or answers unusably, the documented rule-based review is
delivered instead, and `made_by` says so.
"""

from __future__ import annotations

import json

import httpx2
import pytest

from aggregates import listing
from aggregates.listing import ListingState
from aggregates.order.review import RULES, review_points, rule_review
from tests.unit.test_drafting_anthropic import API_KEY, MODEL, Replay, drafter
from workers.adapters.anthropic_api import AnthropicDrafter
from workers.profile_review import SYSTEM, ProfileReviewer

BASE = "https://acmeflow.example"
PROFILE = ListingState(
    id=listing.listing_stream(7), version=4, listing_id=7, slug="acme-flow", owner_ids=("acct-1",), status="live",
    profile={"name": "Acme Flow", "tagline": "Workflow automation for small teams that hate busywork",
             "description": "Acme Flow connects your tools and runs the busywork for you.",
             "features": ["Visual workflow builder", "120 integrations"], "pricing_model": "subscription",
             "pricing_summary": "Starter 19 EUR per month."},
    categories=("no-code",), socials={"x": "https://x.example/acme", "github": "https://github.example/acme"})


def reviewer(replay: Replay) -> tuple[ProfileReviewer, AnthropicDrafter]:
    model = drafter(replay)
    return ProfileReviewer(model), model


def test_the_model_writes_the_review_from_the_profile_and_the_rules_findings() -> None:
    replay = Replay("review_profile.json", BASE)
    written, _ = reviewer(replay)
    review = written.review(PROFILE)
    assert review.made_by == f"anthropic:{MODEL}"
    assert review.text.startswith("Review of Acme Flow\n\n")
    assert "Acme Flow: workflow automation for small teams" in review.text
    body, headers = replay.requests[0], replay.headers[0]
    assert headers.get("x-api-key") == API_KEY or headers.get("authorization") == f"Bearer {API_KEY}"
    assert body["model"] == MODEL and body["system"] == SYSTEM
    assert "tools" not in body and "tool_choice" not in body  # a plain text answer, not the drafter's tool
    prompt = body["messages"][0]["content"]
    facts = json.loads(prompt.split("The profile, as JSON:\n", 1)[1].split("\n\nThe site's rules found:", 1)[0])
    assert facts["name"] == "Acme Flow" and facts["socials"] == PROFILE.socials
    for point in review_points(PROFILE):  # the model is handed every point the rules find
        assert f"- {point}" in prompt


@pytest.mark.parametrize(("recording", "status"), [
    ("error_529_overloaded.json", 529),  # the API is overloaded
    ("error_500_api_error.json", 500),  # the API failed
    ("review_cut_at_max_tokens.json", 200),  # the reply was cut: half a review is not delivered
])
def test_a_failing_model_falls_back_to_the_rule_based_review(recording: str, status: int) -> None:
    written, _ = reviewer(Replay(recording, BASE, status=status))
    review = written.review(PROFILE)
    assert review == rule_review(PROFILE)
    assert review.made_by == RULES


def test_a_reply_without_text_falls_back_too() -> None:
    empty = json.dumps({"id": "msg_x", "type": "message", "role": "assistant", "model": MODEL, "content": [],
                        "stop_reason": "end_turn", "stop_sequence": None,
                        "usage": {"input_tokens": 800, "output_tokens": 0}}).encode()

    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, content=empty, headers={"content-type": "application/json"})

    client = httpx2.Client(transport=httpx2.MockTransport(handler))
    model = AnthropicDrafter(API_KEY, MODEL, base_url="https://api.anthropic.test", http_client=client, max_retries=0)
    assert ProfileReviewer(model).review(PROFILE) == rule_review(PROFILE)


def test_without_a_model_the_review_is_the_rule_based_one() -> None:
    review = ProfileReviewer().review(PROFILE)
    assert review.made_by == RULES
    assert review.text == rule_review(PROFILE).text
    assert "Add a logo" in review.text and "Make the tagline" not in review.text  # 54 characters: within 30..80


@pytest.mark.parametrize("failure", ["unreachable", "garbage"])
def test_an_unreachable_api_or_a_garbled_reply_falls_back_too(failure: str) -> None:
    def handler(request: httpx2.Request) -> httpx2.Response:
        if failure == "unreachable":
            raise httpx2.ConnectError("connection refused", request=request)
        return httpx2.Response(200, content=b"<html>gateway</html>", headers={"content-type": "application/json"})

    client = httpx2.Client(transport=httpx2.MockTransport(handler))
    model = AnthropicDrafter(API_KEY, MODEL, base_url="https://api.anthropic.test", http_client=client, max_retries=0)
    assert ProfileReviewer(model).review(PROFILE) == rule_review(PROFILE)
