"""The operator commands: accounts create, staff grant, keys create / revoke; all through the commands."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from commands.account import find_account
from events.account import AccountEmailVerified, AccountStaffGranted, ApiKeyCreated, ApiKeyRevoked
from launchdir.cli import main


def test_operators_create_an_account_grant_staff_and_make_keys(fresh_db: str, tmp_path: Path) -> None:
    from launchdir.bootstrap import bootstrap
    from tests.conftest import test_settings

    runner = CliRunner(env={"DATABASE_URL": fresh_db, "LAUNCHDIR_DATA_DIR": str(tmp_path), "LAUNCHDIR_STAFF": "ops"})
    created = runner.invoke(main, ["accounts", "create", "Ops@Example.com", "--password", "a long password"])
    assert created.exit_code == 0, created.output
    account_id = created.stdout.strip()
    assert re.fullmatch(r"[0-9a-f-]{36}", account_id)
    again = runner.invoke(main, ["accounts", "create", "ops@example.com"])
    assert again.exit_code == 1 and "exists" in again.output
    assert runner.invoke(main, ["staff", "grant", "ops@example.com"]).exit_code == 0
    key = runner.invoke(main, ["keys", "create", "ops@example.com", "--scopes", "account:read,listings:write",
                               "--name", "deploy", "--expires", "2099-12-31"])
    assert key.exit_code == 0, key.output
    assert re.fullmatch(r"ldk_[0-9a-f]{16}_[0-9a-f]{64}", key.stdout.strip())
    bad = runner.invoke(main, ["keys", "create", "ops@example.com", "--scopes", "admin"])
    assert bad.exit_code != 0
    key_id = key.stdout.strip()[4:20]
    assert runner.invoke(main, ["keys", "revoke", "ops@example.com", key_id]).exit_code == 0
    assert runner.invoke(main, ["staff", "grant", "nobody@example.com"]).exit_code == 1

    c = bootstrap(test_settings(fresh_db))
    try:
        state = find_account(c.store, "OPS@example.com")
        assert state is not None and str(state.id) == account_id and state.is_staff and state.email_verified
        events = c.store.stream(state.id)
        kinds = [type(e) for e in events]
        assert kinds == [kinds[0], AccountEmailVerified, AccountStaffGranted, ApiKeyCreated, ApiKeyRevoked]
        assert all(e.actor == "staff:ops" and e.channel == "cli" for e in events)
        assert state.keys[key_id].scopes == ("account:read", "listings:write")
    finally:
        c.close()
