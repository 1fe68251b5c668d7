"""Settings, read from the environment once and passed to every layer (nothing else reads os.environ)."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

from api.in_flight import BUSY_REQUESTS
from api.web_page_cache import STALE_SECONDS


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


def _mail_dir(value: str | None, smtp_url: str | None, data_dir: Path) -> Path | None:
    """`LAUNCHDIR_MAIL_DIR`: where mail goes without `SMTP_URL`; unset, `mail/` in the data directory; `off`: nowhere.

    A fresh install has no mail server, yet a person who signs up needs the
    link that confirms the address: the local mailbox is the offline default
    that delivers it (docs/identity.md, "Email").
    """
    if smtp_url:
        return None
    chosen = (value or "").strip()
    if chosen.lower() in ("off", "none", "0", "false", "no"):
        return None
    return Path(chosen).expanduser().absolute() if chosen else data_dir / "mail"


def _list(value: str | None) -> list[str]:
    return [v.strip() for v in (value or "").split(",") if v.strip()]


def _vote_threads(value: str | None) -> int | None:
    """`LAUNCHDIR_VOTE_THREADS`: unset or empty for the default, else a whole number from 1 to 256."""
    if not (value or "").strip():
        return None
    try:
        n = int(str(value).strip())
    except ValueError:
        raise ValueError(f"LAUNCHDIR_VOTE_THREADS must be a whole number, not {value!r}") from None
    if not 1 <= n <= 256:
        raise ValueError(f"LAUNCHDIR_VOTE_THREADS must be from 1 to 256, not {n}")
    return n


DATA_DIR_NAME = ".launchdir"


def _is_checkout(directory: Path) -> bool:
    """True when `directory` holds launchdir's own pyproject.toml (the root of a checkout)."""
    try:
        with (directory / "pyproject.toml").open("rb") as f:
            return bool(tomllib.load(f).get("project", {}).get("name") == "launchdir")
    except (OSError, tomllib.TOMLDecodeError):
        return False


def default_data_dir(cwd: Path | None = None) -> Path:
    """`.launchdir` of the checkout, found the same way from any directory in it.

    Walking up from `cwd`, the first directory that has a `.launchdir` or is the root of a
    launchdir checkout wins; outside any, `.launchdir` in `cwd`. Always absolute, so a
    command run from a subdirectory never starts a second, empty database.
    """
    start = (cwd or Path.cwd()).absolute()
    for directory in (start, *start.parents):
        if (directory / DATA_DIR_NAME).is_dir() or _is_checkout(directory):
            return directory / DATA_DIR_NAME
    return start / DATA_DIR_NAME


def _data_dir(value: str | None) -> Path:
    """LAUNCHDIR_DATA_DIR (relative to the current directory), else `default_data_dir()`."""
    return Path(value).expanduser().absolute() if value else default_data_dir()


KEEP_ALIVE_SECONDS = 75
"""Longer than the idle expiry of the clients and proxies in front (httpx and many pools: 5 s; nginx, load
balancers: 60 s), so the client always gives up an idle connection first: a server that closes one at the
moment a client reuses it makes that request fail with a closed connection (docs/performance.md, "Voting burst")."""


