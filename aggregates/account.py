"""The Account decider: sign-up, email verification, passwords, address changes, staff role, API keys.

Also the tiny email-address stream (one per normalised address, uuid5 id)
that makes addresses unique: registering appends to both streams at once, so
of two racing sign-ups with one address exactly one wins.

Deciders get hashes, token ids, key ids and expiry times from the handler;
they never hash, sign, draw random numbers or read the clock.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import singledispatch
from uuid import NAMESPACE_URL, UUID, uuid5

from email_validator import EmailNotValidError, validate_email

from aggregates.base import Emitter, Meta, StreamKind
from events import text
from events.account import (
    AccountClosed,
    AccountEmailChanged,
    AccountEmailChangeReverted,
    AccountEmailChangeRequested,
    AccountEmailVerified,
    AccountPasswordChanged,
    AccountPasswordResetRequested,
    AccountRegistered,
    AccountStaffGranted,
    AccountStaffRevoked,
    ApiKeyCreated,
    ApiKeyRevoked,
    EmailAddressClaimed,
    EmailAddressReleased,
)
from events.base import Event
from events.errors import Conflict, FieldProblem, InvalidInput, NotFound

SCOPES = ("account:read", "listings:write", "orders:write")
EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]+\.[^@\s]+$")
EMAIL_MAX = 254
KEY_ID = re.compile(r"^[0-9a-f]{16}$")
KEY_NAME_MAX = 100
MAX_ACTIVE_KEYS = 50
RESET_INTERVAL = timedelta(seconds=60)  # at most one reset email per account per minute
EMAIL_CHANGE_INTERVAL = timedelta(seconds=60)  # at most one address-change link per account per minute
EMAIL_UNDO_TTL = timedelta(days=7)  # how long the old address may undo a change of address
LAST_STAFF = "this is the last staff account: make another account staff first"


# ---------------------------------------------------------------- states


@dataclass(frozen=True)
class ApiKey:
    key_id: str
    name: str
    scopes: tuple[str, ...]
    created_at: datetime
    expires_at: datetime | None
    secret_hash: str
    revoked_at: datetime | None = None

    def active(self, at: datetime) -> bool:
        return self.revoked_at is None and (self.expires_at is None or at < self.expires_at)


@dataclass(frozen=True)
class EmailChange:
    """The latest request to move the account to another address; only its link confirms it."""

    new_email: str
    token_id: str
    expires_at: datetime
    requested_at: datetime


@dataclass(frozen=True)
class EmailChangeMade:
    """The latest change of address that was made: the old address's undo link names it by `token_id`."""

    old_email: str
    new_email: str
    token_id: str
    changed_at: datetime


@dataclass(frozen=True)
class AccountState:
    id: UUID
    version: int = 0
    email: str = ""
    password_hash: str | None = None
    email_verified: bool = False
    is_staff: bool = False
    registered_at: datetime | None = None
    used_tokens: frozenset[str] = frozenset()
    reset_tokens: dict[str, datetime] = field(default_factory=dict)  # issued, unused: token id -> expiry
    last_reset_request: datetime | None = None
    keys: dict[str, ApiKey] = field(default_factory=dict)
    email_change: EmailChange | None = None  # requested, not confirmed yet
    last_email_change: EmailChangeMade | None = None  # the latest change made, until undone or replaced
    undone_changes: frozenset[str] = frozenset()  # token ids of the changes undone (each undo link works once)
    closed_at: datetime | None = None  # AccountClosed: nothing more can be decided for it

    @property
    def exists(self) -> bool:
        return self.version > 0


@dataclass(frozen=True)
class EmailClaimState:
    id: UUID
    version: int = 0
    account_id: str | None = None


def initial(stream_id: UUID) -> AccountState:
    return AccountState(id=stream_id)


def initial_claim(stream_id: UUID) -> EmailClaimState:
    return EmailClaimState(id=stream_id)


