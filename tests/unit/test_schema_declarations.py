"""What the schemas declare: the text rule on every string input (OpenAPI and MCP alike), a valid OpenAPI 3.1
document, and the schema and the models agreeing where they used to differ (week tokens, https and http
links, email addresses)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import jsonschema
import jsonschema_rs
import pytest
from pydantic import BaseModel, ValidationError
from schemathesis.specs.openapi.definitions import OPENAPI_31

from api.mcp_server import tool_for
from api.openapi import openapi_document
from api.ops import build_registry
from commands import draft as draft_cmd
from events.text import SCHEMA_PATTERN
from queries import launches as launches_q
from queries import leaderboards as boards_q

REGISTRY = build_registry()
DOCUMENT = openapi_document(REGISTRY, "http://127.0.0.1/api/v1", "http://127.0.0.1")
COMPONENTS = DOCUMENT["components"]["schemas"]


def _strings(schema: Any, where: str, seen: set[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every string schema an input value must match, following `$ref`s into the components."""
    if not isinstance(schema, dict):
        return
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref not in seen:
        seen.add(ref)
        name = ref.rsplit("/", 1)[-1]
        target = COMPONENTS.get(name) if ref.startswith("#/components/") else schema.get("$defs", {}).get(name)
        yield from _strings(target, f"{where}->{name}", seen)
    kinds = schema.get("type")
    if (kinds == "string" or (isinstance(kinds, list) and "string" in kinds)) and "enum" not in schema:
        yield where, schema
    for key in ("properties", "$defs"):
        for name, sub in (schema.get(key) or {}).items():
            yield from _strings(sub, f"{where}.{name}", seen)
    for key in ("anyOf", "allOf", "oneOf"):
        for sub in schema.get(key) or []:
            yield from _strings(sub, where, seen)
    yield from _strings(schema.get("items"), f"{where}[]", seen)


def _declares_rule(schema: dict[str, Any]) -> bool:
    return schema.get("pattern") == SCHEMA_PATTERN or {"pattern": SCHEMA_PATTERN} in schema.get("allOf", [])


def _rest_inputs() -> Iterator[tuple[str, dict[str, Any]]]:
    for path, methods in DOCUMENT["paths"].items():
        for method, op in methods.items():
            for param in op["parameters"]:
                if param["in"] != "header":  # Idempotency-Key: its own pattern allows printable ASCII only
                    yield from _strings(param["schema"], f"{method} {path} {param['name']}", set())
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            yield from _strings(body, f"{method} {path} body", set())


def test_every_string_input_of_the_openapi_document_declares_the_text_rule_and_the_document_stays_valid() -> None:
    found = list(_rest_inputs())
    assert len(found) > 60  # path, query and body strings of every operation, nested models included
    missing = [where for where, schema in found if not _declares_rule(schema)]
    assert missing == []
    jsonschema.Draft202012Validator(OPENAPI_31).validate(DOCUMENT)
    for schema in COMPONENTS.values():
        jsonschema.Draft202012Validator.check_schema(schema)
    site = COMPONENTS[REGISTRY.get("get_site_info").output_model.__name__]  # type: ignore[union-attr]
    assert SCHEMA_PATTERN not in str(site)  # outputs are left as they are


def test_an_own_pattern_is_kept_beside_the_text_rule() -> None:
    category = next(p for p in DOCUMENT["paths"]["/listings"]["get"]["parameters"] if p["name"] == "category")
    string = category["schema"]["anyOf"][0]
    assert string["pattern"] == "^[a-z0-9][a-z0-9-]{0,219}$"
    assert string["allOf"] == [{"pattern": SCHEMA_PATTERN}]
    validator = jsonschema_rs.Draft202012Validator(category["schema"])
    assert validator.is_valid("ai-tools") and not validator.is_valid("AI") and not validator.is_valid("ai\x00")


def test_every_string_of_every_mcp_tool_input_schema_declares_the_text_rule() -> None:
    for op in REGISTRY:
        schema = tool_for(op).input_schema
        strings = list(_strings(schema, op.operation_id, set()))
        assert [w for w, s in strings if not _declares_rule(s)] == [], op.operation_id
        assert schema["additionalProperties"] is False
    update = tool_for(REGISTRY.get("update_draft")).input_schema  # type: ignore[arg-type]
    assert len(list(_strings(update, "update_draft", set()))) > 30


