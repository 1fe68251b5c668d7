"""`launchdir staff orders`, `staff refund NUMBER`, `staff tasks`, `staff fulfil ORDER LINE`: orders for the site team.

Adds its commands to the `staff` group of `launchdir/cli_staff.py` when
imported (`launchdir/cli.py` imports it). Reads catch `orders_view` up first,
so they show every order stored so far. A refund goes through the payment
provider when the order was paid there (Stripe), then records `OrderRefunded`
(what a refund undoes: docs/orders.md, "Refunds").
"""

from __future__ import annotations

import json

import click

from launchdir.cli_common import cli_session, staff_session
from launchdir.cli_staff import staff


def _money(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


@staff.command("orders")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 1000))
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def staff_orders(limit: int, as_json: bool) -> None:
    """The newest orders with status, totals and fulfilment."""
    from queries import orders as orders_q

    with cli_session() as c:
        c.runtime.catch_up(orders_q.VIEW)
        docs = orders_q.recent(c.services.reads, limit)
        if as_json:
            click.echo(json.dumps(docs, indent=2, default=str))
            return
        click.echo("NUMBER       STATUS     TOTAL(USD)  VAT               LINES  CREATED")
        for d in docs:
            done = sum(1 for line in d["lines"] if line["fulfilled"])
            vat = f"{d['vat']['treatment']} {d['vat'].get('country', '')}".strip()
            click.echo(f"{d['number']:<12} {d['status']:<10} {_money(d['total_cents']):>10}  {vat:<17} "
                       f"{done}/{len(d['lines']):<4} {d['created_at'][:16]}")


@staff.command("refund")
@click.argument("number")
@click.option("--reason", default="refunded by staff", show_default=True)
@click.option("--actor", default=None, help="Who is acting (default: LAUNCHDIR_STAFF or the login name).")
def staff_refund(number: str, reason: str, actor: str | None) -> None:
    """Refund order NUMBER in full (through the provider when it was paid there)."""
    from commands import orders as orders_cmd
    from launchdir.ordering import payment_provider

    if not reason.strip():
        raise click.BadParameter("say why: the customer is mailed the reason", param_hint="--reason")
    with staff_session(actor) as (c, meta):
        state = orders_cmd.load(c.store, number)
        if not state.exists:
            raise click.ClickException(f"no order {number}")
        if state.status == "refunded":
            raise click.ClickException(f"order {number} was refunded already; nothing was done")
        reference = ""
        if state.provider not in ("", "test") and state.paid_at is not None and state.status != "refunded":
            provider = payment_provider(c.settings)
            if provider is None:
                raise click.ClickException(f"order {number} was paid with {state.provider}, which is not configured")
            reference = provider.refund(state.reference, state.total_cents)
        position = orders_cmd.refund(c.store, number, reason, reference, meta)
        click.echo(f"{number}: refunded {_money(state.total_cents)} USD (event position {position})")


@staff.command("tasks")
def staff_tasks() -> None:
    """Order lines that wait for the site team (done_for_you, trophies)."""
    from queries import orders as orders_q

    with cli_session() as c:
        c.runtime.catch_up(orders_q.VIEW)
        tasks = orders_q.open_tasks(c.services.reads)
        if not tasks:
            click.echo("no open tasks")
        for t in tasks:
            click.echo(f"{t['number']} line {t['line']}: {t['product']} for listing {t['listing_id']}: {t['task']}")


@staff.command("fulfil")
@click.argument("number")
@click.argument("line", type=int)
@click.option("--actor", default=None, help="Who is acting (default: LAUNCHDIR_STAFF or the login name).")
def staff_fulfil(number: str, line: int, actor: str | None) -> None:
    """Close staff task LINE of order NUMBER: the work is done."""
    from commands import orders as orders_cmd

    with staff_session(actor) as (c, meta):
        state = orders_cmd.load(c.store, number)
        if not state.exists:
            raise click.ClickException(f"no order {number}")
        if line in state.fulfilled:  # said, rather than a position of some other event
            raise click.ClickException(f"line {line} of order {number} is fulfilled already; nothing was done")
        position = orders_cmd.close_task(c.store, number, line, meta)
        click.echo(f"{number} line {line}: fulfilled (event position {position})")
