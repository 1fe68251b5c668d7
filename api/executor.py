"""The one executor both front doors call.

Order of work: rate limit, authenticate, authorize, validate, idempotency,
handler, result mapping. REST and MCP differ only in how they collect the raw
input and how they present the `Outcome`.

Validation starts with the one text rule of every door (`events/text.py`):
a string or object key of the raw input carrying NUL, another C0 control
character (tab, newline and carriage return excepted) or a lone surrogate is a
400 naming the field and `control_characters`, before any model, cache or
handler sees it. Such text cannot be stored and once stored would stop the
projections that read it.
"""

from __future__ import annotations

import hashlib
import inspect
import logging
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Protocol
from uuid import UUID

import anyio.to_thread
import orjson
from pydantic import BaseModel, ValidationError

from api.problems import field_problems, from_domain, invalid_problem, problem, validation_problem
from api.registry import Operation, Registry
from api.services import Call, Principal, Services
from events import text
from events.errors import DomainError, FieldProblem, Forbidden, InvalidInput, Unauthorized

log = logging.getLogger(__name__)
# The response cache's bounds. An entry costs its body plus about ENTRY_COST bytes of key, headers and
# bookkeeping (measured: 20,000 small search answers held ~90 MiB of RSS with 16 MiB of bodies), so the
# budget counts both; hot answers (listings, weeks, boards) are few, distinct searches rarely repeat.
MAX_CACHED = 5_000
ENTRY_COST = 2_048
MAX_CACHED_BYTES = 12 * 1024 * 1024  # bodies (only bodies are kept: see Outcome.slim) plus ENTRY_COST each


class Authenticator(Protocol):
    async def authenticate(self, authorization: str | None) -> Principal | None:
        """None for anonymous callers; raise Unauthorized for a credential that is not valid."""


class Idempotency(Protocol):
    async def run(
        self, principal: Principal | None, key: str | None, op: Operation, raw: dict[str, Any],
        run: Callable[[], Awaitable[Outcome]],
    ) -> Outcome:
        """Replay the stored outcome of `key`, or run and store it."""


class RateLimiter(Protocol):
    async def check(self, op: Operation, principal: Principal | None, ip: str) -> dict[str, str]:
        """Raise RateLimited when over the limit; return the rate-limit headers otherwise."""


class Anonymous:
    """Until accounts exist every caller is anonymous; protected operations answer 401."""

    async def authenticate(self, authorization: str | None) -> Principal | None:
        return None


class NoIdempotency:
    async def run(self, principal, key, op, raw, run):  # type: ignore[no-untyped-def]
        return await run()


class NoRateLimit:
    async def check(self, op: Operation, principal: Principal | None, ip: str) -> dict[str, str]:
        return {}


_UNDECODED = object()


@dataclass
class Outcome:
    """An operation's answer: status, the payload, its JSON body and headers.

    A cached answer keeps only the body (`slim`): the parsed payload of a
    search page takes several times its JSON's size, and a cache bounded by
    body bytes would otherwise hold many times its budget in Python objects.
    Such an answer decodes its payload from the body when asked (MCP's
    structured content), without keeping the result.
    """

    status: int
    _payload: Any
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def payload(self) -> Any:
        return orjson.loads(self.body) if self._payload is _UNDECODED else self._payload

    @property
    def is_problem(self) -> bool:
        return self.status >= 400

    def slim(self) -> Outcome:
        """The same answer holding only its body (the payload is decoded again when asked)."""
        return Outcome(self.status, _UNDECODED, self.body, self.headers)


def dumps(payload: Any) -> bytes:
    return orjson.dumps(payload, default=_default)


def _default(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"cannot serialise {type(value).__name__}")


def etag_of(body: bytes) -> str:
    return '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'


def problem_outcome(body: dict[str, Any], headers: dict[str, str] | None = None) -> Outcome:
    return Outcome(body["status"], body, dumps(body), {"content-type": "application/problem+json", **(headers or {})})


