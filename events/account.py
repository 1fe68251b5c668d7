"""Events of the Account aggregate (people who sign in, their API keys) and of email-address claims.

Only hashes are stored: `password_hash` is an argon2id hash, `secret_hash` the
SHA-256 of a random 256-bit API key. Tokens sent by email are referred to by
their id (`token_id`) once used, so each link works once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from events.base import Event


@dataclass(frozen=True, kw_only=True)
class AccountRegistered(Event):
    email: str  # normalised: stripped, lower-case
    password_hash: str | None  # None: no password yet (operator-created); sign in after a reset


@dataclass(frozen=True, kw_only=True)
class AccountEmailVerified(Event):
    email: str
    token_id: str | None  # the verification link used; None when an operator vouched for it


@dataclass(frozen=True, kw_only=True)
class AccountPasswordResetRequested(Event):
    token_id: str
    expires_at: datetime


@dataclass(frozen=True, kw_only=True)
class AccountPasswordChanged(Event):
    password_hash: str
    reason: str  # "reset" | "rehash" | "operator" | "settings" (the owner, signed in, with the current password)
    token_id: str | None  # the reset link used, when there was one


@dataclass(frozen=True, kw_only=True)
class AccountEmailChangeRequested(Event):
    """The owner asked to move the account to `new_email`; a link mailed there confirms it (the latest one only)."""

    new_email: str  # normalised
    token_id: str
    expires_at: datetime


@dataclass(frozen=True, kw_only=True)
class AccountEmailChanged(Event):
    """The link of the latest request was opened: the account's address is `new_email` (confirmed by that link)."""

    old_email: str
    new_email: str
    token_id: str


@dataclass(frozen=True, kw_only=True)
class AccountEmailChangeReverted(Event):
    """The undo link mailed to the old address was confirmed: the account is back at `restored_email`.

    `token_id` names the change undone (its `AccountEmailChanged.token_id`), so each undo link works
    once. The old mailbox proved itself, so `restored_email` counts as confirmed. Whoever moved the
    account knew the password: it is cleared (no password signs in), pending address changes and
    reset links die, and a new reset link goes to `restored_email` in the same append
    (docs/identity.md, "Undoing a change of address").
    """

    restored_email: str  # the address before the change, now the account's again
    dropped_email: str  # the address the change had moved the account to, released
    token_id: str


@dataclass(frozen=True, kw_only=True)
class AccountStaffGranted(Event):
    pass


@dataclass(frozen=True, kw_only=True)
class AccountStaffRevoked(Event):
    pass


@dataclass(frozen=True, kw_only=True)
class StaffRosterChanged(Event):
    """On the one staff roster stream: an account became staff (`staff`) or stopped being staff (revoked, closed).

    Every change of who is staff appends here as well as to the account, so
    two changes decided at once conflict on this stream and the second is
    decided again on what the first did (the last-staff rule, docs/identity.md).
    """

    account_id: str
    staff: bool


@dataclass(frozen=True, kw_only=True)
class ApiKeyCreated(Event):
    key_id: str  # the public part of the key: ldk_<key_id>_<secret>
    name: str
    scopes: list[str]
    expires_at: datetime | None
    secret_hash: str  # sha256 hex of the whole key


@dataclass(frozen=True, kw_only=True)
class ApiKeyRevoked(Event):
    key_id: str


@dataclass(frozen=True, kw_only=True)
class EmailAddressClaimed(Event):
    """On the address's own stream (uuid5 of the address): at most one account per address."""

    email: str
    account_id: str


@dataclass(frozen=True, kw_only=True)
class EmailAddressReleased(Event):
    """On the address's own stream: its account moved to another address, so this one may be claimed again."""

    email: str
    account_id: str


@dataclass(frozen=True, kw_only=True)
class InterviewAnswered(Event):
    """The person's founder-interview answers: `answers` maps question id (as a string) to the answer text.

    Each event carries the answers given in that call; an empty answer removes one. It lives on the
    person's own interview stream (`aggregates/interview.py`), so `account_id` names the person.
    """

    account_id: str
    answers: dict[str, str]


@dataclass(frozen=True, kw_only=True)
class AccountClosed(Event):
    """The person closed the account: sign-in ends, and read tables forget them (docs/identity.md, "Closing an account").

    `former_id` is a random id drawn when the account closes: read tables that keep what the person did (votes,
    reviews, claims) replace the account id with `former:<former_id>`, so the rows stay counted but lead to no one.
    The address is released on its own stream (`EmailAddressReleased`) in the same append.
    """

    former_id: str

    @property
    def former_account(self) -> str:
        """What read tables that keep the person's deeds write instead of the account id."""
        return f"former:{self.former_id}"
