"""Wire the ports to adapters once, from settings (cosmicpython's bootstrap).

Every layer receives what it needs from here, so a test can build exactly the
pieces it uses against its own database.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from psycopg_pool import ConnectionPool

from aggregates.base import Meta
from api.app import WebConfig, create_app
from api.executor import Executor
from api.ops import build_registry
from api.services import Services
from commands import catalog as catalog_cmd
from commands.ids import IdAllocator
from commands.store import EventStore, LaunchdirEvents
from launchdir.database import eventsourcing_env, resolve_database_url
from launchdir.settings import Settings
from projections.base import Projection
from projections.catalog_view import CatalogView
from projections.log import EventLog
from projections.reads import ReadStore
from projections.runtime import ProjectionRuntime

log = logging.getLogger(__name__)


def all_projections() -> list[Projection]:
    """Every projection the service runs (one line each)."""
    return [
        CatalogView(),
    ]


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class Container:
    settings: Settings
    conninfo: str
    store: EventStore
    pool: ConnectionPool
    runtime: ProjectionRuntime
    services: Services
    executor: Executor
    extras: dict[str, Any] = field(default_factory=dict)

    def close(self) -> None:
        self.runtime.stop()
        self.pool.close()
        self.store.app.close()

    def system_meta(self, actor: str = "system", channel: str = "system") -> Meta:
        return Meta(at=self.services.now(), actor=actor, channel=channel)


def links(base_url: str) -> dict[str, str]:
    return {
        "website": base_url + "/",
        "api": base_url + "/api/v1",
        "api_docs": base_url + "/api/v1/docs",
        "openapi": base_url + "/api/v1/openapi.json",
        "mcp": base_url + "/mcp",
    }


def bootstrap(settings: Settings, *, clock: Any = utc_now) -> Container:
    conninfo = resolve_database_url(settings.database_url, settings.data_dir)
    app = LaunchdirEvents(env=eventsourcing_env(conninfo, settings.db_pool_size))
    pool = ConnectionPool(conninfo, min_size=2, max_size=settings.db_pool_size, open=True, name="reads")
    store = EventStore(app, ids=IdAllocator(pool))
    runtime = ProjectionRuntime(pool, conninfo, EventLog(app), all_projections())
    runtime.setup()
    store.on_append(runtime.wake)
    reads = ReadStore(pool, runtime)
    services = Services(
        store=store, reads=reads, runtime=runtime, links=links(settings.base_url),
        timezone=ZoneInfo(settings.timezone), clock=clock, settings=settings,
    )
    executor = Executor(services, build_registry())
    return Container(settings, conninfo, store, pool, runtime, services, executor)


def default_catalog() -> dict[str, Any]:
    text = resources.files("launchdir").joinpath("data/catalog.json").read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def ensure_catalog(c: Container, path: Path | None = None, update: bool = False) -> int:
    """Load the catalogue file through the command (adds only what is missing unless `update`)."""
    spec = json.loads(path.read_text(encoding="utf-8")) if path else default_catalog()
    return catalog_cmd.load_catalog(c.store, catalog_cmd.LoadCatalog(spec=spec, update=update), c.system_meta())


def web_app(c: Container) -> Any:
    hosts, origins = c.settings.mcp_hosts()
    config = WebConfig(public_url=c.settings.base_url, allowed_hosts=hosts, allowed_origins=origins)
    if c.settings.run_projectors:
        config.on_startup.append(lambda: [c.runtime.catch_up(name) for name in c.runtime.projections])
    config.on_startup.append(lambda: c.runtime.start(run_projectors=c.settings.run_projectors))
    config.on_shutdown.append(c.runtime.stop)
    return create_app(c.executor, config)
