"""Rate limits: per credential when authenticated, per IP address otherwise, GCRA on each policy.

Each caller has two policies: `default` (e.g. 6,000 requests per 900 s with credentials,
3,000 per IP without) and `burst` (e.g. 300 per 10 s). Each policy is a GCRA (generic cell
rate algorithm, a token bucket kept as one number: the theoretical arrival time, TAT): a
request is allowed when `TAT + interval - window <= now`, where `interval = window / quota`,
and then moves the TAT on by one interval. A request counts only when every policy allows it.

Every answer carries the headers of draft-ietf-httpapi-ratelimit-headers in their structured
field form, and a refusal is a 429 with `Retry-After`:

    RateLimit-Policy: "default";q=6000;w=900, "burst";q=300;w=10
    RateLimit: "default";r=5999;t=1, "burst";r=299;t=1

`r` is how many requests could be sent right now, `t` the seconds until the policy's quota is
full again. `LocalRateLimiter` keeps the state in this process (a dict and a lock, no I/O);
`RedisRateLimiter` keeps it in Redis with one atomic script call per request, for several
processes. See docs/idempotency-and-rate-limits.md.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from redis import exceptions as redis_errors

from api.registry import Operation
from api.services import Principal
from events.errors import RateLimited

log = logging.getLogger(__name__)

MAX_KEYS = 100_000
EPSILON = 1e-9


@dataclass(frozen=True)
class Policy:
    """`quota` requests per `window` seconds."""

    name: str
    quota: int
    window: float

    def __post_init__(self) -> None:
        if self.quota < 1 or self.window <= 0:
            raise ValueError(f"rate limit policy {self.name}: quota and window must be positive")

    @property
    def interval(self) -> float:
        return self.window / self.quota

    @property
    def field(self) -> str:
        return f'"{self.name}";q={self.quota};w={_number(self.window)}'


@dataclass(frozen=True)
class Limits:
    """The policies of authenticated callers (per credential) and anonymous ones (per IP)."""

    credential: tuple[Policy, ...]
    anonymous: tuple[Policy, ...]

    @classmethod
    def of(cls, *, credential: int = 6000, anonymous: int = 3000, window: float = 900,
           burst: int = 300, burst_window: float = 10) -> Limits:
        burst_policy = Policy("burst", burst, burst_window)
        return cls(
            credential=(Policy("default", credential, window), burst_policy),
            anonymous=(Policy("default", anonymous, window), burst_policy),
        )

    def for_caller(self, principal: Principal | None) -> tuple[Policy, ...]:
        return self.anonymous if principal is None else self.credential


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    now: float
    tats: tuple[float, ...]  # after the request: moved on when allowed, unchanged when refused
    retry_after: float  # seconds until the request would be allowed (0 when allowed)


def gcra(policies: Sequence[Policy], tats: Sequence[float], now: float) -> Verdict:
    """Decide one request against every policy; it counts only when all of them allow it."""
    moved = []
    wait = 0.0
    for policy, tat in zip(policies, tats):
        start = max(tat, now)
        allow_at = start + policy.interval - policy.window
        if allow_at > now + EPSILON:
            wait = max(wait, allow_at - now)
        moved.append(start + policy.interval)
    if wait > 0:
        return Verdict(False, now, tuple(tats), wait)
    return Verdict(True, now, tuple(moved), 0.0)


def limit_headers(policies: Sequence[Policy], verdict: Verdict) -> dict[str, str]:
    """`RateLimit-Policy` and `RateLimit` (structured-field lists, one item per policy)."""
    items = []
    for policy, tat in zip(policies, verdict.tats):
        ahead = tat - verdict.now
        if ahead <= 0:
            items.append(f'"{policy.name}";r={policy.quota};t=0')
            continue
        remaining = max(0, min(policy.quota, math.floor((policy.window - ahead) / policy.interval + EPSILON)))
        items.append(f'"{policy.name}";r={remaining};t={math.ceil(ahead - EPSILON)}')
    return {"ratelimit-policy": _policy_field(tuple(policies)), "ratelimit": ", ".join(items)}


@functools.lru_cache(maxsize=64)
def _policy_field(policies: tuple[Policy, ...]) -> str:
    return ", ".join(p.field for p in policies)


class OverLimit(RateLimited):
    """A 429 that also carries the rate-limit headers of the refusal."""

    def __init__(self, detail: str, retry_after: int, headers: dict[str, str]) -> None:
        super().__init__(detail, retry_after)
        self.headers = headers


def bucket_of(principal: Principal | None, ip: str) -> str:
    """Whose quota a request uses: the credential's account and kind, or the client address."""
    if principal is not None:
        return f"cred:{principal.kind}:{principal.account_id}"
    return _address_bucket(ip)


@functools.lru_cache(maxsize=65_536)
def _address_bucket(ip: str) -> str:
    """IPv6 clients are grouped by their /64 (one host usually holds a whole /64)."""
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return f"ip:{ip or 'unknown'}"
    if isinstance(address, ipaddress.IPv6Address):
        mapped = address.ipv4_mapped
        if mapped is not None:
            return f"ip:{mapped}"
        return f"ip:{ipaddress.IPv6Network((address, 64), strict=False)}"
    return f"ip:{address}"


def refusal(policies: Sequence[Policy], verdict: Verdict, principal: Principal | None) -> OverLimit:
    seconds = max(1, math.ceil(verdict.retry_after - EPSILON))
    tight = [p for p, tat in zip(policies, verdict.tats)
             if max(tat, verdict.now) + p.interval - p.window > verdict.now + EPSILON]
    which = "; ".join(f"{p.quota} requests per {_number(p.window)} s" for p in tight)
    who = "this credential" if principal is not None else "this IP address"
    return OverLimit(f"rate limit exceeded for {who} ({which}); retry in {seconds} s",
                     seconds, limit_headers(policies, verdict))


