"""A process whose environment names no address uses the one the last `launchdir serve` recorded."""

from __future__ import annotations

from pathlib import Path

from launchdir import site_address
from launchdir.bootstrap import bootstrap
from launchdir.settings import Settings


def base_url(env: dict[str, str]) -> tuple[str, str]:
    c = bootstrap(Settings.from_env(env))
    try:
        return c.settings.base_url, c.services.links["website"]
    finally:
        c.close()


def test_commands_told_no_address_use_the_servers(fresh_db: str, tmp_path: Path) -> None:
    env = {"DATABASE_URL": fresh_db, "LAUNCHDIR_DATA_DIR": str(tmp_path)}
    assert site_address.recorded(fresh_db) is None
    assert base_url(env) == ("http://127.0.0.1:8000", "http://127.0.0.1:8000/")  # no server yet: the default
    site_address.record(fresh_db, "http://127.0.0.1:9123")
    site_address.record(fresh_db, "https://launch.example")  # the last server started wins
    assert base_url(env) == ("https://launch.example", "https://launch.example/")
    assert base_url(env | {"LAUNCHDIR_PORT": "8100"})[0] == "http://127.0.0.1:8100"  # told: its own address
    assert base_url(env | {"LAUNCHDIR_PUBLIC_URL": "https://other.example/"})[0] == "https://other.example"
    assert Settings.from_env(env).with_server("127.0.0.1", 8200).address_given  # serve's flags are an address
