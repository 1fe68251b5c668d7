"""Background jobs: the registry, the per-process context and the queue contract.

A job is a plain function ``fn(ctx, *ids)`` registered under a stable name
with :func:`job`. Jobs receive ids (strings or integers), never objects, so a
queued job can be stored, retried and inspected anywhere; and they must be
idempotent, because any attempt may run again after a crash or a retry.

Two queues implement :class:`JobQueue`: an in-process thread pool and a
Redis-backed one. Both execute work only through :func:`run_job` and report
exhausted retries only through :func:`run_failure_hook`, so a job behaves
the same whichever queue runs it.
"""

from __future__ import annotations

import inspect
import logging
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypeAlias, runtime_checkable

logger = logging.getLogger(__name__)

JobContext: TypeAlias = Any
"""Whatever the composition root hands every job (database handles, clients)."""

JobArg: TypeAlias = str | int
"""The only argument types a job accepts: ids."""

JobFunction: TypeAlias = Callable[..., None]
"""``fn(ctx, *args) -> None``."""

FailureHook: TypeAlias = Callable[..., None]
"""``on_failure(ctx, exc_text, *args) -> None``, called once retries are exhausted."""

DEFAULT_RETRIES = 3
"""Retries after the first attempt, so four attempts in all."""

DEFAULT_BACKOFF: tuple[int, ...] = (5, 30, 120)
"""Seconds to wait before retry 1, 2, 3, ...; the last value repeats."""

_JOB_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,200}")


@dataclass(frozen=True)
class JobSpec:
    """A registered job: its function, its retry policy and its failure hook."""

    name: str
    fn: JobFunction
    retries: int = DEFAULT_RETRIES
    backoff: tuple[int, ...] = DEFAULT_BACKOFF
    on_failure: FailureHook | None = None

    def delay_before_retry(self, retry_number: int) -> int:
        """Seconds to wait before the 1-based `retry_number`-th retry."""
        if not self.backoff:
            return 0
        index = min(max(retry_number, 1), len(self.backoff)) - 1
        return self.backoff[index]

    def retry_intervals(self) -> list[int]:
        """One delay per retry, in order; what a queue needs to schedule all of them."""
        return [self.delay_before_retry(n) for n in range(1, self.retries + 1)]


@dataclass(frozen=True)
class FailedJob:
    """A job that ran out of retries, as shown to operators and requeued by them."""

    name: str
    args: tuple[JobArg, ...]
    job_id: str
    error: str
    failed_at: datetime


@runtime_checkable
class JobQueue(Protocol):
    """What the application needs from a background-job queue."""

    def enqueue(self, name: str, *args: JobArg, job_id: str | None = None) -> str:
        """Queue job `name` with id arguments and return its job id.

        Enqueuing a `job_id` that is still queued, waiting for a retry or
        running does nothing and returns the same id, so the job runs once.
        """
        ...

    def failed_jobs(self) -> list[FailedJob]:
        """Jobs that exhausted their retries and are still remembered."""
        ...

    def requeue_failed(self, job_id: str) -> bool:
        """Run a failed job again with a fresh retry budget; False if unknown."""
        ...

    def wait_idle(self, timeout: float) -> bool:
        """Block until nothing is queued, waiting or running; False on timeout."""
        ...

    def close(self) -> None:
        """Stop accepting jobs and release the queue's resources."""
        ...


# --- context -----------------------------------------------------------------

_NO_CONTEXT: Any = object()
_context: JobContext = _NO_CONTEXT
_context_lock = threading.Lock()


def install_context(ctx: JobContext | None) -> None:
    """Make `ctx` the context every job in this process receives; None removes it.

    It is process-wide rather than per-thread because worker threads of the
    in-process queue must see what the main thread installed.
    """
    global _context
    with _context_lock:
        _context = _NO_CONTEXT if ctx is None else ctx


def current_context() -> JobContext:
    """The installed job context; fails loudly so a worker never runs half-wired."""
    ctx = _context
    if ctx is _NO_CONTEXT:
        raise RuntimeError(
            "No job context installed in this process: the composition root must call "
            "workers.jobs.install_context(...) before jobs run."
        )
    return ctx


# --- registry ----------------------------------------------------------------

_registry: dict[str, JobSpec] = {}
_registry_lock = threading.Lock()


