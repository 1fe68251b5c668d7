"""The text rule at the CLI door: control characters in arguments, options or files are refused (exit 2), nothing stored."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from launchdir.cli import main


@pytest.fixture
def cli(fresh_db: str, tmp_path: Path) -> CliRunner:
    return CliRunner(env={"DATABASE_URL": fresh_db, "LAUNCHDIR_DATA_DIR": str(tmp_path), "LAUNCHDIR_STAFF": "ops"})


def _head(fresh_db: str) -> int:
    from launchdir.bootstrap import bootstrap
    from tests.conftest import test_settings

    c = bootstrap(test_settings(fresh_db))
    try:
        return c.store.position()
    finally:
        c.close()


def _refused(result: Result, names: str) -> None:
    assert result.exit_code == 2, result.output
    assert f"Invalid value for {names}" in result.stderr and "control_characters" in result.stderr


def test_text_breaking_the_rule_is_refused_naming_the_argument(cli: CliRunner, fresh_db: str, tmp_path: Path) -> None:
    made = cli.invoke(main, ["staff", "founder", "create", "ada-lovelace", "Ada Lovelace", "--bio", "tab\tand\nnewline"])
    assert made.exit_code == 0, made.output  # tab, newline and carriage return are text
    head = _head(fresh_db)

    _refused(cli.invoke(main, ["accounts", "create", "nul\x00x@example.org"]), "'EMAIL'")
    _refused(cli.invoke(main, ["staff", "founder", "create", "grace", "Grace\x1bHopper"]), "'NAME'")
    _refused(cli.invoke(main, ["staff", "founder", "create", "grace", "Grace", "--social", "x=https://x.example.com/\x07"]),
             "'--social'")
    _refused(cli.invoke(main, ["staff", "founder", "edit", "ada-lovelace", "bio", "lone \udc80 surrogate"]), "'VALUE'")
    _refused(cli.invoke(main, ["staff", "site-setting", "name", "--actor", "ops\x08", "Demo"]), "'--actor'")
    escaped = cli.invoke(main, ["staff", "site-setting", "name", '"an escaped \\u0000 in JSON"'])
    _refused(escaped, "'VALUE'")
    key = cli.invoke(main, ["staff", "founder", "edit", "ada-lovelace", "socials", '{"x\\u0001": "https://x.example.com/"}'])
    _refused(key, "'VALUE'")
    assert "at x\ufffd" in key.stderr  # the dotted path of the offending key

    post = tmp_path / "post.md"
    post.write_text("# Title\n\nBody with a NUL \x00 inside.\n", encoding="utf-8")
    _refused(cli.invoke(main, ["staff", "blog", "write", "a-post", str(post), "--title", "A post"]), "'MARKDOWN_FILE'")
    post.write_bytes(b"# Title\n\nNot UTF-8: \xff\n")
    _refused(cli.invoke(main, ["staff", "blog", "write", "a-post", str(post), "--title", "A post"]), "'MARKDOWN_FILE'")

    assert _head(fresh_db) == head  # nothing was stored


def test_every_command_of_the_cli_keeps_the_rule() -> None:
    import click

    from launchdir.cli_common import TextRuleCommand as _TextRuleCommand

    def leaves(cmd: click.Command, path: str) -> list[tuple[str, click.Command]]:
        if isinstance(cmd, click.Group):
            return [leaf for name, sub in cmd.commands.items() for leaf in leaves(sub, f"{path} {name}")]
        return [(path, cmd)]

    commands = leaves(main, "launchdir")
    assert len(commands) > 20
    assert [path for path, cmd in commands if not isinstance(cmd, _TextRuleCommand)] == []