def email_stream_id(email: str) -> UUID:
    """The stream that records which account holds a (normalised) address."""
    return uuid5(NAMESPACE_URL, "launchdir:email:" + email)


def normalise_email(raw: str) -> str:
    """Strip and lower-case the whole address, check its shape and length, and answer its one written form.

    One mailbox, one account: an address typed with composed or decomposed
    letters (NFC, NFD), or with its domain in punycode (`xn--…`), is the same
    mailbox, so it is kept as email-validator normalises it (NFC, the domain in
    Unicode), lower case. Plain ASCII addresses are unchanged by this.
    """
    email = (raw or "").strip().lower()
    if not text.is_clean(email):  # NUL and friends: never an address, and PostgreSQL cannot store them
        raise InvalidInput(f"email {text.MESSAGE}", [FieldProblem("email", text.RULE, f"The address {text.MESSAGE}.")])
    if not email:
        raise InvalidInput("an email address is required", [FieldProblem("email", "required", "Enter your email address.")])
    if len(email) > EMAIL_MAX:
        raise InvalidInput("email address too long", [FieldProblem("email", "max_length", f"At most {EMAIL_MAX} characters.")])
    reason = address_problem(email)
    if reason is not None:
        raise InvalidInput("not an email address",
                           [FieldProblem("email", "format", f"Enter an address like name@example.com. {reason}")])
    return str(validate_email(email, check_deliverability=False, test_environment=True).normalized).lower()


def address_problem(email: str) -> str | None:
    """Why `email` is not an address mail can be sent to (RFC 5321/5322 syntax, a real domain), or None.

    A loose pattern let through addresses such as `<b>x</b>@ex.com` or `a,b@ex.com`, which an
    SMTP server would read as other recipients or refuse; the `email-validator` library knows the
    grammar. No DNS lookup: an address is confirmed by the link we mail to it. Domains under
    `test` are accepted (examples and local trials); other special-use names (`.local`, `.invalid`) are not.
    """
    if not EMAIL.match(email):  # the shape first: one @, no spaces, a dot in the domain
        return "It needs one @ and a domain with a dot."
    try:
        validate_email(email, check_deliverability=False, test_environment=True)
    except EmailNotValidError as exc:
        return str(exc)
    return None


# ---------------------------------------------------------------- decisions: the address stream


def decide_claim_email(state: EmailClaimState, email: str, account_id: str, meta: Meta) -> list[Event]:
    """Reserve the address for one account; a second claim is a conflict."""
    if state.account_id is not None:
        raise Conflict("this email address already has an account")
    emit = Emitter(state, meta)
    emit(EmailAddressClaimed, email=email, account_id=account_id)
    return emit.events


# ---------------------------------------------------------------- decisions: the account


def decide_register(
    state: AccountState, email: str, password_hash: str | None, meta: Meta, *, verified: bool = False
) -> list[Event]:
    """Open the account; operators may vouch for the address (`verified`)."""
    if state.exists:
        raise Conflict("this account already exists")
    emit = Emitter(state, meta)
    emit(AccountRegistered, email=email, password_hash=password_hash)
    if verified:
        emit(AccountEmailVerified, email=email, token_id=None)
    return emit.events


def decide_verify_email(state: AccountState, token_id: str, expires_at: datetime, meta: Meta) -> list[Event]:
    """Confirm the address with a link's token: once, before it expires; already verified is fine."""
    _must_exist(state)
    if token_id in state.used_tokens:
        raise InvalidInput("this link was already used", [FieldProblem("token", "used", "This link was already used.")])
    if state.email_verified:
        return []
    if meta.at >= expires_at:
        raise InvalidInput("this link has expired", [FieldProblem("token", "expired", "This link has expired.")])
    emit = Emitter(state, meta)
    emit(AccountEmailVerified, email=state.email, token_id=token_id)
    return emit.events


