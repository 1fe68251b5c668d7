"""`launchdir accounts` and `launchdir keys`: accounts of people who sign in, and their API keys.

Run by staff, so every command runs in `staff_session` and is recorded with
who and when. A new key is printed once on stdout; only its hash is kept.
The groups are added to the `launchdir` command by `launchdir/cli.py`.
"""

from __future__ import annotations

import click

from launchdir.cli_common import TextRuleGroup, actor_option, staff_session


@click.group(cls=TextRuleGroup)
def accounts() -> None:
    """Accounts of people who sign in."""


@accounts.command("create")
@click.argument("email")
@click.option("--password", default=None, help="Set this password (else the person sets one with a reset link).")
@actor_option
def accounts_create(email: str, password: str | None, actor: str | None) -> None:
    """Create an account with a confirmed EMAIL; prints its id."""
    from uuid import uuid4

    from commands.account import PASSWORD_MAX, PASSWORD_MIN, RegisterAccount, register_account

    if password is not None and not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise click.BadParameter(f"use {PASSWORD_MIN}..{PASSWORD_MAX} characters", param_hint="--password")
    with staff_session(actor) as (c, meta):
        cmd = RegisterAccount.model_validate(
            {"account_id": uuid4(), "email": email, "password": password, "verified": True})
        result = register_account(c.store, cmd, meta, None)
        click.echo(result.account_id)


@click.group(cls=TextRuleGroup)
def keys() -> None:
    """API keys (shown once when created; only a hash is kept)."""


@keys.command("create")
@click.argument("email")
@click.option("--scopes", required=True, help="Comma separated: account:read,listings:write,orders:write.")
@click.option("--name", default="cli", show_default=True, help="A name to recognise the key by.")
@click.option("--expires", default=None, help="Last day the key works, YYYY-MM-DD (site timezone).")
@actor_option
def keys_create(email: str, scopes: str, name: str, expires: str | None, actor: str | None) -> None:
    """Create an API key for the account with EMAIL and print it (once)."""
    from datetime import date

    from commands.account import find_account
    from commands.apikeys import CreateApiKey, create_api_key

    with staff_session(actor) as (c, meta):
        state = find_account(c.store, email)
        if state is None:
            raise click.ClickException(f"no account with the email address {email!r}")
        cmd = CreateApiKey.model_validate({
            "account_id": state.id, "name": name, "scopes": [s.strip() for s in scopes.split(",") if s.strip()],
            "expires_on": date.fromisoformat(expires) if expires else None})
        new = create_api_key(c.store, cmd, meta, c.services.timezone)
        click.echo(new.key)
        click.echo("This key is shown once; only its hash is kept.", err=True)


@keys.command("revoke")
@click.argument("email")
@click.argument("key_id")
@actor_option
def keys_revoke(email: str, key_id: str, actor: str | None) -> None:
    """Revoke the key KEY_ID (the 16 characters after ldk_) of the account with EMAIL."""
    from commands.account import find_account
    from commands.apikeys import RevokeApiKey, revoke_api_key

    with staff_session(actor) as (c, meta):
        state = find_account(c.store, email)
        if state is None:
            raise click.ClickException(f"no account with the email address {email!r}")
        key_id = key_id.removeprefix("ldk_")[:16]
        revoke_api_key(c.store, RevokeApiKey(account_id=state.id, key_id=key_id), meta)
        click.echo(f"ldk_{key_id}_…: revoked")
