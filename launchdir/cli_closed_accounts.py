"""`launchdir staff tidy-closed-accounts`: accounts closed before closing ended follows and withdrew marks.

Adds its command to the `staff` group of `launchdir/cli_staff.py` when
imported (`launchdir/cli.py` imports it). The closed accounts and the listings
each ever followed are read from the log (`AccountClosed`, `ListingFollowed`:
the read tables forget a closed account's follows, though its follow streams
still count), its verified claims from the claims read table (kept under the
former id), and each account is tidied in one append that decides every follow
and listing from the write side (`commands/account_closure_tidy.py`,
docs/identity.md, "Closing an account").
"""

from __future__ import annotations

from typing import Any

import click

from launchdir.cli_common import NothingChanged, actor_option, staff_session
from launchdir.cli_staff import staff

VIEWS = ("claims_view",)  # the verified claims the leftovers are read from
PAGE = 10_000  # events of the log read at a time


@staff.command("tidy-closed-accounts")
@actor_option
def tidy_closed_accounts(actor: str | None) -> None:
    """End the follows of closed accounts, and withdraw verified marks only their claims stood for.

    Accounts closed before closing did this itself. Says what it did per
    account; when nothing is left to tidy, records nothing and exits with 3.
    """
    from commands.account_closure_tidy import Leftovers, tidy_closed_account
    from queries import claims as claims_q

    with staff_session(actor) as (c, meta):
        for name in VIEWS:
            if name in c.runtime.projections:
                c.runtime.catch_up(name)
        tidied = 0
        closed, followed = _from_the_log(c)
        for account_id, former in closed:
            left = Leftovers(account_id=account_id, followed_ids=tuple(sorted(followed.get(str(account_id), ()))),
                             verified_claims=claims_q.verified_claims_of(c.services.reads, former))
            if not left.followed_ids and not left.verified_claims:
                continue
            done = tidy_closed_account(c.store, left, meta)
            if done.changed:
                tidied += 1
                click.echo(f"account {account_id}: {len(done.follows_ended)} follow(s) ended, verified mark withdrawn "
                           f"from {len(done.marks_withdrawn)} listing(s) (event position {done.position})")
        if not tidied:
            raise NothingChanged("no closed account still follows a listing or holds up a verified mark")


def _from_the_log(c: Any) -> tuple[list[tuple[Any, str]], dict[str, set[int]]]:
    """(account id, its former id in the read tables) of every closed account, oldest first; and the listings
    each of those accounts ever followed (whether a follow still stands is decided from its stream)."""
    from eventsourcing.utils import get_topic

    from events.account import AccountClosed
    from events.community import ListingFollowed

    log, topics = c.runtime.events, [get_topic(AccountClosed), get_topic(ListingFollowed)]
    head, after = log.head(), 0
    closed: list[tuple[Any, str]] = []
    followed: dict[str, set[int]] = {}
    while True:
        page = log.read(after=after, upto=head, topics=topics, limit=PAGE)
        for _, e in page:
            if isinstance(e, AccountClosed):
                closed.append((e.originator_id, e.former_account))
            elif isinstance(e, ListingFollowed):
                followed.setdefault(e.account_id, set()).add(e.listing_id)
        if len(page) < PAGE:
            return closed, {str(a): followed.get(str(a), set()) for a, _ in closed}
        after = page[-1][0]
