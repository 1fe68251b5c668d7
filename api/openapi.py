"""The OpenAPI 3.1 document, generated from the registry (not from framework routes).

Generating it ourselves keeps REST, MCP and the document on one set of
models: parameters and bodies are the input model's fields, responses the
output model and the shared problem schema. Every string of an input schema
also declares the text rule of `events/text.py` (`with_text_rule`), so a
client or a fuzzer knows from the document alone that control characters are
refused; MCP tool input schemas carry the same.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel

from api.problems import Problem
from api.registry import Operation, Registry
from events.text import SCHEMA_PATTERN

API_VERSION = "1.0.0"
REF = "#/components/schemas/{model}"


TEXT_RULE = {"pattern": SCHEMA_PATTERN}
# Keywords whose subschemas an input value must also match (`not`, `if` and the like are left alone:
# adding the rule under them would turn it round).
_SUBSCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties")
_SUBSCHEMA_LISTS = ("anyOf", "allOf", "oneOf", "prefixItems")
_SUBSCHEMAS = ("items", "additionalProperties", "then", "else")


def with_text_rule(schema: dict[str, Any]) -> dict[str, Any]:
    """A copy of an input schema in which every string (and every free object key) declares the text rule.

    A string without a `pattern` gets the rule's pattern; one that has its own
    keeps it and gets the rule as an `allOf` member, since a schema holds one
    `pattern`. Enumerations and constants already say exactly what they accept.
    """
    out = copy.deepcopy(schema)
    _declare(out)
    return out


def _declare(schema: Any) -> None:
    if not isinstance(schema, dict):
        return
    for key in _SUBSCHEMA_MAPS:
        for sub in (schema.get(key) or {}).values():
            _declare(sub)
    for key in _SUBSCHEMA_LISTS:
        for sub in schema.get(key) or []:
            _declare(sub)
    for key in _SUBSCHEMAS:
        _declare(schema.get(key))
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "string" in kinds and "enum" not in schema and "const" not in schema:
        _add_rule(schema)
    if "object" in kinds and schema.get("additionalProperties", True) is not False:
        names = schema.setdefault("propertyNames", {})
        if isinstance(names, dict):
            _add_rule(names)


def _add_rule(schema: dict[str, Any]) -> None:
    own = schema.get("pattern")
    if own is None:
        schema["pattern"] = SCHEMA_PATTERN
    elif own != SCHEMA_PATTERN and TEXT_RULE not in schema.get("allOf", []):
        schema.setdefault("allOf", []).append(dict(TEXT_RULE))


def _merge(defs: dict[str, Any], new: dict[str, Any]) -> None:
    """Add named schemas; one name for two different schemas (an input and an output model) is a bug."""
    for name, sub in new.items():
        if defs.setdefault(name, sub) != sub:
            raise ValueError(f"two different schemas are named {name}: rename one of the models")


def _schema(model: type[BaseModel], defs: dict[str, Any]) -> dict[str, Any]:
    schema = model.model_json_schema(ref_template=REF)
    _merge(defs, schema.pop("$defs", {}))
    return schema


def _input_schema(model: type[BaseModel], defs: dict[str, Any]) -> dict[str, Any]:
    """The input model's schema with the text rule declared, its nested models added to `defs`."""
    schema = with_text_rule(model.model_json_schema(ref_template=REF))
    _merge(defs, schema.pop("$defs", {}))
    return schema


def _problem_response(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/problem+json": {"schema": {"$ref": REF.format(model="Problem")}}}}


def _operation(op: Operation, defs: dict[str, Any]) -> dict[str, Any]:
    schema = _input_schema(op.input_model, defs)
    props: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", []))
    params = []
    body_props: dict[str, Any] = {}
    for name, prop in props.items():
        where = op.location(name)
        if where == "body":
            body_props[name] = prop
            continue
        params.append({
            "name": name, "in": where, "required": where == "path" or name in required,
            "description": prop.get("description", ""), "schema": {k: v for k, v in prop.items() if k != "description"},
        })
    doc: dict[str, Any] = {
        "operationId": op.operation_id,
        "summary": op.summary,
        "description": op.description,
        "tags": [op.tag],
        "parameters": params,
        "security": [{}] if op.scope is None else [{"oauth2": [op.scope]}, {"apiKey": []}],
        "x-mcp-tool": op.operation_id,
    }
    if op.has_body:
        body_schema = {"type": "object", "properties": body_props, "additionalProperties": False}
        req = sorted(r for r in required if r in body_props)
        if req:
            body_schema["required"] = req
        doc["requestBody"] = {"required": bool(req), "content": {"application/json": {"schema": body_schema}}}
    if op.idempotency_key:
        doc["parameters"].append({
            "name": "Idempotency-Key", "in": "header", "required": False,
            "description": "Makes retries safe: the same key with the same body replays the first response.",
            "schema": {"type": "string", "minLength": 8, "maxLength": 255, "pattern": "^[\\x20-\\x7E]{8,255}$"},
        })
    out = _schema(op.output_model, defs)
    name = op.output_model.__name__
    defs.setdefault(name, out)
    responses: dict[str, Any] = {
        str(op.success_status): {"description": "Success", "content": {"application/json": {"schema": {"$ref": REF.format(model=name)}}}},
        "400": _problem_response("Invalid input: the body names each field and rule."),
        "429": _problem_response("Rate limited; see Retry-After."),
    }
    if op.scope:
        responses["401"] = _problem_response("No valid credentials.")
        responses["403"] = _problem_response("The credentials lack the required scope.")
    if op.declares_not_found:
        responses["404"] = _problem_response("Not found.")
    if op.method != "GET":
        responses["409"] = _problem_response(
            "Conflict with the current state, or an Idempotency-Key reused with a different body."
        )
        responses["503"] = _problem_response("The resource changed too often while we tried to update it; retry.")
    if op.method == "GET":
        responses["304"] = {"description": "Not modified (If-None-Match matched the ETag)."}
    doc["responses"] = responses
    return doc


def openapi_document(registry: Registry, server_url: str, issuer: str) -> dict[str, Any]:
    defs: dict[str, Any] = {}
    paths: dict[str, Any] = {}
    for op in registry:
        paths.setdefault(op.path, {})[op.method.lower()] = _operation(op, defs)
    defs["Problem"] = Problem.model_json_schema(ref_template=REF)
    defs.update(defs["Problem"].pop("$defs", {}))
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "launchdir API",
            "version": API_VERSION,
            "description": "A directory and launch calendar for software products. Every operation is also an MCP tool of the same name.",
        },
        "servers": [{"url": server_url}],
        "paths": paths,
        "components": {
            "schemas": defs,
            "securitySchemes": {
                "apiKey": {"type": "http", "scheme": "bearer", "description": "An API key from your account page."},
                "oauth2": {
                    "type": "oauth2",
                    "flows": {"authorizationCode": {
                        "authorizationUrl": f"{issuer}/oauth/authorize",
                        "tokenUrl": f"{issuer}/oauth/token",
                        "scopes": {
                            "account:read": "Read your account, drafts, listings, claims and orders.",
                            "listings:write": "Create and edit drafts and listings, claims, invites, free plan.",
                            "orders:write": "Quote orders and create checkouts.",
                        },
                    }},
                },
            },
        },
    }
