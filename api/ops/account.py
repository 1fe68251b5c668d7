"""Account operations: get_account (who the credential belongs to and what it allows)."""

from __future__ import annotations

from typing import Any

from api.registry import Operation
from api.services import Call, Services
from events.errors import Unauthorized
from queries import accounts as accounts_q


def _me(s: Services, q: accounts_q.GetAccount, c: Call) -> dict[str, Any]:
    p = c.principal
    if p is None:  # the executor refuses anonymous calls before this; kept for direct callers
        raise Unauthorized("this operation needs credentials")
    doc = accounts_q.get_account(s.reads, p.account_id, p.kind, p.scopes, p.expires_at, p.client_id)
    if doc is None:
        raise Unauthorized("the account of this credential does not exist")
    return doc


def operations() -> list[Operation]:
    """The account's rows of the operation table."""
    return [
        Operation("get_account", "GET", "/me", accounts_q.GetAccount, accounts_q.AccountInfo, _me,
                  scope="account:read", tag="account"),
    ]
