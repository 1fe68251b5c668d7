"""New passwords are checked for strength with zxcvbn at the boundary (the account commands' models and the
operator's set_password), so the website, the CLI and every later door refuse the same weak passwords, with
zxcvbn's reason; nothing is stored for a refused password."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from uuid import uuid4

import pytest
from click.testing import CliRunner
from pydantic import SecretStr, ValidationError

from aggregates.base import Meta
from commands import account as account_cmd
from events.errors import InvalidInput
from launchdir.cli import main

WEAK = ["password12", "qwertyuiop", "1234567890", "aaaaaaaaaaaa", "iloveyou123"]
STRONG = "a good long password"


def _meta() -> Meta:
    return Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli")


@pytest.mark.parametrize("weak", WEAK)
def test_weak_passwords_are_refused_by_the_commands_with_zxcvbns_reason(weak: str) -> None:
    with pytest.raises(ValidationError) as refused:
        account_cmd.RegisterAccount(account_id=uuid4(), email="ada@example.com", password=SecretStr(weak))
    [error] = refused.value.errors()
    assert error["loc"] == ("password",) and error["type"] == account_cmd.PASSWORD_RULE
    assert error["msg"] and error["msg"] == account_cmd.password_problem(weak, ["ada@example.com"])
    with pytest.raises(ValidationError) as refused_reset:
        account_cmd.ResetPassword(token="t", password=SecretStr(weak))
    assert refused_reset.value.errors()[0]["type"] == account_cmd.PASSWORD_RULE


def test_password12_says_it_is_a_very_common_password() -> None:
    assert account_cmd.password_problem("password12") is not None
    assert "common password" in (account_cmd.password_problem("password12") or "")


def test_the_address_and_the_site_name_count_as_guessable() -> None:
    assert account_cmd.password_problem("Launchdir2024!") is not None
    assert account_cmd.password_problem("zebediah.q.x1", ["zebediah.q.x1@example.com"]) is not None


def test_strong_passwords_pass_and_lengths_keep_their_messages() -> None:
    assert account_cmd.password_problem(STRONG, ["ada@example.com"]) is None
    assert account_cmd.password_problem("short") == "Use at least 10 characters."
    assert account_cmd.password_problem("x" * 257) == "Use at most 256 characters."
    long_and_strong = "correct horse battery staple " * 8  # longer than zxcvbn scores: the first 72 count
    assert account_cmd.password_problem(long_and_strong[:256]) is None


def test_operators_setting_a_password_get_the_same_rule(container) -> None:  # type: ignore[no-untyped-def]
    address = f"ops-{uuid4().hex[:8]}@example.com"
    cmd = account_cmd.RegisterAccount(account_id=uuid4(), email=address, password=None, verified=True)
    account_cmd.register_account(container.store, cmd, _meta(), None)
    position = container.store.position()
    with pytest.raises(InvalidInput) as refused:
        account_cmd.set_password(container.store, address, "password12", _meta())
    assert refused.value.problems[0].field == "password" and refused.value.problems[0].rule == account_cmd.PASSWORD_RULE
    assert container.store.position() == position  # nothing stored


def test_the_cli_refuses_a_weak_password_and_accepts_a_strong_one(fresh_db: str, tmp_path: Path) -> None:
    runner = CliRunner(env={"DATABASE_URL": fresh_db, "LAUNCHDIR_DATA_DIR": str(tmp_path), "LAUNCHDIR_STAFF": "ops"})
    weak = runner.invoke(main, ["accounts", "create", "weak@example.com", "--password", "password12"])
    assert weak.exit_code == 1 and "common password" in weak.output
    strong = runner.invoke(main, ["accounts", "create", "weak@example.com", "--password", STRONG])
    assert strong.exit_code == 0, strong.output  # the refused attempt stored nothing: the address is still free
