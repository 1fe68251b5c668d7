"""Account commands: sign up, verify the address, reset the password, check a password, staff role.

Handlers hash passwords (argon2id), draw token ids and sign email links; the
deciders only see hashes and ids. Emails are queued in the same append as the
change they announce (see `commands/mail.py`).

New passwords are checked here, at the boundary, before anything is hashed:
10 to 256 characters (NIST SP 800-63B), and strong enough by zxcvbn (score 3
of 4, which also refuses the common passwords of its lists, such as
`password12`). The command models apply the rule, so the website, the CLI and
any later door refuse the same passwords with zxcvbn's reason.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any
from urllib.parse import quote
from uuid import UUID, uuid4

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadData, URLSafeSerializer
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError
from zxcvbn import zxcvbn

from aggregates import account, mail, staff_roster
from aggregates.base import Meta
from commands.site import signed
from commands.store import Appended, EventStore, Loader
from events.base import Event
from events.errors import Conflict, FieldProblem, InvalidInput, NotFound

PASSWORD_MIN = 10
PASSWORD_MAX = 256
PASSWORD_MIN_SCORE = 3  # zxcvbn: 3 = "safely unguessable: moderate protection from offline slow-hash scenario"
PASSWORD_SCORED = 72  # zxcvbn's own bound: its work grows fast with length, so only this many characters are scored
PASSWORD_RULE = "password_strength"
VERIFY_TTL = timedelta(hours=48)
RESET_TTL = timedelta(hours=1)
SITE = "launchdir"

PASSWORDS = PasswordHasher()  # argon2id, RFC 9106 low-memory profile (t=3, m=64 MiB, p=4)
_DUMMY_HASH = PASSWORDS.hash(secrets.token_urlsafe(16))  # verified against when there is no account, to equalise timing
_ZXCVBN = threading.Lock()  # zxcvbn keeps the caller's words in a module-level dictionary while it scores


# ---------------------------------------------------------------- the password rule


def password_problem(password: str, user_inputs: Sequence[str] = ()) -> str | None:
    """Why a new password is refused (a sentence for people), or None when it may be used.

    Length first, then zxcvbn's score of the first `PASSWORD_SCORED` characters
    against its frequency lists (common passwords, names, words), keyboard
    patterns, repeats, sequences and dates, and `user_inputs` (the address and
    the site's name, which a guesser would try first). The reason is zxcvbn's
    own feedback.
    """
    if len(password) < PASSWORD_MIN:
        return f"Use at least {PASSWORD_MIN} characters."
    if len(password) > PASSWORD_MAX:
        return f"Use at most {PASSWORD_MAX} characters."
    words = [SITE, *(w for value in user_inputs for w in _words(value))]
    with _ZXCVBN:
        result = zxcvbn(password[:PASSWORD_SCORED], user_inputs=words, max_length=PASSWORD_SCORED)
    if result["score"] >= PASSWORD_MIN_SCORE:
        return None
    feedback = result["feedback"]
    reasons = [feedback.get("warning") or "This password is too easy to guess.", *feedback.get("suggestions", [])]
    return " ".join(r for r in reasons if r)


def _words(value: str) -> list[str]:
    """An address and its parts: `ada.l@example.com` gives the address, `ada.l`, `ada`, `l`, `example`."""
    local, _, domain = value.lower().partition("@")
    parts = {value.lower(), local, *local.replace("+", ".").replace("_", ".").replace("-", ".").split(".")}
    if domain:
        parts.add(domain.split(".")[0])
    return [p for p in parts if len(p) >= 3]


def _check_password(value: SecretStr | None, user_inputs: Sequence[str]) -> SecretStr | None:
    if value is not None and (problem := password_problem(value.get_secret_value(), user_inputs)):
        raise PydanticCustomError(PASSWORD_RULE, problem)
    return value


def hash_password(password: str) -> str:
    """The argon2id hash that events keep (the plain password never leaves the handler)."""
    return PASSWORDS.hash(password)


# ---------------------------------------------------------------- commands


class RegisterAccount(BaseModel):
    """Create an account with an email address and a password; a verification link is emailed."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    account_id: UUID
    email: str = Field(max_length=account.EMAIL_MAX)
    password: SecretStr | None = Field(None, min_length=PASSWORD_MIN, max_length=PASSWORD_MAX)
    verified: bool = False  # operators vouch for the address (CLI); no email is sent

    @field_validator("password")
    @classmethod
    def _strong(cls, value: SecretStr | None, info: ValidationInfo) -> SecretStr | None:
        return _check_password(value, [str(info.data.get("email") or "")])


class ResetPassword(BaseModel):
    """Set a new password with the token of a reset link."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    token: str = Field(max_length=1000)
    password: SecretStr = Field(min_length=PASSWORD_MIN, max_length=PASSWORD_MAX)

    @field_validator("password")
    @classmethod
    def _strong(cls, value: SecretStr) -> SecretStr:
        _check_password(value, ())
        return value


# ---------------------------------------------------------------- links in emails


class AccountLinks:
    """Signs and reads the tokens of email links, and writes the messages that carry them.

    A token is signed (HMAC, itsdangerous) with a purpose-specific salt; expiry
    and single use are decided by the Account decider, not by the signature.
    """

    def __init__(self, secret: bytes, website: str, site_name: str | Callable[[], str] = SITE) -> None:
        self.website = website if website.endswith("/") else website + "/"
        self._site = site_name
        self._secret = secret

    @property
    def site(self) -> str:
        """The site's name as its pages say it now (staff may rename the site while it runs)."""
        return self._site() if callable(self._site) else self._site

    def signed(self, text: str, why: str = "") -> str:
        """A mail's text with the team's sign-off (`commands.site.signed`), as every mail of the site ends."""
        return signed(text, self.site, why)

    def _serializer(self, purpose: str) -> URLSafeSerializer:
        return URLSafeSerializer(self._secret, salt="launchdir:" + purpose,
                                 signer_kwargs={"digest_method": hashlib.sha256})

    def sign(self, purpose: str, payload: dict[str, Any]) -> str:
        return str(self._serializer(purpose).dumps(payload))

    def read(self, purpose: str, token: str) -> dict[str, Any]:
        try:
            payload = self._serializer(purpose).loads(token)
        except BadData:
            payload = None
        if not isinstance(payload, dict) or not isinstance(payload.get("a"), str) or not isinstance(payload.get("j"), str):
            raise InvalidInput("this link is not valid", [FieldProblem("token", "invalid", "This link is not valid.")])
        return payload

    def verification(self, account_id: str, token_id: str, expires_at: datetime,
                     next_path: str | None = None) -> tuple[str, str]:
        """The confirmation email; `next_path` (the page the person signed up from, `n`) is signed into the link."""
        payload: dict[str, Any] = {"a": account_id, "j": token_id, "e": int(expires_at.timestamp())}
        if next_path:
            payload["n"] = next_path
        token = self.sign("verify", payload)
        link = f"{self.website}verify?token={token}"
        return (
            f"Confirm your email address for {self.site}",
            self.signed(
                f"Hello,\n\nPlease confirm your email address for {self.site} by opening this link:\n\n{link}\n\n"
                f"The link works once and expires in {int(VERIFY_TTL.total_seconds() // 3600)} hours.\n"
                f"If you did not sign up for {self.site}, ignore this email."),
        )

    def password_changed(self, credentials_revoked: bool, how: str = "with a reset link") -> tuple[str, str]:
        """The owner's notice of a new password; `how` says where it was changed ("on your account page")."""
        kept = ("Your API keys and the apps you connected were revoked too: make new keys and connect the apps "
                "again on your account page." if credentials_revoked else
                "Your API keys and the apps you connected keep working: review them on your account page.")
        return (
            f"Your password for {self.site} was changed",
            self.signed(
                f"Hello,\n\nThe password of your {self.site} account was changed {how} just now, and every "
                f"other signed-in browser was signed out. {kept}\n\nYour account: {self.website}account\n\n"
                f"If you did not do this, reset your password again at once: {self.website}reset"),
        )

    def signup_existing(self, next_path: str | None = None) -> tuple[str, str]:
        """The notice to an address that has an account; its sign-in link leads back to `next_path` when given."""
        signin = f"{self.website}signin" + (f"?next={quote(next_path, safe='/')}" if next_path else "")
        return (
            f"Sign-up attempt with your email address on {self.site}",
            self.signed(
                f"Hello,\n\nSomeone (perhaps you) tried to sign up for {self.site} with this email address, "
                f"which already has an account.\n\nSign in: {signin}\n"
                f"Forgot your password? Reset it: {self.website}reset\n\n"
                "If it was not you, you can ignore this email; nothing was changed."),
        )

    def reset(self, account_id: str, token_id: str) -> tuple[str, str]:
        token = self.sign("reset", {"a": account_id, "j": token_id})
        link = f"{self.website}reset/confirm?token={token}"
        return (
            f"Reset your {self.site} password",
            self.signed(
                f"Hello,\n\nTo choose a new password for {self.site}, open this link:\n\n{link}\n\n"
                f"The link works once and expires in {int(RESET_TTL.total_seconds() // 60)} minutes.\n"
                "If you did not ask for this, ignore this email; your password stays as it is."),
        )


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class Registered:
    position: int
    account_id: str | None  # None when the address already had an account: callers must not tell


# ---------------------------------------------------------------- handlers


def load_account(store: EventStore, account_id: UUID | str) -> account.AccountState:
    state: account.AccountState = store.load(UUID(str(account_id)), account)
    return state


def _claim(store: EventStore, email: str) -> account.EmailClaimState:
    return store.load(account.email_stream_id(email), account.EMAIL_CLAIM)


def _queue(msg: mail.EmailState, to: str, subject_text: tuple[str, str], kind: str, account_id: str | None,
           meta: Meta) -> list[Event]:
    """Queue the email whose stream `msg` is (`mail.message_id(dedupe key)`); nothing when it is queued already."""
    return mail.decide_queue(msg, to, subject_text[0], subject_text[1], kind, account_id, meta)


def _link_holder(state: account.AccountState) -> account.AccountState:
    """The account an emailed link names; a link to no account is refused like a forged one."""
    if not state.exists:
        raise InvalidInput("this link is not valid", [FieldProblem("token", "invalid", "This link is not valid.")])
    return state


def find_account(store: EventStore, email: str) -> account.AccountState | None:
    """The account holding this address, from the write side (no projection lag)."""
    try:
        normal = account.normalise_email(email)
    except InvalidInput:
        return None
    owner = _claim(store, normal).account_id
    return load_account(store, owner) if owner else None


def register_account(store: EventStore, cmd: RegisterAccount, meta: Meta, links: AccountLinks | None) -> Registered:
    """Sign up. An address that already has an account gets a notice by email instead, and the
    result looks the same to the caller (no account enumeration); operators (`verified`) get a Conflict."""
    email = account.normalise_email(cmd.email)
    pw_hash = hash_password(cmd.password.get_secret_value()) if cmd.password else None
    return register_hashed(store, str(cmd.account_id), email, pw_hash, meta, links, verified=cmd.verified)


def register_hashed(store: EventStore, account_id: str, email: str, pw_hash: str | None, meta: Meta,
                    links: AccountLinks | None, verified: bool = False, next_path: str | None = None) -> Registered:
    """Sign up with a password already hashed (and checked): what the website runs after answering.

    The website hashes on the request path whether or not the address is taken, then hands this
    to a deferred runner, so the answer takes the same time either way. The address's claim, the
    account and its verification email are one append. `next_path`, a page of the site the
    person was on, rides in the emailed links (signed in the confirmation link), so they lead back.
    """
    email = account.normalise_email(email)
    claim_stream = account.email_stream_id(email)

    def decision(load: Loader) -> list[Event]:
        claim = load(claim_stream, account.EMAIL_CLAIM)
        if claim.account_id is not None:
            if verified or links is None:
                raise Conflict("an account with this email address exists")
            hour = meta.at.astimezone(timezone.utc).strftime("%Y%m%d%H")  # at most one notice an hour
            msg = load(mail.message_id(f"signup-existing:{email}:{hour}"), mail)
            return _queue(msg, email, links.signup_existing(next_path), "signup_existing", claim.account_id, meta)
        events = account.decide_claim_email(claim, email, account_id, meta)
        events += account.decide_register(load(UUID(account_id), account), email, pw_hash, meta, verified=verified)
        if not verified and links is not None:
            token_id = uuid4().hex
            msg = load(mail.message_id(f"verify:{token_id}"), mail)
            events += _queue(msg, email, links.verification(account_id, token_id, meta.at + VERIFY_TTL, next_path),
                             "verify_email", account_id, meta)
        return events

    appended = store.decide_across(decision)
    taken = appended.states[claim_stream].account_id is not None
    return Registered(appended.position, None if taken else account_id)


def resend_verification(store: EventStore, account_id: str, meta: Meta, links: AccountLinks) -> tuple[int, bool]:
    """Email a fresh verification link (at most one a minute); nothing when already verified.

    Answers the position and whether a link was sent now (False: one was sent this minute already,
    or the address is confirmed), so the page says what happened.
    """
    state = load_account(store, account_id)
    if not state.exists:
        raise NotFound("no such account")
    if state.email_verified:
        return store.position(), False
    token_id = uuid4().hex
    minute = meta.at.astimezone(timezone.utc).strftime("%Y%m%d%H%M")
    subject_text = links.verification(account_id, token_id, meta.at + VERIFY_TTL)
    appended = store.decide(mail.message_id(f"verify-again:{account_id}:{minute}"), mail, lambda msg: _queue(
        msg, state.email, subject_text, "verify_email", account_id, meta))
    return appended.position, bool(appended.events)


def verify_email(store: EventStore, token: str, meta: Meta, links: AccountLinks) -> tuple[int, str]:
    """Confirm the address from a verification link; returns the position and the account id."""
    payload = links.read("verify", token)
    expires_at = datetime.fromtimestamp(int(payload.get("e", 0)), timezone.utc)
    appended = store.decide(UUID(str(payload["a"])), account, lambda s: account.decide_verify_email(
        _link_holder(s), payload["j"], expires_at, meta))
    return appended.position, payload["a"]


def request_password_reset(store: EventStore, email: str, meta: Meta, links: AccountLinks) -> int:
    """Email a reset link when the address has an account; otherwise do nothing.

    The website runs this after answering (a deferred runner), so the answer cannot tell which it was.
    The reset request and its email are one append."""
    normal = account.normalise_email(email)

    def decision(load: Loader) -> list[Event]:
        owner = load(account.email_stream_id(normal), account.EMAIL_CLAIM).account_id
        if owner is None:
            return []
        state = load(UUID(owner), account)
        token_id = uuid4().hex
        events = account.decide_request_reset(state, token_id, meta.at + RESET_TTL, meta)
        if events:
            msg = load(mail.message_id(f"reset:{token_id}"), mail)
            events += _queue(msg, state.email, links.reset(owner, token_id), "password_reset", owner, meta)
        return events

    return store.decide_across(decision).position


def reset_password(store: EventStore, cmd: ResetPassword, meta: Meta, links: AccountLinks,
                   revoke_credentials: bool = False) -> tuple[int, str]:
    """Set the new password from a reset link; returns the position and the account id (to end its sessions).

    The new password is checked against the account's own address as at
    sign-up (a guesser tries the address first), and the owner is told by
    email that the password changed, in the same append: someone else who
    reset it cannot do so silently. `revoke_credentials` words that email
    (the website revokes the API keys and connected apps when asked).
    """
    payload = links.read("reset", cmd.token)
    account_id = str(payload["a"])
    password = cmd.password.get_secret_value()

    def decision(load: Loader) -> list[Event]:
        state = _link_holder(load(UUID(account_id), account))
        if problem := password_problem(password, [state.email]):
            raise InvalidInput("invalid value for: password", [FieldProblem("password", PASSWORD_RULE, problem)])
        events = account.decide_reset_password(state, payload["j"], hash_password(password), meta)
        msg = load(mail.message_id(f"password-changed:{account_id}:{payload['j']}"), mail)
        return events + _queue(msg, state.email, links.password_changed(revoke_credentials), "password_changed",
                               account_id, meta)

    return store.decide_across(decision).position, account_id


def verify_link_confirmed(store: EventStore, token: str, links: AccountLinks) -> bool:
    """Whether a confirmation link names an account whose address is confirmed (a link opened twice, or first by
    a mail scanner, says so instead of "does not work")."""
    try:
        state = load_account(store, str(links.read("verify", token)["a"]))
    except (InvalidInput, ValueError):
        return False
    return bool(state.exists and state.email_verified)


def verify_link_return(store: EventStore, token: str, links: AccountLinks) -> tuple[str | None, str | None]:
    """The address a (validly signed) confirmation link is for and the page it was signed to lead back to, each
    None when the link names no account or carries no page; the website checks the page is its own again."""
    try:
        payload = links.read("verify", token)
        state = load_account(store, str(payload["a"]))
    except (InvalidInput, ValueError):
        return None, None
    back = payload.get("n")
    return (state.email if state.exists else None), (back if isinstance(back, str) else None)


def reset_link_email(store: EventStore, token: str, links: AccountLinks) -> str | None:
    """The address of the account a reset link is for (shown on its form), or None for a link that names none."""
    try:
        state = load_account(store, str(links.read("reset", token)["a"]))
    except (InvalidInput, ValueError):
        return None
    return state.email if state.exists else None


def reset_link_problem(store: EventStore, token: str, links: AccountLinks, at: datetime) -> str | None:
    """Why a reset link cannot be used (a sentence for people), or None.

    Asked when the link is opened, so a used or expired link says so before
    anyone types a new password; `reset_password` checks again when it is used.
    """
    try:
        payload = links.read("reset", token)
        state = _link_holder(store.load(UUID(str(payload["a"])), account))
        account.check_reset_token(state, payload["j"], at)
    except InvalidInput as exc:
        return exc.problems[0].message if exc.problems else "This link is not valid."
    return None


def check_password(store: EventStore, email: str, password: str, meta: Meta) -> account.AccountState | None:
    """The account when the address and password match, else None (same work either way).

    A hash made with weaker parameters than today's is replaced after a
    successful check (an `AccountPasswordChanged` with reason `rehash`).
    """
    state = find_account(store, email)
    stored = state.password_hash if state is not None else None
    try:
        PASSWORDS.verify(stored or _DUMMY_HASH, password)
    except (VerificationError, InvalidHashError):
        return None
    if state is None or stored is None:
        return None
    if PASSWORDS.check_needs_rehash(stored):
        new_hash = hash_password(password)
        try:
            store.append(account.decide_change_password(state, new_hash, "rehash", meta))
        except Exception:  # noqa: BLE001 - a lost race only postpones the rehash
            pass
    return state


def set_password(store: EventStore, email: str, password: str, meta: Meta) -> int:
    """Operators set a password directly (CLI); the same rule as every new password."""
    if problem := password_problem(password, [email]):
        rule = "length" if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX else PASSWORD_RULE
        raise InvalidInput(f"password refused: {problem}", [FieldProblem("password", rule, problem)])
    pw_hash = hash_password(password)
    return store.decide(_existing(store, email), account, lambda s: account.decide_change_password(
        s, pw_hash, "operator", meta)).position


def grant_staff(store: EventStore, email: str, meta: Meta) -> int:
    return change_staff(store, email, True, meta).position


def revoke_staff(store: EventStore, email: str, meta: Meta, read_as_staff: Sequence[str] = ()) -> int:
    return change_staff(store, email, False, meta, read_as_staff).position


def change_staff(store: EventStore, email: str, staff: bool, meta: Meta, read_as_staff: Sequence[str] = ()) -> Appended:
    """Grant (`staff`) or revoke the staff role, answering what was appended.

    No events when the account is so already: the command line says nothing
    changed (exit code 3) instead of claiming it did. Revoking the last staff
    account's role is refused (409), decided with the roster like closing it
    (`aggregates/staff_roster.py`): `read_as_staff` are the accounts the read
    side lists as staff (those made staff before the roster existed).
    """
    account_id = _existing(store, email)

    def decision(load: Loader) -> list[Event]:
        me = load(account_id, account)
        roster = load(staff_roster.STREAM, staff_roster.ROSTER)
        if staff:
            events = account.decide_grant_staff(me, meta)
        else:
            others = other_staff(load, roster, read_as_staff, str(account_id)) if me.is_staff else 0
            events = account.decide_revoke_staff(me, meta, staff_accounts=others + 1)
        if events:  # who is staff changed: the roster orders it against changes decided at once
            events += staff_roster.decide_change(roster, str(account_id), staff, meta)
        return events

    return store.decide_across(decision)


def other_staff(load: Loader, roster: staff_roster.RosterState, read_as_staff: Sequence[str], me: str) -> int:
    """How many open accounts other than `me` are staff now, each looked at on its own stream.

    The candidates are those the roster saw become staff and those the read
    side lists (accounts made staff before the roster existed): one made staff
    a moment ago is in the roster, one that left a moment ago is no longer staff
    on its stream.
    """
    candidates = {str(UUID(str(c))) for c in read_as_staff} | roster.staff
    candidates.discard(me)
    return sum(1 for c in candidates if _open_staff(load(UUID(c), account)))


def _open_staff(state: account.AccountState) -> bool:
    return state.exists and state.closed_at is None and state.is_staff


def _existing(store: EventStore, email: str) -> UUID:
    """The stream of the account holding this address (an address, once claimed, stays with its account)."""
    state = find_account(store, email)
    if state is None:
        raise NotFound(f"no account with the email address {email!r}")
    return state.id
