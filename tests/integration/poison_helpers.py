"""Events as a database from before the text rule may hold them, and a projection that refuses chosen events.

Events with NUL go through the event store as any write did then; a lone
surrogate cannot be encoded by the store's transcoder, so it is written as the
JSON escape `\\ud800` into the stored state (which decodes to one), and an
event "from an older version" lacks a field its class has now.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime, timezone
from typing import Any
from uuid import UUID, uuid4

from psycopg import Cursor
from psycopg_pool import ConnectionPool

from aggregates.base import Emitter, Meta
from commands import account as account_cmd
from commands import apikeys as apikeys_cmd
from commands import draft as draft_cmd
from commands.store import EventStore, LaunchdirEvents
from events.account import AccountRegistered
from events.catalog import ProductPriceSet
from events.draft import DraftFieldEdited
from launchdir.database import eventsourcing_env
from projections.base import Projection, Tables, handles
from projections.failures import RetryPolicy
from projections.log import EventLog
from projections.runtime import ProjectionRuntime

OPS = Meta(at=datetime(2026, 3, 2, tzinfo=timezone.utc), actor="staff:test", channel="cli")
FAST = RetryPolicy(first=0.0, cap=0.0, attempts=3, slow=3600.0)  # every attempt due at once; failing after three


def now_meta(actor: str = "anonymous", channel: str = "web") -> Meta:
    return Meta(at=datetime.now(timezone.utc), actor=actor, channel=channel)


class Picky(Projection):
    """Records each price it is given, and refuses the prices in `poison` (a bug it has until fixed)."""

    name = "picky"
    tables = ("prices",)

    def __init__(self, poison: set[int], in_database: bool = False) -> None:
        self.poison = set(poison)
        self.in_database = in_database  # refused by PostgreSQL (a NOT NULL column) instead of by Python

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(f"CREATE TABLE {t['prices']} (stream uuid NOT NULL, version int NOT NULL, cents int NOT NULL)")

    @handles(ProductPriceSet)
    def _price(self, cur: Cursor[Any], t: Tables, e: ProductPriceSet) -> None:
        cents: int | None = e.price_cents
        if e.price_cents in self.poison:
            if not self.in_database:
                raise RuntimeError(f"cannot take a price of {e.price_cents} cents")
            cents = None
        cur.execute(f"INSERT INTO {t['prices']} VALUES (%s, %s, %s)", (e.originator_id, e.originator_version, cents))


def make(conninfo: str, projections: list[Projection], retry: RetryPolicy = FAST,
         ) -> tuple[EventStore, ProjectionRuntime, ConnectionPool]:
    app = LaunchdirEvents(env=eventsourcing_env(conninfo, 10))
    store = EventStore(app)
    pool = ConnectionPool(conninfo, min_size=1, max_size=10, open=True)
    runtime = ProjectionRuntime(pool, conninfo, EventLog(app), projections, retry=retry)
    runtime.setup()
    store.on_append(runtime.wake)
    return store, runtime, pool


def id_of_price(runtime: ProjectionRuntime, cents: int) -> int:
    """The notification id of the price change to `cents`."""
    from eventsourcing.utils import get_topic

    for event_id, event in runtime.events.read(0, runtime.events.head(), [get_topic(ProductPriceSet)], 1_000_000):
        if event.price_cents == cents:
            return event_id
    raise AssertionError(f"no price change to {cents}")


def prices(pool: ConnectionPool, table: str) -> list[int]:
    with pool.connection() as conn:
        return [int(r[0]) for r in conn.execute(f"SELECT cents FROM {table} ORDER BY cents").fetchall()]


def store_raw(store: EventStore, event: Any, edit: Any) -> int:
    """Store `event` with its stored JSON state changed by `edit(dict) -> str` (bypassing the transcoder's checks)."""
    app = store.app
    stored = app.mapper.to_stored_event(event)
    state = edit(json.loads(stored.state))
    app.recorder.insert_events([dataclasses.replace(stored, state=state.encode("ascii"))])
    return store.position()


def register(store: EventStore, email: str) -> UUID:
    """An AccountRegistered appended as it was before the text rule (no check of the address)."""
    account_id = uuid4()
    event = AccountRegistered(originator_id=account_id, originator_version=1, timestamp=datetime.now(timezone.utc),
                              actor="anonymous", channel="web", email=email, password_hash=None)
    store.append([event])
    return account_id


def register_with_lone_surrogate(store: EventStore) -> UUID:
    """An account whose stored address holds a lone surrogate (JSON `\\ud800`)."""
    account_id = uuid4()
    event = AccountRegistered(originator_id=account_id, originator_version=1, timestamp=datetime.now(timezone.utc),
                              actor="anonymous", channel="web", email="lone-MARK@example.org", password_hash=None)

    def edit(state: dict[str, Any]) -> str:
        return json.dumps(state, ensure_ascii=True).replace("MARK", "\\ud800")

    store_raw(store, event, edit)
    return account_id


def person(store: EventStore, timezone_: Any) -> tuple[str, str]:
    """A verified account with an API key that may write listings: (account id, key)."""
    email = f"founder-{uuid4().hex[:10]}@example.com"
    reg = account_cmd.register_account(store, account_cmd.RegisterAccount(
        account_id=uuid4(), email=email, password=None, verified=True), OPS, None)
    assert reg.account_id is not None
    key = apikeys_cmd.create_api_key(store, apikeys_cmd.CreateApiKey(
        account_id=reg.account_id, name="poison", scopes=["account:read", "listings:write"]),  # type: ignore[arg-type]  # pydantic takes the id as text
        now_meta(f"account:{reg.account_id}"), timezone_)
    return reg.account_id, key.key


def draft(store: EventStore, account_id: str, site: str) -> UUID:
    """A draft of `site` (no crawl queued; the URL is not resolved)."""
    submitted = draft_cmd.submit_listing(store, draft_cmd.SubmitListing(url=f"https://{site}/"), account_id,
                                         now_meta(f"account:{account_id}", "rest"), check_url=lambda *_: None, jobs=None)
    return submitted.draft_id


def edit_field(store: EventStore, draft_id: UUID, account_id: str, value: str) -> int:
    """A DraftFieldEdited of `name` as update_draft stored it before the text rule."""
    emit = Emitter(draft_cmd.load(store, draft_id), now_meta(f"account:{account_id}", "rest"))
    emit(DraftFieldEdited, field="name", value=value, state="edited")
    return store.append(emit.events)


def edit_without_field(store: EventStore, draft_id: UUID, account_id: str) -> int:
    """A DraftFieldEdited stored without its `field` (as an older version of the code might have): poison."""
    emit = Emitter(draft_cmd.load(store, draft_id), now_meta(f"account:{account_id}", "rest"))
    event = emit(DraftFieldEdited, field="name", value="x", state="edited")

    def edit(state: dict[str, Any]) -> str:
        state.pop("field")
        return json.dumps(state, ensure_ascii=True)

    return store_raw(store, event, edit)
