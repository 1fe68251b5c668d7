"""REST over real HTTP: the catalogue operations, problems, paging bounds, ETags, OpenAPI."""

from __future__ import annotations

import httpx
import pytest


@pytest.fixture(scope="module")
def http(server):  # type: ignore[no-untyped-def]
    with httpx.Client(base_url=server.url, timeout=10) as client:
        yield client


def test_site_info_names_the_site_and_where_the_doors_are(http: httpx.Client, server) -> None:  # type: ignore[no-untyped-def]
    r = http.get("/api/v1/site")
    assert r.status_code == 200
    body = r.json()
    assert body["name"] == "launchdir"
    assert body["categories"] == 20
    assert body["free_queue_weeks"] == {"min": 6, "max": 8}
    assert body["links"]["mcp"] == server.url + "/mcp"
    assert body["links"]["openapi"] == server.url + "/api/v1/openapi.json"
    api = http.get(body["links"]["api"])  # every link it gives answers: the API's own address describes it
    assert api.status_code == 200 and api.json()["openapi"] == body["links"]["openapi"]
    spec = http.get("/api/v1/openapi.json").json()
    ids = {op["operationId"] for path in spec["paths"].values() for op in path.values()}
    assert {o["operation_id"] for o in api.json()["operations"]} == ids


def test_category_tree_nests_subcategories(http: httpx.Client) -> None:
    body = http.get("/api/v1/categories").json()
    top = {c["slug"]: c for c in body["items"]}
    assert "ai" in top and top["ai"]["parent"] is None
    assert [s["slug"] for s in top["ai"]["subcategories"]] == ["ai-assistants", "ai-infrastructure"]
    assert body["total"] == 20
    empty = http.get("/api/v1/categories", params={"include_empty": "false"}).json()
    assert empty == {"items": [], "total": 0}  # no live listings yet


def test_get_category_and_its_404(http: httpx.Client) -> None:
    body = http.get("/api/v1/categories/apis-sdks").json()
    assert body["parent"]["slug"] == "developer-tools"
    assert body["listings"] == {"items": [], "page": 1, "per_page": 20, "total": 0, "has_more": False}
    r = http.get("/api/v1/categories/no-such-thing")
    assert r.status_code == 404
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["status"] == 404


@pytest.mark.parametrize(
    ("params", "field", "rule"),
    [
        ({"page": "0"}, "page", "minimum"),
        ({"page": "1001"}, "page", "maximum"),
        ({"per_page": "0"}, "per_page", "minimum"),
        ({"per_page": "101"}, "per_page", "maximum"),
        ({"page": "abc"}, "page", "type_integer"),
    ],
)
def test_paging_bounds_are_400_problems_naming_field_and_rule(http: httpx.Client, params, field, rule) -> None:  # type: ignore[no-untyped-def]
    r = http.get("/api/v1/categories/ai", params=params)
    assert r.status_code == 400
    problem = r.json()
    assert problem["type"] == "/problems/validation-error"
    assert {"field": field, "rule": rule} == {k: problem["errors"][0][k] for k in ("field", "rule")}


def test_bad_slug_and_bad_boolean_are_400(http: httpx.Client) -> None:
    r = http.get("/api/v1/categories/Not_A_Slug")
    assert r.status_code == 400 and r.json()["errors"][0] == {
        "field": "slug", "rule": "pattern", "message": r.json()["errors"][0]["message"]}
    r = http.get("/api/v1/categories", params={"include_empty": "maybe"})
    assert r.status_code == 400 and r.json()["errors"][0]["rule"] == "type_boolean"


def test_unknown_paths_and_methods_are_problems(http: httpx.Client) -> None:
    r = http.get("/api/v1/nothing-here")
    assert r.status_code == 404 and r.json()["type"] == "/problems/not-found"
    r = http.post("/api/v1/site", json={})
    assert r.status_code == 405 and r.headers["content-type"] == "application/problem+json"


def test_etag_and_if_none_match(http: httpx.Client) -> None:
    r = http.get("/api/v1/products")
    etag = r.headers["etag"]
    assert r.headers["cache-control"].startswith("public")
    again = http.get("/api/v1/products", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag


def test_products_carry_prices_and_weeks(http: httpx.Client) -> None:
    items = {p["code"]: p for p in http.get("/api/v1/products").json()["items"]}
    for code in ("launch", "skip_queue", "featured", "done_for_you", "launch_bundle", "extra_categories",
                 "relaunch", "ai_review", "billboard_min"):
        assert isinstance(items[code]["price_cents"], int) and items[code]["price_cents"] > 0
    assert items["launch"]["needs_listing"] is True
    assert len(items["skip_queue"]["weeks"]) == 5
    assert items["trophy_cabinet"]["options"]["format"]["enum"] == ["digital", "acrylic", "metal"]


def test_interview_questions(http: httpx.Client) -> None:
    items = http.get("/api/v1/interview-questions").json()["items"]
    assert items[0]["id"] == 1 and items[0]["question"]


def test_openapi_document(http: httpx.Client) -> None:
    doc = http.get("/api/v1/openapi.json").json()
    assert doc["openapi"] == "3.1.0" and doc["info"]["version"] == "1.0.0"
    op = doc["paths"]["/categories/{slug}"]["get"]
    assert op["operationId"] == "get_category"
    params = {p["name"]: p for p in op["parameters"]}
    assert params["per_page"]["schema"]["maximum"] == 100 and params["page"]["schema"]["maximum"] == 1000
    assert params["slug"]["in"] == "path" and params["slug"]["required"] is True
    assert set(op["responses"]) >= {"200", "400", "404", "429"}
    assert "Problem" in doc["components"]["schemas"]
    assert http.get("/api/v1/docs").status_code == 200


def test_home_page_is_plain_html(http: httpx.Client) -> None:
    r = http.get("/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert "Developer Tools" in r.text and "/mcp" in r.text