def job(
    name: str,
    *,
    retries: int = DEFAULT_RETRIES,
    backoff: Sequence[int] = DEFAULT_BACKOFF,
    on_failure: FailureHook | None = None,
) -> Callable[[JobFunction], JobFunction]:
    """Register the decorated ``fn(ctx, *args)`` as job `name` and return it unchanged.

    `retries` counts the retries after the first attempt; `backoff` gives the
    seconds before each retry (the last value repeats). `on_failure` runs once,
    with the error text, when the job has failed for the last time, so the
    thing it was working on can be marked failed instead of staying stuck.
    """
    if not name or not isinstance(name, str):
        raise ValueError("job name must be a non-empty string")
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        raise ValueError(f"job {name!r}: retries must be an int >= 0, got {retries!r}")
    delays = tuple(backoff)
    for delay in delays:
        if isinstance(delay, bool) or not isinstance(delay, int) or delay < 0:
            raise ValueError(f"job {name!r}: backoff must hold ints >= 0, got {delays!r}")

    def register(fn: JobFunction) -> JobFunction:
        spec = JobSpec(name=name, fn=fn, retries=retries, backoff=delays, on_failure=on_failure)
        with _registry_lock:
            existing = _registry.get(name)
            if existing is not None and _identity(existing.fn) != _identity(fn):
                raise ValueError(
                    f"job name {name!r} is already registered by {'.'.join(_identity(existing.fn))}"
                )
            _registry[name] = spec
        return fn

    return register


def _identity(fn: Callable[..., Any]) -> tuple[str, str]:
    """Module and qualified name: stable across a re-import of the same module."""
    return (getattr(fn, "__module__", "?"), getattr(fn, "__qualname__", repr(fn)))


def registered_jobs() -> dict[str, JobSpec]:
    """A snapshot of every registered job by name."""
    with _registry_lock:
        return dict(_registry)


def get_job(name: str) -> JobSpec:
    """The job registered as `name`; KeyError names the job modules' duty if missing."""
    with _registry_lock:
        spec = _registry.get(name)
    if spec is None:
        raise KeyError(f"no job registered as {name!r}; is the module defining it imported?")
    return spec


# --- enqueue-time checks ------------------------------------------------------


def validate_job_id(job_id: str) -> None:
    """Job ids are short and made of letters, digits, ``_`` and ``-`` so every queue accepts them."""
    if not isinstance(job_id, str):
        raise TypeError(f"job_id must be a string, not {type(job_id).__name__}")
    if not _JOB_ID_PATTERN.fullmatch(job_id):
        raise ValueError(
            f"job_id {job_id!r} must be 1-200 characters of letters, digits, '_' or '-'"
        )


def check_call(name: str, args: Sequence[Any]) -> JobSpec:
    """Refuse a job call before it is queued: unknown name, non-id arguments or wrong arity.

    Failing here, in the caller, is far cheaper than failing in a worker later.
    """
    spec = get_job(name)
    for position, arg in enumerate(args):
        if isinstance(arg, bool) or not isinstance(arg, (str, int)):
            raise TypeError(
                f"job {name!r} argument {position} is {type(arg).__name__}; "
                "jobs take ids (str or int), never objects"
            )
    try:
        inspect.signature(spec.fn).bind(None, *args)
    except TypeError as exc:
        raise TypeError(f"job {name!r} cannot take arguments {tuple(args)!r}: {exc}") from None
    return spec


# --- execution ----------------------------------------------------------------


def run_job(name: str, args: Sequence[JobArg]) -> None:
    """Execute one attempt of job `name` with the installed context.

    Every queue calls this (the Redis-backed one by its dotted path), so the
    lookup, the context and the logging are the same everywhere. Exceptions
    propagate: the queue decides about retries.
    """
    spec = get_job(name)
    ctx = current_context()
    logger.debug("running job %s%r", name, tuple(args))
    spec.fn(ctx, *args)


def run_failure_hook(name: str, exc_text: str, args: Sequence[JobArg]) -> None:
    """Call job `name`'s on_failure hook, if any, after its final failed attempt.

    The hook's own errors are logged and swallowed: the failure is already
    recorded, and a broken hook must not hide the original error.
    """
    try:
        spec = get_job(name)
    except KeyError:
        logger.error("job %s failed for good but is not registered here; no hook run", name)
        return
    if spec.on_failure is None:
        return
    try:
        spec.on_failure(current_context(), exc_text, *args)
    except Exception:
        logger.exception("on_failure hook of job %s%r raised", name, tuple(args))