def decide_request_reset(state: AccountState, token_id: str, expires_at: datetime, meta: Meta) -> list[Event]:
    """Issue a reset token; nothing (no email) when one was issued less than a minute ago."""
    _must_exist(state)
    if state.last_reset_request is not None and meta.at - state.last_reset_request < RESET_INTERVAL:
        return []
    emit = Emitter(state, meta)
    emit(AccountPasswordResetRequested, token_id=token_id, expires_at=expires_at)
    return emit.events


def decide_reset_password(state: AccountState, token_id: str, password_hash: str, meta: Meta) -> list[Event]:
    """Set a new password with an issued, unused, unexpired reset token; it also proves the address."""
    check_reset_token(state, token_id, meta.at)
    emit = Emitter(state, meta)
    emit(AccountPasswordChanged, password_hash=password_hash, reason="reset", token_id=token_id)
    if not state.email_verified:
        emit(AccountEmailVerified, email=state.email, token_id=None)
    return emit.events


def check_reset_token(state: AccountState, token_id: str, at: datetime) -> None:
    """Refuse a reset token that was used, never issued to this account, or has expired (400 naming `token`)."""
    _must_exist(state)
    if token_id in state.used_tokens:
        raise InvalidInput("this link was already used", [FieldProblem("token", "used", "This link was already used.")])
    expires_at = state.reset_tokens.get(token_id)
    if expires_at is None:
        raise InvalidInput("this link is no longer valid", [FieldProblem("token", "invalid", "This link is no longer valid.")])
    if at >= expires_at:
        raise InvalidInput("this link has expired", [FieldProblem("token", "expired", "This link has expired.")])


def decide_change_password(state: AccountState, password_hash: str, reason: str, meta: Meta) -> list[Event]:
    """Replace the stored hash (a stronger rehash after sign-in, an operator's reset, the owner's own change)."""
    _must_exist(state)
    if state.password_hash == password_hash:
        return []
    emit = Emitter(state, meta)
    emit(AccountPasswordChanged, password_hash=password_hash, reason=reason, token_id=None)
    return emit.events


def decide_grant_staff(state: AccountState, meta: Meta) -> list[Event]:
    """Make the account staff; no events when it is staff already, so the doors can say nothing changed."""
    _must_exist(state)
    if state.is_staff:
        return []
    emit = Emitter(state, meta)
    emit(AccountStaffGranted)
    return emit.events


def decide_revoke_staff(state: AccountState, meta: Meta, *, staff_accounts: int) -> list[Event]:
    """Take the staff role away; no events when the account is not staff, so the doors can say nothing changed.

    Refused (409) for the last staff account (`staff_accounts`: how many there
    are now, this one included), as closing it is: the site keeps someone who
    can run it, and the staff pages someone who can reach them.
    """
    _must_exist(state)
    if not state.is_staff:
        return []
    if staff_accounts <= 1:
        raise Conflict(LAST_STAFF)
    emit = Emitter(state, meta)
    emit(AccountStaffRevoked)
    return emit.events


def decide_create_key(
    state: AccountState,
    key_id: str,
    name: str,
    scopes: list[str],
    expires_at: datetime | None,
    secret_hash: str,
    meta: Meta,
) -> list[Event]:
    """Add an API key: a verified address, a name, known scopes, an expiry in the future."""
    _must_exist(state)
    problems: list[FieldProblem] = []
    clean_name = " ".join(name.split())
    if not state.email_verified:
        problems.append(FieldProblem("account", "email_unverified", "Verify your email address before creating API keys."))
    if not clean_name:
        problems.append(FieldProblem("name", "required", "Give the key a name."))
    elif len(clean_name) > KEY_NAME_MAX:
        problems.append(FieldProblem("name", "max_length", f"At most {KEY_NAME_MAX} characters."))
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown:
        problems.append(FieldProblem("scopes", "enum", f"Unknown scope: {', '.join(unknown)}."))
    elif not scopes:
        problems.append(FieldProblem("scopes", "min_items", "Choose at least one scope."))
    if expires_at is not None and expires_at <= meta.at:
        problems.append(FieldProblem("expires_on", "minimum", "The expiry date must be in the future."))
    if sum(1 for k in state.keys.values() if k.active(meta.at)) >= MAX_ACTIVE_KEYS:
        problems.append(FieldProblem("name", "max_items", f"At most {MAX_ACTIVE_KEYS} active keys; revoke one first."))
    if not KEY_ID.match(key_id) or key_id in state.keys:
        raise Conflict("key id not usable; retry")
    if problems:
        raise InvalidInput("the API key cannot be created: " + problems[0].message, problems)
    emit = Emitter(state, meta)
    ordered = [s for s in SCOPES if s in set(scopes)]
    emit(ApiKeyCreated, key_id=key_id, name=clean_name, scopes=ordered, expires_at=expires_at, secret_hash=secret_hash)
    return emit.events


