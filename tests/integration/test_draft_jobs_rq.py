"""The draft jobs on the Redis queue: rq workers against fakeredis and, when reachable, a real Redis; and a real
`launchdir worker` process (forking a work horse per job) processing submissions made by this process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
import redis

from launchdir.submission import JobContext
from tests.conftest import Databases
from tests.conftest import test_settings as settings_for
from tests.fixtures.drafting_sites import serve
from tests.fixtures.sites.server import FixtureServer
from tests.integration import draft_helpers as h
from tests.integration.redis_support import (
    REAL_REDIS, REAL_REDIS_HOST, REAL_REDIS_PORT, RedisUnderTest, real_redis_reachable)
from workers.draft_jobs import QueueJobs, SubmissionContext
from workers.adapters.redis_queue import RQJobQueue, run_worker
from workers.jobs import install_context
from commands import draft as draft_cmd

@pytest.fixture
def rq(redis_under_test: RedisUnderTest, c: Any) -> Iterator[tuple[SubmissionContext, redis.Redis, str]]:
    """The container's submission context on an rq queue of this test (`redis_under_test`: conftest.py)."""
    conn, name = redis_under_test.connection, redis_under_test.queue_name
    sub = replace(h.sub_of(c), queue=RQJobQueue(conn, queue_name=name))
    install_context(JobContext(submission=sub, services=c.services))
    try:
        yield sub, conn, name
    finally:
        install_context(c.draft_workers.context)


def submit(c: Any, sub: SubmissionContext, url: str, who: str) -> Any:
    from workers.draft_jobs import url_guard

    return draft_cmd.submit_listing(c.store, draft_cmd.SubmitListing(url=url), who, h.meta(who),
                                    check_url=url_guard(sub.crawl_settings), jobs=QueueJobs(sub.queue))


def test_a_burst_worker_crawls_and_drafts_every_queued_submission(c: Any, rq: Any) -> None:
    sub, conn, name = rq
    who = h.account()
    with serve("saas") as saas, serve("devtool") as devtool, FixtureServer("closed") as closed:
        ids = [submit(c, sub, server.url("/"), who).draft_id for server in (saas, devtool, closed)]
        again = submit(c, sub, saas.url("/"), who)
        assert again.existing and again.draft_id == ids[0]
        assert {draft_cmd.load(c.store, i).status for i in ids} == {"crawling"}  # nothing runs without a worker
        assert run_worker(conn, name, burst=True, with_scheduler=False, worker_name=f"w-{name}")
    assert [draft_cmd.load(c.store, i).status for i in ids] == ["ready", "ready", "failed"]
    assert draft_cmd.load(c.store, ids[2]).failure["reason"] == "robots_forbidden"  # type: ignore[index]
    assert sub.queue.failed_jobs() == []
    h.settle(c)
    assert h.doc(c, ids[0], who)["fields"]["name"]["value"] == "Acme Flow"


def test_requeued_jobs_of_finished_drafts_do_nothing(c: Any, rq: Any) -> None:
    sub, conn, name = rq
    who = h.account()
    with serve("polite") as server:
        draft_id = submit(c, sub, server.url("/"), who).draft_id
        run_worker(conn, name, burst=True, with_scheduler=False, worker_name=f"w1-{name}")
        version = draft_cmd.load(c.store, draft_id).version
        QueueJobs(sub.queue).crawl(draft_id)
        QueueJobs(sub.queue).draft(draft_id)
        run_worker(conn, name, burst=True, with_scheduler=False, worker_name=f"w2-{name}")
        assert draft_cmd.load(c.store, draft_id).version == version
        assert server.paths().count("/") == 1


@pytest.mark.skipif(not real_redis_reachable(), reason="needs a real Redis")
def test_the_launchdir_worker_process_runs_the_jobs(databases: Databases) -> None:
    from launchdir.bootstrap import bootstrap, ensure_catalog

    queue = f"ldtest{uuid.uuid4().hex[:12]}"
    settings = settings_for(databases.create(), crawl_allow_loopback=True, redis_url=REAL_REDIS, job_queue=queue)
    c = bootstrap(settings)
    ensure_catalog(c)
    env = {**os.environ, "DATABASE_URL": str(settings.database_url), "REDIS_URL": REAL_REDIS,
           "LAUNCHDIR_JOB_QUEUE": queue, "LAUNCHDIR_CRAWL_ALLOW_LOOPBACK": "1",
           "LAUNCHDIR_DATA_DIR": tempfile.mkdtemp(prefix="launchdir-worker-")}
    log = tempfile.NamedTemporaryFile(prefix="launchdir-worker-", suffix=".log", delete=False)
    worker = subprocess.Popen([sys.executable, "-m", "launchdir.cli", "worker"], env=env, stdout=log, stderr=log)
    try:
        assert isinstance(h.sub_of(c).queue, RQJobQueue)
        who = h.account()
        with serve("studio") as server:
            draft_id = submit(c, h.sub_of(c), server.url("/"), who).draft_id
            deadline = time.monotonic() + 60
            while draft_cmd.load(c.store, draft_id).status in ("crawling", "drafting"):
                output = open(log.name, encoding="utf-8", errors="replace").read()[-3000:]
                assert time.monotonic() < deadline and worker.poll() is None, f"the worker did not finish: {output}"
                time.sleep(0.1)
        assert draft_cmd.load(c.store, draft_id).status == "ready"
        assert "draft_profile" in open(log.name, encoding="utf-8").read()
    finally:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
        c.close()
        conn = redis.Redis(host=REAL_REDIS_HOST, port=REAL_REDIS_PORT)
        keys = list(conn.scan_iter(match=f"*{queue}*", count=1000))
        if keys:
            conn.delete(*keys)
