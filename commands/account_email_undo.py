"""Undoing a change of address from the old address: "this wasn't me".

Someone who took a person's password could move the account to an address of theirs and lock
the owner out. So the notice that goes to the old address carries a signed link
(`account_settings.undo_link`, purpose `email-undo`, `{a: account id, j: the change's token
id}`) that works once, for 7 days, while the account keeps the address the change gave it.
Its page shows what happened; its button (a POST: a mail scanner opening the link changes
nothing) runs `revert_email_change`, one append of:

- the account's events (`account.decide_revert_email_change`): every API key revoked,
  `AccountEmailChangeReverted` (back to the old address, the password cleared), a new reset link
  issued;
- the dropped address released and the old one claimed again, on their own streams;
- every OAuth grant revoked (`account_settings.revoke_grants`, as closing the account does);
- the reset link mailed to the old address, and a notice to the dropped one.

When another account took the old address meanwhile, nothing changes (a Conflict naming the
staff's address). The caller ends the account's sessions once the append is stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID, uuid4

from aggregates import account, mail
from aggregates.base import Meta
from commands.account import RESET_TTL, AccountLinks, load_account
from commands.account_settings import UNDO_PURPOSE, ask_staff, masked, revoke_grants
from commands.site import site_contact
from commands.store import EventStore, Loader
from events.account import ApiKeyRevoked
from events.base import Event
from events.errors import Conflict, FieldProblem, InvalidInput, NotFound

NOT_VALID = "This link is not valid."
LOCKED_OUT = ("changed_again", "expired")  # refusals after which the owner may have lost the account


@dataclass(frozen=True)
class UndoLink:
    """What an opened undo link is about: the two addresses, or why it does nothing."""

    restored_email: str | None  # the address the account goes back to
    dropped_email: str | None  # the address the change moved it to
    changed_at: datetime | None  # when the change was made
    done: bool  # the change was undone already (with this link)
    problem: str | None  # a sentence for people, or None when the button may be shown
    taken: bool  # another account holds the old address now: nothing can be undone here
    contact: str  # the staff's address (site setting `contact_email`), "" when none is set


@dataclass(frozen=True)
class Reverted:
    position: int
    account_id: str
    restored_email: str
    key_ids: tuple[str, ...]  # the keys revoked now (the caller drops them from its caches)


def _invalid() -> InvalidInput:
    return InvalidInput("this link is not valid", [FieldProblem("token", "invalid", NOT_VALID)])


def read_link(links: AccountLinks, token: str) -> tuple[UUID, str]:
    """The account stream and the change's token id a link names; a forged or garbled link is `invalid`."""
    payload = links.read(UNDO_PURPOSE, token[:1000])
    try:
        return UUID(str(payload["a"])), str(payload["j"])
    except ValueError:
        raise _invalid() from None


def email_undo_link(store: EventStore, token: str, links: AccountLinks, at: datetime) -> UndoLink:
    """What the page of an opened undo link shows: the change, or why the link does nothing."""
    contact = staff_contact(store)
    try:
        stream, token_id = read_link(links, token)
        state = load_account(store, stream)
        change = account.check_email_undo_token(state, token_id, at)
    except InvalidInput as exc:
        used = bool(exc.problems) and exc.problems[0].rule == "used"
        return UndoLink(None, None, None, used, refusal(exc, contact), False, contact)
    except NotFound:  # no account, or a closed one: the link names nothing
        return UndoLink(None, None, None, False, NOT_VALID, False, contact)
    holder = store.load(account.email_stream_id(change.old_email), account.EMAIL_CLAIM).account_id
    taken = holder is not None and holder != str(stream)
    return UndoLink(change.old_email, change.new_email, change.changed_at, False, None, taken, contact)


def staff_contact(store: EventStore) -> str:
    """The staff's address (site setting `contact_email`), "" when none is set."""
    return site_contact(store.load)


def refusal(exc: InvalidInput, contact: str) -> str:
    """The sentence a refused link shows: why, and whom to ask when the account may be lost to someone else."""
    problem = exc.problems[0] if exc.problems else None
    if problem is None:
        return NOT_VALID
    if problem.rule in LOCKED_OUT:
        return f"{problem.message} If the change was not yours, {ask_staff(contact)}."
    return problem.message


def taken_problem(address: str, contact: str) -> str:
    """Why nothing was undone when another account holds the old address, and whom to ask."""
    return (f"{address} has been used for another account since the change, so the account cannot move back to "
            f"it. To get your account back, {ask_staff(contact)}.")


def revert_email_change(store: EventStore, token: str, grant_ids: Sequence[UUID], meta: Meta,
                        links: AccountLinks) -> Reverted:
    """Undo the change the link names, in one append (see the module's docstring).

    `grant_ids` are the account's OAuth grants as the read tables list them. Refused with the link's
    problem (400 naming `token`: used, changed again, expired, invalid), NotFound for a closed
    account, or a Conflict when another account holds the old address now.
    """
    stream, token_id = read_link(links, token)
    account_id = str(stream)

    def decision(load: Loader) -> list[Event]:
        state = load(stream, account)
        if not state.exists:
            raise _invalid()
        change = account.check_email_undo_token(state, token_id, meta.at)
        old_claim = load(account.email_stream_id(change.old_email), account.EMAIL_CLAIM)
        if old_claim.account_id is not None:
            raise Conflict(taken_problem(change.old_email, site_contact(load)))
        new_claim = load(account.email_stream_id(change.new_email), account.EMAIL_CLAIM)
        reset_token = uuid4().hex
        events = account.decide_revert_email_change(state, token_id, reset_token, meta.at + RESET_TTL, meta)
        if new_claim.account_id == account_id:
            events += account.decide_release_email(new_claim, change.new_email, account_id, meta)
        events += account.decide_claim_email(old_claim, change.old_email, account_id, meta)
        events += revoke_grants(load, grant_ids, account_id, meta)
        reset_msg = load(mail.message_id(f"reset:{reset_token}"), mail)
        events += mail.decide_queue(reset_msg, change.old_email, *links.reset(account_id, reset_token),
                                    "password_reset", account_id, meta)
        notice_msg = load(mail.message_id(f"email-change-undone:{account_id}:{token_id}"), mail)
        return events + mail.decide_queue(notice_msg, change.new_email, *undone_notice(links, change.old_email),
                                          "email_change_undone", None, meta)

    appended = store.decide_across(decision)
    before: account.AccountState = appended.states[stream]
    assert before.last_email_change is not None
    revoked = tuple(e.key_id for e in appended.events if isinstance(e, ApiKeyRevoked))
    return Reverted(appended.position, account_id, before.last_email_change.old_email, revoked)


def undone_notice(links: AccountLinks, restored_email: str) -> tuple[str, str]:
    """The notice to the dropped address: the account it had is back at its old address."""
    return (
        f"A change of address on {links.site} was undone",
        links.signed(
            f"Hello,\n\nThe {links.site} account that was moved to this address was moved back to its old "
            f"address ({masked(restored_email)}) from that address's mail just now. This address no longer signs in "
            f"and gets no more email for it.\n\nYou get this email because the account was moved to this address "
            f"earlier. If you want a {links.site} account of your own here, sign up: {links.website}signup"),
    )
