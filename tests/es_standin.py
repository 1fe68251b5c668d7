"""A stand-in for the Elasticsearch REST API on 127.0.0.1, for the official client to talk to.

Elasticsearch cannot run here, so the indexer and the search backend are
tested through the real `elasticsearch` client over HTTP against this server.
It implements what the project uses, with Elasticsearch's semantics where the
project depends on them: indices and aliases, `_bulk` with external versioning
(a version not above the stored one is a 409 for that item), strict mappings
(a document with a field the mapping does not know is refused), and `_search`
that applies the request's `term`/`terms`/`range` filters, `from`/`size` and
field sorts. Full-text scoring is not imitated: a text query is answered by the
filters only, in the requested sort order, which is enough to check the
plumbing (ids in, cards out, totals), not relevance. Relevance is checked
against a real server when `ELASTICSEARCH_URL` is set.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tests.conftest import free_port

HEADERS = {"x-elastic-product": "Elasticsearch"}


def _json(body: Any, status: int = 200) -> Response:
    return Response(json.dumps(body), status, headers=HEADERS,
                    media_type="application/vnd.elasticsearch+json;compatible-with=9")


class Index:
    def __init__(self, mappings: dict[str, Any]) -> None:
        self.fields = set(mappings["properties"])
        self.strict = mappings.get("dynamic") == "strict"
        self.docs: dict[str, tuple[int, dict[str, Any]]] = {}


class StandIn:
    """The server's state; `fail_bulks` makes the next bulk requests answer 500."""

    def __init__(self) -> None:
        self.indices: dict[str, Index] = {}
        self.aliases: dict[str, str] = {}
        self.fail_bulks = 0
        self.bulks = 0
        self.searches: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self.app = Starlette(routes=[
            Route("/_bulk", self.bulk, methods=["POST", "PUT"]),
            Route("/_aliases", self.update_aliases, methods=["POST"]),
            Route("/_alias/{name}", self.alias, methods=["GET", "HEAD"]),
            Route("/{index}/_alias/{name}", self.put_alias, methods=["PUT"]),
            Route("/{index}/_search", self.search, methods=["POST", "GET"]),
            Route("/{index}", self.index, methods=["HEAD", "PUT", "DELETE"]),
            Route("/", lambda r: _json({"version": {"number": "9.0.0"}, "tagline": "You Know, for Search"})),
        ])

    # ------------------------------------------------------------ indices and aliases

    async def index(self, request: Request) -> Response:
        name = request.path_params["index"]
        if request.method == "HEAD":
            return Response(status_code=200 if name in self.indices else 404, headers=HEADERS)
        if request.method == "DELETE":
            self.indices.pop(name, None)
            return _json({"acknowledged": True})
        if name in self.indices:
            return _json({"error": {"type": "resource_already_exists_exception"}, "status": 400}, 400)
        body = json.loads(await request.body() or b"{}")
        self.indices[name] = Index(body["mappings"])
        return _json({"acknowledged": True, "index": name})

    async def alias(self, request: Request) -> Response:
        name = request.path_params["name"]
        target = self.aliases.get(name)
        if request.method == "HEAD":
            return Response(status_code=200 if target else 404, headers=HEADERS)
        if target is None:
            return _json({"error": f"alias [{name}] missing", "status": 404}, 404)
        return _json({target: {"aliases": {name: {}}}})

    async def put_alias(self, request: Request) -> Response:
        self.aliases[request.path_params["name"]] = request.path_params["index"]
        return _json({"acknowledged": True})

    async def update_aliases(self, request: Request) -> Response:
        for action in json.loads(await request.body())["actions"]:
            (kind, spec), = action.items()
            if kind == "add":
                self.aliases[spec["alias"]] = spec["index"]
            elif kind == "remove" and self.aliases.get(spec["alias"]) == spec["index"]:
                del self.aliases[spec["alias"]]
        return _json({"acknowledged": True})

    def _resolve(self, name: str) -> Index | None:
        return self.indices.get(self.aliases.get(name, name))

    # ------------------------------------------------------------ documents

    async def bulk(self, request: Request) -> Response:
        lines = [json.loads(line) for line in (await request.body()).decode().splitlines() if line.strip()]
        with self._lock:
            self.bulks += 1
            if self.fail_bulks:
                self.fail_bulks -= 1
                return _json({"error": {"type": "internal_server_error"}, "status": 500}, 500)
            items = [self._apply(action["index"], doc) for action, doc in zip(lines[::2], lines[1::2], strict=True)]
        return _json({"took": 1, "errors": any(i["index"]["status"] >= 300 for i in items), "items": items})

    def _apply(self, meta: dict[str, Any], doc: dict[str, Any]) -> dict[str, Any]:
        index = self.indices.get(meta["_index"])
        if index is None:
            return {"index": {"status": 404, "error": {"type": "index_not_found_exception"}}}
        unknown = set(doc) - index.fields
        if index.strict and unknown:
            return {"index": {"status": 400, "error": {"type": "strict_dynamic_mapping_exception",
                                                        "reason": f"unknown fields {sorted(unknown)}"}}}
        current = index.docs.get(meta["_id"])
        if meta.get("version_type") == "external" and current is not None and current[0] >= meta["version"]:
            return {"index": {"_id": meta["_id"], "status": 409,
                              "error": {"type": "version_conflict_engine_exception"}}}
        index.docs[meta["_id"]] = (int(meta.get("version", 1)), doc)
        return {"index": {"_id": meta["_id"], "status": 201 if current is None else 200, "result": "created"}}

    # ------------------------------------------------------------ search (filters and sorts only)

    async def search(self, request: Request) -> Response:
        body = json.loads(await request.body() or b"{}")
        self.searches.append(body)
        index = self._resolve(request.path_params["index"])
        if index is None:
            return _json({"error": {"type": "index_not_found_exception"}, "status": 404}, 404)
        hits = [(doc_id, doc) for doc_id, (_, doc) in index.docs.items()
                if all(_passes(doc, f) for f in body.get("query", {}).get("bool", {}).get("filter", []))]
        for key in reversed(body.get("sort", [])):
            (field, how), = key.items()
            order = how if isinstance(how, str) else how.get("order", "asc")
            if field == "_score":
                continue
            hits.sort(key=lambda h: (h[1].get(field) is None, h[1].get(field) or 0), reverse=order == "desc")
        start, size = int(body.get("from", 0)), int(body.get("size", 10))
        page = [{"_id": doc_id, "_index": "x", "_score": 1.0} for doc_id, _ in hits[start:start + size]]
        return _json({"took": 1, "timed_out": False,
                      "hits": {"total": {"value": len(hits), "relation": "eq"}, "hits": page}})

    # ------------------------------------------------------------ running

    def __enter__(self) -> StandIn:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("stand-in did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)


def _passes(doc: dict[str, Any], clause: dict[str, Any]) -> bool:
    (kind, spec), = clause.items()
    if kind == "term":
        (field, value), = spec.items()
        value = value["value"] if isinstance(value, dict) else value
        return doc.get(field) == value or (isinstance(doc.get(field), list) and value in doc[field])
    if kind == "terms":
        (field, values), = spec.items()
        have = doc.get(field)
        return bool(set(have if isinstance(have, list) else [have]) & set(values))
    if kind == "range":
        (field, bounds), = spec.items()
        value = doc.get(field)
        return value is not None and all(
            {"gte": value >= b, "gt": value > b, "lte": value <= b, "lt": value < b}[op] for op, b in bounds.items())
    if kind == "bool":
        should = spec.get("should", [])
        return (all(_passes(doc, f) for f in spec.get("filter", []))
                and (not should or sum(_passes(doc, f) for f in should) >= spec.get("minimum_should_match", 1)))
    raise AssertionError(f"the stand-in does not know the {kind!r} filter")
