"""The command line: staff actions recorded as events, projection status and rebuild, and a cold start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from aggregates import catalog
from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "launchdir.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def cli_env(fresh_db: str, tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": fresh_db, "LAUNCHDIR_DATA_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}


def test_staff_price_change_is_an_event_with_who_and_when(cli_env: dict[str, str], fresh_db: str) -> None:
    assert run_cli("catalog", "load", env=cli_env).returncode == 0
    done = run_cli("staff", "set-price", "launch", "5900", "--actor", "ada", env=cli_env)
    assert done.returncode == 0, done.stderr
    bad = run_cli("staff", "set-price", "no-such-product", "100", env=cli_env)
    assert bad.returncode == 1 and "no product" in bad.stderr

    from launchdir.bootstrap import bootstrap
    from tests.conftest import test_settings

    c = bootstrap(test_settings(fresh_db))
    try:
        last = c.store.stream(catalog.CATALOG_ID)[-1]
        assert (type(last).__name__, last.price_cents, last.previous_cents) == ("ProductPriceSet", 5900, 4900)
        assert last.actor == "staff:ada" and last.channel == "cli" and last.timestamp.tzinfo is not None
    finally:
        c.close()


def test_projection_status_and_rebuild(cli_env: dict[str, str]) -> None:
    assert run_cli("catalog", "load", env=cli_env).returncode == 0
    rebuilt = run_cli("projections", "rebuild", "catalog_view", env=cli_env)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "generation 2 active" in rebuilt.stdout
    status = run_cli("projections", "status", env=cli_env)
    row = next(line for line in status.stdout.splitlines() if line.startswith("catalog_view"))
    name, gen, state, position, head, lag = row.split()
    assert (gen, state, lag) == ("2", "active", "0") and position == head
    unknown = run_cli("projections", "rebuild", "nope", env=cli_env)
    assert unknown.returncode != 0


def _why_still_running(pgdata: Path, proc: subprocess.Popen[str]) -> str:
    from launchdir.database import HANDLES, STARTS

    files = {name: (pgdata / name).read_text() if (pgdata / name).exists() else None for name in (HANDLES, STARTS)}
    output = proc.stdout.read()[-3000:] if proc.stdout else ""
    return f"pid {proc.pid} exited {proc.returncode}; {files}; serve printed: {output}"


def test_serve_starts_from_an_empty_data_directory_and_keeps_its_data(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update({"LAUNCHDIR_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": str(ROOT)})

    served: list[str] = []

    def start() -> tuple[subprocess.Popen[str], str]:
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-m", "launchdir.cli", "serve", "--port", str(port)],
                                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        url = f"http://127.0.0.1:{port}/api/v1/site"
        served[:] = [f"http://127.0.0.1:{port}"]
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                response = httpx.get(url, timeout=2)
                if response.status_code == 200:
                    return proc, response.text
            except httpx.HTTPError:
                pass
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            time.sleep(0.2)
        proc.kill()
        raise AssertionError("launchdir serve did not answer")

    def stop(proc: subprocess.Popen[str]) -> None:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)

    proc, body = start()
    try:
        assert '"categories":20' in body
        # a command from a shell that names no address looks for the site where this server said it is
        told = subprocess.run([sys.executable, "-c", "from launchdir.bootstrap import bootstrap\n"
                               "from launchdir.settings import Settings\n"
                               "c = bootstrap(Settings.from_env())\nprint(c.settings.base_url)\nc.close()"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert told.stdout.strip() == served[0], told.stderr
    finally:
        stop(proc)
    pgdata = tmp_path / "data" / "postgres"
    assert (pgdata / "PG_VERSION").exists()
    # the embedded server was stopped on exit (on failure, say what the process list held and what serve printed)
    assert not (pgdata / "postmaster.pid").exists(), _why_still_running(pgdata, proc)
    proc, body = start()  # a restart finds the same data and loads nothing twice
    try:
        assert '"categories":20' in body
    finally:
        stop(proc)
