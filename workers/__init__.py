"""Background jobs, and the outside-world adapters they use (`workers/adapters/`, one per service).

- Jobs and job machinery: `jobs.py` (registry, per-process context, the `JobQueue` contract),
  `job_queue_inline.py` (the in-process queue), `draft_jobs.py` (crawl, draft, redraft, compare;
  the sweeper), `scheduler.py` (opens and closes launch weeks), `views.py` (the view tally and its
  flusher), `mail.py` (the outbox sender, the deferred runner of sign-up and reset work).
- `drafting/`: drafting a profile from a crawl and verifying every value (no I/O of its own).
- `crawl_store.py`: stored crawls, a table in our own database beside the event log.
- `adapters/`: the outside services (websites, the Anthropic API, OAuth clients' metadata
  documents, SMTP, Redis); its package docstring maps each module to its service.
- `job_queue_rq.py`: only the old stored name of the Redis queue's failure callback.
"""
