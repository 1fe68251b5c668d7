"""Shutting `launchdir serve` down: SIGTERM is graceful and stops the embedded PostgreSQL; stale ids never keep it up.

Real processes on an embedded server of their own (no DATABASE_URL): the server answers, gets a
signal, and must exit 0 with the PostgreSQL of its data directory gone. A `serve` killed outright
(SIGKILL) leaves its process id in the server's list of users: the next start must work, and its
clean exit must still stop the server.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest

from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
STOP_WITHIN = 60  # seconds: finish requests, stop threads, close pools, stop PostgreSQL


def _running(pid: int) -> bool:
    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


def _postmaster(data: Path) -> int:
    return int((data / "postgres" / "postmaster.pid").read_text().split()[0])


class Serve:
    """One `launchdir serve` process on a free port, with the data directory `data`."""

    def __init__(self, data: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        env.update({"LAUNCHDIR_DATA_DIR": str(data), "PYTHONPATH": str(ROOT)})
        port = free_port()
        self.log = data.parent / f"serve-{port}.log"
        with self.log.open("w") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "launchdir.cli", "serve", "--port", str(port)],
                                         cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/v1/site", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert self.proc.poll() is None, self.output()
            time.sleep(0.2)
        self.proc.kill()
        raise AssertionError("launchdir serve did not answer: " + self.output())

    def output(self) -> str:
        return self.log.read_text()

    def stop(self, sig: signal.Signals) -> int:
        self.proc.send_signal(sig)
        return self.proc.wait(timeout=STOP_WITHIN)


@pytest.fixture
def data(tmp_path: Path) -> Iterator[Path]:
    """A data directory; whatever PostgreSQL a failed test leaves running in it is stopped afterwards."""
    data = tmp_path / "data"
    yield data
    try:
        pid = _postmaster(data)
    except (OSError, ValueError, IndexError):
        return
    if _running(pid):
        try:
            os.kill(pid, signal.SIGINT)  # PostgreSQL's fast shutdown
        except ProcessLookupError:
            pass


def test_sigterm_shuts_serve_down_gracefully_with_its_embedded_postgres(data: Path) -> None:
    serve = Serve(data)
    postgres = _postmaster(data)
    assert _running(postgres)
    assert serve.stop(signal.SIGTERM) == 0, serve.output()
    assert not _running(postgres), "the embedded PostgreSQL is still running:\n" + serve.output()
    assert not (data / "postgres" / "postmaster.pid").exists()
    assert f"data: {data} (embedded PostgreSQL)" in serve.output()
    assert "launchdir stopped" in serve.output()


def test_a_killed_serve_leaves_no_stale_user_behind(data: Path) -> None:
    crashed = Serve(data)
    crashed.proc.kill()  # SIGKILL: no clean-up at all; PostgreSQL keeps running, the id stays listed
    crashed.proc.wait(timeout=STOP_WITHIN)
    postgres = _postmaster(data)
    assert _running(postgres)
    gone = subprocess.Popen(["true"])
    gone.wait()  # and one more id of a process that has ended
    handles = data / "postgres" / ".handle_pids.json"
    handles.write_text(json.dumps([*json.loads(handles.read_text()), gone.pid]))

    restarted = Serve(data)  # the next start works, on the same PostgreSQL
    assert _postmaster(data) == postgres
    assert restarted.stop(signal.SIGINT) == 0, restarted.output()
    assert not _running(postgres), "stale process ids kept the embedded PostgreSQL running:\n" + restarted.output()
    assert json.loads(handles.read_text()) == []