def decide_revoke_key(state: AccountState, key_id: str, meta: Meta) -> list[Event]:
    """Revoke one of this account's keys; revoking twice changes nothing; others' keys are not found."""
    key = state.keys.get(key_id) if state.exists else None
    if key is None:
        raise NotFound("no such API key")
    if key.revoked_at is not None:
        return []
    emit = Emitter(state, meta)
    emit(ApiKeyRevoked, key_id=key_id)
    return emit.events


# ---------------------------------------------------------------- decisions: changing the address


def decide_request_email_change(state: AccountState, new_email: str, token_id: str, expires_at: datetime,
                                meta: Meta) -> list[Event]:
    """Record a request to move to `new_email` (normalised); its link supersedes every earlier one.

    The address's own stream is not touched here: it is claimed when the link is opened, so an
    address someone never confirms stays free. Nothing (no new link) when the same address was
    asked for less than a minute ago.
    """
    _must_exist(state)
    if new_email == state.email:
        raise InvalidInput("this is the account's address already",
                           [FieldProblem("email", "unchanged", "This is your address already. Enter a new one.")])
    pending = state.email_change
    if pending is not None and pending.new_email == new_email and meta.at - pending.requested_at < EMAIL_CHANGE_INTERVAL:
        return []
    emit = Emitter(state, meta)
    emit(AccountEmailChangeRequested, new_email=new_email, token_id=token_id, expires_at=expires_at)
    return emit.events


def check_email_change_token(state: AccountState, token_id: str, at: datetime) -> EmailChange:
    """The request a link confirms; refused (400 naming `token`) when used, superseded, expired or never issued."""
    _must_exist(state)
    if token_id in state.used_tokens:
        raise InvalidInput("this link was already used", [FieldProblem("token", "used", "This link was already used.")])
    pending = state.email_change
    if pending is None or pending.token_id != token_id:
        raise InvalidInput("a newer link replaced this one", [FieldProblem(
            "token", "superseded", "A newer request replaced this link: use the link of your latest request.")])
    if at >= pending.expires_at:
        raise InvalidInput("this link has expired", [FieldProblem("token", "expired", "This link has expired.")])
    return pending


def decide_confirm_email_change(state: AccountState, token_id: str, meta: Meta) -> list[Event]:
    """Move the account to the requested address; the link proves the new mailbox, so it is confirmed too.

    The handler claims the new address's stream and releases the old one in the same append.
    """
    pending = check_email_change_token(state, token_id, meta.at)
    emit = Emitter(state, meta)
    emit(AccountEmailChanged, old_email=state.email, new_email=pending.new_email, token_id=token_id)
    return emit.events


def decide_release_email(state: EmailClaimState, email: str, account_id: str, meta: Meta) -> list[Event]:
    """Free an address its account left; only the account holding it can release it."""
    if state.account_id != account_id:
        raise Conflict("this email address is not held by this account")
    emit = Emitter(state, meta)
    emit(EmailAddressReleased, email=email, account_id=account_id)
    return emit.events