class LocalRateLimiter:
    """The `RateLimiter` hook with its state in this process: thread-safe, bounded, no I/O."""

    def __init__(self, limits: Limits, *, clock: Callable[[], float] = time.monotonic,
                 max_keys: int = MAX_KEYS) -> None:
        self.limits = limits
        self.clock = clock
        self.max_keys = max_keys
        self._tats: dict[str, tuple[float, ...]] = {}
        self._lock = threading.Lock()

    async def check(self, op: Operation, principal: Principal | None, ip: str) -> dict[str, str]:
        return self.hit(principal, ip)

    async def count(self, principal: Principal | None, ip: str) -> dict[str, str]:
        """One request outside the executor (e.g. client registration); `OverLimit` when refused."""
        return self.hit(principal, ip)

    def hit(self, principal: Principal | None, ip: str) -> dict[str, str]:
        """Count one request; the headers when allowed, `OverLimit` when not."""
        policies = self.limits.for_caller(principal)
        bucket = bucket_of(principal, ip)
        with self._lock:
            now = self.clock()
            tats = self._tats.get(bucket)
            verdict = gcra(policies, tats or (now,) * len(policies), now)
            if verdict.allowed:
                if tats is None:
                    if len(self._tats) >= self.max_keys:
                        self._make_room(now)
                else:
                    del self._tats[bucket]  # re-inserted last: the dict is ordered by last use
                self._tats[bucket] = verdict.tats
        if not verdict.allowed:
            raise refusal(policies, verdict, principal)
        return limit_headers(policies, verdict)

    def _make_room(self, now: float) -> None:
        """Forget buckets that are full again (same as unknown), then the least recently used,
        down to 90 % of the bound so the sweep runs at most once per tenth of `max_keys` new callers."""
        for key in [k for k, tats in self._tats.items() if max(tats) <= now]:
            del self._tats[key]
        keep = int(self.max_keys * 0.9)
        while len(self._tats) > keep:
            del self._tats[next(iter(self._tats))]


# KEYS: one per policy. ARGV[1]: now in ms ('' = ask Redis for TIME), then interval and window
# in ms per policy. Returns {allowed, now, tat_1, ...} as strings (Lua numbers would be truncated).
GCRA_LUA = """
local now
if ARGV[1] ~= '' then
  now = tonumber(ARGV[1])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
end
local n = #KEYS
local before, after = {}, {}
local allowed = 1
for i = 1, n do
  local interval = tonumber(ARGV[2 * i])
  local window = tonumber(ARGV[2 * i + 1])
  local stored = redis.call('GET', KEYS[i])
  local tat = now
  if stored then tat = math.max(tonumber(stored), now) end
  before[i] = tat
  after[i] = tat + interval
  if tat + interval - window > now + 0.000001 then allowed = 0 end
end
local out = {tostring(allowed), string.format('%.3f', now)}
for i = 1, n do
  if allowed == 1 then
    redis.call('SET', KEYS[i], string.format('%.3f', after[i]), 'PX', math.ceil(after[i] - now) + 1)
    out[i + 2] = string.format('%.3f', after[i])
  else
    out[i + 2] = string.format('%.3f', before[i])
  end
end
return out
"""


class RedisRateLimiter:
    """The same limits kept in Redis: one EVALSHA per request, atomic across processes.

    Redis's own clock is used unless a `clock` is given (tests). When Redis cannot be reached
    the limiter falls back to in-process counting for `cooldown` seconds instead of failing
    requests.
    """

    def __init__(self, limits: Limits, client: Any, *, prefix: str = "launchdir:rl:",
                 clock: Callable[[], float] | None = None, cooldown: float = 5.0) -> None:
        self.limits = limits
        self.client = client
        self.prefix = prefix
        self.clock = clock
        self.cooldown = cooldown
        self.fallback = LocalRateLimiter(limits, clock=clock or time.monotonic)
        self._script = client.register_script(GCRA_LUA)
        self._down_until = 0.0

    async def check(self, op: Operation, principal: Principal | None, ip: str) -> dict[str, str]:
        return await self.count(principal, ip)

    async def count(self, principal: Principal | None, ip: str) -> dict[str, str]:
        """One request, counted in Redis (in-process while Redis is away); `OverLimit` when refused."""
        if time.monotonic() < self._down_until:
            return self.fallback.hit(principal, ip)
        policies = self.limits.for_caller(principal)
        bucket = bucket_of(principal, ip)
        keys = [f"{self.prefix}{{{bucket}}}:{p.name}" for p in policies]  # one hash slot per bucket
        args: list[str] = [f"{self.clock() * 1000:.3f}" if self.clock else ""]
        for p in policies:
            args += [f"{p.interval * 1000:.6f}", f"{p.window * 1000:.3f}"]
        try:
            reply = await self._script(keys=keys, args=args)
        except (redis_errors.RedisError, OSError) as exc:
            self._down_until = time.monotonic() + self.cooldown
            log.warning("Redis rate limiter unreachable (%s); counting in-process for %.0f s", exc, self.cooldown)
            return self.fallback.hit(principal, ip)
        values = [float(v) for v in reply]
        now = values[1] / 1000
        tats = tuple(v / 1000 for v in values[2:])
        allowed = values[0] == 1
        verdict = Verdict(allowed, now, tats, 0.0 if allowed else _wait(policies, tats, now))
        if not allowed:
            raise refusal(policies, verdict, principal)
        return limit_headers(policies, verdict)


def _wait(policies: Sequence[Policy], tats: Sequence[float], now: float) -> float:
    return max(max(tat, now) + p.interval - p.window - now for p, tat in zip(policies, tats))


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