def test_the_text_rule_pattern_refuses_what_the_rule_refuses() -> None:
    from api.openapi import with_text_rule

    validator = jsonschema_rs.Draft202012Validator(with_text_rule({"type": "string"}))
    for code in range(0x20):
        assert validator.is_valid(f"a{chr(code)}b") is (chr(code) in "\t\n\r"), code
    assert validator.is_valid("caf\u00e9 \u2014 \U0001f680\x7f")


# ---------------------------------------------------------------- schema and server agree


def _accepts(model: type[BaseModel], data: dict[str, Any]) -> bool:
    try:
        model.model_validate(data)
    except ValidationError:
        return False
    return True


def _declared(model: type[BaseModel], field: str) -> Any:
    """A validator of the field as declared (ECMA-262 patterns, as the fuzzer and most clients read them)."""
    schema = model.model_json_schema()
    prop = dict(schema["properties"][field])
    prop["$defs"] = schema.get("$defs", {})
    return jsonschema_rs.Draft202012Validator(prop, validate_formats=True)


WEEKS = ["this", "next", "last", "2026-11-23", "2024-02-29", "2000-02-29", "0001-01-01", "9999-12-31",
         "0000-00-00", "0000-01-01", "2023-02-29", "1900-02-29", "2026-13-01", "2026-04-31", "2026-1-01",
         "20261123", "2026-W47", "This", " this", "this ", "2026-11-23 ", "\u0662\u0660\u0662\u0666-01-01"]


@pytest.mark.parametrize("model", [launches_q.GetLaunchWeek, boards_q.GetLeaderboard])
def test_week_tokens_the_schema_allows_are_exactly_the_ones_the_server_takes(model: type[BaseModel]) -> None:
    from datetime import date

    from queries.weeks import resolve_week

    declared = _declared(model, "week")
    extra = {"board": "community-weekly"} if model is boards_q.GetLeaderboard else {}
    for token in WEEKS:
        def server() -> bool:
            if not _accepts(model, {"week": token, **extra}):
                return False
            resolve_week(token, date(2026, 11, 23))  # the handler's own check: a date that does not exist is a 400
            return True
        try:
            taken = server()
        except Exception:  # noqa: BLE001 - InvalidInput of resolve_week
            taken = False
        assert declared.is_valid(token) is taken, token
    assert not declared.is_valid("0000-00-00")


LINKS = ["https://example.com", "https://example.com/a?b=c#d", " https://example.com ", "", "   ",
         "http://example.com", "HTTPS://example.com", "https://", "https:///path", "https:// /", "ftp://x.org",
         "https://[::1]/", "https://ex ample.com", "https://example.com/with space", "https://a\r\n",
         "javascript:alert(1)", "https://xn--mnchen-3ya.de/"]


def test_a_milestone_url_is_declared_https_and_the_declaration_is_what_the_server_takes() -> None:
    declared = _declared(draft_cmd.MilestoneInput, "url")
    assert "https" in draft_cmd.MilestoneInput.model_json_schema()["properties"]["url"]["description"]
    for url in LINKS:
        taken = _accepts(draft_cmd.MilestoneInput, {"date": "2024-03-01", "title": "t", "url": url})
        assert declared.is_valid(url) is taken, url
    assert not declared.is_valid("http://example.com")


@pytest.mark.parametrize("field", ["logo_url", "demo_video_url"])
def test_http_links_declare_what_the_server_takes(field: str) -> None:
    declared = _declared(draft_cmd.DraftFieldsInput, field)
    for url in LINKS:
        assert declared.is_valid(url) is _accepts(draft_cmd.DraftFieldsInput, {field: url}), url
    socials = _declared(draft_cmd.SocialsInput, "github")
    for url in LINKS:
        assert socials.is_valid(url) is _accepts(draft_cmd.SocialsInput, {"github": url}), url


EMAILS = ["a@b.co", " a@b.co ", "first.last+tag@sub.example.org", "a@b", "a@.b.c", "a b@c.d", "a@@b.c",
          "@b.c", "a@b.c\u00a0", "\u00fc@b.c", "a@b.c\n", "x" * 65 + "@b.co", "", "   "]


def test_email_fields_declare_what_the_server_takes() -> None:
    import uuid

    invite = _declared(draft_cmd.InviteCofounder, "email")
    contact = _declared(draft_cmd.DraftFieldsInput, "contact_email")
    for email in EMAILS:
        assert invite.is_valid(email) is _accepts(draft_cmd.InviteCofounder, {"id": str(uuid.uuid4()), "email": email}), email
        assert contact.is_valid(email) is _accepts(draft_cmd.DraftFieldsInput, {"contact_email": email}), email
    assert re.search("format", str(draft_cmd.InviteCofounder.model_json_schema()["properties"]["email"])) is None
