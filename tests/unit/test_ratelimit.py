"""Rate-limit arithmetic (GCRA) with an injected clock, buckets, headers, memory bound and settings."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from api.executor import NoRateLimit
from api.ratelimit import (
    Limits,
    LocalRateLimiter,
    OverLimit,
    Policy,
    RedisRateLimiter,
    bucket_of,
    gcra,
)
from api.services import Principal
from launchdir.settings import Settings

KEY = Principal(account_id="acct-1", scopes=frozenset(), kind="api_key")
OAUTH = Principal(account_id="acct-1", scopes=frozenset(), kind="oauth")
OTHER = Principal(account_id="acct-2", scopes=frozenset(), kind="api_key")


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def limiter(clock: Clock, **limits: float) -> LocalRateLimiter:
    values = {"credential": 20, "anonymous": 10, "window": 100, "burst": 4, "burst_window": 8, **limits}
    return LocalRateLimiter(Limits.of(**values), clock=clock)  # type: ignore[arg-type]


def allowed(hit: Callable[[], dict[str, str]], n: int) -> int:
    count = 0
    for _ in range(n):
        try:
            hit()
            count += 1
        except OverLimit:
            pass
    return count


# ---------------------------------------------------------------- the algorithm


def test_a_fresh_bucket_allows_the_whole_quota_at_once_then_refuses() -> None:
    policy = (Policy("p", 5, 10),)
    tats = (0.0,)
    for _ in range(5):
        verdict = gcra(policy, tats, 100.0)
        assert verdict.allowed
        tats = verdict.tats
    refused = gcra(policy, tats, 100.0)
    assert not refused.allowed and refused.tats == tats
    assert refused.retry_after == pytest.approx(2.0)  # one interval: 10 s / 5


def test_the_quota_comes_back_one_interval_at_a_time() -> None:
    policy = (Policy("p", 5, 10),)
    tats = (110.0,)  # exhausted at t=100
    assert not gcra(policy, tats, 101.9).allowed
    back = gcra(policy, tats, 102.0)
    assert back.allowed and back.tats == (pytest.approx(112.0),)
    assert not gcra(policy, back.tats, 102.0).allowed


def test_a_steady_rate_at_the_quota_is_never_refused() -> None:
    policy = (Policy("p", 5, 10),)
    tats = (0.0,)
    for i in range(1000):
        verdict = gcra(policy, tats, 100.0 + i * 2.0)
        assert verdict.allowed
        tats = verdict.tats


def test_a_request_counts_only_when_every_policy_allows_it() -> None:
    policies = (Policy("default", 100, 100), Policy("burst", 2, 10))
    tats = (0.0, 0.0)
    for _ in range(2):
        tats = gcra(policies, tats, 50.0).tats
    refused = gcra(policies, tats, 50.0)
    assert not refused.allowed
    assert refused.tats == tats  # the default policy was not charged for the refusal
    assert refused.retry_after == pytest.approx(5.0)


def test_headers_follow_the_structured_field_form() -> None:
    clock = Clock()
    rl = limiter(clock, credential=6000, window=900, burst=300, burst_window=10)
    headers = rl.hit(KEY, "203.0.113.9")
    assert headers["ratelimit-policy"] == '"default";q=6000;w=900, "burst";q=300;w=10'
    assert headers["ratelimit"] == '"default";r=5999;t=1, "burst";r=299;t=1'
    for _ in range(9):
        headers = rl.hit(KEY, "203.0.113.9")
    assert headers["ratelimit"] == '"default";r=5990;t=2, "burst";r=290;t=1'
    clock.now += 0.5  # the burst policy is full again; the default one earned back 3
    assert rl.hit(KEY, "")["ratelimit"] == '"default";r=5992;t=2, "burst";r=299;t=1'


def test_over_the_limit_is_a_429_with_retry_after_and_the_headers() -> None:
    clock = Clock()
    rl = limiter(clock)  # burst 4 per 8 s
    for _ in range(4):
        rl.hit(None, "198.51.100.7")
    with pytest.raises(OverLimit) as refused:
        rl.hit(None, "198.51.100.7")
    err = refused.value
    assert err.code == "rate-limited"
    assert err.retry_after == 2
    assert err.detail == "rate limit exceeded for this IP address (4 requests per 8 s); retry in 2 s"
    assert err.headers == {
        "ratelimit-policy": '"default";q=10;w=100, "burst";q=4;w=8',
        "ratelimit": '"default";r=6;t=40, "burst";r=0;t=8',
    }
    clock.now += 1.99
    with pytest.raises(OverLimit):
        rl.hit(None, "198.51.100.7")
    clock.now += 0.01
    assert rl.hit(None, "198.51.100.7")["ratelimit"].endswith('"burst";r=0;t=8')


def test_the_long_window_limits_after_bursts_are_spent() -> None:
    clock = Clock()
    rl = limiter(clock)  # anonymous: 10 per 100 s, burst 4 per 8 s
    total = 0
    for _ in range(5):
        total += allowed(lambda: rl.hit(None, "192.0.2.1"), 10)
        clock.now += 8
    assert total == 10 + 3  # the quota, plus what 32 s earned back at one per 10 s
    rl.hit(None, "192.0.2.1")  # 40 s: the fourth one earned back
    with pytest.raises(OverLimit) as refused:
        rl.hit(None, "192.0.2.1")
    assert "10 requests per 100 s" in refused.value.detail


# ---------------------------------------------------------------- whose quota


def test_credentials_and_addresses_have_separate_quotas() -> None:
    clock = Clock()
    rl = limiter(clock)
    assert allowed(lambda: rl.hit(None, "192.0.2.1"), 10) == 4
    assert allowed(lambda: rl.hit(None, "192.0.2.2"), 10) == 4  # another address
    assert allowed(lambda: rl.hit(KEY, "192.0.2.1"), 10) == 4  # a credential from the spent address
    assert allowed(lambda: rl.hit(KEY, "192.0.2.9"), 10) == 0  # the credential's quota follows it
    assert allowed(lambda: rl.hit(OAUTH, "192.0.2.1"), 10) == 4  # the same account's other credential kind
    assert allowed(lambda: rl.hit(OTHER, "192.0.2.1"), 10) == 4


def test_credentials_get_the_larger_long_window_quota() -> None:
    clock = Clock()
    rl = limiter(clock, burst=1000)
    assert allowed(lambda: rl.hit(None, "192.0.2.1"), 50) == 10
    assert allowed(lambda: rl.hit(KEY, "192.0.2.1"), 50) == 20


def test_buckets() -> None:
    assert bucket_of(KEY, "192.0.2.1") == "cred:api_key:acct-1"
    assert bucket_of(None, "192.0.2.1") == "ip:192.0.2.1"
    assert bucket_of(None, "2001:db8:1:2:aaaa::1") == bucket_of(None, "2001:db8:1:2:bbbb::2") == "ip:2001:db8:1:2::/64"
    assert bucket_of(None, "2001:db8:1:3::1") != bucket_of(None, "2001:db8:1:2::1")
    assert bucket_of(None, "::ffff:192.0.2.1") == "ip:192.0.2.1"
    assert bucket_of(None, "") == "ip:unknown"
    assert bucket_of(None, "testclient") == "ip:testclient"


# ---------------------------------------------------------------- memory and threads


def test_memory_is_bounded_full_buckets_go_first_then_the_least_recently_used() -> None:
    clock = Clock()
    rl = LocalRateLimiter(Limits.of(anonymous=10, window=100, burst=10, burst_window=10), clock=clock, max_keys=3)
    rl.hit(None, "192.0.2.1")
    clock.now += 200  # this bucket is full again: the same as unknown
    rl.hit(None, "192.0.2.2")
    rl.hit(None, "192.0.2.3")
    rl.hit(None, "192.0.2.4")
    assert set(rl._tats) == {"ip:192.0.2.2", "ip:192.0.2.3", "ip:192.0.2.4"}
    rl.hit(None, "192.0.2.5")  # nothing is full: the least recently used goes
    assert set(rl._tats) == {"ip:192.0.2.3", "ip:192.0.2.4", "ip:192.0.2.5"}
    rl.hit(None, "192.0.2.3")
    rl.hit(None, "192.0.2.6")
    assert set(rl._tats) == {"ip:192.0.2.5", "ip:192.0.2.3", "ip:192.0.2.6"}


def test_concurrent_threads_never_exceed_the_quota() -> None:
    clock = Clock()
    rl = LocalRateLimiter(Limits.of(credential=500, window=900, burst=500, burst_window=10), clock=clock)
    counts: list[int] = []

    def worker() -> None:
        counts.append(allowed(lambda: rl.hit(KEY, ""), 200))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(counts) == 500


# ---------------------------------------------------------------- configuration


def test_defaults_are_at_least_ten_times_product_hunts_public_limit() -> None:
    limits = Limits.of()
    product_hunt = 450 / (15 * 60)  # requests per second
    assert [(p.name, p.quota, p.window) for p in limits.credential] == [("default", 6000, 900), ("burst", 300, 10)]
    assert [(p.name, p.quota, p.window) for p in limits.anonymous] == [("default", 3000, 900), ("burst", 300, 10)]
    assert limits.credential[0].quota / limits.credential[0].window >= 10 * product_hunt
    assert limits.anonymous[0].quota / limits.anonymous[0].window >= 5 * product_hunt


def test_settings_read_the_environment() -> None:
    s = Settings.from_env({})
    assert (s.rate_limits, s.rate_limit_credential, s.rate_limit_anonymous, s.rate_limit_window) == (True, 6000, 3000, 900)
    assert (s.rate_limit_burst, s.rate_limit_burst_window, s.idempotency_retention_hours) == (300, 10, 48)
    custom = Settings.from_env({
        "LAUNCHDIR_RATE_LIMIT_CREDENTIAL": "100", "LAUNCHDIR_RATE_LIMIT_ANONYMOUS": "50",
        "LAUNCHDIR_RATE_LIMIT_WINDOW": "60", "LAUNCHDIR_RATE_LIMIT_BURST": "5",
        "LAUNCHDIR_RATE_LIMIT_BURST_WINDOW": "2", "LAUNCHDIR_IDEMPOTENCY_RETENTION_HOURS": "72",
    })
    assert (custom.rate_limit_credential, custom.rate_limit_anonymous, custom.rate_limit_window) == (100, 50, 60)
    assert (custom.rate_limit_burst, custom.rate_limit_burst_window, custom.idempotency_retention_hours) == (5, 2, 72)
    for off in ("off", "OFF", "0", "false", "no"):
        assert Settings.from_env({"LAUNCHDIR_RATE_LIMITS": off}).rate_limits is False
    assert Settings.from_env({"LAUNCHDIR_RATE_LIMITS": "on"}).rate_limits is True


def test_bootstrap_picks_the_limiter_from_settings() -> None:
    from launchdir.bootstrap import rate_limiter

    assert isinstance(rate_limiter(Settings(rate_limits=False)), NoRateLimit)
    local = rate_limiter(Settings(rate_limit_burst=7))
    assert isinstance(local, LocalRateLimiter) and local.limits.credential[1].quota == 7
    shared = rate_limiter(Settings(redis_url="redis://127.0.0.1:6379/0"))
    assert isinstance(shared, RedisRateLimiter)  # built lazily: no connection is made here


def test_policies_must_be_positive() -> None:
    with pytest.raises(ValueError):
        Policy("p", 0, 10)
    with pytest.raises(ValueError):
        Policy("p", 10, 0)