def _must_exist(state: AccountState) -> None:
    if not state.exists or state.closed_at is not None:  # a closed account is no account (docs/identity.md)
        raise NotFound("no such account")


# ---------------------------------------------------------------- evolution


@singledispatch
def evolve(event: Event, state: AccountState) -> AccountState:
    """Apply one event; unknown events only move the version."""
    return replace(state, version=event.originator_version)


@evolve.register
def _(e: AccountRegistered, s: AccountState) -> AccountState:
    return replace(s, version=e.originator_version, email=e.email, password_hash=e.password_hash, registered_at=e.timestamp)


@evolve.register
def _(e: AccountEmailVerified, s: AccountState) -> AccountState:
    used = s.used_tokens | {e.token_id} if e.token_id else s.used_tokens
    return replace(s, version=e.originator_version, email_verified=True, used_tokens=used)


@evolve.register
def _(e: AccountPasswordResetRequested, s: AccountState) -> AccountState:
    issued = s.reset_tokens | {e.token_id: e.expires_at}
    return replace(s, version=e.originator_version, reset_tokens=issued, last_reset_request=e.timestamp)


@evolve.register
def _(e: AccountPasswordChanged, s: AccountState) -> AccountState:
    used = s.used_tokens | {e.token_id} if e.token_id else s.used_tokens
    # a new password voids every reset link issued before it
    return replace(s, version=e.originator_version, password_hash=e.password_hash, used_tokens=used, reset_tokens={})


@evolve.register
def _(e: AccountStaffGranted, s: AccountState) -> AccountState:
    return replace(s, version=e.originator_version, is_staff=True)


@evolve.register
def _(e: AccountStaffRevoked, s: AccountState) -> AccountState:
    return replace(s, version=e.originator_version, is_staff=False)


@evolve.register
def _(e: ApiKeyCreated, s: AccountState) -> AccountState:
    key = ApiKey(e.key_id, e.name, tuple(e.scopes), e.timestamp, e.expires_at, e.secret_hash)
    return replace(s, version=e.originator_version, keys=s.keys | {e.key_id: key})


@evolve.register
def _(e: ApiKeyRevoked, s: AccountState) -> AccountState:
    key = replace(s.keys[e.key_id], revoked_at=e.timestamp)
    return replace(s, version=e.originator_version, keys=s.keys | {e.key_id: key})


@evolve.register
def _(e: AccountEmailChangeRequested, s: AccountState) -> AccountState:
    pending = EmailChange(e.new_email, e.token_id, e.expires_at, e.timestamp)
    return replace(s, version=e.originator_version, email_change=pending)


@evolve.register
def _(e: AccountEmailChanged, s: AccountState) -> AccountState:
    # reset links mailed to the old address stop working: that mailbox no longer speaks for the account
    made = EmailChangeMade(e.old_email, e.new_email, e.token_id, e.timestamp)
    return replace(s, version=e.originator_version, email=e.new_email, email_verified=True, email_change=None,
                   used_tokens=s.used_tokens | {e.token_id}, reset_tokens={}, last_email_change=made)


def evolve_claim(event: Event, state: EmailClaimState) -> EmailClaimState:
    if isinstance(event, EmailAddressClaimed):
        return replace(state, version=event.originator_version, account_id=event.account_id)
    if isinstance(event, EmailAddressReleased):
        return replace(state, version=event.originator_version, account_id=None)
    return replace(state, version=event.originator_version)


EMAIL_CLAIM: StreamKind[EmailClaimState] = StreamKind(initial_claim, evolve_claim)  # one stream per address


# ---------------------------------------------------------------- decisions: closing the account


