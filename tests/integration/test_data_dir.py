"""Which data a command uses: one data directory per checkout, found from any directory in it, and said on stderr."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from psycopg.conninfo import conninfo_to_dict

from launchdir.cli import main
from launchdir.settings import Settings, default_data_dir


def _checkout(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "launchdir"\nversion = "1"\n')
    deep = root / "docs" / "spec"
    deep.mkdir(parents=True)
    return deep


def test_the_checkout_root_holds_the_data_directory_from_any_directory_in_it(tmp_path: Path) -> None:
    deep = _checkout(tmp_path / "checkout")
    assert default_data_dir(deep) == tmp_path / "checkout" / ".launchdir"
    assert default_data_dir(tmp_path / "checkout") == tmp_path / "checkout" / ".launchdir"


def test_an_existing_data_directory_nearer_than_the_root_is_used(tmp_path: Path) -> None:
    deep = _checkout(tmp_path / "checkout")
    (deep.parent / ".launchdir").mkdir()
    assert default_data_dir(deep) == deep.parent / ".launchdir"


def test_outside_a_checkout_the_current_directory_is_used(tmp_path: Path) -> None:
    other = tmp_path / "elsewhere"
    other.mkdir()
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "something-else"\n')
    assert default_data_dir(other) == other / ".launchdir"


def test_settings_resolve_the_data_directory_to_an_absolute_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deep = _checkout(tmp_path / "checkout")
    monkeypatch.chdir(deep)
    assert Settings.from_env({}).data_dir == tmp_path / "checkout" / ".launchdir"
    assert Settings.from_env({"LAUNCHDIR_DATA_DIR": "mine"}).data_dir == deep / "mine"  # relative to the cwd
    assert Settings().data_dir == tmp_path / "checkout" / ".launchdir"


def test_every_command_says_which_database_it_uses_without_the_password(fresh_db: str, tmp_path: Path) -> None:
    runner = CliRunner(env={"DATABASE_URL": fresh_db + " password=hunter2", "LAUNCHDIR_DATA_DIR": str(tmp_path)})
    result = runner.invoke(main, ["catalog", "load"])
    assert result.exit_code == 0, result.output
    (line,) = [x for x in result.stderr.splitlines() if x.startswith("database: ")]
    assert line.endswith("(DATABASE_URL)") and f"/{conninfo_to_dict(fresh_db)['dbname']} " in line
    assert "hunter2" not in result.output
