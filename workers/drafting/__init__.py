"""Drafting a product profile from a crawled website, every value backed by quotes from it.

Two drafters propose values with evidence quotes: :class:`ExtractiveDrafter`
(no model; plainly stated facts only) and ``AnthropicDrafter`` (Claude
through tool use; the adapter to the Anthropic API lives in
``workers/adapters/anthropic_api.py``).  Both go through :func:`verify`, the
one gate that drops any value whose quotes are not on the crawled pages or do
not support it.  See ``docs/drafting.md``.
"""

from .compare import compare_with_competitor
from .errors import DraftingFailed
from .extractive import ExtractiveDrafter
from .fallback import Drafter, draft_with_fallback
from .model import (
    COMPLETENESS_WEIGHTS,
    FIELD_NAMES,
    LIST_FIELDS,
    SOCIAL_KEYS,
    SOCIAL_PLATFORMS,
    STRING_FIELDS,
    Evidence,
    FieldDraft,
    ProfileDraft,
    completeness_of,
    platform_for,
)
from .prompt import build_prompt, record_profile_tool
from .verify import verify

__all__ = [
    "COMPLETENESS_WEIGHTS",
    "FIELD_NAMES",
    "LIST_FIELDS",
    "SOCIAL_KEYS",
    "SOCIAL_PLATFORMS",
    "STRING_FIELDS",
    "Drafter",
    "DraftingFailed",
    "Evidence",
    "ExtractiveDrafter",
    "FieldDraft",
    "ProfileDraft",
    "build_prompt",
    "compare_with_competitor",
    "completeness_of",
    "draft_with_fallback",
    "platform_for",
    "record_profile_tool",
    "verify",
]