def decide_close_account(state: AccountState, former_id: str, meta: Meta, *, staff_accounts: int,
                         awaiting_payment: tuple[str, ...] = ()) -> list[Event]:
    """Close the account: each API key still active is revoked, then `AccountClosed`.

    Refused (409) while an order awaits payment (`awaiting_payment`: their numbers), and for the
    last staff account (`staff_accounts`: how many there are now, this one included), so the site
    always keeps someone who can run it. The handler checks the password, revokes the OAuth
    grants, releases the address and leaves listings and drafts in the same append.
    """
    _must_exist(state)
    if awaiting_payment:
        raise Conflict(f"order {awaiting_payment[0]} is awaiting payment: pay it or let it expire, then close the "
                       "account")
    if state.is_staff and staff_accounts <= 1:
        raise Conflict(LAST_STAFF)
    emit = Emitter(state, meta)
    _revoke_active_keys(emit, state)
    emit(AccountClosed, former_id=former_id)
    return emit.events


def _revoke_active_keys(emit: Emitter, state: AccountState) -> None:
    """Every API key not revoked yet is revoked: closing the account, undoing a change of address."""
    for key in state.keys.values():
        if key.revoked_at is None:
            emit(ApiKeyRevoked, key_id=key.key_id)


@evolve.register
def _(e: AccountClosed, s: AccountState) -> AccountState:
    return replace(s, version=e.originator_version, closed_at=e.timestamp, password_hash=None, reset_tokens={},
                   email_change=None)


# ---------------------------------------------------------------- decisions: undoing a change of address


def check_email_undo_token(state: AccountState, token_id: str, at: datetime) -> EmailChangeMade:
    """The change an undo link (mailed to the old address) names; refused (400 naming `token`) when the change
    was undone already (`used`), the address changed again since (`changed_again`), the link is past its
    7 days (`expired`), or it names no change of this account (`invalid`)."""
    _must_exist(state)
    if token_id in state.undone_changes:
        raise InvalidInput("this change was undone already", [FieldProblem(
            "token", "used", "This link was used already: the change was undone.")])
    last = state.last_email_change
    if last is None or last.token_id != token_id:
        if token_id in state.used_tokens:  # a change this account made, but not its latest one
            raise InvalidInput("the address changed again since", [FieldProblem(
                "token", "changed_again", "The account's address has changed again since this link was sent, so "
                "it no longer undoes anything.")])
        raise InvalidInput("this link is not valid", [FieldProblem("token", "invalid", "This link is not valid.")])
    if at >= last.changed_at + EMAIL_UNDO_TTL:
        raise InvalidInput("this link has expired", [FieldProblem(
            "token", "expired", f"This link has expired: it worked for {EMAIL_UNDO_TTL.days} days after the change.")])
    return last


def decide_revert_email_change(state: AccountState, token_id: str, reset_token_id: str, reset_expires_at: datetime,
                               meta: Meta) -> list[Event]:
    """Move the account back to the address it had before the change the link names, and lock out whoever moved it.

    Every API key still active is revoked (as closing does), then `AccountEmailChangeReverted` (which clears
    the password and voids pending address changes and reset links), then a reset link is issued for the
    restored address (`AccountPasswordResetRequested`, with no minute's wait: the owner needs it now). The
    handler releases the dropped address, claims the restored one, revokes the OAuth grants, ends the sessions
    and mails the reset link, in the same append.
    """
    change = check_email_undo_token(state, token_id, meta.at)
    emit = Emitter(state, meta)
    _revoke_active_keys(emit, state)
    emit(AccountEmailChangeReverted, restored_email=change.old_email, dropped_email=change.new_email,
         token_id=token_id)
    emit(AccountPasswordResetRequested, token_id=reset_token_id, expires_at=reset_expires_at)
    return emit.events


@evolve.register
def _(e: AccountEmailChangeReverted, s: AccountState) -> AccountState:
    # the old mailbox proved itself; the password whoever moved the account knew no longer signs in
    return replace(s, version=e.originator_version, email=e.restored_email, email_verified=True, password_hash=None,
                   email_change=None, reset_tokens={}, last_email_change=None,
                   undone_changes=s.undone_changes | {e.token_id})
