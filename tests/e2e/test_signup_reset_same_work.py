"""Sign-up and password-reset requests do the same work whether or not the address has an account, so their
timing cannot tell (no account enumeration). Asserted structurally, never by timing (bench/bench_reset_timing.py
measures the distributions): the answers are identical, and both kinds hand exactly one item of the same work
to the deferred runner; what that work then does differs only after the answer."""

from __future__ import annotations

import re
from uuid import uuid4

import httpx

from queries import mail as mail_q
from tests.conftest import RunningServer
from tests.e2e.oauth_support import csrf, person

PASSWORD = "a good long password"
VARYING = ("date", "content-length")


def _addresses(tag: str) -> str:
    return f"{tag}-{uuid4().hex[:10]}@example.com"  # the shape and length of `person`'s addresses


def _answer(r: httpx.Response, address: str) -> tuple[int, str, dict[str, str]]:
    body = re.sub(r'value="[0-9a-f]{64}"', 'value="TOKEN"', r.text).replace(address, "ADDRESS")
    headers = {k: v for k, v in r.headers.items() if k not in VARYING}
    return r.status_code, body, headers


def _deferred(server: RunningServer):  # type: ignore[no-untyped-def]
    return server.container.identity.deferred


def _kinds(server: RunningServer, address: str) -> list[str]:
    return sorted(m["kind"] for m in mail_q.outbox(server.container.services.reads, to=address))


def _wait_for_mail(server: RunningServer, address: str, count: int) -> list[str]:
    assert _deferred(server).wait_idle(10)
    for _ in range(200):
        kinds = _kinds(server, address)
        if len(kinds) >= count:
            return kinds
        server.container.runtime.wait_for(["mail_view"], server.container.store.position(), 0.05)
    return _kinds(server, address)


def test_reset_answers_the_same_and_defers_the_same_work(server: RunningServer) -> None:
    known = person(server.container)
    unknown = _addresses("oauth")  # the same shape and length as the person's address
    assert len(unknown) == len(known.email)
    deferred = _deferred(server)
    with httpx.Client(base_url=server.url, timeout=10, follow_redirects=False) as client:
        token = csrf(client.get("/reset"))
        before = deferred.submitted["request_password_reset"]
        answer_known = client.post("/reset", data={"csrf_token": token, "email": known.email})
        after_known = deferred.submitted["request_password_reset"]
        answer_unknown = client.post("/reset", data={"csrf_token": token, "email": unknown})
        after_unknown = deferred.submitted["request_password_reset"]
    assert after_known - before == 1 and after_unknown - after_known == 1  # one item each, the same job
    assert answer_known.status_code == 200
    assert _answer(answer_known, known.email) == _answer(answer_unknown, unknown)
    # the work itself, after the answers: a link for the account, nothing for an address without one
    assert _wait_for_mail(server, known.email, 1) == ["password_reset"]
    assert _kinds(server, unknown) == []


def test_sign_up_answers_the_same_and_defers_the_same_work(server: RunningServer) -> None:
    taken = person(server.container)
    fresh = _addresses("oauth")
    assert len(fresh) == len(taken.email)
    deferred = _deferred(server)
    with httpx.Client(base_url=server.url, timeout=10, follow_redirects=False) as client:
        token = csrf(client.get("/signup"))
        before = deferred.submitted["register_account"]
        answer_taken = client.post("/signup", data={"csrf_token": token, "email": taken.email,
                                                    "password": "another fine password"})
        after_taken = deferred.submitted["register_account"]
        answer_fresh = client.post("/signup", data={"csrf_token": token, "email": fresh,
                                                    "password": "another fine password"})
        after_fresh = deferred.submitted["register_account"]
    assert after_taken - before == 1 and after_fresh - after_taken == 1
    assert answer_taken.status_code == 200 and "Check your email" in answer_taken.text
    assert _answer(answer_taken, taken.email) == _answer(answer_fresh, fresh)
    # after the answers: a notice to the owner of the taken address, a verification link to the new one
    assert _wait_for_mail(server, taken.email, 1) == ["signup_existing"]
    assert _wait_for_mail(server, fresh, 1) == ["verify_email"]


def test_a_full_runner_answers_503_the_same_for_every_address(server: RunningServer) -> None:
    known = person(server.container)
    deferred = _deferred(server)
    assert deferred.wait_idle(10)
    saved, deferred.max_pending = deferred.max_pending, 0  # as if a flood had filled the queue
    try:
        with httpx.Client(base_url=server.url, timeout=10, follow_redirects=False) as client:
            token = csrf(client.get("/reset"))
            answers = [client.post("/reset", data={"csrf_token": token, "email": address})
                       for address in (known.email, _addresses("oauth"))]
    finally:
        deferred.max_pending = saved
    assert [a.status_code for a in answers] == [503, 503]
    assert "try again" in answers[0].text.lower()
    assert _answer(answers[0], known.email)[1] == _answer(answers[1], known.email)[1]
