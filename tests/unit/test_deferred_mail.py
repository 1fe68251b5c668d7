"""The runner that does sign-up and reset work after the answer: in order, retried when the database is away
for a moment, dropped on a domain error, bounded (503 beyond), and drained on stop."""

from __future__ import annotations

import threading

import pytest

from events.errors import Conflict, Unavailable
from workers.mail import DeferredMail


def _runner(max_pending: int = 1000) -> DeferredMail:
    runner = DeferredMail(max_pending=max_pending)
    runner.RETRY_AFTER = (0.0, 0.0)  # type: ignore[misc]  # no waiting between attempts in a test
    return runner


def test_work_runs_in_order_and_is_counted_by_name() -> None:
    runner, done = _runner(), []
    for n in range(5):
        runner.submit("request_password_reset", lambda n=n: done.append(n))  # type: ignore[misc]
    assert runner.wait_idle(5)
    assert done == [0, 1, 2, 3, 4] and runner.submitted["request_password_reset"] == 5
    runner.stop()


def test_passing_failures_are_tried_again_and_domain_errors_are_not() -> None:
    runner, attempts = _runner(), {"flaky": 0, "refused": 0, "broken": 0}

    def flaky() -> None:
        attempts["flaky"] += 1
        if attempts["flaky"] < 3:
            raise Unavailable("the database is away")

    def refused() -> None:
        attempts["refused"] += 1
        raise Conflict("an account with this email address exists")

    def broken() -> None:
        attempts["broken"] += 1
        raise OSError("connection refused")

    for name, work in (("flaky", flaky), ("refused", refused), ("broken", broken)):
        runner.submit(name, work)
    assert runner.wait_idle(5)
    assert attempts == {"flaky": 3, "refused": 1, "broken": 3}  # three attempts at most
    runner.stop()


def test_a_full_runner_refuses_with_unavailable_and_stop_drains_it() -> None:
    runner, gate, done = _runner(max_pending=2), threading.Event(), []
    runner.submit("register_account", lambda: gate.wait(5))
    runner.submit("register_account", lambda: done.append("second"))
    with pytest.raises(Unavailable):
        runner.submit("register_account", lambda: done.append("third"))
    gate.set()
    runner.stop()  # runs what was queued before returning
    assert done == ["second"] and runner.submitted["register_account"] == 2
    runner.submit("register_account", lambda: done.append("after stop"))  # a new thread after stop
    assert runner.wait_idle(5) and done == ["second", "after stop"]
    runner.stop()
