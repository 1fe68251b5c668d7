"""Account settings of a signed-in person: change the password, move the account to another address.

Both need the current password. A wrong one is reported on the `current_password` field (rule
`wrong`) and checked with the same work whether or not the account has a password, so the page
that calls these can count it against the sign-in throttle like a failed sign-in.

Moving to another address is two steps. `request_email_change` records the request and mails a
signed link to the new address (a taken address instead gets a notice and no link, so the
person asking learns nothing more than sign-up tells); `confirm_email_change`, when that link is
opened, moves the account, claims the new address's stream and releases the old one in one
append, and tells the old address, with a link that undoes the change for 7 days
(`commands/account_email_undo.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from uuid import UUID, uuid4

from argon2.exceptions import InvalidHashError, VerificationError
from pydantic import BaseModel, ConfigDict, Field, SecretStr

from aggregates import account, mail, oauth
from aggregates.base import Meta
from commands.account import (
    _DUMMY_HASH,
    PASSWORD_MAX,
    PASSWORD_RULE,
    PASSWORDS,
    AccountLinks,
    hash_password,
    load_account,
    password_problem,
)
from commands.site import Site, site_contact
from commands.store import EventStore, Loader
from events.base import Event
from events.errors import FieldProblem, InvalidInput, NotFound

EMAIL_CHANGE_TTL = timedelta(hours=24)
PURPOSE = "email-change"
UNDO_PURPOSE = "email-undo"  # the link in the notice to the old address (`commands/account_email_undo.py`)


class ChangePassword(BaseModel):
    """Set a new password while signed in, with the current one."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    account_id: UUID
    current_password: SecretStr = Field(max_length=PASSWORD_MAX)
    new_password: SecretStr = Field(max_length=PASSWORD_MAX)  # the strength rule needs the address: checked on the state
    revoke_credentials: bool = False  # also revoke API keys and connected apps (done by the caller); words the email


class RequestEmailChange(BaseModel):
    """Ask to move the account to another email address, with the current password; a link is mailed there."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    account_id: UUID
    new_email: str = Field(max_length=account.EMAIL_MAX)
    current_password: SecretStr = Field(max_length=PASSWORD_MAX)


@dataclass(frozen=True)
class EmailMoved:
    position: int
    account_id: str
    old_email: str
    new_email: str


@dataclass(frozen=True)
class EmailChangeLink:
    """What an address-change link is about, when it is opened: the address, or why it does not work."""

    account_id: str | None
    new_email: str | None
    done: bool  # used already, and the account has that address: "done already"
    problem: str | None  # a sentence for people, or None when the link may be used


# ---------------------------------------------------------------- the current password


def current_password_matches(state: account.AccountState, password: str) -> bool:
    """Whether `password` is the account's; the same argon2 work when it has none."""
    try:
        PASSWORDS.verify(state.password_hash or _DUMMY_HASH, password)
    except (VerificationError, InvalidHashError):
        return False
    return state.password_hash is not None


def _wrong_current() -> FieldProblem:
    return FieldProblem("current_password", "wrong", "This is not your current password.")


def _existing(store: EventStore, account_id: UUID | str) -> account.AccountState:
    state = load_account(store, account_id)
    if not state.exists:
        raise NotFound("no such account")
    return state


# ---------------------------------------------------------------- the password


def change_password(store: EventStore, cmd: ChangePassword, meta: Meta, links: AccountLinks) -> int:
    """Replace the password when the current one is right and the new one keeps the rule; mail the owner.

    Every problem is reported at once, each on its field. The new password is checked against the
    account's address as at sign-up, and may not be the current one. The `password_changed` email
    is queued in the same append as the change.
    """
    state = _existing(store, cmd.account_id)
    current, new = cmd.current_password.get_secret_value(), cmd.new_password.get_secret_value()
    problems: list[FieldProblem] = []
    if not current_password_matches(state, current):
        problems.append(_wrong_current())
    if problem := password_problem(new, [state.email]):
        problems.append(FieldProblem("new_password", PASSWORD_RULE, problem))
    elif not problems and current_password_matches(state, new):
        problems.append(FieldProblem("new_password", "unchanged", "Choose a password other than your current one."))
    if problems:
        raise InvalidInput("the password cannot be changed: " + problems[0].message, problems)
    pw_hash, account_id = hash_password(new), str(cmd.account_id)

    def decision(load: Loader) -> list[Event]:
        me = load(cmd.account_id, account)
        events = account.decide_change_password(me, pw_hash, "settings", meta)
        msg = load(mail.message_id(f"password-changed:{account_id}:settings:{me.version + 1}"), mail)
        notice = links.password_changed(cmd.revoke_credentials, how="on your account page")
        return events + mail.decide_queue(msg, me.email, notice[0], notice[1], "password_changed", account_id, meta)

    return store.decide_across(decision).position