class Executor:
    def __init__(
        self,
        services: Services,
        registry: Registry,
        authenticator: Authenticator | None = None,
        idempotency: Idempotency | None = None,
        rate_limiter: RateLimiter | None = None,
        challenge: Callable[..., str] | None = None,
    ) -> None:
        """`challenge(op, error)` or `challenge(op, error, channel)` gives the WWW-Authenticate value of 401/403."""
        self.services = services
        self.registry = registry
        self.authenticator = authenticator or Anonymous()
        self.idempotency = idempotency or NoIdempotency()
        self.rate_limiter = rate_limiter or NoRateLimit()
        self.challenge = challenge or (lambda op, err: 'Bearer realm="launchdir"')
        self._challenge_takes_channel = len(inspect.signature(self.challenge).parameters) >= 3
        # an authenticator may take the channel (OAuth tokens are bound to one resource: REST or MCP)
        self._auth_takes_channel = "channel" in inspect.signature(self.authenticator.authenticate).parameters
        # least recently used first; bounded by entries and by body bytes, so memory levels off
        self._cache: OrderedDict[tuple[Any, ...], tuple[tuple[int, ...], Outcome]] = OrderedDict()
        self._cached_bytes = 0
        self._lock = threading.Lock()

    async def execute(
        self,
        op: Operation,
        raw: dict[str, Any],
        *,
        channel: str,
        authorization: str | None = None,
        idempotency_key: str | None = None,
        ip: str = "",
    ) -> Outcome:
        limit_headers: dict[str, str] = {}
        try:
            try:
                principal = await (self.authenticator.authenticate(authorization, channel=channel)  # type: ignore[call-arg]
                                   if self._auth_takes_channel else self.authenticator.authenticate(authorization))
            except Unauthorized:
                await self.rate_limiter.check(op, None, ip)  # bad credentials count against the caller's address
                raise
            limit_headers = await self.rate_limiter.check(op, principal, ip)
            self._authorize(op, principal)
            check_text(raw)
            cache_key = self._cache_key(op, raw) if op.cache_projections and op.scope is None else None
            if cache_key is not None:
                hit = self._cached(op, cache_key)
                if hit is not None:
                    if op.on_cached is not None:
                        op.on_cached(self.services, hit.payload)  # e.g. count a listing view
                    return _with(hit, limit_headers)
            call = Call(principal=principal, channel=channel, at=self.services.now(), ip=ip)
            try:
                inp = op.input_model.model_validate(raw)
            except ValidationError as exc:
                return problem_outcome(await self._invalid(op, exc, raw, call), limit_headers)

            async def run() -> Outcome:
                return await self._run(op, inp, call)

            positions = self._positions(op)
            # the key's request is the validated input: `"69"` in a REST path and `69` from MCP are one request
            outcome = await self.idempotency.run(principal, idempotency_key, op, inp.model_dump(mode="json"), run)
            if cache_key is not None and outcome.status == op.success_status and self._positions(op) == positions:
                self._store(cache_key, positions, outcome, keep_payload=op.on_cached is not None)
            return _with(outcome, limit_headers)
        except ValidationError as exc:
            return problem_outcome(validation_problem(exc), limit_headers)
        except DomainError as exc:
            headers = dict(limit_headers)
            if isinstance(exc, (Unauthorized, Forbidden)):
                challenge: Callable[..., str] = self.challenge
                headers["www-authenticate"] = challenge(op, exc, channel) if self._challenge_takes_channel else challenge(op, exc)
            if hasattr(exc, "retry_after"):
                headers["retry-after"] = str(exc.retry_after)
            headers.update(getattr(exc, "headers", None) or {})  # e.g. RateLimit fields of a 429
            return problem_outcome(from_domain(exc), headers)
        except Exception:
            log.exception("operation %s failed", op.operation_id)
            return problem_outcome(problem(500, "internal-error", "Internal error", "an unexpected error occurred"))

    async def _invalid(self, op: Operation, exc: ValidationError, raw: dict[str, Any], call: Call) -> dict[str, Any]:
        """The schema's 400, joined by the domain's problems with what the schema accepted (`op.more_problems`),
        so a caller who made several mistakes hears of all of them at once."""
        errors = field_problems(exc)
        if op.more_problems is not None:
            try:
                errors += await anyio.to_thread.run_sync(op.more_problems, self.services, raw, call, list(errors))
            except Exception:  # the schema's answer stands; a check of the rest never turns it into a 500
                log.exception("operation %s: checking the rest of a refused input failed", op.operation_id)
        return invalid_problem(errors)

    def _authorize(self, op: Operation, principal: Principal | None) -> None:
        if op.scope is None:
            return
        if principal is None:
            raise Unauthorized("this operation needs credentials: an API key or an OAuth access token")
        if op.scope not in principal.scopes:
            raise Forbidden(f"this operation needs the scope {op.scope}", scope=op.scope)

    async def _run(self, op: Operation, inp: BaseModel, call: Call) -> Outcome:
        payload = await anyio.to_thread.run_sync(op.handler, self.services, inp, call)
        body = dumps(payload)
        headers = {"content-type": "application/json"}
        if op.method == "GET":
            headers["etag"] = etag_of(body)
            if op.scope is None and op.cache_seconds:
                headers["cache-control"] = f"public, max-age={op.cache_seconds}"
            else:
                headers["cache-control"] = "private, no-cache"
        return Outcome(op.success_status, payload, body, headers)

    # ------------------------------------------------------------ response cache

    def _cache_key(self, op: Operation, raw: dict[str, Any]) -> tuple[Any, ...]:
        items = tuple(sorted((k, str(v)) for k, v in raw.items()))
        day = self.services.today() if op.cache_by_day else None
        return (op.operation_id, items, day)

    def _positions(self, op: Operation) -> tuple[int, ...]:
        positions = self.services.runtime.positions
        gens = self.services.runtime.generations
        return tuple(positions.get(p, 0) * 1000 + gens.get(p, 0) for p in op.cache_projections)

    def _cached(self, op: Operation, key: tuple[Any, ...]) -> Outcome | None:
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
        if hit is not None and hit[0] == self._positions(op):
            return hit[1]
        return None

    def _store(self, key: tuple[Any, ...], positions: tuple[int, ...], outcome: Outcome, keep_payload: bool = False) -> None:
        """Keep `outcome`; the least recently used answers go first when the cache is full.

        Only the body is kept unless `keep_payload` (an operation whose cache hits read the payload, such as
        get_listing counting a view; its documents are shared with the read store's cache, so they cost nothing
        more here).
        """
        with self._lock:
            old = self._cache.pop(key, None)
            if old is not None:
                self._cached_bytes -= len(old[1].body) + ENTRY_COST
            self._cache[key] = (positions, outcome if keep_payload else outcome.slim())
            self._cached_bytes += len(outcome.body) + ENTRY_COST
            while self._cache and (len(self._cache) > MAX_CACHED or self._cached_bytes > MAX_CACHED_BYTES):
                _, (_, dropped) = self._cache.popitem(last=False)
                self._cached_bytes -= len(dropped.body) + ENTRY_COST


def check_text(raw: dict[str, Any]) -> None:
    """Raise InvalidInput naming every field (dotted path) whose text, or key, breaks the text rule."""
    fields = list(text.violations(raw))
    if fields:
        raise InvalidInput(f"invalid value for: {', '.join(sorted(set(fields)))}",
                           [FieldProblem(name, text.RULE, text.MESSAGE) for name in fields])


def _with(outcome: Outcome, headers: dict[str, str]) -> Outcome:
    if not headers:
        return outcome
    return Outcome(outcome.status, outcome._payload, outcome.body, {**outcome.headers, **headers})
