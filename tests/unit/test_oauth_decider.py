"""The OAuth deciders, given/when/then, no database: clients, consent and codes, redemption, rotation, revocation."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from functools import reduce
from typing import Any
from uuid import uuid4

import pytest

from aggregates import oauth as o
from aggregates.base import Meta
from events.errors import Conflict, NotFound
from events.oauth import (
    OAuthClientRegistered,
    OAuthCodeIssued,
    OAuthCodeRedeemed,
    OAuthConsentGiven,
    OAuthGrantRevoked,
    OAuthTokenFamilyRevoked,
    OAuthTokensIssued,
    OAuthTokensRotated,
)

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
ACCOUNT, CLIENT = "acct-1", "client-1"


def meta(minutes: float = 0) -> Meta:
    return Meta(at=T0 + timedelta(minutes=minutes), actor="account:acct-1", channel="web")


def fold(state: Any, events: list[Any]) -> Any:
    return reduce(lambda s, e: o.evolve(e, s), events, state)


def register(**overrides: Any) -> list[Any]:
    args: dict[str, Any] = dict(client_name="App", redirect_uris=["http://127.0.0.1:9/cb"],
                                grant_types=["authorization_code", "refresh_token"], response_types=["code"],
                                token_endpoint_auth_method="none", scope=None, client_uri=None, logo_uri=None,
                                software_id=None, software_version=None, secret_hash=None, secret_expires_at=None,
                                meta=meta())
    args.update(overrides)
    return o.decide_register_client(o.initial_client(uuid4()), **args)


def consented(grant: o.GrantState | None = None, code_hash: str = "c1", minutes: float = 0,
              scopes: tuple[str, ...] = ("account:read",)) -> tuple[o.GrantState, str]:
    grant = grant or o.initial_grant(o.grant_stream(ACCOUNT, CLIENT))
    family = str(uuid4())
    events = o.decide_consent(
        grant, account_id=ACCOUNT, client_id=CLIENT, client_name="App", client_host="127.0.0.1",
        client_kind="registered", scopes=list(scopes), resource="https://site/mcp", code_hash=code_hash,
        family_id=family, redirect_uri="http://127.0.0.1:9/cb", redirect_uri_explicit=True, code_challenge="x" * 43,
        expires_at=T0 + timedelta(minutes=minutes + 10), meta=meta(minutes))
    return fold(grant, events), family


def redeemed(grant: o.GrantState, family_id: str, code_hash: str = "c1", minutes: float = 1) -> tuple[o.GrantState, o.FamilyState]:
    from uuid import UUID

    family = o.initial_family(UUID(family_id))
    events = o.decide_redeem(grant, family, code_hash=code_hash, client_id=CLIENT, access_hash="a1",
                             access_expires_at=T0 + timedelta(hours=1), refresh_hash="r1",
                             refresh_expires_at=T0 + timedelta(days=30), meta=meta(minutes))
    return fold(grant, [e for e in events if e.originator_id == grant.id]), fold(family, [e for e in events if e.originator_id == family.id])


def rotate(family: o.FamilyState, grant: o.GrantState, presented: str, new: str, minutes: float = 60) -> list[Any]:
    return o.decide_refresh(family, grant, presented_hash=presented, client_id=CLIENT, scopes=None,
                            access_hash="a-" + new, access_expires_at=T0 + timedelta(minutes=minutes + 60),
                            refresh_hash=new, refresh_expires_at=T0 + timedelta(days=31), meta=meta(minutes))


# ---------------------------------------------------------------- clients


def test_a_public_client_registers_without_a_secret() -> None:
    [event] = register()
    assert isinstance(event, OAuthClientRegistered) and event.secret_hash is None
    assert fold(o.initial_client(event.originator_id), [event]).exists


@pytest.mark.parametrize("overrides, error, words", [
    ({"redirect_uris": ["http://app.example/cb"]}, "invalid_redirect_uri", "loopback"),
    ({"redirect_uris": ["https://app.example/cb#f"]}, "invalid_redirect_uri", "fragment"),
    ({"redirect_uris": ["javascript:alert(1)"]}, "invalid_redirect_uri", "not allowed"),
    ({"redirect_uris": ["myapp:/cb"]}, "invalid_redirect_uri", "reverse domain"),
    ({"redirect_uris": ["https://user:pw@app.example/cb"]}, "invalid_redirect_uri", "user name"),
    ({"redirect_uris": []}, "invalid_redirect_uri", "at least one"),
    ({"token_endpoint_auth_method": "client_secret_post"}, "invalid_client_metadata", "secret"),
    ({"grant_types": ["refresh_token"]}, "invalid_client_metadata", "authorization_code"),
    ({"grant_types": ["authorization_code", "implicit"]}, "invalid_client_metadata", "refresh_token is the only"),
    ({"response_types": ["token"]}, "invalid_client_metadata", "response_types"),
    ({"scope": "account:read root"}, "invalid_client_metadata", "'root'"),
    ({"client_name": "x" * 201}, "invalid_client_metadata", "client_name"),
])
def test_registration_refusals(overrides: dict[str, Any], error: str, words: str) -> None:
    with pytest.raises(o.OAuthRefused) as refused:
        register(**overrides)
    assert refused.value.error == error and words in refused.value.detail


def test_allowed_redirect_uris() -> None:
    for uri in ("https://app.example/cb", "http://127.0.0.1:8123/cb", "http://localhost/cb", "http://[::1]:9/cb",
                "com.example.app:/oauth2redirect"):
        assert o.redirect_uri_problem(uri) is None, uri


# ---------------------------------------------------------------- consent and codes


def test_consent_records_the_scopes_and_issues_a_code() -> None:
    grant = o.initial_grant(o.grant_stream(ACCOUNT, CLIENT))
    events = o.decide_consent(
        grant, account_id=ACCOUNT, client_id=CLIENT, client_name="App", client_host="127.0.0.1",
        client_kind="registered", scopes=["orders:write", "account:read"], resource="https://site/mcp",
        code_hash="c1", family_id="f", redirect_uri="http://127.0.0.1:9/cb", redirect_uri_explicit=True,
        code_challenge="x" * 43, expires_at=T0 + timedelta(minutes=10), meta=meta())
    assert [type(e) for e in events] == [OAuthConsentGiven, OAuthCodeIssued]
    assert events[0].scopes == ["account:read", "orders:write"]  # the server's order
    with pytest.raises(o.OAuthRefused) as refused:
        o.decide_consent(grant, account_id=ACCOUNT, client_id=CLIENT, client_name="App", client_host="h",
                         client_kind="registered", scopes=["admin"], resource="r", code_hash="c2", family_id="f",
                         redirect_uri="u", redirect_uri_explicit=True, code_challenge="x" * 43,
                         expires_at=T0, meta=meta())
    assert refused.value.error == "invalid_scope"


def test_a_code_gives_tokens_once() -> None:
    from uuid import UUID

    grant, family_id = consented()
    events = o.decide_redeem(grant, o.initial_family(UUID(family_id)), code_hash="c1", client_id=CLIENT,
                             access_hash="a1", access_expires_at=T0, refresh_hash="r1", refresh_expires_at=T0,
                             meta=meta(1))
    assert [type(e) for e in events] == [OAuthCodeRedeemed, OAuthTokensIssued]
    assert events[1].originator_id == UUID(family_id) and events[1].scopes == ["account:read"]
    grant, family = redeemed(grant, family_id)
    assert grant.codes["c1"].used and family.exists and family.refresh_hash == "r1"
    with pytest.raises(o.OAuthRefused) as replay:
        o.decide_redeem(grant, family, code_hash="c1", client_id=CLIENT, access_hash="a2",
                        access_expires_at=T0, refresh_hash="r2", refresh_expires_at=T0, meta=meta(2))
    assert replay.value.error == "invalid_grant" and "already used" in replay.value.detail
    [revoke] = replay.value.events  # a replay revokes what the code gave
    assert isinstance(revoke, OAuthTokenFamilyRevoked) and revoke.reason == "code_replayed"
    assert revoke.originator_id == family.id


def test_a_family_that_exists_means_its_code_was_used_though_the_grant_read_before_does_not_show_it() -> None:
    """Two redemptions at once: the second read the grant before the first committed, and the family after."""
    grant, family_id = consented()
    _, family = redeemed(grant, family_id)  # what the first redemption wrote to the family
    assert not grant.codes["c1"].used and family.exists
    with pytest.raises(o.OAuthRefused) as replay:
        o.decide_redeem(grant, family, code_hash="c1", client_id=CLIENT, access_hash="a2",
                        access_expires_at=T0, refresh_hash="r2", refresh_expires_at=T0, meta=meta(2))
    assert replay.value.error == "invalid_grant" and "already used" in replay.value.detail
    [revoke] = replay.value.events
    assert isinstance(revoke, OAuthTokenFamilyRevoked) and revoke.reason == "code_replayed"


@pytest.mark.parametrize("case, words", [
    ("unknown", "unknown authorization code"),
    ("other_client", "unknown authorization code"),
    ("expired", "expired at"),
    ("revoked_grant", "revoked this app's access"),
])
def test_codes_that_give_nothing(case: str, words: str) -> None:
    from uuid import UUID

    grant, family_id = consented()
    code_hash, client_id, minutes = "c1", CLIENT, 1.0
    if case == "unknown":
        code_hash = "nope"
    elif case == "other_client":
        client_id = "client-2"
    elif case == "expired":
        minutes = 10
    elif case == "revoked_grant":
        grant = fold(grant, o.decide_revoke_grant(grant, ACCOUNT, meta(0.5)))
    with pytest.raises(o.OAuthRefused) as refused:
        o.decide_redeem(grant, o.initial_family(UUID(family_id)), code_hash=code_hash, client_id=client_id,
                        access_hash="a", access_expires_at=T0, refresh_hash="r", refresh_expires_at=T0, meta=meta(minutes))
    assert refused.value.error == "invalid_grant" and words in refused.value.detail and not refused.value.events


def test_long_dead_codes_are_forgotten() -> None:
    grant, _ = consented(code_hash="old")
    grant, _ = consented(grant, code_hash="new", minutes=60 * 25)
    assert set(grant.codes) == {"new"}


# ---------------------------------------------------------------- refresh: rotation and reuse detection


def test_rotation_spends_the_refresh_token() -> None:
    grant, family_id = consented()
    grant, family = redeemed(grant, family_id)
    [rotated] = rotate(family, grant, "r1", "r2")
    assert isinstance(rotated, OAuthTokensRotated) and rotated.previous_refresh_hash == "r1"
    family = fold(family, [rotated])
    assert family.refresh_hash == "r2" and "r1" in family.spent
    assert isinstance(rotate(family, grant, "r2", "r3", 120)[0], OAuthTokensRotated)


def test_a_reused_refresh_token_revokes_the_family() -> None:
    grant, family_id = consented()
    grant, family = redeemed(grant, family_id)
    family = fold(family, rotate(family, grant, "r1", "r2"))
    with pytest.raises(o.OAuthRefused) as reused:
        rotate(family, grant, "r1", "r3", 90)
    assert reused.value.error == "invalid_grant" and "already used once" in reused.value.detail
    [revoke] = reused.value.events
    assert isinstance(revoke, OAuthTokenFamilyRevoked) and revoke.reason == "refresh_token_reused"
    family = fold(family, [revoke])
    with pytest.raises(o.OAuthRefused) as after:
        rotate(family, grant, "r2", "r4", 100)  # the legitimate holder's token is dead too
    assert "revoked (refresh token reused)" in after.value.detail and not after.value.events


@pytest.mark.parametrize("case, error, words", [
    ("unknown", "invalid_grant", "unknown refresh token"),
    ("expired", "invalid_grant", "expired at"),
    ("grant_revoked", "invalid_grant", "revoked this app's access"),
    ("wider_scope", "invalid_scope", "'orders:write'"),
])
def test_refresh_refusals(case: str, error: str, words: str) -> None:
    grant, family_id = consented()
    grant, family = redeemed(grant, family_id)
    presented, minutes, scopes = "r1", 60.0, None
    if case == "unknown":
        presented = "zz"
    elif case == "expired":
        minutes = 60 * 24 * 31
    elif case == "grant_revoked":
        grant = fold(grant, o.decide_revoke_grant(grant, ACCOUNT, meta(30)))
    elif case == "wider_scope":
        scopes = ["account:read", "orders:write"]
    with pytest.raises(o.OAuthRefused) as refused:
        o.decide_refresh(family, grant, presented_hash=presented, client_id=CLIENT, scopes=scopes, access_hash="a",
                         access_expires_at=T0, refresh_hash="r9", refresh_expires_at=T0, meta=meta(minutes))
    assert refused.value.error == error and words in refused.value.detail


# ---------------------------------------------------------------- revocation


def test_revoking_a_grant_voids_its_codes_and_twice_changes_nothing() -> None:
    grant, _ = consented()
    [revoked] = o.decide_revoke_grant(grant, ACCOUNT, meta(1))
    assert isinstance(revoked, OAuthGrantRevoked)
    grant = fold(grant, [revoked])
    assert grant.epoch == 1 and o.decide_revoke_grant(grant, ACCOUNT, meta(2)) == []
    with pytest.raises(NotFound):
        o.decide_revoke_grant(grant, "someone-else", meta(2))
    grant, _ = consented(grant, code_hash="c2", minutes=3)  # a new consent makes it revocable again
    assert o.decide_revoke_grant(grant, ACCOUNT, meta(4))


def test_family_revocation_is_idempotent() -> None:
    grant, family_id = consented()
    grant, family = redeemed(grant, family_id)
    events = o.decide_revoke_family(family, "revoked_by_client", meta(5))
    assert [type(e) for e in events] == [OAuthTokenFamilyRevoked]
    assert o.decide_revoke_family(fold(family, events), "revoked_by_client", meta(6)) == []
    assert o.decide_revoke_family(o.initial_family(uuid4()), "revoked_by_client", meta(6)) == []


def test_a_grant_belongs_to_one_account_and_client() -> None:
    grant, _ = consented()
    with pytest.raises(Conflict):
        o.decide_consent(grant, account_id="acct-2", client_id=CLIENT, client_name="App", client_host="h",
                         client_kind="registered", scopes=["account:read"], resource="r", code_hash="c9",
                         family_id="f", redirect_uri="u", redirect_uri_explicit=True, code_challenge="x" * 43,
                         expires_at=T0, meta=meta())