# ---------------------------------------------------------------- the address


def masked(address: str) -> str:
    """An address as a notice may show it to whoever reads the old mailbox: `n***@example.com`."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}***@{domain}"


def confirmation_mail(links: AccountLinks, account_id: str, token_id: str, new_email: str) -> tuple[str, str]:
    token = links.sign(PURPOSE, {"a": account_id, "j": token_id})
    link = f"{links.website}account/email/confirm?token={token}"
    hours = int(EMAIL_CHANGE_TTL.total_seconds() // 3600)
    return (
        f"Confirm your new email address for {links.site}",
        links.signed(
            f"Hello,\n\nTo use {new_email} as the address of your {links.site} account, open this link and "
            f"confirm:\n\n{link}\n\nThe link works once and expires in {hours} hours; a newer request replaces it. "
            "Until it is confirmed, nothing changes.\nIf you did not ask for this, ignore this email."),
    )


def taken_mail(links: AccountLinks) -> tuple[str, str]:
    return (
        f"Someone tried to move an account to your address on {links.site}",
        links.signed(
            f"Hello,\n\nSomeone (perhaps you) asked to move a {links.site} account to this email address, which "
            f"already has an account. Nothing was changed.\n\nSign in: {links.website}signin\n"
            f"Forgot your password? Reset it: {links.website}reset\n\n"
            "If it was not you, you can ignore this email."),
    )


def undo_link(links: AccountLinks, account_id: str, token_id: str) -> str:
    """The link that undoes the change confirmed with `token_id` (signed like the others, its own purpose)."""
    return f"{links.website}account/email/undo?token={links.sign(UNDO_PURPOSE, {'a': account_id, 'j': token_id})}"


def changed_notice(links: AccountLinks, account_id: str, token_id: str, new_email: str,
                   contact: str = "") -> tuple[str, str]:
    """The notice to the old address, with the link that undoes the change (the first link in the text)."""
    days = account.EMAIL_UNDO_TTL.days
    return (
        f"The email address of your {links.site} account was changed",
        links.signed(
            f"Hello,\n\nThe email address of your {links.site} account was changed to {masked(new_email)} just "
            "now, with its password and a link sent to the new address. This address no longer signs in, and the "
            "account's email goes to the new address.\n\nIf you did not do this, someone knows your password. "
            f"Open this link and confirm to undo the change:\n\n{undo_link(links, account_id, token_id)}\n\n"
            "It moves the account back to this address, signs out every browser, stops its API keys and connected "
            f"apps, and sends you a link here to choose a new password. It works once, for {days} days, and only "
            f"while the account keeps the new address. If it does not work, {Site(links.site, contact).reach()}."),
    )


def ask_staff(contact: str) -> str:
    """How a notice or page tells a person locked out to reach the staff: their address (site setting
    `contact_email`) when one is set."""
    return f"write to the site's staff at {contact}" if contact else "contact the site's staff"


def revoke_grants(load: Loader, grant_ids: Sequence[UUID], account_id: str, meta: Meta) -> list[Event]:
    """Each OAuth grant of the account revoked (their apps' tokens stop): closing it, undoing a change of address.

    The ids come from the read tables; each grant is decided on as the write side has it, so one revoked
    meanwhile changes nothing.
    """
    events: list[Event] = []
    for grant_id in grant_ids:
        events += oauth.decide_revoke_grant(load(grant_id, oauth.GRANT), account_id, meta)
    return events


def check_new_address(store: EventStore, cmd: RequestEmailChange) -> tuple[account.AccountState, str]:
    """The account and the normalised new address, when the current password is right and the address differs.

    Problems are field errors: `new_email` (its shape, or the account's own address) and
    `current_password` (rule `wrong`). Whether another account holds the address is not checked here.
    """
    state = _existing(store, cmd.account_id)
    problems: list[FieldProblem] = []
    normal = ""
    try:
        normal = account.normalise_email(cmd.new_email)
    except InvalidInput as exc:
        problems += [FieldProblem("new_email", p.rule, p.message) for p in exc.problems]
    if normal and normal == state.email:
        problems.append(FieldProblem("new_email", "unchanged", "This is your address already. Enter a new one."))
    if not current_password_matches(state, cmd.current_password.get_secret_value()):
        problems.append(_wrong_current())
    if problems:
        raise InvalidInput("the address cannot be changed: " + problems[0].message, problems)
    return state, normal


def request_email_change(store: EventStore, account_id: str, new_email: str, meta: Meta, links: AccountLinks) -> int:
    """Mail a confirmation link to a free address (recording the request), or a notice to a taken one.

    Run after the answer (the website's deferred runner), so the answer does not tell the two apart.
    The notice to a taken address goes at most once an hour per address and account.
    """
    def decision(load: Loader) -> list[Event]:
        holder = load(account.email_stream_id(new_email), account.EMAIL_CLAIM).account_id
        if holder is not None:
            if holder == account_id:
                return []
            hour = meta.at.astimezone(timezone.utc).strftime("%Y%m%d%H")
            msg = load(mail.message_id(f"email-change-taken:{new_email}:{account_id}:{hour}"), mail)
            subject, text = taken_mail(links)
            return mail.decide_queue(msg, new_email, subject, text, "email_change_taken", holder, meta)
        token_id = uuid4().hex
        state = load(UUID(account_id), account)
        events = account.decide_request_email_change(state, new_email, token_id, meta.at + EMAIL_CHANGE_TTL, meta)
        if events:
            msg = load(mail.message_id(f"email-change:{token_id}"), mail)
            subject, text = confirmation_mail(links, account_id, token_id, new_email)
            events += mail.decide_queue(msg, new_email, subject, text, "email_change", account_id, meta)
        return events

    return store.decide_across(decision).position


def email_change_link(store: EventStore, token: str, links: AccountLinks, at: datetime) -> EmailChangeLink:
    """What an opened link is for: its address and whether it can be used, was used, or why not."""
    try:
        payload = links.read(PURPOSE, token[:1000])
        state = load_account(store, str(payload["a"]))
    except (InvalidInput, ValueError):
        return EmailChangeLink(None, None, False, "This link is not valid.")
    if not state.exists:
        return EmailChangeLink(None, None, False, "This link is not valid.")
    try:
        pending = account.check_email_change_token(state, str(payload["j"]), at)
    except InvalidInput as exc:
        rule = exc.problems[0].rule if exc.problems else "invalid"
        message = exc.problems[0].message if exc.problems else "This link is not valid."
        return EmailChangeLink(str(state.id), None, rule == "used", message)
    return EmailChangeLink(str(state.id), pending.new_email, False, None)


def confirm_email_change(store: EventStore, token: str, meta: Meta, links: AccountLinks) -> EmailMoved:
    """Move the account to the address its link was sent to: one append of the account's change, the new
    address's claim, the old address's release and the notice to the old address.

    Refused with the link's problem (400 naming `token`), or with a Conflict when another account
    took the address after the link was sent.
    """
    payload = links.read(PURPOSE, token[:1000])
    account_id, token_id = str(payload["a"]), str(payload["j"])
    try:
        stream = UUID(account_id)
    except ValueError:
        raise InvalidInput("this link is not valid", [FieldProblem("token", "invalid", "This link is not valid.")])

    def decision(load: Loader) -> list[Event]:
        state = load(stream, account)
        if not state.exists:
            raise InvalidInput("this link is not valid", [FieldProblem("token", "invalid", "This link is not valid.")])
        pending = account.check_email_change_token(state, token_id, meta.at)
        new_claim = load(account.email_stream_id(pending.new_email), account.EMAIL_CLAIM)
        old_claim = load(account.email_stream_id(state.email), account.EMAIL_CLAIM)
        events = account.decide_claim_email(new_claim, pending.new_email, account_id, meta)
        events += account.decide_release_email(old_claim, state.email, account_id, meta)
        events += account.decide_confirm_email_change(state, token_id, meta)
        msg = load(mail.message_id(f"email-changed:{account_id}:{token_id}"), mail)
        subject, text = changed_notice(links, account_id, token_id, pending.new_email, site_contact(load))
        return events + mail.decide_queue(msg, state.email, subject, text, "email_changed", account_id, meta)

    appended = store.decide_across(decision)
    before: account.AccountState = appended.states[stream]
    assert before.email_change is not None
    return EmailMoved(appended.position, account_id, before.email, before.email_change.new_email)


def pending_email_change(store: EventStore, account_id: str, at: datetime) -> str | None:
    """The address a still-usable link was sent to, for the settings page; None when there is none."""
    state = load_account(store, account_id)
    pending = state.email_change if state.exists else None
    return pending.new_email if pending is not None and at < pending.expires_at else None
