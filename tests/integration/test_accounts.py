"""Accounts on real PostgreSQL: sign-up, verification, passwords, resets, keys, the verifier, races."""

from __future__ import annotations

import hashlib
import re
import threading
from datetime import date, datetime, timedelta, timezone
from uuid import UUID, uuid4

import pytest

from aggregates import account
from aggregates.base import Meta
from api.auth import InvalidToken
from commands import account as account_cmd
from commands import apikeys as apikeys_cmd
from events.account import AccountRegistered, ApiKeyCreated, EmailAddressClaimed
from events.errors import InvalidInput, NotFound
from queries import accounts as accounts_q
from queries import mail as mail_q

PASSWORD = "correct horse battery"
VIEWS = ("accounts_view", "mail_view")


def meta(at: datetime | None = None, actor: str = "anonymous") -> Meta:
    return Meta(at=at or datetime.now(timezone.utc), actor=actor, channel="web")


def identity(c):  # type: ignore[no-untyped-def]
    return c.identity


def catch_up(c) -> None:  # type: ignore[no-untyped-def]
    for view in VIEWS:
        c.runtime.catch_up(view)


def email() -> str:
    return f"Person.{uuid4().hex[:10]}@Example.com"


def sign_up(c, address: str, password: str = PASSWORD, at: datetime | None = None):  # type: ignore[no-untyped-def]
    cmd = account_cmd.RegisterAccount(account_id=uuid4(), email=address, password=password)
    return account_cmd.register_account(c.store, cmd, meta(at), identity(c).links)


def link_in_outbox(c, address: str, kind: str) -> str:  # type: ignore[no-untyped-def]
    catch_up(c)
    [latest, *_] = [m for m in mail_q.outbox(c.reads if hasattr(c, "reads") else c.services.reads, to=address.lower())
                    if m["kind"] == kind]
    return re.search(r"(https?://\S+)", latest["text"]).group(1)  # type: ignore[union-attr]


def token_of(link: str) -> str:
    return link.split("token=", 1)[1]


def verified_account(c) -> account.AccountState:  # type: ignore[no-untyped-def]
    address = email()
    sign_up(c, address)
    account_cmd.verify_email(c.store, token_of(link_in_outbox(c, address, "verify_email")), meta(), identity(c).links)
    state = account_cmd.find_account(c.store, address)
    assert state is not None and state.email_verified
    return state


# ---------------------------------------------------------------- sign-up and verification


def test_sign_up_stores_only_an_argon2_hash_and_queues_a_verification_link(container) -> None:  # type: ignore[no-untyped-def]
    address = email()
    result = sign_up(container, address)
    state = account_cmd.load_account(container.store, result.account_id)
    events = container.store.stream(UUID(result.account_id))
    assert [type(e) for e in events] == [AccountRegistered]
    assert state.email == address.lower()
    assert state.password_hash.startswith("$argon2id$") and PASSWORD not in state.password_hash  # type: ignore[union-attr]
    claim = container.store.stream(account.email_stream_id(address.lower()))
    assert [type(e) for e in claim] == [EmailAddressClaimed] and claim[0].account_id == result.account_id
    link = link_in_outbox(container, address, "verify_email")
    assert link.startswith(container.services.links["website"] + "verify?token=")
    doc = accounts_q.account(container.services.reads, result.account_id)
    assert doc is not None and doc["email"] == address.lower() and doc["email_verified"] is False


def test_a_verification_link_works_once(container) -> None:  # type: ignore[no-untyped-def]
    address = email()
    result = sign_up(container, address)
    token = token_of(link_in_outbox(container, address, "verify_email"))
    links = identity(container).links
    _, account_id = account_cmd.verify_email(container.store, token, meta(), links)
    assert account_id == result.account_id
    catch_up(container)
    assert accounts_q.account(container.services.reads, account_id)["email_verified"] is True  # type: ignore[index]
    with pytest.raises(InvalidInput) as used:
        account_cmd.verify_email(container.store, token, meta(), links)
    assert used.value.problems[0].rule == "used"


def test_tampered_and_expired_verification_links_are_refused(container) -> None:  # type: ignore[no-untyped-def]
    address = email()
    sign_up(container, address, at=datetime.now(timezone.utc) - timedelta(hours=49))
    token = token_of(link_in_outbox(container, address, "verify_email"))
    links = identity(container).links
    with pytest.raises(InvalidInput) as expired:
        account_cmd.verify_email(container.store, token, meta(), links)
    assert expired.value.problems[0].rule == "expired"
    for bad in (token[:-2] + "xx", "nonsense", links.sign("reset", {"a": str(uuid4()), "j": "x"})):
        with pytest.raises(InvalidInput) as err:
            account_cmd.verify_email(container.store, bad, meta(), links)
        assert err.value.problems[0].rule == "invalid"


