"""Idempotency-Key through the executor, on real PostgreSQL, with a real command appending real events.

The registry has no mutating operation yet, so these tests declare one: `bump_product_price`
raises a product's price by a number of cents. It is deliberately not idempotent by itself
(every run appends one `ProductPriceSet` to the catalogue stream), so counting the events in
the event store counts the effects.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import anyio
import orjson
import pytest
from pydantic import BaseModel, ConfigDict, Field

from aggregates import catalog
from api.executor import Executor, Outcome
from api.idempotency import TABLE, PostgresIdempotency, fingerprint, parse_key
from api.registry import Operation, Registry
from api.services import Call, Principal, Services
from commands.catalog import current_catalog
from commands.store import retrying
from events.catalog import ProductPriceSet
from events.errors import InvalidInput, Unavailable
from tests.conftest import Databases
from tests.conftest import test_settings as settings_for

CODE = "launch"


class BumpProductPrice(BaseModel):
    """Raise a product's price by some cents (a test operation)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    code: str = Field(max_length=60)
    by_cents: int = Field(ge=1, le=1000)


class PriceBumped(BaseModel):
    code: str
    price_cents: int
    position: int


class Runs:
    """How often the handler ran, and hooks to make a run fail or block."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()
        self.fail_next: BaseException | None = None
        self.started = threading.Event()
        self.release = threading.Event()
        self.release.set()

    def handler(self, s: Services, inp: BumpProductPrice, call: Call) -> dict[str, Any]:
        with self.lock:
            self.count += 1
            failure, self.fail_next = self.fail_next, None
        self.started.set()
        self.release.wait(10)
        if failure is not None:
            raise failure

        def attempt() -> tuple[int, int]:
            state = current_catalog(s.store)
            price = state.products[inp.code].price_cents + inp.by_cents if inp.code in state.products else 1
            return s.store.append(catalog.decide_set_price(state, inp.code, price, call.meta())), price

        position, price = retrying(attempt)
        return {"code": inp.code, "price_cents": price, "position": position}


class Tokens:
    """Bearer tokens `acct-*` stand for the account of that name (scopes are not needed here)."""

    async def authenticate(self, authorization: str | None) -> Principal | None:
        if not authorization:
            return None
        return Principal(account_id=authorization.removeprefix("Bearer "), scopes=frozenset(), kind="api_key")


@pytest.fixture(scope="module")
def container(databases: Databases) -> Iterator[Any]:
    from launchdir.bootstrap import bootstrap, ensure_catalog

    c = bootstrap(settings_for(databases.create()))
    ensure_catalog(c)
    yield c
    c.close()


@pytest.fixture
def runs() -> Runs:
    return Runs()


def make_executor(container: Any, runs: Runs, **idem: Any) -> tuple[Executor, Operation]:
    op = Operation("bump_product_price", "POST", "/products/{code}/bump", BumpProductPrice, PriceBumped,
                   runs.handler, idempotency_key=True, success_status=201, tag="test")
    idempotency = PostgresIdempotency(container.pool, **idem)
    idempotency.setup()  # again: bootstrap created the table already; set-up is repeatable
    return Executor(container.services, Registry([op]), authenticator=Tokens(), idempotency=idempotency), op


@pytest.fixture
def executor(container: Any, runs: Runs) -> tuple[Executor, Operation]:
    return make_executor(container, runs)


def price_events(container: Any) -> int:
    return sum(isinstance(e, ProductPriceSet) for e in container.store.stream(catalog.CATALOG_ID))


def new_key() -> str:
    return f"test-{uuid.uuid4()}"


async def call(ex: tuple[Executor, Operation], key: str | None, by: int = 5, token: str | None = None,
               code: str = CODE) -> Outcome:
    executor, op = ex
    return await executor.execute(op, {"code": code, "by_cents": by}, channel="rest",
                                  authorization=f"Bearer {token}" if token else None, idempotency_key=key)


def problem(outcome: Outcome) -> dict[str, Any]:
    assert outcome.headers["content-type"] == "application/problem+json"
    return orjson.loads(outcome.body)  # type: ignore[no-any-return]


# ---------------------------------------------------------------- replay and conflict


async def test_the_same_key_and_body_replays_the_first_answer(container, runs, executor) -> None:  # type: ignore[no-untyped-def]
    before = price_events(container)
    key = new_key()
    first = await call(executor, key, token="acct-replay")
    again = await call(executor, key, token="acct-replay")
    assert first.status == again.status == 201
    assert again.body == first.body
    assert again.payload == orjson.loads(first.body)
    assert "idempotent-replayed" not in first.headers
    assert again.headers == {**first.headers, "idempotent-replayed": "true"}
    assert runs.count == 1
    assert price_events(container) == before + 1


async def test_the_same_key_with_another_body_is_a_409_problem(container, runs, executor) -> None:  # type: ignore[no-untyped-def]
    before = price_events(container)
    key = new_key()
    first = await call(executor, key, by=5, token="acct-conflict")
    other = await call(executor, key, by=6, token="acct-conflict")
    assert first.status == 201
    assert other.status == 409
    body = problem(other)
    assert body["type"] == "/problems/idempotency-key-reused"
    assert body["title"] == "Idempotency-Key reused"
    assert "different request" in body["detail"] and key in body["detail"]
    assert runs.count == 1
    assert price_events(container) == before + 1
    assert (await call(executor, key, by=5, token="acct-conflict")).headers["idempotent-replayed"] == "true"


async def test_keys_of_different_accounts_never_collide(container, runs, executor) -> None:  # type: ignore[no-untyped-def]
    before = price_events(container)
    key = new_key()
    answers = [await call(executor, key, token=t) for t in ("acct-one", "acct-two", None)]
    assert [a.status for a in answers] == [201, 201, 201]
    assert all("idempotent-replayed" not in a.headers for a in answers)
    assert len({a.payload["price_cents"] for a in answers}) == 3
    assert runs.count == 3
    assert price_events(container) == before + 3
    # each scope replays its own answer
    replayed = await call(executor, key, token="acct-two")
    assert replayed.body == answers[1].body and replayed.headers["idempotent-replayed"] == "true"


async def test_without_a_key_every_request_runs(container, runs, executor) -> None:  # type: ignore[no-untyped-def]
    before = price_events(container)
    first, second = await call(executor, None), await call(executor, None)
    assert first.status == second.status == 201
    assert second.payload["price_cents"] == first.payload["price_cents"] + 5
    assert price_events(container) == before + 2


@pytest.mark.parametrize("key", ["short", "x" * 256, "schlüssel-1234", "tab\there-1234", "line\nbreak-1234", ""])
async def test_a_malformed_key_is_a_400_naming_the_header(container, runs, executor, key: str) -> None:  # type: ignore[no-untyped-def]
    before = price_events(container)
    outcome = await call(executor, key)
    assert outcome.status == 400
    body = problem(outcome)
    assert body["type"] == "/problems/validation-error"
    assert body["errors"] == [{"field": "Idempotency-Key", "rule": "format",
                               "message": "must be 8 to 255 printable ASCII characters (space to ~), e.g. a UUID"}]
    assert runs.count == 0
    assert price_events(container) == before


def test_key_format_bounds_and_structured_field_quotes() -> None:
    assert parse_key("a" * 8) == "a" * 8
    assert parse_key("~" * 255) == "~" * 255
    assert parse_key('"8e03978e-40d5-43e8-bc93-6894a57f9324"') == "8e03978e-40d5-43e8-bc93-6894a57f9324"
    for bad in ("a" * 7, "a" * 256, '"short"', "\x7f" * 8, "é" * 8):
        with pytest.raises(InvalidInput):
            parse_key(bad)


def test_the_fingerprint_is_canonical_json_of_the_operation_and_input() -> None:
    assert fingerprint("op", {"a": 1, "b": [1, 2]}) == fingerprint("op", {"b": [1, 2], "a": 1})
    assert fingerprint("op", {"a": 1}) != fingerprint("other_op", {"a": 1})
    assert fingerprint("op", {"a": 1}) != fingerprint("op", {"a": "1"})


async def test_a_quoted_key_is_the_same_key(container, runs, executor) -> None:  # type: ignore[no-untyped-def]
    key = new_key()
    first = await call(executor, key)
    again = await call(executor, f'"{key}"')
    assert again.body == first.body and again.headers["idempotent-replayed"] == "true"
    assert runs.count == 1


async def test_operations_without_the_flag_ignore_the_header(container) -> None:  # type: ignore[no-untyped-def]
    op = container.executor.registry.get("get_site_info")
    outcome = await container.executor.execute(op, {}, channel="rest", idempotency_key="bad")
    assert outcome.status == 200 and "idempotent-replayed" not in outcome.headers


# ---------------------------------------------------------------- concurrency


async def test_twenty_concurrent_requests_with_one_key_make_one_effect(container, runs, executor) -> None:  # type: ignore[no-untyped-def]
    before = price_events(container)
    key = new_key()
    runs.release.clear()  # hold the first run until every request has arrived
    answers: list[Outcome] = []

    async def one() -> None:
        answers.append(await call(executor, key, token="acct-race"))

    async with anyio.create_task_group() as tg:
        for _ in range(20):
            tg.start_soon(one)
        await anyio.to_thread.run_sync(runs.started.wait, 10)
        await anyio.sleep(0.2)
        runs.release.set()
    assert runs.count == 1
    assert price_events(container) == before + 1
    assert len(answers) == 20
    assert {(a.status, a.body) for a in answers} == {(201, answers[0].body)}
    assert sum(a.headers.get("idempotent-replayed") == "true" for a in answers) == 19


async def test_a_waiter_gives_up_with_409_in_progress_after_its_bound(container, runs) -> None:  # type: ignore[no-untyped-def]
    ex = make_executor(container, runs, wait_seconds=0.3)
    key = new_key()
    runs.release.clear()
    answers: list[Outcome] = []

    async def one() -> None:
        answers.append(await call(ex, key))

    async with anyio.create_task_group() as tg:
        tg.start_soon(one)
        await anyio.to_thread.run_sync(runs.started.wait, 10)
        waiting = await call(ex, key)
        runs.release.set()
    assert waiting.status == 409
    assert problem(waiting)["type"] == "/problems/idempotency-key-in-use"
    assert waiting.headers["retry-after"] == "1"
    assert answers[0].status == 201
    assert (await call(ex, key)).body == answers[0].body
    assert runs.count == 1


# ---------------------------------------------------------------- failures


async def test_a_5xx_releases_the_key_so_a_retry_runs(container, runs, executor) -> None:  # type: ignore[no-untyped-def]
    before = price_events(container)
    key = new_key()
    runs.fail_next = Unavailable("the store is busy")
    failed = await call(executor, key)
    assert failed.status == 503
    runs.fail_next = RuntimeError("crash")
    crashed = await call(executor, key)
    assert crashed.status == 500
    retried = await call(executor, key)
    assert retried.status == 201 and "idempotent-replayed" not in retried.headers
    assert runs.count == 3
    assert price_events(container) == before + 1


async def test_a_4xx_is_stored_and_replayed(container, runs, executor) -> None:  # type: ignore[no-untyped-def]
    key = new_key()
    first = await call(executor, key, code="no_such_product")
    again = await call(executor, key, code="no_such_product")
    assert first.status == again.status == 404
    assert again.body == first.body
    assert problem(again)["type"] == "/problems/not-found"
    assert again.headers["idempotent-replayed"] == "true"
    assert runs.count == 1


async def test_a_cancelled_caller_still_records_the_effect(container, runs, executor) -> None:  # type: ignore[no-untyped-def]
    before = price_events(container)
    key = new_key()
    runs.release.clear()
    async with anyio.create_task_group() as tg:
        tg.start_soon(call, executor, key)
        await anyio.to_thread.run_sync(runs.started.wait, 10)
        tg.cancel_scope.cancel()  # the client went away while the handler runs
        runs.release.set()
    await anyio.sleep(0.2)
    replayed = await call(executor, key)
    assert replayed.status == 201 and replayed.headers["idempotent-replayed"] == "true"
    assert runs.count == 1
    assert price_events(container) == before + 1


def _insert(container: Any, account: str, key: str, state: str, locked: str, expires: str, fp: str) -> None:
    with container.pool.connection() as conn:
        conn.execute(
            f"INSERT INTO {TABLE} (account, operation, key, fingerprint, state, owner, locked_until, status,"
            f" headers, body, expires_at) VALUES (%s, 'bump_product_price', %s, %s, %s, %s, now() + %s::interval,"
            f" 201, '{{}}', '\\x7b7d', now() + %s::interval)",
            (account, key, fp, state, uuid.uuid4(), locked, expires),
        )


async def test_a_dead_owners_reservation_is_taken_over_after_its_lease(container, runs, executor) -> None:  # type: ignore[no-untyped-def]
    key = new_key()
    fp = fingerprint("bump_product_price", {"code": CODE, "by_cents": 5})
    _insert(container, "anonymous", key, "running", "-1 second", "48 hours", fp)  # its process died
    outcome = await call(executor, key)
    assert outcome.status == 201 and "idempotent-replayed" not in outcome.headers
    assert runs.count == 1


async def test_expired_keys_run_again_and_are_purged(container, runs, executor) -> None:  # type: ignore[no-untyped-def]
    key = new_key()
    first = await call(executor, key)
    with container.pool.connection() as conn:
        kept = conn.execute(f"SELECT expires_at - now() FROM {TABLE} WHERE key = %s", (key,)).fetchone()[0]
        assert timedelta(hours=47, minutes=59) < kept <= timedelta(hours=48)
        conn.execute(f"UPDATE {TABLE} SET expires_at = now() - interval '1 second' WHERE key = %s", (key,))
    again = await call(executor, key)
    assert again.status == 201 and "idempotent-replayed" not in again.headers
    assert again.payload["price_cents"] == first.payload["price_cents"] + 5
    old = new_key()
    _insert(container, "anonymous", old, "done", "0 seconds", "-1 hour", "x")
    idem: PostgresIdempotency = executor[0].idempotency  # type: ignore[assignment]
    assert idem.purge_expired() >= 1
    with container.pool.connection() as conn:
        assert conn.execute(f"SELECT count(*) FROM {TABLE} WHERE key = %s", (old,)).fetchone()[0] == 0
        assert conn.execute(f"SELECT count(*) FROM {TABLE} WHERE expires_at < now()").fetchone()[0] == 0


def test_retention_is_at_least_a_day(container) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        PostgresIdempotency(container.pool, retention=timedelta(hours=23))


def test_bootstrap_wires_the_postgres_store(container) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(container.executor.idempotency, PostgresIdempotency)
    assert container.executor.idempotency.retention == timedelta(hours=48)