@dataclass(frozen=True)
class Settings:
    database_url: str | None = None
    database_replica_url: str | None = None  # a streaming replica of database_url that queries read from (docs/performance.md)
    data_dir: Path = field(default_factory=default_data_dir)
    host: str = "127.0.0.1"
    port: int = 8000
    public_url: str | None = None
    # Whether the environment named where the site answers (LAUNCHDIR_PUBLIC_URL, _HOST or _PORT); when it did
    # not, the address the last `launchdir serve` recorded is used (launchdir/site_address.py).
    address_given: bool = True
    timezone: str = "UTC"
    allowed_hosts: list[str] = field(default_factory=list)
    allowed_origins: list[str] = field(default_factory=list)
    run_projectors: bool = True
    db_pool_size: int = 20
    redis_url: str | None = None
    elasticsearch_url: str | None = None
    elasticsearch_index: str = "launchdir-listings"
    view_flush_seconds: float = 30.0
    anthropic_api_key: str | None = None
    anthropic_model: str = "claude-sonnet-4-5"
    smtp_url: str | None = None
    mail_dir: Path | None = None  # the local mailbox without SMTP_URL (workers/adapters/mailbox.py); None: outbox only
    crawl_allow_loopback: bool = False
    dns_nameservers: list[str] = field(default_factory=list)  # claim checks' resolvers (host[:port]); empty: the system's
    job_workers: int = 4
    job_queue: str = "launchdir"
    draft_timeout_seconds: int = 600
    crawl_retention_days: int = 30
    load_catalog: bool = True
    rate_limits: bool = True
    rate_limit_credential: int = 6000
    rate_limit_anonymous: int = 3000
    rate_limit_window: int = 900
    rate_limit_burst: int = 300
    rate_limit_burst_window: int = 10
    idempotency_retention_hours: int = 48
    oauth_cimd_ca_file: str | None = None  # an extra CA to trust when fetching client ID metadata documents
    trusted_proxies: list[str] = field(default_factory=list)  # addresses whose X-Forwarded-* headers count
    max_body_bytes: int = 1_048_576  # larger request bodies are refused with 413
    keep_alive_seconds: int = KEEP_ALIVE_SECONDS  # how long an idle HTTP connection stays open (launchdir/serving.py)
    busy_requests: int = BUSY_REQUESTS  # requests in flight from which a process is busy (api/in_flight.py)
    busy_stale_seconds: float = STALE_SECONDS  # how old a signed-out page may be while busy (api/web_page_cache.py)
    vote_threads: int | None = None  # threads of a process's votes' pool (None: api/web_votes.py VOTE_THREADS)
    production: bool = False  # LAUNCHDIR_PRODUCTION: refuse to start with the test payment provider
    opentelemetry: bool = False  # LAUNCHDIR_OPENTELEMETRY: FastAPI's spans, metrics and logs (api/app.py)
    stripe_secret_key: str | None = None  # Stripe is the payment provider when set (docs/orders.md)
    stripe_webhook_secret: str | None = None
    stripe_api_base: str | None = None  # another Stripe API address (the local stand-in in tests)
    payment_methods: list[str] = field(default_factory=lambda: ["card"])  # Stripe Checkout's payment_method_types
    seller_country: str = "IE"  # where the seller is established: decides domestic VAT
    vies: bool = False  # also check VAT numbers in VIES (needs the internet)
    vies_url: str = "https://ec.europa.eu/taxation_customs/vies/rest-api"  # LAUNCHDIR_VIES_URL (a stand-in in tests)
    vote_signal_secret: str | None = None  # HMAC key of votes' network and user-agent hashes (docs/voting.md)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        e = dict(os.environ if env is None else env)
        data_dir = _data_dir(e.get("LAUNCHDIR_DATA_DIR"))
        return cls(
            database_url=e.get("DATABASE_URL") or None,
            database_replica_url=e.get("DATABASE_REPLICA_URL") or None,
            data_dir=data_dir,
            host=e.get("LAUNCHDIR_HOST") or "127.0.0.1",
            port=int(e.get("LAUNCHDIR_PORT") or 8000),
            public_url=(e.get("LAUNCHDIR_PUBLIC_URL") or "").rstrip("/") or None,
            address_given=any(e.get(name) for name in ("LAUNCHDIR_PUBLIC_URL", "LAUNCHDIR_HOST", "LAUNCHDIR_PORT")),
            timezone=e.get("LAUNCHDIR_TIMEZONE") or "UTC",
            allowed_hosts=_list(e.get("LAUNCHDIR_ALLOWED_HOSTS")),
            allowed_origins=_list(e.get("LAUNCHDIR_ALLOWED_ORIGINS")),
            run_projectors=(e.get("LAUNCHDIR_PROJECTORS") or "inline").lower() != "external",
            db_pool_size=int(e.get("LAUNCHDIR_DB_POOL_SIZE") or 20),
            redis_url=e.get("REDIS_URL") or None,
            elasticsearch_url=e.get("ELASTICSEARCH_URL") or None,
            elasticsearch_index=e.get("LAUNCHDIR_ELASTICSEARCH_INDEX") or "launchdir-listings",
            view_flush_seconds=float(e.get("LAUNCHDIR_VIEW_FLUSH_SECONDS") or 30),
            anthropic_api_key=e.get("ANTHROPIC_API_KEY") or None,
            anthropic_model=e.get("ANTHROPIC_MODEL") or "claude-sonnet-4-5",
            smtp_url=e.get("SMTP_URL") or None,
            mail_dir=_mail_dir(e.get("LAUNCHDIR_MAIL_DIR"), e.get("SMTP_URL") or None, data_dir),
            crawl_allow_loopback=_flag(e.get("LAUNCHDIR_CRAWL_ALLOW_LOOPBACK")),
            dns_nameservers=_list(e.get("LAUNCHDIR_DNS_NAMESERVERS")),
            job_workers=int(e.get("LAUNCHDIR_JOB_WORKERS") or 4),
            job_queue=e.get("LAUNCHDIR_JOB_QUEUE") or "launchdir",
            draft_timeout_seconds=int(e.get("LAUNCHDIR_DRAFT_TIMEOUT") or 600),
            crawl_retention_days=int(e.get("LAUNCHDIR_CRAWL_RETENTION_DAYS") or 30),
            rate_limits=(e.get("LAUNCHDIR_RATE_LIMITS") or "on").strip().lower() not in ("off", "0", "false", "no"),
            rate_limit_credential=int(e.get("LAUNCHDIR_RATE_LIMIT_CREDENTIAL") or 6000),
            rate_limit_anonymous=int(e.get("LAUNCHDIR_RATE_LIMIT_ANONYMOUS") or 3000),
            rate_limit_window=int(e.get("LAUNCHDIR_RATE_LIMIT_WINDOW") or 900),
            rate_limit_burst=int(e.get("LAUNCHDIR_RATE_LIMIT_BURST") or 300),
            rate_limit_burst_window=int(e.get("LAUNCHDIR_RATE_LIMIT_BURST_WINDOW") or 10),
            idempotency_retention_hours=int(e.get("LAUNCHDIR_IDEMPOTENCY_RETENTION_HOURS") or 48),
            oauth_cimd_ca_file=e.get("LAUNCHDIR_OAUTH_CIMD_CA_FILE") or None,
            trusted_proxies=_list(e.get("LAUNCHDIR_TRUSTED_PROXIES")),
            max_body_bytes=int(e.get("LAUNCHDIR_MAX_BODY_BYTES") or 1_048_576),
            keep_alive_seconds=int(e.get("LAUNCHDIR_KEEP_ALIVE_SECONDS") or KEEP_ALIVE_SECONDS),
            busy_requests=int(e.get("LAUNCHDIR_BUSY_REQUESTS") or BUSY_REQUESTS),
            busy_stale_seconds=float(e.get("LAUNCHDIR_BUSY_STALE_SECONDS") or STALE_SECONDS),
            vote_threads=_vote_threads(e.get("LAUNCHDIR_VOTE_THREADS")),
            production=_flag(e.get("LAUNCHDIR_PRODUCTION")),
            opentelemetry=_flag(e.get("LAUNCHDIR_OPENTELEMETRY")),
            stripe_secret_key=e.get("STRIPE_SECRET_KEY") or None,
            stripe_webhook_secret=e.get("STRIPE_WEBHOOK_SECRET") or None,
            stripe_api_base=e.get("STRIPE_API_BASE") or None,
            payment_methods=_list(e.get("LAUNCHDIR_PAYMENT_METHODS")) or ["card"],
            seller_country=(e.get("LAUNCHDIR_SELLER_COUNTRY") or "IE").upper(),
            vies=_flag(e.get("LAUNCHDIR_VIES")),
            vies_url=e.get("LAUNCHDIR_VIES_URL") or "https://ec.europa.eu/taxation_customs/vies/rest-api",
            vote_signal_secret=e.get("LAUNCHDIR_VOTE_SIGNAL_SECRET") or None,
        )

    def with_server(self, host: str, port: int) -> Settings:
        """Where `serve` listens: its own address, whatever an earlier server recorded."""
        return replace(self, host=host, port=port, address_given=True)

    @property
    def base_url(self) -> str:
        """The public URL of the site; defaults to where `serve` listens."""
        if self.public_url:
            return self.public_url
        host = f"[{self.host}]" if ":" in self.host else self.host
        if host in ("0.0.0.0", "[::]"):
            host = "127.0.0.1"
        return f"http://{host}:{self.port}"

    def mcp_hosts(self) -> tuple[list[str], list[str]]:
        """Hosts and origins the MCP endpoint accepts (DNS-rebinding protection)."""
        hosts = ["127.0.0.1:*", "localhost:*", "[::1]:*", *self.allowed_hosts]
        origins = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*", *self.allowed_origins]
        public = self.base_url.split("://", 1)[1]
        hosts.append(public)
        origins.append(self.base_url)
        return hosts, origins