def test_signing_up_again_tells_the_owner_by_email_and_the_caller_nothing(container) -> None:  # type: ignore[no-untyped-def]
    address = email()
    first = sign_up(container, address)
    again = sign_up(container, address.upper(), password="another password entirely")
    assert first.account_id is not None and again.account_id is None
    catch_up(container)
    kinds = [m["kind"] for m in mail_q.outbox(container.services.reads, to=address.lower())]
    assert kinds == ["signup_existing", "verify_email"]
    assert account_cmd.check_password(container.store, address, PASSWORD, meta()) is not None


def test_two_concurrent_sign_ups_with_one_address_give_one_account(container) -> None:  # type: ignore[no-untyped-def]
    address = email()
    barrier = threading.Barrier(6)
    results: list[account_cmd.Registered] = []
    errors: list[BaseException] = []

    def go(n: int) -> None:
        try:
            barrier.wait()
            results.append(sign_up(container, address, password=f"password number {n}"))
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=go, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    winners = [r.account_id for r in results if r.account_id]
    assert len(winners) == 1 and len(results) == 6
    claims = container.store.stream(account.email_stream_id(address.lower()))
    assert len(claims) == 1 and claims[0].account_id == winners[0]
    catch_up(container)
    with container.pool.connection() as conn:
        (n,) = conn.execute(f"SELECT count(*) FROM {container.runtime.tables('accounts_view')['accounts']} WHERE email = %s",
                            (address.lower(),)).fetchone()
    assert n == 1


# ---------------------------------------------------------------- passwords


def test_passwords_check_with_any_letter_case_of_the_address(container) -> None:  # type: ignore[no-untyped-def]
    address = email()
    result = sign_up(container, address)
    assert str(account_cmd.check_password(container.store, address.upper(), PASSWORD, meta()).id) == result.account_id  # type: ignore[union-attr]
    assert account_cmd.check_password(container.store, address, PASSWORD + "!", meta()) is None
    assert account_cmd.check_password(container.store, "nobody@example.com", PASSWORD, meta()) is None
    assert account_cmd.check_password(container.store, "not an address", PASSWORD, meta()) is None


def test_password_reset_by_link_once(container) -> None:  # type: ignore[no-untyped-def]
    address = email()
    sign_up(container, address)
    links = identity(container).links
    account_cmd.request_password_reset(container.store, address, meta(), links)
    token = token_of(link_in_outbox(container, address, "password_reset"))
    cmd = account_cmd.ResetPassword(token=token, password="a brand new password")
    _, account_id = account_cmd.reset_password(container.store, cmd, meta(), links)
    state = account_cmd.load_account(container.store, account_id)
    assert state.email_verified  # the reset link proved the address too
    assert account_cmd.check_password(container.store, address, "a brand new password", meta()) is not None
    assert account_cmd.check_password(container.store, address, PASSWORD, meta()) is None
    with pytest.raises(InvalidInput) as used:
        account_cmd.reset_password(container.store, account_cmd.ResetPassword(token=token, password="yet another one!"),
                                   meta(), links)
    assert used.value.problems[0].rule == "used"


def test_reset_for_an_unknown_address_sends_nothing(container) -> None:  # type: ignore[no-untyped-def]
    before = container.store.position()
    account_cmd.request_password_reset(container.store, "nobody-" + email(), meta(), identity(container).links)
    assert container.store.position() == before


def test_operators_create_verified_accounts_and_grant_staff(container) -> None:  # type: ignore[no-untyped-def]
    address = email()
    cmd = account_cmd.RegisterAccount(account_id=uuid4(), email=address, password=None, verified=True)
    result = account_cmd.register_account(container.store, cmd, meta(actor="staff:ops"), None)
    account_cmd.grant_staff(container.store, address, meta(actor="staff:ops"))
    catch_up(container)
    doc = accounts_q.account(container.services.reads, result.account_id)  # type: ignore[arg-type]
    assert doc is not None and doc["email_verified"] and doc["is_staff"]
    assert account_cmd.check_password(container.store, address, "", meta()) is None  # no password yet
    with pytest.raises(NotFound):
        account_cmd.grant_staff(container.store, "nobody@example.com", meta())


# ---------------------------------------------------------------- API keys and the verifier


def new_key(c, state: account.AccountState, scopes: list[str], expires_on: date | None = None,  # type: ignore[no-untyped-def]
            at: datetime | None = None) -> apikeys_cmd.NewApiKey:
    cmd = apikeys_cmd.CreateApiKey(account_id=state.id, name="test", scopes=scopes, expires_on=expires_on)  # type: ignore[arg-type]
    new = apikeys_cmd.create_api_key(c.store, cmd, meta(at, actor=f"account:{state.id}"), c.services.timezone)
    catch_up(c)
    return new


