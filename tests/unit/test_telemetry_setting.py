"""FastAPI's native telemetry is off unless `LAUNCHDIR_OPENTELEMETRY` is on (api/app.py, docs/operations.md).

Off must mean that a request no longer asks OpenTelemetry's global providers
whether one was configured (the per-request cost it was turned off for); on
must leave FastAPI's defaults, which do ask.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from opentelemetry import trace
from starlette.responses import PlainTextResponse
from starlette.testclient import TestClient

from api.app import NO_TELEMETRY
from launchdir.settings import Settings


def test_the_setting_is_off_by_default_and_read_from_the_environment() -> None:
    assert Settings.from_env({}).opentelemetry is False
    assert Settings.from_env({"LAUNCHDIR_OPENTELEMETRY": "on"}).opentelemetry is True
    assert Settings.from_env({"LAUNCHDIR_OPENTELEMETRY": "off"}).opentelemetry is False


def _provider_lookups(monkeypatch: pytest.MonkeyPatch, telemetry: Any) -> int:
    """How often three requests to a one-route app ask for the global tracer provider."""
    calls = []
    real = trace.get_tracer_provider

    def counted() -> Any:
        calls.append(1)
        return real()

    monkeypatch.setattr(trace, "get_tracer_provider", counted)
    app = FastAPI(telemetry=telemetry)

    @app.get("/ping")
    def ping() -> PlainTextResponse:
        return PlainTextResponse("pong")

    with TestClient(app) as client:
        for _ in range(3):
            assert client.get("/ping").text == "pong"
    return len(calls)


def test_off_no_request_asks_for_the_providers(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _provider_lookups(monkeypatch, NO_TELEMETRY) == 0


def test_fastapis_default_asks_on_every_request(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _provider_lookups(monkeypatch, None) >= 3
