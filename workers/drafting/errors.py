"""The one exception drafters raise."""

from __future__ import annotations


class DraftingFailed(Exception):
    """A drafter could not produce a draft (API error, timeout, unusable reply).

    ``reason`` is a short code (``timeout``, ``connection``, ``overloaded``,
    ``api_status``, ``no_tool_use``, ``max_tokens``, ...); ``detail`` says more.
    The caller may fall back to another drafter (:func:`draft_with_fallback`).
    """

    def __init__(self, reason: str, detail: str = "", *, status: int | None = None) -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail
        self.status = status