async def test_a_key_is_stored_as_a_hash_and_verified_by_id(container) -> None:  # type: ignore[no-untyped-def]
    state = verified_account(container)
    new = new_key(container, state, ["account:read", "orders:write"])
    assert re.fullmatch(r"ldk_[0-9a-f]{16}_[0-9a-f]{64}", new.key) and new.key[4:20] == new.key_id
    [created] = [e for e in container.store.stream(state.id) if isinstance(e, ApiKeyCreated)]
    assert created.secret_hash == hashlib.sha256(new.key.encode()).hexdigest()
    assert new.key.split("_")[2] not in repr(container.store.stream(state.id))
    principal = await identity(container).authenticator.authenticate(f"Bearer {new.key}")
    assert principal.account_id == str(state.id) and principal.kind == "api_key"
    assert principal.scopes == frozenset({"account:read", "orders:write"}) and principal.client_id is None
    identity(container).usage.flush()
    assert new.key_id in identity(container).usage.last_used([new.key_id])


async def test_bad_keys_are_refused_with_specific_details(container) -> None:  # type: ignore[no-untyped-def]
    state = verified_account(container)
    good = new_key(container, state, ["account:read"])
    auth = identity(container).authenticator
    assert await auth.authenticate(None) is None
    cases = {
        "Basic dXNlcjpwYXNz": "must be 'Bearer",
        "Bearer ": "empty",
        "Bearer ldk_short": "malformed API key",
        "Bearer sometoken": "unknown kind of token",
        f"Bearer ldk_{'0' * 16}_{'0' * 64}": "unknown API key",
        f"Bearer {good.key[:-1]}{'0' if good.key[-1] != '0' else '1'}": "unknown API key",  # right id, wrong secret
    }
    for header, detail in cases.items():
        with pytest.raises(InvalidToken) as err:
            await auth.authenticate(header)
        assert detail in err.value.detail, header


async def test_a_revoked_key_fails_at_once(container) -> None:  # type: ignore[no-untyped-def]
    state = verified_account(container)
    new = new_key(container, state, ["account:read"])
    auth = identity(container).authenticator
    assert await auth.authenticate(f"Bearer {new.key}") is not None  # cached now
    apikeys_cmd.revoke_api_key(container.store, apikeys_cmd.RevokeApiKey(account_id=state.id, key_id=new.key_id),
                               meta(actor=f"account:{state.id}"))
    catch_up(container)  # the projection moves: the cached row is no longer trusted
    with pytest.raises(InvalidToken) as err:
        await auth.authenticate(f"Bearer {new.key}")
    assert err.value.detail == "this API key was revoked"
    keys = accounts_q.account_keys(container.services.reads, str(state.id))
    assert keys[0]["revoked_at"] is not None


async def test_an_expired_key_is_refused(container) -> None:  # type: ignore[no-untyped-def]
    state = verified_account(container)
    long_ago = datetime(2025, 1, 1, tzinfo=timezone.utc)
    new = new_key(container, state, ["account:read"], expires_on=date(2025, 1, 31), at=long_ago)
    assert new.expires_at == datetime(2025, 2, 1, tzinfo=container.services.timezone)
    with pytest.raises(InvalidToken) as err:
        await identity(container).authenticator.authenticate(f"Bearer {new.key}")
    assert "expired" in err.value.detail


def test_keys_belong_to_their_account(container) -> None:  # type: ignore[no-untyped-def]
    ada, bob = verified_account(container), verified_account(container)
    new = new_key(container, ada, ["account:read"])
    with pytest.raises(NotFound):
        apikeys_cmd.revoke_api_key(container.store, apikeys_cmd.RevokeApiKey(account_id=bob.id, key_id=new.key_id), meta())
    unverified = account_cmd.load_account(container.store, sign_up(container, email()).account_id)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        new_key(container, unverified, ["account:read"])


# ---------------------------------------------------------------- sessions and sign-in throttling


def test_sessions_are_server_side_and_end_on_sign_out_and_reset(container) -> None:  # type: ignore[no-untyped-def]
    sessions = identity(container).sessions
    a, b = sessions.create("acct-1"), sessions.create("acct-1")
    assert sessions.lookup(a).account_id == "acct-1"  # type: ignore[union-attr]
    sessions.end(a)
    assert sessions.lookup(a) is None and sessions.lookup(b) is not None
    assert sessions.end_all("acct-1") == 1 and sessions.lookup(b) is None
    assert sessions.lookup("forged") is None and sessions.lookup(None) is None


def test_five_failures_lock_the_address_for_a_while(container) -> None:  # type: ignore[no-untyped-def]
    throttle = identity(container).throttle
    keys = [f"email:{email().lower()}", "ip:192.0.2.1"]
    for _ in range(4):
        throttle.failed(keys)
    assert throttle.locked_for(keys) is None
    throttle.failed(keys)
    locked = throttle.locked_for(keys)
    assert locked is not None and timedelta(minutes=14) < locked <= timedelta(minutes=15)
    assert throttle.locked_for([f"email:{email().lower()}"]) is None  # other addresses are not affected
