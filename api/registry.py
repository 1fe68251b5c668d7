"""The operation registry: each operation declared once, read by REST, MCP, OpenAPI and tests.

Input location follows the path template: fields named in the path are path
parameters; on GET and DELETE the rest are query parameters; otherwise they
form the JSON body. MCP tools take all of them as one flat object.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from api.services import Call, Services
from events.errors import FieldProblem

TOOL_NAME = re.compile(r"^[A-Za-z0-9._-]{1,128}$")
PATH_PARAM = re.compile(r"{([a-z_]+)}")
Handler = Callable[[Services, Any, Call], Any]
MoreProblems = Callable[[Services, dict[str, Any], Call, list[FieldProblem]], list[FieldProblem]]
"""(services, raw input, call, the schema's problems) -> the domain's problems with the parts the schema accepted."""


@dataclass(frozen=True)
class Operation:
    operation_id: str
    method: str
    path: str
    input_model: type[BaseModel]
    output_model: type[BaseModel]
    handler: Handler
    scope: str | None = None  # None: public
    idempotency_key: bool = False
    success_status: int = 200
    tag: str = "directory"
    cache_projections: tuple[str, ...] = ()  # public GETs cached until these move
    cache_seconds: int = 0  # Cache-Control max-age for public GETs
    cache_by_day: bool = False  # the answer also depends on today's date
    destructive: bool = False
    saves_nothing: bool = False  # a POST that only computes (quote_order): read-only to MCP clients
    may_not_find: bool = False  # 404 for a resource named outside the path (compare_listings' a and b)
    on_cached: Callable[[Services, Any], None] | None = None  # runs when the response cache answers
    more_problems: MoreProblems | None = None  # input the schema refused: the domain's rules join the same 400
    next_steps: str = ""  # what to call next, for a caller with no other documentation (appended to the description)

    def __post_init__(self) -> None:
        if not TOOL_NAME.match(self.operation_id):
            raise ValueError(f"operation id {self.operation_id!r} is not a valid tool name")
        for name in self.path_params:
            if name not in self.input_model.model_fields:
                raise ValueError(f"{self.operation_id}: path parameter {name} missing from the input model")

    @property
    def summary(self) -> str:
        doc = (self.input_model.__doc__ or self.operation_id).strip()
        return doc.splitlines()[0]

    @property
    def description(self) -> str:
        """The input model's docstring without its source indentation (an indented line would read as a code
        block in Markdown), then `next_steps`: REST's OpenAPI description and the MCP tool's description."""
        text = inspect.cleandoc(self.input_model.__doc__ or self.operation_id)
        return f"{text}\n\n{self.next_steps}" if self.next_steps else text

    @property
    def path_params(self) -> list[str]:
        return PATH_PARAM.findall(self.path)

    @property
    def read_only(self) -> bool:
        return self.method == "GET" or self.saves_nothing

    @property
    def idempotent(self) -> bool:
        """Calling it again with the same arguments has no further effect (MCP's `idempotentHint`).

        Accepting an Idempotency-Key does not make a POST idempotent: without
        the key a second call makes a second update or milestone, so an agent
        told otherwise would retry into duplicates.
        """
        return self.method in ("GET", "PUT", "DELETE") or self.saves_nothing

    @property
    def has_body(self) -> bool:
        return self.method in ("POST", "PUT", "PATCH")

    def location(self, field: str) -> str:
        if field in self.path_params:
            return "path"
        return "body" if self.has_body else "query"

    @property
    def declares_not_found(self) -> bool:
        return bool(self.path_params) or self.may_not_find


class Registry:
    def __init__(self, operations: list[Operation]) -> None:
        self.operations = {op.operation_id: op for op in operations}
        if len(self.operations) != len(operations):
            raise ValueError("duplicate operation id")

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.operations.values())

    def get(self, operation_id: str) -> Operation | None:
        return self.operations.get(operation_id)
