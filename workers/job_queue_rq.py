"""The Redis queue's old module path, kept because it is a stored name.

Jobs queued before the queue moved to `workers/adapters/redis_queue.py` name
`workers.job_queue_rq.on_rq_failure` as their failure callback in Redis; this
alias lets rq find it. Nothing of ours imports this module.
"""

from workers.adapters.redis_queue import on_rq_failure

__all__ = ["on_rq_failure"]
