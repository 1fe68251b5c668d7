"""Given/when/then on the Account and Email deciders: no database, no clock, no hashing."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from functools import reduce
from uuid import UUID

import pytest

from aggregates import account, mail
from aggregates.base import Meta
from events.account import (
    AccountEmailVerified,
    AccountPasswordChanged,
    AccountRegistered,
    ApiKeyCreated,
    ApiKeyRevoked,
    EmailAddressClaimed,
)
from events.errors import Conflict, InvalidInput, NotFound
from events.mail import EmailFailed, EmailQueued, EmailSendAttempted, EmailSent

T0 = datetime(2026, 11, 16, 9, 0, tzinfo=timezone.utc)
ID = UUID("00000000-0000-4000-8000-000000000001")
META = Meta(at=T0, actor="anonymous", channel="web")


def at(minutes: float) -> Meta:
    return Meta(at=T0 + timedelta(minutes=minutes), actor="anonymous", channel="web")


def given(*decisions: list) -> account.AccountState:  # type: ignore[type-arg]
    events = [e for d in decisions for e in d]
    return reduce(lambda s, e: account.evolve(e, s), events, account.initial(ID))


def registered(verified: bool = False) -> account.AccountState:
    return given(account.decide_register(account.initial(ID), "ada@example.com", "hash-1", META, verified=verified))


# ---------------------------------------------------------------- addresses


@pytest.mark.parametrize("raw, normal", [
    ("Ada@Example.COM", "ada@example.com"),
    ("  ada@example.com\n", "ada@example.com"),
])
def test_addresses_are_normalised_to_lower_case(raw: str, normal: str) -> None:
    assert account.normalise_email(raw) == normal
    assert account.email_stream_id(account.normalise_email(raw)) == account.email_stream_id(normal)


@pytest.mark.parametrize("raw, rule", [("", "required"), ("ada", "format"), ("a@b", "format"),
                                       ("a b@example.com", "format"), ("x" * 250 + "@example.com", "max_length"),
                                       ("<script>alert(1)</script>@ex.com", "format"), ("a,b@ex.com", "format"),
                                       ("ada@example..com", "format"), ("ada@host.local", "format")])
def test_bad_addresses_name_the_field_and_rule(raw: str, rule: str) -> None:
    with pytest.raises(InvalidInput) as err:
        account.normalise_email(raw)
    assert (err.value.problems[0].field, err.value.problems[0].rule) == ("email", rule)


@pytest.mark.parametrize("raw", ["ada+launch@sub.example.co.uk", "o'neil@example.ie", "ada@tallyfox.test",
                                 "ü@exämple.de"])
def test_addresses_people_really_have_are_accepted(raw: str) -> None:
    assert account.normalise_email(raw) == raw.lower()


def test_an_address_is_claimed_once() -> None:
    claim = account.initial_claim(account.email_stream_id("ada@example.com"))
    [event] = account.decide_claim_email(claim, "ada@example.com", str(ID), META)
    assert isinstance(event, EmailAddressClaimed) and event.originator_version == 1
    claimed = account.evolve_claim(event, claim)
    assert claimed.account_id == str(ID)
    with pytest.raises(Conflict):
        account.decide_claim_email(claimed, "ada@example.com", "someone-else", META)


# ---------------------------------------------------------------- registration and verification


def test_registering_records_the_hash_only_and_an_unverified_address() -> None:
    events = account.decide_register(account.initial(ID), "ada@example.com", "hash-1", META)
    assert [type(e) for e in events] == [AccountRegistered]
    assert events[0].password_hash == "hash-1" and events[0].actor == "anonymous" and events[0].timestamp == T0
    state = given(events)
    assert state.exists and not state.email_verified and state.registered_at == T0
    with pytest.raises(Conflict):
        account.decide_register(state, "ada@example.com", "hash-2", META)


def test_operators_vouch_for_the_address() -> None:
    events = account.decide_register(account.initial(ID), "ops@example.com", None, META, verified=True)
    assert [type(e) for e in events] == [AccountRegistered, AccountEmailVerified]
    assert given(events).email_verified and events[1].token_id is None


def test_a_verification_token_works_once_and_before_it_expires() -> None:
    state = registered()
    expires = T0 + timedelta(hours=48)
    with pytest.raises(InvalidInput) as expired:
        account.decide_verify_email(state, "tok-1", expires, at(48 * 60))
    assert expired.value.problems[0].rule == "expired"
    [event] = account.decide_verify_email(state, "tok-1", expires, at(5))
    state = given(account.decide_register(account.initial(ID), "ada@example.com", "hash-1", META), [event])
    assert state.email_verified and "tok-1" in state.used_tokens
    with pytest.raises(InvalidInput) as used:
        account.decide_verify_email(state, "tok-1", expires, at(6))
    assert used.value.problems[0].rule == "used"
    assert account.decide_verify_email(state, "tok-2", expires, at(6)) == []  # another link: already verified


def test_verifying_an_unknown_account_is_not_found() -> None:
    with pytest.raises(NotFound):
        account.decide_verify_email(account.initial(ID), "tok", T0 + timedelta(hours=1), META)


# ---------------------------------------------------------------- password reset


def test_reset_tokens_are_issued_at_most_once_a_minute() -> None:
    state = registered()
    first = account.decide_request_reset(state, "r1", T0 + timedelta(hours=1), META)
    state = given(account.decide_register(account.initial(ID), "ada@example.com", "hash-1", META), first)
    assert account.decide_request_reset(state, "r2", T0 + timedelta(hours=1), at(0.5)) == []
    assert len(account.decide_request_reset(state, "r3", T0 + timedelta(hours=1), at(1))) == 1


def test_a_reset_sets_the_password_once_verifies_the_address_and_voids_other_links() -> None:
    base = account.decide_register(account.initial(ID), "ada@example.com", "hash-1", META)
    r1 = account.decide_request_reset(given(base), "r1", T0 + timedelta(hours=1), META)
    r2 = account.decide_request_reset(given(base, r1), "r2", T0 + timedelta(hours=2), at(2))
    state = given(base, r1, r2)
    events = account.decide_reset_password(state, "r1", "hash-2", at(10))
    assert [type(e) for e in events] == [AccountPasswordChanged, AccountEmailVerified]
    after = given(base, r1, r2, events)
    assert after.password_hash == "hash-2" and after.email_verified
    with pytest.raises(InvalidInput) as used:
        account.decide_reset_password(after, "r1", "hash-3", at(11))
    assert used.value.problems[0].rule == "used"
    with pytest.raises(InvalidInput) as voided:
        account.decide_reset_password(after, "r2", "hash-3", at(11))
    assert voided.value.problems[0].rule == "invalid"


def test_an_expired_or_unknown_reset_token_changes_nothing() -> None:
    base = account.decide_register(account.initial(ID), "ada@example.com", "hash-1", META)
    r1 = account.decide_request_reset(given(base), "r1", T0 + timedelta(hours=1), META)
    state = given(base, r1)
    with pytest.raises(InvalidInput) as expired:
        account.decide_reset_password(state, "r1", "hash-2", at(60))
    assert expired.value.problems[0].rule == "expired"
    with pytest.raises(InvalidInput):
        account.decide_reset_password(state, "never-issued", "hash-2", at(1))


# ---------------------------------------------------------------- staff


def test_staff_is_granted_and_revoked_idempotently() -> None:
    state = registered(verified=True)
    granted = account.decide_grant_staff(state, META)
    state = given(account.decide_register(account.initial(ID), "ada@example.com", "h", META, verified=True), granted)
    assert state.is_staff and account.decide_grant_staff(state, META) == []
    assert len(account.decide_revoke_staff(state, META, staff_accounts=2)) == 1
    with pytest.raises(NotFound):
        account.decide_grant_staff(account.initial(ID), META)


def test_the_last_staff_account_keeps_the_role() -> None:
    state = given(account.decide_register(account.initial(ID), "ada@example.com", "h", META, verified=True),
                  account.decide_grant_staff(registered(verified=True), META))
    with pytest.raises(Conflict, match="last staff account"):
        account.decide_revoke_staff(state, META, staff_accounts=1)
    person = given(account.decide_register(account.initial(ID), "ada@example.com", "h", META, verified=True))
    assert account.decide_revoke_staff(person, META, staff_accounts=0) == []  # not staff: nothing to refuse


# ---------------------------------------------------------------- API keys


KEY = "0123456789abcdef"


def test_keys_need_a_verified_address() -> None:
    with pytest.raises(InvalidInput) as err:
        account.decide_create_key(registered(), KEY, "ci", ["account:read"], None, "h", META)
    assert err.value.problems[0].field == "account"


def test_a_key_records_its_hash_scopes_in_canonical_order_and_expiry() -> None:
    state = registered(verified=True)
    expires = T0 + timedelta(days=30)
    [event] = account.decide_create_key(state, KEY, "  my   laptop ", ["orders:write", "account:read"], expires, "h", META)
    assert isinstance(event, ApiKeyCreated)
    assert (event.name, event.scopes, event.expires_at, event.secret_hash) == (
        "my laptop", ["account:read", "orders:write"], expires, "h")
    key = account.evolve(event, state).keys[KEY]
    assert key.active(T0) and not key.active(expires)


@pytest.mark.parametrize("name, scopes, expires, field, rule", [
    ("", ["account:read"], None, "name", "required"),
    ("x" * 101, ["account:read"], None, "name", "max_length"),
    ("ci", [], None, "scopes", "min_items"),
    ("ci", ["admin"], None, "scopes", "enum"),
    ("ci", ["account:read"], T0, "expires_on", "minimum"),
])
def test_bad_key_requests_name_the_field(name: str, scopes: list[str], expires: datetime | None, field: str, rule: str) -> None:
    with pytest.raises(InvalidInput) as err:
        account.decide_create_key(registered(verified=True), KEY, name, scopes, expires, "h", META)
    assert (err.value.problems[0].field, err.value.problems[0].rule) == (field, rule)


def test_at_most_fifty_active_keys() -> None:
    state = registered(verified=True)
    for n in range(account.MAX_ACTIVE_KEYS):
        [e] = account.decide_create_key(state, f"{n:016x}", f"k{n}", ["account:read"], None, "h", META)
        state = account.evolve(e, state)
    with pytest.raises(InvalidInput) as err:
        account.decide_create_key(state, "f" * 16, "one more", ["account:read"], None, "h", META)
    assert err.value.problems[0].rule == "max_items"
    [revoked] = account.decide_revoke_key(state, f"{0:016x}", META)
    state = account.evolve(revoked, state)
    assert account.decide_create_key(state, "f" * 16, "one more", ["account:read"], None, "h", META)


def test_revoking_is_idempotent_and_other_keys_are_not_found() -> None:
    state = registered(verified=True)
    [created] = account.decide_create_key(state, KEY, "ci", ["account:read"], None, "h", META)
    state = account.evolve(created, state)
    [revoked] = account.decide_revoke_key(state, KEY, at(1))
    assert isinstance(revoked, ApiKeyRevoked)
    state = account.evolve(revoked, state)
    assert state.keys[KEY].revoked_at == at(1).at and not state.keys[KEY].active(at(2).at)
    assert account.decide_revoke_key(state, KEY, at(2)) == []
    with pytest.raises(NotFound):
        account.decide_revoke_key(state, "f" * 16, META)


# ---------------------------------------------------------------- email messages


MSG = mail.message_id("test:1")


def queued() -> mail.EmailState:
    events = mail.decide_queue(mail.initial(MSG), "ada@example.com", "Hello", "Text", "test", None, META)
    return reduce(lambda s, e: mail.evolve(e, s), events, mail.initial(MSG))


def test_queueing_twice_with_one_key_queues_once() -> None:
    state = queued()
    assert state.status == "queued" and state.version == 1
    assert mail.decide_queue(state, "ada@example.com", "Hello", "Text", "test", None, META) == []


@pytest.mark.parametrize("to, subject", [("not-an-address", "Hi"), ("a@b.c\nBcc: x@y.z", "Hi"), ("a@b.c", "Hi\nBcc: x")])
def test_header_injection_is_refused(to: str, subject: str) -> None:
    with pytest.raises(InvalidInput):
        mail.decide_queue(mail.initial(MSG), to, subject, "Text", "test", None, META)


def test_one_claim_per_attempt_then_sent() -> None:
    state = queued()
    [claim] = mail.decide_attempt(state, META)
    assert isinstance(claim, EmailSendAttempted) and claim.attempt == 1
    state = mail.evolve(claim, state)
    with pytest.raises(Conflict):
        mail.decide_attempt(state, at(1))  # claimed and fresh: another sender must not take it
    assert mail.decide_attempt(state, at(10))  # stale claim: the sender died, take over
    [sent] = mail.decide_sent(state, 1, at(1))
    assert isinstance(sent, EmailSent)
    state = mail.evolve(sent, state)
    assert state.status == "sent" and not mail.is_due(state, at(100).at)


def test_failures_back_off_then_give_up() -> None:
    state = queued()
    for attempt in range(1, mail.MAX_ATTEMPTS + 1):
        state = mail.evolve(mail.decide_attempt(state, at(attempt * 100))[0], state)
        [failed] = mail.decide_failed(state, attempt, "connection refused", at(attempt * 100))
        assert isinstance(failed, EmailFailed)
        state = mail.evolve(failed, state)
        if attempt < mail.MAX_ATTEMPTS:
            assert state.status == "failed" and not mail.is_due(state, at(attempt * 100).at)
            assert mail.is_due(state, at(attempt * 100 + 61).at)
    assert state.status == "given_up" and state.retry_at is None and not mail.is_due(state, at(10_000).at)


def test_an_account_event_never_lands_on_another_stream() -> None:
    events = account.decide_register(account.initial(ID), "ada@example.com", "h", META)
    assert all(e.originator_id == ID for e in events)
    assert isinstance(mail.decide_queue(mail.initial(MSG), "a@b.c", "S", "T", "k", None, META)[0], EmailQueued)
