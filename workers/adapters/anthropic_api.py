"""The model drafter, the adapter to the Anthropic Messages API: Claude through the official
``anthropic`` SDK, with one forced tool.

The reply's ``record_profile`` tool input is a candidate like any other: it
goes through :func:`workers.drafting.verify.verify`, so invented values and
quotes that are not on the pages are dropped.  API errors and timeouts raise
:class:`DraftingFailed`; :func:`draft_with_fallback` then uses the extractive
drafter.

The same client also writes the `ai_review` product's profile review
(:meth:`AnthropicDrafter.write`, a plain text reply; the prompt and the
fallback to the rule-based review are in :mod:`workers.profile_review`).

The installed SDK is built on ``httpx2`` (the successor of ``httpx``), so a
custom ``http_client`` must be an ``httpx2.Client``; tests pass one with an
``httpx2.MockTransport`` that replays recorded Messages API responses.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

import anthropic
import httpx2
from anthropic.types import MessageParam, ToolChoiceToolParam, ToolParam

from workers.adapters.websites import CrawlResult
from workers.drafting.errors import DraftingFailed
from workers.drafting.fallback import draft_with_fallback
from workers.drafting.model import ProfileDraft
from workers.drafting.prompt import TOOL_NAME, build_prompt, record_profile_tool
from workers.drafting.verify import requested, verify

__all__ = ["AnthropicDrafter", "DraftingFailed", "build_prompt", "draft_with_fallback", "record_profile_tool"]


def _decoded(value: Any) -> Any:
    """Models sometimes send a nested object as a JSON string; read it as the object."""
    if isinstance(value, str) and value.strip()[:1] in ("{", "["):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


class AnthropicDrafter:
    """Drafts with a Claude model; every value is verified against the crawl."""

    def __init__(
        self,
        api_key: str,
        model: str,
        *,
        base_url: str | None = None,
        http_client: httpx2.Client | None = None,
        max_tokens: int = 4096,
        timeout: float = 90.0,
        max_retries: int = 2,
    ) -> None:
        self.model = model
        self.max_tokens = max_tokens
        self.drafter = f"anthropic:{model}"
        self._client = anthropic.Anthropic(
            api_key=api_key, base_url=base_url, http_client=http_client, timeout=timeout, max_retries=max_retries
        )

    def draft(
        self, crawl: CrawlResult, categories: list[dict[str, Any]], fields: list[str] | None = None
    ) -> ProfileDraft:
        """Ask the model, then keep only what :func:`verify` confirms."""
        wanted = requested(fields)
        if not crawl.pages:
            raise DraftingFailed("empty_crawl", "the crawl has no pages to draft from")
        system, user = build_prompt(crawl, categories, sorted(wanted))
        tool_input = self._ask(system, user)
        candidate = {key: _decoded(value) for key, value in tool_input.items()}
        candidate["drafter"] = self.drafter
        return verify(candidate, crawl, categories=categories, fields=wanted)

    def write(self, system: str, user: str, max_tokens: int = 2048) -> str:
        """A plain text answer to one prompt (the profile review); raises :class:`DraftingFailed` when there is none."""
        message = self._create(system, user, max_tokens)
        if message.stop_reason == "max_tokens":
            raise DraftingFailed("max_tokens", f"the reply was cut at {max_tokens} tokens")
        text = "\n\n".join(str(getattr(block, "text", "")).strip() for block in message.content
                           if getattr(block, "type", None) == "text").strip()
        if not text:
            raise DraftingFailed("empty_reply", f"the reply has no text (stop_reason {message.stop_reason})")
        return text

    def _create(self, system: str, user: str, max_tokens: int, **tool: Any) -> anthropic.types.Message:
        """One Messages API call; every SDK error becomes a :class:`DraftingFailed` with a short reason."""
        messages: list[MessageParam] = [{"role": "user", "content": user}]
        try:
            message: anthropic.types.Message = self._client.messages.create(
                model=self.model, max_tokens=max_tokens, system=system, messages=messages, **tool)
            return message
        except anthropic.APITimeoutError as exc:
            raise DraftingFailed("timeout", str(exc)) from exc
        except anthropic.APIConnectionError as exc:
            raise DraftingFailed("connection", str(exc)) from exc
        except anthropic.APIStatusError as exc:
            reason = {529: "overloaded", 429: "rate_limited"}.get(exc.status_code, "api_status")
            raise DraftingFailed(reason, f"HTTP {exc.status_code}: {exc.message}", status=exc.status_code) from exc
        except anthropic.APIError as exc:
            raise DraftingFailed("api_error", str(exc)) from exc

    def _ask(self, system: str, user: str) -> Mapping[str, Any]:
        tool_choice: ToolChoiceToolParam = {"type": "tool", "name": TOOL_NAME}
        message = self._create(system, user, self.max_tokens, tools=[cast(ToolParam, record_profile_tool())],
                               tool_choice=tool_choice)
        if message.stop_reason == "max_tokens":
            raise DraftingFailed("max_tokens", f"the reply was cut at {self.max_tokens} tokens")
        for block in message.content:
            if getattr(block, "type", None) == "tool_use" and getattr(block, "name", None) == TOOL_NAME:
                tool_input = getattr(block, "input", None)
                if not isinstance(tool_input, Mapping):
                    raise DraftingFailed("bad_tool_input", "record_profile input is not an object")
                return tool_input
        raise DraftingFailed("no_tool_use", f"the reply did not call {TOOL_NAME} (stop_reason {message.stop_reason})")
